//! Rules of SPV_VALVE_mixed_float_dot_product (shared/seeds/003, rev 1) and of the
//! SPV_KHR_bfloat16 / SPV_EXT_float8 types they rely on (reference/mixedfloat.md §1.1, §2, §3.1).
//!
//! - OpFDot2MixAcc32VALVE / OpFDot2MixAcc16VALVE / OpFDot4MixAcc32VALVE: result, vector and
//!   accumulator types, and the capability of each input encoding. Two rules SPIRV-Tools (2026)
//!   misses are enforced: both vectors have the required length, and Dot4 inputs are E4M3/E5M2
//!   only (no E8M0 or other 8-bit encodings).
//! - OpTypeFloat encodings: BFloat16KHR is 16 bits and needs BFloat16TypeKHR; Float8E4M3EXT /
//!   Float8E5M2EXT are 8 bits and need Float8EXT; an 8-bit float needs an encoding.
//! - bf16/fp8 values are not operands or results of arithmetic, relational, derivative, atomic,
//!   group or non-uniform instructions, except OpDot on bf16 (with BFloat16DotProductKHR),
//!   OpCooperativeMatrixMulAddKHR, OpSelect and the VALVE instructions.

use crate::Options;
use crate::error::ValError;
use spvx_spirv::index::{ModuleIndex, Type};
use spvx_spirv::instruction::{Id, Instruction};
use spvx_spirv::op::Op;
use thiserror::Error;

/// Opcodes and encodings of this concern.
pub mod op {
    pub const BFLOAT16: u32 = 0;
    pub const E4M3: u32 = 4214;
    pub const E5M2: u32 = 4215;
}

/// A broken rule of the VALVE instructions or of the bf16/fp8 types.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MixedDotError {
    #[error(
        "{op}: Result Type {ty} must be a scalar floating-point type using the IEEE 754 encoding with a width of 32 bits"
    )]
    ResultNotF32 { op: String, ty: String },
    #[error(
        "{op}: Result Type {ty} must be a scalar floating-point type equal to the components of Vector 1 and Vector 2"
    )]
    ResultNotComponent { op: String, ty: String },
    #[error(
        "{op}: {which} ({ty}) must be a vector of 2 components of 16-bit floats using the IEEE 754 or BFloat16KHR encoding"
    )]
    Dot2Vector {
        op: String,
        which: &'static str,
        ty: String,
    },
    #[error(
        "{op}: {which} ({ty}) must be a vector of 4 components of 8-bit floats using the Float8E4M3EXT or Float8E5M2EXT encoding"
    )]
    Dot4Vector {
        op: String,
        which: &'static str,
        ty: String,
    },
    #[error("{op}: Vector 1 ({a}) and Vector 2 ({b}) must have the same type")]
    NotSameType { op: String, a: String, b: String },
    #[error("{op}: the type of Accumulator ({acc}) must be the same as Result Type ({ty})")]
    AccumulatorType { op: String, acc: String, ty: String },
    #[error("{op}: {what} inputs need capability {capability}")]
    NeedsCapability {
        op: String,
        what: &'static str,
        capability: &'static str,
    },
    #[error("capability {capability} requires extension {extension}")]
    CapabilityNeedsExtension {
        capability: &'static str,
        extension: &'static str,
    },
    #[error("OpTypeFloat: the {encoding} encoding requires a width of {expected} (got {width})")]
    EncodingWidth {
        encoding: &'static str,
        expected: u32,
        width: u32,
    },
    #[error("OpTypeFloat: the {encoding} encoding needs capability {capability}")]
    EncodingCapability {
        encoding: &'static str,
        capability: &'static str,
    },
    #[error("OpTypeFloat: 8-bit floating point type requires an encoding")]
    Float8NeedsEncoding,
    #[error("OpTypeFloat: unknown floating point encoding {0}")]
    UnknownEncoding(u32),
    #[error(
        "{op}: {format} values may not be used by this instruction (SPV_KHR_bfloat16 / SPV_EXT_float8 list the instructions allowed)"
    )]
    ArithmeticOnSpecialFloat { op: String, format: &'static str },
    #[error("OpDot on bfloat16 values needs capability BFloat16DotProductKHR")]
    DotNeedsBFloat16DotProduct,
}

/// Appends every error of this concern to `out`.
pub fn check(ix: &ModuleIndex, _opts: &Options, out: &mut Vec<ValError>) {
    for (index, inst) in ix.insts.iter().enumerate() {
        let result = match inst.opcode {
            Op::FDot2MixAcc32VALVE | Op::FDot2MixAcc16VALVE | Op::FDot4MixAcc32VALVE => {
                check_dot(ix, inst)
            }
            Op::TypeFloat => check_float_type(ix, inst),
            Op::Capability => check_capability(ix, inst),
            _ => check_use(ix, inst),
        };
        if let Err(e) = result {
            out.push(ValError::at(index, e));
        }
    }
}

/// The encoding of a bf16/fp8 scalar, or of the components of a vector / cooperative matrix.
fn special_encoding(ix: &ModuleIndex, ty: Id) -> Option<u32> {
    let scalar = match ix.ty(ty)? {
        Type::Vector { component, .. } => *component,
        Type::CooperativeMatrix { component, .. } => *component,
        _ => ty,
    };
    ix.float_type(scalar).and_then(|(_, e)| e)
}

fn encoding_name(e: u32) -> &'static str {
    match e {
        op::BFLOAT16 => "bfloat16",
        op::E4M3 | op::E5M2 => "fp8",
        _ => "special float",
    }
}

fn check_use(ix: &ModuleIndex, inst: &Instruction) -> Result<(), MixedDotError> {
    let class = ix.grammar.instruction(inst.opcode).map_or("", |d| d.class);
    let denied = matches!(
        class,
        "Arithmetic"
            | "Relational_and_Logical"
            | "Derivative"
            | "Atomic"
            | "Group"
            | "Non-Uniform"
            | "Bit"
    );
    if !denied || matches!(inst.opcode, Op::Select | Op::CooperativeMatrixMulAddKHR) {
        return Ok(());
    }
    let types = inst
        .result_type
        .into_iter()
        .chain(inst.referenced_ids().filter_map(|v| ix.type_of(v)));
    let mut found = None;
    for t in types {
        if let Some(e) = special_encoding(ix, t) {
            found = Some(e);
            break;
        }
    }
    let Some(e) = found else { return Ok(()) };
    if inst.opcode == Op::Dot && e == op::BFLOAT16 {
        if ix.has_capability("BFloat16DotProductKHR") {
            return Ok(());
        }
        return Err(MixedDotError::DotNeedsBFloat16DotProduct);
    }
    Err(MixedDotError::ArithmeticOnSpecialFloat {
        op: inst.opcode.name().to_string(),
        format: encoding_name(e),
    })
}

fn check_capability(ix: &ModuleIndex, inst: &Instruction) -> Result<(), MixedDotError> {
    let needs = match inst.operands.first().and_then(|o| o.word()) {
        Some(6914) => ("DotProductBFloat16AccVALVE", "SPV_KHR_bfloat16"),
        Some(6915) => ("DotProductFloat8AccFloat32VALVE", "SPV_EXT_float8"),
        _ => return Ok(()),
    };
    if ix.has_extension(needs.1) {
        Ok(())
    } else {
        Err(MixedDotError::CapabilityNeedsExtension {
            capability: needs.0,
            extension: needs.1,
        })
    }
}

fn check_float_type(ix: &ModuleIndex, inst: &Instruction) -> Result<(), MixedDotError> {
    let Some((width, encoding)) = inst.result.and_then(|id| ix.float_type(id)) else {
        return Ok(());
    };
    let (name, expected, capability) = match encoding {
        None if width == 8 => return Err(MixedDotError::Float8NeedsEncoding),
        None => return Ok(()),
        Some(op::BFLOAT16) => ("BFloat16KHR", 16, "BFloat16TypeKHR"),
        Some(op::E4M3) => ("Float8E4M3EXT", 8, "Float8EXT"),
        Some(op::E5M2) => ("Float8E5M2EXT", 8, "Float8EXT"),
        Some(other) => return Err(MixedDotError::UnknownEncoding(other)),
    };
    if width != expected {
        return Err(MixedDotError::EncodingWidth {
            encoding: name,
            expected,
            width,
        });
    }
    if !ix.has_capability(capability) {
        return Err(MixedDotError::EncodingCapability {
            encoding: name,
            capability,
        });
    }
    Ok(())
}

fn check_dot(ix: &ModuleIndex, inst: &Instruction) -> Result<(), MixedDotError> {
    let op = inst.opcode.name().to_string();
    let result_ty = inst.result_type.unwrap_or(0);
    let ta = ModuleIndex::operand_id(inst, 0)
        .and_then(|v| ix.type_of(v))
        .unwrap_or(0);
    let tb = ModuleIndex::operand_id(inst, 1)
        .and_then(|v| ix.type_of(v))
        .unwrap_or(0);
    let acc_ty = ModuleIndex::operand_id(inst, 2)
        .and_then(|v| ix.type_of(v))
        .unwrap_or(0);
    // The input vectors: (count, component type, width, encoding).
    let vector = |t: Id| match ix.ty(t) {
        Some(Type::Vector { component, count }) => ix
            .float_type(*component)
            .map(|(w, e)| (*count, *component, w, e)),
        _ => None,
    };
    let dot4 = inst.opcode == Op::FDot4MixAcc32VALVE;
    let mut encodings = Vec::new();
    for (which, t) in [("Vector 1", ta), ("Vector 2", tb)] {
        let v = vector(t);
        let ok = match v {
            Some((4, _, 8, Some(e))) if dot4 => e == op::E4M3 || e == op::E5M2,
            Some((2, _, 16, e)) if !dot4 => e.is_none() || e == Some(op::BFLOAT16),
            _ => false,
        };
        if !ok {
            let ty = ix.name(t);
            return Err(if dot4 {
                MixedDotError::Dot4Vector { op, which, ty }
            } else {
                MixedDotError::Dot2Vector { op, which, ty }
            });
        }
        encodings.push(v.map(|(_, c, _, e)| (c, e)));
    }
    // Dot2: "Vector 1 and Vector 2 must have the same type" (Dot4 allows E4M3 x E5M2).
    if !dot4 && ta != tb {
        return Err(MixedDotError::NotSameType {
            op,
            a: ix.name(ta),
            b: ix.name(tb),
        });
    }
    let (component, encoding) = encodings[0].unwrap_or((0, None));
    let result_ok = if inst.opcode == Op::FDot2MixAcc16VALVE {
        result_ty == component
    } else {
        ix.float_type(result_ty) == Some((32, None))
    };
    if !result_ok {
        let ty = ix.name(result_ty);
        return Err(if inst.opcode == Op::FDot2MixAcc16VALVE {
            MixedDotError::ResultNotComponent { op, ty }
        } else {
            MixedDotError::ResultNotF32 { op, ty }
        });
    }
    if acc_ty != result_ty {
        return Err(MixedDotError::AccumulatorType {
            op,
            acc: ix.name(acc_ty),
            ty: ix.name(result_ty),
        });
    }
    let (what, capability) = match (inst.opcode, encoding) {
        (Op::FDot4MixAcc32VALVE, _) => ("fp8", "DotProductFloat8AccFloat32VALVE"),
        (_, Some(_)) => ("bfloat16", "DotProductBFloat16AccVALVE"),
        (Op::FDot2MixAcc32VALVE, None) => ("IEEE float16", "DotProductFloat16AccFloat32VALVE"),
        _ => ("IEEE float16", "DotProductFloat16AccFloat16VALVE"),
    };
    if !ix.has_capability(capability) {
        return Err(MixedDotError::NeedsCapability {
            op,
            what,
            capability,
        });
    }
    Ok(())
}
