//! Type declarations resolved to a form the checks can match on.

use crate::instruction::{Id, Instruction, OperandValue};
use crate::op::Op;

/// A declared type. Ids refer to other types (or, for lengths and tensor rank/shape, to
/// constants).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Type {
    Void,
    Bool,
    /// `OpTypeInt`: any width (SPV_INTEL_arbitrary_precision_integers).
    Int {
        width: u32,
        signed: bool,
    },
    /// `OpTypeFloat`, with its `FPEncoding` when it has one (bf16, fp8).
    Float {
        width: u32,
        encoding: Option<u32>,
    },
    Vector {
        component: Id,
        count: u32,
    },
    Matrix {
        column: Id,
        count: u32,
    },
    Array {
        element: Id,
        length: Id,
    },
    RuntimeArray {
        element: Id,
    },
    Struct {
        members: Vec<Id>,
    },
    Pointer {
        storage_class: u32,
        pointee: Id,
    },
    Function {
        ret: Id,
        params: Vec<Id>,
    },
    /// `OpTypeTensorARM`.
    Tensor {
        element: Id,
        rank: Option<Id>,
        shape: Option<Id>,
    },
    /// `OpTypeCooperativeMatrixKHR`.
    CooperativeMatrix {
        component: Id,
        scope: Id,
        rows: Id,
        columns: Id,
        usage: Id,
    },
    /// Any other type (images, samplers, opaque, ...), by opcode.
    Other(Op),
}

impl Type {
    /// True for `Bool`, `Int` and `Float`.
    pub fn is_scalar(&self) -> bool {
        matches!(self, Type::Bool | Type::Int { .. } | Type::Float { .. })
    }

    /// True for an IEEE float (no `FPEncoding`).
    pub fn is_ieee_float(&self) -> bool {
        matches!(self, Type::Float { encoding: None, .. })
    }
}

/// The type an instruction declares, if it is a type declaration.
pub(super) fn resolve(inst: &Instruction) -> Option<Type> {
    let word = |i: usize| inst.operands.get(i).and_then(|o| o.word());
    let id = |i: usize| inst.operands.get(i).and_then(|o| o.id());
    let ids = |from: usize| -> Vec<Id> {
        inst.operands
            .iter()
            .skip(from)
            .filter_map(|o| o.id())
            .collect()
    };
    Some(match inst.opcode {
        Op::TypeVoid => Type::Void,
        Op::TypeBool => Type::Bool,
        Op::TypeInt => Type::Int {
            width: word(0)?,
            signed: word(1)? != 0,
        },
        Op::TypeFloat => Type::Float {
            width: word(0)?,
            encoding: match inst.operands.get(1).map(|o| &o.value) {
                Some(OperandValue::Word(e)) => Some(*e),
                _ => None,
            },
        },
        Op::TypeVector => Type::Vector {
            component: id(0)?,
            count: word(1)?,
        },
        Op::TypeMatrix => Type::Matrix {
            column: id(0)?,
            count: word(1)?,
        },
        Op::TypeArray => Type::Array {
            element: id(0)?,
            length: id(1)?,
        },
        Op::TypeRuntimeArray => Type::RuntimeArray { element: id(0)? },
        Op::TypeStruct => Type::Struct { members: ids(0) },
        Op::TypePointer => Type::Pointer {
            storage_class: word(0)?,
            pointee: id(1)?,
        },
        Op::TypeFunction => Type::Function {
            ret: id(0)?,
            params: ids(1),
        },
        Op::TypeTensorARM => Type::Tensor {
            element: id(0)?,
            rank: id(1),
            shape: id(2),
        },
        Op::TypeCooperativeMatrixKHR => Type::CooperativeMatrix {
            component: id(0)?,
            scope: id(1)?,
            rows: id(2)?,
            columns: id(3)?,
            usage: id(4)?,
        },
        other if is_type_decl(other) => Type::Other(other),
        _ => return None,
    })
}

/// True when the grammar classes `opcode` as a type declaration.
fn is_type_decl(opcode: Op) -> bool {
    crate::grammar::grammar()
        .instruction(opcode)
        .is_some_and(|i| i.class == "Type-Declaration")
}
