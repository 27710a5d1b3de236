//! The register data types of DPAS operands: D, UD, F (32-bit) and BF, HF (16-bit) for Dst
//! and Src0; D or UD for Src1 and Src2, whose elements are given by the precisions instead; DF
//! (64-bit) for all four operands of a df DPAS.

use std::fmt;
use std::str::FromStr;

/// A register operand type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DataType {
    /// Signed 32-bit integer.
    D,
    /// Unsigned 32-bit integer.
    Ud,
    /// fp32.
    F,
    /// bfloat16.
    Bf,
    /// IEEE half.
    Hf,
    /// fp64 (df DPAS only, Xe3P).
    Df,
}

impl DataType {
    /// Every type.
    pub const ALL: [DataType; 6] = [
        DataType::D,
        DataType::Ud,
        DataType::F,
        DataType::Bf,
        DataType::Hf,
        DataType::Df,
    ];

    /// The text name (`d`, `ud`, `f`, `bf`, `hf`, `df`), as in operand suffixes `r4.0:f`.
    pub const fn name(self) -> &'static str {
        match self {
            DataType::D => "d",
            DataType::Ud => "ud",
            DataType::F => "f",
            DataType::Bf => "bf",
            DataType::Hf => "hf",
            DataType::Df => "df",
        }
    }

    /// Size of one element in bytes.
    pub const fn size(self) -> u32 {
        match self {
            DataType::D | DataType::Ud | DataType::F => 4,
            DataType::Bf | DataType::Hf => 2,
            DataType::Df => 8,
        }
    }

    /// Whether this is D or UD.
    pub const fn is_integer(self) -> bool {
        matches!(self, DataType::D | DataType::Ud)
    }
}

impl fmt::Display for DataType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A type name that is not one of `d ud f bf hf df`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown operand type `{0}` (expected d, ud, f, bf, hf or df)")]
pub struct UnknownType(pub String);

impl FromStr for DataType {
    type Err = UnknownType;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lower = s.to_ascii_lowercase();
        DataType::ALL
            .into_iter()
            .find(|t| t.name() == lower)
            .ok_or_else(|| UnknownType(s.to_string()))
    }
}
