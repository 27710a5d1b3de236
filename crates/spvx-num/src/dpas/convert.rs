//! Conversions between the fp32 DPAS accumulator and BF/HF Src0/Dst values (PVC and later allow
//! BF or HF accumulators).

use crate::float::{Format, RoundingMode, convert};

/// How an fp32 accumulator is converted to a bf16 Dst.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum BfOutputRounding {
    /// IEEE round-to-nearest-even (the inferred hardware default, CR0 rounding mode RNE); NaN
    /// stays NaN.
    #[default]
    NearestEven,
    /// The CM/ESIMD emulators: the RNE bit trick only for normal fp32 values; zero, denormal,
    /// infinity and NaN are truncated to their top 16 bits (a NaN with payload only in the low
    /// 16 bits thus becomes infinity).
    EmulatorNormalOnly,
}

/// Widens a bf16 Src0 element to the fp32 accumulator (exact: the pattern shifted left by 16).
pub fn bf16_to_acc(bits: u16) -> u32 {
    u32::from(bits) << 16
}

/// Widens an fp16 Src0 element to the fp32 accumulator (exact).
pub fn fp16_to_acc(bits: u16) -> u32 {
    convert(
        Format::F16,
        u64::from(bits),
        Format::F32,
        RoundingMode::NearestEven,
        false,
    ) as u32
}

/// Converts the fp32 accumulator to an fp16 Dst: round to nearest even, no saturation
/// (overflow gives infinity; the emulators never saturate DPAS).
pub fn acc_to_fp16(acc: u32) -> u16 {
    convert(
        Format::F32,
        u64::from(acc),
        Format::F16,
        RoundingMode::NearestEven,
        false,
    ) as u16
}

/// Converts the fp32 accumulator to a bf16 Dst under `rounding`.
pub fn acc_to_bf16(acc: u32, rounding: BfOutputRounding) -> u16 {
    match rounding {
        BfOutputRounding::NearestEven => convert(
            Format::F32,
            u64::from(acc),
            Format::BF16,
            RoundingMode::NearestEven,
            false,
        ) as u16,
        BfOutputRounding::EmulatorNormalOnly => {
            let exponent = (acc >> 23) & 0xff;
            if exponent == 0 || exponent == 0xff {
                (acc >> 16) as u16
            } else {
                // Round half to even on bit 16: add 0x7fff plus the lowest kept bit.
                let rounded = acc.wrapping_add(0x7fff + ((acc >> 16) & 1));
                (rounded >> 16) as u16
            }
        }
    }
}
