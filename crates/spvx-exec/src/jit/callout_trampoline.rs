//! The two ways native code calls the interpreter (`runtime::callout`): from a cold block
//! (the fallback of an instruction lowered natively, such as a tensor access whose tensor the
//! native code does not take) through a trampoline that Cranelift compiles with its
//! `preserve_all` convention, from any other block (an instruction the JIT always runs
//! through the interpreter) directly.
//!
//! The trampoline saves and restores every register it or the interpreter touches, so its
//! call site clobbers none, and the code around it keeps its values in registers across it.
//! With a direct call on the cold path, the register allocator kept the hot path's values in
//! the callee-saved registers or in stack slots, stored and reloaded on every iteration of the
//! workgroup loop although the call never runs there (a tensor transpose's loop: 97 → 85
//! instructions per invocation). A call through it costs about fifty instructions more than
//! a direct one (the caller-saved registers, vector registers included, saved and restored):
//! a call-out that runs every time stays direct.
//!
//! `preserve_all` returns no values: the trampoline stores the call-out's status in the
//! context (`runtime::CTX_CALLOUT_STATUS`), where [`Callouts::call`] reads it back.

use super::build::fail;
use super::lower::I64;
use super::runtime::CTX_CALLOUT_STATUS;
use cranelift_codegen::ir::{
    self, AbiParam, FuncRef, InstBuilder, MemFlagsData, Signature, UserFuncName, Value,
};
use cranelift_codegen::isa::CallConv;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::JITModule;
use cranelift_module::{FuncId, Linkage, Module};

/// Defines the trampoline in `module`: `(ctx, regs, call-out id)`, nothing returned, calling
/// `callout` (the imported `runtime::callout`, of the platform's convention) with the same
/// arguments.
pub(super) fn define(module: &mut JITModule, callout: FuncId) -> Result<FuncId, String> {
    let mut sig = Signature::new(CallConv::PreserveAll);
    sig.params.extend([AbiParam::new(I64); 3]);
    let id = module
        .declare_function("callout_trampoline", Linkage::Local, &sig)
        .map_err(|e| fail("declare", &e))?;
    let mut ctx = module.make_context();
    ctx.func.signature = sig;
    ctx.func.name = UserFuncName::user(0, id.as_u32());
    let mut fctx = FunctionBuilderContext::new();
    {
        let mut b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
        let target = super::build::declare_far(module, callout, b.func);
        let start = b.create_block();
        b.append_block_params_for_function_params(start);
        b.switch_to_block(start);
        let p = b.block_params(start).to_vec();
        let call = b.ins().call(target, &p);
        let status = b.inst_results(call)[0];
        b.ins()
            .store(MemFlagsData::trusted(), status, p[0], CTX_CALLOUT_STATUS);
        b.ins().return_(&[]);
        b.seal_all_blocks();
        b.finalize(module.target_config());
    }
    super::code_cache::define(module, id, &mut ctx).map_err(|e| fail("call-out trampoline", &e))?;
    module.clear_context(&mut ctx);
    Ok(id)
}

/// The interpreter's call-out and its trampoline in a module.
#[derive(Clone, Copy)]
pub(super) struct CalloutIds {
    pub direct: FuncId,
    pub preserving: FuncId,
}

/// The same, declared in a function being built.
#[derive(Clone, Copy)]
pub(super) struct Callouts {
    direct: FuncRef,
    preserving: FuncRef,
}

impl Callouts {
    /// Declares both in `func` (by absolute address: `build::declare_far`).
    pub fn declare(module: &mut JITModule, ids: CalloutIds, func: &mut ir::Function) -> Callouts {
        Callouts {
            direct: super::build::declare_far(module, ids.direct, func),
            preserving: super::build::declare_far(module, ids.preserving, func),
        }
    }

    /// Calls call-out `id` for the invocation whose context and register file are `ctx` and
    /// `regs`, and returns its status (`super::status`): through the trampoline from a cold
    /// block, directly from any other.
    pub fn call(&self, b: &mut FunctionBuilder, (ctx, regs): (Value, Value), id: usize) -> Value {
        let id = b.ins().iconst(I64, id as i64);
        let cold = b
            .current_block()
            .is_some_and(|block| b.func.layout.is_cold(block));
        if cold {
            b.ins().call(self.preserving, &[ctx, regs, id]);
            b.ins()
                .load(I64, MemFlagsData::trusted(), ctx, CTX_CALLOUT_STATUS)
        } else {
            let call = b.ins().call(self.direct, &[ctx, regs, id]);
            b.inst_results(call)[0]
        }
    }
}
