//! The JIT's vector lanes (`jit::simd`: four invocations at a time in SIMD vectors, lane masks
//! for divergent control flow, finished lanes taking the workgroup's next invocations) against
//! the interpreter, its reference, and against the scalar JIT: divergent loops and branches,
//! early returns, per-lane shifts and divisions, floats with NaNs, out-of-bounds accesses and
//! divisions by zero in one lane (active: the dispatch must go to the interpreter; inactive: it
//! must not), workgroup sizes not a multiple of four, conditions of every
//! comparison and constant factors (also against a Rust model of the shader), the benchmark
//! kernels. Every run must give the interpreter's bytes, events and errors; the JIT must have
//! run exactly when the interpreter reports nothing; and each module must actually take the
//! vector path (`CompiledModule::with_jit_vector_lanes`, `JitCode::vector_lanes`).

use spvx_exec::{CompileOptions, CompiledModule, JitUse, Resources, RunConfig, RunReport};
use std::path::PathBuf;

#[path = "../../../fuzz/checks/exec.rs"]
mod exec;
#[path = "../../../fuzz/checks/exec_common.rs"]
#[allow(dead_code)]
mod exec_common;
#[path = "../../../fuzz/checks/gen_core.rs"]
#[allow(dead_code)]
mod gen_core;
#[path = "../../../fuzz/checks/gen.rs"]
#[allow(dead_code)]
mod generator;

mod glsl_corpus;

use glsl_corpus::Rng;

fn module(rel: &str) -> CompiledModule {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel);
    let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{rel}: {e}"));
    CompiledModule::from_bytes(&bytes, "main", &CompileOptions::default())
        .unwrap_or_else(|e| panic!("{rel}: {e}"))
}

type Outcome = Result<(Resources, RunReport), String>;

fn run(
    m: &CompiledModule,
    res: &Resources,
    groups: [u32; 3],
    jit: bool,
    threads: usize,
) -> Outcome {
    let mut res = res.clone();
    // (Every binding copied back: a stray store into one the module never writes shows.)
    let cfg = RunConfig {
        jit,
        threads: Some(threads),
        copy_back_unwritten: true,
        ..RunConfig::default()
    };
    m.run(&mut res, groups, &cfg)
        .map(|r| (res, r))
        .map_err(|e| e.to_string())
}

/// Runs `m` on the interpreter, on the vector lanes (one and two threads) and on the scalar
/// JIT; all must agree. Returns the interpreter's outcome and the vector lanes' JIT use.
fn agree(name: &str, m: &CompiledModule, res: &Resources, groups: [u32; 3]) -> (Outcome, JitUse) {
    let vector = m.with_jit_vector_lanes();
    let code = vector.jit_code().expect("the JIT compiles it");
    if let Err(why) = code.vector_lanes() {
        panic!("{name}: not run in vector lanes: {why}");
    }
    let scalar = m.with_scalar_jit();
    assert!(scalar.jit_code().expect("compiles").vector_lanes().is_err());
    let interp = run(m, res, groups, false, 1);
    let mut used = JitUse::Off;
    for (what, m, threads) in [
        ("vector lanes", &vector, 1),
        ("vector lanes, two threads", &vector, 2),
        ("scalar JIT", &scalar, 1),
    ] {
        let jit = run(m, res, groups, true, threads);
        match (&jit, &interp) {
            (Ok((rj, j)), Ok((ri, i))) => {
                assert!(
                    rj == ri,
                    "{name} ({what}): the resources differ; jit {:?} events {} vs {}",
                    j.jit,
                    j.total_events,
                    i.total_events
                );
                assert_eq!(j.events, i.events, "{name} ({what}): events");
                assert_eq!(j.total_events, i.total_events, "{name} ({what})");
                assert_eq!(j.prints, i.prints, "{name} ({what}): prints");
                match &j.jit {
                    JitUse::Ran => {
                        assert_eq!(i.total_events, 0, "{name} ({what}): ran with events")
                    }
                    JitUse::FellBack(_) => {
                        assert!(
                            i.total_events > 0,
                            "{name} ({what}): fell back: {:?}",
                            j.jit
                        )
                    }
                    other => panic!("{name} ({what}): the JIT did not take it: {other:?}"),
                }
                if threads == 1 && what.starts_with("vector") {
                    used = j.jit.clone();
                }
            }
            (Err(a), Err(b)) => assert_eq!(a, b, "{name} ({what}): errors"),
            (a, b) => panic!(
                "{name} ({what}): {:?} against {:?}",
                a.as_ref().err(),
                b.as_ref().err()
            ),
        }
    }
    (interp, used)
}

fn words(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Float patterns with NaNs, infinities, zeros, subnormals.
const F32_EDGES: [u32; 10] = [
    0x0000_0000,
    0x8000_0000,
    0x0000_0001,
    0x3f80_0000,
    0xbf80_0000,
    0x7f7f_ffff,
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0000,
    0xffc0_0001,
];

#[test]
fn divergent_loops_and_branches_match_the_interpreter() {
    let m = module("tests/corpus/simd/divergent.comp.spv");
    let mut rng = Rng(0x51d0);
    for round in 0..12 {
        let n = 64 + 13;
        let inp: Vec<u32> = (0..n)
            .map(|i| match (round + i) % 4 {
                0 => rng.next_u32(),
                1 => rng.next_u32() % 40,
                2 => (i as u32).wrapping_mul(0x9e37_79b9) | 0x8000_0000,
                _ => rng.next_u32() & 0xfff,
            })
            .collect();
        let fl: Vec<u32> = (0..128)
            .map(|i| {
                if (i + round) % 3 == 0 {
                    F32_EDGES[rng.next() as usize % F32_EDGES.len()]
                } else {
                    rng.next_u32()
                }
            })
            .collect();
        let mut res = Resources::new();
        res.set_buffer(0, 0, words(&inp));
        res.set_buffer(0, 1, words(&vec![round as u32; 256 + 13]));
        res.set_buffer(0, 2, words(&fl));
        // 13 invocations per workgroup: not a multiple of the four lanes.
        let (interp, used) = agree(&format!("divergent round {round}"), &m, &res, [4, 1, 1]);
        let (_, report) = interp.expect("the interpreter runs it");
        if report.total_events == 0 {
            assert_eq!(used, JitUse::Ran, "round {round}");
        }
    }
}

/// guarded.comp with lane `oob` reading out of bounds and lane `div` dividing by `divisor`.
fn guarded(oob: u32, div: u32, divisor: u32) -> (Outcome, JitUse) {
    let m = module("tests/corpus/simd/guarded.comp.spv");
    let mut inp = vec![oob, div];
    inp.extend((0..32u32).map(|i| if i == div { divisor } else { i + 1 }));
    // Divisors of 0 in lanes that do not divide (the branch skips them).
    inp[2 + 11] = 0;
    let mut res = Resources::new();
    res.set_buffer(0, 0, words(&inp));
    res.set_buffer(0, 1, words(&[0; 16]));
    agree(
        &format!("guarded oob {oob} div {div} by {divisor}"),
        &m,
        &res,
        [1, 1, 1],
    )
}

#[test]
fn undefined_cases_in_inactive_lanes_do_not_bail() {
    for div in [0, 5, 7, 15, 1000] {
        let (interp, used) = guarded(1000, div, 3);
        let (res, report) = interp.expect("runs");
        assert_eq!(report.total_events, 0, "div {div}");
        assert_eq!(used, JitUse::Ran, "div {div}");
        // Independent answer for the lanes that do not loop into the division (i & 3 == 0).
        let out = res.words(0, 1).expect("out");
        for i in (0..16u32).filter(|i| i & 3 == 0) {
            let extra = if i == div { 1000 / 3 } else { 0 };
            assert_eq!(out[i as usize], i * 7 + extra, "lane {i}");
        }
    }
}

#[test]
fn undefined_cases_in_active_lanes_go_to_the_interpreter() {
    for lane in [0, 3, 8, 15] {
        let (interp, used) = guarded(lane, 1000, 1);
        let (_, report) = interp.expect("runs");
        assert!(report.total_events > 0, "out of bounds in lane {lane}");
        assert!(matches!(used, JitUse::FellBack(_)), "lane {lane}: {used:?}");
        let (interp, used) = guarded(1000, lane, 0);
        let (_, report) = interp.expect("runs");
        assert!(report.total_events > 0, "division by zero in lane {lane}");
        assert!(matches!(used, JitUse::FellBack(_)), "lane {lane}: {used:?}");
    }
}

/// arrays.comp with `limit` and the lane `pick` whose index is not reduced below 16.
fn arrays(limit: u32, pick: u32) -> (Outcome, JitUse) {
    let m = module("tests/corpus/simd/arrays.comp.spv");
    let mut rng = Rng(0xa77a ^ (limit as u64) << 8 ^ pick as u64);
    let mut res = Resources::new();
    res.set_buffer(0, 0, (0..192 + 4 * 24).map(|_| rng.next() as u8).collect());
    res.set_buffer(0, 1, words(&[limit, pick, 0, 0]));
    agree(
        &format!("arrays limit {limit} pick {pick}"),
        &m,
        &res,
        [4, 1, 1],
    )
}

/// The invocation of `arrays.comp` (4 × 6 invocations) that writes word `k` of its buffer
/// (16 table words, then pairs[32] of one word each, then rest[]), if any.
fn arrays_word_writer(k: u32) -> Option<u32> {
    let i = match k {
        0..16 => return None,
        16..48 => k - 16,
        _ => k - 48,
    };
    (i < 24).then_some(i)
}

#[test]
fn array_indices_are_checked_in_the_active_lanes_only() {
    for (limit, pick) in [(16, 100), (1000, 100), (1000, 3), (7, 0)] {
        let (interp, used) = arrays(limit, pick);
        assert_eq!(interp.expect("runs").1.total_events, 0);
        assert_eq!(used, JitUse::Ran, "limit {limit} pick {pick}");
    }
    // Invocation `pick` indexes table[5 * pick] past its 16 words: the dispatch goes to the
    // interpreter, which reads the word anyway (the access is inside the buffer or, for 20,
    // outside it). Only picks whose word no other workgroup writes give one answer on any
    // number of threads (pick 5 would read pairs[9], which workgroup 1 writes while
    // workgroup 0 reads it).
    for pick in [4, 11, 13, 20] {
        assert!(
            arrays_word_writer(5 * pick).is_none_or(|w| w / 6 == pick / 6),
            "pick {pick} races with another workgroup"
        );
        let (interp, used) = arrays(1000, pick);
        assert!(interp.expect("runs").1.total_events > 0, "pick {pick}");
        assert!(matches!(used, JitUse::FellBack(_)), "pick {pick}: {used:?}");
    }
}

#[test]
fn the_step_limit_is_decided_as_the_scalar_jit_decides_it() {
    let m = module("tests/corpus/simd/divergent.comp.spv");
    let inp: Vec<u32> = (0..77u32).map(|i| i * 977 + 27).collect();
    let mut res = Resources::new();
    res.set_buffer(0, 0, words(&inp));
    res.set_buffer(0, 1, words(&[0; 269]));
    res.set_buffer(0, 2, words(&[0x3f80_0000; 128]));
    for limit in [50, 500, 5_000, 50_000, 5_000_000] {
        let mut outcomes = Vec::new();
        for (m, jit) in [
            (m.clone(), false),
            (m.with_jit_vector_lanes(), true),
            (m.with_scalar_jit(), true),
        ] {
            let mut r = res.clone();
            let cfg = RunConfig {
                jit,
                threads: Some(1),
                step_limit: limit,
                ..RunConfig::default()
            };
            let out = m.run(&mut r, [4, 1, 1], &cfg).map_err(|e| e.to_string());
            outcomes.push((out.as_ref().map(|o| o.jit.clone()).ok(), out.map(|_| r)));
        }
        assert_eq!(
            outcomes[0].1.as_ref().ok(),
            outcomes[1].1.as_ref().ok(),
            "limit {limit}"
        );
        assert_eq!(
            outcomes[0].1.as_ref().err(),
            outcomes[1].1.as_ref().err(),
            "limit {limit}"
        );
        // The vector lanes spend what the scalar JIT spends: the same decision.
        assert_eq!(outcomes[1].0, outcomes[2].0, "limit {limit}");
    }
}

#[test]
fn benchmark_kernels_take_the_vector_lanes_and_match() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../bench");
    let mut rng = Rng(0xbe4c);
    for (name, buffers, groups) in [
        ("branchy.spv", 2, 4u32),
        ("branchy_opt.spv", 2, 4),
        ("vadd.spv", 3, 2),
    ] {
        let bytes = std::fs::read(root.join(name)).expect("bench kernel");
        let m = CompiledModule::from_bytes(&bytes, "main", &CompileOptions::default())
            .expect("compiles");
        let mut res = Resources::new();
        for b in 0..buffers {
            let n = 4 * 256 * groups as usize;
            res.set_buffer(0, b, (0..n).map(|_| rng.next() as u8).collect());
        }
        let (interp, used) = agree(name, &m, &res, [groups, 1, 1]);
        assert_eq!(interp.expect("runs").1.total_events, 0, "{name}");
        assert_eq!(used, JitUse::Ran, "{name}");
    }
}

/// The `exec` fuzz check (`fuzz/checks/exec.rs`: generated modules, the interpreter against
/// the JIT, the all-call-out JIT and, where they run the module, the vector lanes) on seeded
/// pseudo-random inputs: 1,500, or `SPVX_SIMD_SWEEP` of them (from seed `SPVX_SIMD_SEED`, a
/// number, for longer runs on other inputs). Some must take the vector lanes.
#[test]
fn generated_modules_agree_in_vector_lanes() {
    let count = std::env::var("SPVX_SIMD_SWEEP")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1500);
    let seed = std::env::var("SPVX_SIMD_SEED")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0x51d0_5eed);
    let mut rng = Rng(seed);
    for _ in 0..count {
        let n = 64 + (rng.next() % 1024) as usize;
        let data: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
        exec::exec(&data);
    }
    let runs = exec_common::VECTOR_LANE_RUNS.load(std::sync::atomic::Ordering::Relaxed);
    println!("{count} inputs, {runs} differential runs in vector lanes");
    assert!(runs > 0, "no generated module took the vector lanes");
}

/// Signed indices (`tests/corpus/jit/signed_index.comp`): in range, and with one negative
/// index (−1, whose byte offset plus the access's size is 0 unless reduced modulo 2^48; −16;
/// −2^31) or one past the end in a load or a store: the vector lanes give the interpreter's
/// bytes and events (leaving the run to it where it reports the access).
#[test]
fn signed_indices_in_vector_lanes_match_the_interpreter() {
    let m = module("tests/corpus/jit/signed_index.comp.spv");
    let data: Vec<u32> = (0..64u32).map(|i| i * 7 + 5).collect();
    let good = [0i32, 5, 31, 2, 17, 9, 30, 1];
    for bad in [
        None,
        Some(-1),
        Some(-16),
        Some(i32::MIN),
        Some(64),
        Some(40),
    ] {
        let mut idx = good;
        if let Some(b) = bad {
            idx[3] = b;
        }
        let mut res = Resources::new();
        res.set_buffer(0, 0, idx.iter().flat_map(|x| x.to_le_bytes()).collect());
        res.set_buffer(0, 1, words(&data));
        res.set_buffer(0, 2, vec![0; 4 * 48]);
        let (interp, used) = agree(&format!("signed_index {bad:?}"), &m, &res, [1, 1, 1]);
        let events = interp.expect("runs").1.total_events;
        assert_eq!(events > 0, bad.is_some(), "{bad:?}");
        assert_eq!(used == JitUse::Ran, bad.is_none(), "{bad:?}");
    }
}

/// conditions.comp's result for input `x` (its source, in Rust: the reference).
fn conditions_reference(mut x: u32) -> u32 {
    if x % 11 == 3 {
        return 0xdead;
    }
    let mut acc = 0u32;
    for k in 0..x % 37 {
        let y = x.wrapping_mul(3).wrapping_add(k.wrapping_mul(31));
        let sy = y as i32;
        let (a, b, c, d, e) = (y != x, y < 1_000_000, sy >= -5, sy <= 77, y > 4_000_000_000);
        if (a && b) || (c && !d) {
            acc = acc.wrapping_add(y / 7);
        } else {
            acc ^= y % 100_000;
        }
        acc = acc.wrapping_add(if e || !a {
            1
        } else if d && c {
            2
        } else {
            5
        });
        acc = acc.wrapping_mul(0xffff_ffff).wrapping_add(y >> 3);
        x = x
            .wrapping_mul(9)
            .wrapping_add(0x8000_0001u32.wrapping_mul(k));
        if acc == 12345 {
            break;
        }
    }
    acc ^ x
}

#[test]
fn conditions_and_constant_factors_match_a_reference_in_vector_lanes() {
    let m = module("tests/corpus/simd/conditions.comp.spv");
    // Taken by default (a loop of arithmetic), as it must be for the check to mean anything.
    let code = m.with_jit_always();
    assert_eq!(code.jit_code().expect("compiles").vector_lanes(), Ok(()));
    let mut rng = Rng(0xc0d1);
    let groups = 6u32;
    // Edges of each comparison (x = y when 3x + 31k = x, values around 10^6, −5, 77, 4·10^9)
    // among random inputs, so that neighbouring lanes take different paths and trip counts.
    let edges = [
        0u32,
        1,
        3,
        77,
        78,
        0xffff_fffb,
        0xffff_fffa,
        333_333,
        333_334,
        1_333_333_334,
        0x7fff_ffff,
        0x8000_0000,
        0xffff_ffff,
    ];
    let inp: Vec<u32> = (0..64 * groups as usize)
        .map(|i| match i % 3 {
            0 => edges[(i / 3) % edges.len()],
            1 => rng.next_u32(),
            _ => rng.next_u32() % 2000,
        })
        .collect();
    let mut res = Resources::new();
    res.set_buffer(0, 0, words(&inp));
    res.set_buffer(0, 1, words(&vec![0; inp.len()]));
    let (interp, used) = agree("conditions", &m, &res, [groups, 1, 1]);
    assert_eq!(used, JitUse::Ran);
    let mut vector = res.clone();
    let cfg = RunConfig {
        threads: Some(1),
        ..RunConfig::default()
    };
    code.run(&mut vector, [groups, 1, 1], &cfg).expect("runs");
    let out = vector.buffer(0, 1).expect("output");
    for (i, x) in inp.iter().enumerate() {
        let got = u32::from_le_bytes(out[4 * i..4 * i + 4].try_into().expect("a word"));
        assert_eq!(
            got,
            conditions_reference(*x),
            "invocation {i}, input {x:#x}"
        );
    }
    assert!(interp.is_ok());
}

/// Several workgroups per vector-lanes call (`jit/driver.rs` `Batches`: consecutive in x, the
/// lanes going on from one workgroup to the next): batches.comp over 13 × 3 × 2 workgroups of
/// 3 × 2 × 2 invocations (rows of 13 workgroups: batches of 4 end in a partial one), on one and
/// two threads; every invocation's WorkgroupId, LocalInvocationId, LocalInvocationIndex,
/// GlobalInvocationId and loop result against values computed here, and the interpreter's
/// bytes.
#[test]
fn batches_of_workgroups_in_vector_lanes_keep_every_built_in() {
    let m = module("tests/corpus/simd/batches.comp.spv");
    let groups = [13u32, 3, 2];
    let size = [3u32, 2, 2];
    let n = [
        groups[0] * size[0],
        groups[1] * size[1],
        groups[2] * size[2],
    ];
    let total = (n[0] * n[1] * n[2]) as usize;
    let mut res = Resources::new();
    res.set_buffer(0, 0, words(&vec![0; 4 * total]));
    let (interp, used) = agree("batches", &m, &res, groups);
    assert_eq!(used, JitUse::Ran);
    assert!(interp.is_ok());
    let vector = m.with_jit_vector_lanes();
    for threads in [1, 2] {
        let mut out = res.clone();
        let cfg = RunConfig {
            threads: Some(threads),
            ..RunConfig::default()
        };
        vector.run(&mut out, groups, &cfg).expect("runs");
        let bytes = out.buffer(0, 0).expect("output");
        let word = |i: usize| u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().expect("4"));
        for gz in 0..n[2] {
            for gy in 0..n[1] {
                for gx in 0..n[0] {
                    let at = (gx + n[0] * (gy + n[1] * gz)) as usize;
                    let (w, l) = (
                        [gx / size[0], gy / size[1], gz / size[2]],
                        [gx % size[0], gy % size[1], gz % size[2]],
                    );
                    let index = l[0] + size[0] * (l[1] + size[1] * l[2]);
                    let trips = (gx * 7 + gy * 3 + gz) % 9;
                    let acc = (0..trips).fold(0u32, |a, k| a.wrapping_mul(5) + k + 1);
                    let want = [
                        w[0] | (w[1] << 8) | (w[2] << 16),
                        l[0] | (l[1] << 8) | (l[2] << 16) | (index << 24),
                        gx | (gy << 8) | (gz << 16),
                        acc,
                    ];
                    for (k, want) in want.iter().enumerate() {
                        assert_eq!(
                            word(4 * at + k),
                            *want,
                            "{threads} thread(s), invocation {gx},{gy},{gz} word {k}"
                        );
                    }
                }
            }
        }
    }
}

/// Unsigned divisions and remainders by constants on whole vectors (`simd/ops.rs`
/// `magic_quotient`): divisors.comp's 16 divisors on inputs at the edges of 32 bits, around
/// multiples of the divisors and random, against Rust's `/` and `%`.
#[test]
fn constant_divisors_in_vector_lanes_divide_exactly() {
    let m = module("tests/corpus/simd/divisors.comp.spv");
    let divisors: [u32; 16] = [
        1,
        8,
        3,
        7,
        10,
        641,
        100_000,
        65_535,
        65_537,
        0x7fff_ffff,
        0x8000_0000,
        0x8000_0001,
        0xffff_fffe,
        0xffff_ffff,
        6,
        25,
    ];
    let mut rng = Rng(0xd1b5);
    let mut inp: Vec<u32> = vec![0, 1, 2, 0x7fff_ffff, 0x8000_0000, 0x8000_0001, u32::MAX - 1];
    inp.push(u32::MAX);
    for d in divisors {
        for k in [1u64, 2, 3, 1000, 0x1_0000] {
            let at = u64::from(d) * k;
            for delta in [-1i64, 0, 1] {
                if let Ok(x) = u32::try_from(at as i64 + delta) {
                    inp.push(x);
                }
            }
        }
    }
    while !inp.len().is_multiple_of(16) || inp.len() < 256 {
        inp.push(rng.next_u32());
    }
    let groups = (inp.len() / 16) as u32;
    let mut res = Resources::new();
    res.set_buffer(0, 0, words(&inp));
    res.set_buffer(0, 1, words(&vec![0; 32 * inp.len()]));
    let (interp, used) = agree("divisors", &m, &res, [groups, 1, 1]);
    assert_eq!(used, JitUse::Ran);
    assert!(interp.is_ok());
    let mut out = res.clone();
    let cfg = RunConfig {
        threads: Some(1),
        ..RunConfig::default()
    };
    m.with_jit_vector_lanes()
        .run(&mut out, [groups, 1, 1], &cfg)
        .expect("runs");
    let bytes = out.buffer(0, 1).expect("output");
    let word = |i: usize| u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().expect("4"));
    for (i, x) in inp.iter().enumerate() {
        for (k, d) in divisors.iter().enumerate() {
            assert_eq!(word(32 * i + 2 * k), x / d, "{x} / {d}");
            assert_eq!(word(32 * i + 2 * k + 1), x % d, "{x} % {d}");
        }
    }
}

fn word_at(bytes: &[u8], i: usize) -> u32 {
    u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().expect("4 bytes"))
}

/// layouts.comp's `out` for workgroups `width` × 2, `groups` × `rows` of them, K = 6, in
/// bounds (`pick` no invocation).
fn layouts_reference(uni: &[u32], seq: &[u32], str_: &[u32], width: u32, n: [u32; 2]) -> Vec<u32> {
    let (w, h) = (n[0] * width, n[1] * 2);
    let mut out = vec![0u32; (w * h) as usize];
    for y in 0..h {
        for x in 0..w {
            let mut acc = 0u32;
            for k in 0..6u32 {
                let u = uni[(y * 6 + k) as usize];
                let s = seq[(x + k) as usize];
                let t = str_[(x * 5 + k) as usize];
                acc = acc
                    .wrapping_mul(3)
                    .wrapping_add(u ^ (s << 1))
                    .wrapping_add(t.wrapping_mul(k + 1));
            }
            out[(y * w + x) as usize] = acc;
        }
    }
    out
}

/// Loads tried whole (`jit/simd/mem.rs`, `pattern.rs`): the same offset in every lane, offsets
/// one after another, strided; with workgroups 8 wide (whole accesses in most sweeps) and 3 wide
/// (lanes of different rows and workgroups: the fall-back), against a Rust model; and out of
/// bounds in one lane, in every lane of the same-offset load, and at the end of the
/// consecutive one (each must go to the interpreter, which reports it).
#[test]
fn whole_loads_and_stores_in_vector_lanes_match_a_reference() {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/simd/layouts.comp.spv");
    let bytes = std::fs::read(&p).expect("layouts.comp.spv");
    let mut rng = Rng(0x1a70);
    for width in [8u32, 3] {
        let mut opts = CompileOptions::default();
        opts.spec_constants.insert(1, u64::from(width));
        let m = CompiledModule::from_bytes(&bytes, "main", &opts).expect("compiles");
        let n = [5u32, 3];
        let (w, h) = (n[0] * width, n[1] * 2);
        let uni: Vec<u32> = (0..h * 6).map(|_| rng.next_u32()).collect();
        let str_: Vec<u32> = (0..w * 5 + 6).map(|_| rng.next_u32()).collect();
        // `seq` exactly as long as the last invocation reads (x + 5 < w + 5).
        let seq: Vec<u32> = (0..w + 5).map(|_| rng.next_u32()).collect();
        let set = |seq: &[u32], pick: u32, extra: u32, short: usize| {
            let mut res = Resources::new();
            res.set_buffer(0, 0, words(&uni));
            res.set_buffer(0, 1, words(seq));
            res.set_buffer(0, 2, words(&str_));
            res.set_buffer(0, 3, words(&vec![0; (w * h) as usize - short]));
            res.set_buffer(0, 4, words(&[pick, extra]));
            res
        };
        let name = format!("layouts, width {width}");
        let res = set(&seq, u32::MAX - 1, 0, 0);
        let (interp, used) = agree(&name, &m, &res, [n[0], n[1], 1]);
        assert_eq!(used, JitUse::Ran, "{name}");
        let (out, _) = interp.expect("in bounds");
        let got = out.buffer(0, 3).expect("out");
        let want = layouts_reference(&uni, &seq, &str_, width, n);
        for (i, want) in want.iter().enumerate() {
            assert_eq!(word_at(got, i), *want, "{name}: out[{i}]");
        }
        // Out of bounds: `uni` in the lanes of x == 2, in every lane; `seq` or `out` one word
        // short.
        for (what, seq, pick, extra, short) in [
            ("one lane", &seq[..], 2, 10_000, 0),
            ("every lane", &seq[..], u32::MAX, 10_000, 0),
            ("the end of seq", &seq[..seq.len() - 1], u32::MAX - 1, 0, 0),
            ("the end of out", &seq[..], u32::MAX - 1, 0, 1),
        ] {
            let name = format!("{name}, out of bounds in {what}");
            let res = set(seq, pick, extra, short);
            let (interp, used) = agree(&name, &m, &res, [n[0], n[1], 1]);
            let (_, report) = interp.expect("reported, not an error");
            assert!(
                report.total_events > 0,
                "{name}: the interpreter reports it"
            );
            assert!(matches!(used, JitUse::FellBack(_)), "{name}: {used:?}");
        }
    }
}

/// Loads of 8- and 16-bit leaves in vector lanes (narrow_layouts.comp): one address in every
/// lane (a byte and a 16-bit word by row: one load, splatted) and one leaf apart (lane by
/// lane), against a Rust model; and the row's byte out of bounds (the interpreter reports it,
/// the vector lanes bail).
#[test]
fn narrow_loads_in_vector_lanes_match_a_reference() {
    let m = module("tests/corpus/simd/narrow_layouts.comp.spv");
    let mut rng = Rng(0x8b17);
    let n = [4u32, 3];
    let (w, h) = (8 * n[0], 2 * n[1]);
    // b8: x's bytes from 0 (w + 4 of them read), the rows' from 64 (5 per row).
    let b8: Vec<u8> = (0..64 + 5 * h).map(|_| rng.next_u32() as u8).collect();
    let b16: Vec<u16> = (0..64 + w + 5).map(|_| rng.next_u32() as u16).collect();
    let set = |b8: &[u8]| {
        let mut res = Resources::new();
        res.set_buffer(0, 0, b8.to_vec());
        res.set_buffer(0, 1, b16.iter().flat_map(|x| x.to_le_bytes()).collect());
        res.set_buffer(0, 2, words(&vec![0; (w * h) as usize]));
        res
    };
    let (interp, used) = agree("narrow layouts", &m, &set(&b8), [n[0], n[1], 1]);
    assert_eq!(used, JitUse::Ran);
    let (out, _) = interp.expect("in bounds");
    let got = out.buffer(0, 2).expect("out");
    for y in 0..h {
        for x in 0..w {
            let mut acc = 0u32;
            for k in 0..5 {
                let (s, t) = ((y * 5 + k) as usize, (x + k) as usize);
                acc = acc
                    .wrapping_mul(7)
                    .wrapping_add(u32::from(b8[64 + s]))
                    .wrapping_add(u32::from(b16[s]) << 8)
                    .wrapping_add(u32::from(b8[t]) << 3)
                    .wrapping_add(u32::from(b16[64 + t]) << 11);
            }
            assert_eq!(word_at(got, (y * w + x) as usize), acc, "out[{y}][{x}]");
        }
    }
    // `b8` one byte short (row 5 reads 64 + 25..30): out of bounds in that row's lanes only,
    // all at one offset, in the loop's last round.
    let short = &b8[..64 + 29];
    let (interp, used) = agree("narrow layouts, short", &m, &set(short), [n[0], n[1], 1]);
    let (_, report) = interp.expect("reported, not an error");
    assert!(report.total_events > 0);
    assert!(matches!(used, JitUse::FellBack(_)), "{used:?}");
}

/// The packed 4×8-bit dot product of `x` and `y` (`sa`, `sb`: whether each operand's bytes
/// are signed), exactly.
fn dot4(x: u32, y: u32, sa: bool, sb: bool) -> i64 {
    (0..4)
        .map(|i| {
            let byte = |w: u32, signed: bool| {
                let b = (w >> (8 * i)) as u8;
                if signed {
                    i64::from(b as i8)
                } else {
                    i64::from(b)
                }
            };
            byte(x, sa) * byte(y, sb)
        })
        .sum()
}

/// The six packed dot products (`jit/simd/intdot.rs`) on bytes at the edges (0, ±1, ±127,
/// −128, 255) and random words, with accumulators at and near the 32-bit limits, against
/// exact integer arithmetic clamped to the result's range.
#[test]
fn packed_integer_dots_in_vector_lanes_match_exact_arithmetic() {
    let m = module("tests/corpus/simd/intdots.comp.spv");
    let mut rng = Rng(0x1d07);
    let edges = [
        0x0000_0000u32,
        0x0101_0101,
        0xffff_ffff,
        0x7f7f_7f7f,
        0x8080_8080,
        0x7f80_ff01,
    ];
    let accs = [
        0u32,
        1,
        0x7fff_ffff,
        0x7fff_0000,
        0x8000_0000,
        0x8000_ffff,
        0xffff_ffff,
        0xfffe_0000,
    ];
    let (mut a, mut b, mut c) = (vec![], vec![], vec![]);
    for &x in &edges {
        for &y in &edges {
            for &acc in &accs {
                a.push(x);
                b.push(y);
                c.push(acc);
            }
        }
    }
    while a.len() < 640 || !a.len().is_multiple_of(16) {
        a.push(rng.next_u32());
        b.push(rng.next_u32());
        c.push(accs[(rng.next_u32() % 8) as usize] ^ (rng.next_u32() & 0x3ffff));
    }
    let n = a.len() / 2;
    let mut res = Resources::new();
    res.set_buffer(0, 0, words(&a));
    res.set_buffer(0, 1, words(&b));
    res.set_buffer(0, 2, words(&c));
    res.set_buffer(0, 3, words(&vec![0; 6 * a.len()]));
    let (interp, used) = agree("intdots", &m, &res, [(n / 8) as u32, 1, 1]);
    assert_eq!(used, JitUse::Ran);
    let (out, _) = interp.expect("runs");
    let got = out.buffer(0, 3).expect("d");
    for j in 0..a.len() {
        let (x, y, acc) = (a[j], b[j], c[j]);
        let signed = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32 as u32;
        let want = [
            dot4(x, y, true, true) as u32,
            dot4(x, y, false, false) as u32,
            dot4(x, y, true, false) as u32,
            signed(dot4(x, y, true, true) + i64::from(acc as i32)),
            (dot4(x, y, false, false) + i64::from(acc)).min(i64::from(u32::MAX)) as u32,
            signed(dot4(x, y, true, false) + i64::from(acc as i32)),
        ];
        for (k, want) in want.iter().enumerate() {
            assert_eq!(word_at(got, 6 * j + k), *want, "word {j} dot {k}");
        }
    }
}

/// Runs a bounds case (`agree`, one workgroup): out of bounds, the interpreter must report it
/// and the vector lanes go to it (`None`); in bounds, the vector lanes must run it (its
/// resources).
fn run_bounds_case(
    name: &str,
    m: &CompiledModule,
    res: &Resources,
    in_bounds: bool,
) -> Option<Resources> {
    let (interp, used) = agree(name, m, res, [1, 1, 1]);
    let (out, report) = interp.expect("runs");
    if !in_bounds {
        assert!(
            report.total_events > 0,
            "{name}: the interpreter reports it"
        );
        assert!(matches!(used, JitUse::FellBack(_)), "{name}: {used:?}");
        return None;
    }
    assert_eq!(used, JitUse::Ran, "{name}");
    Some(out)
}

/// The out-of-bounds cases of the masked gather and scatter tests (`data` after 4 words of
/// `head` in `buf`, `idx` in bounds): one index out of bounds in one even lane, or a buffer
/// shorter than `head` (every even lane's index 0 out): each goes to the interpreter, which
/// reports it.
fn masked_indices_out_of_bounds(
    what: &str,
    m: &CompiledModule,
    idx: &[u32],
    buf: &[u32],
    run_case: impl Fn(&[u32], &[u32]) -> Resources,
) {
    for (lane, bad) in [
        (0usize, 64u32),
        (4, 64),
        (6, 0x8000_0000),
        (14, (-5i32) as u32),
        (10, 1 << 30),
    ] {
        let mut idx = idx.to_vec();
        idx[lane] = bad;
        let name = format!("{what}: lane {lane} index {bad:#x}");
        assert!(run_bounds_case(&name, m, &run_case(&idx, buf), false).is_none());
    }
    let name = format!("{what}: a buffer shorter than head");
    assert!(run_bounds_case(&name, m, &run_case(&[0; 16], &buf[..2]), false).is_none());
}

/// A scatter by the even lanes of each four through an array index (`jit/simd/mem.rs`
/// `index_addresses`, as for gathers), 16 invocations of masked_scatter.comp (`data` after 4
/// words of `head`): indices up to the last word of `data` store what a Rust model stores; one
/// past the end, or far out, in an even lane must go to the interpreter, which reports it; the
/// same in an odd lane (which does not store) must not; index −1 writes `head[3]`. A buffer
/// shorter than `head` goes to the interpreter too.
#[test]
fn masked_scatters_check_the_active_lanes_indices_at_the_buffer_end() {
    let m = module("tests/corpus/simd/masked_scatter.comp.spv");
    let mut rng = Rng(0x5ca7);
    let buf: Vec<u32> = (0..4 + 64).map(|_| rng.next_u32()).collect();
    let run_case = |idx: &[u32], buf: &[u32]| {
        let mut res = Resources::new();
        res.set_buffer(0, 0, words(idx));
        res.set_buffer(0, 1, words(buf));
        res
    };
    // In bounds: distinct indices (13 is odd), the last word in lane 14, odd lanes' far out.
    let mut idx: Vec<u32> = (0..16u32).map(|i| (i * 13) % 64).collect();
    idx[14] = 63;
    for lane in [1usize, 3, 9] {
        idx[lane] = [64, 0x8000_0000, u32::MAX][lane % 3];
    }
    let out = run_bounds_case("masked scatter in bounds", &m, &run_case(&idx, &buf), true)
        .expect("in bounds");
    let mut want = buf.clone();
    for i in (0..16u32).step_by(2) {
        want[4 + idx[i as usize] as usize] = i * 1000 + 7;
    }
    assert_eq!(out.words(0, 1).expect("data"), want);
    // Index −1 in an even lane (signed, SPIR-V 1.6 §3.49.11) writes head[3]: in bounds, though
    // the 32-bit test refuses it (the lanes' 64-bit offsets decide).
    let mut minus_one = idx.clone();
    minus_one[8] = u32::MAX;
    let out = run_bounds_case(
        "masked scatter, index -1",
        &m,
        &run_case(&minus_one, &buf),
        true,
    )
    .expect("in bounds");
    assert_eq!(out.words(0, 1).expect("data")[3], 8007);
    masked_indices_out_of_bounds("masked scatter", &m, &idx, &buf, run_case);
}

/// A load and a store by one active lane alone (`jit/simd/mem.rs` `one_lane`): lanes 0, 5 and
/// 15, at the last word of either buffer (against a Rust model), at the first word past `inp`
/// (the load out of bounds) and past `outp` (the store): each out-of-bounds case must go to the
/// interpreter, which reports it.
#[test]
fn one_lane_alone_loads_and_stores_at_the_buffer_ends() {
    let m = module("tests/corpus/simd/one_lane.comp.spv");
    let mut rng = Rng(0x0e1a);
    // `inp`: 64 words (the lane and the two words in the first three); `outp`: 32.
    let mut inp: Vec<u32> = (0..64).map(|_| rng.next_u32()).collect();
    for lane in [0u32, 5, 15] {
        for (load, store, in_bounds) in [
            (63u32, 31u32, true),
            (16, 16, true),
            (64, 20, false),
            (20, 32, false),
        ] {
            (inp[0], inp[1], inp[2]) = (lane, load, store);
            let mut res = Resources::new();
            res.set_buffer(0, 0, words(&inp));
            res.set_buffer(0, 1, words(&[0; 32]));
            let name = format!("one lane: lane {lane}, load at word {load}, store at {store}");
            let Some(out) = run_bounds_case(&name, &m, &res, in_bounds) else {
                continue;
            };
            let got = out.words(0, 1).expect("out");
            let mut want: Vec<u32> = (0..32).map(|i| if i < 16 { i * 3 } else { 0 }).collect();
            let r = lane * 3 + inp[load as usize];
            want[lane as usize] = r;
            // (Every lane's own word is written after the lane's store.)
            if store >= 16 {
                want[store as usize] = r ^ 0x5a;
            }
            assert_eq!(got, want, "{name}");
        }
    }
}

/// 8- and 16-bit loads and stores by one active lane alone (`one_lane`, `one_lane_narrow.comp`):
/// at the last byte or 16-bit word of each buffer (of odd byte lengths), against a Rust model,
/// and one leaf past the end of each in turn (the interpreter reports it; the vector lanes
/// must go to it).
#[test]
fn one_lane_alone_loads_and_stores_narrow_leaves_at_the_buffer_ends() {
    let m = module("tests/corpus/simd/one_lane_narrow.comp.spv");
    let mut rng = Rng(0x0e1b);
    // Bytes: `b8` 37 (last index 36), `b16` 23 (last word 10), `o8` 13, `o16` 15 (last word 6).
    let b8: Vec<u8> = (0..37).map(|_| rng.next_u32() as u8).collect();
    let b16: Vec<u8> = (0..23).map(|_| rng.next_u32() as u8).collect();
    let word16 = |k: usize| u32::from(u16::from_le_bytes([b16[2 * k], b16[2 * k + 1]]));
    for lane in [0u32, 7, 15] {
        for (at, in_bounds) in [
            ([36u32, 10, 12, 6], true),
            ([0, 0, 0, 0], true),
            ([37, 10, 12, 6], false),
            ([36, 11, 12, 6], false),
            ([36, 10, 13, 6], false),
            ([36, 10, 12, 7], false),
        ] {
            let mut res = Resources::new();
            res.set_buffer(0, 0, words(&[lane, at[0], at[1], at[2], at[3]]));
            res.set_buffer(0, 1, b8.clone());
            res.set_buffer(0, 2, b16.clone());
            res.set_buffer(0, 3, vec![0; 13]);
            res.set_buffer(0, 4, vec![0; 15]);
            res.set_buffer(0, 5, words(&[0; 16]));
            let name = format!("one lane, narrow: lane {lane} at {at:?}");
            let Some(out) = run_bounds_case(&name, &m, &res, in_bounds) else {
                continue;
            };
            let v = u32::from(b8[at[0] as usize]) + (word16(at[1] as usize) << 8);
            let want: Vec<u32> = (0..16)
                .map(|i| i * 5 + if i == lane { v } else { 0 })
                .collect();
            assert_eq!(out.words(0, 5).expect("outp"), want, "{name}");
            let mut o8 = [0u8; 13];
            o8[at[2] as usize] = (v ^ 0xa5) as u8;
            assert_eq!(out.buffer(0, 3).expect("o8"), &o8[..], "{name}");
            let mut o16 = [0u8; 15];
            let w = ((v * 3) as u16).to_le_bytes();
            o16[2 * at[3] as usize..2 * at[3] as usize + 2].copy_from_slice(&w);
            assert_eq!(out.buffer(0, 4).expect("o16"), &o16[..], "{name}");
        }
    }
}

/// A gather by the even lanes of each four through an array index (`jit/simd/mem.rs`
/// `index_addresses`: the indices tested against the space's limit in 32-bit lanes), 16
/// invocations of masked_gather.comp (`data` after 4 words of `head`): indices up to the last
/// word of `data` give what a Rust model gives; one past the end, or far out, in an even lane
/// must go to the interpreter, which reports it; the same in an odd lane (which does not
/// load) must not; index −1 reads `head[3]`. A buffer shorter than `head` (no index fits,
/// the limit below 0) goes to the interpreter too.
#[test]
fn masked_gathers_check_the_active_lanes_indices_at_the_buffer_end() {
    let m = module("tests/corpus/simd/masked_gather.comp.spv");
    let mut rng = Rng(0x6a7e);
    let buf: Vec<u32> = (0..4 + 64).map(|_| rng.next_u32()).collect();
    let run_case = |idx: &[u32], buf: &[u32]| {
        let mut res = Resources::new();
        res.set_buffer(0, 0, words(idx));
        res.set_buffer(0, 1, words(buf));
        res.set_buffer(0, 2, vec![0; 4 * 16]);
        res
    };
    // In bounds: the last word in several lanes, odd lanes' indices far out.
    let mut idx: Vec<u32> = (0..16u32).map(|i| (i * 13) % 64).collect();
    for lane in [0usize, 2, 6, 14] {
        idx[lane] = 63;
    }
    for lane in [1usize, 3, 9] {
        idx[lane] = [64, 0x8000_0000, u32::MAX][lane % 3];
    }
    let out = run_bounds_case("masked gather in bounds", &m, &run_case(&idx, &buf), true)
        .expect("in bounds");
    let got = out.words(0, 2).expect("outp");
    for i in 0..16u32 {
        let k = idx[i as usize] as usize;
        let want = i * 1000 + if i % 2 == 0 { buf[4 + k] } else { 0 };
        assert_eq!(got[i as usize], want, "lane {i}");
    }
    // Index −1 in an even lane (signed, SPIR-V 1.6 §3.49.11) reads head[3]: in bounds, though
    // the 32-bit test refuses it (the lanes' 64-bit offsets decide).
    let mut minus_one = idx.clone();
    minus_one[8] = u32::MAX;
    let out = run_bounds_case(
        "masked gather, index -1",
        &m,
        &run_case(&minus_one, &buf),
        true,
    )
    .expect("in bounds");
    assert_eq!(out.words(0, 2).expect("outp")[8], 8000 + buf[3]);
    masked_indices_out_of_bounds("masked gather", &m, &idx, &buf, run_case);
}
