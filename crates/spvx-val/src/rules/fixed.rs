//! Rules of SPV_INTEL_arbitrary_precision_fixed_point (shared/seeds/002; ALTERA names are
//! aliases) for the eleven `OpFixed*` instructions. The integer widths of
//! SPV_INTEL_arbitrary_precision_integers (width 0 never; other widths than 8/16/32/64 with
//! ArbitraryPrecisionIntegersALTERA) are core rules (`rules::types`, `rules::capabilities`).
//!
//! The extension says "Validation Rules: None"; what is checked here is what its instruction
//! text states: Input and Result Type are `OpTypeInt` (Input a scalar), S is a Signedness Mode
//! (0/1, table 3.16d), Q a Quantization Mode (0–7, table 3.16b), O an Overflow Mode (0–3, table
//! 3.16c); I and rI are any signed 32-bit value. SinCos/SinCosPi results: the spec's
//! two-component vector of `OpTypeInt`, or (what producers emit, reference/acfixed.md §2.3 and
//! §5.10) one `OpTypeInt` of even width 2·rW.

use crate::Options;
use crate::error::ValError;
use spvx_spirv::index::{ModuleIndex, Type};
use spvx_spirv::instruction::Instruction;
use spvx_spirv::op::Op;
use thiserror::Error;

/// A broken rule of the fixed-point instructions or of arbitrary integer widths.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum FixedError {
    #[error("{op}: Result Type {ty} must be OpTypeInt")]
    ResultNotInt { op: String, ty: String },
    #[error(
        "{op}: Result Type {ty} must be a two-component vector of OpTypeInt (or one OpTypeInt of even width 2·rW holding sin in the high half and cos in the low half)"
    )]
    PairResult { op: String, ty: String },
    #[error(
        "{op}: Input {input} must be an OpTypeInt scalar (an ac_fixed value); its type is {ty}"
    )]
    InputNotInt {
        op: String,
        input: String,
        ty: String,
    },
    #[error("{op}: S = {value} is not a Signedness Mode (0 UNSIGNED, 1 SIGNED; table 3.16d)")]
    Signedness { op: String, value: u32 },
    #[error("{op}: Q = {value} is not a Quantization Mode (0–7; table 3.16b)")]
    Quantization { op: String, value: u32 },
    #[error("{op}: O = {value} is not an Overflow Mode (0–3; table 3.16c)")]
    Overflow { op: String, value: u32 },
    #[error("{op}: missing literal operand {operand}")]
    MissingLiteral { op: String, operand: &'static str },
}

/// Appends every error of this concern to `out`.
pub fn check(ix: &ModuleIndex, _opts: &Options, out: &mut Vec<ValError>) {
    for (index, inst) in ix.insts.iter().enumerate() {
        if inst.opcode.is_fixed_point_math()
            && let Err(e) = check_fixed(ix, inst)
        {
            out.push(ValError::at(index, e));
        }
    }
}

fn check_fixed(ix: &ModuleIndex, inst: &Instruction) -> Result<(), FixedError> {
    let op = inst.opcode.name().to_string();
    let result_ty = inst.result_type.unwrap_or(0);
    let pair = matches!(inst.opcode, Op::FixedSinCosALTERA | Op::FixedSinCosPiALTERA);
    let result_ok = match ix.ty(result_ty) {
        Some(Type::Int { width, .. }) => !pair || width.is_multiple_of(2),
        Some(Type::Vector { component, count }) => {
            pair && *count == 2 && ix.int_type(*component).is_some()
        }
        _ => false,
    };
    if !result_ok {
        let ty = ix.name(result_ty);
        return Err(if pair {
            FixedError::PairResult { op, ty }
        } else {
            FixedError::ResultNotInt { op, ty }
        });
    }
    let input = ModuleIndex::operand_id(inst, 0).unwrap_or(0);
    let input_ty = ix.type_of(input).unwrap_or(0);
    if ix.int_type(input_ty).is_none() {
        return Err(FixedError::InputNotInt {
            op,
            input: ix.name(input),
            ty: ix.name(input_ty),
        });
    }
    let literal = |i: usize, operand: &'static str| {
        inst.operands
            .get(i)
            .and_then(|o| o.word())
            .ok_or_else(|| FixedError::MissingLiteral {
                op: op.clone(),
                operand,
            })
    };
    let s = literal(1, "S")?;
    literal(2, "I")?;
    literal(3, "rI")?;
    let q = literal(4, "Q")?;
    let o = literal(5, "O")?;
    if s > 1 {
        return Err(FixedError::Signedness { op, value: s });
    }
    if q > 7 {
        return Err(FixedError::Quantization { op, value: q });
    }
    if o > 3 {
        return Err(FixedError::Overflow { op, value: o });
    }
    Ok(())
}
