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
//! The JIT against the interpreter (`exec_common::differential`): every module runs with the
//! same inputs on the interpreter (`jit: false`), on the JIT (`jit: true` on
//! `CompiledModule::with_jit_always`, twice) and on the JIT whose every instruction is a
//! call-out (`CompiledModule::with_jit_callouts_only`).
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

use crate::exec_common::{Engine, Outcome, config, differential, split_settings};
use crate::gen_kernel::{Param, generate};
use spvx_exec::resources::{KernelArg, KernelArgKind};
use spvx_exec::{CompileOptions, CompiledModule, Resources, RunConfig};

/// Every buffer argument after a run, in argument order.
type Buffers = Vec<Option<Vec<u8>>>;

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
    let Some((mut h, rest)) = split_settings(data) else {
        return;
    };
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
    let run = |m: &CompiledModule, cfg: &RunConfig| {
        let mut res = Resources::new();
        for (i, a) in inputs.iter().enumerate() {
            res.set_arg(i as u32, a.clone());
        }
        res.local_size = local_size;
        let r = m.run(&mut res, groups, cfg);
        let buffers = (0..inputs.len() as u32)
            .map(|i| res.arg_buffer(i).map(<[u8]>::to_vec))
            .collect();
        Outcome::new(r, buffers)
    };
    let isolated = |o: &Outcome<Buffers>, what: Engine| {
        for (i, (p, given)) in shape.args.iter().zip(&inputs).enumerate() {
            let (KernelArg::Buffer(given), Some(after)) = (given, &o.memory[i]) else {
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
    // The generated modules are not race-free: the engines are compared at subgroup size 1.
    let cfg = config(subgroup_size, strict);
    differential(&compiled, &cfg, subgroup_size == 1, run, isolated);
}
