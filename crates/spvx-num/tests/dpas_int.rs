//! DPAS integer element arithmetic against independent references written here: the operand
//! precision table of DPAS.md (codes, text names, value ranges), element extraction recomputed
//! with division and modulo on `i64`, and dot steps recomputed in exact `i64` arithmetic reduced
//! modulo 2^32.

use proptest::prelude::*;
use spvx_num::dpas::{
    DpasError, PackedRun, Precision, extract_int, int_dot, int_dot_step, ops_per_chan,
};

/// DPAS.md's table (binary format, text, range) plus the codes of IGC's GenPrecision for bf8,
/// tf32 and hf8 (reference/dpas.md §1: u1=1 … s8=8, bf=9, hf=10, bf8=11, tf32=12, hf8=14).
const TABLE: [(u8, &str, i64, i64); 8] = [
    (0b0001, "u1", 0, 1),
    (0b0010, "s1", -1, 0),
    (0b0011, "u2", 0, 3),
    (0b0100, "s2", -2, 1),
    (0b0101, "u4", 0, 15),
    (0b0110, "s4", -8, 7),
    (0b0111, "u8", 0, 255),
    (0b1000, "s8", -128, 127),
];

fn int_precisions() -> Vec<Precision> {
    TABLE.iter().map(|t| t.1.parse().unwrap()).collect()
}

#[test]
fn precision_table_matches_dpas_md() {
    for (code, name, lo, hi) in TABLE {
        let p: Precision = name.parse().unwrap();
        assert_eq!(p.code(), Some(code));
        assert_eq!(Precision::from_code(code).unwrap(), p);
        // Every pattern of a one-element channel lands in the documented range, and both ends occur.
        let values: Vec<i64> = (0..(1u32 << p.bits()))
            .map(|pattern| extract_int(pattern, p, 0).unwrap() as i64)
            .collect();
        assert_eq!(*values.iter().min().unwrap(), lo, "{name}");
        assert_eq!(*values.iter().max().unwrap(), hi, "{name}");
    }
    for (code, name) in [
        (0b1001, "bf"),
        (0b1010, "hf"),
        (11, "bf8"),
        (12, "tf32"),
        (14, "hf8"),
    ] {
        assert_eq!(Precision::from_code(code).unwrap().name(), name);
        assert_eq!(name.parse::<Precision>().unwrap().code(), Some(code));
    }
    for bad in [0u8, 13, 15, 16, 255] {
        assert_eq!(
            Precision::from_code(bad),
            Err(DpasError::UnknownPrecisionCode(bad))
        );
    }
    assert!("e2m1".parse::<Precision>().is_err());
}

/// OPS_PER_CHAN rules quoted from DPAS.md: "1 : for TF32, 2 : for 16-bit precision(BF, HF),
/// 4 : for 8-bit precision (FP8, UB, B), 8 : for less-then 8 bit precision (U4/S4, U2/S2)";
/// and "} else if (Src1Precision == 8 || Src2Precision == 8) { OPS_PER_CHAN = 4;".
#[test]
fn ops_per_chan_follows_dpas_md() {
    use Precision::*;
    assert_eq!(ops_per_chan(Tf32, Tf32), Ok(1));
    assert_eq!(ops_per_chan(Bf16, Bf16), Ok(2));
    assert_eq!(ops_per_chan(Fp16, Fp16), Ok(2));
    assert_eq!(ops_per_chan(Bf8, Hf8), Ok(4));
    assert_eq!(ops_per_chan(U8, S8), Ok(4));
    assert_eq!(ops_per_chan(U8, U2), Ok(4));
    assert_eq!(ops_per_chan(S2, S8), Ok(4));
    assert_eq!(ops_per_chan(U4, S4), Ok(8));
    assert_eq!(ops_per_chan(U2, S4), Ok(8));
    assert!(ops_per_chan(Bf16, Fp16).is_err());
    assert!(ops_per_chan(U8, Bf16).is_err());
    assert!(ops_per_chan(Tf32, Bf16).is_err());
}

fn reference_element(dword: u32, bits: u32, signed: bool, k: u32) -> i64 {
    let v = (dword as i64 / (1i64 << (k * bits))) % (1i64 << bits);
    if signed && v >= 1i64 << (bits - 1) {
        v - (1i64 << bits)
    } else {
        v
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn extraction_matches_division(dword in any::<u32>()) {
        for p in int_precisions() {
            for k in 0..32 / p.bits() {
                let want = reference_element(dword, p.bits(), p.name().starts_with('s'), k);
                prop_assert_eq!(extract_int(dword, p, k).unwrap() as i64, want);
            }
            let out_of_range = extract_int(dword, p, 32 / p.bits());
            let is_range_error = matches!(out_of_range, Err(DpasError::ElementOutOfRange { .. }));
            prop_assert!(is_range_error);
        }
    }

    #[test]
    fn dot_steps_match_exact_sum(acc in any::<u32>(), b_dword in any::<u32>(), a_dword in any::<u32>(),
                                 b_slot in 0u32..8, a_slot in 0u32..8) {
        for pb in int_precisions() {
            for pa in int_precisions() {
                let ops = ops_per_chan(pb, pa).unwrap();
                // Runs start at a multiple of OPS that fits in the channel.
                let (b_runs, a_runs) = (pb.per_channel() / ops, pa.per_channel() / ops);
                let (bf, af) = ((b_slot % b_runs) * ops, (a_slot % a_runs) * ops);
                let mut exact = acc as i64;
                for j in 0..ops {
                    exact += reference_element(b_dword, pb.bits(), pb.name().starts_with('s'), bf + j)
                        * reference_element(a_dword, pa.bits(), pa.name().starts_with('s'), af + j);
                }
                let want = exact.rem_euclid(1i64 << 32) as u32;
                let got = int_dot_step(acc, PackedRun::new(b_dword, pb, bf), PackedRun::new(a_dword, pa, af)).unwrap();
                prop_assert_eq!(got, want, "{}x{} b@{} a@{}", pb, pa, bf, af);
            }
        }
    }

    #[test]
    fn int_dot_wraps_modulo_2_32(acc in any::<u32>(), v in prop::collection::vec((any::<i32>(), any::<i32>()), 0..40)) {
        let (b, a): (Vec<i32>, Vec<i32>) = v.into_iter().unzip();
        let exact: i128 = acc as i128 + b.iter().zip(&a).map(|(&x, &y)| x as i128 * y as i128).sum::<i128>();
        prop_assert_eq!(int_dot(acc, &b, &a).unwrap(), exact.rem_euclid(1i128 << 32) as u32);
    }
}

#[test]
fn hand_computed_steps() {
    // s8 channel 0x80FF0102 = elements (2, 1, -1, -128); u8 channel 0x02030405 = (5, 4, 3, 2):
    // 10 + 4 - 3 - 256 = -245.
    let b = PackedRun::new(0x80ff_0102, Precision::S8, 0);
    let a = PackedRun::new(0x0203_0405, Precision::U8, 0);
    assert_eq!(int_dot_step(0, b, a).unwrap(), (-245i32) as u32);
    // Wrapping, not saturating: 0x7fffffff + 4·127·127 = 0x8000FC03.
    let m = PackedRun::new(0x7f7f_7f7f, Precision::S8, 0);
    assert_eq!(int_dot_step(0x7fff_ffff, m, m).unwrap(), 0x8000_fc03);
    // u4 × s4 is a dot8: channel 0xFFFFFFFF as u4 is eight 15s, as s4 eight -1s: -120.
    let u = PackedRun::new(0xffff_ffff, Precision::U4, 0);
    let s = PackedRun::new(0xffff_ffff, Precision::S4, 0);
    assert_eq!(int_dot_step(100, u, s).unwrap(), (-20i32) as u32);
    // u8 × u2 is a dot4 (OPS 4); the u2 channel holds four runs; run 2 = elements 8..12 =
    // bits 16..24 of 0x00E4_0000 = 0b11_10_01_00 -> (0, 1, 2, 3); u8 (1, 2, 3, 4): 0+2+6+12 = 20.
    let u2 = PackedRun::new(0x00e4_0000, Precision::U2, 8);
    let u8v = PackedRun::new(0x0403_0201, Precision::U8, 0);
    assert_eq!(int_dot_step(0, u2, u8v).unwrap(), 20);
    // Runs that leave the channel are errors, not panics.
    assert!(matches!(
        int_dot_step(0, PackedRun::new(0, Precision::U2, 14), u8v),
        Err(DpasError::ElementOutOfRange { .. })
    ));
    assert!(matches!(
        int_dot_step(0, PackedRun::new(0, Precision::U8, 1), u8v),
        Err(DpasError::ElementOutOfRange { .. })
    ));
    assert!(matches!(
        int_dot_step(0, PackedRun::new(0, Precision::Bf16, 0), u8v),
        Err(DpasError::IllegalCombination { .. })
    ));
    assert!(matches!(
        int_dot(0, &[1, 2], &[1]),
        Err(DpasError::LengthMismatch { .. })
    ));
}
