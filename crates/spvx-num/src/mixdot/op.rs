//! The three operations and their input encodings.

use super::error::MixdotError;
use crate::float::Format;
use std::fmt;
use std::str::FromStr;

/// The three instructions of SPV_VALVE_mixed_float_dot_product.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MixOp {
    /// `OpFDot2MixAcc32VALVE` (6916): 2×(f16 or bf16) → f32 with f32 accumulator.
    Dot2Acc32,
    /// `OpFDot2MixAcc16VALVE` (6917): 2×(f16 or bf16) → same 16-bit type, same accumulator.
    Dot2Acc16,
    /// `OpFDot4MixAcc32VALVE` (6918): 4×(E4M3 or E5M2, per vector) → f32 with f32 accumulator.
    Dot4Acc32,
}

impl MixOp {
    /// All operations.
    pub const ALL: [MixOp; 3] = [MixOp::Dot2Acc32, MixOp::Dot2Acc16, MixOp::Dot4Acc32];
    /// CLI name: `dot2acc32`, `dot2acc16`, `dot4acc32`.
    pub const fn name(&self) -> &'static str {
        match self {
            MixOp::Dot2Acc32 => "dot2acc32",
            MixOp::Dot2Acc16 => "dot2acc16",
            MixOp::Dot4Acc32 => "dot4acc32",
        }
    }
    /// SPIR-V opcode.
    pub const fn opcode(&self) -> u32 {
        match self {
            MixOp::Dot2Acc32 => 6916,
            MixOp::Dot2Acc16 => 6917,
            MixOp::Dot4Acc32 => 6918,
        }
    }
    /// Number of vector components (2 or 4).
    pub const fn lanes(&self) -> usize {
        match self {
            MixOp::Dot2Acc32 | MixOp::Dot2Acc16 => 2,
            MixOp::Dot4Acc32 => 4,
        }
    }
}

impl fmt::Display for MixOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for MixOp {
    type Err = MixdotError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        MixOp::ALL
            .into_iter()
            .find(|o| o.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| MixdotError::UnknownOp(s.to_string()))
    }
}

/// 16-bit input encodings of the Dot2 operations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Half16Encoding {
    /// IEEE binary16.
    F16,
    /// bfloat16 (`BFloat16KHR`).
    Bf16,
}

/// 8-bit input encodings of the Dot4 operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Fp8Encoding {
    /// `Float8E4M3EXT` (OCP E4M3FN).
    E4m3,
    /// `Float8E5M2EXT`.
    E5m2,
}

/// Any input encoding, as named on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// IEEE binary16 (`f16`).
    F16,
    /// bfloat16 (`bf16`).
    Bf16,
    /// fp8 E4M3 (`e4m3`).
    E4m3,
    /// fp8 E5M2 (`e5m2`).
    E5m2,
}

impl Half16Encoding {
    /// The float format.
    pub const fn format(&self) -> Format {
        match self {
            Half16Encoding::F16 => Format::F16,
            Half16Encoding::Bf16 => Format::BF16,
        }
    }
}

impl Fp8Encoding {
    /// The float format.
    pub const fn format(&self) -> Format {
        match self {
            Fp8Encoding::E4m3 => Format::E4M3,
            Fp8Encoding::E5m2 => Format::E5M2,
        }
    }
}

impl Encoding {
    /// All encodings.
    pub const ALL: [Encoding; 4] = [
        Encoding::F16,
        Encoding::Bf16,
        Encoding::E4m3,
        Encoding::E5m2,
    ];
    /// CLI name: `f16`, `bf16`, `e4m3`, `e5m2`.
    pub const fn name(&self) -> &'static str {
        match self {
            Encoding::F16 => "f16",
            Encoding::Bf16 => "bf16",
            Encoding::E4m3 => "e4m3",
            Encoding::E5m2 => "e5m2",
        }
    }
    /// The float format.
    pub const fn format(&self) -> Format {
        match self {
            Encoding::F16 => Format::F16,
            Encoding::Bf16 => Format::BF16,
            Encoding::E4m3 => Format::E4M3,
            Encoding::E5m2 => Format::E5M2,
        }
    }
    /// The 16-bit encoding, if this is one.
    pub const fn half16(&self) -> Option<Half16Encoding> {
        match self {
            Encoding::F16 => Some(Half16Encoding::F16),
            Encoding::Bf16 => Some(Half16Encoding::Bf16),
            _ => None,
        }
    }
    /// The 8-bit encoding, if this is one.
    pub const fn fp8(&self) -> Option<Fp8Encoding> {
        match self {
            Encoding::E4m3 => Some(Fp8Encoding::E4m3),
            Encoding::E5m2 => Some(Fp8Encoding::E5m2),
            _ => None,
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Encoding {
    type Err = MixdotError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Encoding::ALL
            .into_iter()
            .find(|e| e.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| MixdotError::UnknownEncoding(s.to_string()))
    }
}
