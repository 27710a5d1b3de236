//! OpenCL.std remquo, lgamma_r and nan in the clang-15 + llvm-spirv-15 kernels of
//! `tests/corpus/opencl/remquo.cl` (-O2 and -O0), in float, double and half, against
//! independent answers: the remainder from MPFR (`mpfr_remainder`, exact), the quotient's low
//! seven bits from the exact rational x/y rounded to the nearest integer (ties to even) with
//! rug, lgamma from MPFR at 256 bits rounded once and the sign of Γ from MPFR
//! (`mpfr_lgamma`); where MPFR leaves the sign undefined (NaN, −∞, the negative integers) and
//! for nan(code), the values written in docs/semantics/arithmetic.md, by hand.

mod float_bits;
mod glsl_corpus;
mod mpfr_ref;
mod opencl_support;

use float_bits::{assert_all, from_f64, ieee, to_f64};
use glsl_corpus::Rng;
use mpfr_ref::PREC;
use opencl_support::{i32s, kernel, out, run};
use rug::{Float, Integer, Rational};
use spvx_exec::CompiledModule;
use spvx_exec::program::FloatFmt;
use spvx_exec::resources::KernelArg;
use std::cmp::Ordering;

fn bytes_of(fmt: FloatFmt) -> usize {
    match fmt {
        FloatFmt::F16 => 2,
        FloatFmt::F32 => 4,
        _ => 8,
    }
}

fn pack(v: &[u64], n: usize) -> Vec<u8> {
    v.iter()
        .flat_map(|x| x.to_le_bytes()[..n].to_vec())
        .collect()
}

fn unpack(b: &[u8], n: usize) -> Vec<u64> {
    b.chunks_exact(n)
        .map(|c| {
            c.iter()
                .enumerate()
                .fold(0u64, |a, (i, &x)| a | (x as u64) << (8 * i))
        })
        .collect()
}

/// Runs kernel `fns_*` on (x, y, code) bit patterns: per input three results (remquo,
/// lgamma_r, nan) and two ints (quotient, sign).
fn run_fns(
    m: &CompiledModule,
    fmt: FloatFmt,
    xs: &[u64],
    ys: &[u64],
    codes: &[u64],
) -> (Vec<u64>, Vec<i32>) {
    let n = xs.len();
    assert!(n.is_multiple_of(64));
    let w = bytes_of(fmt);
    let (res, _) = run(
        m,
        [(n / 64) as u32, 1, 1],
        Some([64, 1, 1]),
        vec![
            KernelArg::Buffer(pack(xs, w)),
            KernelArg::Buffer(pack(ys, w)),
            KernelArg::Buffer(pack(codes, w)),
            KernelArg::Buffer(vec![0; 3 * w * n]),
            KernelArg::Buffer(vec![0; 8 * n]),
        ],
    );
    (unpack(out(&res, 3), w), i32s(out(&res, 4)))
}

/// The IEEE remainder from MPFR (exact: it fits the format), as bits of `fmt`.
fn want_remainder(fmt: FloatFmt, x: f64, y: f64) -> u64 {
    let r = Float::with_val(64, x).remainder(&Float::with_val(64, y));
    from_f64(fmt, mpfr_ref::round(&r, ieee(fmt)))
}

/// remquo's quotient: n = x/y rounded to the nearest integer, ties to even (exact rational
/// arithmetic), `|n| mod 128` with the sign of x/y; 0 where the remainder is NaN, x = ±0 or
/// y = ±∞ (the documented choice).
fn want_quotient(x: f64, y: f64) -> i32 {
    if !x.is_finite() || y.is_nan() || y == 0.0 || y.is_infinite() || x == 0.0 {
        return 0;
    }
    let (Some(a), Some(b)) = (Rational::from_f64(x), Rational::from_f64(y)) else {
        unreachable!("finite values");
    };
    let q = (a / b).abs();
    let fl = q.clone().floor();
    let frac = q - &fl;
    let mut n = fl.numer().clone();
    match frac.cmp(&Rational::from((1, 2))) {
        Ordering::Greater => n += 1,
        Ordering::Equal if n.is_odd() => n += 1,
        _ => {}
    }
    let low = (n % Integer::from(128)).to_i32().unwrap_or(-1);
    if (x < 0.0) != (y < 0.0) { -low } else { low }
}

/// lgamma from MPFR rounded once to `fmt`, and the sign of Γ: MPFR's, except where MPFR
/// leaves it undefined (NaN, −∞, negative integers), where the documented value is +1.
fn want_lgamma(fmt: FloatFmt, x: f64) -> (u64, i32) {
    if x.is_nan() {
        return (from_f64(fmt, f64::NAN), 1);
    }
    let (v, sign) = Float::with_val(PREC, x).ln_abs_gamma();
    let value = from_f64(fmt, mpfr_ref::round(&v, ieee(fmt)));
    let undefined = x == f64::NEG_INFINITY || (x < 0.0 && x.fract() == 0.0);
    let s = if undefined || sign != Ordering::Less {
        1
    } else {
        -1
    };
    (value, s)
}

/// nan(code): exponent all ones, the quiet bit, the code's low 9/22/51 bits, sign 0.
fn want_nan(fmt: FloatFmt, code: u64) -> u64 {
    match fmt {
        FloatFmt::F16 => 0x7e00 | (code & 0x1ff),
        FloatFmt::F32 => 0x7fc0_0000 | (code & 0x3f_ffff),
        _ => 0x7ff8_0000_0000_0000 | (code & ((1 << 51) - 1)),
    }
}

fn same(fmt: FloatFmt, got: u64, want: u64) -> bool {
    got == want || (to_f64(fmt, got).is_nan() && to_f64(fmt, want).is_nan())
}

/// Checks every result of a `fns_*` run.
fn check(fmt: FloatFmt, xs: &[u64], ys: &[u64], codes: &[u64], got: (Vec<u64>, Vec<i32>)) {
    let (f, i) = got;
    let mut failures = Vec::new();
    for k in 0..xs.len() {
        let (x, y) = (to_f64(fmt, xs[k]), to_f64(fmt, ys[k]));
        let r = want_remainder(fmt, x, y);
        if !same(fmt, f[3 * k], r) {
            failures.push(format!(
                "remquo({x:e}, {y:e}) = {:#x}, want {r:#x}",
                f[3 * k]
            ));
        }
        let q = want_quotient(x, y);
        if i[2 * k] != q {
            failures.push(format!("quo({x:e}, {y:e}) = {}, want {q}", i[2 * k]));
        }
        let (lg, s) = want_lgamma(fmt, x);
        if !same(fmt, f[3 * k + 1], lg) || i[2 * k + 1] != s {
            failures.push(format!(
                "lgamma_r({x:e}) = ({:#x}, {}), want ({lg:#x}, {s})",
                f[3 * k + 1],
                i[2 * k + 1]
            ));
        }
        // nan's result is stored as it is: its bits, payload included.
        let nan = want_nan(fmt, codes[k]);
        if f[3 * k + 2] != nan {
            failures.push(format!(
                "nan({:#x}) = {:#x}, want {nan:#x}",
                codes[k],
                f[3 * k + 2]
            ));
        }
    }
    assert_all(failures);
}

/// Inputs for `fmt` (precision `p` bits): special pairs, exact ties of x/y, huge and tiny
/// ratios, and random bit patterns; padded to a multiple of 64.
fn inputs(fmt: FloatFmt, seed: u64, random: usize) -> (Vec<u64>, Vec<u64>, Vec<u64>) {
    let bits = |v: f64| from_f64(fmt, v);
    let (p, width) = match fmt {
        FloatFmt::F16 => (11, 16),
        FloatFmt::F32 => (24, 32),
        _ => (53, 64),
    };
    let inf = f64::INFINITY;
    let max = match fmt {
        FloatFmt::F16 => 65504.0,
        FloatFmt::F32 => f32::MAX as f64,
        _ => f64::MAX,
    };
    let tiny = to_f64(fmt, 1); // the smallest subnormal
    let pairs: Vec<(f64, f64)> = vec![
        (0.0, 1.0),
        (-0.0, 1.0),
        (5.0, 0.0),
        (5.0, -0.0),
        (inf, 2.0),
        (-inf, 2.0),
        (3.0, inf),
        (-3.0, -inf),
        (f64::NAN, 1.0),
        (1.0, f64::NAN),
        (2.5, 1.0),  // n = 2 (tie, even), r = 0.5
        (3.5, 1.0),  // n = 4 (tie, even), r = −0.5
        (-3.5, 1.0), // n = −4
        (3.5, -1.0),
        (-7.0, -2.0), // n = 4 (tie)
        (5.0, 5.0),
        (-5.0, 5.0),
        (1.0, 3.0),
        (1.5, 3.0), // 1/2: tie to 0
        (1.6, 3.0),
        (130.0, 1.0), // n = 130: low bits 2
        (-383.0, 1.0),
        (200.25, 0.5),
        (max, tiny), // the largest exponent difference
        (max, 3.0),
        (tiny, max),
        (tiny * 3.0, tiny * 2.0),
        (1.0, -0.75),
        // lgamma_r inputs (x; y unused there): poles, negative non-integers, ±∞ again.
        (-1.0, 1.0),
        (-2.0, 1.0),
        (-0.5, 1.0),
        (-1.5, 1.0),
        (-2.5, 1.0),
        (-3.25, 1.0),
        (1.0, 1.0),
        (2.0, 1.0),
        (0.25, 1.0),
        (10.0, 1.0),
    ];
    let mut xs: Vec<u64> = pairs.iter().map(|&(x, _)| bits(x)).collect();
    let mut ys: Vec<u64> = pairs.iter().map(|&(_, y)| bits(y)).collect();
    let mut rng = Rng(seed);
    let mask = if width == 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    let short = (p - 4).min(8); // significant bits of y in the tie cases
    for k in 0..random {
        let r = rng.next();
        let (x, y) = match k % 4 {
            // Any bit patterns (NaNs, infinities, subnormals, huge ratios).
            0 => (r & mask, rng.next() & mask),
            // x/y = an odd multiple of 1/2: a tie, n to even.
            1 => {
                let m = (r & ((1 << short) - 1)) | 1;
                let odd = ((r >> 20) & ((1 << (p - short - 1)) - 1)) | 1;
                let e = ((r >> 40) % 20) as i32 - 10;
                let y = m as f64 * 2f64.powi(e);
                let x = odd as f64 * m as f64 * 2f64.powi(e - 1);
                let s = if r >> 63 == 1 { -1.0 } else { 1.0 };
                (bits(s * x), bits(y))
            }
            // Moderate values: quotients with several bits.
            _ => {
                let x = (r >> 11) as f64 / (1u64 << 53) as f64 * 3000.0 - 1500.0;
                let y = (rng.next() >> 11) as f64 / (1u64 << 53) as f64 * 20.0 - 10.0;
                (bits(x), bits(y))
            }
        };
        xs.push(x);
        ys.push(y);
    }
    while !xs.len().is_multiple_of(64) {
        xs.push(bits(1.25));
        ys.push(bits(0.5));
    }
    let codes = (0..xs.len() as u64)
        .map(|k| {
            let c = [
                0,
                1,
                0x1ff,
                0x200,
                u64::MAX,
                0x3f_ffff,
                0x40_0000,
                0x55_5555,
            ][k as usize % 8];
            (c ^ k.wrapping_mul(0x9e37_79b9)) & mask
        })
        .collect();
    (xs, ys, codes)
}

#[test]
fn remquo_lgamma_r_nan_float() {
    for file in ["remquo.spv", "remquo.O0.spv"] {
        let m = kernel(file, "fns_float");
        let (xs, ys, codes) = inputs(FloatFmt::F32, 11, 2000);
        let got = run_fns(&m, FloatFmt::F32, &xs, &ys, &codes);
        check(FloatFmt::F32, &xs, &ys, &codes, got);
    }
}

#[test]
fn remquo_lgamma_r_nan_double() {
    for file in ["remquo.spv", "remquo.O0.spv"] {
        let m = kernel(file, "fns_double");
        let (xs, ys, codes) = inputs(FloatFmt::F64, 12, 2000);
        let got = run_fns(&m, FloatFmt::F64, &xs, &ys, &codes);
        check(FloatFmt::F64, &xs, &ys, &codes, got);
    }
}

#[test]
fn remquo_lgamma_r_nan_half() {
    for file in ["remquo.spv", "remquo.O0.spv"] {
        let m = kernel(file, "fns_half");
        let (xs, ys, codes) = inputs(FloatFmt::F16, 13, 3000);
        let got = run_fns(&m, FloatFmt::F16, &xs, &ys, &codes);
        check(FloatFmt::F16, &xs, &ys, &codes, got);
    }
}

/// Every half value as x of lgamma_r (and of remquo by a fixed divisor, 0.375).
#[test]
fn lgamma_r_every_half() {
    let m = kernel("remquo.spv", "fns_half");
    let xs: Vec<u64> = (0..1u64 << 16).collect();
    let ys = vec![0x3600; xs.len()];
    let codes: Vec<u64> = xs.iter().map(|x| x ^ 0xa5a5).collect();
    let got = run_fns(&m, FloatFmt::F16, &xs, &ys, &codes);
    check(FloatFmt::F16, &xs, &ys, &codes, got);
}

/// The vector form: remquo on float4 with an int4 pointer.
#[test]
fn remquo_float4() {
    for file in ["remquo.spv", "remquo.O0.spv"] {
        let m = kernel(file, "remquo_float4");
        let (xs, ys, _) = inputs(FloatFmt::F32, 14, 400);
        let n = xs.len() / 4;
        let (res, _) = run(
            &m,
            [n as u32, 1, 1],
            Some([1, 1, 1]),
            vec![
                KernelArg::Buffer(pack(&xs, 4)),
                KernelArg::Buffer(pack(&ys, 4)),
                KernelArg::Buffer(vec![0; 16 * n]),
                KernelArg::Buffer(vec![0; 16 * n]),
            ],
        );
        let r = unpack(out(&res, 2), 4);
        let q = i32s(out(&res, 3));
        let mut failures = Vec::new();
        for k in 0..4 * n {
            let (x, y) = (to_f64(FloatFmt::F32, xs[k]), to_f64(FloatFmt::F32, ys[k]));
            let want = want_remainder(FloatFmt::F32, x, y);
            let wq = want_quotient(x, y);
            if !same(FloatFmt::F32, r[k], want) || q[k] != wq {
                failures.push(format!(
                    "remquo({x:e}, {y:e}) = ({:#x}, {}), want ({want:#x}, {wq})",
                    r[k], q[k]
                ));
            }
        }
        assert_all(failures);
    }
}
