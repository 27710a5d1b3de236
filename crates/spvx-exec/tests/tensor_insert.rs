//! OpCompositeInsert into a shaped tensor value (SPV_ARM_tensors, issue 20): an element into
//! a rank-1 tensor, a row (a rank-1 tensor value) and an element into a rank-2 one, on the
//! interpreter and the JIT. Before, the validator accepted it and the engine refused it. The
//! insert makes a new value; the composite it came from is unchanged. Expected values are
//! worked out by hand in the comments (docs/semantics/tensors.md, "Tensor values: composites
//! and constants").

use spvx_exec::{CompileOptions, CompiledModule, Resources, RunConfig};
use spvx_spirv::asm::{AsmOptions, assemble};

const HEAD: &str = r#"
OpCapability Shader
OpCapability TensorsARM
OpExtension "SPV_ARM_tensors"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %lidx %out
OpExecutionMode %main LocalSize 4 1 1
OpDecorate %lidx BuiltIn LocalInvocationIndex
OpDecorate %rarr ArrayStride 4
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %Buf Block
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%u3 = OpConstant %uint 3
%u5 = OpConstant %uint 5
%u6 = OpConstant %uint 6
%u8 = OpConstant %uint 8
%i10 = OpConstant %int 10
%i100 = OpConstant %int 100
%i1000 = OpConstant %int 1000
%k7777 = OpConstant %int 7777
%k55 = OpConstant %int 55
%arr1 = OpTypeArray %uint %u1
%arr2 = OpTypeArray %uint %u2
%arr2int = OpTypeArray %int %u2
%shape8 = OpConstantComposite %arr1 %u8
%t8 = OpTypeTensorARM %int %u1 %shape8
%shape3 = OpConstantComposite %arr1 %u3
%t3 = OpTypeTensorARM %int %u1 %shape3
%shape23 = OpConstantComposite %arr2 %u2 %u3
%t23 = OpTypeTensorARM %int %u2 %shape23
%k0 = OpConstant %int 0
%k1 = OpConstant %int 1
%k2 = OpConstant %int 2
%k3 = OpConstant %int 3
%k4 = OpConstant %int 4
%k5 = OpConstant %int 5
%k6 = OpConstant %int 6
%k7 = OpConstant %int 7
%c3a = OpConstantComposite %t3 %k1 %k2 %k3
%c3b = OpConstantComposite %t3 %k4 %k5 %k6
%c23 = OpConstantComposite %t23 %c3a %c3b
%z23 = OpConstantNull %t23
%ptr_in_uint = OpTypePointer Input %uint
%lidx = OpVariable %ptr_in_uint Input
%rarr = OpTypeRuntimeArray %int
%Buf = OpTypeStruct %rarr
%ptr_sb_Buf = OpTypePointer StorageBuffer %Buf
%ptr_sb_int = OpTypePointer StorageBuffer %int
%out = OpVariable %ptr_sb_Buf StorageBuffer
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %uint %lidx
%ii = OpBitcast %int %i
%ten = OpIMul %int %ii %i10
%base = OpIMul %uint %i %u8
"#;

/// e_k = 10·i + k; r0 = (e0, e1, e2); r0x = r0 with [1] = 55; m = (r0, c3b) of shape [2, 3];
/// mx = m with row 1 = r0x; mx2 = mx with [0][2] = 7777.
const BODY: &str = "%e0 = OpIAdd %int %ten %k0
%e1 = OpIAdd %int %ten %k1
%e2 = OpIAdd %int %ten %k2
%r0 = OpCompositeConstruct %t3 %e0 %e1 %e2
%r0x = OpCompositeInsert %t3 %k55 %r0 1
%m = OpCompositeConstruct %t23 %r0 %c3b
%mx = OpCompositeInsert %t23 %r0x %m 1
%mx2 = OpCompositeInsert %t23 %k7777 %mx 0 2
%a0 = OpCompositeConstruct %arr1 %u0
%o0 = OpTensorReadARM %int %r0x %a0
%a1 = OpCompositeConstruct %arr1 %u1
%o1 = OpTensorReadARM %int %r0x %a1
%a2 = OpCompositeConstruct %arr1 %u2
%o2 = OpTensorReadARM %int %r0x %a2
%b0 = OpCompositeConstruct %arr2 %u1 %u0
%o3 = OpTensorReadARM %int %mx %b0
%b1 = OpCompositeConstruct %arr2 %u1 %u1
%o4 = OpTensorReadARM %int %mx %b1
%b2 = OpCompositeConstruct %arr2 %u1 %u2
%o5 = OpTensorReadARM %int %mx %b2
%b3 = OpCompositeConstruct %arr2 %u0 %u2
%o6 = OpTensorReadARM %int %mx2 %b3
%x7 = OpTensorReadARM %int %m %b0
%y7 = OpTensorReadARM %int %mx2 %b1
%y7k = OpIMul %int %y7 %i1000
%o7 = OpIAdd %int %x7 %y7k
";

fn text() -> String {
    let mut s = HEAD.to_string() + BODY;
    for j in 0..8 {
        s += &format!(
            "%at{j} = OpIAdd %uint %base %c{j}\n%p{j} = OpAccessChain %ptr_sb_int %out %u0 %at{j}\nOpStore %p{j} %o{j}\n"
        );
    }
    let consts: String = (0..8)
        .map(|j| format!("%c{j} = OpConstant %uint {j}\n"))
        .collect();
    s.replace(
        "%u8 = OpConstant %uint 8\n",
        &format!("%u8 = OpConstant %uint 8\n{consts}"),
    ) + "OpReturn\nOpFunctionEnd\n"
}

#[test]
fn composite_insert_into_tensor_values() {
    let asm = assemble(&text(), &AsmOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let m = CompiledModule::from_bytes(&asm.bytes(), "main", &CompileOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let mut prev: Option<Vec<u32>> = None;
    for jit in [false, true] {
        let mut res = Resources::new();
        res.set_words(0, 0, &[0xdead_beef; 32]);
        let cfg = RunConfig {
            jit,
            ..RunConfig::default()
        };
        let report = m
            .run(&mut res, [1, 1, 1], &cfg)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(report.total_events, 0, "{:?}", report.events);
        let out = res.words(0, 0).unwrap_or_default();
        for i in 0..4u32 {
            let t = 10 * i;
            // r0x = (t, 55, t + 2); mx row 1 = r0x; mx2[0][2] = 7777; m[1][0] = 4 (c3b,
            // unchanged by the insert) + 1000 · mx2[1][1] (55).
            let expected = [t, 55, t + 2, t, 55, t + 2, 7777, 4 + 55_000];
            let at = 8 * i as usize;
            assert_eq!(out[at..at + 8], expected, "invocation {i}, jit {jit}");
        }
        if let Some(p) = &prev {
            assert_eq!(&out, p, "JIT and interpreter differ");
        }
        prev = Some(out);
    }
}
