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
use crate::index::{ModuleIndex, Type};
use rustc_hash::FxHashSet as HashSet;
use spvx_spirv::instruction::{Id, Instruction};
use thiserror::Error;

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
    /// A rule of the Vulkan environment.
    #[error("{decoration} decoration on target <id> {target}: {rule} (Vulkan environment)")]
    Vulkan {
        decoration: String,
        target: String,
        rule: String,
    },
}

mod op {
    pub const DECORATE: u16 = 71;
    pub const MEMBER_DECORATE: u16 = 72;
    pub const DECORATION_GROUP: u16 = 73;
    pub const DECORATE_ID: u16 = 332;
    pub const DECORATE_STRING: u16 = 5632;
    pub const MEMBER_DECORATE_STRING: u16 = 5633;
    pub const VARIABLE: u16 = 59;
    pub const FUNCTION_PARAMETER: u16 = 55;
    pub const TYPE_ARRAY: u16 = 28;
    pub const TYPE_RUNTIME_ARRAY: u16 = 29;
    pub const TYPE_STRUCT: u16 = 30;
    pub const TYPE_POINTER: u16 = 32;
    pub const TYPE_UNTYPED_POINTER: u16 = 4417;
    pub const SPEC_CONSTANT_TRUE: u16 = 48;
    pub const SPEC_CONSTANT_FALSE: u16 = 49;
    pub const SPEC_CONSTANT: u16 = 50;
}

/// Decoration numbers (§3.20).
mod dec {
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
}

/// Storage classes whose variables NonWritable (and NonReadable) may not decorate — spirv-val's
/// "Target of NonWritable decoration is invalid" list, kept to the classes it names as refused:
/// Input, Output, Workgroup, CrossWorkgroup, PushConstant.
const NOT_WRITABLE_TARGET: [u32; 5] = [1, 3, 4, 5, 9];

/// Decorations that apply to memory object declarations (variables and function parameters of
/// pointer type): NoPerspective, Flat, Patch, Centroid, Sample, Restrict, Aliased, Volatile,
/// Coherent, NonWritable, NonReadable, XfbBuffer, XfbStride, Component, Stream,
/// RestrictPointer, AliasedPointer.
const MEMORY_OBJECT: [u32; 17] = [
    13, 14, 15, 16, 17, 19, 20, 21, 23, 24, 25, 36, 37, 31, 29, 5355, 5356,
];

/// Decorations that apply to variables only: Invariant, Constant, Location, Index, Binding,
/// DescriptorSet, InputAttachmentIndex.
const VARIABLE_ONLY: [u32; 7] = [18, 22, 30, 32, 33, 34, 43];

/// Decorations not allowed on structure members (spirv-val's `IsNotMemberDecoration`).
const NOT_MEMBER: [u32; 29] = [
    1, 2, 3, 6, 8, 9, 10, 20, 22, 26, 27, 28, 32, 33, 34, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47,
    4469, 4470, 5300, 5634,
];

/// Appends every decoration error to `out`.
pub fn check(ix: &ModuleIndex, opts: &Options, out: &mut Vec<ValError>) {
    let mut seen: HashSet<(Id, Option<u32>, u32)> = HashSet::default();
    for (index, inst) in ix.insts.iter().enumerate() {
        if let Some(e) = duplicate(ix, inst, &mut seen) {
            out.push(ValError::at(index, e));
            continue;
        }
        let r = match inst.opcode {
            op::DECORATE | op::DECORATE_STRING => decorate(ix, opts, inst, false),
            op::DECORATE_ID => decorate(ix, opts, inst, true),
            op::MEMBER_DECORATE | op::MEMBER_DECORATE_STRING => member_decorate(ix, inst),
            _ => Ok(()),
        };
        if let Err(e) = r {
            out.push(ValError::at(index, e));
        }
    }
    built_in_members(ix, out);
}

/// §3.20 BuiltIn / spirv-val: when a structure member is decorated BuiltIn, every member of that
/// structure is ("No allowed mixing of built-in variables and non-built-in variables within a
/// single structure").
fn built_in_members(ix: &ModuleIndex, out: &mut Vec<ValError>) {
    let mut by_struct: Vec<(Id, usize, HashSet<u32>)> = Vec::new();
    for (index, inst) in ix.insts.iter().enumerate() {
        let word = |i: usize| inst.operands.get(i).and_then(|o| o.word());
        if inst.opcode != op::MEMBER_DECORATE || word(2) != Some(dec::BUILT_IN) {
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

fn decoration_name(ix: &ModuleIndex, d: u32) -> String {
    let g = ix.grammar;
    g.kind_by_name("Decoration")
        .and_then(|k| g.enumerant_name(k, d))
        .map_or_else(|| format!("Decoration {d}"), str::to_string)
}

fn takes_id(d: u32) -> bool {
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
    if id_form != takes_id(d) && inst.opcode != op::DECORATE_STRING {
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
    if def.opcode == op::DECORATION_GROUP {
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
    if let Some(rule) = target_violation(ix, inst, d, def) {
        return Err(fail(rule));
    }
    if opts.target_env.is_vulkan() {
        vulkan(ix, d, target, def)?;
    }
    Ok(())
}

/// The storage class of the pointer type of `def`'s result (Uniform when it has none, as
/// spirv-val assumes).
fn storage_class(ix: &ModuleIndex, def: &Instruction) -> u32 {
    match def.result_type.and_then(|t| ix.ty(t)) {
        Some(Type::Pointer { storage_class, .. }) => *storage_class,
        _ => 2,
    }
}

fn vulkan(ix: &ModuleIndex, d: u32, target: Id, def: &Instruction) -> Result<(), DecorationError> {
    let fail = |rule: &str| DecorationError::Vulkan {
        decoration: decoration_name(ix, d),
        target: ix.name(target),
        rule: rule.to_string(),
    };
    let sc = storage_class(ix, def);
    if d == dec::BUILT_IN
        && let Some(rule) = compute_built_in_type(ix, inst_built_in(ix, target), def)
    {
        return Err(fail(rule));
    }
    let built_in_target = ix.decorations.get(&target).is_some_and(|ds| {
        ds.iter().any(|&i| {
            let x = &ix.insts[i];
            x.opcode == op::DECORATE
                && x.operands.get(1).and_then(|o| o.word()) == Some(dec::BUILT_IN)
        })
    });
    if matches!(d, dec::LOCATION | dec::COMPONENT) && built_in_target {
        return Err(fail(
            "a BuiltIn variable cannot have any Location or Component decorations (VUID-StandaloneSpirv-Location-04915)",
        ));
    }
    match d {
        dec::GLSL_SHARED | dec::GLSL_PACKED => Err(fail(
            "not valid for the Vulkan execution environment (VUID-StandaloneSpirv-GLSLShared-04669)",
        )),
        // UniformConstant 0, Uniform 2, StorageBuffer 12.
        // Input 1, Output 3.
        dec::INVARIANT if ![1, 3].contains(&sc) => Err(fail(
            "a variable decorated with Invariant must be in the Input or Output storage class (VUID-StandaloneSpirv-Invariant-04677)",
        )),
        dec::FLAT | dec::NO_PERSPECTIVE | dec::CENTROID | dec::SAMPLE if ![1, 3].contains(&sc) => {
            Err(fail(
                "storage class must be Input or Output (VUID-StandaloneSpirv-Flat-04670)",
            ))
        }
        // Input, Output and the ray-tracing classes (5338, 5339, 5342, 5328, 5329, 5343).
        dec::LOCATION | dec::COMPONENT
            if ![1, 3, 5338, 5339, 5342, 5328, 5329, 5343].contains(&sc) =>
        {
            Err(fail(
                "must not be applied to this storage class (VUID-StandaloneSpirv-Location-06672)",
            ))
        }
        dec::BINDING | dec::DESCRIPTOR_SET if ![0, 2, 12].contains(&sc) => Err(fail(
            "must be in the StorageBuffer, Uniform, or UniformConstant storage class (VUID-StandaloneSpirv-DescriptorSet-06491)",
        )),
        _ => Ok(()),
    }
}

fn member_decorate(ix: &ModuleIndex, inst: &Instruction) -> Result<(), DecorationError> {
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
    if NOT_MEMBER.contains(&d) {
        return Err(DecorationError::NotMember {
            decoration: decoration_name(ix, d),
        });
    }
    Ok(())
}

/// The rule `OpDecorate` of decoration `d` breaks on `def` (the target), if any.
fn target_violation(
    ix: &ModuleIndex,
    inst: &Instruction,
    d: u32,
    def: &Instruction,
) -> Option<&'static str> {
    let is_constant = def.result.is_some_and(|t| ix.is_constant(t));
    let opcode = def.opcode;
    match d {
        dec::SPEC_ID => (!matches!(
            opcode,
            op::SPEC_CONSTANT_TRUE | op::SPEC_CONSTANT_FALSE | op::SPEC_CONSTANT
        ))
        .then_some("must be a scalar specialization constant"),
        dec::BLOCK | dec::BUFFER_BLOCK | dec::GLSL_SHARED | dec::GLSL_PACKED | dec::CPACKED => {
            (opcode != op::TYPE_STRUCT).then_some("must be a structure type")
        }
        dec::ARRAY_STRIDE => (!matches!(
            opcode,
            op::TYPE_ARRAY | op::TYPE_RUNTIME_ARRAY | op::TYPE_POINTER | op::TYPE_UNTYPED_POINTER
        ))
        .then_some("must be an array or pointer type"),
        dec::BUILT_IN => {
            if opcode != op::VARIABLE && !is_constant {
                return Some(
                    "must be a variable, a structure member or a constant (BuiltIns can only target variables, structure members or constants)",
                );
            }
            let built_in = inst.operands.get(2).and_then(|o| o.word());
            if built_in == Some(dec::WORKGROUP_SIZE) {
                (!is_constant && ix.has_capability("Shader"))
                    .then_some("must be a constant for WorkgroupSize")
            } else {
                (opcode != op::VARIABLE).then_some("must be a variable")
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
            if opcode != op::VARIABLE && opcode != op::FUNCTION_PARAMETER {
                return Some("must be a memory object declaration");
            }
            let pointer = def
                .result_type
                .and_then(|t| ix.def(t))
                .is_some_and(|t| matches!(t.opcode, op::TYPE_POINTER | op::TYPE_UNTYPED_POINTER));
            if !pointer {
                return Some("must be a pointer type");
            }
            let sc = storage_class(ix, def);
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
        d if VARIABLE_ONLY.contains(&d) => (opcode != op::VARIABLE).then_some("must be a variable"),
        _ => None,
    }
}

/// The decorations spvx refuses to see twice on one target: the core decorations 0..=47 except
/// FuncParamAttr (spirv-val 2025.5: "ID ... decorated with X multiple times is not allowed";
/// it accepts repeated FuncParamAttr, UserSemantic and UserTypeGOOGLE). Extension decorations
/// are not judged.
fn unique_decoration(d: u32) -> bool {
    d <= 47 && d != 38
}

/// A `Duplicate` error when `inst` decorates a (target, member) with a decoration it already
/// has; records the decoration otherwise.
fn duplicate(
    ix: &ModuleIndex,
    inst: &Instruction,
    seen: &mut HashSet<(Id, Option<u32>, u32)>,
) -> Option<DecorationError> {
    let word = |i: usize| inst.operands.get(i).and_then(|o| o.word());
    let target = ModuleIndex::operand_id(inst, 0)?;
    let (member, d) = match inst.opcode {
        op::DECORATE | op::DECORATE_ID | op::DECORATE_STRING => (None, word(1)?),
        op::MEMBER_DECORATE | op::MEMBER_DECORATE_STRING => (Some(word(1)?), word(2)?),
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

/// The BuiltIn of the first `OpDecorate ... BuiltIn` of `target`.
fn inst_built_in(ix: &ModuleIndex, target: Id) -> Option<u32> {
    ix.decorations.get(&target)?.iter().find_map(|&i| {
        let x = &ix.insts[i];
        let w = |k: usize| x.operands.get(k).and_then(|o| o.word());
        (x.opcode == op::DECORATE && w(1) == Some(dec::BUILT_IN))
            .then(|| w(2))
            .flatten()
    })
}

/// Vulkan's type rules of the compute built-ins (VUID-GlobalInvocationId-GlobalInvocationId-04238
/// and its siblings): NumWorkgroups, WorkgroupSize, WorkgroupId, LocalInvocationId and
/// GlobalInvocationId are 3-component vectors of 32-bit ints; LocalInvocationIndex a 32-bit int.
/// The type is the variable's pointee, or a constant's type.
fn compute_built_in_type(
    ix: &ModuleIndex,
    built_in: Option<u32>,
    def: &Instruction,
) -> Option<&'static str> {
    let b = built_in?;
    let t = match def.result_type.and_then(|t| ix.ty(t).map(|ty| (t, ty))) {
        Some((_, Type::Pointer { pointee, .. })) => *pointee,
        Some((t, _)) => t,
        None => return None,
    };
    let int32 = |c: Id| ix.int_type(c).is_some_and(|(w, _)| w == 32);
    match b {
        24..=28 => {
            let ok =
                matches!(ix.ty(t), Some(Type::Vector { component, count: 3 }) if int32(*component));
            (!ok).then_some("this BuiltIn must be a 3-component vector of 32-bit ints")
        }
        29 => (!int32(t)).then_some("LocalInvocationIndex must be a 32-bit int scalar"),
        _ => None,
    }
}
