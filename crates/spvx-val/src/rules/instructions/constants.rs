//! Constant-creation instructions (SPIR-V §3.52.7): the Result Type of `OpConstantTrue`/
//! `False` (and the spec forms) is bool; of `OpConstant`/`OpSpecConstant` an int or float
//! scalar; `OpConstantComposite`/`OpSpecConstantComposite` build a composite from constants
//! (or `OpUndef`) of the member types — a vector from exactly as many scalars as it has
//! components.

use super::{Check, Cx, ensure};
use spvx_spirv::index::Type;
use spvx_spirv::instruction::Id;
use spvx_spirv::op::Op;

pub(super) fn check(cx: &Cx) -> Check {
    match cx.inst.opcode {
        Op::ConstantTrue | Op::ConstantFalse | Op::SpecConstantTrue | Op::SpecConstantFalse => {
            ensure(
                matches!(
                    cx.inst.result_type.and_then(|t| cx.ix.ty(t)),
                    Some(Type::Bool)
                ),
                || cx.result_type_err("a bool type"),
            )
        }
        Op::Constant | Op::SpecConstant => ensure(
            matches!(
                cx.inst.result_type.and_then(|t| cx.ix.ty(t)),
                Some(Type::Int { .. } | Type::Float { .. })
            ),
            || cx.result_type_err("an int or float scalar type"),
        ),
        Op::ConstantComposite | Op::SpecConstantComposite => composite(cx),
        _ => Ok(()),
    }
}

fn composite(cx: &Cx) -> Check {
    let Some(rt) = cx.inst.result_type else {
        return Ok(());
    };
    let n = cx.inst.operands.len();
    let members: Vec<Id> = match cx.ix.ty(rt) {
        Some(Type::Vector { component, count }) => vec![*component; *count as usize],
        Some(Type::Matrix { column, count }) => vec![*column; *count as usize],
        Some(Type::Array { element, length }) => match cx.ix.const_u64(*length) {
            Some(len) if len <= 1 << 20 => vec![*element; len as usize],
            _ => return Ok(()),
        },
        Some(Type::Struct { members }) => members.clone(),
        Some(Type::CooperativeMatrix { .. } | Type::Tensor { .. } | Type::Other(_)) | None => {
            return Ok(());
        }
        Some(_) => return Err(cx.result_type_err("a composite type")),
    };
    ensure(n == members.len(), || {
        cx.rule(format!(
            "expected {} constituents for Result Type {}, found {n}",
            members.len(),
            cx.ix.name(rt)
        ))
    })?;
    for (i, want) in members.iter().enumerate() {
        let Some(c) = cx.id(i) else { continue };
        let is_constant =
            cx.ix.is_constant(c) || cx.ix.def(c).is_some_and(|d| d.opcode == Op::Undef);
        ensure(is_constant, || {
            cx.rule(format!(
                "Constituent {} ({}) is not a constant or OpUndef",
                i + 1,
                cx.ix.name(c)
            ))
        })?;
        ensure(cx.ix.type_of(c) == Some(*want), || {
            cx.operand_err(
                i,
                &format!("Constituent {}", i + 1),
                &format!("of type {}", cx.ix.name(*want)),
            )
        })?;
    }
    Ok(())
}
