//! Which targets each decoration may apply to (SPIR-V §3.20; spirv-val's
//! `ValidateDecorationTarget`, `IsNotMemberDecoration`), for `OpDecorate`.

use super::dec;
use spvx_spirv::index::ModuleIndex;
use spvx_spirv::instruction::Instruction;
use spvx_spirv::op::Op;

/// Storage classes whose variables NonWritable (and NonReadable) may not decorate — spirv-val's
/// "Target of NonWritable decoration is invalid" list, kept to the classes it names as refused:
/// Input, Output, Workgroup, CrossWorkgroup, PushConstant.
pub(super) const NOT_WRITABLE_TARGET: [u32; 5] = [1, 3, 4, 5, 9];

/// Decorations that apply to memory object declarations (variables and function parameters of
/// pointer type): NoPerspective, Flat, Patch, Centroid, Sample, Restrict, Aliased, Volatile,
/// Coherent, NonWritable, NonReadable, XfbBuffer, XfbStride, Component, Stream,
/// RestrictPointer, AliasedPointer.
pub(super) const MEMORY_OBJECT: [u32; 17] = [
    13, 14, 15, 16, 17, 19, 20, 21, 23, 24, 25, 36, 37, 31, 29, 5355, 5356,
];

/// Decorations that apply to variables only: Invariant, Constant, Location, Index, Binding,
/// DescriptorSet, InputAttachmentIndex.
pub(super) const VARIABLE_ONLY: [u32; 7] = [18, 22, 30, 32, 33, 34, 43];

/// Decorations not allowed on structure members (spirv-val's `IsNotMemberDecoration`).
pub(super) const NOT_MEMBER: [u32; 29] = [
    1, 2, 3, 6, 8, 9, 10, 20, 22, 26, 27, 28, 32, 33, 34, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47,
    4469, 4470, 5300, 5634,
];

/// The rule `OpDecorate` of decoration `d` breaks on `def` (the target), if any.
pub(super) fn target_violation(
    ix: &ModuleIndex,
    inst: &Instruction,
    d: u32,
    def: &Instruction,
) -> Option<&'static str> {
    let is_constant = def.result.is_some_and(|t| ix.is_constant(t));
    let opcode = def.opcode;
    // OpUntypedVariableKHR (SPV_KHR_untyped_pointers) declares a variable too.
    let variable = matches!(opcode, Op::Variable | Op::UntypedVariableKHR);
    match d {
        dec::SPEC_ID => (!matches!(
            opcode,
            Op::SpecConstantTrue | Op::SpecConstantFalse | Op::SpecConstant
        ))
        .then_some("must be a scalar specialization constant"),
        dec::BLOCK | dec::BUFFER_BLOCK | dec::GLSL_SHARED | dec::GLSL_PACKED | dec::CPACKED => {
            (opcode != Op::TypeStruct).then_some("must be a structure type")
        }
        dec::ARRAY_STRIDE => (!matches!(
            opcode,
            Op::TypeArray | Op::TypeRuntimeArray | Op::TypePointer | Op::TypeUntypedPointerKHR
        ))
        .then_some("must be an array or pointer type"),
        dec::BUILT_IN => {
            if !variable && !is_constant {
                return Some(
                    "must be a variable, a structure member or a constant (BuiltIns can only target variables, structure members or constants)",
                );
            }
            let built_in = inst.operands.get(2).and_then(|o| o.word());
            if built_in == Some(dec::WORKGROUP_SIZE) {
                (!is_constant && ix.has_capability("Shader"))
                    .then_some("must be a constant for WorkgroupSize")
            } else {
                (!variable).then_some("must be a variable")
            }
        }
        dec::RELAXED_PRECISION => ix
            .grammar
            .instruction(opcode)
            .is_some_and(|i| i.class == "Type-Declaration")
            .then_some(
                "cannot be applied to a type (RelaxedPrecision applies to results and variables)",
            ),
        d if MEMORY_OBJECT.contains(&d) => {
            if !variable && opcode != Op::FunctionParameter {
                return Some("must be a memory object declaration");
            }
            let pointer = def
                .result_type
                .and_then(|t| ix.def(t))
                .is_some_and(|t| matches!(t.opcode, Op::TypePointer | Op::TypeUntypedPointerKHR));
            if !pointer {
                return Some("must be a pointer type");
            }
            let sc = super::vulkan::storage_class(ix, def);
            match d {
                dec::NON_WRITABLE => NOT_WRITABLE_TARGET.contains(&sc).then_some(
                    "must point to a storage image, a tensor in UniformConstant, a uniform block, a storage buffer, or a Private or Function variable",
                ),
                dec::NON_READABLE => (NOT_WRITABLE_TARGET.contains(&sc) || matches!(sc, 6 | 7))
                    .then_some(
                        "must point to a storage image, a tensor in UniformConstant, a uniform block or a storage buffer",
                    ),
                _ => None,
            }
        }
        d if VARIABLE_ONLY.contains(&d) => (!variable).then_some("must be a variable"),
        _ => None,
    }
}
