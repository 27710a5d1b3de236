//! glslang-compiled shaders (tests/corpus/glsl) for control flow, synchronisation, calls,
//! subgroups, atomics and specialisation/push constants, run on inputs chosen here; expected
//! outputs are computed in Rust from the GLSL source's meaning.

mod glsl_corpus;

use glsl_corpus::{Rng, le32, module, words};
use spvx_exec::{CompileOptions, CompiledModule, Resources, RunConfig};

fn run(m: &CompiledModule, res: &mut Resources, groups: [u32; 3], cfg: &RunConfig) {
    let report = m.run(res, groups, cfg).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.total_events, 0, "{:?}", report.events);
}

/// reduce.comp: a tree reduction in shared memory; simulated here step by step (every step
/// reads the previous step's values, as the barriers guarantee).
#[test]
fn reduce_with_barriers() {
    let m = module("reduce.comp");
    let groups = 4usize;
    let mut rng = Rng(1);
    let x: Vec<u32> = (0..groups * 128).map(|_| rng.next_u32()).collect();
    for subgroup_size in [4, 32, 64] {
        for threads in [Some(1), None] {
            let mut res = Resources::new();
            res.set_words(0, 0, &x);
            res.set_words(0, 1, &vec![0; groups + groups * 128]);
            let cfg = RunConfig {
                subgroup_size,
                threads,
                ..RunConfig::default()
            };
            run(&m, &mut res, [groups as u32, 1, 1], &cfg);
            let out = res.words(0, 1).unwrap_or_default();
            for g in 0..groups {
                let mut part = x[g * 128..(g + 1) * 128].to_vec();
                let mut s = 64;
                while s > 0 {
                    for l in 0..s {
                        part[l] = part[l].wrapping_add(part[l + s]);
                    }
                    s >>= 1;
                }
                let total = x[g * 128..(g + 1) * 128]
                    .iter()
                    .fold(0u32, |a, &b| a.wrapping_add(b));
                assert_eq!(out[g], total, "workgroup {g}");
                assert_eq!(part[0], total);
                for l in 0..128 {
                    assert_eq!(
                        out[groups + g * 128 + l],
                        total.wrapping_sub(part[l]),
                        "workgroup {g} invocation {l} (subgroup size {subgroup_size})"
                    );
                }
            }
        }
    }
}

/// control.comp: Collatz loop with break/continue, nested loops, a switch with fall-through.
#[test]
fn loops_and_switch() {
    let m = module("control.comp");
    let v: Vec<u32> = (0..32u32)
        .map(|i| [1, 27, 97, 871, 6171][i as usize % 5] + i)
        .collect();
    let mut init = v.clone();
    init.extend([0u32; 32]);
    let mut res = Resources::new();
    res.set_words(0, 0, &init);
    run(&m, &mut res, [1, 1, 1], &RunConfig::default());
    let out = res.words(0, 0).unwrap_or_default();
    for i in 0..32u32 {
        let mut n = v[i as usize];
        let (mut steps, mut odd) = (0u32, 0u32);
        for _ in 0..200 {
            if n == 1 {
                break;
            }
            steps += 1;
            if n.is_multiple_of(2) {
                n /= 2;
            } else {
                odd += 1;
                n = n.wrapping_mul(3).wrapping_add(1);
            }
        }
        let mut acc = 0u32;
        for j in 1..=(i % 7 + 2) {
            acc += (0..j).filter(|&m| m != 3).map(|m| m * j).sum::<u32>();
        }
        let s = match i % 6 {
            0 => 10,
            1 | 2 => 20 + i,
            3 => 71,
            4 => 40,
            _ => 99,
        };
        assert_eq!(
            out[i as usize],
            steps | odd << 8 | acc << 16,
            "invocation {i}"
        );
        assert_eq!(out[32 + i as usize], s, "switch of invocation {i}");
    }
}

/// functions.comp: sort3 through inout swaps, clamp_add with an out parameter and early returns.
#[test]
fn calls_with_inout() {
    let m = module("functions.comp");
    let mut rng = Rng(7);
    let v: Vec<i32> = (0..48).map(|_| (rng.next_u32() % 61) as i32 - 30).collect();
    let mut res = Resources::new();
    res.set_buffer(0, 0, v.iter().flat_map(|x| x.to_le_bytes()).collect());
    run(&m, &mut res, [1, 1, 1], &RunConfig::default());
    let out = words(res.buffer(0, 0).unwrap_or_default());
    for i in 0..16 {
        let mut t = [v[3 * i], v[3 * i + 1], v[3 * i + 2]];
        t.sort();
        let s = t[0] * t[0] - 3 * t[0] + 7 + t[2] * 100;
        let r = if s > 1000 {
            -1000
        } else if s < -1000 {
            1000
        } else {
            s
        };
        assert_eq!(
            [out[3 * i], out[3 * i + 1], out[3 * i + 2]].map(|w| w as i32),
            [t[0], t[1], r],
            "invocation {i}"
        );
    }
}

/// (spec overrides, local size, mul, negate, bias).
type Case = (Vec<(u32, u64)>, u32, i32, bool, f32);

/// specpush.comp: workgroup size, MUL, NEGATE and BIAS from specialisation constants (default
/// and overridden), offset, scale and add[] from push constants.
#[test]
fn spec_and_push_constants() {
    // (spec overrides, local size, mul, negate, bias)
    let cases: [Case; 2] = [
        (vec![], 1, 3, false, 0.5),
        (
            vec![(0, 8), (1, 5), (2, 1), (3, (-2.25f32).to_bits() as u64)],
            8,
            5,
            true,
            -2.25,
        ),
    ];
    for (spec, local, mul, negate, bias) in cases {
        let opts = CompileOptions {
            spec_constants: spec.into_iter().collect(),
            ..CompileOptions::default()
        };
        let m = glsl_corpus::try_module("specpush.comp", &opts).unwrap_or_else(|e| panic!("{e}"));
        let mut res = Resources::new();
        res.push_constants = le32(&[4, 1.5f32.to_bits(), 10, (-7i32) as u32]);
        res.set_words(0, 0, &[0; 4 + 16]);
        run(&m, &mut res, [16 / local, 1, 1], &RunConfig::default());
        let out = res.words(0, 0).unwrap_or_default();
        for i in 0..16i32 {
            let add = if i % 2 == 0 { 10 } else { -7 };
            // Integer part exact; ×1.5 and +bias exact in f32 for these small values.
            let mut x = ((i * (mul * 2 + 1) + add) as f32) * 1.5 + bias;
            if negate {
                x = -x;
            }
            x += local as f32;
            assert_eq!(f32::from_bits(out[4 + i as usize]), x, "invocation {i}");
        }
        assert_eq!(&out[..4], &[0; 4]);
    }
}

/// subgroup.comp: reductions, scans, ballot, shuffles, broadcast, elect, vote, and a
/// reduction in divergent control flow, for several subgroup sizes.
#[test]
fn subgroup_operations() {
    let m = module("subgroup.comp");
    let mut rng = Rng(3);
    let x: Vec<i32> = (0..64)
        .map(|_| (rng.next_u32() % 201) as i32 - 100)
        .collect();
    for s in [4usize, 8, 16, 32, 64] {
        let mut res = Resources::new();
        res.set_buffer(0, 0, x.iter().flat_map(|v| v.to_le_bytes()).collect());
        res.set_words(0, 1, &[0; 640]);
        let cfg = RunConfig {
            subgroup_size: s as u32,
            ..RunConfig::default()
        };
        run(&m, &mut res, [1, 1, 1], &cfg);
        let out: Vec<i32> = words(res.buffer(0, 1).unwrap_or_default())
            .into_iter()
            .map(|w| w as i32)
            .collect();
        for g in 0..64usize {
            let base = g - g % s;
            let lane = g % s;
            let sg = &x[base..base + s];
            let ballot: u64 = sg
                .iter()
                .enumerate()
                .filter(|(_, v)| **v > 0)
                .map(|(l, _)| 1u64 << l)
                .sum();
            let odd_sum: i32 = sg.iter().filter(|v| *v & 1 != 0).sum();
            let want = [
                sg.iter().sum::<i32>(),
                sg[..=lane].iter().sum(),
                sg[..lane].iter().copied().max().unwrap_or(i32::MIN),
                sg.iter().copied().min().unwrap_or(0),
                ballot as u32 as i32,
                ballot.count_ones() as i32,
                sg[(lane * 5 + 3) % s],
                sg[lane ^ 1] + sg.get(lane + 2).copied().unwrap_or(0),
                sg[0] + if lane == 0 { 1000 } else { 0 },
                if x[g] & 1 != 0 { odd_sum } else { 0 }
                    + if sg.iter().all(|v| *v > -100) {
                        100000
                    } else {
                        0
                    },
            ];
            assert_eq!(
                &out[g * 10..g * 10 + 10],
                &want,
                "invocation {g}, subgroup size {s}"
            );
        }
    }
}

/// atomics.comp: shared-memory histogram, buffer atomics of every kind, one winner of a
/// compare-exchange per workgroup.
#[test]
fn atomics_on_buffer_and_shared() {
    let m = module("atomics.comp");
    let groups = 3usize;
    let mut rng = Rng(11);
    let x: Vec<u32> = (0..groups * 64).map(|_| rng.next_u32() % 5000).collect();
    let mut res = Resources::new();
    res.set_words(0, 0, &x);
    let mut acc = vec![0u32; 23];
    acc[17] = i32::MAX as u32; // smin
    acc[18] = i32::MIN as u32; // smax
    acc[19] = u32::MAX; // band
    res.set_words(0, 1, &acc);
    run(&m, &mut res, [groups as u32, 1, 1], &RunConfig::default());
    let out = res.words(0, 1).unwrap_or_default();
    let mut hist = [0u32; 16];
    for v in &x {
        hist[(v & 15) as usize] += 1;
    }
    assert_eq!(&out[..16], &hist);
    assert_eq!(out[16], x.iter().sum::<u32>());
    assert_eq!(
        out[17] as i32,
        x.iter().map(|&v| v as i32 - 1000).min().unwrap_or(0)
    );
    assert_eq!(
        out[18] as i32,
        x.iter().map(|&v| (v ^ 0x55) as i32).max().unwrap_or(0)
    );
    assert_eq!(
        out[19],
        x.iter().fold(u32::MAX, |a, &v| a & (v | 0xffff_0000))
    );
    assert_eq!(out[20], x.iter().fold(0, |a, &v| a | v << 8));
    assert_eq!(out[21], x.iter().fold(0, |a, &v| a ^ v));
    assert_eq!(
        out[22], groups as u32,
        "one compare-exchange winner per workgroup"
    );
}
