//! What a module declares, read from its index (`spvx reflect`): entry points with their
//! execution model and local size, every resource binding, push-constant variables,
//! specialisation constants, capabilities, extensions and what the capabilities ask of a
//! Vulkan device; each buffer's and push-constant block's layout (size, runtime array,
//! members with offsets and strides: [`crate::layout`]). Nothing is derived here that the
//! index, the layout module or spvx-vk does not already know.

use crate::layout::{LayoutKind, TypeLayout, block_of};
use crate::module::LoadedModule;
use serde::Serialize;
use spvx_spirv::grammar::Grammar;
use spvx_spirv::index::{ModuleIndex, Type};
use spvx_spirv::instruction::{Id, OperandValue};
use spvx_spirv::op::Op;

/// The module's declarations.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Reflection {
    pub module: String,
    /// The SPIR-V version of the header, `major.minor`.
    pub version: String,
    pub entry_points: Vec<EntryPointInfo>,
    pub bindings: Vec<BindingInfo>,
    pub push_constants: Vec<VariableInfo>,
    pub spec_constants: Vec<SpecConstantInfo>,
    pub capabilities: Vec<String>,
    pub extensions: Vec<String>,
    /// What the capabilities ask of a Vulkan device (`None` when a capability has no Vulkan
    /// mapping, e.g. Kernel: then `vulkan_unavailable` says which).
    pub vulkan_features: Option<Vec<String>>,
    pub vulkan_unavailable: Option<String>,
}

/// One entry point.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EntryPointInfo {
    pub name: String,
    /// The ExecutionModel's name (`GLCompute`, `Kernel`, ...).
    pub model: String,
    /// The `LocalSize` execution mode, if the entry point has one.
    pub local_size: Option<[u32; 3]>,
}

/// One variable with a DescriptorSet and a Binding (in set, binding order).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BindingInfo {
    pub set: u32,
    pub binding: u32,
    /// The variable's storage class (`StorageBuffer`, `Uniform`, `UniformConstant`, ...).
    pub storage_class: String,
    /// The variable as the disassembler names it (`%A`), and its OpName if any (glslang's
    /// empty OpName of an anonymous block instance is none).
    pub variable: String,
    pub name: Option<String>,
    /// The pointee type as the disassembler names it.
    pub type_name: String,
    /// Descriptors in the binding: 1, N for an array of N, `None` for a runtime-sized array.
    pub count: Option<u64>,
    /// The one scalar type every leaf shares (`u32`, `f16`, ...), if there is one.
    pub element: Option<String>,
    /// The block's layout (of one element, for an array of buffers); `None` for bindings
    /// that are not blocks (images, tensors, ...).
    pub block: Option<BlockInfo>,
    /// False when no instruction of the module can write the binding's memory
    /// (`ModuleIndex::written_variables`: a proof; true does not claim a write).
    pub written: bool,
}

/// The layout of a block (a buffer's or the push constants'), as the module declares it
/// ([`crate::layout`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BlockInfo {
    /// The bytes the block takes when it has no runtime array (the end of its last-ending
    /// member); `None` with a runtime array or a missing decoration.
    pub size: Option<u64>,
    /// The runtime array that ends the block: a buffer of `offset + n · stride` bytes
    /// holds `n` elements.
    pub runtime_array: Option<RuntimeArrayInfo>,
    /// The block's members, in declaration order.
    pub members: Vec<MemberInfo>,
}

/// A runtime array at the end of a block.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RuntimeArrayInfo {
    pub offset: u64,
    pub stride: Option<u64>,
}

/// One member of a block.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MemberInfo {
    pub name: Option<String>,
    pub offset: Option<u64>,
    pub type_name: String,
    /// Its bytes (`None` for a runtime array).
    pub size: Option<u64>,
    /// ArrayStride for an array, MatrixStride for a matrix (or an array of them).
    pub stride: Option<u64>,
    /// RowMajor, for a matrix (or an array of them).
    pub row_major: bool,
}

impl BlockInfo {
    /// The block of a struct type's layout (`None` when `layout` is not a struct).
    pub fn of(layout: &TypeLayout) -> Option<BlockInfo> {
        let LayoutKind::Struct { members } = &layout.kind else {
            return None;
        };
        Some(BlockInfo {
            size: layout.size(),
            runtime_array: layout
                .runtime_tail()
                .map(|(_, offset, stride)| RuntimeArrayInfo { offset, stride }),
            members: members
                .iter()
                .map(|m| {
                    let (stride, row_major) = strides(&m.layout);
                    MemberInfo {
                        name: m.name.clone(),
                        offset: m.offset,
                        type_name: m.layout.type_name.clone(),
                        size: m.layout.size(),
                        stride,
                        row_major,
                    }
                })
                .collect(),
        })
    }

    /// The block as text lines, each indented by `indent`.
    fn to_text(&self, indent: &str) -> String {
        let mut out = String::new();
        let size = match (&self.runtime_array, self.size) {
            (Some(r), _) => format!(
                "{} bytes + a runtime array of {}-byte elements",
                r.offset,
                opt(r.stride)
            ),
            (None, Some(s)) => format!("{s} bytes"),
            (None, None) => "size unknown (a member lacks Offset or stride)".to_string(),
        };
        out.push_str(&format!("{indent}block: {size}\n"));
        for (i, m) in self.members.iter().enumerate() {
            let name = m.name.clone().unwrap_or_else(|| format!("m{i}"));
            let size = m
                .size
                .map_or_else(|| "runtime array".to_string(), |s| format!("{s} bytes"));
            let stride = m.stride.map_or_else(String::new, |s| {
                format!(
                    ", stride {s}{}",
                    if m.row_major { ", row-major" } else { "" }
                )
            });
            out.push_str(&format!(
                "{indent}  +{}  {name}  {}  {size}{stride}\n",
                opt(m.offset),
                m.type_name
            ));
        }
        out
    }
}

/// A number, or `?` when the module does not say.
fn opt(v: Option<u64>) -> String {
    v.map_or_else(|| "?".to_string(), |v| v.to_string())
}

/// The stride a member's type declares: ArrayStride of an array, MatrixStride of a matrix
/// (or of the matrices of an array); and whether the matrices are row-major.
fn strides(layout: &TypeLayout) -> (Option<u64>, bool) {
    match &layout.kind {
        LayoutKind::Array { stride, .. } => (*stride, false),
        LayoutKind::Matrix {
            stride, row_major, ..
        } => (*stride, *row_major),
        _ => (None, false),
    }
}

/// A module-scope variable (push constants).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VariableInfo {
    pub variable: String,
    pub name: Option<String>,
    pub type_name: String,
    /// The block's layout ([`BlockInfo`]).
    pub block: Option<BlockInfo>,
}

/// A specialisation constant with a SpecId.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SpecConstantInfo {
    pub spec_id: u32,
    pub constant: String,
    pub type_name: String,
    /// The default value: `true`/`false`, or the literal words as an unsigned integer (bits
    /// for floats, low word first joined), `None` for composite or OpSpecConstantOp ones.
    pub default: Option<String>,
}

impl Reflection {
    /// The declarations of a loaded module.
    pub fn of(module: &LoadedModule) -> Reflection {
        let ix = module.index();
        let g = ix.grammar;
        let enum_name = |kind: &str, value: u32| enumerant(g, kind, value);
        let entry_points = ix
            .entry_point_list()
            .into_iter()
            .map(|e| EntryPointInfo {
                name: e.name.to_string(),
                model: enum_name("ExecutionModel", e.model),
                local_size: ix.local_size(e.function),
            })
            .collect();
        let mut variables = ix.resource_variables();
        variables.sort_by_key(|v| (v.set, v.binding));
        let written = ix.written_variables();
        let bindings = variables
            .into_iter()
            .map(|v| BindingInfo {
                set: v.set,
                binding: v.binding,
                storage_class: enum_name("StorageClass", v.storage_class),
                variable: ix.name(v.variable),
                name: v.name.filter(|n| !n.is_empty()).map(str::to_string),
                type_name: v.pointee.map_or_else(String::new, |t| ix.name(t)),
                count: v.pointee.map_or(Some(1), |t| descriptor_count(ix, t)),
                element: v
                    .pointee
                    .and_then(|t| ix.uniform_scalar(t))
                    .and_then(spvx_vk::reflect::elem_of)
                    .map(|e| e.to_string()),
                block: v
                    .pointee
                    .and_then(|t| BlockInfo::of(&TypeLayout::of(ix, block_of(ix, t)))),
                written: written.contains(&v.variable),
            })
            .collect();
        let push_constants = ix
            .push_constant_variables()
            .into_iter()
            .map(|v| VariableInfo {
                variable: ix.name(v),
                name: ix
                    .debug_name(v)
                    .filter(|n| !n.is_empty())
                    .map(str::to_string),
                type_name: pointee(ix, v).map_or_else(String::new, |t| ix.name(t)),
                block: pointee(ix, v).and_then(|t| BlockInfo::of(&TypeLayout::of(ix, t))),
            })
            .collect();
        let spec_constants = ix
            .spec_constants()
            .into_iter()
            .map(|c| SpecConstantInfo {
                spec_id: c.spec_id,
                constant: c.inst.result.map_or_else(String::new, |r| ix.name(r)),
                type_name: c.inst.result_type.map_or_else(String::new, |t| ix.name(t)),
                default: match c.inst.opcode {
                    Op::SpecConstantTrue => Some("true".to_string()),
                    Op::SpecConstantFalse => Some("false".to_string()),
                    Op::SpecConstant => match c.inst.operands.first().map(|o| &o.value) {
                        Some(OperandValue::Number(ws)) => Some(words_value(ws)),
                        Some(OperandValue::Word(w)) => Some(w.to_string()),
                        _ => None,
                    },
                    _ => None,
                },
            })
            .collect();
        let caps: Vec<u32> = ix
            .insts
            .iter()
            .filter(|i| i.opcode == Op::Capability)
            .filter_map(|i| i.operands.first()?.word())
            .collect();
        let (vulkan_features, vulkan_unavailable) =
            match spvx_vk::features::required_features(&caps) {
                Ok(f) => (Some(f), None),
                Err(e) => (None, Some(e.to_string())),
            };
        Reflection {
            module: module.name.clone(),
            version: ix.header.version().to_string(),
            entry_points,
            bindings,
            push_constants,
            spec_constants,
            capabilities: caps
                .iter()
                .map(|&c| enumerant(g, "Capability", c))
                .collect(),
            extensions: ix
                .insts
                .iter()
                .filter(|i| i.opcode == Op::Extension)
                .filter_map(|i| i.operands.first()?.string())
                .map(str::to_string)
                .collect(),
            vulkan_features,
            vulkan_unavailable,
        }
    }

    /// The declarations as text, one section per kind.
    pub fn to_text(&self) -> String {
        let mut out = format!("module {} (SPIR-V {})\n", self.module, self.version);
        out.push_str("entry points:\n");
        for e in &self.entry_points {
            let size = e
                .local_size
                .map_or_else(String::new, |[x, y, z]| format!("  local size {x}x{y}x{z}"));
            out.push_str(&format!("  {} {}{size}\n", e.model, e.name));
        }
        out.push_str(if self.bindings.is_empty() {
            "bindings: none\n"
        } else {
            "bindings:\n"
        });
        for b in &self.bindings {
            let count = match b.count {
                Some(1) => String::new(),
                Some(n) => format!("  array of {n}"),
                None => "  runtime array".to_string(),
            };
            let element = b
                .element
                .as_ref()
                .map_or_else(String::new, |e| format!("  element {e}"));
            let name = b
                .name
                .as_ref()
                .map_or_else(String::new, |n| format!(" '{n}'"));
            let never = if b.written { "" } else { "  never written" };
            out.push_str(&format!(
                "  {}.{}  {} {}{name}  type {}{element}{count}{never}\n",
                b.set, b.binding, b.storage_class, b.variable, b.type_name
            ));
            if let Some(block) = &b.block {
                out.push_str(&block.to_text("      "));
            }
        }
        for p in &self.push_constants {
            out.push_str(&format!(
                "push constants: {} type {}\n",
                p.variable, p.type_name
            ));
            if let Some(block) = &p.block {
                out.push_str(&block.to_text("  "));
            }
        }
        if !self.spec_constants.is_empty() {
            out.push_str("spec constants:\n");
            for c in &self.spec_constants {
                let default = c
                    .default
                    .as_ref()
                    .map_or_else(String::new, |d| format!("  default {d}"));
                out.push_str(&format!(
                    "  SpecId {}  {} type {}{default}\n",
                    c.spec_id, c.constant, c.type_name
                ));
            }
        }
        let list = |l: &[String]| {
            if l.is_empty() {
                "none".to_string()
            } else {
                l.join(", ")
            }
        };
        out.push_str(&format!("capabilities: {}\n", list(&self.capabilities)));
        out.push_str(&format!("extensions: {}\n", list(&self.extensions)));
        match (&self.vulkan_features, &self.vulkan_unavailable) {
            (Some(f), _) if f.is_empty() => {
                out.push_str("vulkan features: none beyond Vulkan 1.0\n")
            }
            (Some(f), _) => out.push_str(&format!("vulkan features: {}\n", f.join(", "))),
            (None, Some(why)) => out.push_str(&format!("vulkan: not runnable ({why})\n")),
            (None, None) => {}
        }
        out
    }
}

/// The grammar's name of a value of enum kind `kind`, or the number.
fn enumerant(g: &Grammar, kind: &str, value: u32) -> String {
    g.kind_by_name(kind)
        .and_then(|k| g.enumerant_name(k, value))
        .map_or_else(|| value.to_string(), str::to_string)
}

/// The pointee type of a variable's pointer type.
fn pointee(ix: &ModuleIndex, variable: Id) -> Option<Id> {
    match ix.value_type(variable)? {
        Type::Pointer { pointee, .. } => Some(*pointee),
        _ => None,
    }
}

/// Descriptors in a binding of type `t`: 1, the length of an array, `None` for a runtime
/// array (or a length that is not a plain constant).
fn descriptor_count(ix: &ModuleIndex, t: Id) -> Option<u64> {
    match ix.ty(t)? {
        Type::RuntimeArray { .. } => None,
        Type::Array { length, .. } => ix.const_u64(*length),
        _ => Some(1),
    }
}

/// A literal of one or two words as an unsigned integer (low word first).
fn words_value(ws: &[u32]) -> String {
    match ws {
        [w] => w.to_string(),
        [lo, hi] => (u64::from(*lo) | (u64::from(*hi) << 32)).to_string(),
        _ => format!("{ws:?}"),
    }
}
