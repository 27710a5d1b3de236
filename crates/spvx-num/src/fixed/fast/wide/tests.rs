//! The error bounds of the 116-bit step checked directly against MPFR (600 bits): for random
//! arguments over each reduced range (and its ends), |V − f(x)·2^(116−k)| stays within the
//! stated bound. The largest error seen is printed (`--nocapture`) to show the margin.

use super::*;
use rug::Float;
use rug::float::Constant;

const PREC: u32 = 600;

/// The next SplitMix64 output from `state`.
fn rng(state: &mut u64) -> u64 {
    let mut r = crate::test_rng::SplitMix64(*state);
    let x = r.next();
    *state = r.0;
    x
}

/// x = n·2^a exactly.
fn x_of(n: i128, a: i64) -> Float {
    Float::with_val(PREC, n) << (a as i32)
}

/// |V − y·2^(116−k)| in ulps.
fn ulps(v: i128, k: i64, y: &Float) -> f64 {
    let want = Float::with_val(PREC, y << (P as i32 - k as i32));
    let d: Float = Float::with_val(PREC, v) - want;
    d.abs().to_f64()
}

/// Random (n, a) with |n| < 2^64 of random length and a in `a_range`.
fn args(count: usize, a_range: std::ops::RangeInclusive<i64>, seed: u64) -> Vec<(i128, i64)> {
    let mut s = seed;
    let span = (a_range.end() - a_range.start() + 1) as u64;
    (0..count)
        .map(|_| {
            let bits = rng(&mut s);
            let n = (bits as i64 >> (rng(&mut s) % 64)) as i128;
            let a = a_range.start() + (rng(&mut s) % span) as i64;
            (n, a)
        })
        .collect()
}

/// Checks one function over `xs`: `f` gives (V, k), `exact` the true value.
fn check(
    name: &str,
    bound: i128,
    xs: &[(i128, i64)],
    f: impl Fn(i128, i64) -> Option<(i128, i64)>,
    exact: impl Fn(&Float) -> Float,
) {
    let (mut worst, mut decided) = (0f64, 0usize);
    for &(n, a) in xs {
        if let Some((v, k)) = f(n, a) {
            decided += 1;
            let e = ulps(v, k, &exact(&x_of(n, a)));
            assert!(e <= bound as f64, "{name} n={n} a={a}: {e} ulps > {bound}");
            worst = worst.max(e);
        }
    }
    eprintln!("{name}: worst {worst:.2} ulps of {bound} over {decided} arguments");
    assert!(decided * 2 > xs.len(), "{name}: only {decided} evaluated");
}

const COUNT: usize = 20_000;

#[test]
fn exp_log_and_roots_stay_within_their_bounds() {
    let pos = |xs: Vec<(i128, i64)>| -> Vec<(i128, i64)> {
        xs.into_iter().map(|(n, a)| (n.abs().max(1), a)).collect()
    };
    // |x| < 2^9: |n| < 2^64 with a ≤ −55, and tiny arguments.
    let e_args = args(COUNT, -200..=-55, 1);
    check("exp", EXP_ERR, &e_args, exp, |x| x.clone().exp());
    let l_args = pos(args(COUNT, -700..=600, 2));
    let log_k = |n, a| log(n, a).map(|(v, _)| (v, 0));
    check("log", LOG_ERR, &l_args, log_k, |x| x.clone().ln());
    check("rsqrt", RSQRT_ERR, &l_args, rsqrt, |x| {
        x.clone().recip_sqrt()
    });
    check("sqrt", SQRT_ERR, &l_args, sqrt, |x| x.clone().sqrt());
    let r_args = args(COUNT, -700..=600, 3);
    check("recip", RECIP_ERR, &r_args, recip, |x| x.clone().recip());
    // near 1 for log (z near 0) and at the ends of [3/4, 3/2]
    let near_one: Vec<(i128, i64)> = (0..2000i128)
        .flat_map(|d| [((1 << 63) + d, -63), ((1 << 63) - d, -63), (3 << 62, -63)])
        .collect();
    check("log near 1", LOG_ERR, &near_one, log_k, |x| x.clone().ln());
}

#[test]
fn sines_and_cosines_stay_within_their_bounds() {
    let sc = |which: usize| move |n, a| trig(n, a, false, which == 0).map(|v| (v, 0));
    let scp = |which: usize| move |n, a| trig(n, a, true, which == 0).map(|v| (v, 0));
    let r_args = args(COUNT, -200..=-55, 4);
    check("sin", SIN_COS_ERR, &r_args, sc(0), |x| x.clone().sin());
    check("cos", SIN_COS_ERR, &r_args, sc(1), |x| x.clone().cos());
    let pix = |x: &Float| Float::with_val(PREC, Constant::Pi) * x;
    let p_args = args(COUNT, -130..=-2, 5);
    check("sinpi", SIN_COS_ERR, &p_args, scp(0), |x| pix(x).sin());
    check("cospi", SIN_COS_ERR, &p_args, scp(1), |x| pix(x).cos());
    // close to multiples of π/2 (the reduction's cancellation) and of ¼ (θ = ±π/4)
    let pio2 = Float::with_val(PREC, Constant::Pi) / 2u32;
    let near: Vec<(i128, i64)> = (1..300i64)
        .flat_map(|k| {
            let m = Float::with_val(PREC, &pio2 * k) << 55i32;
            let c = m.to_integer().and_then(|i| i.to_i128()).unwrap_or(0);
            [(c, -55), (c + 1, -55), (c - 1, -55)]
        })
        .collect();
    check("sin near kπ/2", SIN_COS_ERR, &near, sc(0), |x| {
        x.clone().sin()
    });
    check("cos near kπ/2", SIN_COS_ERR, &near, sc(1), |x| {
        x.clone().cos()
    });
    let quarter: Vec<(i128, i64)> = (1..400i128)
        .flat_map(|k| [((k << 52) + 1, -54), ((k << 52) - 1, -54)])
        .collect();
    check("sinpi near j/4", SIN_COS_ERR, &quarter, scp(0), |x| {
        pix(x).sin()
    });
    check("cospi near j/4", SIN_COS_ERR, &quarter, scp(1), |x| {
        pix(x).cos()
    });
}
