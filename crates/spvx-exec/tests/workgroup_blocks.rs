//! Workgroup memory with explicit layout (SPV_KHR_workgroup_memory_explicit_layout, issue 20):
//! Workgroup variables whose type is a Block-decorated struct share one storage — each starts
//! at the same address and its members sit at their Offsets. Before, spvx gave each variable
//! its own memory, silently: the views below read zeros. Expected values are worked out by hand
//! in the comments (docs/semantics/memory-and-resources.md, "Workgroup blocks").

use spvx_exec::{CompileOptions, CompiledModule, Resources, RunConfig};
use spvx_spirv::asm::{AsmOptions, assemble};

/// Three Aliased blocks over the same bytes: A { uint a[4] }, B { uint b0 @0; uint b[3] @4 },
/// C { ushort h[8] } (WorkgroupMemoryExplicitLayout16BitAccessKHR). Invocation i writes
/// a[i] = 70000·i + 1; after a barrier it reads the same word through B (b0 for i = 0, else
/// b[i − 1]) into out[i], and its two halves through C (h[2i], h[2i + 1]) into
/// out[4 + i] = h[2i] + 100000·h[2i + 1].
const BLOCKS: &str = r#"
OpCapability Shader
OpCapability WorkgroupMemoryExplicitLayoutKHR
OpCapability WorkgroupMemoryExplicitLayout16BitAccessKHR
OpExtension "SPV_KHR_workgroup_memory_explicit_layout"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %lidx %wa %wb %wc %out
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
OpDecorate %wc Aliased
OpDecorate %arr8h ArrayStride 2
OpMemberDecorate %C 0 Offset 0
OpDecorate %C Block
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%u3 = OpConstant %uint 3
%u4 = OpConstant %uint 4
%u10 = OpConstant %uint 70000
%u100k = OpConstant %uint 100000
%u8 = OpConstant %uint 8
%ushort = OpTypeInt 16 0
%arr8h = OpTypeArray %ushort %u8
%C = OpTypeStruct %arr8h
%ptr_wg_C = OpTypePointer Workgroup %C
%ptr_wg_ushort = OpTypePointer Workgroup %ushort
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
%wc = OpVariable %ptr_wg_C Workgroup
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
%i2 = OpIMul %uint %i %u2
%i2p = OpIAdd %uint %i2 %u1
%ph = OpAccessChain %ptr_wg_ushort %wc %u0 %i2
%h0 = OpLoad %ushort %ph
%ph1 = OpAccessChain %ptr_wg_ushort %wc %u0 %i2p
%h1 = OpLoad %ushort %ph1
%h0w = OpUConvert %uint %h0
%h1w = OpUConvert %uint %h1
%j = OpIAdd %uint %i %u4
%oj = OpAccessChain %ptr_sb_uint %out %u0 %j
%hv = OpIMul %uint %h1w %u100k
%hs = OpIAdd %uint %h0w %hv
OpStore %oj %hs
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
        res.set_words(0, 0, &[0xdead_beef; 8]);
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

/// The answer: out[i] = 70000·i + 1, out[4 + i] = its low half + 100000 · its high half.
fn expected() -> Vec<u32> {
    let word = |i: u32| 70000 * i + 1;
    let mut v: Vec<u32> = (0..4).map(word).collect();
    v.extend((0..4).map(|i| (word(i) & 0xffff) + 100_000 * (word(i) >> 16)));
    v
}

#[test]
fn workgroup_blocks_alias_at_their_offsets() {
    // out = [1, 70001, 140001, 210001, 1, 4465 + 100000·1, 8929 + 100000·2, 13393 + 100000·3].
    assert_eq!(
        expected(),
        [1, 70001, 140001, 210001, 1, 104465, 208929, 313393]
    );
    assert_eq!(run(BLOCKS), expected());
}

#[test]
fn workgroup_blocks_alias_in_any_declaration_order() {
    // The largest view (C, 16 bytes, like A) declared first, then B (16 bytes): the same.
    let text = BLOCKS.replace(
        "%wa = OpVariable %ptr_wg_A Workgroup\n%wb = OpVariable %ptr_wg_B Workgroup\n%wc = OpVariable %ptr_wg_C Workgroup\n",
        "%wc = OpVariable %ptr_wg_C Workgroup\n%wb = OpVariable %ptr_wg_B Workgroup\n%wa = OpVariable %ptr_wg_A Workgroup\n",
    );
    assert_ne!(text, BLOCKS);
    assert_eq!(run(&text), expected());
}
