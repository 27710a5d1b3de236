//! Cascading errors: an instruction that uses an undefined id is reported once, for the
//! undefined id, and not again by the type rules that cannot see the missing definition.
//! The independent statement: for each module below, written with exactly one undefined id in
//! one instruction, spvx reports exactly one error, an `Id` error at that instruction; and
//! spirv-val 2025.5 rejects the module, naming the id as not defined.

mod support;

use spvx_val::ErrorKind;

const PRE: &str = "OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main \"main\"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v2float = OpTypeVector %float 2
%int_1 = OpConstant %int 1
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%float_1 = OpConstant %float 1
%pwu = OpTypePointer Workgroup %uint
%pfu = OpTypePointer Function %uint
%main = OpFunction %void None %fn
%entry = OpLabel
%var = OpVariable %pfu Function
";

/// Instructions each using one undefined id (`%nowhere`).
const BROKEN: &[&str] = &[
    "%a = OpIAdd %int %nowhere %int_1",
    "%a = OpIAdd %nowhere %int_1 %int_1",
    "%a = OpFMul %float %float_1 %nowhere",
    "%a = OpCompositeConstruct %v2float %nowhere %float_1",
    "%a = OpCompositeExtract %float %nowhere 0",
    "%a = OpLoad %uint %nowhere",
    "OpStore %nowhere %uint_1",
    "OpStore %var %nowhere",
    "%a = OpAccessChain %pfu %nowhere %int_1",
    "%a = OpSelect %int %nowhere %int_1 %int_1",
    "%a = OpConvertSToF %float %nowhere",
    "%a = OpBitcast %float %nowhere",
    "%a = OpDot %float %nowhere %nowhere",
    "%a = OpSLessThan %bool %nowhere %int_1",
    "%a = OpAtomicIAdd %uint %nowhere %uint_2 %uint_1 %uint_1",
    "OpControlBarrier %nowhere %uint_2 %uint_1",
    "%a = OpBitFieldUExtract %uint %nowhere %uint_1 %uint_1",
];

#[test]
fn one_error_per_instruction_with_an_undefined_id() {
    let tools = support::tools_dir();
    let mut failures = Vec::new();
    for line in BROKEN {
        let text = format!("{PRE}{line}\nOpReturn\nOpFunctionEnd\n");
        let errors = support::validate_text(&text, "spv1.6");
        let at_line: Vec<_> = errors.iter().filter(|e| e.index.is_some()).collect();
        let ok = errors.len() == 1
            && matches!(errors[0].kind, ErrorKind::Id(_))
            && at_line.len() == 1
            && errors[0].to_string().contains("has not been defined");
        if !ok {
            let shown: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
            failures.push(format!("{line}: {shown:#?}"));
        }
        if let Some(dir) = &tools {
            match support::spirv_val(dir, &text, "spv1.6") {
                Some((false, msg)) if msg.contains("has not been defined") => {}
                other => failures.push(format!("{line}: spirv-val says {other:?}")),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn independent_errors_on_other_instructions_remain() {
    // The undefined id on one instruction does not hide a type error on another.
    let text = format!(
        "{PRE}%a = OpIAdd %int %nowhere %int_1\n%b = OpFAdd %float %int_1 %float_1\nOpReturn\nOpFunctionEnd\n"
    );
    let errors = support::validate_text(&text, "spv1.6");
    assert_eq!(errors.len(), 2, "{errors:#?}");
    assert!(matches!(errors[0].kind, ErrorKind::Id(_)));
    assert!(matches!(errors[1].kind, ErrorKind::Instruction(_)));
}
