//! SPV_EXT_long_vector: `OpTypeVectorIdEXT` whose Component Count is a specialization constant
//! is a vector of unknown length to the validator — the general vector rules where they do not
//! depend on the count (component types, operand types, indices into it), and the type's own
//! rules (a scalar Component Type; a Component Count that is a constant of 32-bit integer type,
//! greater than zero). spirv-val 2025.5 cannot assemble these modules (it does not know
//! LongVectorEXT), so the expected verdicts come from the extension's text.

mod support;

use support::assert_spvx;

const ENV: &str = "spv1.6";

/// The module of crates/spvx/tests/run/long_vector_spec.spvasm (its results are checked by
/// hand in crates/spvx/tests/cli_run.rs).
const SPEC_MODULE: &str = include_str!("../../spvx/tests/run/long_vector_spec.spvasm");

/// A compute module declaring `%N` (a spec constant, 5), `%vN` = OpTypeVectorIdEXT of uint by
/// `%N` and whatever `types` adds, with `body` in main's only block.
fn module(types: &str, body: &str) -> String {
    format!(
        r#"OpCapability Shader
OpCapability LongVectorEXT
OpCapability Int64
OpExtension "SPV_EXT_long_vector"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%c0 = OpConstant %uint 0
%c1 = OpConstant %uint 1
%f1 = OpConstant %float 1
%N = OpSpecConstant %uint 5
%vN = OpTypeVectorIdEXT %uint %N
%pfv = OpTypePointer Function %vN
%pfu = OpTypePointer Function %uint
{types}
%main = OpFunction %void None %fn
%entry = OpLabel
%var = OpVariable %pfv Function
{body}
OpReturn
OpFunctionEnd
"#
    )
}

#[test]
fn the_spec_constant_length_module_is_valid() {
    assert_spvx(SPEC_MODULE, ENV, None);
}

#[test]
fn vector_rules_that_do_not_need_the_count_apply() {
    // Valid: loads, component access, arithmetic of one type, dynamic extract and insert.
    let body = "%v = OpLoad %vN %var\n%w = OpIAdd %vN %v %v\n%x = OpVectorExtractDynamic %uint %w %c1\n\
                %y = OpVectorInsertDynamic %vN %w %x %c0\n%z = OpCompositeExtract %uint %y 3\n\
                %p = OpAccessChain %pfu %var %c1\nOpStore %p %z";
    assert_spvx(&module("", body), ENV, None);
    // The component type still counts.
    let body = "%v = OpLoad %vN %var\n%x = OpVectorExtractDynamic %float %v %c1";
    assert_spvx(
        &module("", body),
        ENV,
        Some("expected the Vector's component type as Result Type"),
    );
    let body = "%v = OpCompositeConstruct %vN %c0 %f1";
    assert_spvx(&module("", body), ENV, Some("a scalar or vector of %uint"));
    // Arithmetic on an integer vector only.
    let body = "%v = OpLoad %vN %var\n%w = OpFAdd %vN %v %v";
    assert_spvx(&module("", body), ENV, Some("OpFAdd"));
    // Indices walk into the components, which are scalars.
    let body = "%p = OpAccessChain %pfu %var %c1 %c0";
    assert_spvx(&module("", body), ENV, Some("reached non-composite type"));
    let body = "%v = OpLoad %vN %var\n%z = OpCompositeExtract %uint %v 1 0";
    assert_spvx(&module("", body), ENV, Some("reached non-composite type"));
}

#[test]
fn the_type_declaration_rules_apply() {
    let t = "%L = OpSpecConstant %ulong 5\n%vL = OpTypeVectorIdEXT %uint %L";
    assert_spvx(
        &module(t, ""),
        ENV,
        Some("is not a constant of 32-bit integer type"),
    );
    let t = "%vz = OpTypeVectorIdEXT %uint %c0";
    assert_spvx(&module(t, ""), ENV, Some("must be greater than zero"));
    let t = "%vv = OpTypeVectorIdEXT %vN %c1";
    assert_spvx(&module(t, ""), ENV, Some("is not a scalar type"));
    // "Matrix types must be parameterized only with OpTypeVector having 2, 3, or 4 components".
    let t = "%vf = OpTypeVectorIdEXT %float %N\n%m = OpTypeMatrix %vf 2";
    assert_spvx(
        &module(t, ""),
        ENV,
        Some("must be a vector of floating-point type"),
    );
}

#[test]
fn one_component_vectors_need_long_vectors() {
    let t = "%v1 = OpTypeVector %uint 1";
    assert_spvx(&module(t, ""), ENV, None);
    let text = module(t, "")
        .replace("OpCapability LongVectorEXT\n", "")
        .replace("OpExtension \"SPV_EXT_long_vector\"\n", "")
        .replace("%vN = OpTypeVectorIdEXT %uint %N\n", "")
        .replace("%pfv = OpTypePointer Function %vN\n", "")
        .replace("%var = OpVariable %pfv Function\n", "");
    assert_spvx(&text, ENV, Some("illegal number of components (1)"));
}
