//! Hand-computed vectors for the float formats: constants and classification from the format
//! tables (reference/mixedfloat.md §4.1), ties, overflow with and without saturation, E4M3 NaN,
//! subnormals, NaN payloads, exact decimal text, decimal parsing and rational rounding.

use num_bigint::BigUint;
use spvx_num::float::{Decoded, FloatClass, Format, RoundingMode};

const RNE: RoundingMode = RoundingMode::NearestEven;
const RTZ: RoundingMode = RoundingMode::TowardZero;
const RTP: RoundingMode = RoundingMode::TowardPositive;
const RTN: RoundingMode = RoundingMode::TowardNegative;

#[test]
fn constants_match_the_format_table() {
    // (format, max finite, min normal, min subnormal, +inf)
    let table: [(Format, u64, f64, u64, f64, Option<u64>); 6] = [
        (
            Format::F16,
            0x7bff,
            65504.0,
            0x0400,
            2f64.powi(-14),
            Some(0x7c00),
        ),
        (
            Format::BF16,
            0x7f7f,
            (2.0 - 2f64.powi(-7)) * 2f64.powi(127),
            0x0080,
            2f64.powi(-126),
            Some(0x7f80),
        ),
        (Format::E4M3, 0x7e, 448.0, 0x08, 2f64.powi(-6), None),
        (
            Format::E5M2,
            0x7b,
            57344.0,
            0x04,
            2f64.powi(-14),
            Some(0x7c),
        ),
        (
            Format::TF32,
            0x7f7f_e000,
            (2.0 - 2f64.powi(-10)) * 2f64.powi(127),
            0x0080_0000,
            2f64.powi(-126),
            Some(0x7f80_0000),
        ),
        (
            Format::F32,
            0x7f7f_ffff,
            f32::MAX as f64,
            0x0080_0000,
            2f64.powi(-126),
            Some(0x7f80_0000),
        ),
    ];
    for (f, max_bits, max, min_bits, min, inf) in table {
        assert_eq!(f.max_finite(false), max_bits, "{f}");
        assert_eq!(f.to_f64(max_bits), max, "{f}");
        assert_eq!(f.min_normal(false), min_bits, "{f}");
        assert_eq!(f.to_f64(min_bits), min, "{f}");
        assert_eq!(f.infinity(false), inf, "{f}");
        assert_eq!(f.classify(max_bits), FloatClass::Normal);
    }
    assert_eq!(Format::E4M3.to_f64(0x01), 2f64.powi(-9));
    assert_eq!(Format::E4M3.to_f64(0x07), 0.875 * 2f64.powi(-6));
    assert_eq!(Format::E5M2.to_f64(0x01), 2f64.powi(-16));
    assert_eq!(Format::BF16.to_f64(0x0001), 2f64.powi(-133));
    assert_eq!(Format::F16.canonical_nan(), 0x7e00);
    assert_eq!(Format::BF16.canonical_nan(), 0x7fc0);
    assert_eq!(Format::E5M2.canonical_nan(), 0x7e);
    assert_eq!(Format::E4M3.canonical_nan(), 0x7f);
    assert_eq!(Format::TF32.canonical_nan(), 0x7fc0_0000);
    assert_eq!(Format::F64.canonical_nan(), 0x7ff8_0000_0000_0000);
}

#[test]
fn classification_of_fp8_specials() {
    let e4 = Format::E4M3;
    assert_eq!(e4.classify(0x7f), FloatClass::Nan);
    assert_eq!(e4.classify(0xff), FloatClass::Nan);
    assert_eq!(e4.classify(0x78), FloatClass::Normal); // 256
    assert_eq!(e4.to_f64(0x78), 256.0);
    assert_eq!(e4.classify(0x80), FloatClass::Zero);
    assert!(e4.is_negative(0x80));
    assert_eq!(e4.classify(0x01), FloatClass::Subnormal);
    let e5 = Format::E5M2;
    assert_eq!(e5.classify(0x7c), FloatClass::Infinite);
    assert_eq!(e5.classify(0xfc), FloatClass::Infinite);
    for nan in [0x7d, 0x7e, 0x7f, 0xfd, 0xfe, 0xff] {
        assert_eq!(e5.classify(nan), FloatClass::Nan, "{nan:#x}");
    }
    assert!(e5.is_quiet_nan(0x7e) && !e5.is_quiet_nan(0x7d));
    // tf32 ignores its 13 padding bits.
    assert_eq!(
        Format::TF32.decode(0x3f80_1fff),
        Format::TF32.decode(0x3f80_0000)
    );
}

#[test]
fn overflow_thresholds_and_saturation() {
    let r = |f: Format, x: f64, m, s| f.from_f64(x, m, s);
    // f16: 65519.99 stays, 65520 (tie, 65504 odd) overflows.
    assert_eq!(r(Format::F16, 65519.0, RNE, false), 0x7bff);
    assert_eq!(r(Format::F16, 65520.0, RNE, false), 0x7c00);
    assert_eq!(r(Format::F16, 65520.0, RNE, true), 0x7bff);
    assert_eq!(r(Format::F16, 1e9, RTZ, false), 0x7bff);
    assert_eq!(r(Format::F16, 1e9, RTP, false), 0x7c00);
    assert_eq!(r(Format::F16, -1e9, RTP, false), 0xfbff);
    assert_eq!(r(Format::F16, -1e9, RTN, false), 0xfc00);
    // E4M3: 464 ties to 448 (mantissa 110 is even); above 464 overflows to NaN (no infinity).
    assert_eq!(r(Format::E4M3, 464.0, RNE, false), 0x7e);
    assert_eq!(r(Format::E4M3, 464.0001, RNE, false), 0x7f);
    assert_eq!(r(Format::E4M3, -500.0, RNE, false), 0xff);
    assert_eq!(r(Format::E4M3, 500.0, RTZ, false), 0x7e);
    assert_eq!(r(Format::E4M3, 449.0, RTP, false), 0x7f);
    assert_eq!(r(Format::E4M3, -1e30, RNE, true), 0xfe);
    assert_eq!(r(Format::E4M3, f64::INFINITY, RNE, false), 0x7f);
    assert_eq!(r(Format::E4M3, f64::NEG_INFINITY, RNE, false), 0xff);
    assert_eq!(r(Format::E4M3, f64::NEG_INFINITY, RNE, true), 0xfe);
    assert_eq!(
        r(Format::E4M3, f64::NAN, RNE, true),
        0x7f,
        "NaN stays NaN under saturation"
    );
    // E5M2: 61440 ties to 65536 = overflow; saturation gives 57344.
    assert_eq!(r(Format::E5M2, 61439.0, RNE, false), 0x7b);
    assert_eq!(r(Format::E5M2, 61440.0, RNE, false), 0x7c);
    assert_eq!(r(Format::E5M2, 61440.0, RNE, true), 0x7b);
    assert_eq!(r(Format::E5M2, f64::INFINITY, RNE, true), 0x7b);
    assert_eq!(r(Format::E5M2, -f64::NAN, RNE, true), 0xfe);
    // bf16: f32::MAX rounds up to infinity.
    assert_eq!(r(Format::BF16, f32::MAX as f64, RNE, false), 0x7f80);
}

#[test]
fn ties_and_subnormals() {
    let r = |f: Format, x: f64, m| f.from_f64(x, m, false);
    // bf16 ties: 1 + 2^-8 → 1 (even), 1 + 3·2^-8 → 1 + 2^-6 ... (0x3f82)
    assert_eq!(r(Format::BF16, 1.0 + 2f64.powi(-8), RNE), 0x3f80);
    assert_eq!(r(Format::BF16, 1.0 + 3.0 * 2f64.powi(-8), RNE), 0x3f82);
    // The `half` pitfall input of mixedfloat.md §4.3: 1 + 2^-8 + 2^-40 → 0x3f81.
    assert_eq!(
        r(Format::BF16, 1.0 + 2f64.powi(-8) + 2f64.powi(-40), RNE),
        0x3f81
    );
    assert_eq!(
        r(Format::F16, 1.0 + 2f64.powi(-11) + 2f64.powi(-40), RNE),
        0x3c01
    );
    // f16 subnormals: half the smallest subnormal ties to 0, a bit more rounds up.
    assert_eq!(r(Format::F16, 2f64.powi(-25), RNE), 0x0000);
    assert_eq!(r(Format::F16, -2f64.powi(-25), RNE), 0x8000);
    assert_eq!(r(Format::F16, 2f64.powi(-25) * 1.5, RNE), 0x0001);
    assert_eq!(r(Format::F16, 3.0 * 2f64.powi(-25), RNE), 0x0002);
    assert_eq!(r(Format::F16, 2f64.powi(-30), RTP), 0x0001);
    assert_eq!(r(Format::F16, -2f64.powi(-30), RTP), 0x8000);
    assert_eq!(r(Format::F16, -2f64.powi(-30), RTN), 0x8001);
    // Rounding up out of the subnormal range gives the smallest normal.
    assert_eq!(r(Format::F16, 2f64.powi(-14) - 2f64.powi(-26), RNE), 0x0400);
    // E4M3 subnormals: 2^-10 ties to 0, 3·2^-10 ties to 2·2^-9 (even).
    assert_eq!(r(Format::E4M3, 2f64.powi(-10), RNE), 0x00);
    assert_eq!(r(Format::E4M3, 3.0 * 2f64.powi(-10), RNE), 0x02);
    // tf32 keeps 10 fraction bits in the high bits of an f32 word.
    assert_eq!(r(Format::TF32, 1.0 + 2f64.powi(-11), RNE), 0x3f80_0000);
    assert_eq!(
        r(Format::TF32, 1.0 + 3.0 * 2f64.powi(-11), RNE),
        0x3f80_4000
    );
}

#[test]
fn nan_payloads_on_conversion() {
    use spvx_num::float::convert;
    // f32 signalling NaN with payload: quieted, sign and top payload bits kept.
    assert_eq!(
        convert(Format::F32, 0xff80_0001, Format::F16, RNE, false),
        0xfe00
    );
    assert_eq!(
        convert(Format::F32, 0x7fa0_0000, Format::F16, RNE, false),
        0x7f00
    );
    assert_eq!(
        convert(Format::F16, 0x7d00, Format::F32, RNE, false),
        0x7fe0_0000
    );
    assert_eq!(convert(Format::F16, 0xfd00, Format::E4M3, RNE, true), 0xff);
    assert_eq!(
        convert(Format::E4M3, 0xff, Format::F32, RNE, false),
        0xffc0_0000 | 0x0030_0000
    );
}

#[test]
fn exact_decimal_text() {
    assert_eq!(
        Format::F16.decode(0x0001).to_string(),
        "0.000000059604644775390625"
    );
    assert_eq!(Format::E4M3.decode(0xfe).to_string(), "-448");
    assert_eq!(Format::F16.decode(0x8000).to_string(), "-0");
    assert_eq!(Format::E5M2.decode(0xfc).to_string(), "-inf");
    assert_eq!(
        Format::F32.decode(0x3dcc_cccd).to_string(),
        "0.100000001490116119384765625"
    );
    assert!(matches!(
        Format::F16.decode(0x7e00),
        Decoded::Nan {
            negative: false,
            ..
        }
    ));
}

#[test]
fn decimal_parsing_and_ratios() {
    assert_eq!(Format::F16.parse_decimal("1", RNE).unwrap(), (0x3c00, true));
    assert_eq!(
        Format::F16.parse_decimal("-2.5e-1", RNE).unwrap(),
        (0xb400, true)
    );
    assert_eq!(
        Format::F16.parse_decimal("0.1", RNE).unwrap(),
        (0x2e66, false)
    );
    assert_eq!(
        Format::F32.parse_decimal("0.1", RNE).unwrap(),
        (0x3dcc_cccd, false)
    );
    assert_eq!(
        Format::F32.parse_decimal("0.1", RTZ).unwrap(),
        (0x3dcc_cccc, false)
    );
    assert_eq!(
        Format::E4M3.parse_decimal("inf", RNE).unwrap(),
        (0x7f, false)
    );
    assert_eq!(
        Format::E5M2.parse_decimal("-inf", RNE).unwrap(),
        (0xfc, true)
    );
    assert_eq!(
        Format::F16.parse_decimal("-0", RNE).unwrap(),
        (0x8000, true)
    );
    assert_eq!(Format::F16.parse_decimal("65520", RNE).unwrap().0, 0x7c00);
    for bad in ["", "1.2.3", "abc", "1e99999", "--1", "0x10"] {
        assert!(Format::F16.parse_decimal(bad, RNE).is_err(), "{bad}");
    }
    // 1/3 in f16: 0x3555 (0.333251953125), RTP 0x3556.
    let (one, three) = (BigUint::from(1u32), BigUint::from(3u32));
    assert_eq!(
        Format::F16
            .round_ratio(false, &one, &three, RNE, false)
            .unwrap(),
        0x3555
    );
    assert_eq!(
        Format::F16
            .round_ratio(false, &one, &three, RTP, false)
            .unwrap(),
        0x3556
    );
    assert!(
        Format::F16
            .round_ratio(false, &one, &BigUint::from(0u32), RNE, false)
            .is_err()
    );
}

#[test]
fn names_parse_and_bits_are_checked() {
    for f in Format::ALL {
        assert_eq!(f.name().parse::<Format>().unwrap(), f);
    }
    assert_eq!("hf8".parse::<Format>().unwrap(), Format::E4M3);
    assert!("f8".parse::<Format>().is_err());
    for m in RoundingMode::ALL {
        assert_eq!(m.name().parse::<RoundingMode>().unwrap(), m);
    }
    assert!(Format::F16.check_bits(0x1_0000).is_err());
    assert!(Format::E4M3.check_bits(0xff).is_ok());
}

#[test]
fn extreme_exponents_do_not_overflow() {
    let one = BigUint::from(1u32);
    for f in Format::ALL {
        assert_eq!(
            f.round_u128(false, 1, i64::MAX, RNE, false),
            f.encode(&Format::F64.decode(f64::INFINITY.to_bits()), RNE, false)
        );
        assert_eq!(
            f.round_u128(true, 3, i64::MAX, RTZ, false),
            f.max_finite(true)
        );
        assert_eq!(f.round_u128(false, 1, i64::MIN, RNE, false), f.zero(false));
        assert_eq!(
            f.round_u128(false, 1, i64::MIN, RTP, false),
            f.min_subnormal(false)
        );
        assert_eq!(
            f.round_u128(true, 1, -(1 << 50), RTN, false),
            f.min_subnormal(true)
        );
        assert_eq!(
            f.round_biguint(false, &(&one << 300u32), i64::MAX - 10, RNE, true),
            f.max_finite(false)
        );
        assert_eq!(
            f.round_biguint_sticky(true, &BigUint::from(0u32), 5, true, RNE, false),
            f.zero(true)
        );
    }
    assert!(
        Format::F16
            .parse_decimal("1e-9223372036854775808", RNE)
            .is_err()
    );
    assert!(
        Format::F16
            .parse_decimal("1e9223372036854775807", RNE)
            .is_err()
    );
}
