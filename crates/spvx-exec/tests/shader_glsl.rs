//! glslang-compiled shaders (tests/corpus/glsl) for shader-model features:
//! ballot bit queries and quad operations (ballot.comp, GL_KHR_shader_subgroup_ballot/_quad)
//! at several subgroup sizes, and access chains into columns and elements of row-major
//! matrices (rowmajor.comp). Expected values are computed here from the GLSL source's meaning:
//! popcounts and bit positions of the masks each subgroup forms, and byte offsets from the
//! std430 rules (GLSL 4.60 §7.6.2.2) written by hand.

mod glsl_corpus;

use glsl_corpus::{Rng, le32, module, words};
use spvx_exec::{Resources, RunConfig};

/// (lane, subgroup member indices) of invocation `g` (workgroups of `local`, subgroups of
/// `sub`; the last subgroup of a workgroup may be partial).
fn subgroup_of(g: usize, local: usize, sub: usize) -> (usize, Vec<usize>) {
    let wg = g / local * local;
    let li = g % local;
    let start = wg + li / sub * sub;
    (li % sub, (start..(start + sub).min(wg + local)).collect())
}

fn mask(members: &[usize], pred: impl Fn(usize) -> bool) -> u64 {
    members
        .iter()
        .enumerate()
        .filter(|(_, m)| pred(**m))
        .map(|(k, _)| 1u64 << k)
        .sum()
}

fn lsb(m: u64) -> u32 {
    if m == 0 { u32::MAX } else { m.trailing_zeros() }
}

fn msb(m: u64) -> u32 {
    if m == 0 {
        u32::MAX
    } else {
        63 - m.leading_zeros()
    }
}

/// ballot.comp (12 results per invocation, see the source) at subgroup sizes 4 to 64.
#[test]
fn ballot_queries_and_quads_from_glslang() {
    let m = module("ballot.comp");
    let n = 128usize;
    let mut rng = Rng(0xba11);
    let x: Vec<u32> = (0..n).map(|_| rng.next_u32() % 50).collect();
    let inverse: u64 = 0x0f0f_00ff_9b5a_3c71;
    for sub in [4usize, 8, 16, 32, 64] {
        let mut res = Resources::new();
        res.set_buffer(0, 0, le32(&x));
        res.set_buffer(0, 1, vec![0; 4 * 12 * n]);
        let cfg = RunConfig {
            subgroup_size: sub as u32,
            ..RunConfig::default()
        };
        let report = m
            .run(&mut res, [2, 1, 1], &cfg)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(report.total_events, 0, "{:?}", report.events);
        let out = words(res.buffer(0, 1).unwrap_or_default());
        for g in 0..n {
            let (lane, members) = subgroup_of(g, 64, sub);
            let odd = mask(&members, |k| x[k] & 1 == 1);
            let upto = u64::MAX >> (63 - lane);
            let below = upto >> 1;
            let quad = |k: usize| x[members[k]];
            let big = mask(&members, |k| x[k] >= 25);
            let want = [
                odd.count_ones(),
                (odd & upto).count_ones(),
                (odd & below).count_ones(),
                lsb(odd),
                msb(odd),
                (odd >> (x[g] as usize % sub) & 1) as u32,
                (inverse >> lane & 1) as u32,
                quad((lane & !3) + 3),
                quad(lane ^ 1).wrapping_add(1000u32.wrapping_mul(quad(lane ^ 3))),
                quad(lane ^ 2),
                if x[g] >= 25 {
                    (big & below).count_ones() * 100 + big.count_ones()
                } else {
                    u32::MAX
                },
                msb(mask(&members, |k| x[k] < 10) | 1),
            ];
            assert_eq!(
                out[g * 12..g * 12 + 12],
                want,
                "subgroup size {sub}, invocation {g}"
            );
        }
    }
}

fn put(buf: &mut [u8], offset: usize, v: f32) {
    buf[offset..offset + 4].copy_from_slice(&v.to_le_bytes());
}

fn get(buf: &[u8], offset: usize) -> f32 {
    f32::from_le_bytes([
        buf[offset],
        buf[offset + 1],
        buf[offset + 2],
        buf[offset + 3],
    ])
}

/// rowmajor.comp. std430 with `layout(row_major)`: a matrix is stored as rows, row r of
/// matrix element (column c, row r) at `base + r·MatrixStride + 4c`, MatrixStride = the row
/// vector's std430 size rounded to its alignment (vec4: 16, vec3: 16, vec2: 8).
/// a: mat4 at 0 (stride 16); b: mat3x2 (3 columns, 2 rows) at 64 (stride 16); arr: mat2[2]
/// at 96 (stride 8, array stride 16).
#[test]
fn row_major_columns_and_elements_from_glslang() {
    let a_at = |c: usize, r: usize| 16 * r + 4 * c;
    let b_at = |c: usize, r: usize| 64 + 16 * r + 4 * c;
    let arr_at = |k: usize, c: usize, r: usize| 96 + 16 * k + 8 * r + 4 * c;
    let a = |c: usize, r: usize| (10 * c + r) as f32 + 0.5;
    let b = |c: usize, r: usize| -((10 * c + r) as f32) - 0.25;
    let arr = |k: usize, c: usize, r: usize| (100 * k + 10 * c + r) as f32 + 0.125;
    let mut mbuf = vec![0u8; 128];
    for c in 0..4 {
        for r in 0..4 {
            put(&mut mbuf, a_at(c, r), a(c, r));
        }
    }
    for c in 0..3 {
        for r in 0..2 {
            put(&mut mbuf, b_at(c, r), b(c, r));
        }
    }
    for k in 0..2 {
        for c in 0..2 {
            for r in 0..2 {
                put(&mut mbuf, arr_at(k, c, r), arr(k, c, r));
            }
        }
    }
    // Padding bytes (the fourth float of each row of b) are a marker that must survive.
    for r in 0..2 {
        put(&mut mbuf, 64 + 16 * r + 12, 777.0);
    }
    let original = mbuf.clone();
    let mut res = Resources::new();
    res.set_buffer(0, 0, mbuf);
    res.set_buffer(0, 1, vec![0; 160]);
    let report = module("rowmajor.comp")
        .run(&mut res, [1, 1, 1], &RunConfig::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.total_events, 0, "{:?}", report.events);
    let o = res.buffer(0, 1).unwrap_or_default();
    for i in 0..4 {
        for r in 0..4 {
            assert_eq!(get(o, 16 * i + 4 * r), a(i, r), "col[{i}][{r}]");
        }
        for r in 0..2 {
            assert_eq!(get(o, 80 + 8 * i + 4 * r), b(i % 3, r), "bcol[{i}][{r}]");
            assert_eq!(
                get(o, 128 + 8 * i + 4 * r),
                arr(i / 2, i % 2, r),
                "acol[{i}]"
            );
        }
        assert_eq!(get(o, 112 + 4 * i), a(i, 3 - i) + b(2, i % 2), "el[{i}]");
    }
    for r in 0..4 {
        assert_eq!(get(o, 64 + 4 * r), a(2, r), "cconst[{r}]");
    }
    // The writes: a[1] = (-1, -2, -3, -4), a[0] = (10, 20, 30, 40), b[2][1] = 100,
    // arr[1][0] = (7, 8); every other byte unchanged.
    let mut want = original;
    for r in 0..4 {
        put(&mut want, a_at(1, r), -(r as f32) - 1.0);
        put(&mut want, a_at(0, r), 10.0 * (r as f32 + 1.0));
    }
    put(&mut want, b_at(2, 1), 100.0);
    put(&mut want, arr_at(1, 0, 0), 7.0);
    put(&mut want, arr_at(1, 0, 1), 8.0);
    assert_eq!(res.buffer(0, 0).unwrap_or_default(), want.as_slice());
}

/// submasks.comp: gl_SubgroupEqMask … gl_SubgroupLtMask (components x, y; z, w are 0) at
/// subgroup sizes 8, 32 and 64, workgroups of 64; masks written here from their definitions
/// (lanes `==`, `>=`, `>`, `<=`, `<` the invocation's, below the subgroup size).
#[test]
fn subgroup_mask_builtins_from_glslang() {
    let m = module("submasks.comp");
    for sub in [8u64, 32, 64] {
        let mut res = Resources::new();
        res.set_buffer(0, 0, vec![0; 64 * 6 * 8]);
        let cfg = RunConfig {
            subgroup_size: sub as u32,
            ..RunConfig::default()
        };
        let report = m
            .run(&mut res, [1, 1, 1], &cfg)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(report.total_events, 0);
        let out = words(res.buffer(0, 0).unwrap_or_default());
        let all = if sub == 64 {
            u64::MAX
        } else {
            (1u64 << sub) - 1
        };
        for g in 0..64u64 {
            let lane = g % sub;
            let mut want = [0u64; 6];
            for k in 0..sub {
                let bit = 1u64 << k;
                want[0] |= if k == lane { bit } else { 0 };
                want[1] |= if k >= lane { bit } else { 0 };
                want[2] |= if k > lane { bit } else { 0 };
                want[3] |= if k <= lane { bit } else { 0 };
                want[4] |= if k < lane { bit } else { 0 };
            }
            assert_eq!(want[1] & !all, 0);
            let at = g as usize * 12;
            for (j, w) in want.iter().take(5).enumerate() {
                let got = out[at + 2 * j] as u64 | (out[at + 2 * j + 1] as u64) << 32;
                assert_eq!(got, *w, "subgroup size {sub}, invocation {g}, mask {j}");
            }
            // Every lane is active: both counts are the lane.
            assert_eq!(out[at + 10..at + 12], [lane as u32, lane as u32]);
        }
    }
}

/// partition.comp (GL_NV_shader_subgroup_partitioned): the partition of the lanes by
/// `x mod 3`, and add / inclusive min / exclusive add within each partition; in a divergent
/// branch (x ≥ 20) the add over the branch lanes with the same parity. Subgroup sizes 8, 16
/// and 32, workgroups of 32.
#[test]
fn partitioned_operations_from_glslang() {
    let m = module("partition.comp");
    let n = 64usize;
    let mut rng = Rng(0x9a27);
    let x: Vec<u32> = (0..n).map(|_| rng.next_u32() % 40).collect();
    for sub in [8usize, 16, 32] {
        let mut res = Resources::new();
        res.set_buffer(0, 0, le32(&x));
        res.set_buffer(0, 1, vec![0; 4 * 6 * n]);
        let cfg = RunConfig {
            subgroup_size: sub as u32,
            ..RunConfig::default()
        };
        let report = m
            .run(&mut res, [2, 1, 1], &cfg)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(report.total_events, 0);
        let out = words(res.buffer(0, 1).unwrap_or_default());
        for g in 0..n {
            let (lane, members) = subgroup_of(g, 32, sub);
            let part = mask(&members, |k| x[k] % 3 == x[g] % 3);
            let in_part: Vec<(usize, u32)> = members
                .iter()
                .enumerate()
                .filter(|(k, _)| part >> k & 1 == 1)
                .map(|(k, &m)| (k, x[m]))
                .collect();
            let sum: u32 = in_part.iter().map(|p| p.1).sum();
            let inc_min = in_part
                .iter()
                .filter(|p| p.0 <= lane)
                .map(|p| p.1)
                .min()
                .unwrap_or(u32::MAX);
            let exc_sum: u32 = in_part.iter().filter(|p| p.0 < lane).map(|p| p.1).sum();
            let branch = if x[g] >= 20 {
                members
                    .iter()
                    .filter(|&&k| x[k] >= 20 && x[k] % 2 == x[g] % 2)
                    .map(|&k| x[k])
                    .sum()
            } else {
                u32::MAX
            };
            let want = [
                part as u32,
                (part >> 32) as u32,
                sum,
                inc_min,
                exc_sum,
                branch,
            ];
            assert_eq!(
                out[6 * g..6 * g + 6],
                want,
                "subgroup size {sub}, invocation {g}"
            );
        }
    }
}
