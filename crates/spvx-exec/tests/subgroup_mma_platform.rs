//! OpSubgroupMatrixMultiplyAccumulateINTEL under a named DPAS platform (`RunConfig::dpas`, what
//! the Intel vendor profiles set): the platform's exec size must be the subgroup size, its
//! type rules apply, and its bf16/tf32 denormal handling decides results with subnormal
//! elements. Expected values are worked by hand from reference/dpas.md §2.3 (denormals kept,
//! or flushed to zero of the same sign in bf16 and tf32 DPAS) and §4 (platform rules).

mod mma_support;

use mma_support::*;
use spvx_dpas::isa::ExecOptions;
use spvx_dpas::{FloatModel, Platform};
use spvx_exec::{DpasConfig, ExecError, RunConfig};
use spvx_num::dpas::DenormalMode;

fn config(n: u32, platform: Platform, denormals: DenormalMode) -> RunConfig {
    let mut model = FloatModel::EMULATOR;
    model.input_denormals = denormals;
    model.output_denormals = denormals;
    RunConfig {
        subgroup_size: n,
        dpas: DpasConfig {
            platform: Some(platform),
            options: ExecOptions {
                model,
                ..ExecOptions::default()
            },
        },
        ..RunConfig::default()
    }
}

/// tf32 on SIMD16, one row (M = 1): A[0][1] = 2^-129 (an fp32 subnormal whose bits survive the
/// tf32 truncation: 0x0010_0000), every B element 1.0, C = 0. Every column of the result is
/// 2^-129 with denormals kept (the product and the sum are exact) and +0 with bf16/tf32
/// denormals flushed (the input is flushed before the product).
#[test]
fn tf32_subnormals_follow_the_platforms_denormal_mode() {
    let case = Case::new(16, 1, Elem::Tf32, Elem::Tf32, Acc::F, Acc::F);
    let n = 16;
    let m = compile_case(&case).unwrap_or_else(|e| panic!("{e}"));
    // Lane words: A (1 component), B (8), C (1). Lane 1's A component is A[0][1].
    let mut words = vec![0u32; n * (1 + 8 + 1)];
    let tiny = 0x0010_0000u32; // 2^-129
    assert_eq!(f32::from_bits(tiny), 2f32.powi(-129));
    words[1] = tiny;
    for w in &mut words[n..n + 8 * n] {
        *w = 1.0f32.to_bits();
    }
    for (platform, mode, want) in [
        (Platform::Xe2, DenormalMode::Keep, tiny),
        (Platform::Pvc, DenormalMode::FlushBfTf, 0),
        (Platform::Pvc, DenormalMode::Keep, tiny),
    ] {
        let out = run_module(&m, &case, &words, &config(16, platform, mode))
            .unwrap_or_else(|e| panic!("{platform} {mode:?}: {e}"));
        for (lane, &d) in out.iter().enumerate() {
            assert_eq!(d, want, "{platform} {mode:?} lane {lane}");
        }
    }
    // The default (platform by subgroup size, the emulators' model) keeps denormals.
    let out = run_module(
        &m,
        &case,
        &words,
        &RunConfig {
            subgroup_size: 16,
            ..RunConfig::default()
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(out.iter().all(|&d| d == tiny));
}

/// A platform whose exec size is not the subgroup size is refused before the run, naming the
/// instruction, the platform and the size it needs.
#[test]
fn the_platforms_exec_size_must_be_the_subgroup_size() {
    let int8 = Elem::Int {
        bits: 8,
        signed: true,
    };
    let case = Case::new(8, 2, int8, int8, Acc::D, Acc::D);
    let m = compile_case(&case).unwrap_or_else(|e| panic!("{e}"));
    let err = run_module(
        &m,
        &case,
        &[0; 8 * 10],
        &config(8, Platform::Pvc, DenormalMode::Keep),
    )
    .expect_err("PVC's DPAS runs 16 invocations");
    let text = err.to_string();
    assert!(matches!(err, ExecError::Config(_)), "{text}");
    for part in [
        "OpSubgroupMatrixMultiplyAccumulateINTEL",
        "pvc",
        "exec size 16",
        "subgroup size is 8",
    ] {
        assert!(text.contains(part), "{part:?} in {text}");
    }
    // DG2's exec size is 8.
    let cfg = config(8, Platform::Dg2, DenormalMode::FlushBfTf);
    assert!(m.check_dpas(&cfg).is_ok());
}

/// Xe3P's integer DPAS takes A and B of equal widths only: u8 × u4 runs on PVC and is refused
/// on Xe3P by its rule.
#[test]
fn xe3p_refuses_mixed_integer_widths() {
    let case = Case::new(
        16,
        1,
        Elem::Int {
            bits: 8,
            signed: false,
        },
        Elem::Int {
            bits: 4,
            signed: false,
        },
        Acc::D,
        Acc::D,
    );
    let m = compile_case(&case).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        m.check_dpas(&config(16, Platform::Pvc, DenormalMode::Keep))
            .is_ok()
    );
    let err = m
        .check_dpas(&config(16, Platform::Xe3p, DenormalMode::Keep))
        .expect_err("Xe3P needs equal widths");
    let text = err.to_string();
    assert!(
        text.contains("xe3p") && text.contains("platform-precision"),
        "{text}"
    );
}
