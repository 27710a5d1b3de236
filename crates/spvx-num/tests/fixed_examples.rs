//! The worked examples of reference/acfixed.md §1.2–1.5 (verified there against ac_types) as
//! unit tests of the conversion: ties, SAT_SYM, I < 0, I > W, quantize-then-overflow.

use num_bigint::BigInt;
use spvx_num::fixed::{
    Dyadic, FixedFormat, Overflow, Quantization, apply_overflow, convert_dyadic, convert_rational,
};

fn q(v: u32) -> Quantization {
    Quantization::from_spirv(v).unwrap()
}
fn o(v: u32) -> Overflow {
    Overflow::from_spirv(v).unwrap()
}

/// Converts num/den into <w,i,s> and returns the value as num/den reduced to f64 for readable
/// comparison (all examples are small dyadics).
fn conv(num: i64, den: i64, w: u32, i: i32, s: bool, qm: u32, om: u32) -> f64 {
    let fmt = FixedFormat::new(w, i, s).unwrap();
    let m = convert_rational(&BigInt::from(num), &BigInt::from(den), &fmt, q(qm), o(om)).unwrap();
    let m: f64 = m.to_string().parse().unwrap();
    m * 2f64.powi(fmt.lsb_exponent() as i32)
}

#[test]
fn spirv_numbering_differs_from_cpp_for_1_and_2() {
    assert_eq!(q(1), Quantization::TrnZero);
    assert_eq!(q(2), Quantization::Rnd);
    assert!(Quantization::from_spirv(8).is_err());
    assert!(Overflow::from_spirv(4).is_err());
    assert_eq!(o(3), Overflow::SatSym);
}

#[test]
fn table_1_2_ties_in_8_8_signed() {
    // rows: TRN, TRN_ZERO, RND, RND_ZERO, RND_INF, RND_MIN_INF, RND_CONV, RND_CONV_ODD (SPIR-V 0..7)
    let srcs = [
        (5, 2),
        (-5, 2),
        (7, 2),
        (-7, 2),
        (9, 4),
        (-9, 4),
        (11, 4),
        (-11, 4),
        (1, 2),
        (-1, 2),
    ];
    let table: [[f64; 10]; 8] = [
        [2., -3., 3., -4., 2., -3., 2., -3., 0., -1.],
        [2., -2., 3., -3., 2., -2., 2., -2., 0., 0.],
        [3., -2., 4., -3., 2., -2., 3., -3., 1., 0.],
        [2., -2., 3., -3., 2., -2., 3., -3., 0., 0.],
        [3., -3., 4., -4., 2., -2., 3., -3., 1., -1.],
        [2., -3., 3., -4., 2., -2., 3., -3., 0., -1.],
        [2., -2., 4., -4., 2., -2., 3., -3., 0., 0.],
        [3., -3., 3., -3., 2., -2., 3., -3., 1., -1.],
    ];
    for (qm, row) in table.iter().enumerate() {
        for (k, &(n, d)) in srcs.iter().enumerate() {
            assert_eq!(
                conv(n, d, 8, 8, true, qm as u32, 0),
                row[k],
                "q={qm} src={n}/{d}"
            );
        }
    }
}

#[test]
fn quantize_then_overflow_4_4() {
    // 7.5 RND → 8: WRAP −8, SAT 7, SAT_ZERO 0, SAT_SYM 7
    let r: Vec<f64> = (0..4).map(|om| conv(15, 2, 4, 4, true, 2, om)).collect();
    assert_eq!(r, vec![-8., 7., 0., 7.]);
    // −8.5 RND → −8 in range: −8, −8, −8, SAT_SYM −7
    let r: Vec<f64> = (0..4).map(|om| conv(-17, 2, 4, 4, true, 2, om)).collect();
    assert_eq!(r, vec![-8., -8., -8., -7.]);
    // unsigned: −0.5 RND → 0 in every mode; −0.75 → −1: WRAP 15, others 0; 15.5 → 16
    for om in 0..4 {
        assert_eq!(conv(-1, 2, 4, 4, false, 2, om), 0.);
    }
    let r: Vec<f64> = (0..4).map(|om| conv(-3, 4, 4, 4, false, 2, om)).collect();
    assert_eq!(r, vec![15., 0., 0., 0.]);
    let r: Vec<f64> = (0..3).map(|om| conv(31, 2, 4, 4, false, 2, om)).collect();
    assert_eq!(r, vec![0., 15., 0.]);
    // TRN −0.25 unsigned: WRAP 15, SAT 0
    assert_eq!(conv(-1, 4, 4, 4, false, 0, 0), 15.);
    assert_eq!(conv(-1, 4, 4, 4, false, 0, 1), 0.);
}

#[test]
fn i_above_w_3_6_signed() {
    // rows per source, columns Q 0..7
    let cases: [(i64, [f64; 8]); 4] = [
        (13, [8., 8., 16., 16., 16., 16., 16., 16.]),
        (20, [16., 16., 24., 16., 24., 16., 16., 24.]),
        (-20, [-24., -16., -16., -16., -24., -24., -16., -24.]),
        (-12, [-16., -8., -8., -8., -16., -16., -16., -8.]),
    ];
    for (src, row) in cases {
        for (qm, want) in row.iter().enumerate() {
            assert_eq!(
                conv(src, 1, 3, 6, true, qm as u32, 0),
                *want,
                "src {src} q {qm}"
            );
        }
    }
    let r: Vec<f64> = (0..4).map(|om| conv(29, 1, 3, 6, true, 2, om)).collect();
    assert_eq!(r, vec![-32., 24., 0., 24.]);
    let r: Vec<f64> = (0..4).map(|om| conv(-40, 1, 3, 6, true, 0, om)).collect();
    assert_eq!(r, vec![24., -32., 0., -24.]);
    let r: Vec<f64> = (0..4).map(|om| conv(-32, 1, 3, 6, true, 0, om)).collect();
    assert_eq!(r, vec![-32., -32., -32., -24.]);
}

#[test]
fn i_below_zero_4_minus1() {
    let up = [2u32, 4, 6];
    for qm in 0..8u32 {
        let want = if up.contains(&qm) { 2. / 32. } else { 1. / 32. };
        assert_eq!(conv(3, 64, 4, -1, true, qm, 0), want, "3/64 q {qm}");
        let want_neg = if [0u32, 4, 5, 6].contains(&qm) {
            -2. / 32.
        } else {
            -1. / 32.
        };
        assert_eq!(conv(-3, 64, 4, -1, true, qm, 0), want_neg, "-3/64 q {qm}");
    }
    assert_eq!(conv(-1, 4, 4, -1, true, 0, 3), -7. / 32.);
    // unsigned <4,−1>: 0.5 → WRAP 0, SAT 15/32, SAT_ZERO 0; −0.01 TRN → WRAP 15/32, SAT 0
    assert_eq!(conv(1, 2, 4, -1, false, 0, 0), 0.);
    assert_eq!(conv(1, 2, 4, -1, false, 0, 1), 15. / 32.);
    assert_eq!(conv(1, 2, 4, -1, false, 0, 2), 0.);
    assert_eq!(conv(-1, 100, 4, -1, false, 0, 0), 15. / 32.);
    assert_eq!(conv(-1, 100, 4, -1, false, 0, 1), 0.);
}

#[test]
fn w1_signed_sat_sym_is_zero_not_ac_types_minus_one() {
    // Decision (docs/semantics/fixed-point.md): −MAX of <1,1,signed> is 0.
    let fmt = FixedFormat::new(1, 1, true).unwrap();
    assert_eq!(
        apply_overflow(&BigInt::from(-5), &fmt, Overflow::SatSym),
        BigInt::from(0)
    );
    assert_eq!(
        apply_overflow(&BigInt::from(-1), &fmt, Overflow::SatSym),
        BigInt::from(0)
    );
    assert_eq!(
        apply_overflow(&BigInt::from(-1), &fmt, Overflow::Sat),
        BigInt::from(-1)
    );
}

#[test]
fn table_2_ranges_and_huge_exponents() {
    let f = FixedFormat::new(4, 6, false).unwrap();
    assert_eq!(f.raw_max(), BigInt::from(15));
    assert_eq!(f.lsb_exponent(), 2);
    // 2^(2^31): far out of range; SAT gives MAX, WRAP gives 0 (all low bits 0).
    let huge = Dyadic::new(BigInt::from(1), i32::MAX as i64);
    let fmt = FixedFormat::new(8, 0, true).unwrap();
    assert_eq!(convert_dyadic(&huge, &fmt, q(0), o(1)), BigInt::from(127));
    assert_eq!(convert_dyadic(&huge, &fmt, q(0), o(0)), BigInt::from(0));
    // −2^(−2^31): TRN gives −1 quantum, TRN_ZERO 0.
    let tiny = Dyadic::new(BigInt::from(-1), i32::MIN as i64);
    assert_eq!(convert_dyadic(&tiny, &fmt, q(0), o(0)), BigInt::from(-1));
    assert_eq!(convert_dyadic(&tiny, &fmt, q(1), o(0)), BigInt::from(0));
}
