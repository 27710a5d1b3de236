//! Decorations that must not repeat, and BuiltIn members all-or-none.

use super::{DecorationError, HashSet, dec, decoration_name};
use crate::error::ValError;
use spvx_spirv::index::{ModuleIndex, Type};
use spvx_spirv::instruction::{Id, Instruction};
use spvx_spirv::op::Op;

/// §3.20 BuiltIn / spirv-val: when a structure member is decorated BuiltIn, every member of that
/// structure is ("No allowed mixing of built-in variables and non-built-in variables within a
/// single structure").
pub(super) fn built_in_members(ix: &ModuleIndex, out: &mut Vec<ValError>) {
    let mut by_struct: Vec<(Id, usize, HashSet<u32>)> = Vec::new();
    for (index, inst) in ix.insts.iter().enumerate() {
        let word = |i: usize| inst.operands.get(i).and_then(|o| o.word());
        if inst.opcode != Op::MemberDecorate || word(2) != Some(dec::BUILT_IN) {
            continue;
        }
        let (Some(target), Some(member)) = (ModuleIndex::operand_id(inst, 0), word(1)) else {
            continue;
        };
        match by_struct.iter_mut().find(|(t, _, _)| *t == target) {
            Some((_, _, members)) => {
                members.insert(member);
            }
            None => by_struct.push((target, index, HashSet::from_iter([member]))),
        }
    }
    for (target, index, members) in by_struct {
        if let Some(Type::Struct { members: all }) = ix.ty(target)
            && members.len() < all.len()
        {
            out.push(ValError::at(
                index,
                DecorationError::BuiltInMixing {
                    target: ix.name(target),
                },
            ));
        }
    }
}

/// NoSignedWrap and NoUnsignedWrap (SPIR-V 1.4, SPV_KHR_no_integer_wrap_decoration).
const NO_SIGNED_WRAP: u32 = 4469;
const NO_UNSIGNED_WRAP: u32 = 4470;

/// The decorations spvx refuses to see twice on one target: the core decorations 0..=47 except
/// FuncParamAttr, and NoSignedWrap / NoUnsignedWrap (spirv-val 2025.5: "ID ... decorated with X
/// multiple times is not allowed"; it accepts repeated FuncParamAttr, UserSemantic and
/// UserTypeGOOGLE). llvm-spirv 15 repeats the two wrap decorations on loop counters, but every
/// such module seen so far is invalid anyway (blocks before their dominators; docs/semantics/validation.md
/// "Decorations"). Other extension decorations are not judged.
pub(super) fn unique_decoration(d: u32) -> bool {
    (d <= 47 && d != 38) || d == NO_SIGNED_WRAP || d == NO_UNSIGNED_WRAP
}

/// A `Duplicate` error when `inst` decorates a (target, member) with a decoration it already
/// has; records the decoration otherwise.
pub(super) fn duplicate(
    ix: &ModuleIndex,
    inst: &Instruction,
    seen: &mut HashSet<(Id, Option<u32>, u32)>,
) -> Option<DecorationError> {
    let word = |i: usize| inst.operands.get(i).and_then(|o| o.word());
    let target = ModuleIndex::operand_id(inst, 0)?;
    let (member, d) = match inst.opcode {
        Op::Decorate | Op::DecorateId | Op::DecorateString => (None, word(1)?),
        Op::MemberDecorate | Op::MemberDecorateString => (Some(word(1)?), word(2)?),
        _ => return None,
    };
    if !unique_decoration(d) || seen.insert((target, member, d)) {
        return None;
    }
    Some(DecorationError::Duplicate {
        target: ix.name(target),
        decoration: decoration_name(ix, d),
        member: member.map_or_else(String::new, |m| format!(" (member {m})")),
    })
}
