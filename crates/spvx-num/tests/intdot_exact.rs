//! Integer dot products (OpSDot/OpUDot/OpSUDot and the AccSat forms) against an independent
//! exact big-integer reference written here: components are read by subtracting 2^w from
//! patterns with the sign bit set, products and sums are exact `BigInt`s, the result is the
//! exact value reduced modulo 2^N, and the AccSat undefined case is decided by brute force over
//! every subset of products (a subset of two or more products is a partial sum of some
//! evaluation order), independent of the library's positive/negative-sum shortcut.

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};
use proptest::prelude::*;
use spvx_num::intdot::{AccSatUndefined, DotKind, DotSpec, IntDotError};

const KINDS: [DotKind; 3] = [DotKind::Signed, DotKind::Unsigned, DotKind::Mixed];
const WIDTHS: [u32; 4] = [8, 16, 32, 64];
const LENGTHS: [usize; 5] = [2, 3, 4, 8, 16];

fn read(pattern: u64, width: u32, signed: bool) -> BigInt {
    let masked = if width == 64 {
        pattern
    } else {
        pattern & ((1u64 << width) - 1)
    };
    let v = BigInt::from(masked);
    if signed && (masked >> (width - 1)) & 1 == 1 {
        v - (BigInt::one() << width)
    } else {
        v
    }
}

fn signs(kind: DotKind) -> (bool, bool, bool) {
    match kind {
        DotKind::Signed => (true, true, true),
        DotKind::Unsigned => (false, false, false),
        DotKind::Mixed => (true, false, true),
    }
}

fn products(kind: DotKind, w: u32, a: &[u64], b: &[u64]) -> Vec<BigInt> {
    let (s1, s2, _) = signs(kind);
    a.iter()
        .zip(b)
        .map(|(&x, &y)| read(x, w, s1) * read(y, w, s2))
        .collect()
}

fn modulo_pattern(x: &BigInt, n: u32) -> BigUint {
    x.mod_floor(&(BigInt::one() << n)).to_biguint().unwrap()
}

fn range(kind: DotKind, n: u32) -> (BigInt, BigInt) {
    if signs(kind).2 {
        (-(BigInt::one() << (n - 1)), (BigInt::one() << (n - 1)) - 1)
    } else {
        (BigInt::zero(), (BigInt::one() << n) - 1)
    }
}

/// Reference AccSat: (saturated exact value, undefined report).
fn reference_acc_sat(
    kind: DotKind,
    w: u32,
    n: u32,
    a: &[u64],
    b: &[u64],
    acc_pattern: &BigUint,
) -> (BigUint, Option<AccSatUndefined>) {
    let (lo, hi) = range(kind, n);
    let outside = |v: &BigInt| *v < lo || *v > hi;
    let p = products(kind, w, a, b);
    let mut undefined = p
        .iter()
        .position(outside)
        .map(|component| AccSatUndefined::ProductOverflow { component });
    if undefined.is_none() {
        // Gray-code walk over all subsets; subsets with >= 2 members are partial sums of some order.
        let mut sum = BigInt::zero();
        let mut members = vec![false; p.len()];
        let mut count = 0usize;
        let mut any = false;
        for step in 1u64..(1u64 << p.len()) {
            let bit = step.trailing_zeros() as usize;
            members[bit] = !members[bit];
            if members[bit] {
                sum += &p[bit];
                count += 1;
            } else {
                sum -= &p[bit];
                count -= 1;
            }
            if count >= 2 && outside(&sum) {
                any = true;
                break;
            }
        }
        if any {
            let mut prefix = p[0].clone();
            let mut in_order = false;
            for q in &p[1..] {
                prefix += q;
                in_order |= outside(&prefix);
            }
            undefined = Some(AccSatUndefined::SumOverflow {
                in_component_order: in_order,
            });
        }
    }
    let acc = {
        let v = BigInt::from(acc_pattern.clone());
        if signs(kind).2 && acc_pattern.bit(u64::from(n) - 1) {
            v - (BigInt::one() << n)
        } else {
            v
        }
    };
    let total: BigInt = p.iter().sum::<BigInt>() + acc;
    let clamped = if total < lo {
        lo
    } else if total > hi {
        hi
    } else {
        total
    };
    (modulo_pattern(&clamped, n), undefined)
}

fn pattern() -> impl Strategy<Value = u64> {
    prop_oneof![
        4 => any::<u64>(),
        1 => prop::sample::select(vec![
            0u64, 1, u64::MAX, 0x80, 0x7f, 0xff, 0x8000, 0x7fff, 0xffff, 0x8000_0000,
            0x7fff_ffff, 0xffff_ffff, 1 << 63, (1 << 63) - 1,
        ]),
    ]
}

/// (kind, w, N, Vector 1, Vector 2, accumulator pattern) with N drawn from `n_range(w)`.
fn case(
    n_range: fn(u32) -> std::ops::RangeInclusive<u32>,
) -> impl Strategy<Value = (DotKind, u32, u32, Vec<u64>, Vec<u64>, u64)> {
    (
        prop::sample::select(KINDS.to_vec()),
        prop::sample::select(WIDTHS.to_vec()),
        prop::sample::select(LENGTHS.to_vec()),
    )
        .prop_flat_map(move |(kind, w, len)| {
            (
                Just(kind),
                Just(w),
                prop_oneof![
                    // Widths just above the components, where AccSat overflows are frequent.
                    1 => Just(*n_range(w).start()),
                    1 => (w..=w + 6).prop_map(move |n| n.clamp(*n_range(w).start(), *n_range(w).end())),
                    2 => n_range(w),
                ],
                prop::collection::vec(pattern(), len),
                prop::collection::vec(pattern(), len),
                pattern(),
            )
        })
}

/// Result widths for the u64 entry points: w ..= 64.
fn narrow(w: u32) -> std::ops::RangeInclusive<u32> {
    w..=64
}

/// Result widths beyond 64 bits.
fn wide(_w: u32) -> std::ops::RangeInclusive<u32> {
    65..=330
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn plain_narrow_is_low_bits_of_exact((kind, w, n, a, b, _acc) in case(narrow)) {
        let spec = DotSpec::new(kind, w, n).unwrap();
        let exact: BigInt = products(kind, w, &a, &b).iter().sum();
        let want = modulo_pattern(&exact, n).to_u64().unwrap();
        prop_assert_eq!(spec.dot(&a, &b).unwrap(), want);
        prop_assert_eq!(spec.dot_wide(&a, &b).unwrap(), BigUint::from(want));
        prop_assert_eq!(spec.dot_exact(&a, &b).unwrap(), exact);
    }

    #[test]
    fn acc_sat_narrow_matches_reference((kind, w, n, a, b, acc) in case(narrow)) {
        let spec = DotSpec::new(kind, w, n).unwrap();
        let acc_pattern = if n == 64 { acc } else { acc & ((1u64 << n) - 1) };
        let (want, undefined) = reference_acc_sat(kind, w, n, &a, &b, &BigUint::from(acc_pattern));
        // High accumulator bits above N are ignored by contract.
        let got = spec.dot_acc_sat(&a, &b, acc).unwrap();
        prop_assert_eq!(BigUint::from(got.value), want.clone());
        prop_assert_eq!(got.undefined, undefined);
        let wide = spec.dot_acc_sat_wide(&a, &b, &BigUint::from(acc_pattern)).unwrap();
        prop_assert_eq!(wide.value, want);
        prop_assert_eq!(wide.undefined, undefined);
    }

    #[test]
    fn wide_results_match_reference((kind, w, n, a, b, acc) in case(wide), acc_hi in any::<u64>()) {
        let spec = DotSpec::new(kind, w, n).unwrap();
        let exact: BigInt = products(kind, w, &a, &b).iter().sum();
        prop_assert_eq!(spec.dot_wide(&a, &b).unwrap(), modulo_pattern(&exact, n));
        prop_assert_eq!(spec.dot(&a, &b), Err(IntDotError::ResultNeedsWide(n)));
        let acc_pattern = modulo_pattern(&((BigInt::from(acc_hi) << 64) + acc), n);
        let (want, undefined) = reference_acc_sat(kind, w, n, &a, &b, &acc_pattern);
        let got = spec.dot_acc_sat_wide(&a, &b, &acc_pattern).unwrap();
        prop_assert_eq!(got.value, want);
        prop_assert_eq!(got.undefined, undefined);
    }
}

/// Every pair of 8-bit components through a one-component product, every kind, results of 8,
/// 9 and 16 bits, plain and AccSat (with accumulators at the range ends and zero).
#[test]
fn exhaustive_single_lane_8bit() {
    for kind in KINDS {
        for n in [8u32, 9, 16] {
            let spec = DotSpec::new(kind, 8, n).unwrap();
            let (lo, hi) = range(kind, n);
            let accs = [
                modulo_pattern(&lo, n),
                modulo_pattern(&hi, n),
                BigUint::zero(),
            ];
            for x in 0u64..256 {
                for y in 0u64..256 {
                    let p: BigInt = products(kind, 8, &[x], &[y]).remove(0);
                    let got = spec.dot(&[x], &[y]).unwrap();
                    assert_eq!(
                        BigUint::from(got),
                        modulo_pattern(&p, n),
                        "{kind:?} N={n} {x:#x}*{y:#x}"
                    );
                    for acc in &accs {
                        let (want, undefined) = reference_acc_sat(kind, 8, n, &[x], &[y], acc);
                        let got = spec.dot_acc_sat(&[x], &[y], acc.to_u64().unwrap()).unwrap();
                        assert_eq!(
                            BigUint::from(got.value),
                            want,
                            "{kind:?} N={n} {x:#x}*{y:#x}+{acc}"
                        );
                        assert_eq!(got.undefined, undefined, "{kind:?} N={n} {x:#x}*{y:#x}");
                    }
                }
            }
        }
    }
}

/// Issue 3 of the extension: "result_width >= input_component_width * 2 +
/// ceil(log2(input_num_components))" is enough to represent every dot product. With such a
/// result width the extreme inputs must never report the undefined case, and the value must be
/// the exact dot product (plus accumulator 0).
#[test]
fn spec_issue3_width_is_always_defined() {
    for kind in KINDS {
        for w in WIDTHS {
            for len in LENGTHS {
                let n = 2 * w + (len as f64).log2().ceil() as u32;
                let spec = DotSpec::new(kind, w, n).unwrap();
                let min_signed = 1u64 << (w - 1);
                let all_ones = if w == 64 { u64::MAX } else { (1 << w) - 1 };
                for (x, y) in [
                    (min_signed, min_signed),
                    (all_ones, all_ones),
                    (min_signed, all_ones),
                    (all_ones, min_signed),
                ] {
                    let (a, b) = (vec![x; len], vec![y; len]);
                    let got = spec.dot_acc_sat_wide(&a, &b, &BigUint::zero()).unwrap();
                    assert_eq!(got.undefined, None, "{kind:?} w={w} len={len} N={n}");
                    let exact: BigInt = products(kind, w, &a, &b).iter().sum();
                    assert_eq!(got.value, modulo_pattern(&exact, n));
                }
            }
        }
    }
}

/// Hand-computed vectors.
#[test]
fn hand_computed_vectors() {
    // SDot of int8 (-128,-128,-128,-128)·(-128,…) = 4·16384 = 65536 -> low 16 bits 0;
    // AccSat into 16 bits: every product 16384 fits, 16384+16384 = 32768 > 32767 overflows in
    // component order -> undefined, value saturates to 32767.
    let s16 = DotSpec::new(DotKind::Signed, 8, 16).unwrap();
    let m = [0x80u64; 4];
    assert_eq!(s16.dot(&m, &m).unwrap(), 0);
    let r = s16.dot_acc_sat(&m, &m, 0).unwrap();
    assert_eq!(r.value, 0x7fff);
    assert_eq!(
        r.undefined,
        Some(AccSatUndefined::SumOverflow {
            in_component_order: true
        })
    );
    // Products (16384, -16256, 16384, -16256): the component-order partial sums (128, 16512,
    // 256) stay in range, but adding the two positive products first gives 32768: undefined
    // only in some other order.
    let a = [0x80u64, 0x80, 0x80, 0x80];
    let b = [0x80u64, 0x7f, 0x80, 0x7f]; // -128, 127: products 16384, -16256, 16384, -16256
    let r = s16.dot_acc_sat(&a, &b, 0).unwrap();
    assert_eq!(r.value, 256); // 2·16384 − 2·16256
    assert_eq!(
        r.undefined,
        Some(AccSatUndefined::SumOverflow {
            in_component_order: false
        })
    );
    // UDot u8 into 8 bits: 255·255 = 65025 overflows the product itself.
    let u8r = DotSpec::new(DotKind::Unsigned, 8, 8).unwrap();
    let r = u8r.dot_acc_sat(&[1, 0xff], &[1, 0xff], 0).unwrap();
    assert_eq!(r.value, 0xff);
    assert_eq!(
        r.undefined,
        Some(AccSatUndefined::ProductOverflow { component: 1 })
    );
    assert_eq!(u8r.dot(&[1, 0xff], &[1, 0xff]).unwrap(), (1 + 65025) % 256);
    // SUDot: Vector 2 is zero-extended: (-1)·255 + 2·3 = -249 in 32 bits.
    let su = DotSpec::new(DotKind::Mixed, 8, 32).unwrap();
    assert_eq!(
        su.dot(&[0xff, 2], &[0xff, 3]).unwrap(),
        (-249i32) as u32 as u64
    );
    // AccSat with no overflow and saturation only in the final accumulation is defined:
    let r = DotSpec::new(DotKind::Signed, 8, 32)
        .unwrap()
        .dot_acc_sat(&[0x7f, 0x7f], &[0x7f, 0x7f], 0x7fff_ff00)
        .unwrap();
    assert_eq!(r.value, 0x7fff_ffff);
    assert_eq!(r.undefined, None);
}

#[test]
fn invalid_descriptors_and_lengths_are_errors() {
    assert_eq!(
        DotSpec::new(DotKind::Signed, 0, 8),
        Err(IntDotError::ComponentWidth(0))
    );
    assert_eq!(
        DotSpec::new(DotKind::Signed, 65, 128),
        Err(IntDotError::ComponentWidth(65))
    );
    assert!(matches!(
        DotSpec::new(DotKind::Signed, 16, 8),
        Err(IntDotError::ResultNarrowerThanComponents { .. })
    ));
    assert!(matches!(
        DotSpec::new(DotKind::Signed, 8, u32::MAX),
        Err(IntDotError::ResultTooWide(_))
    ));
    let s = DotSpec::new(DotKind::Signed, 8, 32).unwrap();
    assert_eq!(
        s.dot(&[1, 2], &[1]),
        Err(IntDotError::LengthMismatch {
            vector1: 2,
            vector2: 1
        })
    );
    assert!(matches!(
        s.dot_acc_sat_wide(&[1], &[1], &(BigUint::one() << 40)),
        Err(IntDotError::AccumulatorTooWide { .. })
    ));
}
