//! What the three engine checks share (`exec.rs`, `exec_kernel.rs`, `exec_tensor.rs`): how
//! their input splits ([`split_settings`]), their run settings ([`config`]: tiny step and
//! memory limits, one thread), a run's outcome as they compare it ([`Outcome`]), and the
//! differential run itself ([`differential`]): the same dispatch on the interpreter
//! (`jit: false`) twice, on the one-invocation JIT (`jit: true` on
//! `CompiledModule::with_scalar_jit`, twice: the second run uses the code the first compiled)
//! and on the JIT whose every instruction is a call-out (`with_jit_callouts_only`). When the
//! JIT can run the module in SIMD vector lanes (`with_jit_vector_lanes`,
//! `JitCode::vector_lanes`; the default for loops of arithmetic), it runs once more there, so
//! that both lowerings are compared whichever the default is. Repeated runs must agree (no
//! hidden state); where the result cannot depend on how the invocations of a subgroup
//! interleave, every JIT must give the interpreter's outcome and take the dispatch as
//! [`jit_uses_agree`] says.

use crate::gen_core::Bytes;
use spvx_exec::{CompiledModule, ExecError, JitUse, RunConfig, RunReport};
use std::fmt::{self, Debug};
use std::sync::atomic::{AtomicU64, Ordering};

/// Differential runs whose JIT ran in vector lanes (`jit::simd`), for statistics.
pub static VECTOR_LANE_RUNS: AtomicU64 = AtomicU64::new(0);

/// An engine check's input: its first 8 bytes (the run settings) to read, and the rest (the
/// generator's bytes); `None` when it is shorter.
pub fn split_settings(data: &[u8]) -> Option<(Bytes<'_>, &[u8])> {
    let (head, rest) = data.split_at_checked(8)?;
    Some((Bytes(head), rest))
}

/// What a run gave, as compared between runs and engines: the report (or the error) and
/// `memory`, what the check reads back of the resources after the run.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome<M> {
    /// `ok` or the error's text.
    pub result: String,
    pub events: Vec<String>,
    pub total_events: u64,
    pub prints: Vec<String>,
    pub memory: M,
}

impl<M> Outcome<M> {
    /// The outcome of a run that returned `run`, and how the JIT took it (`Off` on an error).
    pub fn new(run: Result<RunReport, ExecError>, memory: M) -> (Self, JitUse) {
        let (result, events, total_events, prints, jit) = match run {
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
            memory,
        };
        (o, jit)
    }
}

/// The engine checks' run settings on the interpreter: tiny step and memory limits, one
/// thread, four events kept, every binding copied back (a stray store into one the module
/// never writes shows; [`differential`] sets `jit` for the JIT runs).
pub fn config(subgroup_size: u32, strict: bool) -> RunConfig {
    RunConfig {
        subgroup_size,
        strict,
        copy_back_unwritten: true,
        jit: false,
        step_limit: 20_000,
        memory_limit: 1 << 20,
        threads: Some(1),
        max_events: 4,
        ..RunConfig::default()
    }
}

/// The engine a run used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    Interpreter,
    Jit,
    CallOutJit,
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Engine::Interpreter => "interpreter",
            Engine::Jit => "JIT",
            Engine::CallOutJit => "call-out JIT",
        })
    }
}

/// The differential run (see the module comment) of the dispatch `run` makes of a module and
/// a config (new resources each time): `cfg` is the interpreter's config, `check` sees the
/// first run on each engine (the interpreter's before its second run), and `comparable` says
/// the result cannot depend on how invocations interleave (then the engines must agree).
pub fn differential<M: PartialEq + Debug>(
    compiled: &CompiledModule,
    cfg: &RunConfig,
    comparable: bool,
    run: impl Fn(&CompiledModule, &RunConfig) -> (Outcome<M>, JitUse),
    check: impl Fn(&Outcome<M>, Engine),
) {
    // The JIT also on the programs the interpreter takes for speed (mostly call-outs); one
    // invocation at a time (the vector lanes run below).
    let native = compiled.with_scalar_jit();
    let callouts = compiled.with_jit_callouts_only();
    let jit_cfg = RunConfig {
        jit: true,
        ..cfg.clone()
    };
    let (interp, _) = run(compiled, cfg);
    check(&interp, Engine::Interpreter);
    let (interp2, _) = run(compiled, cfg);
    assert_eq!(
        interp, interp2,
        "two interpreter runs of the same dispatch differ"
    );
    let (jit, jit_use) = run(&native, &jit_cfg);
    check(&jit, Engine::Jit);
    let (jit2, jit_use2) = run(&native, &jit_cfg);
    assert_eq!(jit, jit2, "two JIT runs of the same dispatch differ");
    assert_eq!(
        jit_use, jit_use2,
        "two JIT runs of the same dispatch differ"
    );
    let (call, call_use) = run(&callouts, &jit_cfg);
    check(&call, Engine::CallOutJit);
    let lanes = compiled.with_jit_vector_lanes();
    if let Ok(Err(why)) = lanes.jit_code().map(|c| c.vector_lanes()) {
        // A program the vector lanes accept must compile (a refusal says why in words).
        assert!(
            !why.starts_with("JIT:"),
            "the vector lanes failed to compile: {why}"
        );
    }
    let vector = lanes.jit_code().is_ok_and(|c| c.vector_lanes().is_ok());
    let in_lanes = vector.then(|| {
        VECTOR_LANE_RUNS.fetch_add(1, Ordering::Relaxed);
        let (o, u) = run(&lanes, &jit_cfg);
        check(&o, Engine::Jit);
        (o, u)
    });
    if !comparable {
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
    if let Some((lanes_out, lanes_use)) = in_lanes {
        assert_eq!(
            lanes_out, interp,
            "the JIT in vector lanes and the interpreter differ ({lanes_use:?})"
        );
        jit_uses_agree(
            interp.result == "ok",
            interp.total_events,
            &jit_use,
            &lanes_use,
        );
    }
}

/// What the engine checks require of how the JITs took a dispatch whose outcome must equal the
/// interpreter's (`interp_ok`, `interp_events`: the interpreter's run). Both JITs run or fall
/// back alike, except where the step budget decides (converted branches charge the longer
/// arm's steps natively) or a subgroup instruction's rendezvous does (one JIT's lanes function
/// may be left uncompiled for its size, `jit::lanes::MAX_LANES_VALUES`, where the other's is
/// small enough: that one runs the subgroup in one call, the first falls back); a JIT that ran
/// must have run a dispatch the interpreter reports nothing on; a JIT that fell back while the
/// interpreter reports nothing must say it was the step budget, a barrier or a subgroup
/// instruction's rendezvous.
pub fn jit_uses_agree(interp_ok: bool, interp_events: u64, jit_use: &JitUse, call_use: &JitUse) {
    let kind = |u: &JitUse| match u {
        JitUse::Off => "off",
        JitUse::Ran => "ran",
        JitUse::Unsupported(_) => "unsupported",
        JitUse::FellBack(_) => "fell back",
    };
    let budget = |u: &JitUse| matches!(u, JitUse::FellBack(why) if why.contains("step"));
    let rendezvous =
        |u: &JitUse| matches!(u, JitUse::FellBack(why) if why.contains("subgroup instruction"));
    let lanes_size =
        matches!((jit_use, call_use), (JitUse::Ran, o) | (o, JitUse::Ran) if rendezvous(o));
    if !budget(jit_use) && !budget(call_use) && !lanes_size {
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
