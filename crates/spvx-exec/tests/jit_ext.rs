//! The extension instructions the JIT compiles (`jit::ext`: VALVE mixed dots inline under the
//! exact model and through spvx-num under every other, tensor reads, writes and size queries inline, integer dot products of every
//! form, fixed-point functions and order-free atomics) against the interpreter on edge inputs:
//! special values, subnormals, signed zeros, sums that round, overflow; coordinates outside
//! the tensor, negative ones, strided and differently ranked tensors; saturating dots at the
//! range ends; fixed-point inputs the interpreter reports. Every run must give the
//! interpreter's bytes, events and errors, the JIT must have run (not fallen back) exactly when
//! the interpreter reports nothing, and a few results are checked against hand-computed bits.

use spvx_exec::resources::KernelArg;
use spvx_exec::{CompileOptions, CompiledModule, JitUse, Resources, RunConfig, RunReport, Tensor};
use spvx_num::mixdot::{Model, ModelConfig};
use spvx_spirv::asm::{AsmOptions, assemble};
use std::path::PathBuf;

mod glsl_corpus;

use glsl_corpus::Rng;

fn path(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// Compiles a module of the repository: `.spvasm` through spvx's assembler, else binary.
fn module(rel: &str, entry: &str, opts: &CompileOptions) -> CompiledModule {
    let p = path(rel);
    let bytes = if rel.ends_with(".spvasm") {
        let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{rel}: {e}"));
        assemble(&text, &AsmOptions::default())
            .unwrap_or_else(|e| panic!("{rel}: {e}"))
            .bytes()
    } else {
        std::fs::read(&p).unwrap_or_else(|e| panic!("{rel}: {e}"))
    };
    CompiledModule::from_bytes(&bytes, entry, opts).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

type Outcome = Result<(Resources, RunReport), String>;

fn run(m: &CompiledModule, res: &Resources, groups: [u32; 3], cfg: &RunConfig) -> Outcome {
    let mut res = res.clone();
    m.run(&mut res, groups, cfg)
        .map(|r| (res, r))
        .map_err(|e| e.to_string())
}

/// Runs `m` on the interpreter, on the JIT (one and two threads) and on the JIT with
/// call-outs only; all must agree. Returns the interpreter's outcome and the JIT's use.
fn agree(
    name: &str,
    m: &CompiledModule,
    res: &Resources,
    groups: [u32; 3],
    cfg: &RunConfig,
) -> (Outcome, JitUse) {
    let interp = run(
        m,
        res,
        groups,
        &RunConfig {
            jit: false,
            threads: Some(1),
            ..cfg.clone()
        },
    );
    let mut used = JitUse::Off;
    for (what, m, threads) in [
        ("JIT", m.clone(), Some(1)),
        ("JIT, two threads", m.clone(), Some(2)),
        ("call-outs only", m.with_jit_callouts_only(), Some(1)),
    ] {
        let jit = run(
            &m,
            res,
            groups,
            &RunConfig {
                jit: true,
                threads,
                ..cfg.clone()
            },
        );
        match (&jit, &interp) {
            (Ok((rj, j)), Ok((ri, i))) => {
                assert!(rj == ri, "{name} ({what}): the resources differ");
                assert_eq!(j.events, i.events, "{name} ({what}): events");
                assert_eq!(j.total_events, i.total_events, "{name} ({what})");
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
                if what == "JIT" {
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

fn read_words(res: &Resources, binding: u32) -> Vec<u32> {
    res.words(0, binding).unwrap_or_default()
}

/// f16 patterns at the edges: zeros, the smallest and largest subnormals and normals, one,
/// the largest finite, infinities, NaNs.
const F16_EDGES: [u16; 16] = [
    0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00, 0xbc00, 0x3c01, 0x7bff, 0xfbff, 0x7c00,
    0xfc00, 0x7e00, 0x7c01, 0x1400,
];
/// bf16 patterns: zeros, subnormals, one, the largest finite, infinities, NaN, 1 + 2^-7.
const BF16_EDGES: [u16; 14] = [
    0x0000, 0x8000, 0x0001, 0x807f, 0x0080, 0x3f80, 0xbf80, 0x3f81, 0x7f7f, 0xff7f, 0x7f80, 0xff80,
    0x7fc0, 0x4000,
];
/// fp8 patterns (E4M3 and E5M2 alike: zeros, subnormals, one-ish, the largest, the specials).
const FP8_EDGES: [u8; 12] = [
    0x00, 0x80, 0x01, 0x07, 0x08, 0x38, 0xb8, 0x7b, 0x7c, 0x7e, 0x7f, 0xff,
];
/// f32 accumulators: zeros, subnormals, one, 2^24, the largest, infinities, NaN, and values
/// whose sum with small products rounds.
const F32_EDGES: [u32; 14] = [
    0x0000_0000,
    0x8000_0000,
    0x0000_0001,
    0x807f_ffff,
    0x3f80_0000,
    0xbf80_0000,
    0x4b80_0000,
    0x7f7f_ffff,
    0xff7f_ffff,
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0000,
    0x3f80_0001,
    0x3400_0000,
];

/// examples/mixdot.spvasm's bindings filled for `n` invocations: edge values in turn and
/// random words.
fn mixdot_inputs(n: usize, rng: &mut Rng) -> Resources {
    let mut res = Resources::new();
    let pick16 = |edges: &[u16], rng: &mut Rng, i: usize, k: usize| -> u32 {
        if (i + k) % 3 == 2 {
            rng.next_u32() & 0xffff
        } else {
            edges[(rng.next() as usize) % edges.len()] as u32
        }
    };
    let word16 = |edges: &[u16], rng: &mut Rng, i: usize| -> u32 {
        pick16(edges, rng, i, 0) | pick16(edges, rng, i, 1) << 16
    };
    let f16a: Vec<u32> = (0..n).map(|i| word16(&F16_EDGES, rng, i)).collect();
    let f16b: Vec<u32> = (0..n).map(|i| word16(&F16_EDGES, rng, i + 1)).collect();
    let bfa: Vec<u32> = (0..n).map(|i| word16(&BF16_EDGES, rng, i)).collect();
    let bfb: Vec<u32> = (0..n).map(|i| word16(&BF16_EDGES, rng, i + 1)).collect();
    let fp8 = |rng: &mut Rng, i: usize| -> u32 {
        (0..4)
            .map(|k| {
                let b = if (i + k) % 3 == 2 {
                    rng.next_u32() & 0xff
                } else {
                    FP8_EDGES[(rng.next() as usize) % FP8_EDGES.len()] as u32
                };
                b << (8 * k)
            })
            .fold(0, |a, b| a | b)
    };
    let a8: Vec<u32> = (0..n).map(|i| fp8(rng, i)).collect();
    let b8: Vec<u32> = (0..n).map(|i| fp8(rng, i + 2)).collect();
    let acc: Vec<u32> = (0..n)
        .map(|i| {
            if i % 4 == 3 {
                rng.next_u32()
            } else {
                F32_EDGES[(rng.next() as usize) % F32_EDGES.len()]
            }
        })
        .collect();
    let acc16: Vec<u32> = (0..n).map(|i| pick16(&F16_EDGES, rng, i, 0)).collect();
    for (b, v) in [f16a, f16b, bfa, bfb, a8, b8, acc, acc16]
        .into_iter()
        .enumerate()
    {
        res.set_buffer(0, b as u32, words(&v));
    }
    for b in 8..12 {
        res.set_buffer(0, b, vec![0; 4 * n]);
    }
    res
}

#[test]
fn mixed_dots_give_the_interpreters_bits_on_edge_inputs_under_every_model() {
    let m = module(
        "../../examples/mixdot.spvasm",
        "main",
        &CompileOptions::default(),
    );
    let mut rng = Rng(0x3d07);
    // 4 invocations per workgroup (LocalSize of the example).
    let groups = 128;
    let n = 4 * groups;
    for round in 0..4 {
        let res = mixdot_inputs(n, &mut rng);
        let mut models: Vec<ModelConfig> = Model::ALL.map(ModelConfig::new).to_vec();
        models.extend([
            ModelConfig {
                flush_input_denormals: true,
                ..ModelConfig::new(Model::Exact)
            },
            ModelConfig {
                flush_output_denormals: true,
                ..ModelConfig::new(Model::SequentialAccFirst)
            },
            ModelConfig {
                rounding: spvx_num::float::RoundingMode::TowardZero,
                ..ModelConfig::new(Model::Exact)
            },
        ]);
        for model in models {
            let cfg = RunConfig {
                mixdot: model,
                ..RunConfig::default()
            };
            let (interp, used) = agree(
                &format!("mixdot round {round} {model:?}"),
                &m,
                &res,
                [groups as u32, 1, 1],
                &cfg,
            );
            assert_eq!(used, JitUse::Ran, "{model:?}");
            assert!(interp.is_ok());
        }
    }
}

/// The JIT under every model (inline where the sums decide, else calling spvx-num) and under
/// flushing and another rounding (calling spvx-num; no call into the interpreter): every result
/// word equals spvx-num's exact path (rational arithmetic, one case at a time), computed here
/// from the input words, on edge inputs and on ordinary values.
#[test]
fn mixed_dots_under_every_model_equal_spvx_nums_exact_path() {
    let m = module(
        "../../examples/mixdot.spvasm",
        "main",
        &CompileOptions::default(),
    );
    let mut rng = Rng(0x51ed);
    let groups = 64;
    let n = 4 * groups;
    for res in [
        mixdot_inputs(n, &mut rng),
        ordinary_mixdot_inputs(n, &mut rng),
    ] {
        dots_equal_the_exact_path(&m, &res, groups);
    }
}

/// examples/mixdot.spvasm's bindings for `n` invocations of ordinary values: every component
/// and accumulator normal with an exponent near 0, either sign (the sums the inline paths
/// decide).
fn ordinary_mixdot_inputs(n: usize, rng: &mut Rng) -> Resources {
    let mut res = Resources::new();
    // (exponent bits, mantissa bits) → a random normal pattern with exponent in −4..=4.
    let mut value = |e: u32, m: u32| -> u32 {
        let r = rng.next_u32();
        let bias = (1u32 << (e - 1)) - 1;
        let spread = 4.min(bias - 1);
        let exp = bias - spread + (r >> 8) % (2 * spread + 1);
        ((r >> 31) << (e + m)) | (exp << m) | (r & ((1 << m) - 1))
    };
    let mut buffers: Vec<Vec<u32>> = vec![Vec::new(); 8];
    for _ in 0..n {
        buffers[0].push(value(5, 10) | (value(5, 10) << 16));
        buffers[1].push(value(5, 10) | (value(5, 10) << 16));
        buffers[2].push(value(8, 7) | (value(8, 7) << 16));
        buffers[3].push(value(8, 7) | (value(8, 7) << 16));
        buffers[4].push((0..4).fold(0, |w, k| w | (value(4, 3) << (8 * k))));
        buffers[5].push((0..4).fold(0, |w, k| w | (value(5, 2) << (8 * k))));
        buffers[6].push(value(8, 23));
        buffers[7].push(value(5, 10));
    }
    for (b, v) in buffers.iter().enumerate() {
        res.set_buffer(0, b as u32, words(v));
    }
    for b in 8..12 {
        res.set_buffer(0, b, vec![0; 4 * n]);
    }
    res
}

/// Every model, then every model with both flush switches and rounding toward +∞ (which the
/// JIT leaves to spvx-num).
fn every_model_and_flushing() -> Vec<ModelConfig> {
    let mut configs: Vec<ModelConfig> = Model::ALL.map(ModelConfig::new).to_vec();
    configs.extend(Model::ALL.map(|model| ModelConfig {
        flush_input_denormals: true,
        flush_output_denormals: true,
        rounding: spvx_num::float::RoundingMode::TowardPositive,
        ..ModelConfig::new(model)
    }));
    configs
}

/// Runs the mixdot example on `res` on the JIT under every model (and flushing with another
/// rounding) and compares every result word with spvx-num's exact path.
fn dots_equal_the_exact_path(m: &CompiledModule, res: &Resources, groups: usize) {
    use spvx_num::mixdot::{
        Fp8Encoding, Half16Encoding, exact_dot2_acc16, exact_dot2_acc32, exact_dot4_acc32,
    };
    let n = 4 * groups;
    let input = |b: u32| read_words(res, b);
    let (f16a, f16b, bfa, bfb) = (input(0), input(1), input(2), input(3));
    let (a8, b8, acc, acc16) = (input(4), input(5), input(6), input(7));
    let halves = |w: u32| [w as u16, (w >> 16) as u16];
    let configs = every_model_and_flushing();
    for model in configs {
        let cfg = RunConfig {
            mixdot: model,
            jit: true,
            threads: Some(1),
            ..RunConfig::default()
        };
        let (out, report) =
            run(m, res, [groups as u32, 1, 1], &cfg).unwrap_or_else(|e| panic!("{model:?}: {e}"));
        assert_eq!(report.jit, JitUse::Ran, "{model:?}");
        let (d16, dbf, d8, h16) = (
            read_words(&out, 8),
            read_words(&out, 9),
            read_words(&out, 10),
            read_words(&out, 11),
        );
        for i in 0..n {
            let f16 = Half16Encoding::F16;
            let want = exact_dot2_acc32(f16, halves(f16a[i]), halves(f16b[i]), acc[i], &model);
            assert_eq!(d16[i], want, "D16[{i}] {model:?}");
            let bf = Half16Encoding::Bf16;
            let want = exact_dot2_acc32(bf, halves(bfa[i]), halves(bfb[i]), acc[i], &model);
            assert_eq!(dbf[i], want, "Dbf[{i}] {model:?}");
            let (e4, e5) = (Fp8Encoding::E4m3, Fp8Encoding::E5m2);
            let (x, y) = (a8[i].to_le_bytes(), b8[i].to_le_bytes());
            let want = exact_dot4_acc32(e4, e5, x, y, acc[i], &model);
            assert_eq!(d8[i], want, "D8[{i}] {model:?}");
            let want = exact_dot2_acc16(
                f16,
                halves(f16a[i]),
                halves(f16b[i]),
                acc16[i] as u16,
                &model,
            );
            assert_eq!(h16[i] & 0xffff, u32::from(want), "H16[{i}] {model:?}");
        }
    }
}

#[test]
fn mixed_dots_match_hand_computed_results() {
    let m = module(
        "../../examples/mixdot.spvasm",
        "main",
        &CompileOptions::default(),
    );
    // Per invocation: f16 a, b words, acc, the expected D16 bits (exact sum, one rounding).
    let cases: [(u32, u32, u32, u32); 8] = [
        // 1·3 + 2·0.5 + 0.25 = 4.25
        (0x4000_3c00, 0x3800_4200, 0x3e80_0000, 0x4088_0000),
        // 2^-24 · 2^-24 + 0 + 1.0: 1 + 2^-48 rounds to 1 (the sum is inexact in f64's first
        // addition chain only when the terms are far apart; the answer is 1 either way)
        (0x0000_0001, 0x0000_0001, 0x3f80_0000, 0x3f80_0000),
        // (-0)·1 + (-0)·1 + (-0) = -0
        (0x8000_8000, 0x3c00_3c00, 0x8000_0000, 0x8000_0000),
        // (-0)·1 + (-0)·1 + (+0) = +0
        (0x8000_8000, 0x3c00_3c00, 0x0000_0000, 0x0000_0000),
        // 65504² · 2 = 8581548032 = 8380418 · 2^10, exact in f32
        (0x7bff_7bff, 0x7bff_7bff, 0x0000_0000, 0x4fff_c004),
        // inf · 0 = NaN: the canonical f32 NaN
        (0x0000_7c00, 0x3c00_0000, 0x0000_0000, 0x7fc0_0000),
        // 1 + 2^-24 (not representable: ties to even, 1.0) from 1·1 + 2^-12·2^-12 + 0
        (0x0c00_3c00, 0x0c00_3c00, 0x0000_0000, 0x3f80_0000),
        // 1·1 + 1·1 + (-2) = +0 (exact cancellation)
        (0x3c00_3c00, 0x3c00_3c00, 0xc000_0000, 0x0000_0000),
    ];
    let n = 8;
    let mut res = Resources::new();
    let a: Vec<u32> = cases.iter().map(|c| c.0).collect();
    let b: Vec<u32> = cases.iter().map(|c| c.1).collect();
    let acc: Vec<u32> = cases.iter().map(|c| c.2).collect();
    for (binding, v) in [
        (0, &a),
        (1, &b),
        (2, &a),
        (3, &b),
        (4, &a),
        (5, &b),
        (6, &acc),
        (7, &a),
    ] {
        res.set_buffer(0, binding, words(v));
    }
    for binding in 8..12 {
        res.set_buffer(0, binding, vec![0; 4 * n]);
    }
    let cfg = RunConfig::default();
    let (interp, used) = agree("mixdot hand cases", &m, &res, [2, 1, 1], &cfg);
    assert_eq!(used, JitUse::Ran);
    let Ok((out, _)) = interp else {
        panic!("the run fails")
    };
    let d16 = read_words(&out, 8);
    let want: Vec<u32> = cases.iter().map(|c| c.3).collect();
    assert_eq!(d16, want, "D16 {d16:08x?}");
}

/// examples/tensor.spvasm (element and array reads with an out-of-bounds value, writes, size
/// queries) on tensors of many shapes and strides, and of other ranks than the type's.
#[test]
fn tensor_access_gives_the_interpreters_bytes_on_any_shape() {
    let m = module(
        "../../examples/tensor.spvasm",
        "main",
        &CompileOptions::default(),
    );
    let mut rng = Rng(0x7e45);
    let shapes: [(Vec<u64>, Option<Vec<u64>>); 9] = [
        (vec![3, 4], None),
        (vec![4, 3], None),
        (vec![1, 1], None),
        (vec![0, 4], None),
        (vec![3, 4], Some(vec![40, 8])),
        (vec![2, 8], Some(vec![4, 8])),
        (vec![5, 5], Some(vec![20, 4])),
        // Other ranks than the type's (2).
        (vec![12], None),
        (vec![2, 2, 3], None),
    ];
    for (ts, tstr) in shapes.iter() {
        for (us, ustr) in shapes.iter().rev() {
            let tensor = |shape: &Vec<u64>, strides: &Option<Vec<u64>>, rng: &mut Rng| {
                let elems: u64 = shape.iter().product();
                let span = match strides {
                    Some(s) => {
                        shape
                            .iter()
                            .zip(s)
                            .map(|(n, st)| n.saturating_sub(1) * st)
                            .sum::<u64>()
                            + 4
                    }
                    None => elems * 4,
                };
                let data = (0..span).map(|_| rng.next() as u8).collect();
                Tensor {
                    shape: shape.clone(),
                    strides: strides.clone(),
                    data,
                }
            };
            let mut res = Resources::new();
            res.set_tensor(0, 0, tensor(ts, tstr, &mut rng));
            res.set_tensor(0, 1, tensor(us, ustr, &mut rng));
            for b in 2..5 {
                res.set_buffer(0, b, vec![0; 64]);
            }
            let name = format!("tensor {ts:?}/{tstr:?} -> {us:?}/{ustr:?}");
            let (interp, used) = agree(&name, &m, &res, [1, 1, 1], &RunConfig::default());
            // (A tensor of another rank than the type's, or with a zero size, is refused before
            // the run, with the same error both ways.)
            let same_rank = [ts, us].iter().all(|s| s.len() == 2 && !s.contains(&0));
            assert_eq!(interp.is_ok(), same_rank, "{name}");
            if same_rank {
                assert_eq!(used, JitUse::Ran, "{name}");
            }
        }
    }
}

/// The example's documented results on its 3 × 4 and 4 × 3 tensors (examples/tensor.toml,
/// from make_examples.py), on the JIT.
#[test]
fn tensor_example_matches_its_expected_values_on_the_jit() {
    let m = module(
        "../../examples/tensor.spvasm",
        "main",
        &CompileOptions::default(),
    );
    let t: Vec<i32> = (0..12).map(|i| 10 * (i / 4) + i % 4 + 1).collect();
    let mut res = Resources::new();
    res.set_tensor(
        0,
        0,
        Tensor {
            shape: vec![3, 4],
            strides: None,
            data: t.iter().flat_map(|v| v.to_le_bytes()).collect(),
        },
    );
    res.set_tensor(
        0,
        1,
        Tensor {
            shape: vec![4, 3],
            strides: None,
            data: vec![0; 48],
        },
    );
    for b in 2..5 {
        res.set_buffer(0, b, vec![0; 64]);
    }
    let (r, report) = run(&m, &res, [1, 1, 1], &RunConfig::default()).expect("runs");
    assert_eq!(report.jit, JitUse::Ran);
    // E[i] = T[i / 4, i % 4] or -1 in row 3; P[i] = T[r, c + 1] or -1 past column 3 or row 3.
    let e: Vec<i32> = read_words(&r, 2).iter().map(|w| *w as i32).collect();
    let p: Vec<i32> = read_words(&r, 3).iter().map(|w| *w as i32).collect();
    for i in 0..16usize {
        let (row, col) = (i / 4, i % 4);
        let at = |c: usize| {
            if row < 3 && c < 4 {
                10 * row as i32 + c as i32 + 1
            } else {
                -1
            }
        };
        assert_eq!(e[i], at(col), "E[{i}]");
        assert_eq!(p[i], at(col + 1), "P[{i}]");
    }
    assert_eq!(read_words(&r, 4)[..4], [3, 4, 4, 3]);
}

/// The tensor stencil of the benchmark set (signed coordinates, array reads with and without
/// an out-of-bounds value, array writes, a size query) on small and strided tensors.
#[test]
fn tensor_stencil_agrees_with_the_interpreter() {
    let m = module(
        "../../bench/tensor_stencil.spvasm",
        "main",
        &CompileOptions::default(),
    );
    let mut rng = Rng(0x57e1);
    for (shape, strides) in [
        (vec![32u64, 16], None),
        (vec![20, 13], None),
        (vec![16, 16], Some(vec![128u64, 4])),
    ] {
        let span = match &strides {
            Some(s) => (shape[0] - 1) * s[0] + (shape[1] - 1) * s[1] + 4,
            None => shape[0] * shape[1] * 4,
        };
        let t = |rng: &mut Rng| Tensor {
            shape: shape.clone(),
            strides: strides.clone(),
            data: (0..span).map(|_| rng.next() as u8).collect(),
        };
        let mut res = Resources::new();
        res.set_tensor(0, 0, t(&mut rng));
        res.set_tensor(0, 1, t(&mut rng));
        let name = format!("stencil {shape:?} {strides:?}");
        let (_, used) = agree(&name, &m, &res, [1, 2, 1], &RunConfig::default());
        assert_eq!(used, JitUse::Ran, "{name}");
    }
}

/// Integer dot products of every form (clang-15 OpenCL kernel of the corpus: packed through
/// imported built-ins, char4/uchar4 vectors, saturating) on the range ends.
#[test]
fn integer_dots_of_every_form_agree_on_range_ends() {
    let m = module(
        "tests/corpus/opencl/intdot.spv",
        "intdot",
        &CompileOptions::default(),
    );
    let edges = [
        0u32,
        0x8080_8080,
        0x7f7f_7f7f,
        0xffff_ffff,
        0x0101_0101,
        0x80ff_7f01,
        0x7f80_01ff,
    ];
    let accs = [
        0u32,
        0x7fff_ffff,
        0x8000_0000,
        0xffff_ffff,
        0x7fff_0000,
        0x8000_ffff,
    ];
    let mut a = Vec::new();
    let mut b = Vec::new();
    let mut c = Vec::new();
    for x in edges {
        for y in edges {
            for z in accs {
                a.push(x);
                b.push(y);
                c.push(z);
            }
        }
    }
    let n = a.len().div_ceil(64) * 64;
    a.resize(n, 0);
    b.resize(n, 0);
    c.resize(n, 0);
    let mut res = Resources::new();
    res.set_arg(0, KernelArg::Buffer(words(&a)));
    res.set_arg(1, KernelArg::Buffer(words(&b)));
    res.set_arg(2, KernelArg::Buffer(words(&c)));
    res.set_arg(3, KernelArg::Buffer(vec![0; 48 * n]));
    res.local_size = Some([64, 1, 1]);
    let (_, used) = agree(
        "intdot",
        &m,
        &res,
        [(n / 64) as u32, 1, 1],
        &RunConfig::default(),
    );
    assert_eq!(used, JitUse::Ran);
}

/// Fixed-point sqrt and sin (the benchmark kernel) on edge inputs: zero, the extremes, values
/// whose sqrt argument is negative (reported: the JIT falls back), random ones. The JIT takes
/// the kernel (SAbs native, the fixed-point functions through spvx-num's C-ABI function:
/// `jit::lower_fixed`, the interpreter only for what that leaves unsettled).
#[test]
fn fixed_point_functions_agree_on_edge_inputs() {
    let m = module(
        "../../bench/fixed_fn.spvasm",
        "main",
        &CompileOptions::default(),
    );
    m.jit_code().expect("the JIT takes the fixed-point kernel");
    let mut rng = Rng(0xf1ed);
    let mut x: Vec<u32> = vec![
        0,
        1,
        0x7fff_ffff,
        0x8000_0000,
        0xffff_ffff,
        16,
        0x10,
        0x8000_0001,
    ];
    x.extend((0..248).map(|_| rng.next_u32()));
    let mut res = Resources::new();
    res.set_buffer(0, 0, words(&x));
    res.set_buffer(0, 1, vec![0; 8 * x.len()]);
    let groups = (x.len() / 64) as u32;
    let (interp, _) = agree("fixed", &m, &res, [groups, 1, 1], &RunConfig::default());
    // Negative inputs to sqrt are reported (the JIT fell back; `agree` checked that).
    assert!(interp.is_ok_and(|(_, r)| r.total_events > 0));
    // Positive inputs only: nothing to report, so the JIT runs.
    let pos: Vec<u32> = x.iter().map(|v| v & 0x7fff_ffff).collect();
    res.set_buffer(0, 0, words(&pos));
    let (_, used) = agree(
        "fixed, positive",
        &m,
        &res,
        [groups, 1, 1],
        &RunConfig::default(),
    );
    assert_eq!(used, JitUse::Ran);
}

/// The histogram with buffer atomics (order-free: add, result unused) on the JIT with two
/// threads, against counts made here; and atomics whose results are used stay on the
/// interpreter.
#[test]
fn order_free_atomics_run_on_the_jit_and_count_exactly() {
    let m = module(
        "../../bench/histogram.spv",
        "main",
        &CompileOptions::default(),
    );
    let mut rng = Rng(0x4157);
    let data: Vec<u32> = (0..4 * 256 * 8).map(|_| rng.next_u32() % 7 * 37).collect();
    let mut res = Resources::new();
    res.set_buffer(0, 0, words(&data));
    res.set_buffer(0, 1, vec![0; 1024]);
    let (interp, used) = agree("histogram", &m, &res, [8, 1, 1], &RunConfig::default());
    assert_eq!(used, JitUse::Ran);
    let mut want = [0u32; 256];
    for d in &data {
        want[(d & 255) as usize] += 1;
    }
    let Ok((out, _)) = interp else {
        panic!("the run fails")
    };
    assert_eq!(read_words(&out, 1), want);
    // A hist buffer too short for some bins: the out-of-bounds atomics are reported, and the
    // JIT gives the run to the interpreter.
    res.set_buffer(0, 1, vec![0; 512]);
    let (_, used) = agree(
        "histogram, short",
        &m,
        &res,
        [8, 1, 1],
        &RunConfig::default(),
    );
    assert!(matches!(used, JitUse::FellBack(_)), "{used:?}");
    // The corpus's atomics shader uses the old values (compare-exchange winners, tickets).
    let atomics = module(
        "tests/corpus/glsl/atomics.comp.spv",
        "main",
        &CompileOptions::default(),
    );
    let why = spvx_exec::jit::unsupported(atomics.program()).unwrap_or_default();
    assert!(why.contains("atomic"), "{why}");
}

/// The pair dots of tests/corpus/simd/mixdot2.spvasm (the example's bindings; in every third
/// invocation an f16 dot chained on the first one, in a branch, else a bf16 dot; chunks of
/// the vector lanes run with some lanes masked) on the scalar JIT (the f16 dot's pairs taken
/// from their words in one block, from the four halves in the other) and in the vector lanes
/// (`jit::simd::mixdot`, opt-in: `CompiledModule::with_jit_vector_lanes`): under every model,
/// and under flushing with another rounding (spvx-num's function for every dot), on edge and
/// ordinary inputs, every result word equals spvx-num's exact path computed here, and the
/// interpreter's.
#[test]
fn pair_dots_equal_spvx_nums_exact_path_on_both_jits() {
    use spvx_num::mixdot::{Half16Encoding, exact_dot2_acc32};
    let base = module(
        "tests/corpus/simd/mixdot2.spvasm",
        "main",
        &CompileOptions::default(),
    );
    let scalar = base.with_scalar_jit();
    let vector = base.with_jit_vector_lanes();
    let code = vector.jit_code().expect("the JIT compiles it");
    if let Err(why) = code.vector_lanes() {
        panic!("not run in vector lanes: {why}");
    }
    for (m, lanes) in [(scalar, false), (vector, true)] {
        let mut rng = Rng(0x7a11);
        // 8 invocations per workgroup (two chunks of four lanes).
        let groups = 40;
        let n = 8 * groups;
        let halves = |w: u32| [w as u16, (w >> 16) as u16];
        let configs = every_model_and_flushing();
        for res in [
            mixdot_inputs(n, &mut rng),
            ordinary_mixdot_inputs(n, &mut rng),
        ] {
            let input = |b: u32| read_words(&res, b);
            let (f16a, f16b, bfa, bfb, acc) = (input(0), input(1), input(2), input(3), input(6));
            for model in &configs {
                let cfg = RunConfig {
                    mixdot: *model,
                    jit: true,
                    threads: Some(1),
                    ..RunConfig::default()
                };
                let (out, report) = run(&m, &res, [groups as u32, 1, 1], &cfg)
                    .unwrap_or_else(|e| panic!("{model:?}: {e}"));
                assert_eq!(report.jit, JitUse::Ran, "{model:?}");
                // The vector lanes run the default configuration only (the one they compute
                // inline); the scalar JIT runs the others.
                let default = spvx_num::mixdot::abi::config_word(model) == 0;
                assert_eq!(report.vector_lanes, lanes && default, "{model:?}");
                let interp = run(
                    &m,
                    &res,
                    [groups as u32, 1, 1],
                    &RunConfig {
                        jit: false,
                        ..cfg.clone()
                    },
                )
                .expect("the interpreter runs it")
                .0;
                assert!(out == interp, "{model:?}: the interpreter's bytes differ");
                let (d16, dbf) = (read_words(&out, 8), read_words(&out, 9));
                for i in 0..n {
                    let f16 = Half16Encoding::F16;
                    let want =
                        exact_dot2_acc32(f16, halves(f16a[i]), halves(f16b[i]), acc[i], model);
                    assert_eq!(d16[i], want, "D16[{i}] {model:?}");
                    let want = if i % 3 == 0 {
                        exact_dot2_acc32(f16, halves(f16a[i]), halves(f16b[i]), d16[i], model)
                    } else {
                        let bf = Half16Encoding::Bf16;
                        exact_dot2_acc32(bf, halves(bfa[i]), halves(bfb[i]), acc[i], model)
                    };
                    assert_eq!(dbf[i], want, "Dbf[{i}] {model:?}");
                }
            }
        }
    }
}
