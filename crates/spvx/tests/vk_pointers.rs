//! Logical pointers on the engine and on the Vulkan device (lavapipe in CI), issue 20:
//! variable pointers (OpSelect, OpPhi, a function returning a pointer, pointers kept in
//! Function and Private variables, OpPtrAccessChain on them) and OpPtrEqual / OpPtrDiff on
//! StorageBuffer pointers. Both sides must give the hand-computed answers.

mod vk_common;

use spvx_vk::BufferData;
use std::collections::BTreeMap;
use vk_common::{asm, device, run_both};

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

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn buffer(binding: u32, values: &[u32]) -> BufferData {
    BufferData {
        set: 0,
        binding,
        bytes: values.iter().flat_map(|v| v.to_le_bytes()).collect(),
    }
}

#[test]
fn variable_pointers_agree_with_the_device() {
    let Some(dev) = device() else {
        return;
    };
    let a: Vec<u32> = (100..109).collect();
    let b: Vec<u32> = (200..209).collect();
    let bufs = vec![buffer(0, &a), buffer(1, &b), buffer(2, &[0; 8])];
    let r = run_both(&dev, &asm(VARIABLE), [1, 1, 1], bufs, None, BTreeMap::new());
    // base(i) = odd i ? b : a; element i + 1 for i < 4, else i.
    let expected = [101, 202, 103, 204, 104, 205, 106, 207];
    assert_eq!(words(&r.engine[2].bytes), expected, "engine");
    assert_eq!(words(&r.device[2].bytes), expected, "device");
}

#[test]
fn ptr_equal_and_diff_agree_with_the_device() {
    let Some(dev) = device() else {
        return;
    };
    let diff = PTR_EQUAL
        .replace("%e = OpPtrEqual %bool %p %q", "%e = OpPtrDiff %uint %p %q")
        .replace(
            "%r = OpSelect %uint %e %u1 %u0",
            "%r = OpCopyObject %uint %e",
        );
    for (text, expected) in [
        (PTR_EQUAL.to_string(), [0, 0, 1, 0]),
        (
            PTR_EQUAL.replace("OpPtrEqual", "OpPtrNotEqual"),
            [1, 1, 0, 1],
        ),
        (diff, [u32::MAX - 1, u32::MAX, 0, 1]),
    ] {
        let bufs = vec![buffer(0, &[9; 4])];
        let r = run_both(&dev, &asm(&text), [1, 1, 1], bufs, None, BTreeMap::new());
        assert_eq!(words(&r.engine[0].bytes), expected, "engine");
        assert_eq!(words(&r.device[0].bytes), expected, "device");
    }
}
