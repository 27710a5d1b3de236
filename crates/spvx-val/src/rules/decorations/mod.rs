//! Rules of decoration targets (SPIR-V §3.20 "Decoration": what each decoration may apply to;
//! §3.52.2 `OpDecorate`, `OpMemberDecorate`, `OpDecorateId`): layout decorations of structs
//! and arrays, decorations of variables and memory object declarations, member-only and
//! never-member decorations, member indices in range, decorations with `<id>` operands only
//! through `OpDecorateId`, and the Vulkan environment's storage-class restrictions.
//!
//! The target rules are those spirv-val applies (SPIRV-Tools source/val/validate_annotation.cpp,
//! `ValidateDecorationTarget`, `IsMemberDecorationOnly`, `IsNotMemberDecoration`); the
//! messages use its wording. Decorations through decoration groups are not judged.

use crate::Options;
use crate::error::ValError;
use spvx_spirv::index::{ModuleIndex, Type};
use spvx_spirv::instruction::{Id, Instruction};
use spvx_spirv::op::Op;
use thiserror::Error;

mod repeats;
mod targets;
mod vulkan;

use rustc_hash::FxHashSet as HashSet;

/// A broken decoration rule.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DecorationError {
    /// The decoration may not apply to this kind of target.
    #[error("{decoration} decoration on target <id> {target} {rule}")]
    Target {
        decoration: String,
        target: String,
        rule: String,
    },
    /// RowMajor, ColMajor and MatrixStride apply only to structure members (§3.20).
    #[error("{decoration} can only be applied to structure members")]
    MemberOnly { decoration: String },
    /// A decoration that §3.20 does not allow on structure members.
    #[error("{decoration} cannot be applied to structure members")]
    NotMember { decoration: String },
    /// `OpMemberDecorate` on something that is not a struct type.
    #[error("OpMemberDecorate Structure type <id> {target} is not a struct type")]
    MemberNotStruct { target: String },
    /// `OpMemberDecorate` member index out of range.
    #[error(
        "OpMemberDecorate Structure type <id> {target} has {count} members; member {member} does not exist"
    )]
    MemberIndex {
        target: String,
        count: usize,
        member: u32,
    },
    /// Decorations with `<id>` operands only through `OpDecorateId`, and only they.
    #[error("{decoration}: {rule}")]
    IdForm { decoration: String, rule: String },
    /// The same decoration applied twice to one target (or one member).
    #[error("{target} is decorated with {decoration} more than once{member}")]
    Duplicate {
        target: String,
        decoration: String,
        member: String,
    },
    /// Some but not all members of a struct are BuiltIn.
    #[error(
        "When BuiltIn decoration is applied to a structure-type member, all members of that structure type must also be decorated with BuiltIn ({target})"
    )]
    BuiltInMixing { target: String },
    /// A struct with BuiltIn members inside another struct (§3.20 BuiltIn).
    #[error(
        "Structure <id> {inner} contains members with BuiltIn decoration. Therefore this structure may not be contained as a member of another structure type. Structure <id> {outer} contains structure <id> {inner}"
    )]
    BuiltInStructNested { inner: String, outer: String },
    /// A rule of the Vulkan environment.
    #[error("{decoration} decoration on target <id> {target}: {rule} (Vulkan environment)")]
    Vulkan {
        decoration: String,
        target: String,
        rule: String,
    },
}

/// Decoration numbers (§3.20).
pub(super) mod dec {
    pub const SPEC_ID: u32 = 1;
    pub const BLOCK: u32 = 2;
    pub const BUFFER_BLOCK: u32 = 3;
    pub const ROW_MAJOR: u32 = 4;
    pub const COL_MAJOR: u32 = 5;
    pub const ARRAY_STRIDE: u32 = 6;
    pub const MATRIX_STRIDE: u32 = 7;
    pub const GLSL_SHARED: u32 = 8;
    pub const GLSL_PACKED: u32 = 9;
    pub const CPACKED: u32 = 10;
    pub const BUILT_IN: u32 = 11;
    pub const BINDING: u32 = 33;
    pub const DESCRIPTOR_SET: u32 = 34;
    pub const UNIFORM_ID: u32 = 27;
    pub const ALIGNMENT_ID: u32 = 46;
    pub const MAX_BYTE_OFFSET_ID: u32 = 47;
    pub const COUNTER_BUFFER: u32 = 5634;
    pub const WORKGROUP_SIZE: u32 = 25;
    pub const RELAXED_PRECISION: u32 = 0;
    pub const NON_WRITABLE: u32 = 24;
    pub const NON_READABLE: u32 = 25;
    pub const INVARIANT: u32 = 18;
    pub const LOCATION: u32 = 30;
    pub const COMPONENT: u32 = 31;
    pub const FLAT: u32 = 14;
    pub const NO_PERSPECTIVE: u32 = 13;
    pub const CENTROID: u32 = 16;
    pub const SAMPLE: u32 = 17;
    pub const OFFSET: u32 = 35;
}

/// Appends every decoration error to `out`.
pub fn check(ix: &ModuleIndex, opts: &Options, out: &mut Vec<ValError>) {
    let mut seen: HashSet<(Id, Option<u32>, u32)> = HashSet::default();
    for (index, inst) in ix.insts.iter().enumerate() {
        if let Some(e) = repeats::duplicate(ix, inst, &mut seen) {
            out.push(ValError::at(index, e));
            continue;
        }
        let r = match inst.opcode {
            Op::Decorate | Op::DecorateString => decorate(ix, opts, inst, false),
            Op::DecorateId => decorate(ix, opts, inst, true),
            Op::MemberDecorate | Op::MemberDecorateString => member_decorate(ix, opts, inst),
            Op::TypeStruct => nested_built_in_struct(ix, inst),
            _ => Ok(()),
        };
        if let Err(e) = r {
            out.push(ValError::at(index, e));
        }
    }
    repeats::built_in_members(ix, out);
}

pub(super) fn decoration_name(ix: &ModuleIndex, d: u32) -> String {
    let g = ix.grammar;
    g.kind_by_name("Decoration")
        .and_then(|k| g.enumerant_name(k, d))
        .map_or_else(|| format!("Decoration {d}"), str::to_string)
}

pub(super) fn takes_id(d: u32) -> bool {
    matches!(
        d,
        dec::UNIFORM_ID | dec::ALIGNMENT_ID | dec::MAX_BYTE_OFFSET_ID | dec::COUNTER_BUFFER
    )
}

fn decorate(
    ix: &ModuleIndex,
    opts: &Options,
    inst: &Instruction,
    id_form: bool,
) -> Result<(), DecorationError> {
    let (Some(target), Some(d)) = (
        ModuleIndex::operand_id(inst, 0),
        inst.operands.get(1).and_then(|o| o.word()),
    ) else {
        return Ok(());
    };
    let Some(def) = ix.def_inst(target) else {
        return Ok(()); // undefined target: an id rule
    };
    let name = || decoration_name(ix, d);
    if id_form != takes_id(d) && inst.opcode != Op::DecorateString {
        let rule = if id_form {
            "decorations that don't take <id> parameters may not be used with OpDecorateId"
        } else {
            "decorations taking <id> parameters must be used with OpDecorateId"
        };
        return Err(DecorationError::IdForm {
            decoration: name(),
            rule: rule.to_string(),
        });
    }
    if def.opcode == Op::DecorationGroup {
        return Ok(());
    }
    if matches!(d, dec::ROW_MAJOR | dec::COL_MAJOR | dec::MATRIX_STRIDE) {
        return Err(DecorationError::MemberOnly { decoration: name() });
    }
    let fail = |rule: &str| DecorationError::Target {
        decoration: name(),
        target: ix.name(target),
        rule: rule.to_string(),
    };
    if let Some(rule) = targets::target_violation(ix, inst, d, def) {
        return Err(fail(rule));
    }
    if opts.target_env.is_vulkan() {
        vulkan::check(ix, d, target, def)?;
    }
    Ok(())
}

/// §3.20 BuiltIn: "When applied to a structure-type member, that structure type cannot be
/// contained as a member of another structure type" (spirv-val 2025.5 checks it at the outer
/// OpTypeStruct, in every environment).
fn nested_built_in_struct(ix: &ModuleIndex, inst: &Instruction) -> Result<(), DecorationError> {
    let Some(outer) = inst.result else {
        return Ok(());
    };
    match inst
        .operands
        .iter()
        .filter_map(|o| o.id())
        .find(|&m| crate::rules::interface::is_built_in_struct(ix, m))
    {
        Some(inner) => Err(DecorationError::BuiltInStructNested {
            inner: ix.name(inner),
            outer: ix.name(outer),
        }),
        None => Ok(()),
    }
}

fn member_decorate(
    ix: &ModuleIndex,
    opts: &Options,
    inst: &Instruction,
) -> Result<(), DecorationError> {
    let (Some(target), Some(member), Some(d)) = (
        ModuleIndex::operand_id(inst, 0),
        inst.operands.get(1).and_then(|o| o.word()),
        inst.operands.get(2).and_then(|o| o.word()),
    ) else {
        return Ok(());
    };
    if ix.def(target).is_none() {
        return Ok(());
    }
    let Some(Type::Struct { members }) = ix.ty(target) else {
        return Err(DecorationError::MemberNotStruct {
            target: ix.name(target),
        });
    };
    if member as usize >= members.len() {
        return Err(DecorationError::MemberIndex {
            target: ix.name(target),
            count: members.len(),
            member,
        });
    }
    if targets::NOT_MEMBER.contains(&d) {
        return Err(DecorationError::NotMember {
            decoration: decoration_name(ix, d),
        });
    }
    if opts.target_env.is_vulkan() && d == dec::BUILT_IN {
        let b = inst.operands.get(3).and_then(|o| o.word());
        if let Some(rule) = vulkan::compute_built_in_type(ix, b, members[member as usize]) {
            return Err(DecorationError::Vulkan {
                decoration: decoration_name(ix, d),
                target: format!("{} member {member}", ix.name(target)),
                rule: rule.to_string(),
            });
        }
    }
    Ok(())
}
