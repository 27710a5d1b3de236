//! The VALVE mixed float dot products through the engine, on hand-computed cases, with the
//! accumulation model selected in the run configuration.

mod support;
use spvx_exec::RunConfig;
use spvx_num::mixdot::{Model, ModelConfig};
use support::{compile, run_words};

const CAPS: &str = "OpCapability Shader\nOpCapability Float16\nOpCapability Int16\nOpCapability Float8EXT\nOpCapability DotProductFloat16AccFloat32VALVE\nOpCapability DotProductFloat8AccFloat32VALVE\nOpExtension \"SPV_VALVE_mixed_float_dot_product\"\nOpExtension \"SPV_EXT_float8\"\n";

/// `a = in[3i]` and `b = in[3i+1]` reinterpreted as vectors (2×f16 or 4×fp8), `acc = in[3i+2]`
/// as f32; `out[i]` = the dot product bits.
fn run(op: &str, vec_ty: &str, cases: &[(u32, u32, u32)], model: Model) -> Vec<u32> {
    let decls = "%half = OpTypeFloat 16\n%v2half = OpTypeVector %half 2\n%e4 = OpTypeFloat 8 Float8E4M3EXT\n%e5 = OpTypeFloat 8 Float8E5M2EXT\n%v4e4 = OpTypeVector %e4 4\n%v4e5 = OpTypeVector %e5 4\n";
    let body = format!(
        "%i3 = OpIMul %uint %i %u3\n%pa = OpAccessChain %ptr_sb_uint %in %u0 %i3\n%a = OpLoad %uint %pa\n%ib = OpIAdd %uint %i3 %u1\n%pb = OpAccessChain %ptr_sb_uint %in %u0 %ib\n%b = OpLoad %uint %pb\n%ic = OpIAdd %uint %i3 %u2\n%pc = OpAccessChain %ptr_sb_uint %in %u0 %ic\n%c = OpLoad %uint %pc\n%va = OpBitcast %{vec_ty} %a\n%vb = OpBitcast %{vec_ty} %b\n%cf = OpBitcast %float %c\n%d = {op} %float %va %vb %cf\n%r = OpBitcast %uint %d"
    );
    let text = support::kernel(4, decls, &body).replacen("OpCapability Shader\n", CAPS, 1);
    let m = compile(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let n = cases.len().div_ceil(4) * 4;
    let mut input: Vec<u32> = cases.iter().flat_map(|t| [t.0, t.1, t.2]).collect();
    input.resize(3 * n, 0);
    let cfg = RunConfig {
        mixdot: ModelConfig::new(model),
        ..RunConfig::default()
    };
    let (out, _) = run_words(&m, &input, n, (n / 4) as u32, &cfg).unwrap_or_else(|e| panic!("{e}"));
    out[..cases.len()].to_vec()
}

#[test]
fn dot2_f16_acc32_hand_computed() {
    // (1.5, 2.0)·(2.0, −0.25) + 0.5 = 3.0; f16 1.5 = 0x3e00, 2.0 = 0x4000, −0.25 = 0xb400.
    let simple = (0x4000_3e00, 0xb400_4000, 0.5f32.to_bits());
    // (1, 1)·(2^-24, 2^-24) + 1: exact 1 + 2^-23; adding to the accumulator one product at
    // a time rounds each 1 + 2^-24 back to 1 (tie to even).
    let tiny = (0x3c00_3c00, 0x0001_0001, 1.0f32.to_bits());
    let exact = run(
        "OpFDot2MixAcc32VALVE",
        "v2half",
        &[simple, tiny],
        Model::Exact,
    );
    assert_eq!(exact, vec![3.0f32.to_bits(), 0x3f80_0001]);
    let acc_first = run(
        "OpFDot2MixAcc32VALVE",
        "v2half",
        &[simple, tiny],
        Model::SequentialAccFirst,
    );
    assert_eq!(acc_first, vec![3.0f32.to_bits(), 0x3f80_0000]);
}

#[test]
fn dot4_fp8_acc32_hand_computed() {
    // E4M3: 1.0 = 0x38, 2.0 = 0x40, −0.5 = 0xb0, 448 = 0x7e. E5M2: 1.0 = 0x3c, 3.0 = 0x42.
    // a = (1, 2, −0.5, 448) in E4M3, b = (1, 1, 3, 1) in E5M2, acc = 10:
    // 1 + 2 − 1.5 + 448 + 10 = 459.5.
    let a = u32::from_le_bytes([0x38, 0x40, 0xb0, 0x7e]);
    let b = u32::from_le_bytes([0x3c, 0x3c, 0x42, 0x3c]);
    let text_ty = "v4e4";
    let out = run_mixed(a, b, 10.0f32.to_bits(), text_ty);
    assert_eq!(out, 459.5f32.to_bits());
}

fn run_mixed(a: u32, b: u32, acc: u32, _ty: &str) -> u32 {
    // Vector 1 in E4M3, Vector 2 in E5M2.
    let decls = "%e4 = OpTypeFloat 8 Float8E4M3EXT\n%e5 = OpTypeFloat 8 Float8E5M2EXT\n%v4e4 = OpTypeVector %e4 4\n%v4e5 = OpTypeVector %e5 4\n";
    let body = "%i3 = OpIMul %uint %i %u3\n%pa = OpAccessChain %ptr_sb_uint %in %u0 %i3\n%a = OpLoad %uint %pa\n%ib = OpIAdd %uint %i3 %u1\n%pb = OpAccessChain %ptr_sb_uint %in %u0 %ib\n%b = OpLoad %uint %pb\n%ic = OpIAdd %uint %i3 %u2\n%pc = OpAccessChain %ptr_sb_uint %in %u0 %ic\n%c = OpLoad %uint %pc\n%va = OpBitcast %v4e4 %a\n%vb = OpBitcast %v4e5 %b\n%cf = OpBitcast %float %c\n%d = OpFDot4MixAcc32VALVE %float %va %vb %cf\n%r = OpBitcast %uint %d";
    let text = support::kernel(1, decls, body).replacen("OpCapability Shader\n", CAPS, 1);
    let m = compile(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let (out, _) =
        run_words(&m, &[a, b, acc], 1, 1, &RunConfig::default()).unwrap_or_else(|e| panic!("{e}"));
    out[0]
}
