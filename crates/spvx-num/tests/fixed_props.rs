//! Random properties at widths above 64, against the independent rug reference of `fixed_ref`:
//! exact conversions of random rationals and dyadics (with forced ties) under every Q/O, and the
//! eleven functions on random inputs of 64-, 128- and 200-bit formats.

mod fixed_ref;

use fixed_ref::{
    pow2, ref_bits, ref_overflow, ref_quantize, ref_result, ref_value, to_big, to_rug,
};
use num_bigint::{BigInt, BigUint};
use proptest::prelude::*;
use rug::{Integer, Rational};
use spvx_num::fixed::{
    Dyadic, FixedFormat, FixedFunction, FixedOp, FixedValue, Overflow, Quantization,
    convert_dyadic, convert_rational, evaluate,
};

fn big_from_bytes(bytes: &[u8], negative: bool) -> BigInt {
    let b = BigInt::from(BigUint::from_bytes_le(bytes));
    if negative { -b } else { b }
}

fn rug_of(b: &BigInt) -> Integer {
    Integer::from_str_radix(&b.to_str_radix(16), 16).expect("hex")
}

fn bits_of(raw: &BigInt, w: u32) -> Integer {
    ref_bits(&rug_of(raw), w)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn convert_rational_matches_reference(
        num in proptest::collection::vec(any::<u8>(), 1..40),
        den in proptest::collection::vec(any::<u8>(), 1..14),
        neg in any::<bool>(),
        w in 1u32..=200, i in -300i32..300, s in any::<bool>(), q in 0u32..8, o in 0u32..4,
    ) {
        let n = big_from_bytes(&num, neg);
        let d = big_from_bytes(&den, false);
        prop_assume!(d != BigInt::from(0));
        let fmt = FixedFormat::new(w, i, s).unwrap();
        let got = convert_rational(&n, &d, &fmt, Quantization::from_spirv(q).unwrap(), Overflow::from_spirv(o).unwrap()).unwrap();
        let v = Rational::from((rug_of(&n), rug_of(&d)));
        let t = v * pow2(w as i64 - i as i64);
        let want = ref_overflow(&ref_quantize(&t, q), w, s, o);
        prop_assert_eq!(bits_of(&got, w), ref_bits(&want, w));
    }

    #[test]
    fn convert_dyadic_ties_match_reference(
        m in proptest::collection::vec(any::<u8>(), 1..30),
        neg in any::<bool>(),
        extra in 0i64..3,
        w in 1u32..=200, i in -200i32..200, s in any::<bool>(), q in 0u32..8, o in 0u32..4,
    ) {
        let fmt = FixedFormat::new(w, i, s).unwrap();
        // exponent lsb − 1 − extra: extra = 0 makes odd mantissas exact ties
        let e = fmt.lsb_exponent() - 1 - extra;
        let mant = big_from_bytes(&m, neg);
        let got = convert_dyadic(&Dyadic::new(mant.clone(), e), &fmt, Quantization::from_spirv(q).unwrap(), Overflow::from_spirv(o).unwrap());
        let t = Rational::from(rug_of(&mant)) * pow2(e - fmt.lsb_exponent());
        let want = ref_overflow(&ref_quantize(&t, q), w, s, o);
        prop_assert_eq!(bits_of(&got, w), ref_bits(&want, w));
    }
}

#[allow(clippy::too_many_arguments)]
fn check_function(
    f: FixedFunction,
    x: &BigUint,
    w: u32,
    i: i32,
    rw: u32,
    ri: i32,
    s: bool,
    q: u32,
    o: u32,
) -> Result<(), TestCaseError> {
    let op = FixedOp {
        function: f,
        signed: s,
        input_width: w,
        input_int_bits: i,
        result_width: rw,
        result_int_bits: ri,
        quantization: Quantization::from_spirv(q).unwrap(),
        overflow: Overflow::from_spirv(o).unwrap(),
    };
    let got = evaluate(&op, x).map_err(|e| TestCaseError::fail(format!("{f}: {e}")))?;
    let xv = ref_value(&to_rug(x), w, i, s);
    let want = |name: &str| ref_bits(&ref_result(name, &xv, rw, ri, s, q, o), rw);
    match got.value {
        FixedValue::Single(b) => prop_assert_eq!(to_rug(&b), want(f.name()), "{} x={}", f, xv),
        FixedValue::Pair { sin, cos } => {
            let (sn, cn) = if f == FixedFunction::SinCos {
                ("sin", "cos")
            } else {
                ("sinpi", "cospi")
            };
            prop_assert_eq!(to_rug(&sin), want(sn));
            prop_assert_eq!(to_rug(&cos), want(cn));
        }
    }
    Ok(())
}

fn wide() -> impl Strategy<Value = u32> {
    prop_oneof![Just(64u32), Just(128), Just(200)]
}

fn input(w: u32) -> impl Strategy<Value = BigUint> {
    proptest::collection::vec(any::<u8>(), 25)
        .prop_map(move |b| BigUint::from_bytes_le(&b) % (BigUint::from(1u32) << w))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn algebraic_wide((w, x) in wide().prop_flat_map(|w| (Just(w), input(w))),
        i in -80i32..280, rw in wide(), ri in -80i32..240, s in any::<bool>(), q in 0u32..8, o in 0u32..4, k in 0usize..3) {
        let f = [FixedFunction::Sqrt, FixedFunction::Recip, FixedFunction::Rsqrt][k];
        check_function(f, &x, w, i, rw, ri, s, q, o)?;
    }

    #[test]
    fn trig_wide((w, x) in wide().prop_flat_map(|w| (Just(w), input(w))),
        i in -40i32..300, rw in wide(), ri in -40i32..4, s in any::<bool>(), q in 0u32..8, o in 0u32..4, k in 0usize..6) {
        let f = [FixedFunction::Sin, FixedFunction::Cos, FixedFunction::SinCos, FixedFunction::SinPi, FixedFunction::CosPi, FixedFunction::SinCosPi][k];
        check_function(f, &x, w, i, rw, ri, s, q, o)?;
    }

    #[test]
    fn exp_log_wide((w, x) in wide().prop_flat_map(|w| (Just(w), input(w))),
        i in -40i32..12, rw in wide(), ri in -20i32..300, s in any::<bool>(), q in 0u32..8, o in 0u32..4, k in 0usize..2) {
        let f = [FixedFunction::Exp, FixedFunction::Log][k];
        check_function(f, &x, w, i, rw, ri, s, q, o)?;
    }
}

#[test]
fn exact_points_and_ties_wide() {
    // sqrt of an exact square with a tie: x = (2m+1)^2 · 2^-2(k+1) gives sqrt = (2m+1)/2^(k+1)
    // landing half-way between result quanta 2^-k.
    let y = (BigInt::from(1u32) << 90u32) + 1; // odd
    let x: BigInt = &y * &y; // 181 bits
    for q in 0..8u32 {
        // input <200, 200-182=18 → I with value x·2^(I−W); choose I − W = −2·92 → sqrt = y·2^-92
        let w = 200;
        let i = w as i32 - 184;
        let xb = x.to_biguint().unwrap();
        check_function(FixedFunction::Sqrt, &xb, w, i, 128, 128 - 91, false, q, 1).unwrap();
        // recip of 2^-5 = 32 exactly
        check_function(
            FixedFunction::Recip,
            &BigUint::from(1u32),
            128,
            123,
            200,
            100,
            true,
            q,
            0,
        )
        .unwrap();
    }
    let _ = to_big(&Integer::from(1));
}
