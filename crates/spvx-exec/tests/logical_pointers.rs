//! Logical pointers (issue 20): OpPtrEqual, OpPtrNotEqual and OpPtrDiff under Logical
//! addressing (SPIR-V 1.4 with VariablePointers / VariablePointersStorageBuffer), and variable
//! pointers: pointers selected (OpSelect), phi'd, stored in Function and Private variables,
//! passed to and returned from functions, stepped with OpPtrAccessChain. Before, the engine
//! refused the comparisons ("OpPtrEqual with Logical addressing") and Private variables holding
//! pointers. Expected values are worked out by hand in the comments
//! (docs/semantics/memory-and-resources.md, "Logical pointers").

use spvx_exec::{CompileOptions, CompiledModule, Resources, RunConfig, UbKind};
use spvx_spirv::asm::{AsmOptions, assemble};

/// Runs `text` (one workgroup) on the interpreter and the JIT with `inputs` bound at set 0,
/// bindings 0.., and an output of `n` words at the next binding; returns the output (the same
/// on both engines) and the undefined-behaviour events' kinds.
fn run(text: &str, inputs: &[Vec<u32>], n: usize) -> (Vec<u32>, Vec<UbKind>) {
    let asm = assemble(text, &AsmOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let m = CompiledModule::from_bytes(&asm.bytes(), "main", &CompileOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let mut out: Option<(Vec<u32>, Vec<UbKind>)> = None;
    for jit in [false, true] {
        let mut res = Resources::new();
        for (b, words) in inputs.iter().enumerate() {
            res.set_words(0, b as u32, words);
        }
        let ob = inputs.len() as u32;
        res.set_words(0, ob, &vec![0xdead_beef; n]);
        let cfg = RunConfig {
            jit,
            ..RunConfig::default()
        };
        let report = m
            .run(&mut res, [1, 1, 1], &cfg)
            .unwrap_or_else(|e| panic!("{e}"));
        let kinds = report.events.iter().map(|e| e.kind.clone()).collect();
        let got = (res.words(0, ob).unwrap_or_default(), kinds);
        if let Some(prev) = &out {
            assert_eq!(&got, prev, "JIT and interpreter differ");
        }
        out = Some(got);
    }
    out.unwrap_or_default()
}

/// 4 invocations: out[i] = (&out[i] == &out[2]) ? 1 : 0, through OpPtrEqual on StorageBuffer
/// pointers (VariablePointersStorageBuffer).
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
fn ptr_equal_on_storage_buffer_pointers() {
    let (out, events) = run(PTR_EQUAL, &[], 4);
    assert_eq!(out, [0, 0, 1, 0]);
    assert!(events.is_empty(), "{events:?}");
}

#[test]
fn ptr_not_equal_on_storage_buffer_pointers() {
    let text = PTR_EQUAL.replace("OpPtrEqual", "OpPtrNotEqual");
    let (out, _) = run(&text, &[], 4);
    assert_eq!(out, [1, 1, 0, 1]);
}

#[test]
fn ptr_diff_on_storage_buffer_pointers() {
    // out[i] = &out[i] - &out[2] in elements: i - 2 (as a 32-bit integer).
    let text = PTR_EQUAL
        .replace("%e = OpPtrEqual %bool %p %q", "%e = OpPtrDiff %uint %p %q")
        .replace(
            "%r = OpSelect %uint %e %u1 %u0",
            "%r = OpCopyObject %uint %e",
        );
    let (out, events) = run(&text, &[], 4);
    let expected: Vec<u32> = (0..4i32).map(|i| (i - 2) as u32).collect();
    assert_eq!(out, expected);
    assert!(events.is_empty(), "{events:?}");
}

#[test]
fn ptr_diff_counts_array_stride_elements() {
    // A pointer type decorated ArrayStride 8 (its pointee is still a uint): OpPtrDiff counts
    // in the units OpPtrAccessChain steps by, the ArrayStride. The pointers are 4·(i − 2) bytes
    // apart, so the difference is (4·(i − 2)) / 8, rounded toward zero: −1, 0, 0, 0.
    let text = PTR_EQUAL
        .replace(
            "OpDecorate %out Binding 0\n",
            "OpDecorate %out Binding 0\nOpDecorate %ptr_sb_uint ArrayStride 8\n",
        )
        .replace("%e = OpPtrEqual %bool %p %q", "%e = OpPtrDiff %uint %p %q")
        .replace(
            "%r = OpSelect %uint %e %u1 %u0",
            "%r = OpCopyObject %uint %e",
        );
    let (out, _) = run(&text, &[], 4);
    assert_eq!(out, [u32::MAX, 0, 0, 0]);
}

/// Workgroup pointers (VariablePointers): two Workgroup arrays; OpPtrEqual between `&wa[i]`
/// and `sel ? &wa[1] : &wb[1]` (an OpSelect of pointers into different variables), OpPtrDiff
/// between `&wa[i]` and `&wa[1]`.
const WORKGROUP: &str = r#"
OpCapability Shader
OpCapability VariablePointers
OpExtension "SPV_KHR_variable_pointers"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %lidx %wa %wb %out
OpExecutionMode %main LocalSize 4 1 1
OpDecorate %lidx BuiltIn LocalInvocationIndex
OpDecorate %rarr ArrayStride 4
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %Buf Block
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%u4 = OpConstant %uint 4
%u8 = OpConstant %uint 8
%u100 = OpConstant %uint 100
%arr4 = OpTypeArray %uint %u4
%ptr_wg_arr = OpTypePointer Workgroup %arr4
%ptr_wg_uint = OpTypePointer Workgroup %uint
%wa = OpVariable %ptr_wg_arr Workgroup
%wb = OpVariable %ptr_wg_arr Workgroup
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
%pi = OpAccessChain %ptr_wg_uint %wa %i
%pa1 = OpAccessChain %ptr_wg_uint %wa %u1
%pb1 = OpAccessChain %ptr_wg_uint %wb %u1
%odd = OpULessThan %bool %i %u2
%sel = OpSelect %ptr_wg_uint %odd %pa1 %pb1
%eq = OpPtrEqual %bool %pi %sel
%eqv = OpSelect %uint %eq %u100 %u0
%d = OpPtrDiff %uint %pi %pa1
%r = OpIAdd %uint %eqv %d
%o = OpAccessChain %ptr_sb_uint %out %u0 %i
OpStore %o %r
OpReturn
OpFunctionEnd
"#;

#[test]
fn ptr_equal_and_diff_on_workgroup_pointers() {
    // i < 2 selects &wa[1], else &wb[1]. out[i] = 100·(&wa[i] == sel) + (i − 1):
    // i=0: 0 + (−1); i=1: 100 + 0; i=2, 3: 0 + 1, 0 + 2 (wb is another variable: never equal).
    let (out, events) = run(WORKGROUP, &[], 4);
    assert_eq!(out, [u32::MAX, 100, 1, 2]);
    assert!(events.is_empty(), "{events:?}");
}

#[test]
fn ptr_diff_across_buffers_is_zero_with_an_event() {
    // OpPtrDiff of &out[i] and &in[2], two different buffers (undefined: the spec requires
    // pointers into the same array): 0 and one event per invocation.
    let text = PTR_EQUAL
        .replace("%gid %out", "%gid %in %out")
        .replace(
            "OpDecorate %out Binding 0\n",
            "OpDecorate %out Binding 1\nOpDecorate %in DescriptorSet 0\nOpDecorate %in Binding 0\n",
        )
        .replace(
            "%out = OpVariable %ptr_sb_Buf StorageBuffer\n",
            "%out = OpVariable %ptr_sb_Buf StorageBuffer\n%in = OpVariable %ptr_sb_Buf StorageBuffer\n",
        )
        .replace("%q = OpAccessChain %ptr_sb_uint %out %u0 %u2", "%q = OpAccessChain %ptr_sb_uint %in %u0 %u2")
        .replace("%e = OpPtrEqual %bool %p %q", "%e = OpPtrDiff %uint %p %q")
        .replace("%r = OpSelect %uint %e %u1 %u0", "%r = OpCopyObject %uint %e");
    let (out, events) = run(&text, &[vec![7; 4]], 4);
    assert_eq!(out, [0; 4]);
    assert_eq!(events, vec![UbKind::PointerDiffAcrossObjects; 4]);
}

/// Variable pointers into StorageBuffer memory (VariablePointers): %pick(p, q, c) returns
/// `c ? q : p` (OpSelect, OpReturnValue); its result is stored in a Function and a Private
/// variable and loaded back; invocations 0..3 step it by one element (OpPtrAccessChain on the
/// loaded pointer) and an OpPhi merges the two; out[i] = *that.
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
fn variable_pointers_select_phi_call_store_and_step() {
    let a: Vec<u32> = (0..9).map(|k| 100 + k).collect();
    let b: Vec<u32> = (0..9).map(|k| 200 + k).collect();
    // base(i) = odd i ? b : a; element i + 1 for i < 4, else i.
    let expected: Vec<u32> = (0..8u32)
        .map(|i| {
            let base = if i % 2 == 1 { 200 } else { 100 };
            base + if i < 4 { i + 1 } else { i }
        })
        .collect();
    let (out, events) = run(VARIABLE, &[a, b], 8);
    assert_eq!(out, expected);
    assert!(events.is_empty(), "{events:?}");
    assert_eq!(out, [101, 202, 103, 204, 104, 205, 106, 207]);
}

#[test]
fn variable_pointer_null_reads_zero_with_an_event() {
    // The Private variable is given the null pointer (OpConstantNull, allowed with variable
    // pointers) instead of %sel: invocations 0..3, which step and read through it, read out of
    // bounds of no memory: 0 and an event each; the others read through the Function
    // variable as before.
    let text = VARIABLE
        .replace(
            "%ptr_sb_uint = OpTypePointer StorageBuffer %uint\n",
            "%ptr_sb_uint = OpTypePointer StorageBuffer %uint\n%null = OpConstantNull %ptr_sb_uint\n",
        )
        .replace("OpStore %priv %sel", "OpStore %priv %null");
    let (out, events) = run(&text, &[(100..109).collect(), (200..209).collect()], 8);
    assert_eq!(out, [0, 0, 0, 0, 104, 205, 106, 207]);
    assert_eq!(events.len(), 4, "{events:?}");
}
