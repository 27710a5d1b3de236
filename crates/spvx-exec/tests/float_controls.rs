//! SPV_KHR_float_controls execution modes: those asking for what the engine does anyway
//! (RoundingModeRTE, DenormPreserve, SignedZeroInfNanPreserve) are accepted and change nothing;
//! RoundingModeRTZ and DenormFlushToZero, which the engine does not implement, are refused by
//! name rather than run with the wrong rounding (docs/semantics/arithmetic.md, "Float controls").

mod support;
use spvx_exec::RunConfig;
use support::*;

/// `out[i] = bits(float(in[i]) + tiny)` and `out[i+1] = bits(float(in[i+1]) * 0.5)`, one
/// invocation each, under the execution modes `modes` (`OpExecutionMode %main ...` lines).
fn module(modes: &[&str]) -> String {
    let decls = "%tiny_bits = OpConstant %uint 0x33800001\n%half = OpConstant %float 0.5\n";
    // Invocation 0 adds 2^-24 (and a bit): 1 + that rounds up to nearest, down toward zero.
    // Invocation 1 halves the denormal 2^-148: 2^-149 kept, 0 when flushed.
    let body = "%f = OpBitcast %float %x\n\
                %tiny = OpBitcast %float %tiny_bits\n\
                %sum = OpFAdd %float %f %tiny\n\
                %prod = OpFMul %float %f %half\n\
                %is0 = OpIEqual %bool %i %u0\n\
                %rf = OpSelect %float %is0 %sum %prod\n\
                %r = OpBitcast %uint %rf";
    let mut text = kernel(2, decls, body).replacen(
        "OpMemoryModel",
        "OpCapability RoundingModeRTE\nOpCapability RoundingModeRTZ\n\
         OpCapability DenormPreserve\nOpCapability DenormFlushToZero\n\
         OpCapability SignedZeroInfNanPreserve\n\
         OpExtension \"SPV_KHR_float_controls\"\nOpMemoryModel",
        1,
    );
    for m in modes {
        text = text.replacen(
            "OpDecorate %gid",
            &format!("OpExecutionMode %main {m}\nOpDecorate %gid"),
            1,
        );
    }
    text
}

#[test]
fn modes_asking_for_the_engines_arithmetic_are_accepted() {
    for modes in [
        &[][..],
        &[
            "RoundingModeRTE 32",
            "DenormPreserve 32",
            "SignedZeroInfNanPreserve 32",
        ][..],
    ] {
        let m = compile(&module(modes)).unwrap_or_else(|e| panic!("{modes:?}: {e}"));
        let (out, _) = run_words(&m, &[0x3f80_0000, 0x0000_0002], 2, 1, &RunConfig::default())
            .unwrap_or_else(|e| panic!("{modes:?}: {e}"));
        // 1 + (2^-24 + 2^-47) rounds to nearest: 1 + 2^-23; 2^-148 / 2 = 2^-149 (denormal).
        assert_eq!(out, [0x3f80_0001, 0x0000_0001], "{modes:?}");
    }
}

#[test]
fn rtz_and_flush_to_zero_are_refused_by_name() {
    for (mode, name) in [
        ("RoundingModeRTZ 32", "RoundingModeRTZ"),
        ("DenormFlushToZero 32", "DenormFlushToZero"),
        ("RoundingModeRTZ 16", "RoundingModeRTZ"),
    ] {
        let e = match compile(&module(&[mode])) {
            Ok(_) => panic!("{mode}: compiled"),
            Err(e) => e.to_string(),
        };
        assert!(
            e.contains(&format!("execution mode {name}")) && e.contains("OpExecutionMode"),
            "{mode}: {e}"
        );
    }
}
