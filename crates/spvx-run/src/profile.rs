//! Vendor profiles (`--profile NAME` in `spvx run`, `diff` and `conform`): where a
//! specification leaves freedom, what known hardware does, as engine settings. Each profile
//! names its public source, says which of its settings are confirmed by that source and
//! which are spvx's nearest model of what the source describes, and is listed in
//! docs/semantics/comparison.md ("Vendor profiles").
//!
//! The freedoms profiles set: those of SPV_VALVE_mixed_float_dot_product (accumulation model
//! and subnormal flushing, spvx-num's `mixdot::ModelConfig`; the AMD profiles) and which DPAS
//! runs OpSubgroupMatrixMultiplyAccumulateINTEL (the platform's rules and its bf16/tf32
//! denormal handling, spvx-exec's `DpasConfig`; the Intel profiles). A profile leaves what it
//! does not name at the run's setting.

use spvx_dpas::isa::ExecOptions;
use spvx_dpas::{FloatModel, Platform};
use spvx_exec::{DpasConfig, RunConfig};
use spvx_num::dpas::DenormalMode;
use spvx_num::mixdot::{Model, ModelConfig};

/// One profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Profile {
    pub name: &'static str,
    /// The hardware, in a few words.
    pub hardware: &'static str,
    /// The VALVE mixed dot product model it sets, if any.
    pub mixdot: Option<ModelConfig>,
    /// The DPAS of OpSubgroupMatrixMultiplyAccumulateINTEL it sets, if any.
    pub dpas: Option<DpasConfig>,
    /// What the public source confirms.
    pub confirmed: &'static str,
    /// What spvx models without confirmation (empty: nothing).
    pub unconfirmed: &'static str,
    /// The public sources.
    pub sources: &'static str,
}

const fn model(model: Model, flush_inputs: bool, flush_outputs: bool) -> Option<ModelConfig> {
    let mut m = ModelConfig::new(model);
    m.flush_input_denormals = flush_inputs;
    m.flush_output_denormals = flush_outputs;
    Some(m)
}

/// Intel's reference emulators' float model (sequential fp32, increasing k) on `platform`, with
/// bf16/tf32 denormals as `denormals` says (inputs and each rounded accumulator).
const fn dpas(platform: Platform, denormals: DenormalMode) -> Option<DpasConfig> {
    let mut model = FloatModel::EMULATOR;
    model.input_denormals = denormals;
    model.output_denormals = denormals;
    let options = ExecOptions {
        model,
        bf_rounding: spvx_dpas::BfOutputRounding::NearestEven,
    };
    Some(DpasConfig {
        platform: Some(platform),
        options,
    })
}

/// What the Intel profiles confirm and leave unconfirmed in common.
const INTEL_SOURCES: &str = "reference/dpas.md: intel/intel-graphics-compiler visa/HWCaps.inc, visa/IsaVerification.cpp, IGC/Compiler/CISACodeGen/Platform.hpp (exec size, legal types per platform); intel/llvm sycl/source/detail/device_info.hpp (joint-matrix combinations)";
const INTEL_ORDER: &str = "the accumulation order and precision: Intel's CM and ESIMD reference emulators' (fp32 sum rounded to nearest even after each product, in increasing k, accumulator first); the hardware's is not public";

/// Every profile.
pub const PROFILES: &[Profile] = &[
    Profile {
        name: "amd-cdna2",
        hardware: "AMD CDNA2 (gfx90a: MI200, MI250X), v_dot2c_f32_f16",
        mixdot: model(Model::SequentialAccFirst, true, true),
        dpas: None,
        confirmed: "f16 subnormal inputs are flushed to zero in every MODE setting (hardware testing reported in LLVM); V_DOT2 flushes input and output denormals on MI250X (OLCF user guide)",
        unconfirmed: "the accumulation order and rounding: the ISA pseudocode order (accumulator first, then each product), each step rounded to nearest even",
        sources: "llvm/llvm-project PR #205101 \"[AMDGPU] Fix performFMACombine FDOT2 fold for subnormal handling\"; olcf/olcf-user-docs PR #478",
    },
    Profile {
        name: "amd-rdna3",
        hardware: "AMD RDNA3 (gfx11: gfx1100, gfx1151), v_dot2_f32_f16",
        mixdot: model(Model::Exact, false, true),
        dpas: None,
        confirmed: "f16 subnormal inputs are kept (LLVM PR #205101: only gfx90a flushes them); one rounding to nearest even of the sum; no f32 subnormal results (ROCm rocm-systems issue #12056, rocjitsu's gfx11 model)",
        unconfirmed: "the truncation of every term to one alignment grid before the rounding, the bf16-only input flushing and the fixed NaN patterns are not modelled: spvx's nearest model is the exact sum rounded once, with subnormal results flushed",
        sources: "llvm/llvm-project PR #205101; ROCm/rocm-systems issue #12056; bjacob/goc src/gfx11_dot2.h (from rocjitsu)",
    },
    Profile {
        name: "amd-rdna4",
        hardware: "AMD RDNA4 (gfx12: gfx1201), v_dot2_f32_f16",
        mixdot: model(Model::Exact, false, false),
        dpas: None,
        confirmed: "subnormal inputs and results are preserved; one rounding to nearest even (rocjitsu's gfx12 model, \"characterized on gfx1201\")",
        unconfirmed: "the floor alignment of the pair sum and the accumulator before the rounding is not modelled: spvx's nearest model is the exact sum rounded once",
        sources: "bjacob/goc gfx12_dot.h (from rocjitsu); llvm/llvm-project PR #205101",
    },
    Profile {
        name: "intel-dg2",
        hardware: "Intel Xe-HPG (DG2: Arc A-series, ATS-M Flex), DPAS exec size 8",
        mixdot: None,
        dpas: dpas(Platform::Dg2, DenormalMode::FlushBfTf),
        confirmed: "DPAS exec size 8 (subgroup size 8), 32-byte GRFs, no tf32 and no bf16/fp16 accumulators (IGC vISA verification and platform capabilities)",
        unconfirmed: "bf16 denormals flushed (inputs and results): pre-Xe2 parts have no BF/TF denormal control and their handling is not documented (reference/dpas.md §2.3 infers flushing); fp16 denormals kept; the accumulation order and precision: Intel's CM and ESIMD reference emulators' (fp32 sum rounded to nearest even after each product, in increasing k, accumulator first)",
        sources: INTEL_SOURCES,
    },
    Profile {
        name: "intel-pvc",
        hardware: "Intel Xe-HPC (Ponte Vecchio: Data Center GPU Max), DPAS exec size 16",
        mixdot: None,
        dpas: dpas(Platform::Pvc, DenormalMode::FlushBfTf),
        confirmed: "DPAS exec size 16 (subgroup size 16), 64-byte GRFs, tf32 and bf16/fp16 accumulators (IGC vISA verification and platform capabilities)",
        unconfirmed: "bf16 and tf32 denormals flushed (inputs and results): pre-Xe2 parts have no BF/TF denormal control and their handling is not documented (reference/dpas.md §2.3 infers flushing); fp16 denormals kept; the accumulation order and precision: Intel's CM and ESIMD reference emulators' (fp32 sum rounded to nearest even after each product, in increasing k, accumulator first)",
        sources: INTEL_SOURCES,
    },
    Profile {
        name: "intel-xe2",
        hardware: "Intel Xe2 (Lunar Lake, Battlemage), DPAS exec size 16",
        mixdot: None,
        dpas: dpas(Platform::Xe2, DenormalMode::Keep),
        confirmed: "DPAS exec size 16, PVC's types; bf16 and tf32 denormals kept: Xe2 has the CR0 \"BF/TF denorm mode\" bit and IGC sets it (retain) by default for OpenCL (IGC Platform.hpp hasBFTFDenormMode, CISABuilder.cpp initCR)",
        unconfirmed: INTEL_ORDER,
        sources: INTEL_SOURCES,
    },
    Profile {
        name: "intel-xe3",
        hardware: "Intel Xe3 (Panther Lake), DPAS exec size 16",
        mixdot: None,
        dpas: dpas(Platform::Xe3, DenormalMode::Keep),
        confirmed: "as Xe2: DPAS exec size 16, PVC's types, bf16 and tf32 denormals kept by IGC's default CR0 setting (VC GenXFloatControl.cpp sets it on Xe2, Xe3 and Xe3P)",
        unconfirmed: INTEL_ORDER,
        sources: INTEL_SOURCES,
    },
    Profile {
        name: "intel-xe3p",
        hardware: "Intel Xe3P (Crescent Island, Nova Lake-P), DPAS exec size 16",
        mixdot: None,
        dpas: dpas(Platform::Xe3p, DenormalMode::Keep),
        confirmed: "DPAS exec size 16; integer DPAS only with A and B both 4-bit or both 8-bit (IGC vISA G4_Verifier verifyDpas, hasSimplifiedRegions); bf16 and tf32 denormals kept (VC GenXFloatControl.cpp)",
        unconfirmed: INTEL_ORDER,
        sources: INTEL_SOURCES,
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
    if let Some(m) = p.mixdot {
        config.mixdot = m;
    }
    if let Some(d) = p.dpas {
        config.dpas = d;
    }
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
        assert!(
            e.contains("amd-cdna2, amd-rdna3, amd-rdna4, intel-dg2, intel-pvc, intel-xe2"),
            "{e}"
        );
        for p in PROFILES {
            assert!(
                !p.sources.is_empty() && !p.confirmed.is_empty(),
                "{}",
                p.name
            );
            assert!(
                p.mixdot.is_some() || p.dpas.is_some(),
                "{} sets nothing",
                p.name
            );
        }
    }

    /// An Intel profile sets the DPAS platform and its bf16/tf32 denormal handling and leaves
    /// the mixed dot model as it was; an AMD one leaves the DPAS setting.
    #[test]
    fn intel_profiles_set_the_dpas_platform_only() {
        let mut c = RunConfig::default();
        c.mixdot.flush_input_denormals = true;
        apply("intel-pvc", &mut c).unwrap();
        assert_eq!(c.dpas.platform, Some(Platform::Pvc));
        assert_eq!(
            c.dpas.options.model.input_denormals,
            DenormalMode::FlushBfTf
        );
        assert!(
            c.mixdot.flush_input_denormals,
            "the mixed dot model was changed"
        );
        apply("intel-xe2", &mut c).unwrap();
        assert_eq!(c.dpas.platform, Some(Platform::Xe2));
        assert_eq!(c.dpas.options.model.input_denormals, DenormalMode::Keep);
        let mut c = RunConfig::default();
        apply("amd-rdna3", &mut c).unwrap();
        assert_eq!(c.dpas, DpasConfig::default());
    }
}
