//! Tensor constants (reference/tensors.md §1e): only a shaped tensor is a composite; its
//! constituents are the Shape[0] outermost slices (scalars of the Element Type for rank 1,
//! tensors of rank R−1 and the inner shape otherwise); `OpConstantNull` needs a Shape; the
//! replicate forms take one Element Type value and a shaped tensor. `OpCompositeConstruct` of a
//! tensor follows the same rules as `OpConstantComposite` (issue 20: a shaped tensor is a
//! composite, seeds/001; docs/semantics/tensors.md).

use super::{TensorError, shape_entries, tensor_info};
use spvx_spirv::index::ModuleIndex;
use spvx_spirv::instruction::Instruction;
use spvx_spirv::op::Op;

pub(super) fn check(ix: &ModuleIndex, inst: &Instruction) -> Result<(), TensorError> {
    let ty = inst.result_type.unwrap_or(0);
    let Some(t) = tensor_info(ix, ty) else {
        return Ok(());
    };
    let op_name = inst.opcode.name().to_string();
    if inst.opcode == Op::ConstantNull {
        if t.shape.is_none() {
            return Err(TensorError::NullNotShaped(ix.name(ty)));
        }
        return Ok(());
    }
    if t.shape.is_none() {
        return Err(TensorError::NotComposite {
            op: op_name,
            ty: ix.name(ty),
        });
    }
    let constituents: Vec<_> = inst.referenced_ids().collect();
    if matches!(
        inst.opcode,
        Op::ConstantCompositeReplicateEXT
            | Op::SpecConstantCompositeReplicateEXT
            | Op::CompositeConstructReplicateEXT
    ) {
        // SPIRV-Tools: the single constituent has the Element Type, whatever the rank.
        let c = constituents.first().copied().unwrap_or(0);
        if ix.type_of(c) != Some(t.element) {
            return Err(TensorError::ConstituentType {
                op: op_name,
                index: 0,
                constituent: ix.name(c),
                expected: format!("of the Element Type {}", ix.name(t.element)),
                ty: ix.name(ty),
            });
        }
        return Ok(());
    }
    let Some(rank) = t.rank.and_then(|r| ix.const_u64(r)) else {
        return Ok(());
    };
    let shape = t.shape.and_then(|s| shape_entries(ix, s));
    if let Some(first) = shape.as_ref().and_then(|s| s.first().copied())
        && first != constituents.len() as u64
    {
        return Err(TensorError::ConstituentCount {
            op: op_name,
            ty: ix.name(ty),
            expected: first,
            got: constituents.len(),
        });
    }
    for (index, &c) in constituents.iter().enumerate() {
        let cty = ix.type_of(c).unwrap_or(0);
        let ok = if rank == 1 {
            cty == t.element
        } else {
            match tensor_info(ix, cty) {
                Some(ct) => {
                    let rank_ok = ct
                        .rank
                        .and_then(|r| ix.const_u64(r))
                        .is_none_or(|r| r == rank - 1);
                    let inner = ct.shape.and_then(|s| shape_entries(ix, s));
                    let shape_ok = match (&shape, &inner) {
                        (Some(outer), Some(inner)) => outer.get(1..) == Some(inner.as_slice()),
                        _ => true,
                    };
                    ct.element == t.element && rank_ok && shape_ok
                }
                None => false,
            }
        };
        if !ok {
            let expected = if rank == 1 {
                format!("of the Element Type {}", ix.name(t.element))
            } else {
                format!(
                    "a tensor of Element Type {} and rank {}",
                    ix.name(t.element),
                    rank - 1
                )
            };
            return Err(TensorError::ConstituentType {
                op: op_name,
                index,
                constituent: ix.name(c),
                expected,
                ty: ix.name(ty),
            });
        }
    }
    Ok(())
}
