//! Vendor profiles (`--profile NAME` in `spvx run`, `diff` and `conform`): where a
//! specification leaves freedom, what known hardware does, as engine settings. Each profile
//! names its public source, says which of its settings are confirmed by that source and
//! which are spvx's nearest model of what the source describes, and is listed in
//! docs/semantics/comparison.md ("Vendor profiles").
//!
//! Today the freedoms profiles set are those of SPV_VALVE_mixed_float_dot_product
//! (accumulation model and subnormal flushing, spvx-num's `mixdot::ModelConfig`).

use spvx_exec::RunConfig;
use spvx_num::mixdot::{Model, ModelConfig};

/// One profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Profile {
    pub name: &'static str,
    /// The hardware, in a few words.
    pub hardware: &'static str,
    /// The VALVE mixed dot product model it sets.
    pub mixdot: ModelConfig,
    /// What the public source confirms.
    pub confirmed: &'static str,
    /// What spvx models without confirmation (empty: nothing).
    pub unconfirmed: &'static str,
    /// The public sources.
    pub sources: &'static str,
}

const fn model(model: Model, flush_inputs: bool, flush_outputs: bool) -> ModelConfig {
    let mut m = ModelConfig::new(model);
    m.flush_input_denormals = flush_inputs;
    m.flush_output_denormals = flush_outputs;
    m
}

/// Every profile.
pub const PROFILES: &[Profile] = &[
    Profile {
        name: "amd-cdna2",
        hardware: "AMD CDNA2 (gfx90a: MI200, MI250X), v_dot2c_f32_f16",
        mixdot: model(Model::SequentialAccFirst, true, true),
        confirmed: "f16 subnormal inputs are flushed to zero in every MODE setting (hardware testing reported in LLVM); V_DOT2 flushes input and output denormals on MI250X (OLCF user guide)",
        unconfirmed: "the accumulation order and rounding: the ISA pseudocode order (accumulator first, then each product), each step rounded to nearest even",
        sources: "llvm/llvm-project PR #205101 \"[AMDGPU] Fix performFMACombine FDOT2 fold for subnormal handling\"; olcf/olcf-user-docs PR #478",
    },
    Profile {
        name: "amd-rdna3",
        hardware: "AMD RDNA3 (gfx11: gfx1100, gfx1151), v_dot2_f32_f16",
        mixdot: model(Model::Exact, false, true),
        confirmed: "f16 subnormal inputs are kept (LLVM PR #205101: only gfx90a flushes them); one rounding to nearest even of the sum; no f32 subnormal results (ROCm rocm-systems issue #12056, rocjitsu's gfx11 model)",
        unconfirmed: "the truncation of every term to one alignment grid before the rounding, the bf16-only input flushing and the fixed NaN patterns are not modelled: spvx's nearest model is the exact sum rounded once, with subnormal results flushed",
        sources: "llvm/llvm-project PR #205101; ROCm/rocm-systems issue #12056; bjacob/goc src/gfx11_dot2.h (from rocjitsu)",
    },
    Profile {
        name: "amd-rdna4",
        hardware: "AMD RDNA4 (gfx12: gfx1201), v_dot2_f32_f16",
        mixdot: model(Model::Exact, false, false),
        confirmed: "subnormal inputs and results are preserved; one rounding to nearest even (rocjitsu's gfx12 model, \"characterized on gfx1201\")",
        unconfirmed: "the floor alignment of the pair sum and the accumulator before the rounding is not modelled: spvx's nearest model is the exact sum rounded once",
        sources: "bjacob/goc gfx12_dot.h (from rocjitsu); llvm/llvm-project PR #205101",
    },
];

/// A profile name that is not one of [`PROFILES`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("--profile {name}: no such profile; the profiles are {}", names())]
pub struct UnknownProfile {
    pub name: String,
}

fn names() -> String {
    PROFILES
        .iter()
        .map(|p| p.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The profile called `name` (any case).
pub fn find(name: &str) -> Result<&'static Profile, UnknownProfile> {
    PROFILES
        .iter()
        .find(|p| p.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| UnknownProfile { name: name.into() })
}

/// Sets `config` as profile `name` says.
pub fn apply(name: &str, config: &mut RunConfig) -> Result<&'static Profile, UnknownProfile> {
    let p = find(name)?;
    config.mixdot = p.mixdot;
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_are_found_by_name_and_set_the_model() {
        let mut c = RunConfig::default();
        let p = apply("AMD-CDNA2", &mut c).unwrap();
        assert_eq!(p.name, "amd-cdna2");
        assert_eq!(c.mixdot.model, Model::SequentialAccFirst);
        assert!(c.mixdot.flush_input_denormals);
        let e = find("nv").unwrap_err().to_string();
        assert!(e.contains("amd-cdna2, amd-rdna3, amd-rdna4"), "{e}");
        for p in PROFILES {
            assert!(
                !p.sources.is_empty() && !p.confirmed.is_empty(),
                "{}",
                p.name
            );
        }
    }
}
