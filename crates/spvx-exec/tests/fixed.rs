//! The eleven fixed-point functions through the engine (operand decoding, the literals S, I,
//! rI, Q, O, the three result layouts), on values computed by hand: input <16, 8, S> (raw =
//! value · 2^8), result <16, 4, S> (raw = value · 2^12), Q = 0 (floor) or 6 (nearest even),
//! O = 0.

mod support;
use spvx_exec::UbKind;
use support::{compile, run_words};

const CAPS: &str = "OpCapability Shader\nOpCapability Int16\nOpCapability ArbitraryPrecisionFixedPointINTEL\nOpExtension \"SPV_INTEL_arbitrary_precision_fixed_point\"\n";

/// `%r` = the function of `in[i]` (as ushort), result widened to uint; `call` is the text after
/// `OpFixed…INTEL %rty %xs`.
fn run(op: &str, rty: &str, lits: &str, inputs: &[u32]) -> (Vec<u32>, spvx_exec::RunReport) {
    let decls = "%ushort = OpTypeInt 16 0\n%v2ushort = OpTypeVector %ushort 2\n%u16 = OpConstant %uint 16\n";
    let tail = if rty == "v2ushort" {
        "%s = OpCompositeExtract %ushort %f 0\n%c = OpCompositeExtract %ushort %f 1\n%sw = OpUConvert %uint %s\n%cw = OpUConvert %uint %c\n%ch = OpShiftLeftLogical %uint %cw %u16\n%r = OpBitwiseOr %uint %sw %ch"
    } else if rty == "uint" {
        "%r = OpCopyObject %uint %f"
    } else {
        "%r = OpUConvert %uint %f"
    };
    let body = format!("%xs = OpUConvert %ushort %x\n%f = {op} %{rty} %xs {lits}\n{tail}");
    let text = support::kernel(8, decls, &body).replacen("OpCapability Shader\n", CAPS, 1);
    let m = compile(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let mut input = inputs.to_vec();
    input.resize(8, 0);
    let (out, report) = run_words(&m, &input, 8, 1, &spvx_exec::RunConfig::default())
        .unwrap_or_else(|e| panic!("{e}"));
    (out[..inputs.len()].to_vec(), report)
}

#[test]
fn algebraic_functions() {
    // sqrt: 2.25 → 1.5 (6144); 2 → √2·4096 = 5792.62 → floor 5792, nearest 5793.
    assert_eq!(
        run("OpFixedSqrtINTEL", "ushort", "0 8 4 0 0", &[576, 512]).0,
        vec![6144, 5792]
    );
    assert_eq!(
        run("OpFixedSqrtINTEL", "ushort", "0 8 4 6 0", &[512]).0,
        vec![5793]
    );
    // recip: 4 → 0.25 (1024); 0.5 → 2 (8192).
    assert_eq!(
        run("OpFixedRecipINTEL", "ushort", "0 8 4 0 0", &[1024, 128]).0,
        vec![1024, 8192]
    );
    // rsqrt: 4 → 0.5 (2048); 0.25 → 2 (8192).
    assert_eq!(
        run("OpFixedRsqrtINTEL", "ushort", "0 8 4 0 0", &[1024, 64]).0,
        vec![2048, 8192]
    );
}

#[test]
fn transcendental_functions() {
    // sin 0 = 0, sin 1 = 0.8414709848 → ·4096 = 3446.67: floor 3446, nearest 3447.
    assert_eq!(
        run("OpFixedSinINTEL", "ushort", "0 8 4 0 0", &[0, 256]).0,
        vec![0, 3446]
    );
    assert_eq!(
        run("OpFixedSinINTEL", "ushort", "0 8 4 6 0", &[256]).0,
        vec![3447]
    );
    // cos 0 = 1 (4096).
    assert_eq!(
        run("OpFixedCosINTEL", "ushort", "0 8 4 0 0", &[0]).0,
        vec![4096]
    );
    // sin(π·0.5) = 1, cos(π·0) = 1, cos(π·0.5) = 0.
    assert_eq!(
        run("OpFixedSinPiINTEL", "ushort", "0 8 4 0 0", &[128]).0,
        vec![4096]
    );
    assert_eq!(
        run("OpFixedCosPiINTEL", "ushort", "0 8 4 0 0", &[0, 128]).0,
        vec![4096, 0]
    );
    // log 2 = 0.6931471806 → 2839.13 → 2839; log 1 = 0.
    assert_eq!(
        run("OpFixedLogINTEL", "ushort", "0 8 4 0 0", &[512, 256]).0,
        vec![2839, 0]
    );
    // exp 1 = 2.7182818285 → 11134.08 → 11134; exp 0 = 1.
    assert_eq!(
        run("OpFixedExpINTEL", "ushort", "0 8 4 0 0", &[256, 0]).0,
        vec![11134, 4096]
    );
}

#[test]
fn pair_functions_as_vector_and_packed_scalar() {
    // sincos(0) = (0, 1): vector (sin in component 0) → sin | cos << 16.
    assert_eq!(
        run("OpFixedSinCosINTEL", "v2ushort", "0 8 4 0 0", &[0]).0,
        vec![4096 << 16]
    );
    // sincospi(0.5) = (1, 0) packed into a 32-bit scalar: sine high, cosine low.
    assert_eq!(
        run("OpFixedSinCosPiINTEL", "uint", "0 8 4 0 0", &[128]).0,
        vec![4096 << 16]
    );
}

#[test]
fn special_inputs_are_reported() {
    // Signed input −1 (raw 0xff00 in <16, 8, signed>): sqrt is undefined → 0, reported.
    let (out, report) = run("OpFixedSqrtINTEL", "ushort", "1 8 4 0 0", &[0xff00]);
    assert_eq!(out, vec![0]);
    assert_eq!(report.total_events, 1);
    assert!(matches!(&report.events[0].kind, UbKind::FixedPoint(s) if s.contains("sqrt")));
}
