//! What a module asks of a Vulkan device, read from its instructions: the GLCompute entry
//! point, the descriptor bindings (storage buffers, uniform buffers, tensors), the
//! specialisation constants (SpecId and byte size) and the capabilities.
//!
//! Only what a Vulkan pipeline needs is read; validation is spvx-val's job.

use crate::error::{VkError, VkResult};
use spirv::{Capability, Decoration, ExecutionModel, Op, StorageClass};
use spvx_num::element::ElemType;
use spvx_spirv::binary::read_words;
use spvx_spirv::instruction::{Id, Instruction};
use spvx_spirv::module::Module;
use std::collections::{BTreeMap, HashMap, HashSet};

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
    /// The entry point's `LocalSize` execution mode, if it has one (LocalSizeId and the
    /// WorkgroupSize built-in are not read).
    pub local_size: Option<[u32; 3]>,
}

impl ModuleInfo {
    /// Reads `words` and reflects the entry point `entry` (None: the only GLCompute entry point).
    pub fn read(words: &[u32], entry: Option<&str>) -> VkResult<ModuleInfo> {
        let parsed = read_words(words).map_err(|e| VkError::Module(e.to_string()))?;
        let module = Module::from_instructions(parsed.header, parsed.instructions)
            .map_err(|e| VkError::Module(e.to_string()))?;
        let (entry, entry_fn) = choose_entry(&module, entry)?;
        let local_size = module
            .execution_modes
            .iter()
            .filter(|m| m.opcode == Op::ExecutionMode as u16)
            .filter(|m| m.operands.first().and_then(|o| o.id()) == Some(entry_fn))
            .filter(|m| word(m, 1) == Some(spirv::ExecutionMode::LocalSize as u32))
            .find_map(|m| Some([word(m, 2)?, word(m, 3)?, word(m, 4)?]));
        let decorations = Decorations::read(&module);
        let names = names(&module);
        let defs: HashMap<Id, &Instruction> = module
            .types_globals
            .iter()
            .filter_map(|i| i.result.map(|r| (r, i)))
            .collect();
        let mut bindings: BTreeMap<(u32, u32), DescriptorBinding> = BTreeMap::new();
        let mut has_push_constants = false;
        let mut spec_constants = Vec::new();
        for inst in &module.types_globals {
            let Some(id) = inst.result else { continue };
            if inst.opcode == Op::Variable as u16 {
                let class = word(inst, 0);
                if class == Some(StorageClass::PushConstant as u32) {
                    has_push_constants = true;
                }
                let (Some(set), Some(binding)) = (
                    decorations.value(id, Decoration::DescriptorSet),
                    decorations.value(id, Decoration::Binding),
                ) else {
                    continue;
                };
                let outer = inst
                    .result_type
                    .and_then(|t| defs.get(&t))
                    .and_then(|p| p.operands.get(1))
                    .and_then(|o| o.id());
                let count = outer.map_or(1, |t| descriptor_count(&defs, t));
                let pointee = outer.map(|t| strip_arrays(&defs, t));
                let kind = match (class, pointee) {
                    (Some(c), _) if c == StorageClass::StorageBuffer as u32 => {
                        DescriptorKind::StorageBuffer
                    }
                    (Some(c), Some(t)) if c == StorageClass::Uniform as u32 => {
                        if decorations.has(t, Decoration::BufferBlock) {
                            DescriptorKind::StorageBuffer
                        } else {
                            DescriptorKind::UniformBuffer
                        }
                    }
                    (Some(c), Some(t))
                        if c == StorageClass::UniformConstant as u32
                            && defs
                                .get(&t)
                                .is_some_and(|d| d.opcode == Op::TypeTensorARM as u16) =>
                    {
                        DescriptorKind::Tensor
                    }
                    _ => continue,
                };
                let element = pointee.and_then(|t| uniform_scalar(&defs, t));
                let tensor = match (kind, pointee) {
                    (DescriptorKind::Tensor, Some(t)) => tensor_type(&defs, t),
                    _ => None,
                };
                bindings.entry((set, binding)).or_insert(DescriptorBinding {
                    set,
                    binding,
                    kind,
                    name: names.get(&id).cloned(),
                    element,
                    tensor,
                    count,
                });
            } else if let Some(spec_id) = decorations.value(id, Decoration::SpecId) {
                let bytes = spec_bytes(inst, &defs).ok_or_else(|| VkError::Spec {
                    id: spec_id,
                    message: "not a scalar boolean, integer or float constant".into(),
                })?;
                let is_bool = inst.opcode == Op::SpecConstantTrue as u16
                    || inst.opcode == Op::SpecConstantFalse as u16;
                spec_constants.push(SpecConstant {
                    id: spec_id,
                    bytes,
                    is_bool,
                });
            }
        }
        Ok(ModuleInfo {
            entry,
            bindings: bindings.into_values().collect(),
            spec_constants,
            capabilities: module
                .capabilities
                .iter()
                .filter_map(|c| word(c, 0))
                .collect(),
            extensions: module
                .extensions
                .iter()
                .filter_map(|e| e.operands.first().and_then(|o| o.string()))
                .map(str::to_string)
                .collect(),
            has_push_constants,
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
fn choose_entry(module: &Module, wanted: Option<&str>) -> VkResult<(String, Id)> {
    let entries: Vec<(u32, &str, Id)> = module
        .entry_points
        .iter()
        .filter_map(|e| {
            Some((
                word(e, 0)?,
                e.operands.get(2)?.string()?,
                e.operands.get(1)?.id()?,
            ))
        })
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
fn descriptor_count(defs: &HashMap<Id, &Instruction>, t: Id) -> u32 {
    let is_array = |d: &Instruction| {
        d.opcode == Op::TypeArray as u16 || d.opcode == Op::TypeRuntimeArray as u16
    };
    let Some(d) = defs.get(&t) else { return 1 };
    if !is_array(d) {
        return 1;
    }
    if d.opcode == Op::TypeRuntimeArray as u16 {
        return 0;
    }
    let element = d.operands.first().and_then(|o| o.id());
    if element
        .and_then(|e| defs.get(&e))
        .is_some_and(|e| is_array(e))
    {
        return 0;
    }
    let length = d
        .operands
        .get(1)
        .and_then(|o| o.id())
        .and_then(|l| defs.get(&l))
        .filter(|c| c.opcode == Op::Constant as u16)
        .and_then(|c| match &c.operands.first()?.value {
            spvx_spirv::instruction::OperandValue::Number(w) => w.first().copied(),
            spvx_spirv::instruction::OperandValue::Word(w) => Some(*w),
            _ => None,
        });
    length.unwrap_or(0)
}

/// The type under any arrays (`OpTypeArray`, `OpTypeRuntimeArray`).
fn strip_arrays(defs: &HashMap<Id, &Instruction>, mut t: Id) -> Id {
    for _ in 0..16 {
        match defs.get(&t) {
            Some(d)
                if d.opcode == Op::TypeArray as u16 || d.opcode == Op::TypeRuntimeArray as u16 =>
            {
                match d.operands.first().and_then(|o| o.id()) {
                    Some(e) => t = e,
                    None => break,
                }
            }
            _ => break,
        }
    }
    t
}

/// Rank and format of an OpTypeTensorARM (element type, rank constant).
fn tensor_type(defs: &HashMap<Id, &Instruction>, t: Id) -> Option<TensorType> {
    use ash::vk::Format as F;
    let d = defs.get(&t)?;
    let elem = defs.get(&d.operands.first()?.id()?)?;
    let rank_const = defs.get(&d.operands.get(1)?.id()?)?;
    let rank = match &rank_const.operands.first()?.value {
        spvx_spirv::instruction::OperandValue::Number(w) => *w.first()?,
        spvx_spirv::instruction::OperandValue::Word(w) => *w,
        _ => return None,
    };
    let (format, bytes) = if elem.opcode == Op::TypeBool as u16 {
        (crate::tensor_ffi::FORMAT_R8_BOOL, 1)
    } else if elem.opcode == Op::TypeInt as u16 {
        let signed = word(elem, 1)? != 0;
        let f = match (word(elem, 0)?, signed) {
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
        (f.as_raw(), word(elem, 0)? / 8)
    } else if elem.opcode == Op::TypeFloat as u16 && elem.operands.len() == 1 {
        let f = match word(elem, 0)? {
            16 => F::R16_SFLOAT,
            32 => F::R32_SFLOAT,
            64 => F::R64_SFLOAT,
            _ => return None,
        };
        (f.as_raw(), word(elem, 0)? / 8)
    } else {
        return None;
    };
    Some(TensorType {
        rank,
        format,
        element_bytes: bytes,
    })
}

/// The one scalar type all leaves of type `t` share (struct members, array, vector, matrix
/// and tensor elements), if they do.
fn uniform_scalar(defs: &HashMap<Id, &Instruction>, t: Id) -> Option<ElemType> {
    let mut found: Option<ElemType> = None;
    let mut stack = vec![(t, 0u32)];
    while let Some((t, depth)) = stack.pop() {
        if depth > 32 {
            return None;
        }
        let d = defs.get(&t)?;
        let op = d.opcode;
        let leaf = if op == Op::TypeInt as u16 {
            let signed = word(d, 1)? != 0;
            Some(match (word(d, 0)?, signed) {
                (8, false) => ElemType::U8,
                (8, true) => ElemType::I8,
                (16, false) => ElemType::U16,
                (16, true) => ElemType::I16,
                (32, false) => ElemType::U32,
                (32, true) => ElemType::I32,
                (64, false) => ElemType::U64,
                (64, true) => ElemType::I64,
                _ => return None,
            })
        } else if op == Op::TypeFloat as u16 {
            Some(match (word(d, 0)?, word(d, 1)) {
                (16, None) => ElemType::F16,
                (16, Some(0)) => ElemType::Bf16,
                (32, None) => ElemType::F32,
                (64, None) => ElemType::F64,
                (8, Some(4214)) => ElemType::E4m3,
                (8, Some(4215)) => ElemType::E5m2,
                _ => return None,
            })
        } else if op == Op::TypeStruct as u16 {
            for o in &d.operands {
                stack.push((o.id()?, depth + 1));
            }
            None
        } else if op == Op::TypeArray as u16
            || op == Op::TypeRuntimeArray as u16
            || op == Op::TypeVector as u16
            || op == Op::TypeMatrix as u16
            || op == Op::TypeTensorARM as u16
        {
            stack.push((d.operands.first()?.id()?, depth + 1));
            None
        } else {
            return None;
        };
        if let Some(e) = leaf {
            match found {
                Some(f) if f != e => return None,
                _ => found = Some(e),
            }
        }
    }
    found
}

/// The byte size of a specialisation constant's map entry.
fn spec_bytes(inst: &Instruction, defs: &HashMap<Id, &Instruction>) -> Option<u32> {
    let op = inst.opcode;
    if op == Op::SpecConstantTrue as u16 || op == Op::SpecConstantFalse as u16 {
        return Some(4);
    }
    if op != Op::SpecConstant as u16 {
        return None;
    }
    let ty = defs.get(&inst.result_type?)?;
    if ty.opcode == Op::TypeInt as u16 || ty.opcode == Op::TypeFloat as u16 {
        let width = word(ty, 0)?;
        Some(width.div_ceil(8))
    } else {
        None
    }
}

/// The word of operand `i`.
fn word(inst: &Instruction, i: usize) -> Option<u32> {
    inst.operands.get(i).and_then(|o| o.word())
}

/// OpName of each id.
fn names(module: &Module) -> HashMap<Id, String> {
    module
        .debug
        .iter()
        .filter(|i| i.opcode == Op::Name as u16)
        .filter_map(|i| {
            Some((
                i.operands.first()?.id()?,
                i.operands.get(1)?.string()?.to_string(),
            ))
        })
        .collect()
}

/// The OpDecorate decorations of ids (first literal only).
struct Decorations {
    values: HashMap<(Id, u32), Option<u32>>,
    flags: HashSet<(Id, u32)>,
}

impl Decorations {
    fn read(module: &Module) -> Decorations {
        let mut values = HashMap::new();
        let mut flags = HashSet::new();
        for i in &module.annotations {
            if i.opcode != Op::Decorate as u16 {
                continue;
            }
            let (Some(target), Some(deco)) = (
                i.operands.first().and_then(|o| o.id()),
                i.operands.get(1).and_then(|o| o.word()),
            ) else {
                continue;
            };
            flags.insert((target, deco));
            values.insert((target, deco), word(i, 2));
        }
        Decorations { values, flags }
    }

    fn value(&self, id: Id, d: Decoration) -> Option<u32> {
        self.values.get(&(id, d as u32)).copied().flatten()
    }

    fn has(&self, id: Id, d: Decoration) -> bool {
        self.flags.contains(&(id, d as u32))
    }
}
