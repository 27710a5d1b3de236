//! Rules of SPV_ARM_tensors (shared/seeds/001): `OpTypeTensorARM` and tensor constants here,
//! `OpTensorReadARM` / `OpTensorWriteARM` / `OpTensorQuerySizeARM` in [`access`].
//!
//! It checks what SPIRV-Tools checks (reference/tensors.md §1a–§1e) and, stricter, two rules of
//! the extension text SPIRV-Tools leaves out (§1g): the OutOfBoundsValueARM operand must be a
//! constant instruction of exactly the Element Type, and the memory-model tensor operands need
//! the VulkanMemoryModel capability. The Vulkan rules are in `rules::env`.

mod access;
mod constants;

use crate::Options;
use crate::error::ValError;
use spvx_spirv::index::{ModuleIndex, Type};
use spvx_spirv::instruction::{Id, Instruction, OperandValue};
use spvx_spirv::op::Op;
use thiserror::Error;

/// A broken rule of SPV_ARM_tensors.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TensorError {
    #[error("OpTypeTensorARM: Element Type {0} is not a scalar type")]
    ElementNotScalar(String),
    #[error("OpTypeTensorARM: Rank {0} must come from a constant instruction")]
    RankNotConstant(String),
    #[error("OpTypeTensorARM: Rank {0} must be of scalar integer type")]
    RankNotInt(String),
    #[error("OpTypeTensorARM: Rank {0} must be greater than 0")]
    RankZero(String),
    #[error("OpTypeTensorARM: Shape {0} must be a constant instruction")]
    ShapeNotConstant(String),
    #[error(
        "OpTypeTensorARM: Shape {shape} must be an OpTypeArray of integer whose Length is equal to Rank ({rank})"
    )]
    ShapeType { shape: String, rank: String },
    #[error("OpTypeTensorARM: Shape {shape} entry {index} must be greater than 0")]
    ShapeEntryZero { shape: String, index: usize },
    #[error(
        "{op}: Tensor {tensor} must be a Ranked Tensor (an OpTypeTensorARM whose Rank is present)"
    )]
    NotRankedTensor { op: String, tensor: String },
    #[error("OpTensorReadARM: Result Type {0} must be a scalar type or array of scalar type")]
    ReadResultType(String),
    #[error(
        "OpTensorWriteARM: Object {0} must be an object of scalar type or array of scalar type"
    )]
    WriteObjectType(String),
    #[error("{op}: the scalar type {got} must be the same as the Element Type {element} of Tensor")]
    ElementMismatch {
        op: String,
        got: String,
        element: String,
    },
    #[error("{op}: Coordinates {coords} must be an array of integer type")]
    CoordinatesType { op: String, coords: String },
    #[error("{op}: Coordinates length {length} must be equal to the Rank {rank} of Tensor")]
    CoordinatesLength { op: String, length: u64, rank: u64 },
    #[error("{op}: Tensor Operand {operand} is not valid here ({why})")]
    OperandNotAllowed {
        op: String,
        operand: &'static str,
        why: &'static str,
    },
    #[error("{op}: Tensor Operand {operand} needs its following operand")]
    MissingOperand { op: String, operand: &'static str },
    #[error(
        "OpTensorReadARM: OutOfBoundsValueARM {value} must be a constant instruction of the same type as the Element Type {element}"
    )]
    OutOfBoundsValue { value: String, element: String },
    #[error("{op}: Tensor Operand {operand} requires NonPrivateElementARM to also be set")]
    NeedsNonPrivate { op: String, operand: &'static str },
    #[error("{op}: Tensor Operand {operand} requires the VulkanMemoryModel capability")]
    NeedsVulkanMemoryModel { op: String, operand: &'static str },
    #[error("OpTensorQuerySizeARM: Result Type {0} must be an integer type scalar")]
    QueryResultType(String),
    #[error(
        "OpTensorQuerySizeARM: Dimension {0} must be a constant instruction of scalar integer type"
    )]
    DimensionNotConstantInt(String),
    #[error(
        "OpTensorQuerySizeARM: Dimension ({dim}) must be less than the Rank of Tensor ({rank})"
    )]
    DimensionTooLarge { dim: u64, rank: u64 },
    #[error(
        "{op}: Result Type {ty} is not a composite type (a tensor type without Shape is opaque)"
    )]
    NotComposite { op: String, ty: String },
    #[error("{op}: tensor {ty} with Shape entry {expected} has {got} constituents")]
    ConstituentCount {
        op: String,
        ty: String,
        expected: u64,
        got: usize,
    },
    #[error(
        "{op}: constituent {index} ({constituent}) must be {expected} (the outermost slice of {ty})"
    )]
    ConstituentType {
        op: String,
        index: usize,
        constituent: String,
        expected: String,
        ty: String,
    },
    #[error("OpConstantNull: tensor type {0} cannot have a null value (it has no Shape)")]
    NullNotShaped(String),
    #[error(
        "{op}: index {index} into an array of tensors is not a constant instruction: dynamic indexing of arrays of storage tensors requires the StorageTensorArrayDynamicIndexingARM or StorageTensorArrayNonUniformIndexingARM capability"
    )]
    DynamicIndexing { op: String, index: String },
    #[error("{op}: the scope of Tensor Operand {operand}: {rule}")]
    Scope {
        op: String,
        operand: &'static str,
        rule: String,
    },
}

/// A resolved tensor type.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TensorInfo {
    pub element: Id,
    pub rank: Option<Id>,
    pub shape: Option<Id>,
}

pub(crate) fn tensor_info(ix: &ModuleIndex, ty: Id) -> Option<TensorInfo> {
    match ix.ty(ty)? {
        Type::Tensor {
            element,
            rank,
            shape,
        } => Some(TensorInfo {
            element: *element,
            rank: *rank,
            shape: *shape,
        }),
        _ => None,
    }
}

/// The Shape entries when every one is evaluable (explicit `OpConstantComposite` constituents).
pub(crate) fn shape_entries(ix: &ModuleIndex, shape: Id) -> Option<Vec<u64>> {
    let inst = ix.def_inst(shape)?;
    if inst.opcode != Op::ConstantComposite {
        return None;
    }
    inst.referenced_ids().map(|c| ix.const_u64(c)).collect()
}

/// Appends every error of this concern to `out`.
pub fn check(ix: &ModuleIndex, opts: &Options, out: &mut Vec<ValError>) {
    for (index, inst) in ix.insts.iter().enumerate() {
        let result = match inst.opcode {
            Op::TypeTensorARM => check_type(ix, inst),
            Op::TensorReadARM => access::check_read(ix, opts, inst),
            Op::TensorWriteARM => access::check_write(ix, opts, inst),
            Op::AccessChain | Op::InBoundsAccessChain => array_indexing(ix, inst),
            Op::TensorQuerySizeARM => access::check_query(ix, inst),
            Op::ConstantComposite
            | Op::SpecConstantComposite
            | Op::ConstantNull
            | Op::ConstantCompositeReplicateEXT
            | Op::SpecConstantCompositeReplicateEXT
            | Op::CompositeConstructReplicateEXT
            | Op::CompositeConstruct => constants::check(ix, inst),
            _ => Ok(()),
        };
        if let Err(e) = result {
            out.push(ValError::at(index, e));
        }
    }
}

/// True when `ty` is an array (or runtime array) whose elements are tensors or, through more
/// arrays, hold tensors.
fn array_of_tensors(ix: &ModuleIndex, ty: Id) -> bool {
    let mut t = ty;
    let mut arrays = 0;
    loop {
        match ix.ty(t) {
            Some(Type::Array { element, .. } | Type::RuntimeArray { element }) => {
                arrays += 1;
                t = *element;
            }
            Some(Type::Tensor { .. }) => return arrays > 0,
            _ => return false,
        }
    }
}

/// Indexing into arrays of tensors (seeds/001 Capability table: StorageTensorArrayDynamicIndexingARM
/// "Arrays of storage tensors use dynamically uniform indexing",
/// StorageTensorArrayNonUniformIndexingARM "… use non-uniform indexing"; VK_ARM_tensors:
/// without them only constant indices, reference/tensors.md §2). An index of an access chain
/// that selects an element of an array of tensors is a constant instruction (spec constants
/// included: Vulkan's "constant integral expressions") unless one of the two capabilities is
/// declared.
fn array_indexing(ix: &ModuleIndex, inst: &Instruction) -> Result<(), TensorError> {
    if ix.has_capability("StorageTensorArrayDynamicIndexingARM")
        || ix.has_capability("StorageTensorArrayNonUniformIndexingARM")
    {
        return Ok(());
    }
    let Some(base) = ModuleIndex::operand_id(inst, 0) else {
        return Ok(());
    };
    let Some(Type::Pointer { pointee, .. }) = ix.value_type(base) else {
        return Ok(());
    };
    let mut ty = *pointee;
    for k in 1..inst.operands.len() {
        let Some(index) = ModuleIndex::operand_id(inst, k) else {
            return Ok(());
        };
        if array_of_tensors(ix, ty) && ix.def(index).is_some() && !ix.is_constant(index) {
            return Err(TensorError::DynamicIndexing {
                op: inst.opcode.name().to_string(),
                index: ix.name(index),
            });
        }
        ty = match ix.ty(ty) {
            Some(Type::Array { element, .. } | Type::RuntimeArray { element }) => *element,
            Some(Type::Struct { members }) => {
                match ix.const_u64(index).and_then(|m| members.get(m as usize)) {
                    Some(m) => *m,
                    None => return Ok(()),
                }
            }
            _ => return Ok(()),
        };
    }
    Ok(())
}

fn check_type(ix: &ModuleIndex, inst: &Instruction) -> Result<(), TensorError> {
    let id = |i: usize| inst.operands.get(i).and_then(|o| o.id());
    let element = id(0).unwrap_or(0);
    if !ix.ty(element).is_some_and(Type::is_scalar) {
        return Err(TensorError::ElementNotScalar(ix.name(element)));
    }
    let Some(rank) = id(1) else { return Ok(()) };
    if !ix.is_constant(rank) {
        return Err(TensorError::RankNotConstant(ix.name(rank)));
    }
    if ix.type_of(rank).and_then(|t| ix.int_type(t)).is_none() {
        return Err(TensorError::RankNotInt(ix.name(rank)));
    }
    let rank_value = ix.const_u64(rank);
    if rank_value == Some(0) {
        return Err(TensorError::RankZero(ix.name(rank)));
    }
    let Some(shape) = id(2) else { return Ok(()) };
    if !ix.is_constant(shape) {
        return Err(TensorError::ShapeNotConstant(ix.name(shape)));
    }
    let shape_err = || TensorError::ShapeType {
        shape: ix.name(shape),
        rank: ix.name(rank),
    };
    let Some(Type::Array { element, length }) = ix.value_type(shape) else {
        return Err(shape_err());
    };
    if ix.int_type(*element).is_none() {
        return Err(shape_err());
    }
    if let (Some(r), Some(l)) = (rank_value, ix.const_u64(*length))
        && r != l
    {
        return Err(shape_err());
    }
    // Every evaluable explicit entry, of a spec-constant composite too (SPIRV-Tools checks
    // both; an `OpConstantNull` shape has no explicit entries).
    if let Some(def) = ix.def_inst(shape)
        && matches!(
            def.opcode,
            Op::ConstantComposite | Op::SpecConstantComposite
        )
    {
        for (i, c) in def.referenced_ids().enumerate() {
            if ix.const_u64(c) == Some(0) {
                return Err(TensorError::ShapeEntryZero {
                    shape: ix.name(shape),
                    index: i,
                });
            }
        }
    }
    Ok(())
}

/// The literal word of an optional mask operand at `i`, 0 when absent.
pub(crate) fn mask_at(inst: &Instruction, i: usize) -> u32 {
    match inst.operands.get(i).map(|o| &o.value) {
        Some(OperandValue::Word(w)) => *w,
        _ => 0,
    }
}
