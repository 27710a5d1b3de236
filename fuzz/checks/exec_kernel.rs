//! Fuzz check of spvx-exec on Kernel-model modules (physical addressing, OpenCL.std): modules
//! from `gen_kernel.rs` that validate and compile are run with tiny step and memory limits on
//! a small dispatch, with random buffers for `a`, `b` and `c`, a random `n` and a random
//! `__local` size. A run ends in a report or one typed error (step limit, memory limit,
//! barrier deadlock, strict-mode undefined behaviour, ...), never a panic or hang.
//!
//! Isolation: `b` (which the module never writes through its own parameter, nor through any
//! pointer derived from it, whatever it does to pointers derived from `a`: walks, forging
//! within `a`'s slot of the address map, generic casts) and the `__constant` buffer `c` (which
//! forged pointers may write: the engine must drop those writes) come out byte for byte
//! unchanged, and `a` keeps its length. The engine's `kernel_args()` must list the parameters
//! the generator declared, with their kinds. Running the same dispatch again gives the same
//! outcome and the same bytes (no hidden state).
//!
//! The JIT against the interpreter: every module runs with the same inputs on the interpreter
//! (`jit: false`), on the JIT (`jit: true` on `CompiledModule::with_jit_always`, twice) and on
//! the JIT whose every instruction is a call-out (`CompiledModule::with_jit_callouts_only`).
//! The generated modules are not race-free (invocations share `a`, `l` and the Workgroup
//! array, and use atomics), so the outcomes are compared only at subgroup size 1 (one input
//! in two), where both engines run each invocation to its next barrier in
//! LocalInvocationIndex order and the result cannot depend on interleaving: then Ok or the
//! same error text, `a`, events, event count and printed lines must be identical, a JIT that
//! ran must have run a dispatch the interpreter reports nothing on, and a JIT that fell back
//! while the interpreter reports nothing must say it was the step budget, a barrier or a
//! subgroup rendezvous. Strict runs (one input in four) always use the interpreter.
//!
//! Called by the fuzz target `exec_kernel`, replayed by
//! `crates/spvx-exec/tests/fuzz_regressions.rs`.

use crate::gen_kernel::{Param, generate};
use crate::generator::Bytes;
use spvx_exec::resources::{KernelArg, KernelArgKind};
use spvx_exec::{CompileOptions, CompiledModule, JitUse, Resources, RunConfig};

/// What a run gave, as compared between runs and engines.
#[derive(Clone, Debug, PartialEq)]
struct Outcome {
    /// `ok` or the error's text.
    result: String,
    events: Vec<String>,
    total_events: u64,
    prints: Vec<String>,
    /// Every buffer argument after the run, in argument order.
    buffers: Vec<Option<Vec<u8>>>,
}

/// `n` little-endian words from `seed`.
fn words(n: usize, seed: u32) -> Vec<u8> {
    (0..n as u32)
        .flat_map(|k| (k.wrapping_mul(0x9e37_79b9) ^ seed).to_le_bytes())
        .collect()
}

/// The check (see the module comment). Layout of `data`: 8 bytes of run settings (subgroup
/// size, strict, groups x and y, `a`'s words, `b`'s and `c`'s words, seed, local size and
/// `__local` bytes), then the generator's bytes.
pub fn exec_kernel(data: &[u8]) {
    if data.len() < 8 {
        return;
    }
    let (head, rest) = data.split_at(8);
    let mut h = Bytes(head);
    let subgroup_size = [1, 1, 1, 1, 2, 4, 8, 32][h.below(8)];
    let strict = h.u8() & 3 == 3;
    let groups = [1 + h.below(3) as u32, 1 + h.below(2) as u32, 1];
    let a_words = h.below(40);
    let bc = h.u8();
    let (b_words, c_words) = (1 + (bc & 7) as usize, (bc >> 3 & 7) as usize);
    let seed = h.u8() as u32;
    let settings = h.u8();
    let local_bytes = [0u64, 4, 16, 64, 256, 3][(settings >> 1) as usize % 6];
    let n = [0u32, 1, 3, 7, 64, 1000, 0xffff_ffff, seed][(settings >> 4 & 7) as usize];
    let Some((module, shape)) = generate(rest) else {
        return;
    };
    let Ok(compiled) = CompiledModule::from_module(&module, "main", &CompileOptions::default())
    else {
        return;
    };
    // The engine lists the parameters the generator declared.
    let kinds: Vec<KernelArgKind> = compiled.kernel_args().iter().map(|a| a.kind).collect();
    let want: Vec<KernelArgKind> = shape
        .args
        .iter()
        .map(|p| match p {
            Param::A | Param::B => KernelArgKind::Buffer,
            Param::N => KernelArgKind::Scalar,
            Param::Local => KernelArgKind::Local,
            Param::Constant => KernelArgKind::ConstantBuffer,
        })
        .collect();
    assert_eq!(
        kinds, want,
        "kernel_args() and the generated parameters differ"
    );
    let inputs: Vec<KernelArg> = shape
        .args
        .iter()
        .map(|p| match p {
            Param::A => KernelArg::Buffer(words(a_words, seed)),
            Param::B => KernelArg::Buffer(words(b_words, seed << 8 | 1)),
            Param::N => KernelArg::Scalar(n.to_le_bytes().to_vec()),
            Param::Local => KernelArg::Local(local_bytes),
            Param::Constant => KernelArg::Buffer(words(c_words, seed << 16 | 2)),
        })
        .collect();
    // A declared LocalSize may be given again or left out; else the dispatch gives it.
    let local_size = (!shape.declared || settings & 1 == 1).then_some(shape.local);
    let callouts = compiled.with_jit_callouts_only();
    // The JIT also on the programs the interpreter takes for speed (mostly call-outs).
    let native = compiled.with_jit_always();
    let cfg = |jit: bool| RunConfig {
        subgroup_size,
        strict,
        jit,
        step_limit: 20_000,
        memory_limit: 1 << 20,
        threads: Some(1),
        max_events: 4,
        ..RunConfig::default()
    };
    let run = |m: &CompiledModule, jit: bool| {
        let mut res = Resources::new();
        for (i, a) in inputs.iter().enumerate() {
            res.set_arg(i as u32, a.clone());
        }
        res.local_size = local_size;
        let outcome = m.run(&mut res, groups, &cfg(jit));
        let (result, events, total_events, prints, used) = match outcome {
            Ok(r) => (
                "ok".to_string(),
                r.events.iter().map(|e| format!("{e:?}")).collect(),
                r.total_events,
                r.prints.iter().map(|p| format!("{p:?}")).collect(),
                r.jit,
            ),
            Err(e) => (
                format!("error: {e}"),
                Vec::new(),
                0,
                Vec::new(),
                JitUse::Off,
            ),
        };
        let buffers = (0..inputs.len() as u32)
            .map(|i| res.arg_buffer(i).map(<[u8]>::to_vec))
            .collect();
        let o = Outcome {
            result,
            events,
            total_events,
            prints,
            buffers,
        };
        (o, used)
    };
    let isolated = |o: &Outcome, what: &str| {
        for (i, (p, given)) in shape.args.iter().zip(&inputs).enumerate() {
            let (KernelArg::Buffer(given), Some(after)) = (given, &o.buffers[i]) else {
                continue;
            };
            match p {
                Param::A => assert_eq!(
                    after.len(),
                    given.len(),
                    "{what}: a changed length ({})",
                    o.result
                ),
                Param::B | Param::Constant => assert!(
                    after == given,
                    "{what}: {p:?} (never written by the module) changed ({})",
                    o.result
                ),
                _ => {}
            }
        }
    };
    let (interp, _) = run(&compiled, false);
    isolated(&interp, "interpreter");
    let (interp2, _) = run(&compiled, false);
    assert_eq!(
        interp, interp2,
        "two interpreter runs of the same dispatch differ"
    );
    let (jit, jit_use) = run(&native, true);
    isolated(&jit, "JIT");
    let (jit2, jit_use2) = run(&native, true);
    assert_eq!(jit, jit2, "two JIT runs of the same dispatch differ");
    assert_eq!(
        jit_use, jit_use2,
        "two JIT runs of the same dispatch differ"
    );
    let (call, call_use) = run(&callouts, true);
    isolated(&call, "call-out JIT");
    if subgroup_size != 1 {
        // Invocations of a subgroup may race: the JIT's interleaving may legitimately differ.
        return;
    }
    assert_eq!(
        jit, interp,
        "the JIT and the interpreter differ (JIT: {jit_use:?})"
    );
    assert_eq!(
        call, interp,
        "the call-out JIT and the interpreter differ (call-out JIT: {call_use:?})"
    );
    crate::exec::jit_uses_agree(
        interp.result == "ok",
        interp.total_events,
        &jit_use,
        &call_use,
    );
}
