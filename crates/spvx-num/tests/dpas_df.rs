//! df (fp64) DPAS dot products: hand-computed vectors for each model, and the error cases.

use spvx_num::dpas::{DpasError, FloatModel, Precision, df_dot, extract_float, ops_per_chan};

fn m(name: &str) -> FloatModel {
    FloatModel::named(name).unwrap()
}

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// x = 1 + 2^-30: x·x = 1 + 2^-29 + 2^-60 exactly. With acc = -(1 + 2^-29) one fused stage
/// leaves 2^-60; rounding the product first loses it.
#[test]
fn fused_rounded_exact_by_hand() {
    let x = 1.0 + 2f64.powi(-30);
    let acc = (-(1.0 + 2f64.powi(-29))).to_bits();
    let (b, a) = (bits(&[x]), bits(&[x]));
    assert_eq!(
        df_dot(acc, &b, &a, &m("emulator")),
        Ok(2f64.powi(-60).to_bits())
    );
    assert_eq!(df_dot(acc, &b, &a, &m("df-rounded")), Ok(0));
    assert_eq!(
        df_dot(acc, &b, &a, &m("exact")),
        Ok(2f64.powi(-60).to_bits())
    );
}

/// Sequential versus one rounding: 2^53 + 1 + 1 is 2^53 stage by stage (each +1 is a tie
/// rounded to even) but 2^53 + 2 exactly rounded once.
#[test]
fn sequential_versus_exact_by_hand() {
    let acc = 2f64.powi(53).to_bits();
    let (b, a) = (bits(&[1.0, 1.0]), bits(&[1.0, 1.0]));
    assert_eq!(
        df_dot(acc, &b, &a, &m("emulator")),
        Ok(2f64.powi(53).to_bits())
    );
    assert_eq!(
        df_dot(acc, &b, &a, &m("exact")),
        Ok((2f64.powi(53) + 2.0).to_bits())
    );
    // Mesa order: products first from +0 (1 + 1 = 2), accumulator last: 2^53 + 2.
    assert_eq!(
        df_dot(acc, &b, &a, &m("mesa")),
        Ok((2f64.powi(53) + 2.0).to_bits())
    );
}

#[test]
fn specials_and_denormals() {
    // Denormals are kept under every model, bf-tf-ftz included: 2^-1074 · 1.
    let tiny = bits(&[f64::from_bits(1)]);
    let one = bits(&[1.0]);
    assert_eq!(df_dot(0, &tiny, &one, &m("bf-tf-ftz")), Ok(1));
    // inf · 0 is the canonical NaN; a NaN payload is not carried.
    let nan = 0x7ff8_0000_0000_0000;
    assert_eq!(
        df_dot(0, &bits(&[f64::INFINITY]), &bits(&[0.0]), &m("emulator")),
        Ok(nan)
    );
    assert_eq!(
        df_dot(0x7ff0_0000_0000_0001, &one, &one, &m("exact")),
        Ok(nan)
    );
    // -0 + (+0)(+0) = +0 under RNE; a null Src0 is +0.
    assert_eq!(
        df_dot((-0.0f64).to_bits(), &bits(&[0.0]), &one, &m("emulator")),
        Ok(0)
    );
}

#[test]
fn df_rules() {
    assert_eq!(ops_per_chan(Precision::Df, Precision::Df), Ok(1));
    assert!(ops_per_chan(Precision::Df, Precision::Tf32).is_err());
    assert!(ops_per_chan(Precision::Bf16, Precision::Df).is_err());
    assert_eq!(Precision::Df.code(), None);
    assert_eq!("df".parse::<Precision>(), Ok(Precision::Df));
    assert!(matches!(
        extract_float(0, Precision::Df, 0),
        Err(DpasError::WideElement { .. })
    ));
    assert_eq!(
        df_dot(0, &[1], &[], &m("emulator")),
        Err(DpasError::LengthMismatch { src1: 1, src2: 0 })
    );
}
