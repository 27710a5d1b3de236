//! The variable-pointer rules for untyped pointers (SPV_KHR_untyped_pointers), as spirv-val
//! 2025.5 applies them (validate_logical_pointers.cpp, validate_memory.cpp): which
//! instructions may take and return an untyped logical pointer with and without
//! VariablePointers / VariablePointersStorageBuffer (OpSelect, OpPhi, OpFunctionCall and
//! OpReturnValue, variables holding pointers, OpPtrEqual, OpPtrDiff, OpConstantNull,
//! OpUntypedPtrAccessChainKHR and its ArrayStride, OpUntypedInBoundsPtrAccessChainKHR,
//! OpUntypedArrayLengthKHR of a variable pointer), and OpSelect/OpPhi over two buffers without
//! VariablePointers. Each module is judged by spvx-val and by spirv-val, which must agree.

mod support;

use support::judge;

const ENV: &str = "vulkan1.3";
const VPSB: &str = "OpCapability VariablePointersStorageBuffer";
const VP: &str = "OpCapability VariablePointers";

/// A compute module with two untyped StorageBuffer variables %a and %b (bindings 0, 1) of
/// Data Type %Buf = { uint x; uint rt[] }, capabilities `caps`, the types `types`, the
/// functions `functions` before main and `body` in main's first block (ids %c (a bool), %u0,
/// %u1, %up_sb (the untyped StorageBuffer pointer type) available).
fn module(caps: &str, types: &str, functions: &str, body: &str) -> String {
    format!(
        r#"OpCapability Shader
OpCapability UntypedPointersKHR
{caps}
OpExtension "SPV_KHR_untyped_pointers"
OpExtension "SPV_KHR_variable_pointers"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %a %b
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %rarr ArrayStride 4
OpMemberDecorate %Buf 0 Offset 0
OpMemberDecorate %Buf 1 Offset 4
OpDecorate %Buf Block
OpDecorate %a DescriptorSet 0
OpDecorate %a Binding 0
OpDecorate %b DescriptorSet 0
OpDecorate %b Binding 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%c = OpConstantTrue %bool
%rarr = OpTypeRuntimeArray %uint
%Buf = OpTypeStruct %uint %rarr
%up_sb = OpTypeUntypedPointerKHR StorageBuffer
{types}
%a = OpUntypedVariableKHR %up_sb StorageBuffer %Buf
%b = OpUntypedVariableKHR %up_sb StorageBuffer %Buf
{functions}
%main = OpFunction %void None %fn
%entry = OpLabel
{body}
OpReturn
OpFunctionEnd
"#
    )
}

/// `module` without types or functions.
fn body(caps: &str, body: &str) -> String {
    module(caps, "", "", body)
}

/// `module` with the untyped pointer type decorated ArrayStride 4 (the Base of an untyped
/// pointer access chain needs it).
fn strided(caps: &str, b: &str) -> String {
    body(caps, b).replace(
        "OpDecorate %Buf Block",
        "OpDecorate %Buf Block\nOpDecorate %up_sb ArrayStride 4",
    )
}

#[test]
fn untyped_variables_and_access_chains_need_no_capability() {
    let b = "%p = OpUntypedAccessChainKHR %up_sb %Buf %a %u0\n%x = OpLoad %uint %p\n\
             %q = OpUntypedInBoundsAccessChainKHR %up_sb %Buf %a %u1 %u0\n%y = OpLoad %uint %q\n\
             %r = OpCopyObject %up_sb %a\n%n = OpUntypedArrayLengthKHR %uint %Buf %a 1";
    judge(&body("", b), ENV, None);
    // Arithmetic on a pointer is no allowed use.
    judge(
        &body("", "%x = OpIAdd %up_sb %a %a"),
        ENV,
        Some("may not return a logical pointer"),
    );
}

#[test]
fn select_of_untyped_pointers_follows_the_typed_rules() {
    let two = "%s = OpSelect %up_sb %c %a %b\n%p = OpUntypedAccessChainKHR %up_sb %Buf %s %u0\n\
               %x = OpLoad %uint %p";
    judge(
        &body("", two),
        ENV,
        Some("may only return a logical pointer"),
    );
    // Two buffers: VariablePointers, not only VariablePointersStorageBuffer.
    judge(&body(VPSB, two), ENV, Some("same structure"));
    judge(&body(VP, two), ENV, None);
    let one = two.replace("%c %a %b", "%c %a %a");
    judge(&body(VPSB, &one), ENV, None);
}

#[test]
fn phi_of_untyped_pointers_follows_the_typed_rules() {
    let phi = |other: &str| {
        format!(
            "OpSelectionMerge %m None\nOpBranchConditional %c %t %m\n%t = OpLabel\nOpBranch %m\n\
             %m = OpLabel\n%s = OpPhi %up_sb %a %entry %{other} %t\n%x = OpLoad %uint %s"
        )
    };
    judge(
        &body("", &phi("a")),
        ENV,
        Some("may only return a logical pointer"),
    );
    judge(&body(VPSB, &phi("a")), ENV, None);
    judge(&body(VPSB, &phi("b")), ENV, Some("same structure"));
    judge(&body(VP, &phi("b")), ENV, None);
}

#[test]
fn untyped_pointers_passed_and_returned_need_variable_pointers() {
    let f = "%fnp = OpTypeFunction %up_sb %up_sb\n%g = OpFunction %up_sb None %fnp\n\
             %gp = OpFunctionParameter %up_sb\n%ge = OpLabel\nOpReturnValue %gp\nOpFunctionEnd";
    let b = "%r = OpFunctionCall %up_sb %g %a\n%x = OpLoad %uint %r";
    judge(
        &module("", "", f, b),
        ENV,
        Some("may only return a logical pointer"),
    );
    judge(&module(VPSB, "", f, b), ENV, None);
}

#[test]
fn function_variables_holding_untyped_pointers_need_variable_pointers() {
    let t = "%pf_up = OpTypePointer Function %up_sb";
    let b = "%h = OpVariable %pf_up Function\nOpStore %h %a\n%l = OpLoad %up_sb %h\n\
             %x = OpLoad %uint %l";
    judge(
        &module("", t, "", b),
        ENV,
        Some("can only allocate a storage buffer pointer"),
    );
    judge(&module(VPSB, t, "", b), ENV, None);
}

#[test]
fn comparisons_and_null_untyped_pointers_need_variable_pointers() {
    let eq = "%e = OpPtrEqual %bool %a %b";
    judge(
        &body("", eq),
        ENV,
        Some("may only have a logical pointer operand"),
    );
    judge(&body(VPSB, eq), ENV, None);
    let diff = "%p = OpUntypedAccessChainKHR %up_sb %Buf %a %u1 %u0\n\
                %q = OpUntypedAccessChainKHR %up_sb %Buf %a %u1 %u1\n%e = OpPtrDiff %uint %p %q";
    judge(&body("", diff), ENV, Some("OpPtrDiff"));
    judge(&body(VPSB, diff), ENV, None);
    let null = "%n = OpConstantNull %up_sb";
    judge(
        &module("", null, "", ""),
        ENV,
        Some("may only return a logical pointer"),
    );
    judge(&module(VPSB, null, "", ""), ENV, None);
}

#[test]
fn untyped_pointer_access_chains_are_variable_pointers() {
    let chain = |op: &str| {
        format!(
            "%p = OpUntypedAccessChainKHR %up_sb %Buf %a %u1 %u0\n%q = {op} %up_sb %uint %p %u1\n\
             %x = OpLoad %uint %q"
        )
    };
    let ptr = chain("OpUntypedPtrAccessChainKHR");
    judge(
        &strided("", &ptr),
        ENV,
        Some("may only return a logical pointer"),
    );
    judge(&strided(VPSB, &ptr), ENV, None);
    // Like OpPtrAccessChain, its Base's type needs an ArrayStride.
    judge(
        &body(VPSB, &ptr),
        ENV,
        Some("must have a Base whose type is decorated with ArrayStride"),
    );
    // spirv-val 2025.5 lists OpUntypedInBoundsPtrAccessChainKHR among neither the
    // instructions that may return a logical pointer nor those that may take one.
    let in_bounds = chain("OpUntypedInBoundsPtrAccessChainKHR");
    judge(
        &strided(VPSB, &in_bounds),
        ENV,
        Some("may not return a logical pointer"),
    );
}

#[test]
fn untyped_array_length_of_a_variable_pointer_is_rejected() {
    let sel = "%s = OpSelect %up_sb %c %a %a\n%n = OpUntypedArrayLengthKHR %uint %Buf %s 1";
    judge(
        &body(VPSB, sel),
        ENV,
        Some("OpUntypedArrayLengthKHR: Pointer operand must not be a variable pointer"),
    );
    let chain = "%s = OpUntypedPtrAccessChainKHR %up_sb %Buf %a %u0\n\
                 %n = OpUntypedArrayLengthKHR %uint %Buf %s 1";
    judge(
        &strided(VPSB, chain),
        ENV,
        Some("must not be a variable pointer"),
    );
    judge(
        &body(VPSB, "%n = OpUntypedArrayLengthKHR %uint %Buf %a 1"),
        ENV,
        None,
    );
}
