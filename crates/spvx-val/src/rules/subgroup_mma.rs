//! Operand rules of `OpSubgroupMatrixMultiplyAccumulateINTEL` (SPV_INTEL_subgroup_matrix_multiply_accumulate
//! rev 1; reference/dpas.md §5).
//!
//! From the extension text: Result Type, Matrix A, B and C are scalars or vectors of
//! floating-point or integer type; K Dim comes from a constant instruction of scalar 32-bit
//! integer type; C has M rows, one per Result component; B elements of 16 bits or fewer are
//! packed into 32-bit components; the operand table marks the packed int8/int4/fp16/bf16 bits
//! and the A/B Signed bits "only valid for integer operand types" and TF32 "only valid for
//! 32-bit float operand types".
//! spvx decisions (docs): one interpretation bit per matrix; C-bf16 / Result-bf16 bits need
//! integer C / Result components; Result Type equals C's type unless one of those bits is set;
//! with K evaluable, B has K·bits/32 components (K for 32-bit elements).

use crate::Options;
use crate::error::ValError;
use spvx_spirv::index::{ModuleIndex, Type};
use spvx_spirv::instruction::{Id, Instruction};
use spvx_spirv::op::Op;
use thiserror::Error;

/// A broken operand rule of OpSubgroupMatrixMultiplyAccumulateINTEL.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SubgroupMmaError {
    #[error(
        "OpSubgroupMatrixMultiplyAccumulateINTEL: {what} ({ty}) must be a scalar or vector of floating-point or integer type"
    )]
    NotNumeric { what: &'static str, ty: String },
    #[error(
        "OpSubgroupMatrixMultiplyAccumulateINTEL: K Dim {0} must come from a constant instruction with scalar 32-bit integer type"
    )]
    KDim(String),
    #[error(
        "OpSubgroupMatrixMultiplyAccumulateINTEL: Matrix C ({c}) must have M = {m} components, like Result Type"
    )]
    CRows { c: String, m: u32 },
    #[error(
        "OpSubgroupMatrixMultiplyAccumulateINTEL: Result Type {result} must be the type of Matrix C ({c})"
    )]
    ResultNotC { result: String, c: String },
    #[error(
        "OpSubgroupMatrixMultiplyAccumulateINTEL: Matrix {matrix} has more than one interpretation bit in the operands (0x{mask:x})"
    )]
    TwoInterpretations { matrix: char, mask: u32 },
    #[error(
        "OpSubgroupMatrixMultiplyAccumulateINTEL: operand {operand} is only valid for {needs} components of {what} ({ty})"
    )]
    OperandType {
        operand: &'static str,
        needs: &'static str,
        what: &'static str,
        ty: String,
    },
    #[error(
        "OpSubgroupMatrixMultiplyAccumulateINTEL: Matrix A ({a}) has more components than M = {m}"
    )]
    ARows { a: String, m: u32 },
    #[error(
        "OpSubgroupMatrixMultiplyAccumulateINTEL: Matrix B ({b}) must have {expected} components for K = {k} and {bits}-bit elements"
    )]
    BLength {
        b: String,
        expected: u64,
        k: u64,
        bits: u32,
    },
    #[error(
        "OpSubgroupMatrixMultiplyAccumulateINTEL: Matrix B ({b}) must have 32-bit components when its elements are {bits}-bit"
    )]
    BNotPacked32 { b: String, bits: u32 },
}

/// Interpretation bits: (A bit, B bit, name, element bits, needs float32 (TF32) or integer).
const INTERPRETATIONS: [(u32, u32, &str, u32, bool); 5] = [
    (0x10, 0x20, "PackedInt8INTEL", 8, false),
    (0x40, 0x80, "PackedInt4INTEL", 4, false),
    (0x100, 0x200, "TF32INTEL", 32, true),
    (0x400, 0x800, "PackedFloat16INTEL", 16, false),
    (0x1000, 0x2000, "PackedBFloat16INTEL", 16, false),
];

/// Appends every error of this concern to `out`.
pub fn check(ix: &ModuleIndex, _opts: &Options, out: &mut Vec<ValError>) {
    for (index, inst) in ix.insts.iter().enumerate() {
        if inst.opcode == Op::SubgroupMatrixMultiplyAccumulateINTEL
            && let Err(e) = check_one(ix, inst)
        {
            out.push(ValError::at(index, e));
        }
    }
}

/// `(count, component type)` of a scalar or vector of int or float.
fn numeric(ix: &ModuleIndex, ty: Id) -> Option<(u32, Id)> {
    let comp = ix.scalar_or_component(ty)?;
    match ix.ty(comp)? {
        Type::Int { .. } | Type::Float { .. } => Some((ix.component_count(ty)?, comp)),
        _ => None,
    }
}

fn width_of(ix: &ModuleIndex, comp: Id) -> u32 {
    ix.int_type(comp)
        .map(|(w, _)| w)
        .or_else(|| ix.float_type(comp).map(|(w, _)| w))
        .unwrap_or(0)
}

fn check_one(ix: &ModuleIndex, inst: &Instruction) -> Result<(), SubgroupMmaError> {
    let result_ty = inst.result_type.unwrap_or(0);
    let ty_of = |i: usize| {
        ModuleIndex::operand_id(inst, i)
            .and_then(|v| ix.type_of(v))
            .unwrap_or(0)
    };
    let (ta, tb, tc) = (ty_of(1), ty_of(2), ty_of(3));
    let mut shapes = Vec::new();
    for (what, t) in [
        ("Result Type", result_ty),
        ("Matrix A", ta),
        ("Matrix B", tb),
        ("Matrix C", tc),
    ] {
        shapes.push(numeric(ix, t).ok_or_else(|| SubgroupMmaError::NotNumeric {
            what,
            ty: ix.name(t),
        })?);
    }
    let [
        (m, r_comp),
        (a_count, a_comp),
        (b_count, b_comp),
        (c_count, c_comp),
    ] = shapes[..]
    else {
        return Ok(());
    };
    let k_dim = ModuleIndex::operand_id(inst, 0).unwrap_or(0);
    if !ix.is_constant(k_dim)
        || ix
            .type_of(k_dim)
            .and_then(|t| ix.int_type(t))
            .map(|(w, _)| w)
            != Some(32)
    {
        return Err(SubgroupMmaError::KDim(ix.name(k_dim)));
    }
    let mask = inst.operands.get(4).and_then(|o| o.word()).unwrap_or(0);
    if c_count != m {
        return Err(SubgroupMmaError::CRows { c: ix.name(tc), m });
    }
    if mask & 0xC == 0 && tc != result_ty {
        return Err(SubgroupMmaError::ResultNotC {
            result: ix.name(result_ty),
            c: ix.name(tc),
        });
    }
    // The Signed bits sit under the operand table's "Only valid for integer operand types".
    for (bit, operand, comp, what, ty) in [
        (0x1, "MatrixASignedComponentsINTEL", a_comp, "Matrix A", ta),
        (0x2, "MatrixBSignedComponentsINTEL", b_comp, "Matrix B", tb),
        (0x4, "MatrixCBFloat16INTEL", c_comp, "Matrix C", tc),
        (
            0x8,
            "MatrixResultBFloat16INTEL",
            r_comp,
            "Result Type",
            result_ty,
        ),
    ] {
        if mask & bit != 0 && ix.int_type(comp).is_none() {
            return Err(SubgroupMmaError::OperandType {
                operand,
                needs: "integer",
                what,
                ty: ix.name(ty),
            });
        }
    }
    if a_count > m {
        return Err(SubgroupMmaError::ARows { a: ix.name(ta), m });
    }
    let mut b_bits = width_of(ix, b_comp);
    for (matrix, shift, comp, ty) in [('A', 0, a_comp, ta), ('B', 1, b_comp, tb)] {
        let chosen: Vec<_> = INTERPRETATIONS
            .iter()
            .filter(|i| mask & (if shift == 0 { i.0 } else { i.1 }) != 0)
            .collect();
        if chosen.len() > 1 {
            return Err(SubgroupMmaError::TwoInterpretations { matrix, mask });
        }
        if let Some(&&(_, _, name, bits, tf32)) = chosen.first() {
            let ok = if tf32 {
                ix.float_type(comp) == Some((32, None))
            } else {
                ix.int_type(comp).is_some()
            };
            if !ok {
                return Err(SubgroupMmaError::OperandType {
                    operand: name,
                    needs: if tf32 { "32-bit float" } else { "integer" },
                    what: if matrix == 'A' {
                        "Matrix A"
                    } else {
                        "Matrix B"
                    },
                    ty: ix.name(ty),
                });
            }
            if matrix == 'B' {
                b_bits = bits;
            }
        }
    }
    if b_bits <= 16 && width_of(ix, b_comp) != 32 {
        return Err(SubgroupMmaError::BNotPacked32 {
            b: ix.name(tb),
            bits: b_bits,
        });
    }
    if let Some(k) = ix.const_u64(k_dim) {
        let expected = if b_bits <= 16 {
            k * u64::from(b_bits) / 32
        } else {
            k
        };
        if u64::from(b_count) != expected {
            return Err(SubgroupMmaError::BLength {
                b: ix.name(tb),
                expected,
                k,
                bits: b_bits,
            });
        }
    }
    Ok(())
}
