//! Rules of SPV_KHR_integer_dot_product (shared/seeds/000, rev 3): the operand and result types of
//! OpSDot/OpUDot/OpSUDot and their AccSat forms, the packed 4x8-bit format, and the input-type
//! capabilities DotProductInput4x8BitPacked / DotProductInput4x8Bit / DotProductInputAll.
//!
//! The generic rules (DotProduct declared for the opcode, the extension before SPIR-V 1.6, Int8 /
//! Int16 / Int64 / Vector16 for the types) are the core capability rules'.

use crate::Options;
use crate::error::ValError;
use spvx_spirv::index::ModuleIndex;
use spvx_spirv::instruction::{Id, Instruction};
use spvx_spirv::op::Op;
use thiserror::Error;

/// A broken rule of SPV_KHR_integer_dot_product.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum IntDotError {
    #[error("{op}: Result Type {ty} must be an integer scalar type")]
    ResultNotInt { op: String, ty: String },
    #[error("{op}: Result Type {ty} must be an integer type with Signedness of 0")]
    ResultNotUnsigned { op: String, ty: String },
    #[error("{op}: the type of Accumulator ({acc}) must be the same as Result Type ({ty})")]
    AccumulatorType { op: String, acc: String, ty: String },
    #[error(
        "{op}: {which} ({ty}) must be either a 32-bit integer scalar or a vector of integer type"
    )]
    OperandType {
        op: String,
        which: &'static str,
        ty: String,
    },
    #[error("{op}: Vector 1 ({a}) and Vector 2 ({b}) must both be 32-bit integers or both vectors")]
    ScalarVectorMix { op: String, a: String, b: String },
    #[error("{op}: Vector 1 ({a}) and Vector 2 ({b}) must have the same type")]
    NotSameType { op: String, a: String, b: String },
    #[error(
        "{op}: Vector 1 ({a}) and Vector 2 ({b}) must have the same number of components and same component Width"
    )]
    ShapeMismatch { op: String, a: String, b: String },
    #[error("{op}: the components of {which} ({ty}) must have a Signedness of 0")]
    ComponentsNotUnsigned {
        op: String,
        which: &'static str,
        ty: String,
    },
    #[error(
        "{op}: Result Type width {result} must be greater than or equal to the component width {component}"
    )]
    ResultTooNarrow {
        op: String,
        result: u32,
        component: u32,
    },
    #[error(
        "{op}: Vector 1 and Vector 2 are scalar integers, so Packed Vector Format must be specified"
    )]
    MissingPackedFormat { op: String },
    #[error("{op}: unknown Packed Vector Format {value}")]
    UnknownPackedFormat { op: String, value: u32 },
    #[error(
        "{op}: 32-bit integers packing 4x8-bit vectors as inputs need capability DotProductInput4x8BitPacked"
    )]
    NeedsInput4x8BitPacked { op: String },
    #[error(
        "{op}: vectors of 4 8-bit integers as inputs need capability DotProductInput4x8Bit or DotProductInputAll"
    )]
    NeedsInput4x8Bit { op: String },
    #[error("{op}: input vectors of type {ty} need capability DotProductInputAll")]
    NeedsInputAll { op: String, ty: String },
}

/// Which of the three families an opcode belongs to, and whether it accumulates.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Family {
    Signed,
    Unsigned,
    Mixed,
}

fn family(opcode: Op) -> Option<(Family, bool)> {
    Some(match opcode {
        Op::SDot => (Family::Signed, false),
        Op::UDot => (Family::Unsigned, false),
        Op::SUDot => (Family::Mixed, false),
        Op::SDotAccSat => (Family::Signed, true),
        Op::UDotAccSat => (Family::Unsigned, true),
        Op::SUDotAccSat => (Family::Mixed, true),
        _ => return None,
    })
}

/// Appends every error of this concern to `out`.
pub fn check(ix: &ModuleIndex, _opts: &Options, out: &mut Vec<ValError>) {
    for (index, inst) in ix.insts.iter().enumerate() {
        if let Some((fam, acc)) = family(inst.opcode)
            && let Err(e) = check_one(ix, inst, fam, acc)
        {
            out.push(ValError::at(index, e));
        }
    }
}

/// The shape of one input operand.
enum Input {
    /// A 32-bit integer scalar (packed form).
    Packed,
    /// An integer vector: count, component width, component signedness.
    Vector {
        count: u32,
        width: u32,
        signed: bool,
    },
}

fn input(ix: &ModuleIndex, ty: Id) -> Option<Input> {
    if let Some((32, _)) = ix.int_type(ty) {
        return Some(Input::Packed);
    }
    let comp = ix.scalar_or_component(ty).filter(|c| *c != ty)?;
    let (width, signed) = ix.int_type(comp)?;
    let count = ix.component_count(ty)?;
    Some(Input::Vector {
        count,
        width,
        signed,
    })
}

fn check_one(
    ix: &ModuleIndex,
    inst: &Instruction,
    fam: Family,
    acc: bool,
) -> Result<(), IntDotError> {
    let op = inst.opcode.name().to_string();
    let result_ty = inst.result_type.unwrap_or(0);
    let Some((result_width, result_signed)) = ix.int_type(result_ty) else {
        return Err(IntDotError::ResultNotInt {
            op,
            ty: ix.name(result_ty),
        });
    };
    if fam == Family::Unsigned && result_signed {
        return Err(IntDotError::ResultNotUnsigned {
            op,
            ty: ix.name(result_ty),
        });
    }
    if acc {
        let acc_ty = ModuleIndex::operand_id(inst, 2).and_then(|a| ix.type_of(a));
        if acc_ty != Some(result_ty) {
            return Err(IntDotError::AccumulatorType {
                op,
                acc: acc_ty.map_or_else(|| "none".into(), |t| ix.name(t)),
                ty: ix.name(result_ty),
            });
        }
    }
    let ta = ModuleIndex::operand_id(inst, 0)
        .and_then(|v| ix.type_of(v))
        .unwrap_or(0);
    let tb = ModuleIndex::operand_id(inst, 1)
        .and_then(|v| ix.type_of(v))
        .unwrap_or(0);
    let ia = input(ix, ta).ok_or_else(|| IntDotError::OperandType {
        op: op.clone(),
        which: "Vector 1",
        ty: ix.name(ta),
    })?;
    let ib = input(ix, tb).ok_or_else(|| IntDotError::OperandType {
        op: op.clone(),
        which: "Vector 2",
        ty: ix.name(tb),
    })?;
    // Same type for the S and U forms ("Vector 1 and Vector 2 must have the same type").
    if fam != Family::Mixed && ta != tb {
        return Err(IntDotError::NotSameType {
            op,
            a: ix.name(ta),
            b: ix.name(tb),
        });
    }
    let format_index = if acc { 3 } else { 2 };
    let format = inst.operands.get(format_index).and_then(|o| o.word());
    match (ia, ib) {
        (Input::Packed, Input::Packed) => {
            let Some(value) = format else {
                return Err(IntDotError::MissingPackedFormat { op });
            };
            if value != 0 {
                return Err(IntDotError::UnknownPackedFormat { op, value });
            }
            // The packed format's components are 8 bits wide.
            if result_width < 8 {
                return Err(IntDotError::ResultTooNarrow {
                    op,
                    result: result_width,
                    component: 8,
                });
            }
            if !ix.has_capability("DotProductInput4x8BitPacked") {
                return Err(IntDotError::NeedsInput4x8BitPacked { op });
            }
        }
        (
            Input::Vector {
                count,
                width,
                signed,
            },
            Input::Vector {
                count: count_b,
                width: width_b,
                signed: signed_b,
            },
        ) => {
            if count != count_b || width != width_b {
                return Err(IntDotError::ShapeMismatch {
                    op,
                    a: ix.name(ta),
                    b: ix.name(tb),
                });
            }
            if fam == Family::Unsigned && signed {
                return Err(IntDotError::ComponentsNotUnsigned {
                    op,
                    which: "Vector 1",
                    ty: ix.name(ta),
                });
            }
            if fam != Family::Signed && signed_b {
                return Err(IntDotError::ComponentsNotUnsigned {
                    op,
                    which: "Vector 2",
                    ty: ix.name(tb),
                });
            }
            if result_width < width {
                return Err(IntDotError::ResultTooNarrow {
                    op,
                    result: result_width,
                    component: width,
                });
            }
            let all = ix.has_capability("DotProductInputAll");
            if count == 4 && width == 8 {
                if !all && !ix.has_capability("DotProductInput4x8Bit") {
                    return Err(IntDotError::NeedsInput4x8Bit { op });
                }
            } else if !all {
                return Err(IntDotError::NeedsInputAll {
                    op,
                    ty: ix.name(ta),
                });
            }
        }
        _ => {
            return Err(IntDotError::ScalarVectorMix {
                op,
                a: ix.name(ta),
                b: ix.name(tb),
            });
        }
    }
    Ok(())
}
