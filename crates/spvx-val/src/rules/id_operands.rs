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
//! instructions, and non-semantic / debug-info extended instructions. spvx-val applies the same
//! rule with the same exceptions. Like spirv-val, it judges only operands defined earlier in
//! the module (a forward reference is allowed only in the positions [`super::ids`] lists, none
//! of which can legally name a type or a typeless id where a value is wanted).

use crate::Options;
use crate::error::ValError;
use crate::index::ModuleIndex;
use crate::rules::ids::IdError;
use spvx_spirv::instruction::Instruction;

mod op {
    pub const EXT_INST: u16 = 12;
    /// OpExtInstWithForwardRefsKHR (SPV_KHR_relaxed_extended_instruction).
    pub const EXT_INST_WITH_FORWARD_REFS: u16 = 4433;
    pub const FUNCTION: u16 = 54;
    pub const PHI: u16 = 245;
    pub const LOOP_MERGE: u16 = 246;
    pub const SELECTION_MERGE: u16 = 247;
    pub const BRANCH: u16 = 249;
    pub const BRANCH_CONDITIONAL: u16 = 250;
    pub const SWITCH: u16 = 251;
    pub const SIZE_OF: u16 = 321;
    pub const COOPERATIVE_MATRIX_LENGTH_KHR: u16 = 4460;
    pub const COOPERATIVE_MATRIX_LENGTH_NV: u16 = 5362;
    pub const SPEC_CONSTANT_OP: u16 = 52;
}

/// The grammar class of `opcode` ("Type-Declaration", "Annotation", "Debug", ...).
fn class<'g>(ix: &'g ModuleIndex, opcode: u16) -> &'g str {
    ix.grammar
        .instruction(opcode)
        .map_or("", |i| i.class.as_str())
}

/// True for instructions whose id operands may name types and typeless ids freely.
fn exempt_from_both(ix: &ModuleIndex, inst: &Instruction) -> bool {
    let c = class(ix, inst.opcode);
    if c == "Type-Declaration" || c == "Annotation" || c == "Debug" {
        return true;
    }
    match inst.opcode {
        op::FUNCTION
        | op::SIZE_OF
        | op::COOPERATIVE_MATRIX_LENGTH_KHR
        | op::COOPERATIVE_MATRIX_LENGTH_NV => true,
        op::SPEC_CONSTANT_OP => inst
            .operands
            .first()
            .and_then(|o| o.word())
            .is_some_and(|w| {
                w == u32::from(op::COOPERATIVE_MATRIX_LENGTH_KHR)
                    || w == u32::from(op::COOPERATIVE_MATRIX_LENGTH_NV)
            }),
        op::EXT_INST | op::EXT_INST_WITH_FORWARD_REFS => inst
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
        op::PHI
            | op::EXT_INST
            | op::EXT_INST_WITH_FORWARD_REFS
            | op::SELECTION_MERGE
            | op::LOOP_MERGE
            | op::BRANCH
            | op::BRANCH_CONDITIONAL
            | op::SWITCH
    )
}

/// Appends an error for every operand naming a type or a typeless id where a value is wanted.
pub fn check(ix: &ModuleIndex, _opts: &Options, out: &mut Vec<ValError>) {
    let result_type_kind = ix.grammar.common.id_result_type;
    for (index, inst) in ix.insts.iter().enumerate() {
        if exempt_from_both(ix, inst) {
            continue;
        }
        for operand in &inst.operands {
            let Some(id) = operand.id() else { continue };
            if operand.kind == result_type_kind {
                continue;
            }
            let Some(def) = ix.def(id) else { continue };
            if def.index >= index {
                continue;
            }
            let is_type = class(ix, def.opcode) == "Type-Declaration";
            let err = if is_type {
                IdError::TypeAsOperand {
                    opcode: ix.opcode_name(inst.opcode),
                    id: ix.name(id),
                }
            } else if def.result_type.is_none() && !may_name_typeless(inst) {
                IdError::TypelessOperand {
                    opcode: ix.opcode_name(inst.opcode),
                    id: ix.name(id),
                }
            } else {
                continue;
            };
            out.push(ValError::at(index, err));
        }
    }
}
