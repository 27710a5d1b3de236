//! Fuzz check of spvx-exec: generated modules (`gen.rs`, the typed mode) that validate are
//! compiled and run with tiny step and memory limits, a small dispatch and random buffers. A run
//! ends in a report or one typed error (step limit, memory limit, barrier deadlock, strict-mode
//! undefined behaviour), never a panic or hang; the buffer the module never writes (binding 1)
//! is unchanged, and the written one keeps its length (isolation); running the same dispatch
//! again on one thread gives the same outcome and the same bytes (no hidden state). Called by
//! the fuzz target `exec`, replayed by `crates/spvx-exec/tests/fuzz_regressions.rs`.

use crate::generator::{Bytes, generate};
use spvx_exec::{CompileOptions, CompiledModule, Resources, RunConfig};

/// The check (see the module comment). Layout of `data`: 8 bytes of run settings, then the
/// generator's bytes.
pub fn exec(data: &[u8]) {
    if data.len() < 8 {
        return;
    }
    let (head, rest) = data.split_at(8);
    let mut h = Bytes(head);
    let subgroup_size = [1, 2, 4, 8, 16, 32, 64, 3][h.below(8)];
    let strict = h.u8() & 1 == 1;
    let groups = [1 + h.below(3) as u32, 1 + h.below(2) as u32, 1];
    let n0 = h.below(24);
    let n1 = 1 + h.below(8);
    let seed = h.u8() as u32;
    let Some((module, _shape)) = generate(rest, false) else {
        return;
    };
    let Ok(compiled) = CompiledModule::from_module(&module, "main", &CompileOptions::default())
    else {
        return;
    };
    let cfg = RunConfig {
        subgroup_size,
        strict,
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
    let run = || {
        let mut res = Resources::new();
        res.set_words(0, 0, &words0);
        res.set_words(0, 1, &words1);
        let outcome = compiled.run(&mut res, groups, &cfg);
        let summary = match &outcome {
            Ok(r) => format!("ok, {} events", r.total_events),
            Err(e) => format!("error: {e}"),
        };
        (
            summary,
            res.buffer(0, 0).map(<[u8]>::to_vec),
            res.buffer(0, 1).map(<[u8]>::to_vec),
        )
    };
    let first = run();
    let b0 = first.1.clone().unwrap_or_default();
    let b1 = first.2.clone().unwrap_or_default();
    assert_eq!(
        b0.len(),
        words0.len() * 4,
        "binding 0 changed length ({})",
        first.0
    );
    let want1: Vec<u8> = words1.iter().flat_map(|w| w.to_le_bytes()).collect();
    assert_eq!(
        b1, want1,
        "binding 1 (never written by the module) changed ({})",
        first.0
    );
    let second = run();
    assert_eq!(first, second, "two runs of the same dispatch differ");
}
