//! Fuzz check of spvx-exec: generated modules (`gen.rs`, the typed mode, or the race-free mode
//! three times in four) that validate are compiled and run with tiny step and memory limits, a
//! small dispatch and random buffers. A run ends in a report or one typed error (step limit,
//! memory limit, barrier deadlock, strict-mode undefined behaviour), never a panic or hang; the
//! buffer the module never writes (binding 1) is unchanged, and the written one keeps its
//! length (isolation); running the same dispatch again on one thread gives the same outcome and
//! the same bytes (no hidden state).
//!
//! The JIT against the interpreter (`exec_common::differential`): every module runs on one
//! thread with the same inputs on the interpreter (`jit: false`), on the JIT (`jit: true` on
//! `CompiledModule::with_jit_always`, twice: the second run uses the code the first compiled)
//! and on a JIT whose every instruction is a call-out
//! (`CompiledModule::with_jit_callouts_only`). Where the result cannot depend on how the
//! invocations of a subgroup interleave — race-free modules, or a subgroup size of 1 (then
//! both run each invocation to its next barrier in LocalInvocationIndex order) — the outcomes
//! must be identical: Ok or the same error text, both buffers, events, event count, printed
//! lines. A JIT that ran must have run a dispatch the interpreter reports nothing on, and a JIT
//! that fell back while the interpreter reports nothing must say it was the step budget, a
//! barrier or a subgroup instruction's rendezvous (as `crates/spvx-exec/tests/jit.rs`). Strict
//! runs (one input in four) always use the interpreter, so for them the three runs compare the
//! interpreter with itself.
//!
//! Called by the fuzz target `exec`, replayed by `crates/spvx-exec/tests/fuzz_regressions.rs`.

use crate::exec_common::{Engine, Outcome, config, differential, split_settings};
use crate::generator::{Mode, OWNED, generate_mode};
use spvx_exec::{CompileOptions, CompiledModule, Resources, RunConfig};

/// Both storage buffers after a run: binding 0 and binding 1.
type Buffers = [Option<Vec<u8>>; 2];

/// The check (see the module comment). Layout of `data`: 8 bytes of run settings (subgroup
/// size, strict, groups x and y, binding 0's words, binding 1's words, seed, generator mode),
/// then the generator's bytes.
pub fn exec(data: &[u8]) {
    let Some((mut h, rest)) = split_settings(data) else {
        return;
    };
    let subgroup_size = [1, 2, 4, 8, 16, 32, 64, 3][h.below(8)];
    let strict = h.u8() & 3 == 3;
    let groups = [1 + h.below(3) as u32, 1 + h.below(2) as u32, 1];
    let mut n0 = h.below(24);
    let n1 = 1 + h.below(8);
    let seed = h.u8() as u32;
    let race_free = h.u8() & 3 != 0;
    let mode = if race_free {
        Mode::RaceFree
    } else {
        Mode::Typed
    };
    let Some((module, shape)) = generate_mode(rest, mode) else {
        return;
    };
    if race_free {
        // Room for every owned element, or (one time in eight) one to three words short.
        let need = (groups[0] * shape.local_x * OWNED) as usize;
        n0 = if n0 < 3 { need - 1 - n0 } else { need };
    }
    let Ok(compiled) = CompiledModule::from_module(&module, "main", &CompileOptions::default())
    else {
        return;
    };
    let words0: Vec<u32> = (0..n0 as u32)
        .map(|k| k.wrapping_mul(0x9e37_79b9) ^ seed)
        .collect();
    let words1: Vec<u32> = (0..n1 as u32).map(|k| k.wrapping_add(seed << 8)).collect();
    let run = |m: &CompiledModule, cfg: &RunConfig| {
        let mut res = Resources::new();
        res.set_words(0, 0, &words0);
        res.set_words(0, 1, &words1);
        let r = m.run(&mut res, groups, cfg);
        let buffers = [0, 1].map(|b| res.buffer(0, b).map(<[u8]>::to_vec));
        Outcome::new(r, buffers)
    };
    let want1: Vec<u8> = words1.iter().flat_map(|w| w.to_le_bytes()).collect();
    let isolated = |o: &Outcome<Buffers>, what: Engine| {
        assert_eq!(
            o.memory[0].as_ref().map_or(0, Vec::len),
            words0.len() * 4,
            "{what}: binding 0 changed length ({})",
            o.result
        );
        assert_eq!(
            o.memory[1].as_deref().unwrap_or_default(),
            &want1[..],
            "{what}: binding 1 (never written by the module) changed ({})",
            o.result
        );
    };
    let cfg = config(subgroup_size, strict);
    differential(
        &compiled,
        &cfg,
        race_free || subgroup_size == 1,
        run,
        isolated,
    );
}
