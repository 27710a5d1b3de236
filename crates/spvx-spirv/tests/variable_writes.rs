//! `ModuleIndex::written_variables`: which variables a module can write, on hand-written
//! modules whose answer is read off the text — each buffer used in one way (loaded, stored,
//! passed to a function that loads or stores, atomics, copies, pointers chosen by OpSelect and
//! OpPhi, a pointer stored into memory, a pointer given to an extended instruction, a variable
//! named by a non-semantic one), tensors read and written, and a module with physical
//! addressing.

use spvx_spirv::asm::assemble;
use spvx_spirv::binary::read_words;
use spvx_spirv::index::ModuleIndex;
use spvx_spirv::instruction::Id;

const BUFFERS: &str = r#"OpCapability Shader
OpCapability VariablePointers
OpExtension "SPV_KHR_non_semantic_info"
%ns = OpExtInstImport "NonSemantic.Test"
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %loaded "loaded"
OpName %stored "stored"
OpName %length "length"
OpName %callread "callread"
OpName %callwrite "callwrite"
OpName %atomic "atomic"
OpName %copysrc "copysrc"
OpName %copydst "copydst"
OpName %sel0 "sel0"
OpName %sel1 "sel1"
OpName %phi "phi"
OpName %escapes "escapes"
OpName %extinst "extinst"
OpDecorate %arr ArrayStride 4
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %Buf Block
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%true = OpConstantTrue %bool
%arr = OpTypeRuntimeArray %uint
%Buf = OpTypeStruct %arr
%pbuf = OpTypePointer StorageBuffer %Buf
%puint = OpTypePointer StorageBuffer %uint
%fnp = OpTypeFunction %uint %puint
%pfun = OpTypePointer Function %puint
%loaded = OpVariable %pbuf StorageBuffer
%stored = OpVariable %pbuf StorageBuffer
%length = OpVariable %pbuf StorageBuffer
%callread = OpVariable %pbuf StorageBuffer
%callwrite = OpVariable %pbuf StorageBuffer
%atomic = OpVariable %pbuf StorageBuffer
%copysrc = OpVariable %pbuf StorageBuffer
%copydst = OpVariable %pbuf StorageBuffer
%sel0 = OpVariable %pbuf StorageBuffer
%sel1 = OpVariable %pbuf StorageBuffer
%phi = OpVariable %pbuf StorageBuffer
%escapes = OpVariable %pbuf StorageBuffer
%extinst = OpVariable %pbuf StorageBuffer
%reader = OpFunction %uint None %fnp
%rp = OpFunctionParameter %puint
%rb = OpLabel
%rv = OpLoad %uint %rp
OpReturnValue %rv
OpFunctionEnd
%writer = OpFunction %uint None %fnp
%wp = OpFunctionParameter %puint
%wb = OpLabel
OpStore %wp %u1
OpReturnValue %u0
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
%slot = OpVariable %pfun Function
%p0 = OpAccessChain %puint %loaded %u0 %u1
%v0 = OpLoad %uint %p0
%p1 = OpAccessChain %puint %stored %u0 %u0
OpStore %p1 %v0
%n = OpArrayLength %uint %length 0
%note = OpExtInst %void %ns 1 %loaded
%p14 = OpAccessChain %puint %extinst %u0 %u0
%v2 = OpExtInst %uint %glsl UMin %p14 %u1
%p2 = OpAccessChain %puint %callread %u0 %u0
%c0 = OpFunctionCall %uint %reader %p2
%p3 = OpAccessChain %puint %callwrite %u0 %u0
%c1 = OpFunctionCall %uint %writer %p3
%p4 = OpAccessChain %puint %atomic %u0 %u0
%a = OpAtomicIAdd %uint %p4 %u1 %u0 %u1
%p5 = OpAccessChain %puint %copysrc %u0 %u0
%p6 = OpAccessChain %puint %copydst %u0 %u0
OpCopyMemory %p6 %p5
%p7 = OpAccessChain %puint %sel0 %u0 %u0
%p8 = OpAccessChain %puint %sel1 %u0 %u0
%p9 = OpSelect %puint %true %p7 %p8
%p10 = OpCopyObject %puint %p9
OpStore %p10 %u1
%p11 = OpAccessChain %puint %phi %u0 %u0
OpBranch %next
%next = OpLabel
%p12 = OpPhi %puint %p11 %entry
%v1 = OpAtomicLoad %uint %p12 %u1 %u0
%p13 = OpAccessChain %puint %escapes %u0 %u0
OpStore %slot %p13
OpReturn
OpFunctionEnd
"#;

fn index(text: &str) -> ModuleIndex {
    let m = assemble(text, &Default::default()).expect("assembles");
    let parsed = read_words(&m.words()).expect("reads");
    ModuleIndex::build(&parsed.header, parsed.instructions)
}

/// The id of the variable `OpName` names `name`.
fn id_of(ix: &ModuleIndex, name: &str) -> Id {
    let found = ix.insts.iter().find_map(|i| {
        let r = i.result?;
        (ix.debug_name(r) == Some(name)).then_some(r)
    });
    found.unwrap_or_else(|| panic!("no %{name}"))
}

#[test]
fn buffers_used_only_to_read_are_never_written() {
    let ix = index(BUFFERS);
    for name in ["loaded", "length", "callread", "copysrc"] {
        assert!(
            !ix.written_variables().contains(&id_of(&ix, name)),
            "{name}"
        );
    }
}

#[test]
fn every_way_of_writing_or_escaping_counts_as_a_write() {
    let ix = index(BUFFERS);
    // (`phi` is only read, by an atomic load: atomics are not followed, so it counts; so does
    // `extinst`, a pointer handed to a semantic extended instruction.)
    for name in [
        "stored",
        "callwrite",
        "atomic",
        "copydst",
        "sel0",
        "sel1",
        "phi",
        "escapes",
        "extinst",
    ] {
        assert!(ix.written_variables().contains(&id_of(&ix, name)), "{name}");
    }
}

const TENSORS: &str = r#"OpCapability Shader
OpCapability TensorsARM
OpExtension "SPV_ARM_tensors"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %T %U
OpExecutionMode %main LocalSize 1 1 1
OpName %T "T"
OpName %U "U"
OpDecorate %T DescriptorSet 0
OpDecorate %T Binding 0
OpDecorate %U DescriptorSet 0
OpDecorate %U Binding 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%u0 = OpConstant %uint 0
%u2 = OpConstant %uint 2
%arr2 = OpTypeArray %uint %u2
%ten = OpTypeTensorARM %int %u2
%pten = OpTypePointer UniformConstant %ten
%T = OpVariable %pten UniformConstant
%U = OpVariable %pten UniformConstant
%main = OpFunction %void None %fn
%entry = OpLabel
%at = OpCompositeConstruct %arr2 %u0 %u0
%tv = OpLoad %ten %T
%uv = OpLoad %ten %U
%e = OpTensorReadARM %int %tv %at
%size = OpTensorQuerySizeARM %uint %tv %u0
OpTensorWriteARM %uv %at %e
OpReturn
OpFunctionEnd
"#;

#[test]
fn a_tensor_is_written_only_through_a_tensor_write() {
    let ix = index(TENSORS);
    assert!(!ix.written_variables().contains(&id_of(&ix, "T")));
    assert!(ix.written_variables().contains(&id_of(&ix, "U")));
}

#[test]
fn physical_addressing_makes_every_variable_writable() {
    let text = BUFFERS
        .replace(
            "OpCapability VariablePointers",
            "OpCapability PhysicalStorageBufferAddresses",
        )
        .replace(
            "OpMemoryModel Logical GLSL450",
            "OpMemoryModel PhysicalStorageBuffer64 GLSL450",
        );
    let ix = index(&text);
    for name in ["loaded", "length", "callread", "copysrc"] {
        assert!(ix.written_variables().contains(&id_of(&ix, name)), "{name}");
    }
}
