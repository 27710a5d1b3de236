//! Quantization and overflow modes, numbered as in the SPIR-V tables 3.16b and 3.16c.
//!
//! The SPIR-V numbering differs from ac_types' C++ `ac_q_mode` enum: SPIR-V 1 is TRN_ZERO and 2
//! is RND, while in C++ `AC_RND` = 1 and `AC_TRN_ZERO` = 2 (reference/acfixed.md §0.1).

use super::FixedError;

/// Quantization mode (SPIR-V table 3.16b). All round-to-nearest modes differ only in ties.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Quantization {
    /// 0: truncate toward −∞ (floor).
    Trn = 0,
    /// 1: truncate toward 0.
    TrnZero = 1,
    /// 2: nearest, ties toward +∞.
    Rnd = 2,
    /// 3: nearest, ties toward 0.
    RndZero = 3,
    /// 4: nearest, ties away from 0.
    RndInf = 4,
    /// 5: nearest, ties toward −∞.
    RndMinInf = 5,
    /// 6: nearest, ties to even.
    RndConv = 6,
    /// 7: nearest, ties to odd.
    RndConvOdd = 7,
}

impl Quantization {
    /// All eight modes in SPIR-V order.
    pub const ALL: [Quantization; 8] = [
        Quantization::Trn,
        Quantization::TrnZero,
        Quantization::Rnd,
        Quantization::RndZero,
        Quantization::RndInf,
        Quantization::RndMinInf,
        Quantization::RndConv,
        Quantization::RndConvOdd,
    ];

    /// The mode with SPIR-V operand value `v`.
    pub fn from_spirv(v: u32) -> Result<Self, FixedError> {
        Self::ALL
            .get(v as usize)
            .copied()
            .ok_or(FixedError::InvalidQuantization(v))
    }

    /// The SPIR-V operand value.
    pub fn spirv_value(self) -> u32 {
        self as u32
    }

    /// The mode named `name`, in any case: the SPIR-V name (`RND_CONV`, also with its
    /// `_INTEL` suffix) or ac_types' (`AC_RND_CONV`). The names are the same in both; only
    /// the numbers differ.
    pub fn from_name(name: &str) -> Option<Self> {
        let upper = name.to_ascii_uppercase();
        let bare = upper.strip_prefix("AC_").unwrap_or(&upper);
        let bare = bare.strip_suffix("_INTEL").unwrap_or(bare);
        Self::ALL.into_iter().find(|m| m.name() == bare)
    }

    /// A SPIR-V number or a name ([`Self::from_name`]).
    pub fn parse(text: &str) -> Result<Self, FixedError> {
        match text.parse::<u32>() {
            Ok(v) => Self::from_spirv(v),
            Err(_) => Self::from_name(text).ok_or_else(|| FixedError::UnknownModeName {
                what: "quantization",
                name: text.to_string(),
                example: "RND_CONV or AC_RND_CONV",
            }),
        }
    }

    /// The SPIR-V name without the `_INTEL` suffix.
    pub fn name(self) -> &'static str {
        match self {
            Quantization::Trn => "TRN",
            Quantization::TrnZero => "TRN_ZERO",
            Quantization::Rnd => "RND",
            Quantization::RndZero => "RND_ZERO",
            Quantization::RndInf => "RND_INF",
            Quantization::RndMinInf => "RND_MIN_INF",
            Quantization::RndConv => "RND_CONV",
            Quantization::RndConvOdd => "RND_CONV_ODD",
        }
    }
}

/// Overflow mode (SPIR-V table 3.16c; the same numbering as ac_types).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Overflow {
    /// 0: keep the low bits.
    Wrap = 0,
    /// 1: clamp to MIN or MAX.
    Sat = 1,
    /// 2: 0 on overflow.
    SatZero = 2,
    /// 3: signed: clamp to ±MAX (MIN itself also becomes −MAX); unsigned: as SAT.
    SatSym = 3,
}

impl Overflow {
    /// All four modes in SPIR-V order.
    pub const ALL: [Overflow; 4] = [
        Overflow::Wrap,
        Overflow::Sat,
        Overflow::SatZero,
        Overflow::SatSym,
    ];

    /// The mode with SPIR-V operand value `v`.
    pub fn from_spirv(v: u32) -> Result<Self, FixedError> {
        Self::ALL
            .get(v as usize)
            .copied()
            .ok_or(FixedError::InvalidOverflow(v))
    }

    /// The SPIR-V operand value.
    pub fn spirv_value(self) -> u32 {
        self as u32
    }

    /// The mode named `name`, in any case: the SPIR-V name (`SAT_SYM`, also with its
    /// `_INTEL` suffix) or ac_types' (`AC_SAT_SYM`). The names are the same in both; only
    /// the numbers differ.
    pub fn from_name(name: &str) -> Option<Self> {
        let upper = name.to_ascii_uppercase();
        let bare = upper.strip_prefix("AC_").unwrap_or(&upper);
        let bare = bare.strip_suffix("_INTEL").unwrap_or(bare);
        Self::ALL.into_iter().find(|m| m.name() == bare)
    }

    /// A SPIR-V number or a name ([`Self::from_name`]).
    pub fn parse(text: &str) -> Result<Self, FixedError> {
        match text.parse::<u32>() {
            Ok(v) => Self::from_spirv(v),
            Err(_) => Self::from_name(text).ok_or_else(|| FixedError::UnknownModeName {
                what: "overflow",
                name: text.to_string(),
                example: "SAT_SYM or AC_SAT_SYM",
            }),
        }
    }

    /// The SPIR-V name without the `_INTEL` suffix.
    pub fn name(self) -> &'static str {
        match self {
            Overflow::Wrap => "WRAP",
            Overflow::Sat => "SAT",
            Overflow::SatZero => "SAT_ZERO",
            Overflow::SatSym => "SAT_SYM",
        }
    }
}

/// Reads the SPIR-V signedness operand (table 3.16d): 0 unsigned, 1 signed.
pub fn signedness_from_spirv(v: u32) -> Result<bool, FixedError> {
    match v {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(FixedError::InvalidSignedness(v)),
    }
}
