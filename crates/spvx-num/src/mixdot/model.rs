//! The named accumulation models and their switches (reference/mixedfloat.md §5).

use super::error::MixdotError;
use crate::float::RoundingMode;
use std::fmt;
use std::str::FromStr;

/// How the products and the accumulator are combined. In every model the inputs are first
/// decoded exactly (every input value is exact in the result type of the Acc32 operations, so the
/// spec's "converted to Result Type" step never rounds). `n` = 2 or 4 lanes, `p_i = a_i × b_i`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Model {
    /// `exact` (default): `round(acc + Σ p_i)` computed exactly, rounded once to the result type.
    /// Order-free; the value every other model approximates (mixedfloat.md §5.1).
    #[default]
    Exact,
    /// `sequential`: the spec text taken literally, in the order it lists: each product rounded
    /// to the result type, summed left to right (`((p_0 + p_1) + p_2) + p_3`, each add rounded),
    /// then the accumulator added (rounded): `(p_0 + p_1) + acc` for Dot2 (mixedfloat.md §5.3b;
    /// the dxil-spirv fallback order and the AMD `v_dot2_f16_f16` pseudocode order).
    Sequential,
    /// `sequential-acc-first`: products rounded, added to the accumulator one at a time from
    /// lane 0 (`((acc + p_0) + p_1) + ...`, each add rounded): the AMD ISA pseudocode order of
    /// `v_dot2_f32_f16` and `v_dot4_f32_fp8_fp8` (mixedfloat.md §5.3a).
    SequentialAccFirst,
    /// `fused-products`: `round(round(Σ p_i) + acc)`: exact products summed with one rounding,
    /// then added to the accumulator with a second rounding (Arm BFDOT with FEAT_EBF16,
    /// mixedfloat.md §5.2).
    FusedProducts,
    /// `fma-chain`: `acc = fma(a_i, b_i, acc)` for i = 0, 1, ... in the result type, each fma
    /// rounded once (Intel VDPBF16PS, the goc/rocjitsu "loose" fp8 model; mixedfloat.md §5.3c).
    FmaChain,
}

impl Model {
    /// All models.
    pub const ALL: [Model; 5] = [
        Model::Exact,
        Model::Sequential,
        Model::SequentialAccFirst,
        Model::FusedProducts,
        Model::FmaChain,
    ];
    /// CLI name.
    pub const fn name(&self) -> &'static str {
        match self {
            Model::Exact => "exact",
            Model::Sequential => "sequential",
            Model::SequentialAccFirst => "sequential-acc-first",
            Model::FusedProducts => "fused-products",
            Model::FmaChain => "fma-chain",
        }
    }
}

impl fmt::Display for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Model {
    type Err = MixdotError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Model::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| MixdotError::UnknownModel(s.to_string()))
    }
}

/// A model with its switches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ModelConfig {
    /// The accumulation model.
    pub model: Model,
    /// Treat subnormal inputs (vector components, in their own 16- or 8-bit format, and the
    /// accumulator, in the result format) as zero of the same sign.
    pub flush_input_denormals: bool,
    /// Replace every rounded value that is subnormal in the result format (the final result, and
    /// in the non-exact models every rounded intermediate) by zero of the same sign.
    pub flush_output_denormals: bool,
    /// Direction of every rounding (default round-to-nearest-even).
    pub rounding: RoundingMode,
}

impl ModelConfig {
    /// The given model with no flushing and round-to-nearest-even.
    pub const fn new(model: Model) -> ModelConfig {
        ModelConfig {
            model,
            flush_input_denormals: false,
            flush_output_denormals: false,
            rounding: RoundingMode::NearestEven,
        }
    }
}
