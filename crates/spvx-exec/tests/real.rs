//! Compute shaders compiled by glslang (crates/spvx-spirv/tests/corpus/real/*.comp.spv, their
//! GLSL sources beside them), run on inputs chosen here, with outputs computed in the tests
//! from the GLSL source's meaning.

use spvx_exec::{CompileOptions, CompiledModule, Resources, RunConfig};

fn module(name: &str) -> CompiledModule {
    let path = format!(
        "{}/../spvx-spirv/tests/corpus/real/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    CompiledModule::from_bytes(&bytes, "main", &CompileOptions::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

#[test]
fn intdot_comp() {
    let m = module("intdot.comp.spv");
    // x has 2 words per invocation; 64 invocations.
    let x: Vec<u32> = (0..128u32)
        .map(|i| i.wrapping_mul(0x9e37_79b9).rotate_left(i % 32))
        .collect();
    let mut res = Resources::new();
    res.set_words(0, 0, &x);
    res.set_words(0, 1, &[0; 64]);
    m.run(&mut res, [1, 1, 1], &RunConfig::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let y = res.words(0, 1).unwrap_or_default();
    let sb = |w: u32| [0, 1, 2, 3].map(|k| (w >> (8 * k)) as u8 as i8 as i64);
    let ub = |w: u32| [0, 1, 2, 3].map(|k| (w >> (8 * k)) as u8 as i64);
    for i in 0..64usize {
        let (a, b) = (x[2 * i], x[2 * i + 1]);
        let d: i64 = sb(a).iter().zip(sb(b)).map(|(p, q)| p * q).sum();
        let su: i64 = sb(a).iter().zip(ub(b)).map(|(p, q)| p * q).sum();
        let d = (su + d).clamp(i32::MIN as i64, i32::MAX as i64);
        let v = sb(x[i]);
        let vv: i64 = v.iter().map(|p| p * p).sum();
        assert_eq!(y[i], (d + vv) as i32 as u32, "invocation {i}");
    }
}

#[test]
fn wide_comp() {
    let m = module("wide.comp.spv");
    // struct { uint64_t u; int64_t s; double d; float h; int k; } (std430: 0, 8, 16, 24, 28).
    let mut buf = Vec::new();
    buf.extend(3u64.to_le_bytes());
    buf.extend((-5i64).to_le_bytes());
    buf.extend(2.0f64.to_le_bytes());
    buf.extend(1.1f32.to_le_bytes());
    buf.extend(1234i32.to_le_bytes());
    let mut res = Resources::new();
    res.set_buffer(0, 0, buf);
    m.run(&mut res, [1, 1, 1], &RunConfig::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let b = res.buffer(0, 0).unwrap_or_default().to_vec();
    let u = u64::from_le_bytes(b[0..8].try_into().unwrap_or_default());
    let s = i64::from_le_bytes(b[8..16].try_into().unwrap_or_default());
    let d = f64::from_le_bytes(b[16..24].try_into().unwrap_or_default());
    let h = f32::from_le_bytes(b[24..28].try_into().unwrap_or_default());
    let k = i32::from_le_bytes(b[28..32].try_into().unwrap_or_default());
    assert_eq!(
        u,
        3u64.wrapping_mul(0x0123_4567_89ab_cdef)
            .wrapping_add(0xfedc_ba98_7654_3210)
    );
    assert_eq!(s, -5 + 81_985_529_216_486_895);
    // 1.0000000000000002 is 1 + 2^-52.
    assert_eq!(d, 2.0 * (1.0 + f64::EPSILON) + std::f64::consts::PI);
    // float16(1.1) = 0x3c66 = 1.099609375; × 1.5 = 1.6494140625, exact in f16 (0x3e99).
    assert_eq!(h, 1689.0 / 1024.0);
    // int16(1234) * -3 = -3702.
    assert_eq!(k, -3702);
    let _ = words(&b);
}

#[test]
fn matmul_comp_all_switch_cases() {
    let m = module("matmul.comp.spv");
    let n = 16usize;
    let a: Vec<f32> = (0..n * n).map(|i| ((i * 7 + 3) % 5) as f32 - 2.0).collect();
    let b: Vec<f32> = (0..n * n).map(|i| ((i * 3 + 1) % 5) as f32 - 2.0).collect();
    let bytes = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    for mode in [0u32, 1, 7, 3] {
        let mut res = Resources::new();
        res.set_buffer(0, 0, bytes(&a));
        res.set_buffer(0, 1, bytes(&b));
        res.set_buffer(0, 2, vec![0; n * n * 4]);
        res.push_constants = [n as u32, mode]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        let cfg = RunConfig {
            subgroup_size: 16,
            ..RunConfig::default()
        };
        let report = m
            .run(&mut res, [2, 2, 1], &cfg)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(report.total_events, 0, "{:?}", report.events);
        let c: Vec<f32> = words(res.buffer(0, 2).unwrap_or_default())
            .into_iter()
            .map(f32::from_bits)
            .collect();
        // acc[row][col] with fma (exact here: small integers).
        let acc = |row: usize, col: usize| {
            (0..n).fold(0f32, |s, k| a[row * n + k].mul_add(b[k * n + col], s))
        };
        for row in 0..n {
            for col in 0..n {
                let v = acc(row, col);
                let want = match mode {
                    0 => v.abs().sqrt(),
                    1 => v.clamp(-1.0, 1.0),
                    7 => {
                        // tile[0][lx] is acc of the workgroup's first row, same column.
                        let first_row = row - row % 8;
                        acc(first_row, col) + (v as f64).exp2() as f32
                    }
                    _ => v * 0.75 + 0.125,
                };
                assert_eq!(
                    c[row * n + col].to_bits(),
                    want.to_bits(),
                    "mode {mode} [{row}][{col}]: acc {v}"
                );
            }
        }
    }
}

#[test]
fn mixdot_comp() {
    // res.r[i] = fdot2_mix_acc32(a[2i], a[2i+1], res.r[i]): (1.5, 2.0)·(2.0, −0.25) + 0.5 = 3.
    let m = module("mixdot.comp.spv");
    let mut a = vec![0u32; 64];
    a[0] = 0x4000_3e00;
    a[1] = 0xb400_4000;
    let mut res = Resources::new();
    res.set_words(0, 0, &a);
    let mut r = vec![0u32; 32];
    r[0] = 0.5f32.to_bits();
    res.set_words(0, 1, &r);
    m.run(&mut res, [1, 1, 1], &RunConfig::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let out = res.words(0, 1).unwrap_or_default();
    assert_eq!(out[0], 3.0f32.to_bits());
    assert!(out[1..].iter().all(|&w| w == 0));
}
