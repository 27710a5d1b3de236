//! OpPtrAccessChain on a Workgroup pointer: the element step is the implementation's (the
//! element's size in the engine's workgroup layout), not the pointer type's ArrayStride
//! decoration, which SPIR-V 1.6 (OpPtrAccessChain) applies only to the Uniform, StorageBuffer
//! and PushConstant storage classes; google/amber's clspv-derived OpPtrAccessChain-on-workgroup
//! test adds a wrong ArrayStride and expects it ignored (docs/semantics/memory-and-resources.md,
//! "OpPtrAccessChain strides in Workgroup memory"). Expected values worked out by hand below.

use spvx_exec::{CompileOptions, CompiledModule, Resources, RunConfig};
use spvx_spirv::asm::{AsmOptions, assemble};

/// 16 invocations: data[i] = 10·i + 1, invocation 0 also data[16] = 999; after a barrier,
/// out[i] = *(OpPtrAccessChain &data[i], 1) through a pointer type decorated ArrayStride 8
/// (the real stride of `uint` is 4).
const TEXT: &str = r#"
OpCapability Shader
OpCapability VariablePointers
OpExtension "SPV_KHR_variable_pointers"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %lidx %data %out
OpExecutionMode %main LocalSize 16 1 1
OpDecorate %lidx BuiltIn LocalInvocationIndex
OpDecorate %rarr ArrayStride 4
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %Buf Block
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 0
OpDecorate %ptr_wg_uint ArrayStride 8
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%u10 = OpConstant %uint 10
%u16 = OpConstant %uint 16
%u17 = OpConstant %uint 17
%u999 = OpConstant %uint 999
%u264 = OpConstant %uint 264
%arr17 = OpTypeArray %uint %u17
%ptr_wg_arr = OpTypePointer Workgroup %arr17
%ptr_wg_uint = OpTypePointer Workgroup %uint
%data = OpVariable %ptr_wg_arr Workgroup
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
%pi = OpAccessChain %ptr_wg_uint %data %i
OpStore %pi %v
%first = OpIEqual %bool %i %u0
OpSelectionMerge %after None
OpBranchConditional %first %last %after
%last = OpLabel
%p16 = OpAccessChain %ptr_wg_uint %data %u16
OpStore %p16 %u999
OpBranch %after
%after = OpLabel
OpControlBarrier %u2 %u2 %u264
%q = OpPtrAccessChain %ptr_wg_uint %pi %u1
%x = OpLoad %uint %q
%o = OpAccessChain %ptr_sb_uint %out %u0 %i
OpStore %o %x
OpReturn
OpFunctionEnd
"#;

fn run(text: &str) -> Vec<u32> {
    let asm = assemble(text, &AsmOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let m = CompiledModule::from_bytes(&asm.bytes(), "main", &CompileOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let mut out = Vec::new();
    for jit in [false, true] {
        let mut res = Resources::new();
        res.set_words(0, 0, &[0; 16]);
        let cfg = RunConfig {
            jit,
            ..RunConfig::default()
        };
        let report = m
            .run(&mut res, [1, 1, 1], &cfg)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(report.total_events, 0, "{:?}", report.events);
        let words = res.words(0, 0).unwrap_or_default();
        if !out.is_empty() {
            assert_eq!(words, out, "JIT and interpreter differ");
        }
        out = words;
    }
    out
}

#[test]
fn workgroup_ptr_access_chain_ignores_array_stride() {
    // out[i] = data[i + 1]: 10·(i + 1) + 1 for i < 15, data[16] = 999 for i = 15.
    let expected: Vec<u32> = (0..16u32)
        .map(|i| if i < 15 { 10 * (i + 1) + 1 } else { 999 })
        .collect();
    assert_eq!(run(TEXT), expected);
}

#[test]
fn workgroup_ptr_access_chain_without_array_stride() {
    // The same without the decoration (the engine's own stride 4): the same answer.
    let text = TEXT.replace("OpDecorate %ptr_wg_uint ArrayStride 8\n", "");
    let expected: Vec<u32> = (0..16u32)
        .map(|i| if i < 15 { 10 * (i + 1) + 1 } else { 999 })
        .collect();
    assert_eq!(run(&text), expected);
}
