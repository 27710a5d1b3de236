//! Regression tests of issue 20 (pointers and workgroup layout), each checked against
//! spirv-val 2025.5: the entry-point rules of SPV_KHR_workgroup_memory_explicit_layout
//! (Workgroup blocks need the capability, all or none of the Workgroup variables are blocks,
//! several blocks are Aliased), the 8- and 16-bit types its access capabilities allow, and
//! OpPtrEqual / OpPtrDiff / variable pointers under Logical addressing.

mod support;

use support::judge;

// ---------------------------------------------------------------------------------------------
// SPV_KHR_workgroup_memory_explicit_layout.

/// Two Aliased Workgroup blocks (A { uint[4] }, B { uint; uint[3] }) viewing the same bytes.
const BLOCKS: &str = r#"
OpCapability Shader
OpCapability WorkgroupMemoryExplicitLayoutKHR
OpExtension "SPV_KHR_workgroup_memory_explicit_layout"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %lidx %wa %wb %out
OpExecutionMode %main LocalSize 4 1 1
OpDecorate %lidx BuiltIn LocalInvocationIndex
OpDecorate %rarr ArrayStride 4
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %Buf Block
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 0
OpDecorate %arr4 ArrayStride 4
OpDecorate %arr3 ArrayStride 4
OpMemberDecorate %A 0 Offset 0
OpDecorate %A Block
OpMemberDecorate %B 0 Offset 0
OpMemberDecorate %B 1 Offset 4
OpDecorate %B Block
OpDecorate %wa Aliased
OpDecorate %wb Aliased
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%u3 = OpConstant %uint 3
%u4 = OpConstant %uint 4
%u10 = OpConstant %uint 10
%u264 = OpConstant %uint 264
%arr4 = OpTypeArray %uint %u4
%arr3 = OpTypeArray %uint %u3
%A = OpTypeStruct %arr4
%B = OpTypeStruct %uint %arr3
%ptr_wg_A = OpTypePointer Workgroup %A
%ptr_wg_B = OpTypePointer Workgroup %B
%ptr_wg_uint = OpTypePointer Workgroup %uint
%wa = OpVariable %ptr_wg_A Workgroup
%wb = OpVariable %ptr_wg_B Workgroup
%ptr_in_uint = OpTypePointer Input %uint
%lidx = OpVariable %ptr_in_uint Input
%rarr = OpTypeRuntimeArray %uint
%Buf = OpTypeStruct %rarr
%ptr_sb_Buf = OpTypePointer StorageBuffer %Buf
%ptr_sb_uint = OpTypePointer StorageBuffer %uint
%out = OpVariable %ptr_sb_Buf StorageBuffer
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %uint %lidx
%t = OpIMul %uint %i %u10
%v = OpIAdd %uint %t %u1
%pa = OpAccessChain %ptr_wg_uint %wa %u0 %i
OpStore %pa %v
OpControlBarrier %u2 %u2 %u264
%first = OpIEqual %bool %i %u0
OpSelectionMerge %merge None
OpBranchConditional %first %zero %rest
%zero = OpLabel
%p0 = OpAccessChain %ptr_wg_uint %wb %u0
%x0 = OpLoad %uint %p0
OpBranch %merge
%rest = OpLabel
%im1 = OpISub %uint %i %u1
%pr = OpAccessChain %ptr_wg_uint %wb %u1 %im1
%xr = OpLoad %uint %pr
OpBranch %merge
%merge = OpLabel
%x = OpPhi %uint %x0 %zero %xr %rest
%o = OpAccessChain %ptr_sb_uint %out %u0 %i
OpStore %o %x
OpReturn
OpFunctionEnd
"#;

#[test]
fn aliased_workgroup_blocks_are_valid() {
    judge(BLOCKS, "vulkan1.2", None);
}

#[test]
fn workgroup_block_without_the_capability_is_rejected() {
    let m = BLOCKS.replace("OpCapability WorkgroupMemoryExplicitLayoutKHR\n", "");
    judge(
        &m,
        "vulkan1.2",
        Some("can't be decorated with Block unless"),
    );
}

#[test]
fn workgroup_blocks_beside_a_plain_workgroup_variable_are_rejected() {
    let m = BLOCKS
        .replace("%lidx %wa %wb %out", "%lidx %wa %wb %wx %out")
        .replace(
            "%wb = OpVariable %ptr_wg_B Workgroup\n",
            "%wb = OpVariable %ptr_wg_B Workgroup\n%wx = OpVariable %ptr_wg_uint Workgroup\n",
        );
    judge(&m, "vulkan1.2", Some("either all or none"));
}

#[test]
fn two_workgroup_blocks_one_not_aliased_are_rejected() {
    let m = BLOCKS.replace("OpDecorate %wb Aliased\n", "");
    judge(&m, "vulkan1.2", Some("must be decorated with Aliased"));
}

#[test]
fn one_workgroup_block_needs_no_aliased() {
    let m = BLOCKS
        .replace("%lidx %wa %wb %out", "%lidx %wa %out")
        .replace("OpDecorate %wa Aliased\n", "")
        .replace("OpDecorate %wb Aliased\n", "")
        .replace("%wb = OpVariable %ptr_wg_B Workgroup\n", "")
        .replace(
            "%p0 = OpAccessChain %ptr_wg_uint %wb %u0",
            "%p0 = OpAccessChain %ptr_wg_uint %wa %u0 %u0",
        )
        .replace(
            "%pr = OpAccessChain %ptr_wg_uint %wb %u1 %im1",
            "%pr = OpAccessChain %ptr_wg_uint %wa %u0 %im1",
        );
    judge(&m, "vulkan1.2", None);
}

/// A module declaring `caps` with a Workgroup block holding one member of type `ty`.
fn small_block(caps: &str, ty: &str) -> String {
    format!(
        "OpCapability Shader
OpCapability WorkgroupMemoryExplicitLayoutKHR
{caps}
OpExtension \"SPV_KHR_workgroup_memory_explicit_layout\"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main \"main\" %w
OpExecutionMode %main LocalSize 1 1 1
OpMemberDecorate %S 0 Offset 0
OpDecorate %S Block
%void = OpTypeVoid
%fn = OpTypeFunction %void
%t = {ty}
%S = OpTypeStruct %t
%p = OpTypePointer Workgroup %S
%w = OpVariable %p Workgroup
%main = OpFunction %void None %fn
%e = OpLabel
OpReturn
OpFunctionEnd
"
    )
}

#[test]
fn the_16_bit_access_capability_declares_16_bit_types() {
    let cap = "OpCapability WorkgroupMemoryExplicitLayout16BitAccessKHR";
    judge(&small_block(cap, "OpTypeInt 16 0"), "vulkan1.2", None);
    judge(&small_block(cap, "OpTypeFloat 16"), "vulkan1.2", None);
    judge(
        &small_block(cap, "OpTypeInt 8 0"),
        "vulkan1.2",
        Some("requires the Int8 capability"),
    );
}

#[test]
fn the_8_bit_access_capability_declares_8_bit_integers() {
    let cap = "OpCapability WorkgroupMemoryExplicitLayout8BitAccessKHR";
    judge(&small_block(cap, "OpTypeInt 8 0"), "vulkan1.2", None);
    judge(
        &small_block(cap, "OpTypeInt 16 0"),
        "vulkan1.2",
        Some("requires the Int16 capability"),
    );
}

// ---------------------------------------------------------------------------------------------
// OpPtrEqual, OpPtrNotEqual, OpPtrDiff and variable pointers under Logical addressing.

/// OpPtrEqual on two StorageBuffer pointers with VariablePointersStorageBuffer.
const PTR_EQUAL: &str = r#"
OpCapability Shader
OpCapability VariablePointersStorageBuffer
OpExtension "SPV_KHR_variable_pointers"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid %out
OpExecutionMode %main LocalSize 4 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %rarr ArrayStride 4
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %Buf Block
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%v3 = OpTypeVector %uint 3
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%rarr = OpTypeRuntimeArray %uint
%Buf = OpTypeStruct %rarr
%ptr_sb_Buf = OpTypePointer StorageBuffer %Buf
%ptr_sb_uint = OpTypePointer StorageBuffer %uint
%ptr_in_v3 = OpTypePointer Input %v3
%ptr_in_uint = OpTypePointer Input %uint
%gid = OpVariable %ptr_in_v3 Input
%out = OpVariable %ptr_sb_Buf StorageBuffer
%main = OpFunction %void None %fn
%entry = OpLabel
%gp = OpAccessChain %ptr_in_uint %gid %u0
%i = OpLoad %uint %gp
%p = OpAccessChain %ptr_sb_uint %out %u0 %i
%q = OpAccessChain %ptr_sb_uint %out %u0 %u2
%e = OpPtrEqual %bool %p %q
%r = OpSelect %uint %e %u1 %u0
OpStore %p %r
OpReturn
OpFunctionEnd
"#;

#[test]
fn ptr_equal_with_variable_pointers_storage_buffer_is_valid() {
    judge(PTR_EQUAL, "vulkan1.1spv1.4", None);
    let m = PTR_EQUAL.replace("OpPtrEqual", "OpPtrNotEqual");
    judge(&m, "vulkan1.1spv1.4", None);
    let m = PTR_EQUAL
        .replace("%e = OpPtrEqual %bool %p %q", "%d = OpPtrDiff %uint %p %q")
        .replace(
            "%r = OpSelect %uint %e %u1 %u0",
            "%r = OpCopyObject %uint %d",
        );
    judge(&m, "vulkan1.1spv1.4", None);
}

#[test]
fn ptr_equal_without_variable_pointers_is_rejected() {
    let m = PTR_EQUAL
        .replace("OpCapability VariablePointersStorageBuffer\n", "")
        .replace("OpExtension \"SPV_KHR_variable_pointers\"\n", "");
    judge(&m, "vulkan1.1spv1.4", Some("variable pointers capability"));
}

/// Variable pointers: OpSelect between two buffers in a function returning the pointer, the
/// result kept in a Function and a Private variable, OpPtrAccessChain and OpPhi on it.
const VARIABLE: &str = r#"
OpCapability Shader
OpCapability VariablePointers
OpExtension "SPV_KHR_variable_pointers"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid %a %b %out %priv
OpExecutionMode %main LocalSize 8 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %rarr ArrayStride 4
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %Buf Block
OpDecorate %a DescriptorSet 0
OpDecorate %a Binding 0
OpDecorate %b DescriptorSet 0
OpDecorate %b Binding 1
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 2
OpDecorate %ptr_sb_uint ArrayStride 4
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%v3 = OpTypeVector %uint 3
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u4 = OpConstant %uint 4
%rarr = OpTypeRuntimeArray %uint
%Buf = OpTypeStruct %rarr
%ptr_sb_Buf = OpTypePointer StorageBuffer %Buf
%ptr_sb_uint = OpTypePointer StorageBuffer %uint
%ptr_fn_ptr = OpTypePointer Function %ptr_sb_uint
%ptr_pr_ptr = OpTypePointer Private %ptr_sb_uint
%ptr_in_v3 = OpTypePointer Input %v3
%ptr_in_uint = OpTypePointer Input %uint
%pick_ty = OpTypeFunction %ptr_sb_uint %ptr_sb_uint %ptr_sb_uint %bool
%gid = OpVariable %ptr_in_v3 Input
%a = OpVariable %ptr_sb_Buf StorageBuffer
%b = OpVariable %ptr_sb_Buf StorageBuffer
%out = OpVariable %ptr_sb_Buf StorageBuffer
%priv = OpVariable %ptr_pr_ptr Private
%pick = OpFunction %ptr_sb_uint None %pick_ty
%p = OpFunctionParameter %ptr_sb_uint
%q = OpFunctionParameter %ptr_sb_uint
%c = OpFunctionParameter %bool
%pick_entry = OpLabel
%s = OpSelect %ptr_sb_uint %c %q %p
OpReturnValue %s
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
%pv = OpVariable %ptr_fn_ptr Function
%gp = OpAccessChain %ptr_in_uint %gid %u0
%i = OpLoad %uint %gp
%pa = OpAccessChain %ptr_sb_uint %a %u0 %i
%pb = OpAccessChain %ptr_sb_uint %b %u0 %i
%low = OpBitwiseAnd %uint %i %u1
%odd = OpIEqual %bool %low %u1
%sel = OpFunctionCall %ptr_sb_uint %pick %pa %pb %odd
OpStore %pv %sel
OpStore %priv %sel
%ld = OpLoad %ptr_sb_uint %pv
%small = OpULessThan %bool %i %u4
OpSelectionMerge %merge None
OpBranchConditional %small %then %merge
%then = OpLabel
%ld2 = OpLoad %ptr_sb_uint %priv
%next = OpPtrAccessChain %ptr_sb_uint %ld2 %u1
OpBranch %merge
%merge = OpLabel
%t = OpPhi %ptr_sb_uint %next %then %ld %entry
%x = OpLoad %uint %t
%o = OpAccessChain %ptr_sb_uint %out %u0 %i
OpStore %o %x
OpReturn
OpFunctionEnd
"#;

#[test]
fn variable_pointers_into_two_buffers_are_valid() {
    judge(VARIABLE, "vulkan1.1spv1.4", None);
}
