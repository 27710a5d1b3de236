//! DPAS operand precisions: vISA binary codes, text names, element widths and OPS_PER_CHAN.

use std::fmt;
use std::str::FromStr;

use super::DpasError;
use crate::float::Format;

/// An operand precision of vISA DPAS (the W and A fields).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Precision {
    /// Unsigned 1-bit, [0, 1].
    U1,
    /// Signed 1-bit, [-1, 0].
    S1,
    /// Unsigned 2-bit, [0, 3].
    U2,
    /// Signed 2-bit, [-2, 1].
    S2,
    /// Unsigned 4-bit, [0, 15].
    U4,
    /// Signed 4-bit, [-8, 7].
    S4,
    /// Unsigned 8-bit, [0, 255].
    U8,
    /// Signed 8-bit, [-128, 127].
    S8,
    /// bfloat16 (text `bf`).
    Bf16,
    /// IEEE half (text `hf`).
    Fp16,
    /// TensorFloat-32 (1-8-10) in a 32-bit fp32-layout container.
    Tf32,
    /// fp8 E5M2 (text `bf8`).
    Bf8,
    /// fp8 E4M3, no infinities (text `hf8`).
    Hf8,
    /// IEEE binary64 (text `df`): one element per 64-bit channel. Xe3P only, behind IGC's
    /// `EnableFP64Dpas` flag; it has no `GenPrecision` code (IGC's builtin-level
    /// `PrecisionType::DF` is 9, which is bf's code in the vISA binary).
    Df,
}

impl Precision {
    /// Every precision, in code order.
    pub const ALL: [Precision; 14] = [
        Precision::U1,
        Precision::S1,
        Precision::U2,
        Precision::S2,
        Precision::U4,
        Precision::S4,
        Precision::U8,
        Precision::S8,
        Precision::Bf16,
        Precision::Fp16,
        Precision::Bf8,
        Precision::Tf32,
        Precision::Hf8,
        Precision::Df,
    ];

    /// The binary code of IGC's `GenPrecision` (u1=1 … s8=8, bf=9, hf=10, bf8=11, tf32=12,
    /// hf8=14). DPAS.md's table gives tf32 as 0x0b in newer revisions; the code uses 12.
    /// `None` for df, which has no `GenPrecision` code (reference/dpas.md §4).
    pub const fn code(self) -> Option<u8> {
        Some(match self {
            Precision::U1 => 1,
            Precision::S1 => 2,
            Precision::U2 => 3,
            Precision::S2 => 4,
            Precision::U4 => 5,
            Precision::S4 => 6,
            Precision::U8 => 7,
            Precision::S8 => 8,
            Precision::Bf16 => 9,
            Precision::Fp16 => 10,
            Precision::Bf8 => 11,
            Precision::Tf32 => 12,
            Precision::Hf8 => 14,
            Precision::Df => return None,
        })
    }

    /// The precision with a `GenPrecision` code.
    pub fn from_code(code: u8) -> Result<Precision, DpasError> {
        Precision::ALL
            .into_iter()
            .find(|p| p.code() == Some(code))
            .ok_or(DpasError::UnknownPrecisionCode(code))
    }

    /// The vISA text name (`u1` … `s8`, `bf`, `hf`, `tf32`, `bf8`, `hf8`).
    pub const fn name(self) -> &'static str {
        match self {
            Precision::U1 => "u1",
            Precision::S1 => "s1",
            Precision::U2 => "u2",
            Precision::S2 => "s2",
            Precision::U4 => "u4",
            Precision::S4 => "s4",
            Precision::U8 => "u8",
            Precision::S8 => "s8",
            Precision::Bf16 => "bf",
            Precision::Fp16 => "hf",
            Precision::Tf32 => "tf32",
            Precision::Bf8 => "bf8",
            Precision::Hf8 => "hf8",
            Precision::Df => "df",
        }
    }

    /// Bits one element occupies in its channel (tf32: the whole 32-bit container; df: a
    /// 64-bit channel).
    pub const fn bits(self) -> u32 {
        match self {
            Precision::U1 | Precision::S1 => 1,
            Precision::U2 | Precision::S2 => 2,
            Precision::U4 | Precision::S4 => 4,
            Precision::U8 | Precision::S8 | Precision::Bf8 | Precision::Hf8 => 8,
            Precision::Bf16 | Precision::Fp16 => 16,
            Precision::Tf32 => 32,
            Precision::Df => 64,
        }
    }

    /// Elements per 32-bit channel (0 for df, whose elements need a 64-bit channel).
    pub const fn per_channel(self) -> u32 {
        32 / self.bits()
    }

    /// Whether this is df (64-bit elements in 64-bit channels, a 64-bit accumulator).
    pub const fn is_df(self) -> bool {
        matches!(self, Precision::Df)
    }

    /// Whether this is an integer precision.
    pub const fn is_integer(self) -> bool {
        matches!(
            self,
            Precision::U1
                | Precision::S1
                | Precision::U2
                | Precision::S2
                | Precision::U4
                | Precision::S4
                | Precision::U8
                | Precision::S8
        )
    }

    /// Whether integer elements are sign-extended (s1, s2, s4, s8).
    pub const fn is_signed_integer(self) -> bool {
        matches!(
            self,
            Precision::S1 | Precision::S2 | Precision::S4 | Precision::S8
        )
    }

    /// The float format of a float precision (`None` for integers). Tf32 maps to
    /// [`Format::TF32`], which ignores the low 13 container bits.
    pub const fn float_format(self) -> Option<Format> {
        match self {
            Precision::Bf16 => Some(Format::BF16),
            Precision::Fp16 => Some(Format::F16),
            Precision::Tf32 => Some(Format::TF32),
            Precision::Bf8 => Some(Format::E5M2),
            Precision::Hf8 => Some(Format::E4M3),
            Precision::Df => Some(Format::F64),
            _ => None,
        }
    }
}

impl fmt::Display for Precision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Precision {
    type Err = DpasError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Precision::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| DpasError::UnknownPrecisionName(s.to_string()))
    }
}

/// OPS_PER_CHAN of a DPAS with these Src1 (B) and Src2 (A) precisions: 1 for tf32 and df, 2
/// for bf/hf, 4 for fp8 or when either integer precision is 8-bit, otherwise 8 (sub-byte
/// integers, including u1/s1). Errors for combinations DPAS.md does not list (integer with
/// float, bf with hf, tf32 with anything else, fp8 with non-fp8, df with anything but df).
/// df's 1 is spvx's reading (DPAS.md's list has no 64-bit entry): one 64-bit element per
/// 64-bit channel and stage, as tf32 has one 32-bit element per 32-bit channel.
pub fn ops_per_chan(src1: Precision, src2: Precision) -> Result<u32, DpasError> {
    use Precision::*;
    let illegal = Err(DpasError::IllegalCombination { src1, src2 });
    if src1.is_integer() != src2.is_integer() {
        return illegal;
    }
    if src1.is_integer() {
        return Ok(if src1.bits() == 8 || src2.bits() == 8 {
            4
        } else {
            8
        });
    }
    match (src1, src2) {
        (Tf32, Tf32) | (Df, Df) => Ok(1),
        (Bf16, Bf16) | (Fp16, Fp16) => Ok(2),
        (Bf8 | Hf8, Bf8 | Hf8) => Ok(4),
        _ => illegal,
    }
}
