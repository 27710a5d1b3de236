//! Rules of ids: every id defined exactly once, every referenced id defined, defined before use
//! where SPIR-V requires it, and function-local ids used only inside their function.
//!
//! "Defined exactly once" is checked by the index builder ([`IdError::DefinedTwice`]). The
//! operands that may refer forward are those SPIR-V §2.4 (logical layout) lets appear before
//! the definition — names, decorations, entry points and execution modes, merge instructions,
//! branch targets, the `OpPhi` operands, the function of `OpFunctionCall`, pointer types through
//! `OpTypeForwardPointer` — the same list as SPIRV-Tools' `spvOperandCanBeForwardDeclaredFunction`.
//! Dominance of definitions over uses inside a function is checked in [`super::cfg`].

use crate::Options;
use crate::error::ValError;
use rustc_hash::FxHashSet as HashSet;
use spvx_spirv::index::ModuleIndex;
use spvx_spirv::instruction::{Id, Instruction};
use spvx_spirv::op::Op;
use thiserror::Error;

/// A broken id rule.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum IdError {
    /// SPIR-V §2.2.1: an id is defined by exactly one instruction.
    #[error("id {id} is defined more than once (first by instruction {first})")]
    DefinedTwice { id: Id, first: usize },
    /// SPIR-V §2.2.1: every id used must be defined by some instruction.
    #[error("{opcode}: ID {id} has not been defined")]
    Undefined { opcode: String, id: String },
    /// SPIR-V §2.4: an id must be defined before it is used, except for the forward
    /// references the logical layout allows.
    #[error(
        "{opcode}: ID {id} is used before its definition (only names, decorations, entry points, merge and branch targets, OpPhi operands, called functions and forward-declared pointers may refer forward)"
    )]
    UsedBeforeDefinition { opcode: String, id: String },
    /// SPIR-V §2.2.1 (function-local ids): an id defined inside a function is visible only in
    /// that function.
    #[error(
        "{opcode}: ID {id} is defined in function {owner} and cannot be used in function {user}"
    )]
    OtherFunction {
        opcode: String,
        id: String,
        owner: String,
        user: String,
    },
    /// SPIR-V §2.3 (Physical Layout, word 3): "all <id>s in this module are guaranteed to
    /// satisfy 0 < id < Bound". Message as spirv-val 2025.5.
    #[error("Result <id> '{id}' must be less than the ID bound '{bound}'.")]
    ExceedsBound { id: Id, bound: u32 },
    /// SPIR-V §2.17 (Universal Limits): the id bound's minimum guaranteed limit is 4,194,303;
    /// spirv-val 2025.5 rejects larger bounds by default (`--max-id-bound` raises it). spvx keeps
    /// that limit by default ([`MAX_ID_BOUND`], `Limits::max_id_bound`).
    #[error(
        "the id bound {bound} is larger than the max id bound {max} (SPIR-V §2.17 Universal Limits)"
    )]
    BoundTooLarge { bound: u32, max: u32 },
    /// An operand names a type where the instruction wants a value (SPIR-V §2.2.1, §3.52;
    /// spirv-val 2025.5 "Operand X cannot be a type"). See [`super::id_operands`].
    #[error("{opcode}: operand {id} cannot be a type (a value is required here)")]
    TypeAsOperand { opcode: String, id: String },
    /// An operand names an id without a type (a label, string, import or decoration group)
    /// where the instruction wants a value (spirv-val 2025.5 "Operand X requires a type").
    #[error(
        "{opcode}: operand {id} requires a type (it is not a value: a label, string, import or decoration group)"
    )]
    TypelessOperand { opcode: String, id: String },
}

/// The largest id bound a module may declare: SPIR-V §2.17's universal limit, spirv-val's
/// default `--max-id-bound`.
pub const MAX_ID_BOUND: u32 = 0x3f_ffff;

/// True when operand `pos` (counted after the result type and result id) of `inst` may name
/// an id defined later in the module.
fn may_refer_forward(
    ix: &ModuleIndex,
    inst: &Instruction,
    pos: usize,
    forward_pointers: &HashSet<Id>,
) -> bool {
    match inst.opcode {
        Op::Name
        | Op::MemberName
        | Op::EntryPoint
        | Op::ExecutionMode
        | Op::ExecutionModeId
        | Op::Decorate
        | Op::MemberDecorate
        | Op::DecorateId
        | Op::DecorateString
        | Op::MemberDecorateString
        | Op::SelectionMerge
        | Op::LoopMerge
        | Op::Branch
        | Op::Phi
        | Op::TypeForwardPointer
        // SPV_KHR_relaxed_extended_instruction: OpExtInstWithForwardRefsKHR "allows forward
        // references to <id>s" (of non-semantic instructions).
        | Op::ExtInstWithForwardRefsKHR => true,
        Op::GroupDecorate | Op::GroupMemberDecorate | Op::BranchConditional | Op::Switch => {
            pos != 0
        }
        Op::FunctionCall => pos == 0,
        // SPV_ARM_graph: graph entry points precede the graphs they name, like OpEntryPoint.
        Op::GraphEntryPointARM => pos == 0,
        // Debug-information extended instructions refer forward freely.
        Op::ExtInst => inst
            .operands
            .first()
            .and_then(|o| o.id())
            .and_then(|set| ix.ext_imports.get(&set))
            .is_some_and(|name| name.contains("DebugInfo")),
        // Types may refer to a pointer type declared by OpTypeForwardPointer.
        Op::TypeStruct | Op::TypePointer => inst
            .operands
            .get(pos)
            .and_then(|o| o.id())
            .is_some_and(|id| forward_pointers.contains(&id)),
        _ => false,
    }
}

/// Appends every id error to `out`.
pub fn check(ix: &ModuleIndex, opts: &Options, out: &mut Vec<ValError>) {
    let bound = ix.header.bound;
    let max = opts.limits.max_id_bound;
    if bound > max {
        out.push(ValError::module(IdError::BoundTooLarge { bound, max }));
    }
    let mut forward_pointers = HashSet::default();
    for (index, inst) in ix.insts.iter().enumerate() {
        let opcode = || inst.opcode.name().to_string();
        if let Some(id) = inst.result
            && id >= bound
        {
            out.push(ValError::at(index, IdError::ExceedsBound { id, bound }));
        }
        if let Some(t) = inst.result_type {
            match ix.def(t) {
                None => out.push(ValError::at(
                    index,
                    IdError::Undefined {
                        opcode: opcode(),
                        id: ix.name(t),
                    },
                )),
                Some(d) if d.index > index => out.push(ValError::at(
                    index,
                    IdError::UsedBeforeDefinition {
                        opcode: opcode(),
                        id: ix.name(t),
                    },
                )),
                Some(_) => {}
            }
        }
        if inst.opcode == Op::TypeForwardPointer
            && let Some(p) = inst.operands.first().and_then(|o| o.id())
        {
            forward_pointers.insert(p);
        }
        let user_fn = ix.function_of(index);
        for (pos, operand) in inst.operands.iter().enumerate() {
            let Some(id) = operand.id() else { continue };
            let Some(def) = ix.def(id) else {
                out.push(ValError::at(
                    index,
                    IdError::Undefined {
                        opcode: opcode(),
                        id: ix.name(id),
                    },
                ));
                continue;
            };
            if def.index > index && !may_refer_forward(ix, inst, pos, &forward_pointers) {
                out.push(ValError::at(
                    index,
                    IdError::UsedBeforeDefinition {
                        opcode: opcode(),
                        id: ix.name(id),
                    },
                ));
                continue;
            }
            if let (Some(user), Some(owner)) = (user_fn, ix.function_of(def.index))
                && user != owner
                && def.opcode != Op::Function
            {
                out.push(ValError::at(
                    index,
                    IdError::OtherFunction {
                        opcode: opcode(),
                        id: ix.name(id),
                        owner: ix.name(ix.functions[owner].id),
                        user: ix.name(ix.functions[user].id),
                    },
                ));
            }
        }
    }
}

/// Cascade suppression: an instruction using an undefined id, or naming a type or a typeless
/// id where a value is wanted, is reported for that alone — the other rules' errors on the same
/// instruction follow from the missing value and are dropped. (Ids used before their definition or from another function are defined, so the
/// other rules still judge them.) Identical errors on one instruction are reported once.
pub fn suppress_cascades(errors: &mut Vec<ValError>) {
    use crate::error::ErrorKind;
    let broken: HashSet<usize> = errors
        .iter()
        .filter(|e| {
            matches!(
                e.kind,
                ErrorKind::Id(
                    IdError::Undefined { .. }
                        | IdError::TypeAsOperand { .. }
                        | IdError::TypelessOperand { .. }
                )
            )
        })
        .filter_map(|e| e.index)
        .collect();
    errors.retain(|e| {
        matches!(e.kind, ErrorKind::Id(_)) || e.index.is_none_or(|i| !broken.contains(&i))
    });
    let mut seen: HashSet<(Option<usize>, String)> = HashSet::default();
    errors.retain(|e| seen.insert((e.index, format!("{:?}", e.kind))));
}
