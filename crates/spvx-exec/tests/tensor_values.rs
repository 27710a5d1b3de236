//! Shaped tensor values (SPV_ARM_tensors: an `OpTypeTensorARM` with a Shape is a composite):
//! OpCompositeConstruct of rank-1 and rank-2 tensors (8 constituents — which panicked the
//! interpreter), tensor constants (OpConstantComposite of constituent constants, of constant
//! sub-tensors, OpConstantNull), OpTensorReadARM (element, array and out-of-bounds reads) and
//! OpTensorQuerySizeARM on them, on the interpreter and on the JIT. Before, reads and queries gave
//! 0 and constants were refused. Expected values are worked out by hand in the comments
//! (docs/semantics/tensors.md, "Tensor values: composites and constants").

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

/// The body: e_k = 10·i + k (k < 8); v8 = (e_0 … e_7); r0 = (e_0, e_1, e_2),
/// r1 = (e_3, e_4, e_5), m = (r0, r1) of shape [2, 3]; m2 = (c3a, r1); out[8i + j] below.
fn body() -> String {
    let mut s = String::new();
    for k in 0..8 {
        s += &format!("%e{k} = OpIAdd %int %ten %k{k}\n");
    }
    s += "%v8 = OpCompositeConstruct %t8 %e0 %e1 %e2 %e3 %e4 %e5 %e6 %e7
%r0 = OpCompositeConstruct %t3 %e0 %e1 %e2
%r1 = OpCompositeConstruct %t3 %e3 %e4 %e5
%m = OpCompositeConstruct %t23 %r0 %r1
%m2 = OpCompositeConstruct %t23 %c3a %r1
%ip1 = OpIAdd %uint %i %u1
%ca = OpCompositeConstruct %arr1 %ip1
%o0 = OpTensorReadARM %int %v8 %ca
%ip5 = OpIAdd %uint %i %u5
%cb = OpCompositeConstruct %arr1 %ip5
%o1 = OpTensorReadARM %int %v8 %cb OutOfBoundsValueARM %k7777
%ip6 = OpIAdd %uint %i %u6
%cc = OpCompositeConstruct %arr1 %ip6
%pair = OpTensorReadARM %arr2int %v8 %cc
%o2 = OpCompositeExtract %int %pair 1
%d0 = OpTensorQuerySizeARM %uint %v8 %u0
%o3 = OpBitcast %int %d0
%cd = OpCompositeConstruct %arr2 %u1 %i
%o4 = OpTensorReadARM %int %m %cd
%d1 = OpTensorQuerySizeARM %uint %m %u1
%o5 = OpBitcast %int %d1
%x6 = OpTensorReadARM %int %c23 %cd
%ce = OpCompositeConstruct %arr2 %u0 %u2
%y6 = OpTensorReadARM %int %m2 %ce
%y6k = OpIMul %int %y6 %i1000
%o6 = OpIAdd %int %x6 %y6k
%cf = OpCompositeConstruct %arr2 %u0 %u0
%x7 = OpTensorReadARM %int %z23 %cf OutOfBoundsValueARM %k55
%dz = OpTensorQuerySizeARM %uint %z23 %u0
%dzi = OpBitcast %int %dz
%dz100 = OpIMul %int %dzi %i100
%o7 = OpIAdd %int %x7 %dz100
";
    for j in 0..8 {
        s += &format!(
            "%at{j} = OpIAdd %uint %base %u{j}\n%p{j} = OpAccessChain %ptr_sb_int %out %u0 %at{j}\nOpStore %p{j} %o{j}\n"
        );
    }
    s + "OpReturn\nOpFunctionEnd\n"
}

fn text() -> String {
    // (Offsets 4 and 7 need constants of their own.)
    HEAD.replace(
        "%u8 = OpConstant %uint 8\n",
        "%u8 = OpConstant %uint 8\n%u4 = OpConstant %uint 4\n%u7 = OpConstant %uint 7\n",
    ) + &body()
}

fn compile(text: &str) -> Result<CompiledModule, String> {
    let asm = assemble(text, &AsmOptions::default()).map_err(|e| e.to_string())?;
    CompiledModule::from_bytes(&asm.bytes(), "main", &CompileOptions::default())
        .map_err(|e| e.to_string())
}

#[test]
fn reads_and_queries_of_tensor_values() {
    let m = compile(&text()).unwrap_or_else(|e| panic!("{e}"));
    let mut expected = Vec::new();
    for i in 0..4i32 {
        let e = |k: i32| 10 * i + k;
        // 0: v8[i + 1]; 1: v8[i + 5] or 7777 (i = 3); 2: element 7 + i of an array read at
        // 6 + i: e_7 for i = 0, else outside (0, no wrap); 3: v8's dimension 8.
        expected.push(e(i + 1));
        expected.push(if i + 5 < 8 { e(i + 5) } else { 7777 });
        expected.push(if i == 0 { e(7) } else { 0 });
        expected.push(8);
        // 4: m[1][i] = r1[i] = e_(3 + i) for i < 3, outside (0) for i = 3; 5: m's dimension 1.
        expected.push(if i < 3 { e(3 + i) } else { 0 });
        expected.push(3);
        // 6: c23[1][i] = 4 + i (i < 3, else 0) + 1000 · m2[0][2] (= c3a[2] = 3).
        expected.push(if i < 3 { 4 + i } else { 0 } + 3000);
        // 7: z23[0][0] = 0 (in bounds: not the OOB value 55) + 100 · 2.
        expected.push(200);
    }
    for jit in [false, true] {
        let mut res = Resources::new();
        res.set_words(0, 0, &[0xdead; 32]);
        let cfg = RunConfig {
            jit,
            ..RunConfig::default()
        };
        let report = m
            .run(&mut res, [1, 1, 1], &cfg)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(report.total_events, 0, "{:?}", report.events);
        let out: Vec<i32> = res
            .words(0, 0)
            .unwrap_or_default()
            .into_iter()
            .map(|w| w as i32)
            .collect();
        assert_eq!(out, expected, "jit={jit}");
    }
}

/// The composites alone (no tensor constants): out[8i + j] for j < 6 as above; before the fix
/// the interpreter panicked on the 8-constituent construct and the JIT read 0.
#[test]
fn reads_and_queries_of_constructed_tensors() {
    let mut t = text();
    for line in [
        "%c3a = OpConstantComposite %t3 %k1 %k2 %k3\n",
        "%c3b = OpConstantComposite %t3 %k4 %k5 %k6\n",
        "%c23 = OpConstantComposite %t23 %c3a %c3b\n",
        "%z23 = OpConstantNull %t23\n",
        "%m2 = OpCompositeConstruct %t23 %c3a %r1\n",
    ] {
        t = t.replace(line, "");
    }
    let cut = t.find("%x6 = ").unwrap_or(t.len());
    let stores = t.find("%at0 = ").unwrap_or(t.len());
    let t = format!("{}{}", &t[..cut], &t[stores..])
        .replace("OpStore %p6 %o6\n", "")
        .replace("OpStore %p7 %o7\n", "");
    let m = compile(&t).unwrap_or_else(|e| panic!("{e}"));
    for jit in [false, true] {
        let mut res = Resources::new();
        res.set_words(0, 0, &[0xdead; 32]);
        let cfg = RunConfig {
            jit,
            ..RunConfig::default()
        };
        m.run(&mut res, [1, 1, 1], &cfg)
            .unwrap_or_else(|e| panic!("{e}"));
        let out = res.words(0, 0).unwrap_or_default();
        for i in 0..4u32 {
            let e = |k: u32| 10 * i + k;
            let want = [
                e(i + 1),
                if i + 5 < 8 { e(i + 5) } else { 7777 },
                if i == 0 { e(7) } else { 0 },
                8,
                if i < 3 { e(3 + i) } else { 0 },
                3,
                0xdead,
                0xdead,
            ];
            assert_eq!(
                &out[8 * i as usize..8 * i as usize + 8],
                &want,
                "jit={jit} i={i}"
            );
        }
    }
}

#[test]
fn writes_to_tensor_values_are_refused_by_name() {
    let t = text().replace(
        "OpReturn\nOpFunctionEnd\n",
        "OpTensorWriteARM %v8 %ca %k1\nOpReturn\nOpFunctionEnd\n",
    );
    let err = compile(&t).map(|_| ()).expect_err("a write to a composite");
    assert!(err.contains("OpTensorWriteARM to a tensor value"), "{err}");
}

/// The same write through OpCopyObject of the composite: the engine cannot follow the value
/// there, so a module that makes tensor values must write through an OpLoad (refused by name,
/// never a write that silently goes nowhere).
#[test]
fn writes_through_a_copy_of_a_tensor_value_are_refused_by_name() {
    let t = text().replace(
        "OpReturn\nOpFunctionEnd\n",
        "%copy = OpCopyObject %t8 %v8\nOpTensorWriteARM %copy %ca %k1\nOpReturn\nOpFunctionEnd\n",
    );
    let err = compile(&t).map(|_| ()).expect_err("a write through a copy");
    assert!(
        err.contains("OpTensorWriteARM to a tensor not loaded straight from a tensor variable"),
        "{err}"
    );
}

/// An OpPhi of a tensor type where the module builds tensor values at run time: refused by
/// name (a construct's memory is reused each time it runs, so the phi could see later
/// elements).
#[test]
fn tensor_phis_are_refused_where_tensor_values_are_built() {
    let t = text().replace(
        "OpReturn\nOpFunctionEnd\n",
        "OpBranch %next\n%next = OpLabel\n%phi = OpPhi %t8 %v8 %entry\nOpReturn\nOpFunctionEnd\n",
    );
    let err = compile(&t).map(|_| ()).expect_err("a tensor phi");
    assert!(err.contains("OpPhi of a tensor type"), "{err}");
}

/// OpConstantCompositeReplicateEXT of a [2, 3] tensor: every element the constituent 7;
/// out[0] = element (1, 2) = 7, out[1] = element (1, 3) outside = the OOB value 55.
#[test]
fn replicated_tensor_constant() {
    let t = r#"
OpCapability Shader
OpCapability TensorsARM
OpCapability ReplicatedCompositesEXT
OpExtension "SPV_ARM_tensors"
OpExtension "SPV_EXT_replicated_composites"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %out
OpExecutionMode %main LocalSize 1 1 1
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
%k7 = OpConstant %int 7
%k55 = OpConstant %int 55
%arr2 = OpTypeArray %uint %u2
%shape23 = OpConstantComposite %arr2 %u2 %u3
%t23 = OpTypeTensorARM %int %u2 %shape23
%rep = OpConstantCompositeReplicateEXT %t23 %k7
%rarr = OpTypeRuntimeArray %int
%Buf = OpTypeStruct %rarr
%ptr_sb_Buf = OpTypePointer StorageBuffer %Buf
%ptr_sb_int = OpTypePointer StorageBuffer %int
%out = OpVariable %ptr_sb_Buf StorageBuffer
%main = OpFunction %void None %fn
%entry = OpLabel
%c12 = OpCompositeConstruct %arr2 %u1 %u2
%a = OpTensorReadARM %int %rep %c12 OutOfBoundsValueARM %k55
%c13 = OpCompositeConstruct %arr2 %u1 %u3
%b = OpTensorReadARM %int %rep %c13 OutOfBoundsValueARM %k55
%p0 = OpAccessChain %ptr_sb_int %out %u0 %u0
OpStore %p0 %a
%p1 = OpAccessChain %ptr_sb_int %out %u0 %u1
OpStore %p1 %b
OpReturn
OpFunctionEnd
"#;
    let m = compile(t).unwrap_or_else(|e| panic!("{e}"));
    for jit in [false, true] {
        let mut res = Resources::new();
        res.set_words(0, 0, &[0; 2]);
        let cfg = RunConfig {
            jit,
            ..RunConfig::default()
        };
        m.run(&mut res, [1, 1, 1], &cfg)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(res.words(0, 0).unwrap_or_default(), [7, 55], "jit={jit}");
    }
}

/// OpCompositeExtract from shaped tensors: out[32 + 4i + j] = m[1][2] (an element: e_5),
/// row 0 of m read at [2] (a rank-1 tensor value: e_2), that row's dimension 0 (3), and
/// c23[0][1] (an element of a constant: 2).
#[test]
fn composite_extract_from_tensors() {
    let extra = "%xe = OpCompositeExtract %int %m 1 2
%row = OpCompositeExtract %t3 %m 0
%cg = OpCompositeConstruct %arr1 %u2
%xr = OpTensorReadARM %int %row %cg
%xd = OpTensorQuerySizeARM %uint %row %u0
%xdi = OpBitcast %int %xd
%xc = OpCompositeExtract %int %c23 0 1
%i4 = OpIMul %uint %i %u4
%b4 = OpIAdd %uint %i4 %u32
%q0 = OpAccessChain %ptr_sb_int %out %u0 %b4
OpStore %q0 %xe
%b5 = OpIAdd %uint %b4 %u1
%q1 = OpAccessChain %ptr_sb_int %out %u0 %b5
OpStore %q1 %xr
%b6 = OpIAdd %uint %b4 %u2
%q2 = OpAccessChain %ptr_sb_int %out %u0 %b6
OpStore %q2 %xdi
%b7 = OpIAdd %uint %b4 %u3
%q3 = OpAccessChain %ptr_sb_int %out %u0 %b7
OpStore %q3 %xc
OpReturn
OpFunctionEnd
";
    let t = text().replace("OpReturn\nOpFunctionEnd\n", extra).replace(
        "%u8 = OpConstant %uint 8\n",
        "%u8 = OpConstant %uint 8\n%u32 = OpConstant %uint 32\n",
    );
    let m = compile(&t).unwrap_or_else(|e| panic!("{e}"));
    for jit in [false, true] {
        let mut res = Resources::new();
        res.set_words(0, 0, &[0xdead; 48]);
        let cfg = RunConfig {
            jit,
            ..RunConfig::default()
        };
        m.run(&mut res, [1, 1, 1], &cfg)
            .unwrap_or_else(|e| panic!("{e}"));
        let out = res.words(0, 0).unwrap_or_default();
        for i in 0..4u32 {
            let want = [10 * i + 5, 10 * i + 2, 3, 2];
            let at = 32 + 4 * i as usize;
            assert_eq!(&out[at..at + 4], &want, "jit={jit} i={i}");
        }
    }
}
