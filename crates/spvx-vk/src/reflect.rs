//! What a module asks of a Vulkan device, read from its instructions: the GLCompute entry
//! point, the descriptor bindings (storage buffers, uniform buffers, tensors), the
//! specialisation constants (SpecId and byte size) and the capabilities.
//!
//! Only what a Vulkan pipeline needs is read; validation is spvx-val's job.

use crate::error::{VkError, VkResult};
use spirv::{Capability, Decoration, ExecutionModel, StorageClass};
use spvx_num::element::ElemType;
use spvx_spirv::binary::read_words;
use spvx_spirv::index::{ModuleIndex, Type};
use spvx_spirv::instruction::{Id, Instruction, OperandValue};
use spvx_spirv::module::Module;
use spvx_spirv::op::Op;
use std::collections::BTreeMap;

/// The kind of a descriptor binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DescriptorKind {
    /// `StorageBuffer` storage class, or `Uniform` with a `BufferBlock` struct.
    StorageBuffer,
    /// `Uniform` storage class with a `Block` struct.
    UniformBuffer,
    /// A `UniformConstant` variable of `OpTypeTensorARM` (SPV_ARM_tensors).
    Tensor,
}

/// One descriptor binding of the module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DescriptorBinding {
    pub set: u32,
    pub binding: u32,
    pub kind: DescriptorKind,
    /// The variable's OpName, if any.
    pub name: Option<String>,
    /// The scalar type of every leaf of the block (or tensor element), when they all agree:
    /// how its bytes are best compared and printed.
    pub element: Option<ElemType>,
    /// For a tensor: its rank and the Vulkan format of its elements.
    pub tensor: Option<TensorType>,
    /// Descriptors in the binding: 1 for a plain binding, N for an array of N buffers
    /// (`OpTypeArray` of a block), 0 for a descriptor array spvx-vk cannot bind (runtime-sized,
    /// an array of arrays, or a length that is not an OpConstant).
    pub count: u32,
}

/// A tensor binding's type as VK_ARM_tensors needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TensorType {
    pub rank: u32,
    /// The raw VkFormat: R8/R16/R32/R64 SINT or UINT by the integer type's signedness,
    /// R16/R32/R64 SFLOAT, or R8_BOOL_ARM for booleans.
    pub format: i32,
    pub element_bytes: u32,
}

/// One specialisation constant: its SpecId and the bytes Vulkan's map entry must give
/// (booleans are a 4-byte VkBool32; integers and floats their width).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpecConstant {
    pub id: u32,
    pub bytes: u32,
    /// A boolean (OpSpecConstantTrue/False): its value is a VkBool32, 0 or 1.
    pub is_bool: bool,
}

/// What the pipeline needs to know about a module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModuleInfo {
    /// The GLCompute entry point's name.
    pub entry: String,
    /// Every descriptor binding declared in the module, by (set, binding).
    pub bindings: Vec<DescriptorBinding>,
    /// Specialisation constants with a SpecId.
    pub spec_constants: Vec<SpecConstant>,
    /// The module's capabilities (numbers; [`Capability`] when known).
    pub capabilities: Vec<u32>,
    /// The module's extensions.
    pub extensions: Vec<String>,
    /// True when the module declares a push-constant variable.
    pub has_push_constants: bool,
    /// The entry point's local size ([`ModuleIndex::local_size`]: LocalSize, or LocalSizeId
    /// of plain constants; the WorkgroupSize built-in is not read).
    pub local_size: Option<[u32; 3]>,
}

impl ModuleInfo {
    /// Reads `words` and reflects the entry point `entry` (None: the only GLCompute entry point).
    pub fn read(words: &[u32], entry: Option<&str>) -> VkResult<ModuleInfo> {
        let parsed = read_words(words).map_err(|e| VkError::Module(e.to_string()))?;
        Module::from_instructions(parsed.header, parsed.instructions.clone())
            .map_err(|e| VkError::Module(e.to_string()))?;
        Self::reflect(
            &ModuleIndex::build(&parsed.header, parsed.instructions),
            entry,
        )
    }

    /// Reflects the entry point `entry` (None: the only GLCompute entry point) of an indexed
    /// module.
    pub fn reflect(ix: &ModuleIndex, entry: Option<&str>) -> VkResult<ModuleInfo> {
        let (entry, entry_fn) = choose_entry(ix, entry)?;
        let local_size = ix.local_size(entry_fn);
        let mut bindings: BTreeMap<(u32, u32), DescriptorBinding> = BTreeMap::new();
        for v in ix.resource_variables() {
            let outer = v.pointee;
            let count = outer.map_or(1, |t| descriptor_count(ix, t));
            let pointee = outer.map(|t| strip_arrays(ix, t));
            let class = v.storage_class;
            let kind = match pointee {
                _ if class == StorageClass::StorageBuffer as u32 => DescriptorKind::StorageBuffer,
                Some(t) if class == StorageClass::Uniform as u32 => {
                    if ix.has_decoration(t, Decoration::BufferBlock as u32) {
                        DescriptorKind::StorageBuffer
                    } else {
                        DescriptorKind::UniformBuffer
                    }
                }
                Some(t)
                    if class == StorageClass::UniformConstant as u32
                        && matches!(ix.ty(t), Some(Type::Tensor { .. })) =>
                {
                    DescriptorKind::Tensor
                }
                _ => continue,
            };
            let element = pointee.and_then(|t| uniform_scalar(ix, t));
            let tensor = match (kind, pointee) {
                (DescriptorKind::Tensor, Some(t)) => tensor_type(ix, t),
                _ => None,
            };
            bindings
                .entry((v.set, v.binding))
                .or_insert(DescriptorBinding {
                    set: v.set,
                    binding: v.binding,
                    kind,
                    name: v.name.map(str::to_string),
                    element,
                    tensor,
                    count,
                });
        }
        let mut spec_constants = Vec::new();
        for c in ix.spec_constants() {
            let bytes = spec_bytes(ix, c.inst).ok_or_else(|| VkError::Spec {
                id: c.spec_id,
                message: "not a scalar boolean, integer or float constant".into(),
            })?;
            spec_constants.push(SpecConstant {
                id: c.spec_id,
                bytes,
                is_bool: matches!(c.inst.opcode, Op::SpecConstantTrue | Op::SpecConstantFalse),
            });
        }
        Ok(ModuleInfo {
            entry,
            bindings: bindings.into_values().collect(),
            spec_constants,
            capabilities: ix
                .insts
                .iter()
                .filter(|i| i.opcode == Op::Capability)
                .filter_map(|c| word(c, 0))
                .collect(),
            extensions: ix
                .insts
                .iter()
                .filter(|i| i.opcode == Op::Extension)
                .filter_map(|e| e.operands.first().and_then(|o| o.string()))
                .map(str::to_string)
                .collect(),
            has_push_constants: !ix.push_constant_variables().is_empty(),
            local_size,
        })
    }

    /// The binding at (set, binding), if declared.
    pub fn binding(&self, set: u32, binding: u32) -> Option<&DescriptorBinding> {
        self.bindings
            .iter()
            .find(|b| b.set == set && b.binding == binding)
    }

    /// True when the module declares this capability.
    pub fn has_capability(&self, cap: Capability) -> bool {
        self.capabilities.contains(&(cap as u32))
    }
}

/// The entry point's name and function id: the named one, or the only GLCompute one.
fn choose_entry(ix: &ModuleIndex, wanted: Option<&str>) -> VkResult<(String, Id)> {
    let entries: Vec<(u32, &str, Id)> = ix
        .entry_point_list()
        .into_iter()
        .map(|e| (e.model, e.name, e.function))
        .collect();
    let glcompute = ExecutionModel::GLCompute as u32;
    match wanted {
        Some(name) => match entries.iter().find(|(_, n, _)| *n == name) {
            Some((model, _, f)) if *model == glcompute => Ok((name.to_string(), *f)),
            Some(_) => Err(VkError::Entry(
                name.into(),
                "not a GLCompute entry point; spvx-vk runs compute shaders only".into(),
            )),
            None => Err(VkError::Entry(
                name.into(),
                format!(
                    "not in the module (it has: {})",
                    entries.iter().map(|e| e.1).collect::<Vec<_>>().join(", ")
                ),
            )),
        },
        None => {
            let compute: Vec<(&str, Id)> = entries
                .iter()
                .filter(|e| e.0 == glcompute)
                .map(|e| (e.1, e.2))
                .collect();
            match compute.as_slice() {
                [(one, f)] => Ok((one.to_string(), *f)),
                [] => Err(VkError::Entry(
                    String::new(),
                    "the module has no GLCompute entry point".into(),
                )),
                many => Err(VkError::Entry(
                    String::new(),
                    format!(
                        "several GLCompute entry points: {}",
                        many.iter().map(|e| e.0).collect::<Vec<_>>().join(", ")
                    ),
                )),
            }
        }
    }
}

/// The number of descriptors a variable of type `t` takes: 1 unless `t` is an array; the
/// length of an `OpTypeArray` of a non-array type with an `OpConstant` length; else 0.
fn descriptor_count(ix: &ModuleIndex, t: Id) -> u32 {
    let is_array = |t: Id| {
        matches!(
            ix.ty(t),
            Some(Type::Array { .. } | Type::RuntimeArray { .. })
        )
    };
    match ix.ty(t) {
        Some(Type::RuntimeArray { .. }) => 0,
        Some(Type::Array { element, length }) => {
            if is_array(*element) {
                return 0;
            }
            ix.def_inst(*length)
                .filter(|c| c.opcode == Op::Constant)
                .and_then(|c| match &c.operands.first()?.value {
                    OperandValue::Number(w) => w.first().copied(),
                    OperandValue::Word(w) => Some(*w),
                    _ => None,
                })
                .unwrap_or(0)
        }
        _ => 1,
    }
}

/// The type under any arrays (`OpTypeArray`, `OpTypeRuntimeArray`).
fn strip_arrays(ix: &ModuleIndex, mut t: Id) -> Id {
    for _ in 0..16 {
        match ix.ty(t) {
            Some(Type::Array { element, .. } | Type::RuntimeArray { element }) => t = *element,
            _ => break,
        }
    }
    t
}

/// Rank and format of an OpTypeTensorARM (element type, rank constant).
fn tensor_type(ix: &ModuleIndex, t: Id) -> Option<TensorType> {
    use ash::vk::Format as F;
    let Some(Type::Tensor { element, rank, .. }) = ix.ty(t) else {
        return None;
    };
    let rank_const = ix.def_inst((*rank)?)?;
    let rank = match &rank_const.operands.first()?.value {
        OperandValue::Number(w) => *w.first()?,
        OperandValue::Word(w) => *w,
        _ => return None,
    };
    let (format, bytes) = match ix.ty(*element)? {
        Type::Bool => (crate::tensor_ffi::FORMAT_R8_BOOL, 1),
        Type::Int { width, signed } => {
            let f = match (width, signed) {
                (8, false) => F::R8_UINT,
                (8, true) => F::R8_SINT,
                (16, false) => F::R16_UINT,
                (16, true) => F::R16_SINT,
                (32, false) => F::R32_UINT,
                (32, true) => F::R32_SINT,
                (64, false) => F::R64_UINT,
                (64, true) => F::R64_SINT,
                _ => return None,
            };
            (f.as_raw(), width / 8)
        }
        Type::Float {
            width,
            encoding: None,
        } => {
            let f = match width {
                16 => F::R16_SFLOAT,
                32 => F::R32_SFLOAT,
                64 => F::R64_SFLOAT,
                _ => return None,
            };
            (f.as_raw(), width / 8)
        }
        _ => return None,
    };
    Some(TensorType {
        rank,
        format,
        element_bytes: bytes,
    })
}

/// The element type of a binding of type `t`: the one scalar type all its leaves share
/// ([`ModuleIndex::uniform_scalar`]), as an [`ElemType`].
fn uniform_scalar(ix: &ModuleIndex, t: Id) -> Option<ElemType> {
    elem_of(ix.uniform_scalar(t)?)
}

/// The [`ElemType`] of a scalar type of the index (`Int` or `Float`), if spvx has one.
pub fn elem_of(ty: &Type) -> Option<ElemType> {
    Some(match *ty {
        Type::Int { width, signed } => match (width, signed) {
            (8, false) => ElemType::U8,
            (8, true) => ElemType::I8,
            (16, false) => ElemType::U16,
            (16, true) => ElemType::I16,
            (32, false) => ElemType::U32,
            (32, true) => ElemType::I32,
            (64, false) => ElemType::U64,
            (64, true) => ElemType::I64,
            _ => return None,
        },
        Type::Float { width, encoding } => match (width, encoding) {
            (16, None) => ElemType::F16,
            // FPEncoding BFloat16KHR 0, Float8E4M3EXT 4214, Float8E5M2EXT 4215.
            (16, Some(0)) => ElemType::Bf16,
            (32, None) => ElemType::F32,
            (64, None) => ElemType::F64,
            (8, Some(4214)) => ElemType::E4m3,
            (8, Some(4215)) => ElemType::E5m2,
            _ => return None,
        },
        _ => return None,
    })
}

/// The byte size of a specialisation constant's map entry.
fn spec_bytes(ix: &ModuleIndex, inst: &Instruction) -> Option<u32> {
    match inst.opcode {
        Op::SpecConstantTrue | Op::SpecConstantFalse => Some(4),
        Op::SpecConstant => match ix.ty(inst.result_type?)? {
            Type::Int { width, .. } | Type::Float { width, .. } => Some(width.div_ceil(8)),
            _ => None,
        },
        _ => None,
    }
}

/// The word of operand `i`.
fn word(inst: &Instruction, i: usize) -> Option<u32> {
    inst.operands.get(i).and_then(|o| o.word())
}
