//! Environment rules for `--target-env vulkan*` that concern the extensions (Vulkan-Docs
//! appendices/spirvenv.adoc and the VK_ARM_tensors chapters; reference/tensors.md §2d):
//!
//! - Kernel-only capabilities are not allowed: Kernel and what implies it, Addresses, Linkage,
//!   GenericPointer, the OpenCL image/pipe/enqueue ones, and the FPGA arbitrary-precision ones
//!   (ArbitraryPrecisionIntegers/FloatingPoint/FixedPoint).
//! - Tensors in shaders: an `OpTypeTensorARM` with a Shape, or without a Rank, must not be used
//!   (RuntimeSpirv-09902 / 09907); tensor variables live in UniformConstant; tensor objects are
//!   not `OpUndef` (12464) and are not stored (06924). Modules declaring GraphARM are exempt from
//!   the shape/rank rules (graphs use shaped tensors).
//! - UniformConstant, Uniform and StorageBuffer variables have DescriptorSet and Binding
//!   (VUID-StandaloneSpirv-UniformConstant-06677).

use crate::Options;
use crate::error::ValError;
use spvx_spirv::index::{ModuleIndex, Type};
use spvx_spirv::instruction::Id;
use spvx_spirv::op::Op;
use thiserror::Error;
const UNIFORM_CONSTANT: u32 = 0;

/// Capabilities a Vulkan module must not declare (by name, as the grammar spells them).
const KERNEL_ONLY: [&str; 17] = [
    "Addresses",
    "Linkage",
    "Kernel",
    "Vector16",
    "Float16Buffer",
    "ImageBasic",
    "ImageReadWrite",
    "ImageMipmap",
    "Pipes",
    "DeviceEnqueue",
    "LiteralSampler",
    "GenericPointer",
    "SubgroupDispatch",
    "NamedBarrier",
    "ArbitraryPrecisionIntegersALTERA",
    "ArbitraryPrecisionFloatingPointALTERA",
    "ArbitraryPrecisionFixedPointALTERA",
];

/// A broken Vulkan environment rule.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EnvError {
    #[error("capability {0} is not allowed in the Vulkan environment (Kernel-only capability)")]
    KernelCapability(String),
    #[error(
        "OpTypeTensorARM {0} has a Shape: shaped tensors must not be used in shader stages (VUID-RuntimeSpirv-OpTypeTensorARM-09902)"
    )]
    ShapedTensor(String),
    #[error(
        "OpTypeTensorARM {0} has no Rank: unranked tensors must not be used in shader stages (VUID-RuntimeSpirv-OpTypeTensorARM-09907)"
    )]
    UnrankedTensor(String),
    #[error("tensor variable {0} must be in the UniformConstant storage class")]
    TensorStorageClass(String),
    #[error(
        "OpUndef of tensor type {0} is not allowed (VUID-StandaloneSpirv-OpTypeTensorARM-12464)"
    )]
    TensorUndef(String),
    #[error("OpStore of a tensor object is not allowed (VUID-StandaloneSpirv-OpTypeImage-06924)")]
    TensorStore,
    #[error(
        "{storage_class} variable {variable} is missing the {decoration} decoration: these variables must have DescriptorSet and Binding decorations (VUID-StandaloneSpirv-UniformConstant-06677)"
    )]
    MissingDescriptor {
        storage_class: &'static str,
        variable: String,
        decoration: &'static str,
    },
}

const DESCRIPTOR_SET: u32 = 34;
const BINDING: u32 = 33;

/// True when `id` carries decoration `d`, directly or through a decoration group
/// (`OpGroupDecorate`), as spirv-val counts it.
fn decorated(ix: &ModuleIndex, id: Id, d: u32) -> bool {
    if ix.has_decoration(id, d) {
        return true;
    }
    ix.insts.iter().any(|g| {
        g.opcode == Op::GroupDecorate
            && g.operands.iter().skip(1).any(|o| o.id() == Some(id))
            && ModuleIndex::operand_id(g, 0).is_some_and(|group| ix.has_decoration(group, d))
    })
}

/// VUID-StandaloneSpirv-UniformConstant-06677: a UniformConstant, Uniform or StorageBuffer
/// variable has DescriptorSet and Binding (spirv-val 2025.5 CheckDecorationsOfVariables: every
/// such variable, used or not; DescriptorSet is reported first).
fn descriptor_error(ix: &ModuleIndex, storage_class: u32, variable: Id) -> Option<EnvError> {
    let storage_class = match storage_class {
        UNIFORM_CONSTANT => "UniformConstant",
        2 => "Uniform",
        12 => "StorageBuffer",
        _ => return None,
    };
    let missing = [(DESCRIPTOR_SET, "DescriptorSet"), (BINDING, "Binding")]
        .into_iter()
        .find(|&(d, _)| !decorated(ix, variable, d))?;
    Some(EnvError::MissingDescriptor {
        storage_class,
        variable: ix.name(variable),
        decoration: missing.1,
    })
}

/// True when `ty` is a tensor type or an (runtime) array of them.
fn holds_tensor(ix: &ModuleIndex, ty: Id) -> bool {
    match ix.ty(ty) {
        Some(Type::Tensor { .. }) => true,
        Some(Type::Array { element, .. }) | Some(Type::RuntimeArray { element }) => {
            matches!(ix.ty(*element), Some(Type::Tensor { .. }))
        }
        _ => false,
    }
}

/// Appends every error of this concern to `out`.
pub fn check(ix: &ModuleIndex, opts: &Options, out: &mut Vec<ValError>) {
    if !opts.target_env.is_vulkan() {
        return;
    }
    let caps = ix.grammar.kind(ix.grammar.common.capability);
    let graphs = ix.has_capability("GraphARM");
    for (index, inst) in ix.insts.iter().enumerate() {
        let err = match inst.opcode {
            Op::Capability => inst
                .operands
                .first()
                .and_then(|o| o.word())
                .and_then(|c| caps.enumerant(c))
                .filter(|e| KERNEL_ONLY.contains(&e.name))
                .map(|e| EnvError::KernelCapability(e.name.to_string())),
            Op::TypeTensorARM if !graphs => {
                let id = inst.result.unwrap_or(0);
                match ix.ty(id) {
                    Some(Type::Tensor { rank: None, .. }) => {
                        Some(EnvError::UnrankedTensor(ix.name(id)))
                    }
                    Some(Type::Tensor { shape: Some(_), .. }) => {
                        Some(EnvError::ShapedTensor(ix.name(id)))
                    }
                    _ => None,
                }
            }
            Op::Variable => {
                let ptr = inst.result_type.and_then(|t| ix.ty(t));
                match ptr {
                    Some(Type::Pointer {
                        storage_class,
                        pointee,
                    }) if *storage_class != UNIFORM_CONSTANT && holds_tensor(ix, *pointee) => Some(
                        EnvError::TensorStorageClass(ix.name(inst.result.unwrap_or(0))),
                    ),
                    Some(Type::Pointer { storage_class, .. }) => inst
                        .result
                        .and_then(|v| descriptor_error(ix, *storage_class, v)),
                    _ => None,
                }
            }
            Op::Undef => inst
                .result_type
                .filter(|t| holds_tensor(ix, *t))
                .map(|t| EnvError::TensorUndef(ix.name(t))),
            Op::Store => ModuleIndex::operand_id(inst, 1)
                .and_then(|v| ix.type_of(v))
                .filter(|t| holds_tensor(ix, *t))
                .map(|_| EnvError::TensorStore),
            _ => None,
        };
        if let Some(e) = err {
            out.push(ValError::at(index, e));
        }
    }
}
