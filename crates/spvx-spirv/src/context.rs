//! What earlier instructions tell about later ones: the facts needed to lay out operands whose
//! size or meaning depends on the module (constant widths, `OpSwitch` literals, extended
//! instruction sets).

use crate::instruction::{Id, Instruction, OperandValue};
use crate::op::Op;
use std::collections::HashMap;

/// A scalar numeric type, as far as literal encoding is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NumericType {
    /// `OpTypeInt` of any width (SPV_INTEL_arbitrary_precision_integers allows any).
    Int { width: u32, signed: bool },
    /// `OpTypeFloat`, with its `FPEncoding` operand if it has one.
    Float { width: u32, encoding: Option<u32> },
}

impl NumericType {
    /// The bit width.
    pub fn width(self) -> u32 {
        match self {
            NumericType::Int { width, .. } | NumericType::Float { width, .. } => width,
        }
    }

    /// How many words a literal of this type occupies: one for 32 bits or fewer, else
    /// `ceil(width / 32)`.
    pub fn literal_words(self) -> usize {
        (self.width().max(1) as usize).div_ceil(32)
    }
}

/// Facts gathered from the instructions seen so far.
#[derive(Clone, Debug, Default)]
pub struct ModuleContext {
    ext_sets: HashMap<Id, String>,
    numeric: HashMap<Id, NumericType>,
    value_types: HashMap<Id, Id>,
}

impl ModuleContext {
    pub fn new() -> Self {
        Self::default()
    }

    /// Records what `inst` declares.
    pub fn observe(&mut self, inst: &Instruction) {
        let Some(result) = inst.result else { return };
        if let Some(ty) = inst.result_type {
            self.value_types.insert(result, ty);
        }
        match inst.opcode {
            Op::ExtInstImport => {
                if let Some(name) = inst.operands.first().and_then(|o| o.string()) {
                    self.ext_sets.insert(result, name.to_string());
                }
            }
            Op::TypeInt => {
                let width = inst.operands.first().and_then(|o| o.word());
                let signed = inst.operands.get(1).and_then(|o| o.word());
                if let (Some(width), Some(signed)) = (width, signed) {
                    let signed = signed != 0;
                    self.numeric
                        .insert(result, NumericType::Int { width, signed });
                }
            }
            Op::TypeFloat => {
                if let Some(width) = inst.operands.first().and_then(|o| o.word()) {
                    let encoding = match inst.operands.get(1).map(|o| &o.value) {
                        Some(OperandValue::Word(e)) => Some(*e),
                        _ => None,
                    };
                    self.numeric
                        .insert(result, NumericType::Float { width, encoding });
                }
            }
            _ => {}
        }
    }

    /// The import name of the extended instruction set with this id.
    pub fn ext_set(&self, id: Id) -> Option<&str> {
        self.ext_sets.get(&id).map(String::as_str)
    }

    /// The numeric type declared with this id.
    pub fn numeric_type(&self, type_id: Id) -> Option<NumericType> {
        self.numeric.get(&type_id).copied()
    }

    /// The result type of the value with this id.
    pub fn type_of(&self, value: Id) -> Option<Id> {
        self.value_types.get(&value).copied()
    }
}
