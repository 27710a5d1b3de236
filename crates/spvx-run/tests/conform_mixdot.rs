//! `spvx_run::conform` on SPV_VALVE_mixed_float_dot_product: the engine's results on every
//! form's generated cases against spvx-num's mixed dot product evaluated directly (the default
//! model, `exact`); the inputs reach the float edges (NaN, ±Inf, subnormals, cancellation,
//! ties on which the accumulation models differ); a result of another accumulation model
//! (fused: `fma-chain`) is ALLOWED DIFFERENCE naming the model, a wrong one FAIL.

use spvx_num::mixdot::{Model, ModelConfig};
use spvx_run::conform::form::Kind;
use spvx_run::conform::mixdot::{MixDotForm, allowed};
use spvx_run::conform::run::{compile, run_engine, run_engine_with};
use spvx_run::conform::sweep::forms;
use spvx_run::conform::verdict::{Verdict, allowance, judge};
use spvx_run::conform::{Ext, Form, inputs};

fn mixdot(f: &Form) -> MixDotForm {
    match &f.kind {
        Kind::MixDot(d) => *d,
        other => panic!("not a mixdot form: {other:?}"),
    }
}

fn word(bytes: &[u8], i: usize) -> u32 {
    u32::from_le_bytes([
        bytes[4 * i],
        bytes[4 * i + 1],
        bytes[4 * i + 2],
        bytes[4 * i + 3],
    ])
}

#[test]
fn every_form_on_the_engine_agrees_with_spvx_num_and_the_edges_are_reached() {
    let all = forms(&[Ext::Mixdot], None);
    assert_eq!(all.len(), 8);
    let exact = ModelConfig::new(Model::Exact);
    let fused = ModelConfig::new(Model::FmaChain);
    for form in &all {
        let f = mixdot(form);
        let c = compile(form).unwrap_or_else(|e| panic!("{e}"));
        let count = 512;
        let ins = inputs::inputs(form, 2, 0, count);
        let run = run_engine(&c, form, &ins, count, true).unwrap_or_else(|e| panic!("{e}"));
        let (mut nan, mut inf, mut model_differs, mut cancels) = (0, 0, 0, 0);
        for i in 0..count as usize {
            let (a, b, acc) = (word(&ins[0], i), word(&ins[1], i), word(&ins[2], i));
            let case = f
                .case(a, b, acc)
                .unwrap_or_else(|| panic!("{}: invalid case", form.id));
            let want = case.evaluate(&exact);
            assert_eq!(word(&run.out, i), want, "{} case {i}", form.id);
            let fmt = case.result_format();
            nan += usize::from(fmt.is_nan(u64::from(want)));
            inf += usize::from(fmt.is_infinite(u64::from(want)));
            model_differs += usize::from(case.evaluate(&fused) != want);
            cancels += usize::from(want & 0x7fff_ffff == 0 && a != 0);
        }
        assert!(run.masked.is_empty(), "{}: nothing is undefined", form.id);
        assert!(
            nan > 0 && cancels > 0,
            "{}: NaN {nan}, cancellation {cancels}",
            form.id
        );
        assert!(
            model_differs > 0,
            "{}: no case where the models differ",
            form.id
        );
        assert!(inf > 0, "{}: no infinite result", form.id);
    }
}

#[test]
fn a_fused_result_is_an_allowed_difference_and_a_wrong_one_fails() {
    let form = forms(&[Ext::Mixdot], Some("OpFDot2MixAcc32VALVE/f16x2"))
        .pop()
        .unwrap_or_else(|| panic!("no form"));
    let f = mixdot(&form);
    let c = compile(&form).unwrap_or_else(|e| panic!("{e}"));
    let ins = inputs::inputs(&form, 5, 0, 256);
    let expected = run_engine(&c, &form, &ins, 256, true).unwrap_or_else(|e| panic!("{e}"));
    let allow = allowance(&form, &ins);
    // The device computed fma(a1, b1, fma(a0, b0, acc)) in f32: a legal accumulation.
    let fused = ModelConfig::new(Model::FmaChain);
    let mut got = Vec::new();
    let mut differ = 0;
    for i in 0..256 {
        let case = f
            .case(word(&ins[0], i), word(&ins[1], i), word(&ins[2], i))
            .unwrap_or_else(|| panic!("invalid case"));
        let g = case.evaluate(&fused);
        differ += usize::from(g != word(&expected.out, i));
        got.extend_from_slice(&g.to_le_bytes());
    }
    assert!(differ > 0, "the fused results differ somewhere");
    let (v, _) = judge(&form, 0, &ins, &expected, &got, allow.as_deref());
    let Verdict::Allowed { reason } = &v else {
        panic!("not ALLOWED DIFFERENCE: {v:?}")
    };
    assert!(reason.contains("accumulation model"), "{reason}");
    // Without the extension's freedom the same bytes are a FAIL.
    assert!(matches!(
        judge(&form, 0, &ins, &expected, &got, None).0,
        Verdict::Fail(_)
    ));
    // A result no model gives: FAIL, naming the case.
    let i = (0..256)
        .find(|&i| {
            let e = word(&expected.out, i);
            allowed(
                &f,
                word(&ins[0], i),
                word(&ins[1], i),
                word(&ins[2], i),
                e,
                e ^ 0x0040_0000,
            )
            .is_none()
        })
        .unwrap_or_else(|| panic!("no case to corrupt"));
    let mut wrong = got.clone();
    let bad = word(&expected.out, i) ^ 0x0040_0000;
    wrong[4 * i..4 * i + 4].copy_from_slice(&bad.to_le_bytes());
    // Keep only that element different from the expected run.
    for k in (0..256).filter(|&k| k != i) {
        wrong[4 * k..4 * k + 4].copy_from_slice(&expected.out[4 * k..4 * k + 4]);
    }
    let (v, _) = judge(&form, 0, &ins, &expected, &wrong, allow.as_deref());
    let Verdict::Fail(fail) = v else {
        panic!("not FAIL: {v:?}")
    };
    assert_eq!(fail.case, i as u64);
    assert_eq!(fail.mismatches, 1);
}

/// `--profile`: the engine's expected values follow the profile's model. Under amd-cdna2
/// (sequential, accumulator first, f16 subnormal inputs and f32 subnormal results flushed)
/// every case of the f16 form equals spvx-num evaluated directly with that model, and some
/// cases (subnormal inputs) differ from the default model's.
#[test]
fn a_profile_sets_the_expected_model() {
    let form = forms(&[Ext::Mixdot], Some("OpFDot2MixAcc32VALVE/f16x2"))
        .pop()
        .unwrap_or_else(|| panic!("no form"));
    let f = mixdot(&form);
    let c = compile(&form).unwrap_or_else(|e| panic!("{e}"));
    let count = 512;
    let ins = inputs::inputs(&form, 3, 0, count);
    let mut base = spvx_exec::RunConfig::default();
    let profile =
        spvx_run::profile::apply("amd-cdna2", &mut base).unwrap_or_else(|e| panic!("{e}"));
    let run =
        run_engine_with(&c, &form, &ins, count, true, &base).unwrap_or_else(|e| panic!("{e}"));
    let default = ModelConfig::new(Model::Exact);
    let mut differs = 0;
    for i in 0..count as usize {
        let (a, b, acc) = (word(&ins[0], i), word(&ins[1], i), word(&ins[2], i));
        let case = f
            .case(a, b, acc)
            .unwrap_or_else(|| panic!("invalid case {i}"));
        let want = case.evaluate(&profile.mixdot.unwrap_or_else(|| panic!("no mixdot model")));
        assert_eq!(word(&run.out, i), want, "case {i}");
        differs += usize::from(case.evaluate(&default) != want);
    }
    assert!(
        differs > 0,
        "no case where amd-cdna2 differs from the default model"
    );
    // The sweep records the profile and refuses an unknown one by name.
    let opts = |profile: &str| spvx_run::conform::Options {
        exts: vec![Ext::Mixdot],
        seed: 3,
        cases: 64,
        shard: spvx_run::conform::Shard::ALL,
        jobs: 1,
        only: Some("OpFDot2MixAcc32VALVE/f16x2".to_string()),
        amber: None,
        profile: Some(profile.to_string()),
    };
    let quiet = |_: usize, _: usize, _: &str| {};
    let r = spvx_run::conform::sweep(
        &opts("amd-cdna2"),
        &spvx_run::conform::Target::Engine,
        &quiet,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.profile.as_deref(), Some("amd-cdna2"));
    assert!(r.forms.iter().all(|f| f.verdict == Verdict::Pass));
    assert!(r.to_markdown().contains("- profile: amd-cdna2"));
    let e = spvx_run::conform::sweep(
        &opts("amd-gfx9"),
        &spvx_run::conform::Target::Engine,
        &quiet,
    )
    .err()
    .map(|e| e.to_string());
    assert_eq!(
        e.as_deref(),
        Some(
            "--profile amd-gfx9: no such profile; the profiles are amd-cdna2, amd-rdna3, amd-rdna4, intel-dg2, intel-pvc, intel-xe2, intel-xe3, intel-xe3p"
        )
    );
}
