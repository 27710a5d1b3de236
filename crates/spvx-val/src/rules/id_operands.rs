//! What an id operand may name: a value where the instruction computes with values, not a
//! type, and not an id that has no type (a label, a string, an extended-instruction-set import,
//! a decoration group).
//!
//! SPIR-V §2.2.1 distinguishes types (declared by type-declaration instructions) from
//! "objects" with a Result Type; §3.52 describes the operands of the computing instructions as
//! values of some type ("Operand 1 must be ..."). SPIRV-Tools 2025.5 states the rule generally
//! in its id pass: an `IdRef`, `IdScope` or `IdMemorySemantics` operand may not name a type
//! ("Operand X cannot be a type") nor an id without a type ("Operand X requires a type"), except
//! in instructions whose operands name such ids by design — type declarations, debug and
//! annotation instructions, `OpFunction` (its function type), branches and merges (labels),
//! `OpPhi` (parent labels), `OpExtInst` (the set), `OpSizeOf`, the cooperative-matrix length
//! instructions, the type operands of the untyped-pointer instructions, and non-semantic /
//! debug-info extended instructions. spvx-val applies the same
//! rule with the same exceptions. Like spirv-val, it judges only operands defined earlier in
//! the module (a forward reference is allowed only in the positions [`super::ids`] lists, none
//! of which can legally name a type or a typeless id where a value is wanted).

use crate::Options;
use crate::error::ValError;
use crate::rules::ids::IdError;
use spvx_spirv::index::ModuleIndex;
use spvx_spirv::instruction::Instruction;
use spvx_spirv::op::Op;

/// The grammar class of `opcode` ("Type-Declaration", "Annotation", "Debug", ...).
fn class(ix: &ModuleIndex, opcode: Op) -> &str {
    ix.grammar.instruction(opcode).map_or("", |i| i.class)
}

/// True for instructions whose id operands may name types and typeless ids freely.
fn exempt_from_both(ix: &ModuleIndex, inst: &Instruction) -> bool {
    let c = class(ix, inst.opcode);
    if c == "Type-Declaration" || c == "Annotation" || c == "Debug" {
        return true;
    }
    match inst.opcode {
        Op::Function
        | Op::SizeOf
        | Op::CooperativeMatrixLengthKHR
        | Op::CooperativeMatrixLengthNV => true,
        Op::SpecConstantOp => inst
            .operands
            .first()
            .and_then(|o| o.word())
            .is_some_and(|w| {
                w == u32::from(Op::CooperativeMatrixLengthKHR.number())
                    || w == u32::from(Op::CooperativeMatrixLengthNV.number())
            }),
        Op::ExtInst | Op::ExtInstWithForwardRefsKHR => inst
            .operands
            .first()
            .and_then(|o| o.id())
            .and_then(|set| ix.ext_imports.get(&set))
            .is_some_and(|name| name.starts_with("NonSemantic.") || name.contains("DebugInfo")),
        _ => false,
    }
}

/// True for instructions whose id operands may name typeless ids (labels, the set of
/// `OpExtInst`), though not types.
fn may_name_typeless(inst: &Instruction) -> bool {
    matches!(
        inst.opcode,
        Op::Phi
            | Op::ExtInst
            | Op::ExtInstWithForwardRefsKHR
            | Op::SelectionMerge
            | Op::LoopMerge
            | Op::Branch
            | Op::BranchConditional
            | Op::Switch
    )
}

/// The operand of an SPV_KHR_untyped_pointers instruction that names a type by design (the
/// Data Type of `OpUntypedVariableKHR`, the Base Type of the untyped access chains, the
/// Structure of `OpUntypedArrayLengthKHR`, the Pointer Type of `OpUntypedPrefetchKHR`).
fn untyped_type_operand(opcode: Op) -> Option<usize> {
    match opcode {
        Op::UntypedVariableKHR => Some(1),
        Op::UntypedAccessChainKHR
        | Op::UntypedInBoundsAccessChainKHR
        | Op::UntypedPtrAccessChainKHR
        | Op::UntypedInBoundsPtrAccessChainKHR
        | Op::UntypedArrayLengthKHR
        | Op::UntypedPrefetchKHR => Some(0),
        _ => None,
    }
}

/// Appends an error for every operand naming a type or a typeless id where a value is wanted.
pub fn check(ix: &ModuleIndex, _opts: &Options, out: &mut Vec<ValError>) {
    let result_type_kind = ix.grammar.common.id_result_type;
    for (index, inst) in ix.insts.iter().enumerate() {
        if exempt_from_both(ix, inst) {
            continue;
        }
        let type_operand = untyped_type_operand(inst.opcode);
        for (k, operand) in inst.operands.iter().enumerate() {
            let Some(id) = operand.id() else { continue };
            if operand.kind == result_type_kind || type_operand == Some(k) {
                continue;
            }
            let Some(def) = ix.def(id) else { continue };
            if def.index >= index {
                continue;
            }
            let is_type = class(ix, def.opcode) == "Type-Declaration";
            let err = if is_type {
                IdError::TypeAsOperand {
                    opcode: inst.opcode.name().to_string(),
                    id: ix.name(id),
                }
            } else if def.result_type.is_none() && !may_name_typeless(inst) {
                IdError::TypelessOperand {
                    opcode: inst.opcode.name().to_string(),
                    id: ix.name(id),
                }
            } else {
                continue;
            };
            out.push(ValError::at(index, err));
        }
    }
}
