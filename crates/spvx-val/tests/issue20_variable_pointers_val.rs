//! The variable-pointer rules spirv-val 2025.5 applies beyond where a logical pointer may be an
//! operand (validate_logical_pointers.cpp): which instructions may return a logical pointer,
//! OpArrayLength of a variable pointer, OpSelect/OpPhi over two buffers without
//! VariablePointers, and variable pointers to arrays of blocks, to matrices and into matrix
//! columns. Each module is judged by spvx-val and by spirv-val, which must agree.

mod support;

use support::judge;

const ENV: &str = "vulkan1.2";

/// A compute module with StorageBuffer blocks %a and %b (bindings 0, 1) of type %Buf =
/// { uint x; vec2 v; uint rt[] } and %m (binding 2) of type %M = { mat2 m }, capabilities
/// `caps`, the types `extra_types`, and `body` in main's first block (ids %c (a bool),
/// %u0..%u3, %ptr_sb_Buf, %ptr_sb_M, %ptr_sb_uint, %ptr_sb_mat, %ptr_sb_vec available).
fn module(caps: &str, extra_types: &str, body: &str) -> String {
    format!(
        r#"OpCapability Shader
{caps}
OpExtension "SPV_KHR_variable_pointers"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %a %b %m
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %rarr ArrayStride 4
OpMemberDecorate %Buf 0 Offset 0
OpMemberDecorate %Buf 1 Offset 8
OpMemberDecorate %Buf 2 Offset 16
OpDecorate %Buf Block
OpMemberDecorate %M 0 Offset 0
OpMemberDecorate %M 0 ColMajor
OpMemberDecorate %M 0 MatrixStride 8
OpDecorate %M Block
OpDecorate %a DescriptorSet 0
OpDecorate %a Binding 0
OpDecorate %b DescriptorSet 0
OpDecorate %b Binding 1
OpDecorate %m DescriptorSet 0
OpDecorate %m Binding 2
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%vec2 = OpTypeVector %float 2
%mat2 = OpTypeMatrix %vec2 2
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%u3 = OpConstant %uint 3
%c = OpConstantTrue %bool
%rarr = OpTypeRuntimeArray %uint
%Buf = OpTypeStruct %uint %vec2 %rarr
%M = OpTypeStruct %mat2
%ptr_sb_Buf = OpTypePointer StorageBuffer %Buf
%ptr_sb_M = OpTypePointer StorageBuffer %M
%ptr_sb_uint = OpTypePointer StorageBuffer %uint
%ptr_sb_mat = OpTypePointer StorageBuffer %mat2
%ptr_sb_vec = OpTypePointer StorageBuffer %vec2
{extra_types}
%a = OpVariable %ptr_sb_Buf StorageBuffer
%b = OpVariable %ptr_sb_Buf StorageBuffer
%m = OpVariable %ptr_sb_M StorageBuffer
%main = OpFunction %void None %fn
%entry = OpLabel
{body}
OpReturn
OpFunctionEnd
"#
    )
}

const VPSB: &str = "OpCapability VariablePointersStorageBuffer";
const VP: &str = "OpCapability VariablePointers";

#[test]
fn a_null_pointer_constant_needs_variable_pointers() {
    let ty = "%null = OpConstantNull %ptr_sb_uint";
    judge(
        &module("", ty, ""),
        ENV,
        Some("may only return a logical pointer"),
    );
    judge(&module(VPSB, ty, ""), ENV, None);
}

#[test]
fn select_over_two_buffers_needs_variable_pointers() {
    let body = "%s = OpSelect %ptr_sb_Buf %c %a %b\n%p = OpAccessChain %ptr_sb_uint %s %u0\n\
                %x = OpLoad %uint %p";
    judge(&module(VPSB, "", body), ENV, Some("same structure"));
    judge(&module(VP, "", body), ENV, None);
    // Two members of one buffer: one structure.
    let body = "%p = OpAccessChain %ptr_sb_uint %a %u2 %u0\n%q = OpAccessChain %ptr_sb_uint %a %u2 %u1\n\
                %s = OpSelect %ptr_sb_uint %c %p %q\n%x = OpLoad %uint %s";
    judge(&module(VPSB, "", body), ENV, None);
}

#[test]
fn phi_over_two_buffers_needs_variable_pointers() {
    let body = "OpSelectionMerge %merge None\nOpBranchConditional %c %t %merge\n%t = OpLabel\n\
                %pb = OpAccessChain %ptr_sb_uint %b %u0\nOpBranch %merge\n%merge = OpLabel\n\
                %pa = OpAccessChain %ptr_sb_uint %a %u0\n";
    // %pa must dominate the OpPhi's use: define it first.
    let body = format!(
        "%pa0 = OpAccessChain %ptr_sb_uint %a %u0\n{}%s = OpPhi %ptr_sb_uint %pa0 %entry %pb %t\n%x = OpLoad %uint %s",
        body.replace("%pa = OpAccessChain %ptr_sb_uint %a %u0\n", "")
    );
    judge(&module(VPSB, "", &body), ENV, Some("same structure"));
    judge(&module(VP, "", &body), ENV, None);
}

#[test]
fn array_length_of_a_variable_pointer_is_rejected() {
    let body = "%s = OpSelect %ptr_sb_Buf %c %a %a\n%n = OpArrayLength %uint %s 2";
    judge(
        &module(VPSB, "", body),
        ENV,
        Some("must not be a variable pointer"),
    );
    let body = "%n = OpArrayLength %uint %a 2";
    judge(&module(VPSB, "", body), ENV, None);
}

#[test]
fn a_variable_pointer_to_a_matrix_is_rejected() {
    let body = "%s = OpSelect %ptr_sb_M %c %m %m\n%pm = OpAccessChain %ptr_sb_mat %s %u0";
    judge(
        &module(VPSB, "", body),
        ENV,
        Some("is or contains a matrix"),
    );
    // The select itself points to a struct containing a matrix.
    let body = "%s = OpSelect %ptr_sb_M %c %m %m";
    judge(
        &module(VPSB, "", body),
        ENV,
        Some("is or contains a matrix"),
    );
}

#[test]
fn a_variable_pointer_into_a_matrix_column_is_rejected() {
    let body = "%p = OpAccessChain %ptr_sb_vec %m %u0 %u0\n%q = OpAccessChain %ptr_sb_vec %m %u0 %u1\n\
                %s = OpSelect %ptr_sb_vec %c %p %q\n%x = OpLoad %vec2 %s";
    judge(&module(VPSB, "", body), ENV, Some("column of a matrix"));
    // Two plain vec2 members are fine.
    let body = "%p = OpAccessChain %ptr_sb_vec %a %u1\n%q = OpAccessChain %ptr_sb_vec %a %u1\n\
                %s = OpSelect %ptr_sb_vec %c %p %q\n%x = OpLoad %vec2 %s";
    judge(&module(VPSB, "", body), ENV, None);
}

#[test]
fn a_variable_pointer_to_an_array_of_blocks_is_rejected() {
    let text = module(VPSB, "", "")
        .replace(
            "OpDecorate %b Binding 1",
            "OpDecorate %b Binding 1\nOpDecorate %arr DescriptorSet 0\nOpDecorate %arr Binding 3",
        )
        .replace(
            "%a = OpVariable",
            "%arr2 = OpTypeArray %Buf %u2\n%ptr_sb_arr = OpTypePointer StorageBuffer %arr2\n\
             %arr = OpVariable %ptr_sb_arr StorageBuffer\n%a = OpVariable",
        )
        .replace("\"main\" %a %b %m", "\"main\" %a %b %m %arr")
        .replace(
            "%entry = OpLabel\n",
            "%entry = OpLabel\n%s = OpSelect %ptr_sb_arr %c %arr %arr\n",
        );
    judge(
        &text,
        ENV,
        Some("array of Block- or BufferBlock-decorated structs"),
    );
}

#[test]
fn ptr_access_chain_bases_need_an_array_stride() {
    let body = "%p = OpAccessChain %ptr_sb_uint %a %u2 %u0\n%q = OpPtrAccessChain %ptr_sb_uint %p %u1\n\
                %x = OpLoad %uint %q";
    judge(
        &module(VPSB, "", body),
        ENV,
        Some("must have a Base whose type is decorated with ArrayStride"),
    );
    let text = module(VPSB, "", body).replace(
        "OpDecorate %Buf Block",
        "OpDecorate %Buf Block\nOpDecorate %ptr_sb_uint ArrayStride 4",
    );
    judge(&text, ENV, None);
}

#[test]
fn variables_holding_pointers_are_function_or_private() {
    // A Workgroup variable holding a Workgroup pointer (VariablePointers).
    let text = module(
        VP,
        "%arr = OpTypeArray %uint %u2\n%ptr_wg_arr = OpTypePointer Workgroup %arr\n\
         %ptr_wg_uint = OpTypePointer Workgroup %uint\n%ptr_wg_ptr = OpTypePointer Workgroup %ptr_wg_uint\n\
         %w = OpVariable %ptr_wg_arr Workgroup\n%h = OpVariable %ptr_wg_ptr Workgroup",
        "",
    )
    .replace("\"main\" %a %b %m", "\"main\" %a %b %m %w %h");
    judge(&text, ENV, Some("must be in Function or Private"));
    // The same pointer held in a Private variable.
    let text = text
        .replace(
            "%ptr_wg_ptr = OpTypePointer Workgroup %ptr_wg_uint",
            "%ptr_wg_ptr = OpTypePointer Private %ptr_wg_uint",
        )
        .replace(
            "%h = OpVariable %ptr_wg_ptr Workgroup",
            "%h = OpVariable %ptr_wg_ptr Private",
        );
    judge(&text, ENV, None);
}

/// A module with one StorageBuffer block %b = { uint; uint[] } (or `class`/`block` changed)
/// and `body` in main.
fn array_length_module(body: &str) -> String {
    format!(
        r#"OpCapability Shader
OpCapability Int64
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %b
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %rarr ArrayStride 4
OpMemberDecorate %B 0 Offset 0
OpMemberDecorate %B 1 Offset 4
OpDecorate %B Block
OpDecorate %b DescriptorSet 0
OpDecorate %b Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%ulong = OpTypeInt 64 0
%rarr = OpTypeRuntimeArray %uint
%B = OpTypeStruct %uint %rarr
%pb = OpTypePointer StorageBuffer %B
%b = OpVariable %pb StorageBuffer
%main = OpFunction %void None %fn
%e = OpLabel
{body}
OpReturn
OpFunctionEnd
"#
    )
}

#[test]
fn array_length_operands_follow_spirv_val() {
    judge(
        &array_length_module("%n = OpArrayLength %uint %b 1"),
        ENV,
        None,
    );
    // spirv-val 2025.5 accepts a 64-bit unsigned result too.
    judge(
        &array_length_module("%n = OpArrayLength %ulong %b 1"),
        ENV,
        None,
    );
    judge(
        &array_length_module("%n = OpArrayLength %int %b 1"),
        ENV,
        Some("width 32 or 64 and signedness 0"),
    );
    judge(
        &array_length_module("%n = OpArrayLength %uint %b 0"),
        ENV,
        Some("must be the last member"),
    );
}

#[test]
fn array_length_of_a_uniform_block_is_rejected_in_vulkan() {
    let text = array_length_module("%n = OpArrayLength %uint %b 1")
        .replace(
            "%pb = OpTypePointer StorageBuffer %B",
            "%pb = OpTypePointer Uniform %B",
        )
        .replace(
            "%b = OpVariable %pb StorageBuffer",
            "%b = OpVariable %pb Uniform",
        )
        .replace(
            "OpDecorate %rarr ArrayStride 4",
            "OpDecorate %rarr ArrayStride 16",
        )
        .replace(
            "OpMemberDecorate %B 1 Offset 4",
            "OpMemberDecorate %B 1 Offset 16",
        );
    judge(&text, ENV, Some("OpArrayLength-11805"));
    judge(&text, "spv1.5", None);
    // A BufferBlock in Uniform is a storage buffer: allowed (SPIR-V 1.3).
    let text = text
        .replace("OpDecorate %B Block", "OpDecorate %B BufferBlock")
        .replace("\"main\" %b", "\"main\"");
    judge(&text, "vulkan1.1", None);
}
