//! Rules of type declarations (SPIR-V §2.8, §3.52.6): operand kinds of the core types (vector
//! components, matrix columns, array lengths, struct members, float widths) and no duplicate
//! declarations of non-aggregate types.
//!
//! Which capability a width needs (Int8, Float16, ...) is a rule of
//! [`super::capabilities`]; the encodings of floats (bf16, fp8) are rules of the extension
//! checks.

use crate::Options;
use crate::error::ValError;
use rustc_hash::FxHashMap as HashMap;
use spvx_spirv::index::{ModuleIndex, Type};
use spvx_spirv::instruction::{Id, Instruction, Operand};
use spvx_spirv::op::Op;
use thiserror::Error;

/// A broken rule of a type declaration.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TypeError {
    /// SPIR-V §2.8: "Two different type <id>s form, by definition, two different types", and
    /// non-aggregate types must not be declared twice with the same operands (spirv-val's
    /// "Duplicate non-aggregate type declarations are not allowed").
    #[error(
        "Duplicate non-aggregate type declarations are not allowed: {opcode} {id} has the same operands as {first}"
    )]
    Duplicate {
        opcode: String,
        id: String,
        first: String,
    },
    /// An operand of a type declaration is not of the required kind.
    #[error("{opcode} {id}: {rule}")]
    Operand {
        opcode: String,
        id: String,
        rule: String,
    },
}

/// Types that may be declared more than once with the same operands (spirv-val's list:
/// arrays, runtime arrays, structs and pointers).
fn may_repeat(opcode: Op) -> bool {
    matches!(
        opcode,
        Op::TypeArray
            | Op::TypeRuntimeArray
            | Op::TypeStruct
            | Op::TypePointer
            | Op::TypeUntypedPointerKHR
            | Op::TypeForwardPointer
    )
}

/// Appends every type-declaration error to `out`.
pub fn check(ix: &ModuleIndex, _opts: &Options, out: &mut Vec<ValError>) {
    let mut seen: HashMap<(Op, &[Operand]), Id> = HashMap::default();
    for (index, inst) in ix.insts.iter().enumerate() {
        let Some(id) = inst.result else { continue };
        if ix.ty(id).is_none() {
            continue;
        }
        if !may_repeat(inst.opcode) {
            if let Some(&first) = seen.get(&(inst.opcode, inst.operands.as_slice())) {
                out.push(ValError::at(
                    index,
                    TypeError::Duplicate {
                        opcode: inst.opcode.name().to_string(),
                        id: ix.name(id),
                        first: ix.name(first),
                    },
                ));
            } else {
                seen.insert((inst.opcode, inst.operands.as_slice()), id);
            }
        }
        if let Err(rule) = operands(ix, inst) {
            out.push(ValError::at(
                index,
                TypeError::Operand {
                    opcode: inst.opcode.name().to_string(),
                    id: ix.name(id),
                    rule,
                },
            ));
        }
    }
}

/// True when `id` names a declared type other than `OpTypeVoid`.
fn non_void_type(ix: &ModuleIndex, id: Id) -> bool {
    ix.ty(id).is_some_and(|t| *t != Type::Void)
}

/// The operand rules of one type declaration.
fn operands(ix: &ModuleIndex, inst: &Instruction) -> Result<(), String> {
    let id = |i: usize| inst.operands.get(i).and_then(|o| o.id());
    let word = |i: usize| inst.operands.get(i).and_then(|o| o.word());
    match inst.opcode {
        Op::TypeInt => {
            if word(0) == Some(0) {
                return Err("Width must be greater than 0".into());
            }
            if !matches!(word(1), Some(0 | 1)) {
                return Err("Signedness must be 0 or 1".into());
            }
            // SPIR-V §3.52.6 OpTypeInt, OpenCL environment: "Signedness ... must be 0 when
            // the Kernel capability is used" (spirv-val enforces it).
            if word(1) == Some(1) && ix.has_capability("Kernel") {
                return Err(
                    "The Signedness in OpTypeInt must always be 0 when Kernel capability is used"
                        .into(),
                );
            }
        }
        Op::TypeFloat => {
            let has_encoding = inst.operands.len() > 1;
            if !has_encoding && !matches!(word(0), Some(16 | 32 | 64)) {
                return Err(format!(
                    "a float without FP Encoding must be 16, 32 or 64 bits wide, not {}",
                    word(0).unwrap_or(0)
                ));
            }
        }
        Op::TypeVector => {
            let c = id(0).unwrap_or(0);
            if !ix.ty(c).is_some_and(Type::is_scalar) {
                return Err(format!(
                    "Component Type {} is not a scalar type",
                    ix.name(c)
                ));
            }
            // SPV_EXT_long_vector: "Modify OpTypeVector to allow a Component Count of 1".
            let least = if ix.has_capability("LongVectorEXT") {
                1
            } else {
                2
            };
            if word(1).is_some_and(|n| n < least) {
                return Err(format!(
                    "illegal number of components ({}): a vector has at least {least}",
                    word(1).unwrap_or(0)
                ));
            }
        }
        // SPV_EXT_long_vector (the opcode of OpTypeCooperativeVectorNV, whose operands follow
        // the same rules): "'Component Type' … must be a 'scalar type'. 'Component Count' must
        // be a 'constant instruction' with scalar 32-bit 'integer type'. It is treated as an
        // unsigned value and must be greater than zero."
        Op::TypeVectorIdEXT => {
            let c = id(0).unwrap_or(0);
            if !ix.ty(c).is_some_and(Type::is_scalar) {
                return Err(format!(
                    "Component Type {} is not a scalar type",
                    ix.name(c)
                ));
            }
            let n = id(1).unwrap_or(0);
            let int32 = matches!(ix.value_type(n), Some(Type::Int { width: 32, .. }));
            if !(ix.is_constant(n) && int32) {
                return Err(format!(
                    "Component Count {} is not a constant of 32-bit integer type",
                    ix.name(n)
                ));
            }
            if ix.const_u64(n) == Some(0) {
                return Err(format!(
                    "Component Count {} must be greater than zero",
                    ix.name(n)
                ));
            }
        }
        Op::TypeMatrix => {
            let c = id(0).unwrap_or(0);
            let float_vector = match ix.ty(c) {
                Some(Type::Vector { component, .. }) => {
                    matches!(ix.ty(*component), Some(Type::Float { .. }))
                }
                _ => false,
            };
            if !float_vector {
                return Err(format!(
                    "Column Type {} must be a vector of floating-point type",
                    ix.name(c)
                ));
            }
            if !matches!(word(1), Some(2..=4)) {
                return Err("a matrix has 2, 3 or 4 columns".into());
            }
        }
        Op::TypeArray => {
            let e = id(0).unwrap_or(0);
            if !non_void_type(ix, e) {
                return Err(format!(
                    "Element Type {} is not a non-void type",
                    ix.name(e)
                ));
            }
            let len = id(1).unwrap_or(0);
            let int_constant =
                ix.is_constant(len) && matches!(ix.value_type(len), Some(Type::Int { .. }));
            if !int_constant {
                return Err(format!(
                    "Length {} is not a constant of integer type",
                    ix.name(len)
                ));
            }
            if ix.const_u64(len) == Some(0) {
                return Err(format!("Length {} must be at least 1", ix.name(len)));
            }
        }
        Op::TypeRuntimeArray => {
            let e = id(0).unwrap_or(0);
            if !non_void_type(ix, e) {
                return Err(format!(
                    "Element Type {} is not a non-void type",
                    ix.name(e)
                ));
            }
        }
        Op::TypeStruct => {
            for m in inst.operands.iter().filter_map(|o| o.id()) {
                let forward = ix.def(m).is_some_and(|d| d.opcode == Op::TypePointer);
                if !forward && !non_void_type(ix, m) {
                    return Err(format!("member type {} is not a non-void type", ix.name(m)));
                }
            }
        }
        Op::TypeFunction => {
            let r = id(0).unwrap_or(0);
            if ix.ty(r).is_none() {
                return Err(format!("Return Type {} is not a type", ix.name(r)));
            }
            for p in inst.operands.iter().skip(1).filter_map(|o| o.id()) {
                if !non_void_type(ix, p) {
                    return Err(format!(
                        "parameter type {} is not a non-void type",
                        ix.name(p)
                    ));
                }
            }
        }
        _ => {}
    }
    Ok(())
}
