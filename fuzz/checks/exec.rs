//! Fuzz check of spvx-exec: generated modules (`gen.rs`, the typed mode, or the race-free mode
//! three times in four) that validate are compiled and run with tiny step and memory limits, a
//! small dispatch and random buffers. A run ends in a report or one typed error (step limit,
//! memory limit, barrier deadlock, strict-mode undefined behaviour), never a panic or hang; the
//! buffer the module never writes (binding 1) is unchanged, and the written one keeps its
//! length (isolation); running the same dispatch again on one thread gives the same outcome and
//! the same bytes (no hidden state).
//!
//! The JIT against the interpreter: every module runs on one thread with the same inputs on
//! the interpreter (`jit: false`), on the JIT (`jit: true` on
//! `CompiledModule::with_jit_always`, twice: the second run uses the code the first compiled)
//! and on a JIT whose every instruction is a call-out
//! (`CompiledModule::with_jit_callouts_only`). Where the result cannot depend on how the
//! invocations of a subgroup interleave — race-free modules, or a subgroup size of 1 (then
//! both run each invocation to its next barrier in LocalInvocationIndex order) — the outcomes
//! must be identical: Ok or the same error text, both buffers, events, event count, printed
//! lines. A JIT that ran must have run a dispatch the interpreter reports nothing on, and a JIT
//! that fell back while the interpreter reports nothing must say it was the step budget, a
//! barrier or a subgroup instruction's rendezvous (as `crates/spvx-exec/tests/jit.rs`). Strict runs (one input in four) always use
//! the interpreter, so for them the three runs compare the interpreter with itself.
//!
//! Called by the fuzz target `exec`, replayed by `crates/spvx-exec/tests/fuzz_regressions.rs`.

use crate::generator::{Bytes, Mode, OWNED, generate_mode};
use spvx_exec::{CompileOptions, CompiledModule, JitUse, Resources, RunConfig};

/// What a run gave, as compared between the interpreter and the JIT.
#[derive(Clone, Debug, PartialEq)]
struct Outcome {
    /// `ok` or the error's text.
    result: String,
    events: Vec<String>,
    total_events: u64,
    prints: Vec<String>,
    buffer0: Option<Vec<u8>>,
    buffer1: Option<Vec<u8>>,
}

/// The check (see the module comment). Layout of `data`: 8 bytes of run settings (subgroup
/// size, strict, groups x and y, binding 0's words, binding 1's words, seed, generator mode),
/// then the generator's bytes.
pub fn exec(data: &[u8]) {
    if data.len() < 8 {
        return;
    }
    let (head, rest) = data.split_at(8);
    let mut h = Bytes(head);
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
    let words0: Vec<u32> = (0..n0 as u32)
        .map(|k| k.wrapping_mul(0x9e37_79b9) ^ seed)
        .collect();
    let words1: Vec<u32> = (0..n1 as u32).map(|k| k.wrapping_add(seed << 8)).collect();
    let run = |m: &CompiledModule, jit: bool| {
        let mut res = Resources::new();
        res.set_words(0, 0, &words0);
        res.set_words(0, 1, &words1);
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
        let o = Outcome {
            result,
            events,
            total_events,
            prints,
            buffer0: res.buffer(0, 0).map(<[u8]>::to_vec),
            buffer1: res.buffer(0, 1).map(<[u8]>::to_vec),
        };
        (o, used)
    };
    let want1: Vec<u8> = words1.iter().flat_map(|w| w.to_le_bytes()).collect();
    let isolated = |o: &Outcome, what: &str| {
        assert_eq!(
            o.buffer0.as_ref().map_or(0, Vec::len),
            words0.len() * 4,
            "{what}: binding 0 changed length ({})",
            o.result
        );
        assert_eq!(
            o.buffer1.as_deref().unwrap_or_default(),
            &want1[..],
            "{what}: binding 1 (never written by the module) changed ({})",
            o.result
        );
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
    if !(race_free || subgroup_size == 1) {
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
    jit_uses_agree(
        interp.result == "ok",
        interp.total_events,
        &jit_use,
        &call_use,
    );
}

/// What the engine checks require of how the JITs took a dispatch whose outcome must equal the
/// interpreter's (`interp_ok`, `interp_events`: the interpreter's run). Both JITs run or fall
/// back alike, except where the step budget decides (converted branches charge the longer
/// arm's steps natively); a JIT that ran must have run a dispatch the interpreter reports
/// nothing on; a JIT that fell back while the interpreter reports nothing must say it was the
/// step budget, a barrier or a subgroup instruction's rendezvous.
pub fn jit_uses_agree(interp_ok: bool, interp_events: u64, jit_use: &JitUse, call_use: &JitUse) {
    let kind = |u: &JitUse| match u {
        JitUse::Off => "off",
        JitUse::Ran => "ran",
        JitUse::Unsupported(_) => "unsupported",
        JitUse::FellBack(_) => "fell back",
    };
    let budget = |u: &JitUse| matches!(u, JitUse::FellBack(why) if why.contains("step"));
    if !budget(jit_use) && !budget(call_use) {
        assert_eq!(
            kind(jit_use),
            kind(call_use),
            "native and call-out JIT: {jit_use:?} vs {call_use:?}"
        );
    }
    for (u, what) in [(jit_use, "JIT"), (call_use, "call-out JIT")] {
        match u {
            JitUse::Ran => assert_eq!(
                interp_events, 0,
                "the {what} ran a dispatch the interpreter reports events on"
            ),
            JitUse::FellBack(why) if interp_ok && interp_events == 0 => {
                assert!(
                    why.contains("step")
                        || why.contains("barrier")
                        || why.contains("subgroup instruction"),
                    "the {what} fell back without a reason the interpreter shows: {why}"
                )
            }
            _ => {}
        }
    }
}
