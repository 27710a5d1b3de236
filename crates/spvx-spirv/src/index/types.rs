//! Type declarations resolved to a form the checks can match on.

use spvx_spirv::instruction::{Id, Instruction, OperandValue};

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
    Other(u16),
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

mod op {
    pub const TYPE_VOID: u16 = 19;
    pub const TYPE_BOOL: u16 = 20;
    pub const TYPE_INT: u16 = 21;
    pub const TYPE_FLOAT: u16 = 22;
    pub const TYPE_VECTOR: u16 = 23;
    pub const TYPE_MATRIX: u16 = 24;
    pub const TYPE_ARRAY: u16 = 28;
    pub const TYPE_RUNTIME_ARRAY: u16 = 29;
    pub const TYPE_STRUCT: u16 = 30;
    pub const TYPE_POINTER: u16 = 32;
    pub const TYPE_FUNCTION: u16 = 33;
    pub const TYPE_TENSOR_ARM: u16 = 4163;
    pub const TYPE_COOPERATIVE_MATRIX_KHR: u16 = 4456;
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
        op::TYPE_VOID => Type::Void,
        op::TYPE_BOOL => Type::Bool,
        op::TYPE_INT => Type::Int {
            width: word(0)?,
            signed: word(1)? != 0,
        },
        op::TYPE_FLOAT => Type::Float {
            width: word(0)?,
            encoding: match inst.operands.get(1).map(|o| &o.value) {
                Some(OperandValue::Word(e)) => Some(*e),
                _ => None,
            },
        },
        op::TYPE_VECTOR => Type::Vector {
            component: id(0)?,
            count: word(1)?,
        },
        op::TYPE_MATRIX => Type::Matrix {
            column: id(0)?,
            count: word(1)?,
        },
        op::TYPE_ARRAY => Type::Array {
            element: id(0)?,
            length: id(1)?,
        },
        op::TYPE_RUNTIME_ARRAY => Type::RuntimeArray { element: id(0)? },
        op::TYPE_STRUCT => Type::Struct { members: ids(0) },
        op::TYPE_POINTER => Type::Pointer {
            storage_class: word(0)?,
            pointee: id(1)?,
        },
        op::TYPE_FUNCTION => Type::Function {
            ret: id(0)?,
            params: ids(1),
        },
        op::TYPE_TENSOR_ARM => Type::Tensor {
            element: id(0)?,
            rank: id(1),
            shape: id(2),
        },
        op::TYPE_COOPERATIVE_MATRIX_KHR => Type::CooperativeMatrix {
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
fn is_type_decl(opcode: u16) -> bool {
    spvx_spirv::grammar::grammar()
        .instruction(opcode)
        .is_some_and(|i| i.class == "Type-Declaration")
}
