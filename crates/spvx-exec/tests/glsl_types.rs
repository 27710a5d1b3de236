//! glslang-compiled shaders (tests/corpus/glsl) for memory layouts (std140, std430,
//! row-major), 8/16/64-bit types and the integer dot products, run on inputs chosen here;
//! expected outputs are computed in Rust from the GLSL source's meaning.

mod glsl_corpus;

use glsl_corpus::{Rng, f16_round, f16_value, module, words, words64};
use spvx_exec::{Resources, RunConfig};

fn run(name: &str, res: &mut Resources, groups: [u32; 3]) {
    let m = module(name);
    let report = m
        .run(res, groups, &RunConfig::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.total_events, 0, "{:?}", report.events);
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

/// layouts.comp with integer-valued data (every float result exact). Offsets written from the
/// std140/std430 rules (GLSL 4.60 §7.6.2.2), not read from the module.
#[test]
fn std140_std430_row_major() {
    let mut u = vec![0u8; 208];
    let mut s = vec![0u8; 172];
    // U: scale 0, shift 8, arr 16 + 16k, m col c at 64 + 16c, rm (row_major mat2x3, stride
    // 16) element (c, r) at 112 + 16r + 4c, item.p 160, item.w 172, item.tags 176 + 16k.
    put(&mut u, 0, 3.0);
    put(&mut u, 8, 5.0);
    put(&mut u, 12, -2.0);
    for k in 0..3 {
        put(&mut u, 16 + 16 * k, (k * k + 1) as f32);
    }
    let m = |c: usize, r: usize| (c * 3 + r) as f32 - 4.0;
    let rm = |c: usize, r: usize| (2 * r + c) as f32 + 1.0;
    for c in 0..3 {
        for r in 0..3 {
            put(&mut u, 64 + 16 * c + 4 * r, m(c, r));
        }
    }
    for c in 0..2 {
        for r in 0..3 {
            put(&mut u, 112 + 16 * r + 4 * c, rm(c, r));
        }
    }
    put(&mut u, 168, 9.0);
    put(&mut u, 172, 0.5);
    u[192..196].copy_from_slice(&(-6i32).to_le_bytes());
    // S: m3 col c at 16c, r2 (row_major mat2, stride 8) element (c, r) at 48 + 8r + 4c,
    // items[k] at 64 + 32k (p, w at 12, tags at 16 + 4j), outv 128, outs 140.
    let m3 = |c: usize, r: usize| (r * 2) as f32 - c as f32;
    let r2 = |c: usize, r: usize| [[2.0f32, -1.0], [3.0, 4.0]][c][r];
    for c in 0..3 {
        for r in 0..3 {
            put(&mut s, 16 * c + 4 * r, m3(c, r));
        }
    }
    for c in 0..2 {
        for r in 0..2 {
            put(&mut s, 48 + 8 * r + 4 * c, r2(c, r));
        }
    }
    put(&mut s, 64 + 12, 2.0); // items[0].w
    s[64 + 20..64 + 24].copy_from_slice(&7i32.to_le_bytes()); // items[0].tags[1]
    put(&mut s, 96 + 4, -3.0); // items[1].p.y
    s[96 + 16..96 + 20].copy_from_slice(&100i32.to_le_bytes()); // items[1].tags[0]
    let mut res = Resources::new();
    res.set_buffer(0, 0, u);
    res.set_buffer(0, 1, s);
    run("layouts.comp", &mut res, [1, 1, 1]);
    let s = res.buffer(0, 1).unwrap_or_default();
    let v = [1.0f32, 2.0, 4.0];
    for r in 0..3 {
        let want: f32 = (0..3).map(|c| (m(c, r) + m3(c, r)) * v[c]).sum();
        assert_eq!(get(s, 128 + 4 * r), want, "outv[{r}]");
    }
    let w = [0.5f32, -1.0];
    let t: Vec<f32> = (0..3).map(|r| rm(0, r) * w[0] + rm(1, r) * w[1]).collect();
    let q: Vec<f32> = (0..2).map(|r| r2(0, r) * w[0] + r2(1, r) * w[1]).collect();
    let mm = |c: usize, r: usize| -> f32 { (0..2).map(|k| r2(r, k) * r2(c, k)).sum() };
    let outs = [
        3.0 * (1.0 + 2.0 + 5.0),
        t[0] + t[1] + t[2],
        q[0] * 10.0 + q[1],
        9.0 + 0.5 - 6.0,
        -3.0 * 2.0 + (100 - 7) as f32,
        -2.0 - 5.0,
        mm(0, 1) + 100.0 * mm(1, 1),
    ];
    for (k, want) in outs.iter().enumerate() {
        assert_eq!(get(s, 140 + 4 * k), *want, "outs[{k}]");
    }
    assert_eq!(
        i32::from_le_bytes([s[80], s[81], s[82], s[83]]),
        m(2, 1) as i32
    );
    // s.r2 = mat2(r[0], vec2(77, r[1][1])): element (1, 0) at 48 + 4.
    for (c, r, want) in [(0, 0, 2.0), (0, 1, -1.0), (1, 0, 77.0), (1, 1, 4.0)] {
        assert_eq!(get(s, 48 + 8 * r + 4 * c), want, "r2[{c}][{r}]");
    }
}

/// smalltypes.comp: int8/uint8/int16/float16 storage and arithmetic.
#[test]
fn int8_int16_float16() {
    let mut rng = Rng(5);
    let a: Vec<i8> = (0..64).map(|_| rng.next_u32() as i8).collect();
    let b: Vec<u8> = (0..64).map(|_| rng.next_u32() as u8).collect();
    let c: Vec<i16> = (0..64).map(|_| rng.next_u32() as i16).collect();
    // Finite halves of moderate size (exponent field 5..=22).
    let h: Vec<u16> = (0..64)
        .map(|_| {
            let r = rng.next_u32();
            ((r & 0x8000) as u16) | ((5 + r % 18) as u16) << 10 | (r >> 16) as u16 & 0x3ff
        })
        .collect();
    let mut inp = Vec::new();
    inp.extend(a.iter().map(|&v| v as u8));
    inp.extend(&b);
    inp.extend(c.iter().flat_map(|v| v.to_le_bytes()));
    inp.extend(h.iter().flat_map(|v| v.to_le_bytes()));
    let mut res = Resources::new();
    res.set_buffer(0, 0, inp);
    res.set_buffer(0, 1, vec![0; 64 * (1 + 1 + 2 + 2 + 2 + 4)]);
    run("smalltypes.comp", &mut res, [1, 1, 1]);
    let o = res.buffer(0, 1).unwrap_or_default();
    let h16 = |base: usize, i: usize| u16::from_le_bytes([o[base + 2 * i], o[base + 2 * i + 1]]);
    for i in 0..64 {
        assert_eq!(o[i] as i8, a[i].wrapping_add(b[i] as i8), "s8[{i}]");
        assert_eq!(o[64 + i], b[i].wrapping_mul(a[i] as u8), "m8[{i}]");
        assert_eq!(
            h16(128, i) as i16,
            (a[i] as i16).wrapping_mul(c[i]),
            "p16[{i}]"
        );
        assert_eq!(
            h16(256, i),
            ((c[i] as u16) >> 3) ^ ((b[i] as u16) << 9),
            "sh16[{i}]"
        );
        let hv = f16_value(h[i]);
        let prod = f16_value(f16_round(hv * a[i] as f64));
        let want = f16_round(prod + f16_value(f16_round(c[i] as f64)));
        assert_eq!(h16(384, i), want, "f[{i}]: h {hv}, a {}, c {}", a[i], c[i]);
        let s = a[i] as i32 + b[i] as i32 + c[i] as i32 + hv.trunc() as i32;
        let got = i32::from_le_bytes([
            o[512 + 4 * i],
            o[513 + 4 * i],
            o[514 + 4 * i],
            o[515 + 4 * i],
        ]);
        assert_eq!(got, s, "i32[{i}]");
    }
}

/// wide64.comp: int64 and fp64 (IEEE 754 binary64 operations of the host as the reference:
/// +, ×, ÷, sqrt and fma are correctly rounded there).
#[test]
fn int64_fp64() {
    let mut rng = Rng(9);
    let x: Vec<i64> = (0..32)
        .map(|_| rng.next() as i64 >> (rng.next() % 40))
        .collect();
    let d: Vec<f64> = (0..32)
        .map(|_| (rng.next() as i64 >> 11) as f64 * 2f64.powi(-((rng.next() % 60) as i32)))
        .collect();
    let mut inp = Vec::new();
    inp.extend(x.iter().flat_map(|v| v.to_le_bytes()));
    inp.extend(d.iter().flat_map(|v| v.to_le_bytes()));
    let mut res = Resources::new();
    res.set_buffer(0, 0, inp);
    res.set_buffer(0, 1, vec![0; 6 * 256]);
    run("wide64.comp", &mut res, [1, 1, 1]);
    let o = words64(res.buffer(0, 1).unwrap_or_default());
    for i in 0..32 {
        let (x, d) = (x[i], d[i]);
        assert_eq!(
            o[i],
            (x as u64)
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .wrapping_add(i as u64)
        );
        // glslang compiles `%` to OpSMod (the sign of the divisor): rem_euclid for 1000.
        let want = x / (i as i64 + 1) + x.rem_euclid(1000);
        assert_eq!(o[32 + i] as i64, want, "div[{i}]");
        assert_eq!(o[64 + i] as i64, (x >> 7) ^ (x << 13), "shr[{i}]");
        let f = d.mul_add(d, -1.0) + x as f64;
        assert_eq!(o[96 + i], f.to_bits(), "f[{i}]");
        assert_eq!(o[128 + i], (d / 3.0 + d.abs().sqrt()).to_bits(), "q[{i}]");
        let int_d = d.trunc().clamp(i32::MIN as f64, i32::MAX as f64);
        assert_eq!(
            o[160 + i],
            ((d * 8.0).floor() / 8.0 + int_d).to_bits(),
            "r[{i}]"
        );
    }
}

/// dot.comp: OpUDot packed, OpSUDot on 8-bit vectors, OpSDotAccSat packed, OpUDotAccSat on
/// 16-bit vectors, against exact integer sums.
#[test]
fn integer_dot_products() {
    let mut rng = Rng(13);
    let mut x: Vec<u32> = (0..96).map(|_| rng.next_u32()).collect();
    // Accumulators near the int32 limits for some invocations (saturation).
    x[2] = 0x7fff_fff0;
    x[5] = 0x8000_0010;
    x[8] = 0xffff;
    let mut res = Resources::new();
    res.set_words(0, 0, &x);
    res.set_words(0, 1, &[0; 128]);
    run("dot.comp", &mut res, [1, 1, 1]);
    let o = res.words(0, 1).unwrap_or_default();
    let ub = |w: u32| [0, 1, 2, 3].map(|k| i64::from((w >> (8 * k)) as u8));
    let sb = |w: u32| [0, 1, 2, 3].map(|k| i64::from((w >> (8 * k)) as u8 as i8));
    let dot = |p: [i64; 4], q: [i64; 4]| -> i64 { (0..4).map(|k| p[k] * q[k]).sum() };
    for i in 0..32 {
        let (a, b, acc) = (x[3 * i], x[3 * i + 1], x[3 * i + 2]);
        assert_eq!(o[4 * i] as i64, dot(ub(a), ub(b)), "udot[{i}]");
        assert_eq!(o[4 * i + 1] as i32 as i64, dot(sb(a), ub(b)), "sudot[{i}]");
        let s = (dot(sb(a), sb(b)) + acc as i32 as i64).clamp(i32::MIN as i64, i32::MAX as i64);
        assert_eq!(o[4 * i + 2] as i32 as i64, s, "sdot_acc_sat[{i}]");
        let (a0, a1) = (i64::from(a & 0xff), i64::from((a >> 16) & 0xff));
        let (b0, b1) = (i64::from(b & 0x3f), i64::from((b >> 16) & 0x3f));
        let u = (a0 * b0 + a1 * b1 + i64::from(acc as u16)).min(0xffff);
        assert_eq!(o[4 * i + 3] as i64, u, "udot_acc_sat16[{i}]");
    }
    let _ = words(&[]);
}
