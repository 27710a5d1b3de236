//! `OpTensorReadARM`, `OpTensorWriteARM` and `OpTensorQuerySizeARM`: the tensor must be ranked,
//! Coordinates an integer array of length Rank, values of the Element Type (scalar or array of
//! it), Tensor Operands used where the extension allows them, Dimension < Rank.

use super::{TensorError, TensorInfo, mask_at, tensor_info};
use crate::Options;
use crate::rules::scope::{self, ScopeKind};
use spvx_spirv::index::{ModuleIndex, Type};
use spvx_spirv::instruction::{Id, Instruction};

const OUT_OF_BOUNDS: u32 = 0x2;
const MAKE_AVAILABLE: u32 = 0x4;
const MAKE_VISIBLE: u32 = 0x8;
const NON_PRIVATE: u32 = 0x10;

/// The ranked tensor type of the Tensor operand at `i`.
fn ranked(ix: &ModuleIndex, inst: &Instruction, i: usize) -> Result<TensorInfo, TensorError> {
    let tensor = ModuleIndex::operand_id(inst, i).unwrap_or(0);
    match ix.type_of(tensor).and_then(|t| tensor_info(ix, t)) {
        Some(t) if t.rank.is_some() => Ok(t),
        _ => Err(TensorError::NotRankedTensor {
            op: inst.opcode.name().to_string(),
            tensor: ix.name(tensor),
        }),
    }
}

/// Coordinates: an `OpTypeArray` of integer whose length equals the rank (when both evaluable).
fn check_coordinates(
    ix: &ModuleIndex,
    inst: &Instruction,
    t: &TensorInfo,
) -> Result<(), TensorError> {
    let coords = ModuleIndex::operand_id(inst, 1).unwrap_or(0);
    let bad = || TensorError::CoordinatesType {
        op: inst.opcode.name().to_string(),
        coords: ix.name(coords),
    };
    let Some(Type::Array { element, length }) = ix.value_type(coords) else {
        return Err(bad());
    };
    if ix.int_type(*element).is_none() {
        return Err(bad());
    }
    if let (Some(length), Some(rank)) =
        (ix.const_u64(*length), t.rank.and_then(|r| ix.const_u64(r)))
        && length != rank
    {
        return Err(TensorError::CoordinatesLength {
            op: inst.opcode.name().to_string(),
            length,
            rank,
        });
    }
    Ok(())
}

/// The scalar type of a scalar or array-of-scalar type.
fn scalar_of(ix: &ModuleIndex, ty: Id) -> Option<Id> {
    match ix.ty(ty)? {
        t if t.is_scalar() => Some(ty),
        Type::Array { element, .. } if ix.ty(*element).is_some_and(Type::is_scalar) => {
            Some(*element)
        }
        _ => None,
    }
}

fn check_element(
    ix: &ModuleIndex,
    inst: &Instruction,
    scalar: Id,
    t: &TensorInfo,
) -> Result<(), TensorError> {
    if scalar != t.element {
        return Err(TensorError::ElementMismatch {
            op: inst.opcode.name().to_string(),
            got: ix.name(scalar),
            element: ix.name(t.element),
        });
    }
    Ok(())
}

/// The mask rules shared by reads and writes: `forbidden` bits, NonPrivateElementARM with the
/// availability/visibility bits, VulkanMemoryModel for the memory-model bits, parameters present.
fn check_mask(
    ix: &ModuleIndex,
    inst: &Instruction,
    mask_index: usize,
    forbidden: &[(u32, &'static str, &'static str)],
) -> Result<u32, TensorError> {
    let mask = mask_at(inst, mask_index);
    let op = inst.opcode.name().to_string();
    for &(bit, operand, why) in forbidden {
        if mask & bit != 0 {
            return Err(TensorError::OperandNotAllowed { op, operand, why });
        }
    }
    let params = [
        (OUT_OF_BOUNDS, "OutOfBoundsValueARM"),
        (MAKE_AVAILABLE, "MakeElementAvailableARM"),
        (MAKE_VISIBLE, "MakeElementVisibleARM"),
    ];
    let set: Vec<&'static str> = params
        .iter()
        .filter(|(b, _)| mask & b != 0)
        .map(|(_, n)| *n)
        .collect();
    let present = inst.operands.len().saturating_sub(mask_index + 1);
    if let Some(operand) = set.get(present) {
        return Err(TensorError::MissingOperand { op, operand });
    }
    for (bit, operand) in [
        (MAKE_AVAILABLE, "MakeElementAvailableARM"),
        (MAKE_VISIBLE, "MakeElementVisibleARM"),
    ] {
        if mask & bit != 0 && mask & NON_PRIVATE == 0 {
            return Err(TensorError::NeedsNonPrivate { op, operand });
        }
    }
    for (bit, operand) in [
        (MAKE_AVAILABLE, "MakeElementAvailableARM"),
        (MAKE_VISIBLE, "MakeElementVisibleARM"),
        (NON_PRIVATE, "NonPrivateElementARM"),
    ] {
        if mask & bit != 0 && !ix.has_capability("VulkanMemoryModel") {
            return Err(TensorError::NeedsVulkanMemoryModel { op, operand });
        }
    }
    Ok(mask)
}

/// The Scope ids of MakeElementAvailableARM / MakeElementVisibleARM ("A following operand is
/// the memory scope that controls the availability/visibility operation", seeds/001): each
/// a 32-bit int scalar obeying the memory-scope rules of [`crate::rules::scope`], as the Memory
/// Scope of a barrier. Parameters follow the mask in increasing bit order.
fn check_scopes(
    ix: &ModuleIndex,
    opts: &Options,
    inst: &Instruction,
    mask_index: usize,
    mask: u32,
) -> Result<(), TensorError> {
    let mut next = mask_index + 1;
    for (bit, operand) in [
        (OUT_OF_BOUNDS, "OutOfBoundsValueARM"),
        (MAKE_AVAILABLE, "MakeElementAvailableARM"),
        (MAKE_VISIBLE, "MakeElementVisibleARM"),
    ] {
        if mask & bit == 0 {
            continue;
        }
        let at = next;
        next += 1;
        if bit == OUT_OF_BOUNDS {
            continue;
        }
        let Some(id) = ModuleIndex::operand_id(inst, at) else {
            continue;
        };
        let fail = |rule: String| TensorError::Scope {
            op: inst.opcode.name().to_string(),
            operand,
            rule,
        };
        match ix.value_type(id) {
            Some(Type::Int { width: 32, .. }) | None => {}
            Some(_) => return Err(fail(format!("{} must be a 32-bit int scalar", ix.name(id)))),
        }
        scope::check(ix, opts, inst.opcode, id, ScopeKind::Memory).map_err(fail)?;
    }
    Ok(())
}

pub(super) fn check_read(
    ix: &ModuleIndex,
    opts: &Options,
    inst: &Instruction,
) -> Result<(), TensorError> {
    let result_ty = inst.result_type.unwrap_or(0);
    let scalar =
        scalar_of(ix, result_ty).ok_or_else(|| TensorError::ReadResultType(ix.name(result_ty)))?;
    let t = ranked(ix, inst, 0)?;
    check_element(ix, inst, scalar, &t)?;
    check_coordinates(ix, inst, &t)?;
    let mask = check_mask(
        ix,
        inst,
        2,
        &[(
            MAKE_AVAILABLE,
            "MakeElementAvailableARM",
            "only valid with OpTensorWriteARM",
        )],
    )?;
    if mask & OUT_OF_BOUNDS != 0 {
        // The OOB value is the first parameter (lowest bit first).
        let value = ModuleIndex::operand_id(inst, 3).unwrap_or(0);
        if !ix.is_constant(value) || ix.type_of(value) != Some(t.element) {
            return Err(TensorError::OutOfBoundsValue {
                value: ix.name(value),
                element: ix.name(t.element),
            });
        }
    }
    check_scopes(ix, opts, inst, 2, mask)
}

pub(super) fn check_write(
    ix: &ModuleIndex,
    opts: &Options,
    inst: &Instruction,
) -> Result<(), TensorError> {
    let t = ranked(ix, inst, 0)?;
    check_coordinates(ix, inst, &t)?;
    let object = ModuleIndex::operand_id(inst, 2).unwrap_or(0);
    let object_ty = ix.type_of(object).unwrap_or(0);
    let scalar =
        scalar_of(ix, object_ty).ok_or_else(|| TensorError::WriteObjectType(ix.name(object_ty)))?;
    check_element(ix, inst, scalar, &t)?;
    let mask = check_mask(
        ix,
        inst,
        3,
        &[
            (
                OUT_OF_BOUNDS,
                "OutOfBoundsValueARM",
                "only valid with OpTensorReadARM",
            ),
            (
                MAKE_VISIBLE,
                "MakeElementVisibleARM",
                "only valid with OpTensorReadARM",
            ),
        ],
    )?;
    check_scopes(ix, opts, inst, 3, mask)
}

pub(super) fn check_query(ix: &ModuleIndex, inst: &Instruction) -> Result<(), TensorError> {
    let result_ty = inst.result_type.unwrap_or(0);
    if ix.int_type(result_ty).is_none() {
        return Err(TensorError::QueryResultType(ix.name(result_ty)));
    }
    let t = ranked(ix, inst, 0)?;
    let dim = ModuleIndex::operand_id(inst, 1).unwrap_or(0);
    if !ix.is_constant(dim) || ix.type_of(dim).and_then(|d| ix.int_type(d)).is_none() {
        return Err(TensorError::DimensionNotConstantInt(ix.name(dim)));
    }
    if let (Some(dim), Some(rank)) = (ix.const_u64(dim), t.rank.and_then(|r| ix.const_u64(r)))
        && dim >= rank
    {
        return Err(TensorError::DimensionTooLarge { dim, rank });
    }
    Ok(())
}
