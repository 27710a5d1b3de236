//! Explicit layout of blocks: the Offset/ArrayStride/MatrixStride/majorness decorations a Block
//! or BufferBlock must carry (every environment), and, in the Vulkan environment, the layout
//! rules of the Vulkan specification ("Offset and Stride Assignment": scalar, base and
//! extended alignment, improper straddling, overlaps, padding of uniform blocks) under
//! spirv-val's switches (`--relax-block-layout`, `--uniform-buffer-standard-layout`,
//! `--scalar-block-layout`, `--workgroup-scalar-block-layout`, `--skip-block-layout`).
//!
//! Which blocks are checked, and with which rules, follows spirv-val 2025.5 (the oracle the
//! tests compare with): variables in Uniform (Block or BufferBlock), StorageBuffer,
//! PushConstant and, with WorkgroupMemoryExplicitLayoutKHR, Workgroup (Block), through one level
//! of descriptor array.

mod check;
pub(crate) mod members;
mod sizes;

use crate::Options;
use crate::env::EnvKind;
use crate::error::ValError;
use members::{ARRAY_STRIDE, members};
use sizes::Mode;
use spvx_spirv::index::{ModuleIndex, Type};
use spvx_spirv::instruction::Id;
use spvx_spirv::op::Op;
use thiserror::Error;

use crate::rules::decorations::dec::{BLOCK, BUFFER_BLOCK};

const SC_UNIFORM: u32 = 2;
const SC_WORKGROUP: u32 = 4;
const SC_PUSH_CONSTANT: u32 = 9;
const SC_STORAGE_BUFFER: u32 = 12;

/// A broken block-layout rule.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BlockLayoutError {
    /// A member of a block (or of a struct inside it) has no Offset.
    #[error(
        "Structure {ty} decorated as {decoration} must be explicitly laid out with {what} decorations"
    )]
    Missing {
        ty: String,
        decoration: &'static str,
        what: &'static str,
    },
    /// VUID-StandaloneSpirv-OpTypeRuntimeArray-04680.
    #[error(
        "In Vulkan, a struct containing an OpTypeRuntimeArray ({ty}) can only be the type of a variable in the StorageBuffer, PhysicalStorageBuffer or Uniform storage class, not {storage_class} (VUID-StandaloneSpirv-OpTypeRuntimeArray-04680)"
    )]
    RuntimeArrayPlace { ty: String, storage_class: String },
    /// A Vulkan layout rule.
    #[error(
        "Structure {ty} decorated as {decoration} for variable in {storage_class} storage class must follow {rules} layout rules: member {member} {detail}{hint}"
    )]
    Rule {
        ty: String,
        decoration: &'static str,
        storage_class: &'static str,
        rules: String,
        member: u32,
        detail: String,
        hint: String,
    },
}

/// The rules one variable's block is checked with.
pub(super) struct Context<'a> {
    ix: &'a ModuleIndex,
    decoration: &'static str,
    storage_class: &'static str,
    mode: Mode,
    relaxed: bool,
    /// Uniform-buffer rules ("uniform buffer" in messages) rather than storage-buffer rules.
    uniform_rules: bool,
    workgroup: bool,
}

impl Context<'_> {
    fn rules_name(&self) -> String {
        let kind = if self.mode == Mode::Scalar {
            "scalar"
        } else if self.relaxed {
            "relaxed"
        } else {
            "standard"
        };
        let what = if self.uniform_rules {
            "uniform buffer"
        } else {
            "storage buffer"
        };
        format!("{kind} {what}")
    }

    /// Which switch would have allowed the layout, as spirv-val suggests.
    fn hint(&self) -> String {
        if self.mode == Mode::Scalar {
            return String::new();
        }
        let (feature, flag) = if self.workgroup {
            (
                "the workgroupMemoryExplicitLayoutScalarBlockLayout feature",
                "--workgroup-scalar-block-layout",
            )
        } else if !self.relaxed {
            (
                "the VK_KHR_relaxed_block_layout extension",
                "--relax-block-layout",
            )
        } else if self.mode == Mode::Extended {
            (
                "the uniformBufferStandardLayout feature",
                "--uniform-buffer-standard-layout",
            )
        } else {
            ("the scalarBlockLayout feature", "--scalar-block-layout")
        };
        format!(" (this may be allowed with {feature}: {flag})")
    }

    pub(super) fn fail(&self, s: Id, member: u32, detail: String) -> Box<BlockLayoutError> {
        Box::new(BlockLayoutError::Rule {
            ty: self.ix.name(s),
            decoration: self.decoration,
            storage_class: self.storage_class,
            rules: self.rules_name(),
            member,
            detail,
            hint: self.hint(),
        })
    }
}

/// Appends every block-layout error to `out`, one per variable at most.
pub fn check(ix: &ModuleIndex, opts: &Options, out: &mut Vec<ValError>) {
    let vulkan = opts.target_env.kind == EnvKind::Vulkan;
    let explicit_workgroup = ix.has_capability("WorkgroupMemoryExplicitLayoutKHR");
    let mut checked: Vec<(Id, u32)> = Vec::new();
    for (index, inst) in ix.insts.iter().enumerate() {
        if inst.opcode != Op::Variable {
            continue;
        }
        let Some(Type::Pointer {
            storage_class,
            pointee,
        }) = inst.result_type.and_then(|t| ix.ty(t))
        else {
            continue;
        };
        let (sc, mut block) = (*storage_class, *pointee);
        if vulkan && let Some(e) = runtime_array_place(ix, sc, block) {
            out.push(ValError::at(index, e));
            continue;
        }
        let storage_class = match sc {
            SC_UNIFORM => "Uniform",
            SC_STORAGE_BUFFER => "StorageBuffer",
            SC_PUSH_CONSTANT => "PushConstant",
            SC_WORKGROUP if explicit_workgroup => "Workgroup",
            _ => continue,
        };
        let workgroup = sc == SC_WORKGROUP;
        if !workgroup
            && let Some(Type::Array { element, .. } | Type::RuntimeArray { element }) = ix.ty(block)
        {
            block = *element;
        }
        if !matches!(ix.ty(block), Some(Type::Struct { .. })) || checked.contains(&(block, sc)) {
            continue;
        }
        checked.push((block, sc));
        let is_block = ix.has_decoration(block, BLOCK);
        let is_buffer_block = ix.has_decoration(block, BUFFER_BLOCK);
        let (decoration, uniform_rules) = match (sc, is_block, is_buffer_block) {
            (SC_UNIFORM, true, _) => ("Block", true),
            (SC_UNIFORM, false, true) => ("BufferBlock", false),
            (_, true, _) => ("Block", false),
            _ => continue,
        };
        if let Some(e) = missing_decorations(ix, block, decoration) {
            out.push(ValError::at(index, e));
            continue;
        }
        let flags = &opts.layout;
        if !vulkan || flags.skip_block_layout {
            continue;
        }
        let scalar = if workgroup {
            flags.workgroup_scalar_block_layout
        } else {
            flags.scalar_block_layout
        };
        let mode = if scalar {
            Mode::Scalar
        } else if uniform_rules && !flags.uniform_buffer_standard_layout {
            Mode::Extended
        } else {
            Mode::Standard
        };
        let relaxed = opts.target_env.name != "vulkan1.0"
            || flags.relax_block_layout
            || flags.scalar_block_layout;
        let cx = Context {
            ix,
            decoration,
            storage_class,
            mode,
            relaxed,
            uniform_rules,
            workgroup,
        };
        if let Err(e) = check::check_struct(&cx, block, 0) {
            out.push(ValError::at(index, *e));
        }
    }
}

/// Vulkan: a variable of a struct type with a runtime-array member (through one level of
/// array) lives in StorageBuffer, PhysicalStorageBuffer or Uniform.
fn runtime_array_place(ix: &ModuleIndex, sc: u32, pointee: Id) -> Option<BlockLayoutError> {
    const SC_PHYSICAL_STORAGE_BUFFER: u32 = 5349;
    let mut t = pointee;
    if let Some(Type::Array { element, .. } | Type::RuntimeArray { element }) = ix.ty(t) {
        t = *element;
    }
    let Some(Type::Struct { members }) = ix.ty(t) else {
        return None;
    };
    let has_runtime_array = members
        .iter()
        .any(|&m| matches!(ix.ty(m), Some(Type::RuntimeArray { .. })));
    if !has_runtime_array
        || matches!(
            sc,
            SC_STORAGE_BUFFER | SC_UNIFORM | SC_PHYSICAL_STORAGE_BUFFER
        )
    {
        return None;
    }
    let g = ix.grammar;
    let storage_class = g
        .kind_by_name("StorageClass")
        .and_then(|k| g.enumerant_name(k, sc))
        .map_or_else(|| format!("storage class {sc}"), str::to_string);
    Some(BlockLayoutError::RuntimeArrayPlace {
        ty: ix.name(t),
        storage_class,
    })
}

/// The first missing Offset (members, recursively through member structs), ArrayStride (array
/// members), MatrixStride or RowMajor/ColMajor (matrix members) of `s`.
fn missing_decorations(
    ix: &ModuleIndex,
    s: Id,
    decoration: &'static str,
) -> Option<BlockLayoutError> {
    let missing = |what| BlockLayoutError::Missing {
        ty: ix.name(s),
        decoration,
        what,
    };
    let ms = members(ix, s);
    if ms.iter().any(|m| m.offset.is_none())
        || nested(ix, s, &|ix, t| {
            members(ix, t).iter().any(|m| m.offset.is_none())
        })
    {
        return Some(missing("Offset"));
    }
    let arrays_without_stride = |ix: &ModuleIndex, t: Id| {
        members(ix, t).iter().any(|m| {
            matches!(ix.ty(m.ty), Some(Type::Array { .. }))
                && !ix.has_decoration(m.ty, ARRAY_STRIDE)
        })
    };
    if arrays_without_stride(ix, s) || nested(ix, s, &arrays_without_stride) {
        return Some(missing("ArrayStride"));
    }
    let matrices = |ix: &ModuleIndex, t: Id, f: fn(&members::Member) -> bool| {
        members(ix, t)
            .iter()
            .any(|m| matches!(ix.ty(m.ty), Some(Type::Matrix { .. })) && !f(m))
    };
    let no_stride = |ix: &ModuleIndex, t: Id| matrices(ix, t, |m| m.has_matrix_stride);
    if no_stride(ix, s) || nested(ix, s, &no_stride) {
        return Some(missing("MatrixStride"));
    }
    let no_major = |ix: &ModuleIndex, t: Id| matrices(ix, t, |m| m.has_majorness);
    if no_major(ix, s) || nested(ix, s, &no_major) {
        return Some(missing("RowMajor or ColMajor"));
    }
    None
}

/// True when `pred` holds for a struct member of `s` that is itself a struct, at any depth
/// (through struct members only, as spirv-val looks).
fn nested(ix: &ModuleIndex, s: Id, pred: &dyn Fn(&ModuleIndex, Id) -> bool) -> bool {
    nested_depth(ix, s, pred, 0)
}

fn nested_depth(
    ix: &ModuleIndex,
    s: Id,
    pred: &dyn Fn(&ModuleIndex, Id) -> bool,
    depth: u32,
) -> bool {
    if depth > 64 {
        return false;
    }
    members(ix, s).iter().any(|m| {
        matches!(ix.ty(m.ty), Some(Type::Struct { .. }))
            && (pred(ix, m.ty) || nested_depth(ix, m.ty, pred, depth + 1))
    })
}
