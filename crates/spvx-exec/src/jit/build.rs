//! Building a program's native code: a Cranelift JIT module with one function per program
//! function (`lower`), the native workgroup or round loop (`lower_loop`), and the call-out
//! into the interpreter as the imported symbol (called directly or through its trampoline,
//! `callout_trampoline`); then linking it into a [`JitCode`].

use super::analysis;
use super::callout_trampoline::{CalloutIds, Callouts};
use super::loops::BarrierLoops;
use super::lower::{FnLower, Shared};
use super::runtime;
use super::{JitCode, LanesCode, NativeFn};
use crate::program::{Program, Slot, Term};
use cranelift_codegen::ir::{AbiParam, FuncRef, Function, UserFuncName, types};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{FuncId, Linkage, Module, default_libcall_names};
use std::collections::HashMap;

const I64: types::Type = types::I64;

/// Compiles every function of `prog` and returns the entry point's code. With `native_code`
/// false every instruction calls the interpreter (for testing the register handling).
pub fn compile(prog: &Program, native_code: bool) -> Result<JitCode, String> {
    compile_dumping(prog, native_code, None)
}

/// The state of an invocation: registers, resume point, barrier instruction, a counter per
/// loop with a barrier (`loop_counters`), and (for the round loop) a status word. Returns the
/// resume point's and the status word's indices and the state's words.
pub fn state_layout(prog: &Program, loop_counters: usize) -> (usize, usize, usize) {
    let resume_word = prog.slot_count as usize;
    let status_word = resume_word + 2 + loop_counters;
    (resume_word, status_word, status_word + 1)
}

/// [`compile`], appending each function's Cranelift IR (after optimisation) and machine code
/// to `dump` when given.
pub fn compile_dumping(
    prog: &Program,
    native_code: bool,
    mut dump: Option<&mut String>,
) -> Result<JitCode, String> {
    let NewModule {
        mut module,
        sig,
        callout_ids,
        group_id: _,
    } = new_module()?;
    let mut ids: Vec<FuncId> = Vec::with_capacity(prog.functions.len());
    for i in 0..prog.functions.len() {
        let id = module
            .declare_function(&format!("f{i}"), Linkage::Local, &sig)
            .map_err(|e| fail("declare", &e))?;
        ids.push(id);
    }

    let vars = analysis::variables(prog, native_code);
    let constants = constants(prog, &vars);
    let entry_fn = &prog.functions[prog.entry as usize];
    // Barriers and subgroup instructions suspend invocations: the round loop runs them.
    let workgroup_barriers = entry_fn
        .segments
        .iter()
        .any(|s| matches!(s.term, Term::Barrier { .. }));
    let barriers = workgroup_barriers
        || entry_fn
            .code
            .iter()
            .any(|i| super::group::shape(i).is_some());
    let loops = if barriers {
        BarrierLoops::new(entry_fn)?
    } else {
        BarrierLoops::default()
    };

    let private_sums = if native_code {
        super::atomics::private_sums(prog, &constants)
    } else {
        Vec::new()
    };
    let run_constants = analysis::run_constants(prog, &constants);
    let mut shared = Shared {
        prog,
        constants,
        run_constants,
        private_sums,
        native_code,
        callouts: Vec::new(),
        native: 0,
    };
    let mut ctx = module.make_context();
    let mut fctx = FunctionBuilderContext::new();
    // The entry function's IR as built, for inlining into the workgroup loop (`inline`).
    let mut entry_body: Option<Function> = None;
    let inline_entry = native_code
        && if barriers {
            super::inline::worth_inlining_into_rounds(entry_fn)
        } else {
            super::inline::worth_inlining(entry_fn)
        };
    for (fi, f) in prog.functions.iter().enumerate() {
        ctx.func.signature = sig.clone();
        ctx.func.name = UserFuncName::user(0, ids[fi].as_u32());
        {
            let mut b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
            let callout = Callouts::declare(&mut module, callout_ids, b.func);
            // Only the functions this one calls (declaring every function in every function
            // would be quadratic in the number of functions).
            let mut callees = HashMap::new();
            for seg in &f.segments {
                if let Term::Call { func, .. } = seg.term {
                    callees
                        .entry(func)
                        .or_insert_with(|| declare_far(&mut module, ids[func as usize], b.func));
                }
            }
            let is_entry = fi == prog.entry as usize;
            let mut l = FnLower::new(
                &mut b,
                &mut shared,
                fi as u32,
                f,
                &vars[fi],
                if is_entry { Some(&loops) } else { None },
                callout,
                callees,
                1,
            );
            l.lower();
            b.seal_all_blocks();
            b.finalize(module.target_config());
        }
        if inline_entry && fi == prog.entry as usize {
            entry_body = Some(ctx.func.clone());
        }
        if dump.is_some() {
            ctx.set_disasm(true);
        }
        super::code_cache::define(&mut module, ids[fi], &mut ctx)
            .map_err(|e| fail(&format!("function {fi}"), &e))?;
        append_code(dump.as_deref_mut(), &format!("function {fi}"), &ctx);
        module.clear_context(&mut ctx);
    }
    let loop_id = match super::lower_loop::loop_builtins(prog, barriers) {
        Some(builtins) if native_code => {
            let id = module
                .declare_function("workgroup", Linkage::Local, &sig)
                .map_err(|e| fail("declare", &e))?;
            ctx.func.signature = sig.clone();
            ctx.func.name = UserFuncName::user(0, id.as_u32());
            let (entry, stores) = {
                let mut b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
                let entry = declare_far(&mut module, ids[prog.entry as usize], b.func);
                let callouts = !shared.callouts.is_empty();
                let stores = super::lower_loop::emit(&mut b, entry, &builtins, callouts);
                b.seal_all_blocks();
                b.finalize(module.target_config());
                (entry, stores)
            };
            if let Some(body) = &entry_body {
                ctx.inline(super::inline::EntryInliner { entry, body })
                    .map_err(|e| fail("inlining the entry function", &e))?;
                super::inline::forward_builtins(&mut ctx.func, &stores);
            }
            ctx.set_disasm(dump.is_some());
            super::code_cache::define(&mut module, id, &mut ctx)
                .map_err(|e| fail("workgroup loop", &e))?;
            append_code(dump.as_deref_mut(), "workgroup loop", &ctx);
            module.clear_context(&mut ctx);
            Some(id)
        }
        _ => None,
    };
    let (resume_word, status_word, state_words) = state_layout(prog, loops.headers.len());
    let rounds_id = if barriers {
        let id = module
            .declare_function("rounds", Linkage::Local, &sig)
            .map_err(|e| fail("declare", &e))?;
        ctx.func.signature = sig.clone();
        ctx.func.name = UserFuncName::user(0, id.as_u32());
        let entry = {
            let mut b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
            let entry = declare_far(&mut module, ids[prog.entry as usize], b.func);
            super::lower_loop::emit_rounds(
                &mut b,
                entry,
                state_words,
                resume_word,
                status_word,
                prog.private_bytes > 0,
            );
            b.seal_all_blocks();
            b.finalize(module.target_config());
            entry
        };
        if let Some(body) = &entry_body {
            ctx.inline(super::inline::EntryInliner { entry, body })
                .map_err(|e| fail("inlining the entry function", &e))?;
        }
        ctx.set_disasm(dump.is_some());
        super::code_cache::define(&mut module, id, &mut ctx).map_err(|e| fail("round loop", &e))?;
        append_code(dump.as_deref_mut(), "round loop", &ctx);
        module.clear_context(&mut ctx);
        Some(id)
    } else {
        None
    };
    let starts_id = match super::lower_loop::loop_builtins(prog, false) {
        Some(builtins) if barriers => {
            let id = module
                .declare_function("starts", Linkage::Local, &sig)
                .map_err(|e| fail("declare", &e))?;
            ctx.func.signature = sig.clone();
            ctx.func.name = UserFuncName::user(0, id.as_u32());
            {
                let mut b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
                super::lower_loop::emit_starts(
                    &mut b,
                    &builtins,
                    state_words,
                    resume_word,
                    status_word,
                );
                b.seal_all_blocks();
                b.finalize(module.target_config());
            }
            ctx.set_disasm(dump.is_some());
            super::code_cache::define(&mut module, id, &mut ctx).map_err(|e| fail("starts", &e))?;
            append_code(dump, "starts", &ctx);
            module.clear_context(&mut ctx);
            Some(id)
        }
        _ => None,
    };
    let (natively_lowered, called_out) = (shared.native, shared.callouts.len());
    module
        .finalize_definitions()
        .map_err(|e| fail("finalize", &e))?;
    // SAFETY: the functions were defined with the signature `NativeFn` describes (three 64-bit
    // parameters, one 64-bit result, the platform's default calling convention).
    let native = |id: FuncId| unsafe {
        std::mem::transmute::<*const u8, NativeFn>(module.get_finalized_function(id))
    };
    let entry = native(ids[prog.entry as usize]);
    let workgroup_loop = loop_id.map(native);
    let rounds = rounds_id.map(native);
    let starts = starts_id.map(native);
    let tensor_checks = if native_code {
        super::lower_tensor::tensor_checks(prog, &shared.run_constants)
    } else {
        Vec::new()
    };
    Ok(JitCode {
        module: Some(module),
        entry,
        workgroup_loop,
        rounds,
        starts,
        native_code,
        workgroup_barriers,
        lanes_eligible: super::lanes::eligible(prog),
        lanes: std::sync::OnceLock::new(),
        simd: Err("not asked for (`JitCode::with_vector_lanes`)".into()),
        resume_word,
        status_word,
        callouts: shared.callouts,
        private_sums: shared.private_sums,
        state_words,
        natively_lowered,
        called_out,
        fixed_ops: super::lower_fixed::fixed_ops(prog),
        tensor_checks,
    })
}

/// Whether Cranelift's IR verifier checks every function compiled: in debug builds and with
/// the `jit-verify` feature (the test suite's). It checks spvx's own lowering, not the user's
/// module, and cost 12-17 M instructions per `spvx run` of the benchmark set's run files
/// (callgrind).
const VERIFY: &str = if cfg!(any(debug_assertions, feature = "jit-verify")) {
    "true"
} else {
    "false"
};

/// A fresh JIT module for this host with the call-outs into the interpreter as imports, the
/// call-out's `preserve_all` trampoline (`callout_trampoline`), and the one signature of
/// native functions.
pub(super) struct NewModule {
    pub module: JITModule,
    pub sig: cranelift_codegen::ir::Signature,
    callout_ids: CalloutIds,
    group_id: FuncId,
}

pub(super) fn new_module() -> Result<NewModule, String> {
    let mut flags = settings::builder();
    for (k, v) in [
        ("use_colocated_libcalls", "false"),
        ("is_pic", "false"),
        ("opt_level", "speed"),
        ("enable_verifier", VERIFY),
    ] {
        flags.set(k, v).map_err(|e| fail("settings", &e))?;
    }
    let isa = cranelift_native::builder()
        .map_err(|e| fail("host", &e))?
        .finish(settings::Flags::new(flags))
        .map_err(|e| fail("host", &e))?;
    if isa.pointer_type() != I64 {
        return Err("JIT: only 64-bit hosts".into());
    }
    let mut jb = JITBuilder::with_isa(isa, default_libcall_names());
    jb.symbol("spvx_jit_callout", runtime::callout as *const u8);
    jb.symbol("spvx_jit_group", runtime::group_callout as *const u8);
    let mut module = JITModule::new(jb);
    let mut sig = module.make_signature();
    sig.params.extend([AbiParam::new(I64); 3]);
    sig.returns.push(AbiParam::new(I64));
    let callout_id = module
        .declare_function("spvx_jit_callout", Linkage::Import, &sig)
        .map_err(|e| fail("declare", &e))?;
    let callout_ids = CalloutIds {
        direct: callout_id,
        preserving: super::callout_trampoline::define(&mut module, callout_id)?,
    };
    let group_id = module
        .declare_function("spvx_jit_group", Linkage::Import, &sig)
        .map_err(|e| fail("declare", &e))?;
    Ok(NewModule {
        module,
        sig,
        callout_ids,
        group_id,
    })
}

/// The registers that hold the same value for the whole run and that no instruction writes
/// (with `native_code` as for `analysis::variables`).
pub(super) fn constants(prog: &Program, vars: &[Vec<Slot>]) -> HashMap<Slot, u64> {
    let written: std::collections::HashSet<Slot> = vars.iter().flatten().copied().collect();
    prog.init
        .iter()
        .filter(|(s, _)| !written.contains(s))
        .copied()
        .collect()
}

/// Compiles the lanes function of `prog` (`lanes`; `lanes::eligible` must hold) into its own
/// module, for a state of `state_words` words per lane, appending its IR and machine code to
/// `dump` when given.
pub fn compile_lanes(
    prog: &Program,
    native_code: bool,
    state_words: usize,
    dump: Option<&mut String>,
) -> Result<LanesCode, String> {
    let NewModule {
        mut module,
        sig,
        callout_ids,
        group_id,
    } = new_module()?;
    let vars = analysis::variables(prog, native_code);
    let constants = constants(prog, &vars);
    let mut shared = Shared {
        prog,
        run_constants: analysis::run_constants(prog, &constants),
        constants,
        private_sums: Vec::new(),
        native_code,
        callouts: Vec::new(),
        native: 0,
    };
    let builtins = super::lower_loop::loop_builtins(prog, false);
    let id = module
        .declare_function("lanes", Linkage::Local, &sig)
        .map_err(|e| fail("declare", &e))?;
    let mut ctx = module.make_context();
    let mut fctx = FunctionBuilderContext::new();
    ctx.func.signature = sig.clone();
    ctx.func.name = UserFuncName::user(0, id.as_u32());
    {
        let mut b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
        let callout = Callouts::declare(&mut module, callout_ids, b.func);
        let group = module.declare_func_in_func(group_id, b.func);
        let entry = prog.entry as usize;
        let mut l = FnLower::new(
            &mut b,
            &mut shared,
            entry as u32,
            &prog.functions[entry],
            &vars[entry],
            None,
            callout,
            HashMap::new(),
            super::lanes::LANES,
        );
        l.lower_lanes(group, state_words, builtins.as_deref());
        b.seal_all_blocks();
        b.finalize(module.target_config());
    }
    let values = ctx.func.dfg.num_values();
    if values > super::lanes::MAX_LANES_VALUES {
        return Err(format!(
            "the lanes function has {values} IR values, more than the {} it is compiled for",
            super::lanes::MAX_LANES_VALUES
        ));
    }
    let func = finish_single(&mut module, &mut ctx, id, "lanes", dump)?;
    Ok(LanesCode {
        module: Some(module),
        func,
        callouts: shared.callouts,
        builtins: builtins.is_some(),
    })
}

/// Declares function `id` in `func` to be called through its absolute address. Cranelift's JIT
/// allocates each function's code apart, and may place two of them more than 2 GiB from each
/// other, out of reach of a direct call's 32-bit displacement: linking then panics
/// (bytecodealliance/wasmtime#4000, found by the `exec` fuzz target in a long run). An
/// indirect call has no such limit and costs a register load.
pub(super) fn declare_far(module: &mut JITModule, id: FuncId, func: &mut Function) -> FuncRef {
    let r = module.declare_func_in_func(id, func);
    func.dfg.ext_funcs[r].colocated = false;
    r
}

/// "JIT: WHAT: ERROR", the form of the JIT's compile errors.
pub(super) fn fail(what: &str, e: &dyn std::fmt::Display) -> String {
    format!("JIT: {what}: {e}")
}

/// Defines the function built in `ctx` as `id` (`name` in errors and in `dump`) in a module
/// that holds only it and the helpers it calls, finalizes the module and returns the
/// function's code.
pub(super) fn finish_single(
    module: &mut JITModule,
    ctx: &mut cranelift_codegen::Context,
    id: FuncId,
    name: &str,
    dump: Option<&mut String>,
) -> Result<NativeFn, String> {
    ctx.set_disasm(dump.is_some());
    super::code_cache::define(module, id, ctx).map_err(|e| fail(name, &e))?;
    append_code(dump, name, ctx);
    module.clear_context(ctx);
    module
        .finalize_definitions()
        .map_err(|e| fail("finalize", &e))?;
    // SAFETY: the function was defined with the signature `NativeFn` describes (three 64-bit
    // parameters, one 64-bit result, the platform's default calling convention).
    Ok(unsafe { std::mem::transmute::<*const u8, NativeFn>(module.get_finalized_function(id)) })
}

/// Appends a compiled function's IR and machine code to `dump`, when dumping.
pub(super) fn append_code(dump: Option<&mut String>, name: &str, ctx: &cranelift_codegen::Context) {
    if let Some(d) = dump {
        d.push_str(&format!("; {name}\n{}\n", ctx.func.display()));
        if let Some(code) = ctx.compiled_code().and_then(|c| c.vcode.as_ref()) {
            d.push_str(code);
        }
    }
}
