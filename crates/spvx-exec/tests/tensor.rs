//! Tensors (SPV_ARM_tensors with the VK_ARM_tensors access rules): element reads with an
//! OutOfBoundsValueARM operand, array reads straddling the innermost dimension's end (per
//! element replacement), writes (out-of-bounds ones have no effect), size queries, packed and
//! non-packed byte strides, coordinates of narrow signed and unsigned types, a tensor type with a
//! Shape (the bound tensor must have it). Expected values are worked out from those rules in the
//! test.

use spvx_exec::{BindingKind, CompileOptions, CompiledModule, Resources, RunConfig, Tensor};
use spvx_spirv::asm::{AsmOptions, assemble};

const TEXT: &str = r#"
OpCapability Shader
OpCapability TensorsARM
OpExtension "SPV_ARM_tensors"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %lidx %t %out
OpExecutionMode %main LocalSize 16 1 1
OpDecorate %lidx BuiltIn LocalInvocationIndex
OpDecorate %t DescriptorSet 0
OpDecorate %t Binding 0
OpDecorate %rarr ArrayStride 4
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %Buf Block
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%u3 = OpConstant %uint 3
%u4 = OpConstant %uint 4
%u16 = OpConstant %uint 16
%u17 = OpConstant %uint 17
%u100 = OpConstant %uint 100
%k7777 = OpConstant %int 7777
%arr2uint = OpTypeArray %uint %u2
%arr2int = OpTypeArray %int %u2
%ten = OpTypeTensorARM %int %u2
%ptr_t = OpTypePointer UniformConstant %ten
%t = OpVariable %ptr_t UniformConstant
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
%row = OpUDiv %uint %i %u4
%col = OpUMod %uint %i %u4
%c = OpCompositeConstruct %arr2uint %row %col
%tv = OpLoad %ten %t
%e = OpTensorReadARM %int %tv %c OutOfBoundsValueARM %k7777
%pair = OpTensorReadARM %arr2int %tv %c
%p1 = OpCompositeExtract %int %pair 1
%eu = OpBitcast %uint %e
%p1u = OpBitcast %uint %p1
%sum = OpIAdd %uint %eu %p1u
%o = OpAccessChain %ptr_sb_uint %out %u0 %i
OpStore %o %sum
%w = OpIAdd %uint %i %u100
%wi = OpBitcast %int %w
OpTensorWriteARM %tv %c %wi
%d0 = OpTensorQuerySizeARM %uint %tv %u0
%d1 = OpTensorQuerySizeARM %uint %tv %u1
%o16 = OpAccessChain %ptr_sb_uint %out %u0 %u16
OpStore %o16 %d0
%o17 = OpAccessChain %ptr_sb_uint %out %u0 %u17
OpStore %o17 %d1
OpReturn
OpFunctionEnd
"#;

fn element(t: &Tensor, strides: &[u64], r: u64, c: u64) -> i32 {
    let at = (r * strides[0] + c * strides[1]) as usize;
    i32::from_le_bytes([t.data[at], t.data[at + 1], t.data[at + 2], t.data[at + 3]])
}

fn check(strides: Option<Vec<u64>>, bytes: usize) {
    let asm = assemble(TEXT, &AsmOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let m = CompiledModule::from_bytes(&asm.bytes(), "main", &CompileOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(m.bindings()[0].kind, BindingKind::Tensor);
    assert_eq!(
        m.bindings()[0].tensor.map(|t| (t.rank, t.element_bytes)),
        Some((2, 4))
    );
    let real = strides.clone().unwrap_or(vec![16, 4]);
    // Element (r, c) holds 10·r + c + 1; padding bytes hold 0xee.
    let mut data = vec![0xeeu8; bytes];
    for r in 0..3u64 {
        for c in 0..4u64 {
            let at = (r * real[0] + c * real[1]) as usize;
            data[at..at + 4].copy_from_slice(&((10 * r + c + 1) as i32).to_le_bytes());
        }
    }
    let mut res = Resources::new();
    res.set_tensor(
        0,
        0,
        Tensor {
            shape: vec![3, 4],
            strides,
            data,
        },
    );
    res.set_words(0, 1, &[0; 18]);
    let report = m
        .run(&mut res, [1, 1, 1], &RunConfig::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        report.total_events, 0,
        "tensor bounds are defined behaviour"
    );
    let out = res.words(0, 1).unwrap_or_default();
    for i in 0..16u64 {
        let (r, c) = (i / 4, i % 4);
        let inside = |r: u64, c: u64| r < 3 && c < 4;
        let val = |r: u64, c: u64| (10 * r + c + 1) as u32;
        // e: the element or 7777; pair[1]: element (r, c+1) or 0 (no wrap to the next row).
        let e = if inside(r, c) { val(r, c) } else { 7777 };
        let p1 = if inside(r, c + 1) { val(r, c + 1) } else { 0 };
        assert_eq!(out[i as usize], e + p1, "invocation {i}");
    }
    assert_eq!(&out[16..18], &[3, 4]);
    // Writes: (r, c) = i + 100 inside; row 3 writes dropped; padding untouched.
    let t = res.tensor(0, 0).cloned().unwrap_or_default();
    for r in 0..3u64 {
        for c in 0..4u64 {
            assert_eq!(element(&t, &real, r, c), (4 * r + c + 100) as i32);
        }
    }
    let covered = t.data.len() - 12 * 4;
    assert_eq!(
        t.data.iter().filter(|&&b| b == 0xee).count(),
        covered,
        "padding untouched"
    );
}

#[test]
fn packed_tensor() {
    check(None, 48);
}

#[test]
fn tensor_with_row_pitch() {
    check(Some(vec![32, 4]), 2 * 32 + 16);
}

#[test]
fn mismatched_tensor_is_refused() {
    let asm = assemble(TEXT, &AsmOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let m = CompiledModule::from_bytes(&asm.bytes(), "main", &CompileOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let mut res = Resources::new();
    res.set_words(0, 1, &[0; 18]);
    res.set_tensor(
        0,
        0,
        Tensor {
            shape: vec![12],
            strides: None,
            data: vec![0; 48],
        },
    );
    let err = m
        .run(&mut res, [1, 1, 1], &RunConfig::default())
        .expect_err("rank 1 vs 2");
    assert!(err.to_string().contains("rank 2"), "{err}");
    res.set_tensor(
        0,
        0,
        Tensor {
            shape: vec![3, 4],
            strides: None,
            data: vec![0; 40],
        },
    );
    let err = m
        .run(&mut res, [1, 1, 1], &RunConfig::default())
        .expect_err("too few bytes");
    assert!(err.to_string().contains("needs 48 bytes"), "{err}");
}

/// Reads of a 256-element uint tensor at coordinates of 8- and 16-bit types (OOB value 77):
/// out[0] = t[uchar 200], out[1] = t[char −56] (the same bits), out[2] = t[ushort 255],
/// out[3] = t[short −1]; then t[uchar 250] = 1000 and t[char −6] = 2000.
const NARROW: &str = r#"
OpCapability Shader
OpCapability TensorsARM
OpCapability Int8
OpCapability Int16
OpExtension "SPV_ARM_tensors"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %t %out
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %t DescriptorSet 0
OpDecorate %t Binding 0
OpDecorate %rarr ArrayStride 4
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %Buf Block
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uchar = OpTypeInt 8 0
%char = OpTypeInt 8 1
%ushort = OpTypeInt 16 0
%short = OpTypeInt 16 1
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%u3 = OpConstant %uint 3
%k77 = OpConstant %uint 77
%k1000 = OpConstant %uint 1000
%k2000 = OpConstant %uint 2000
%uc200 = OpConstant %uchar 200
%uc250 = OpConstant %uchar 250
%c_56 = OpConstant %char -56
%c_6 = OpConstant %char -6
%us255 = OpConstant %ushort 255
%s_1 = OpConstant %short -1
%a_uc = OpTypeArray %uchar %u1
%a_c = OpTypeArray %char %u1
%a_us = OpTypeArray %ushort %u1
%a_s = OpTypeArray %short %u1
%ten = OpTypeTensorARM %uint %u1
%ptr_t = OpTypePointer UniformConstant %ten
%t = OpVariable %ptr_t UniformConstant
%rarr = OpTypeRuntimeArray %uint
%Buf = OpTypeStruct %rarr
%ptr_sb_Buf = OpTypePointer StorageBuffer %Buf
%ptr_sb_uint = OpTypePointer StorageBuffer %uint
%out = OpVariable %ptr_sb_Buf StorageBuffer
%main = OpFunction %void None %fn
%entry = OpLabel
%tv = OpLoad %ten %t
%c0 = OpCompositeConstruct %a_uc %uc200
%e0 = OpTensorReadARM %uint %tv %c0 OutOfBoundsValueARM %k77
%o0 = OpAccessChain %ptr_sb_uint %out %u0 %u0
OpStore %o0 %e0
%c1 = OpCompositeConstruct %a_c %c_56
%e1 = OpTensorReadARM %uint %tv %c1 OutOfBoundsValueARM %k77
%o1 = OpAccessChain %ptr_sb_uint %out %u0 %u1
OpStore %o1 %e1
%c2 = OpCompositeConstruct %a_us %us255
%e2 = OpTensorReadARM %uint %tv %c2 OutOfBoundsValueARM %k77
%o2 = OpAccessChain %ptr_sb_uint %out %u0 %u2
OpStore %o2 %e2
%c3 = OpCompositeConstruct %a_s %s_1
%e3 = OpTensorReadARM %uint %tv %c3 OutOfBoundsValueARM %k77
%o3 = OpAccessChain %ptr_sb_uint %out %u0 %u3
OpStore %o3 %e3
%c4 = OpCompositeConstruct %a_uc %uc250
OpTensorWriteARM %tv %c4 %k1000
%c5 = OpCompositeConstruct %a_c %c_6
OpTensorWriteARM %tv %c5 %k2000
OpReturn
OpFunctionEnd
"#;

/// Coordinates are integers of their type's signedness: an unsigned 8-bit 200 is element 200,
/// the signed 8-bit −56 (the same bits) is out of bounds; likewise for writes.
#[test]
fn narrow_coordinates_follow_their_signedness() {
    let asm = assemble(NARROW, &AsmOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let m = CompiledModule::from_bytes(&asm.bytes(), "main", &CompileOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let mut res = Resources::new();
    res.set_tensor(
        0,
        0,
        Tensor {
            shape: vec![256],
            strides: None,
            data: (0..256u32).flat_map(|v| v.to_le_bytes()).collect(),
        },
    );
    res.set_words(0, 1, &[0; 4]);
    m.run(&mut res, [1, 1, 1], &RunConfig::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(res.words(0, 1).unwrap_or_default(), [200, 77, 255, 77]);
    let t = res.tensor(0, 0).cloned().unwrap_or_default();
    let mut want: Vec<u32> = (0..256).collect();
    want[250] = 1000;
    let got: Vec<u32> = t
        .data
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    assert_eq!(got, want, "only the uchar 250 write lands");
}

/// A tensor type with a Shape ([3, 4]): listed with it; a tensor of that shape runs as the
/// unshaped type does; another shape of the same rank is refused as a rank mismatch is (both
/// are poison in VK_ARM_tensors).
#[test]
fn shaped_tensor_type_needs_its_shape() {
    let text = TEXT.replace(
        "%ten = OpTypeTensorARM %int %u2",
        "%shape = OpConstantComposite %arr2uint %u3 %u4\n%ten = OpTypeTensorARM %int %u2 %shape",
    );
    assert_ne!(text, TEXT);
    let asm = assemble(&text, &AsmOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let m = CompiledModule::from_bytes(&asm.bytes(), "main", &CompileOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(m.bindings()[0].tensor_shape, Some(vec![3, 4]));
    let run = |shape: Vec<u64>| {
        let mut res = Resources::new();
        res.set_words(0, 1, &[0; 18]);
        res.set_tensor(
            0,
            0,
            Tensor {
                shape,
                strides: None,
                data: vec![0; 48],
            },
        );
        m.run(&mut res, [1, 1, 1], &RunConfig::default())
            .map(|_| res.words(0, 1).unwrap_or_default())
    };
    let out = run(vec![3, 4]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(&out[16..18], &[3, 4]);
    let err = run(vec![4, 3]).expect_err("shape [4, 3] vs Shape [3, 4]");
    assert!(err.to_string().contains("Shape [3, 4]"), "{err}");
}
