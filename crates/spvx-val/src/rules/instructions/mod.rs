//! Rules of result and operand types of the core instructions, by family: arithmetic, bitwise
//! and logical ([`arith`]), conversion ([`convert`]), composite ([`composite`]), memory
//! ([`memory`]), control flow and function calls ([`control`]), constants ([`constants`]) and
//! group non-uniform instructions ([`group`]).
//!
//! Each rule is the one the SPIR-V specification states for the instruction (§3.52, "Result
//! Type must be ..."); the messages follow spirv-val's wording where it has one. An instruction
//! whose types cannot be resolved (undefined ids, unknown or cooperative-matrix types) is left
//! to the other checks: these rules only judge what they can see.

mod arith;
mod atomics;
mod bits;
mod composite;
mod constants;
mod control;
mod convert;
mod glsl;
mod group;
mod matrix;
mod memory;
mod spec_op;

use crate::Options;
use crate::error::ValError;
use spvx_spirv::index::{ModuleIndex, Type};
use spvx_spirv::instruction::{Id, Instruction};
use spvx_spirv::op::Op;
use thiserror::Error;

/// A broken rule of an instruction's result or operand types.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum InstructionError {
    /// The Result Type is not of the kind the instruction requires.
    #[error("{opcode}: expected {expected} as Result Type, found {found}")]
    ResultType {
        opcode: String,
        expected: String,
        found: String,
    },
    /// An operand's type is not of the kind the instruction requires.
    #[error("{opcode}: expected {operand} to be {expected}, found {found}")]
    OperandType {
        opcode: String,
        operand: String,
        expected: String,
        found: String,
    },
    /// Any other rule of the instruction, stated in the message.
    #[error("{opcode}: {rule}")]
    Rule { opcode: String, rule: String },
}

/// Appends every instruction-type error to `out`.
pub fn check(ix: &ModuleIndex, opts: &Options, out: &mut Vec<ValError>) {
    for (index, inst) in ix.insts.iter().enumerate() {
        let cx = Cx {
            ix,
            inst,
            index,
            opts,
        };
        let result = arith::check(&cx)
            .and_then(|()| convert::check(&cx))
            .and_then(|()| composite::check(&cx))
            .and_then(|()| memory::check(&cx))
            .and_then(|()| control::check(&cx))
            .and_then(|()| constants::check(&cx))
            .and_then(|()| atomics::check(&cx))
            .and_then(|()| bits::check(&cx))
            .and_then(|()| matrix::check(&cx))
            .and_then(|()| glsl::check(&cx))
            .and_then(|()| group::check(&cx))
            .and_then(|()| spec_op::check(&cx));
        if let Err(e) = result {
            out.push(ValError::at(index, e));
        }
    }
}

/// What one rule sees: the index and the instruction under check.
pub(crate) struct Cx<'i, 'a> {
    pub ix: &'i ModuleIndex,
    pub inst: &'a Instruction,
    pub index: usize,
    /// The options (target environment) of this validation.
    pub opts: &'i Options,
}

/// The outcome of a rule: `Ok` also when the rule cannot judge.
pub(crate) type Check = Result<(), InstructionError>;

/// The scalar kind of a numeric or boolean type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Bool,
    Int,
    Float,
}

/// A scalar or vector type seen as (scalar kind, component width, component count, component
/// type id, signedness).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Shape {
    pub kind: Kind,
    pub width: u32,
    pub count: u32,
    pub component: Id,
    pub signed: bool,
    pub encoding: Option<u32>,
    pub vector: bool,
}

impl Shape {
    /// True when the two have the same number of components, or when either is a long vector
    /// whose count is a specialization constant (`count` 0: unknown until specialised, so
    /// nothing to compare).
    pub fn same_count(&self, other: &Shape) -> bool {
        self.count == other.count || self.count == 0 || other.count == 0
    }
}

impl<'a> Cx<'_, 'a> {
    pub fn opcode(&self) -> String {
        self.inst.opcode.name().to_string()
    }

    /// The id of operand `i`.
    pub fn id(&self, i: usize) -> Option<Id> {
        self.inst.operands.get(i).and_then(|o| o.id())
    }

    /// The literal word of operand `i`.
    pub fn word(&self, i: usize) -> Option<u32> {
        self.inst.operands.get(i).and_then(|o| o.word())
    }

    /// The type id of the value in operand `i`.
    pub fn type_of(&self, i: usize) -> Option<Id> {
        self.id(i).and_then(|v| self.ix.type_of(v))
    }

    /// The scalar-or-vector shape of type `t`; a long vector whose component count is a
    /// specialization constant (SPV_EXT_long_vector) has `count` 0.
    pub fn shape(&self, t: Id) -> Option<Shape> {
        let (component, count, vector) = match self.ix.ty(t)? {
            Type::Vector { component, count } => (*component, *count, true),
            Type::Other(Op::TypeVectorIdEXT) => (self.ix.spec_vector(t)?.0, 0, true),
            _ => (t, 1, false),
        };
        let (kind, width, signed, encoding) = match self.ix.ty(component)? {
            Type::Bool => (Kind::Bool, 1, false, None),
            Type::Int { width, signed } => (Kind::Int, *width, *signed, None),
            Type::Float { width, encoding } => (Kind::Float, *width, false, *encoding),
            _ => return None,
        };
        Some(Shape {
            kind,
            width,
            count,
            component,
            signed,
            encoding,
            vector,
        })
    }

    /// The result type's shape, if the result type is a scalar or vector.
    pub fn result_shape(&self) -> Option<Shape> {
        self.inst.result_type.and_then(|t| self.shape(t))
    }

    /// True when `t` is a type these rules leave to others (cooperative matrices, tensors,
    /// opaque or unknown types) — or is not resolvable.
    pub fn opaque(&self, t: Option<Id>) -> bool {
        match t.and_then(|t| self.ix.ty(t)) {
            None => true,
            // A long vector of specialization-constant length is a vector to these rules.
            Some(Type::Other(Op::TypeVectorIdEXT)) => false,
            Some(Type::CooperativeMatrix { .. } | Type::Tensor { .. } | Type::Other(_)) => true,
            Some(_) => false,
        }
    }

    /// True when the result type or any value operand's type is one these rules leave alone.
    pub fn any_opaque(&self) -> bool {
        if self.inst.result_type.is_some() && self.opaque(self.inst.result_type) {
            return true;
        }
        self.inst.operands.iter().any(|o| {
            o.id()
                .is_some_and(|v| self.ix.type_of(v).is_some() && self.opaque(self.ix.type_of(v)))
        })
    }

    /// `%name` of a type id, or `<none>`.
    pub fn tname(&self, t: Option<Id>) -> String {
        t.map_or_else(|| "<none>".to_string(), |t| self.ix.name(t))
    }

    pub fn result_type_err(&self, expected: &str) -> InstructionError {
        InstructionError::ResultType {
            opcode: self.opcode(),
            expected: expected.to_string(),
            found: self.tname(self.inst.result_type),
        }
    }

    /// An error about operand `i` (named `what`), showing its type.
    pub fn operand_err(&self, i: usize, what: &str, expected: &str) -> InstructionError {
        InstructionError::OperandType {
            opcode: self.opcode(),
            operand: what.to_string(),
            expected: expected.to_string(),
            found: self.tname(self.type_of(i)),
        }
    }

    pub fn rule(&self, rule: impl Into<String>) -> InstructionError {
        InstructionError::Rule {
            opcode: self.opcode(),
            rule: rule.into(),
        }
    }
}

/// Fails with `e` unless `ok`.
pub(crate) fn ensure(ok: bool, e: impl FnOnce() -> InstructionError) -> Check {
    if ok { Ok(()) } else { Err(e()) }
}
