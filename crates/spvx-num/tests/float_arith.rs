//! Correctly rounded multiply, add, fma and fused sums ([`ExactSum`]) against independent
//! answers: the hardware f32/f64 operations (IEEE 754, round-to-nearest-even; `mul_add` is a
//! fused multiply-add) and, for sums of several products, exact rationals (num-rational) with a
//! check that the result is the nearest f32 with ties to even.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use proptest::prelude::*;
use spvx_num::float::{ExactSum, Format, RoundingMode, Term};

const RNE: RoundingMode = RoundingMode::NearestEven;

fn d32(x: f32) -> spvx_num::float::Decoded {
    Format::F32.decode(x.to_bits() as u64)
}
fn d64(x: f64) -> spvx_num::float::Decoded {
    Format::F64.decode(x.to_bits())
}

fn same32(got: u64, want: f32) -> bool {
    if want.is_nan() {
        Format::F32.is_nan(got)
    } else {
        got == want.to_bits() as u64
    }
}
fn same64(got: u64, want: f64) -> bool {
    if want.is_nan() {
        Format::F64.is_nan(got)
    } else {
        got == want.to_bits()
    }
}

fn rational(x: f32) -> BigRational {
    BigRational::from_float(x).expect("finite")
}

/// Whether `r` is the f32 nearest to `exact` with ties to even (both neighbours checked).
fn is_rne_f32(exact: &BigRational, r: f32) -> bool {
    if !r.is_finite() {
        // Overflow: exact must be at least the midpoint between MAX and 2^128.
        let max = rational(f32::MAX);
        let limit =
            &max + (BigRational::from_integer(BigInt::from(2).pow(128)) - &max) / BigInt::from(2);
        return if r > 0.0 {
            exact >= &limit
        } else {
            exact <= &-limit
        };
    }
    let rv = rational(r);
    let err = (exact - &rv).abs();
    for nb in [
        f32::from_bits(r.to_bits().wrapping_add(1)),
        f32::from_bits(r.to_bits().wrapping_sub(1)),
    ] {
        if !nb.is_finite() {
            continue;
        }
        let e2 = (exact - rational(nb)).abs();
        if e2 < err || (e2 == err && r.to_bits() & 1 == 1) {
            return false;
        }
    }
    true
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn f32_mul_add_fma_match_hardware(a in any::<u32>(), b in any::<u32>(), c in any::<u32>()) {
        let (a, b, c) = (f32::from_bits(a), f32::from_bits(b), f32::from_bits(c));
        prop_assert!(same32(Format::F32.mul(d32(a), d32(b), RNE), a * b));
        prop_assert!(same32(Format::F32.add(d32(a), d32(b), RNE), a + b));
        prop_assert!(same32(Format::F32.fma(d32(a), d32(b), d32(c), RNE), a.mul_add(b, c)));
    }

    #[test]
    fn f64_mul_add_fma_match_hardware(a in any::<u64>(), b in any::<u64>(), c in any::<u64>()) {
        let (a, b, c) = (f64::from_bits(a), f64::from_bits(b), f64::from_bits(c));
        prop_assert!(same64(Format::F64.mul(d64(a), d64(b), RNE), a * b));
        prop_assert!(same64(Format::F64.add(d64(a), d64(b), RNE), a + b));
        prop_assert!(same64(Format::F64.fma(d64(a), d64(b), d64(c), RNE), a.mul_add(b, c)));
    }

    #[test]
    fn f64_fma_with_far_apart_addend(a in any::<u64>(), b in any::<u64>(), c in any::<u64>(),
                                     shift in 0u32..1500, sign in any::<bool>()) {
        // The addend lies far below (or far above) the product, or cancels its rounded value:
        // exercises folding of far-below terms into a sticky bit.
        let (a, b) = (f64::from_bits(a >> 2 | 0x3000_0000_0000_0000), f64::from_bits(b >> 2 | 0x3000_0000_0000_0000));
        let tiny = f64::from_bits(c) .abs() * 2f64.powi(-(shift as i32));
        let tiny = if sign { -tiny } else { tiny };
        for c in [tiny, -(a * b), -(a * b) + tiny, a * b * 2f64.powi(shift as i32 % 200)] {
            if c.is_finite() {
                prop_assert!(same64(Format::F64.fma(d64(a), d64(b), d64(c), RNE), a.mul_add(b, c)),
                    "fma({a:e}, {b:e}, {c:e})");
                prop_assert!(same64(Format::F64.add(d64(a * b), d64(c), RNE), a * b + c));
            }
        }
    }

    #[test]
    fn f32_fma_ties_with_tiny_addend(ma in 0u32..2048, mb in 0u32..1024, ea in 100u32..150,
                                     eb in 100u32..150, c in 1u32..0x0100_0000, neg_c in any::<bool>()) {
        // Odd 13- and 12-bit significands: products have 24 or 25 bits, and those with 25 sit
        // exactly on an f32 rounding tie; a far-below addend (subnormal) breaks the tie.
        let a = f32::from_bits(ea << 23 | ma << 12 | 1 << 11);
        let b = f32::from_bits(eb << 23 | mb << 13 | 1 << 12);
        let c = f32::from_bits(c) * if neg_c { -1.0 } else { 1.0 };
        prop_assert!(same32(Format::F32.fma(d32(a), d32(b), d32(c), RNE), a.mul_add(b, c)),
            "fma({a:e}, {b:e}, {c:e})");
        prop_assert!(same32(Format::F32.fma(d32(-a), d32(b), d32(c), RNE), (-a).mul_add(b, c)));
    }

    #[test]
    fn f32_values_near_each_other_add(a in any::<u32>(), delta in -4i32..4) {
        // Cancellation: a + (−neighbour of a).
        let x = f32::from_bits(a);
        let y = -f32::from_bits((a as i64 + delta as i64).clamp(0, u32::MAX as i64) as u32);
        prop_assert!(same32(Format::F32.add(d32(x), d32(y), RNE), x + y));
    }

    #[test]
    fn fused_dot4_f32_is_nearest(v in proptest::collection::vec(-1.0e18f32..1.0e18f32, 9),
                                 scale in proptest::collection::vec(-40i32..40, 9)) {
        let xs: Vec<f32> = v.iter().zip(&scale).map(|(x, s)| x * 2f32.powi(*s)).collect();
        let mut terms = Vec::new();
        let mut exact = BigRational::zero();
        for i in 0..4 {
            terms.push(Term::Product(d32(xs[2 * i]), d32(xs[2 * i + 1])));
            exact += rational(xs[2 * i]) * rational(xs[2 * i + 1]);
        }
        terms.push(Term::Value(d32(xs[8])));
        exact += rational(xs[8]);
        let got = f32::from_bits(ExactSum::of(&terms).round(Format::F32, RNE, false) as u32);
        prop_assert!(is_rne_f32(&exact, got), "exact {} got {}", exact, got);
    }
}

#[test]
fn signed_zero_rules_of_exact_sums() {
    let pz = d32(0.0);
    let nz = d32(-0.0);
    let one = d32(1.0);
    let m1 = d32(-1.0);
    let round = |terms: &[Term], mode| ExactSum::of(terms).round(Format::F32, mode, false);
    // Every term −0: −0 in every mode.
    for mode in RoundingMode::ALL {
        assert_eq!(
            round(&[Term::Value(nz), Term::Product(pz, m1)], mode),
            0x8000_0000
        );
        assert_eq!(round(&[Term::Value(pz), Term::Product(pz, one)], mode), 0);
    }
    // Mixed zeros or cancellation: +0, but −0 toward negative.
    let cases: [&[Term]; 2] = [
        &[Term::Value(nz), Term::Value(pz)],
        &[Term::Product(one, one), Term::Value(m1)],
    ];
    for terms in cases {
        assert_eq!(round(terms, RoundingMode::NearestEven), 0);
        assert_eq!(round(terms, RoundingMode::TowardZero), 0);
        assert_eq!(round(terms, RoundingMode::TowardPositive), 0);
        assert_eq!(round(terms, RoundingMode::TowardNegative), 0x8000_0000);
    }
    // A tiny negative nonzero sum that rounds to zero keeps its sign.
    let tiny = d32(-f32::from_bits(1));
    assert_eq!(
        ExactSum::of(&[Term::Product(tiny, d32(0.25))]).round(Format::F32, RNE, false),
        0x8000_0000
    );
}

#[test]
fn special_values_of_exact_sums() {
    let inf = d32(f32::INFINITY);
    let ninf = d32(f32::NEG_INFINITY);
    let zero = d32(0.0);
    let one = d32(1.0);
    let nan = Format::F32.decode(0xffc0_1234);
    let r = |t: &[Term]| ExactSum::of(t).round(Format::F32, RNE, false);
    assert_eq!(
        r(&[Term::Product(inf, zero)]),
        0x7fc0_0000,
        "inf x 0 is the canonical NaN"
    );
    assert!(ExactSum::of(&[Term::Product(inf, zero)]).is_invalid());
    assert_eq!(r(&[Term::Value(inf), Term::Value(ninf)]), 0x7fc0_0000);
    assert_eq!(
        r(&[Term::Product(inf, one), Term::Product(ninf, one)]),
        0x7fc0_0000
    );
    assert_eq!(
        r(&[Term::Product(ninf, one), Term::Value(one)]),
        0xff80_0000
    );
    assert_eq!(
        r(&[Term::Product(ninf, ninf), Term::Value(one)]),
        0x7f80_0000
    );
    assert_eq!(
        r(&[Term::Value(nan), Term::Value(one)]),
        0x7fc0_0000,
        "NaN results are canonical"
    );
    assert!(!ExactSum::of(&[Term::Value(nan)]).is_invalid());
    // E4M3 has no infinity: an infinite sum is NaN, or ±448 with saturation.
    let e = ExactSum::of(&[Term::Value(ninf)]);
    assert_eq!(e.round(Format::E4M3, RNE, false), 0xff);
    assert_eq!(e.round(Format::E4M3, RNE, true), 0xfe);
}

#[test]
fn exact_decimal_text() {
    let s = ExactSum::of(&[Term::Product(d32(3.0), d32(0.125)), Term::Value(d32(-1.0))]);
    assert_eq!(s.to_decimal_string(), "-0.625");
    let tiny = ExactSum::of(&[Term::Product(
        d32(f32::from_bits(1)),
        d32(f32::from_bits(1)),
    )]);
    let (neg, m, e) = tiny.finite_parts(RNE).expect("finite");
    assert!(!neg);
    assert_eq!((m, e), (1u32.into(), -298));
}
