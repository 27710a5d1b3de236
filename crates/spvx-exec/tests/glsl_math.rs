//! glslang-compiled GLSL.std.450 shaders (tests/corpus/glsl/{math,pack,geom}.comp) against
//! references written here: MPFR (rug) rounded once for the transcendental functions and the
//! exact matrix functions, integer formulas from the GLSL specification for packing, and fp32
//! step-by-step evaluation (Rust's f32 operations, each correctly rounded) where spvx defines
//! a function as a sequence of rounded steps.

mod glsl_corpus;
mod mpfr_ref;

use glsl_corpus::{Rng, f16_round, f16_value, module, words};
use mpfr_ref::{BINARY32, BINARY64, PREC};
use rug::{Float, Rational};
use spvx_exec::{Resources, RunConfig};

fn run(name: &str, res: &mut Resources) {
    let report = module(name)
        .run(res, [1, 1, 1], &RunConfig::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.total_events, 0, "{:?}", report.events);
}

fn bytes_f32(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// MPFR value rounded to fp32.
fn cr32(v: Float) -> f32 {
    mpfr_ref::round(&v, BINARY32) as f32
}

fn same(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

/// math.comp: 24 functions of x and y (fp32), transcendental results correctly rounded.
#[test]
fn math_functions_fp32() {
    let mut rng = Rng(51);
    let mut x: Vec<f32> = (0..64)
        .map(|_| ((rng.next_u32() >> 8) as f32 / (1 << 24) as f32 - 0.5) * 16.0)
        .collect();
    let y: Vec<f32> = (0..64)
        .map(|_| ((rng.next_u32() >> 8) as f32 / (1 << 24) as f32 - 0.5) * 4.0)
        .collect();
    x[..6].copy_from_slice(&[0.0, -0.0, 1.0, -2.5, 0.5, 100.0]);
    let mut inp = bytes_f32(&x);
    inp.extend(bytes_f32(&y));
    let mut res = Resources::new();
    res.set_buffer(0, 0, inp);
    res.set_buffer(0, 1, vec![0; 24 * 64 * 4]);
    run("math.comp", &mut res);
    let out: Vec<f32> = words(res.buffer(0, 1).unwrap_or_default())
        .into_iter()
        .map(f32::from_bits)
        .collect();
    let f = |v: f32| Float::with_val(PREC, v);
    for i in 0..64 {
        let (x, y) = (x[i], y[i]);
        let ax = x.abs();
        let pi = Float::with_val(PREC, rug::float::Constant::Pi);
        let want = [
            cr32(f(x).sin()),
            cr32(f(x).cos()),
            cr32(f(x).tan()),
            cr32(f(x.clamp(-1.0, 1.0)).asin()),
            cr32(f(y.clamp(-1.0, 1.0)).acos()),
            cr32(f(x).atan()),
            cr32(f(y).atan2(&f(x))),
            cr32(f(x).sinh()),
            cr32(f(x).cosh()),
            cr32(f(x).tanh()),
            cr32(f(x).asinh()),
            cr32(f(1.0 + ax).acosh()),
            cr32(f(y.clamp(-0.99, 0.99)).atanh()),
            cr32(f(x).exp()),
            cr32(f(x).exp2()),
            cr32(f(ax).ln()),
            cr32(f(ax).log2()),
            cr32(rug::ops::Pow::pow(f(ax), &f(y))),
            cr32(f(ax).sqrt()),
            if ax == 0.0 {
                f32::INFINITY
            } else {
                cr32(f(ax).recip_sqrt())
            },
            cr32(f(x) * &pi / 180),
            cr32(f(x) * 180 / &pi),
            // fract: x − floor(x), exact for these inputs (below 1).
            x - x.floor(),
            x.round_ties_even(),
        ];
        for (k, w) in want.iter().enumerate() {
            let got = out[k * 64 + i];
            assert!(
                same(got, *w),
                "function {k} of x {x:e}, y {y:e}: got {got:e}, want {w:e}"
            );
        }
    }
}

/// Reference packing: `round(clamp(c, lo, 1) · scale)` with the product rounded to fp32 and
/// ties to even.
fn q(c: f32, lo: f32, scale: f32) -> i64 {
    let v = if c.is_nan() { lo } else { c.max(lo).min(1.0) };
    let p = v * scale;
    let r = p.floor();
    let d = p - r;
    let n = if d > 0.5 || (d == 0.5 && r % 2.0 != 0.0) {
        r + 1.0
    } else {
        r
    };
    n as i64
}

/// pack.comp: packing, unpacking, frexp/ldexp/modf, bit finding.
#[test]
fn packing_and_bits() {
    let mut rng = Rng(61);
    let mut v: Vec<[f32; 4]> = (0..32)
        .map(|_| [0; 4].map(|_| ((rng.next_u32() >> 8) as f32 / (1 << 24) as f32 - 0.5) * 3.0))
        .collect();
    // Ties of the quantisation (0.5/127 etc. are not ties; k + 0.5 after scaling are):
    v[0] = [0.5 / 127.0 * 3.0, 1.5 / 255.0, -1.0, 2.0];
    v[1] = [f32::NAN, -0.0, 1e-40, -3.0e38];
    v[2] = [2.5 / 32767.0, -0.75, 0.5, 1.0 / 65535.0 * 0.5];
    let u: Vec<u32> = (0..32)
        .map(|i| if i == 0 { 0 } else { rng.next_u32() })
        .collect();
    let s: Vec<i32> = (0..32)
        .map(|i| {
            if i == 1 {
                -1
            } else {
                rng.next_u32() as i32 >> (i % 20)
            }
        })
        .collect();
    let mut inp = Vec::new();
    for c in &v {
        inp.extend(bytes_f32(c));
    }
    inp.extend(u.iter().flat_map(|w| w.to_le_bytes()));
    inp.extend(s.iter().flat_map(|w| w.to_le_bytes()));
    let mut res = Resources::new();
    res.set_buffer(0, 0, inp);
    res.set_buffer(0, 1, vec![0; 32 * 24 * 4]);
    run("pack.comp", &mut res);
    let o = words(res.buffer(0, 1).unwrap_or_default());
    let fb = |x: f32| x.to_bits();
    for i in 0..32 {
        let (c, u, s) = (v[i], u[i], s[i]);
        let w = &o[i * 24..i * 24 + 24];
        let p8 = |lo, sc| {
            (0..4).fold(0u32, |a, k| {
                a | ((q(c[k], lo, sc) as u32 & 0xff) << (8 * k))
            })
        };
        let p16 = |a: f32, b: f32, lo, sc| {
            (q(a, lo, sc) as u32 & 0xffff) | (q(b, lo, sc) as u32 & 0xffff) << 16
        };
        let h = |x: f32| f16_round(x as f64) as u32;
        let byte = |k: u32| (u >> (8 * k)) as u8;
        let half = |k: u32| (u >> (16 * k)) as u16;
        let sn8 = |k| (byte(k) as i8 as f32 / 127.0).max(-1.0);
        let un8 = |k| byte(k) as f32 / 255.0;
        // frexp
        let (m, e) = if c[0] == 0.0 || !c[0].is_finite() {
            (c[0], 0)
        } else {
            let e = c[0].abs().log2().floor() as i32 + 1;
            let e = if (c[0].abs() as f64) >= 2f64.powi(e) {
                e + 1
            } else if (c[0].abs() as f64) < 2f64.powi(e - 1) {
                e - 1
            } else {
                e
            };
            ((c[0] as f64 / 2f64.powi(e)) as f32, e)
        };
        let ld = {
            // glslang compiles `%` to OpSMod (the sign of the divisor).
            let r = Float::with_val(PREC, c[1]) << s.rem_euclid(40);
            mpfr_ref::round(&r, BINARY32) as f32
        };
        let whole = c[2].trunc();
        let frac = (c[2] - whole).copysign(c[2]);
        let lsb = if u == 0 { u32::MAX } else { u.trailing_zeros() };
        let smsb = {
            let t = if s < 0 { !s } else { s };
            if t == 0 {
                u32::MAX
            } else {
                31 - t.leading_zeros()
            }
        };
        let umsb = if u == 0 {
            u32::MAX
        } else {
            31 - u.leading_zeros()
        };
        let fsign = if c[3] > 0.0 {
            1.0f32
        } else if c[3] < 0.0 {
            -1.0
        } else {
            c[3]
        };
        let ext = ((u >> 3) & 0x7f).wrapping_add(((s << (32 - 11)) >> (32 - 9)) as u32);
        let want = [
            p8(-1.0, 127.0),
            p8(0.0, 255.0),
            p16(c[0], c[1], -1.0, 32767.0),
            p16(c[2], c[3], 0.0, 65535.0),
            h(c[0]) | h(c[3]) << 16,
            fb(sn8(0) + sn8(3)),
            fb(un8(1) + un8(2)),
            fb((half(0) as i16 as f32 / 32767.0).max(-1.0)),
            fb(half(1) as f32 / 65535.0),
            fb(f16_value(half(0)) as f32),
            fb(f16_value(half(1)) as f32),
            fb(m),
            e as u32,
            fb(ld),
            fb(frac),
            fb(whole),
            lsb,
            smsb,
            umsb,
            s.signum() as u32,
            fb(fsign),
            ext,
            u.reverse_bits() ^ s.count_ones(),
            (u & !(0xfff << 8)) | ((s as u32 & 0xfff) << 8),
        ];
        for k in 0..24 {
            let nan_ok =
                k >= 5 && f32::from_bits(w[k]).is_nan() && f32::from_bits(want[k]).is_nan();
            assert!(
                w[k] == want[k] || nan_ok,
                "invocation {i} word {k}: got {:#x}, want {:#x} (v {c:?}, u {u:#x}, s {s})",
                w[k],
                want[k]
            );
        }
    }
}

/// Exact determinant of an n×n matrix of exact rationals (Leibniz formula).
fn det(m: &[Vec<Rational>]) -> Rational {
    let n = m.len();
    if n == 1 {
        return m[0][0].clone();
    }
    let mut total = Rational::new();
    for c in 0..n {
        let minor: Vec<Vec<Rational>> = m[1..]
            .iter()
            .map(|row| {
                row.iter()
                    .enumerate()
                    .filter(|(j, _)| *j != c)
                    .map(|(_, v)| v.clone())
                    .collect()
            })
            .collect();
        let t: Rational = &m[0][c] * det(&minor);
        if c % 2 == 0 { total += t } else { total -= t }
    }
    total
}

fn rat(x: f64) -> Rational {
    Rational::from_f64(x).unwrap_or_default()
}

fn round_rat(r: &Rational, fmt: mpfr_ref::Ieee) -> f64 {
    mpfr_ref::round(&Float::with_val(PREC, r), fmt)
}

/// Inverse entry [col][row] of the n×n matrix `rows` (rows[r][c]).
fn inverse_entry(rows: &[Vec<Rational>], col: usize, row: usize) -> Rational {
    let minor: Vec<Vec<Rational>> = rows
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != col)
        .map(|(_, r)| {
            r.iter()
                .enumerate()
                .filter(|(j, _)| *j != row)
                .map(|(_, v)| v.clone())
                .collect()
        })
        .collect();
    let c = det(&minor);
    let c = if (row + col).is_multiple_of(2) { c } else { -c };
    c / det(rows)
}

/// geom.comp: cross, length, distance, normalize, reflect, refract, faceforward (fp32 step by
/// step), determinants and inverses (exact, rounded once), fp64 determinant and inverse.
#[test]
fn geometric_and_matrix() {
    let mut rng = Rng(71);
    let mut r = || ((rng.next_u32() >> 8) as f32 / (1 << 24) as f32 - 0.5) * 4.0;
    let a: Vec<[f32; 4]> = (0..16).map(|_| [r(), r(), r(), r()]).collect();
    let mut b: Vec<[f32; 4]> = (0..16).map(|_| [r(), r(), r(), r()]).collect();
    b[3][3] = 3.0; // a large eta: total internal reflection (k < 0)
    let mut inp = Vec::new();
    for v in a.iter().chain(&b) {
        inp.extend(bytes_f32(v));
    }
    let mut res = Resources::new();
    res.set_buffer(0, 0, inp);
    res.set_buffer(0, 1, vec![0; 16 * 32 * 4]);
    res.set_buffer(0, 2, vec![0; 16 * 2 * 8]);
    run("geom.comp", &mut res);
    let o: Vec<f32> = words(res.buffer(0, 1).unwrap_or_default())
        .into_iter()
        .map(f32::from_bits)
        .collect();
    let d = glsl_corpus::words64(res.buffer(0, 2).unwrap_or_default());
    let dot = |p: &[f32], q: &[f32]| {
        p.iter()
            .zip(q)
            .skip(1)
            .fold(p[0] * q[0], |s, (x, y)| s + x * y)
    };
    for i in 0..16 {
        let (a, b) = (a[i], b[i]);
        let w = &o[i * 32..i * 32 + 32];
        let cross = [
            a[1] * b[2] - a[2] * b[1],
            a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0],
        ];
        let nlen = dot(&b[..3], &b[..3]).sqrt();
        let n: Vec<f32> = b[..3].iter().map(|c| c / nlen).collect();
        let dn = dot(&n, &a[..3]);
        let refl: Vec<f32> = (0..3).map(|k| a[k] - (dn + dn) * n[k]).collect();
        let alen = dot(&a[..3], &a[..3]).sqrt();
        let ia: Vec<f32> = a[..3].iter().map(|c| c / alen).collect();
        let eta = b[3];
        let dni = dot(&n, &ia);
        let k = 1.0 - eta * eta * (1.0 - dni * dni);
        let refr: Vec<f32> = if k < 0.0 {
            vec![0.0; 3]
        } else {
            (0..3)
                .map(|c| eta * ia[c] - (eta * dni + k.sqrt()) * n[c])
                .collect()
        };
        let nref = [a[2], a[1], a[0]];
        let ff: Vec<f32> = if dot(&nref, &b[..3]) < 0.0 {
            a[..3].to_vec()
        } else {
            a[..3].iter().map(|c| -c).collect()
        };
        let m2 = vec![
            vec![rat(a[0] as f64), rat(b[0] as f64)],
            vec![rat(a[1] as f64), rat(b[1] as f64)],
        ];
        // m3 columns: a.xyz, b.xyz, a.wzy; rows[r][c].
        let cols3 = [[a[0], a[1], a[2]], [b[0], b[1], b[2]], [a[3], a[2], a[1]]];
        let m3: Vec<Vec<Rational>> = (0..3)
            .map(|r| (0..3).map(|c| rat(cols3[c][r] as f64)).collect())
            .collect();
        let cols4 = [
            a,
            b,
            [a[3], a[2], a[1], a[0]],
            [b[1] + 1.0, b[0] + 1.0, b[3] + 1.0, b[2] + 1.0],
        ];
        let m4: Vec<Vec<Rational>> = (0..4)
            .map(|r| (0..4).map(|c| rat(cols4[c][r] as f64)).collect())
            .collect();
        let r32 = |q: Rational| round_rat(&q, BINARY32) as f32;
        let mix = ((a[2] as f64) * 0.75 + (b[2] as f64) * 0.25) as f32;
        let step = if b[0] < a[0] { 0.0 } else { 1.0 };
        let want: Vec<(usize, f32)> = vec![
            (0, cross[0]),
            (1, cross[1]),
            (2, cross[2]),
            (3, dot(&a, &a).sqrt()),
            (4, {
                let dx = [a[0] - b[0], a[1] - b[1]];
                dot(&dx, &dx).sqrt()
            }),
            (5, n[0]),
            (6, n[1]),
            (7, n[2]),
            (8, refl[0]),
            (9, refl[1]),
            (10, refl[2]),
            (11, refr[0]),
            (12, refr[1]),
            (13, refr[2]),
            (14, ff[0]),
            (15, ff[1]),
            (16, ff[2]),
            (17, r32(det(&m2))),
            (18, r32(det(&m3))),
            (19, r32(det(&m4))),
            (20, r32(inverse_entry(&m2, 0, 0))),
            (21, r32(inverse_entry(&m2, 0, 1))),
            (22, r32(inverse_entry(&m2, 1, 0))),
            (23, r32(inverse_entry(&m2, 1, 1))),
            (24, r32(inverse_entry(&m3, 0, 0))),
            (25, r32(inverse_entry(&m3, 1, 2))),
            (26, r32(inverse_entry(&m3, 2, 1))),
            (27, a[0].min(b[0]) + a[1].max(b[1])),
            (28, mix),
            (30, step + a[1].clamp(-0.5, 0.5)),
            (31, a[0].mul_add(b[0], a[1])),
        ];
        for (k, v) in want {
            assert!(
                same(w[k], v),
                "invocation {i} output {k}: got {:e}, want {v:e}",
                w[k]
            );
        }
        // smoothstep(−1, 2, a.w) is t²(3 − 2t) evaluated in f64 and rounded once: within one
        // fp32 ulp of the exact value.
        let t = (((a[3] as f64) + 1.0) / 3.0).clamp(0.0, 1.0);
        let exact = t * t * (3.0 - 2.0 * t);
        assert!(
            ((w[29] as f64) - exact).abs() <= (exact as f32).abs() as f64 * 1.2e-7 + 1e-45,
            "smoothstep"
        );
        // fp64: determinant and inverse[1][0] of dmat3(m3).
        assert_eq!(
            f64::from_bits(d[2 * i]),
            round_rat(&det(&m3), BINARY64),
            "dmat3 determinant"
        );
        assert_eq!(
            f64::from_bits(d[2 * i + 1]),
            round_rat(&inverse_entry(&m3, 1, 0), BINARY64),
            "dmat3 inverse"
        );
    }
}
