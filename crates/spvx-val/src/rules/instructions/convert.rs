//! Conversion instructions (SPIR-V §3.52.11): `OpConvertFToU`/`FToS`/`SToF`/`UToF`,
//! `OpUConvert`, `OpSConvert`, `OpFConvert`, `OpQuantizeToF16` and `OpBitcast` (numeric types,
//! and pointers to and from pointers and integers).

use super::{Check, Cx, Kind, Shape, ensure};
use spvx_spirv::grammar::Version;
use spvx_spirv::index::Type;
use spvx_spirv::op::Op;

pub(super) fn check(cx: &Cx) -> Check {
    let op = cx.inst.opcode;
    if !matches!(
        op,
        Op::ConvertFToU
            | Op::ConvertFToS
            | Op::ConvertSToF
            | Op::ConvertUToF
            | Op::UConvert
            | Op::SConvert
            | Op::FConvert
            | Op::QuantizeToF16
            | Op::Bitcast
    ) || cx.any_opaque()
    {
        return Ok(());
    }
    if op == Op::Bitcast {
        return bitcast(cx);
    }
    let (result_kind, input_kind) = match op {
        Op::ConvertFToU | Op::ConvertFToS => (Kind::Int, Kind::Float),
        Op::ConvertSToF | Op::ConvertUToF => (Kind::Float, Kind::Int),
        Op::UConvert | Op::SConvert => (Kind::Int, Kind::Int),
        _ => (Kind::Float, Kind::Float),
    };
    let names = |k: Kind| match k {
        Kind::Int => "an int scalar or vector type",
        _ => "a float scalar or vector type",
    };
    let r = cx
        .result_shape()
        .filter(|s| s.kind == result_kind)
        .ok_or_else(|| {
            if op == Op::UConvert || op == Op::ConvertFToU {
                cx.result_type_err("an unsigned int scalar or vector type")
            } else {
                cx.result_type_err(names(result_kind))
            }
        })?;
    // OpUConvert and OpConvertFToU: "whose Signedness operand is 0".
    if op == Op::UConvert || op == Op::ConvertFToU {
        ensure(!r.signed, || {
            cx.result_type_err("an unsigned int scalar or vector type")
        })?;
    }
    let x = cx
        .type_of(0)
        .and_then(|t| cx.shape(t))
        .filter(|s| s.kind == input_kind)
        .ok_or_else(|| cx.operand_err(0, "the input", names(input_kind)))?;
    ensure(x.same_count(&r), || {
        cx.rule("expected the input to have the same dimension as Result Type")
    })?;
    match op {
        Op::UConvert | Op::SConvert => ensure(x.width != r.width, || {
            cx.rule("expected the input to have a different bit width from Result Type")
        }),
        Op::FConvert => ensure(x.width != r.width || x.encoding != r.encoding, || {
            cx.rule("expected the input to have a different bit width or encoding from Result Type")
        }),
        Op::QuantizeToF16 => ensure(
            r.width == 32 && r.encoding.is_none() && cx.type_of(0) == cx.inst.result_type,
            || cx.rule("expected Result Type and Value to be the same 32-bit float type"),
        ),
        _ => Ok(()),
    }
}

/// The number of bits of a numeric scalar or vector.
fn bits(s: &Shape) -> u64 {
    s.width as u64 * s.count as u64
}

fn bitcast(cx: &Cx) -> Check {
    let Some(rt) = cx.inst.result_type else {
        return Ok(());
    };
    let is_ptr = |t: Option<u32>| matches!(t.and_then(|t| cx.ix.ty(t)), Some(Type::Pointer { .. }));
    let (rp, xp) = (is_ptr(Some(rt)), is_ptr(cx.type_of(0)));
    if rp || xp {
        return pointer_bitcast(cx, rp, xp);
    }
    let r = cx
        .shape(rt)
        .filter(|s| s.kind != Kind::Bool)
        .ok_or_else(|| cx.result_type_err("a pointer or an int or float scalar or vector type"))?;
    let x = cx
        .type_of(0)
        .and_then(|t| cx.shape(t))
        .filter(|s| s.kind != Kind::Bool)
        .ok_or_else(|| {
            cx.operand_err(
                0,
                "Operand",
                "a pointer or an int or float scalar or vector type",
            )
        })?;
    // A long vector of specialization-constant length (count 0): its size is unknown here.
    let unknown = r.count == 0 || x.count == 0;
    ensure(unknown || bits(&r) == bits(&x), || {
        cx.rule(format!(
            "expected the input and Result Type to have the same total bit width ({} and {} bits)",
            bits(&x),
            bits(&r)
        ))
    })
}

/// `OpBitcast` involving a pointer (§3.52.11: "If either Result Type or Operand is a pointer,
/// the other must be a pointer or an integer scalar" — from SPIR-V 1.5, or with
/// SPV_KHR_physical_storage_buffer, also "an integer vector of 32-bit components"); spirv-val's
/// messages.
fn pointer_bitcast(cx: &Cx, result_is_ptr: bool, input_is_ptr: bool) -> Check {
    if result_is_ptr && input_is_ptr {
        return Ok(());
    }
    let wide = cx.ix.header.version() >= Version::new(1, 5)
        || cx.ix.has_extension("SPV_KHR_physical_storage_buffer");
    let other = if result_is_ptr {
        cx.type_of(0)
    } else {
        cx.inst.result_type
    };
    let ok = other
        .and_then(|t| cx.shape(t))
        .is_some_and(|s| s.kind == Kind::Int && (!s.vector || (wide && s.width == 32)));
    let allowed = if wide {
        "a pointer, int scalar or 32-bit int vector (SPIR-V 1.5 or later, or SPV_KHR_physical_storage_buffer)"
    } else {
        "a pointer or int scalar (SPIR-V 1.4 or earlier, without SPV_KHR_physical_storage_buffer)"
    };
    ensure(ok, || {
        if result_is_ptr {
            cx.operand_err(0, "the Operand of a bitcast to a pointer", allowed)
        } else {
            cx.result_type_err(&format!("{allowed} when the Operand is a pointer"))
        }
    })
}
