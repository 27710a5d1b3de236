//! Extended-precision integer arithmetic (`OpIAddCarry`, `OpISubBorrow`, `OpUMulExtended`,
//! `OpSMulExtended`: a two-member struct result) and the bit-field instructions
//! (`OpBitFieldInsert`, `OpBitFieldSExtract`, `OpBitFieldUExtract`, `OpBitReverse`), SPIR-V
//! §3.52.13 and §3.52.14. Wording follows spirv-val (source/val/validate_arithmetics.cpp,
//! validate_bitwise.cpp).

use super::{Check, Cx, Kind, ensure};
use spvx_spirv::index::Type;
use spvx_spirv::op::Op;

pub(super) fn check(cx: &Cx) -> Check {
    match cx.inst.opcode {
        // OpIAddCarry, OpISubBorrow, OpUMulExtended: unsigned members; OpSMulExtended: any.
        Op::IAddCarry | Op::ISubBorrow | Op::UMulExtended => extended(cx, true),
        Op::SMulExtended => extended(cx, false),
        Op::BitFieldInsert => bit_field(cx, 2, 2),
        Op::BitFieldSExtract | Op::BitFieldUExtract => bit_field(cx, 1, 2),
        Op::BitReverse => bit_field(cx, 1, 0),
        _ => Ok(()),
    }
}

/// Result Type: a struct of two identical int scalar/vector members (unsigned when
/// `unsigned`); both operands of that member type.
fn extended(cx: &Cx, unsigned: bool) -> Check {
    if cx.any_opaque() {
        return Ok(());
    }
    let members = match cx.inst.result_type.and_then(|t| cx.ix.ty(t)) {
        Some(Type::Struct { members }) => members.clone(),
        _ => return Err(cx.result_type_err("a struct")),
    };
    ensure(members.len() == 2, || {
        cx.rule("expected the Result Type struct to have 2 members")
    })?;
    let member = cx.shape(members[0]).filter(|s| s.kind == Kind::Int);
    let expected = if unsigned {
        "unsigned int scalar or vector types"
    } else {
        "int scalar or vector types"
    };
    ensure(member.is_some_and(|s| !unsigned || !s.signed), || {
        cx.rule(format!(
            "expected the Result Type struct members to be {expected}"
        ))
    })?;
    ensure(members[0] == members[1], || {
        cx.rule("expected the Result Type struct members to be identical")
    })?;
    for (i, what) in [(0, "Operand 1"), (1, "Operand 2")] {
        ensure(cx.type_of(i) == Some(members[0]), || {
            cx.operand_err(
                i,
                what,
                &format!("of the Result Type member type {}", cx.ix.name(members[0])),
            )
        })?;
    }
    Ok(())
}

/// Result Type: an int scalar or vector; `values` operands (Base, Insert) of the Result Type;
/// then `counts` int scalar operands (Offset, Count).
fn bit_field(cx: &Cx, values: usize, counts: usize) -> Check {
    if cx.any_opaque() {
        return Ok(());
    }
    ensure(
        cx.result_shape().is_some_and(|s| s.kind == Kind::Int),
        || cx.result_type_err("an int scalar or vector type"),
    )?;
    let names = ["Base", "Insert"];
    for (i, what) in names.iter().enumerate().take(values) {
        ensure(cx.type_of(i) == cx.inst.result_type, || {
            cx.operand_err(i, what, "of the Result Type")
        })?;
    }
    for (k, what) in ["Offset", "Count"].iter().enumerate().take(counts) {
        let i = values + k;
        let s = cx.type_of(i).and_then(|t| cx.shape(t));
        ensure(s.is_some_and(|s| s.kind == Kind::Int && !s.vector), || {
            cx.operand_err(i, what, "an int scalar type")
        })?;
    }
    Ok(())
}
