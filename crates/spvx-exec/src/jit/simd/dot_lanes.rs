//! The vector lanes' call into spvx-num for the mixed dots of four lanes: one call of a
//! trampoline that Cranelift compiles with its `preserve_all` convention (every register the
//! trampoline or its callees touch is saved and restored by the trampoline), which calls
//! spvx-num's C-ABI function lane by lane. The lanes function's loops then keep their vectors
//! in registers across the call: with calls of the platform's convention, which clobber every
//! vector register, the register allocator kept a reduction's loop-carried accumulator and
//! counter in stack slots for the whole loop (a store and reloads on every iteration of the
//! hot path, through which the accumulator's dependency chain then ran), although the call
//! is on the cold path only.
//!
//! The trampoline's argument block, 48 bytes: the four lanes' packed `a` words (two 16-bit
//! components, component 0 low) as 32-bit lanes, then their `b` words, then their
//! accumulators' bits, which the trampoline overwrites with the results.

use crate::jit::build::{append_code, fail};
use cranelift_codegen::ir::{AbiParam, InstBuilder, MemFlagsData, Signature, UserFuncName, types};
use cranelift_codegen::isa::CallConv;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::JITModule;
use cranelift_module::{FuncId, Linkage, Module};

/// Bytes of the argument block.
pub(super) const BLOCK_BYTES: u32 = 48;
/// Offsets of its parts.
pub(super) const A_AT: i32 = 0;
pub(super) const B_AT: i32 = 16;
pub(super) const ACC_AT: i32 = 32;

/// The trampoline's signature: `(block, configuration word, spvx-num entry)`, nothing
/// returned (`preserve_all` returns no values; the results go to the block).
pub(super) fn signature() -> Signature {
    let mut sig = Signature::new(CallConv::PreserveAll);
    sig.params.extend([AbiParam::new(types::I64); 3]);
    sig
}

/// Defines the trampoline in `module`, appending its IR and machine code to `dump` when given.
pub(super) fn define(module: &mut JITModule, dump: Option<&mut String>) -> Result<FuncId, String> {
    let sig = signature();
    let id = module
        .declare_function("dot_lanes", Linkage::Local, &sig)
        .map_err(|e| fail("declare", &e))?;
    let mut ctx = module.make_context();
    ctx.func.signature = sig;
    ctx.func.name = UserFuncName::user(0, id.as_u32());
    // spvx-num's entries: `extern "C" fn(a, b, acc, word) -> bits`.
    let mut entry_sig = Signature::new(module.isa().default_call_conv());
    entry_sig.params.extend([AbiParam::new(types::I64); 4]);
    entry_sig.returns.push(AbiParam::new(types::I64));
    let mut fctx = FunctionBuilderContext::new();
    {
        let mut b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
        let start = b.create_block();
        b.append_block_params_for_function_params(start);
        b.switch_to_block(start);
        let p = b.block_params(start).to_vec();
        let (block, word, entry) = (p[0], p[1], p[2]);
        let entry_sig = b.import_signature(entry_sig);
        let t = MemFlagsData::trusted();
        for lane in 0..4 {
            let at = |part: i32| part + 4 * lane;
            let a = b.ins().uload32(t, block, at(A_AT));
            let bw = b.ins().uload32(t, block, at(B_AT));
            let acc = b.ins().uload32(t, block, at(ACC_AT));
            let call = b.ins().call_indirect(entry_sig, entry, &[a, bw, acc, word]);
            let r = b.inst_results(call)[0];
            b.ins().istore32(t, r, block, at(ACC_AT));
        }
        b.ins().return_(&[]);
        b.seal_all_blocks();
        b.finalize(module.target_config());
    }
    ctx.set_disasm(dump.is_some());
    crate::jit::code_cache::define(module, id, &mut ctx)
        .map_err(|e| fail("mixed-dot trampoline", &e))?;
    append_code(dump, "mixed-dot trampoline (preserve_all)", &ctx);
    module.clear_context(&mut ctx);
    Ok(id)
}
