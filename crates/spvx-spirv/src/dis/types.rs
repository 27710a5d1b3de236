//! The few facts about a module the printer needs: numeric types (to format literals), the
//! types of `OpSwitch` selectors, and extended instruction set names.
//!
//! Lighter than [`crate::context::ModuleContext`]: it records value types only for the ids
//! that select an `OpSwitch`, so printing a large module does not build a map of every value.

use crate::context::NumericType;
use crate::instruction::{Id, Instruction, OperandValue};
use crate::op::Op;
use rustc_hash::FxHashMap as FastMap;

/// Module facts for printing.
#[derive(Debug, Default)]
pub struct ModuleTypes {
    numeric: FastMap<Id, NumericType>,
    selector_types: FastMap<Id, Id>,
    ext_sets: FastMap<Id, String>,
}

impl ModuleTypes {
    pub fn collect(instructions: &[Instruction]) -> Self {
        let mut t = ModuleTypes::default();
        for inst in instructions {
            if inst.opcode == Op::Switch
                && let Some(sel) = inst.operands.first().and_then(|o| o.id())
            {
                t.selector_types.insert(sel, 0);
            }
        }
        for inst in instructions {
            let Some(result) = inst.result else { continue };
            let word = |i: usize| inst.operands.get(i).and_then(|o| o.word());
            match inst.opcode {
                Op::TypeInt => {
                    if let (Some(width), Some(s)) = (word(0), word(1)) {
                        let signed = s != 0;
                        t.numeric.insert(result, NumericType::Int { width, signed });
                    }
                }
                Op::TypeFloat => {
                    if let Some(width) = word(0) {
                        let encoding = match inst.operands.get(1).map(|o| &o.value) {
                            Some(OperandValue::Word(e)) => Some(*e),
                            _ => None,
                        };
                        t.numeric
                            .insert(result, NumericType::Float { width, encoding });
                    }
                }
                Op::ExtInstImport => {
                    if let Some(s) = inst.operands.first().and_then(|o| o.string()) {
                        t.ext_sets.insert(result, s.to_string());
                    }
                }
                _ => {}
            }
            if let (Some(ty), Some(slot)) = (inst.result_type, t.selector_types.get_mut(&result)) {
                *slot = ty;
            }
        }
        t
    }

    /// The numeric type declared with this id.
    pub fn numeric_type(&self, type_id: Id) -> Option<NumericType> {
        self.numeric.get(&type_id).copied()
    }

    /// The type of an `OpSwitch` selector.
    pub fn selector_type(&self, selector: Id) -> Option<Id> {
        self.selector_types
            .get(&selector)
            .copied()
            .filter(|&t| t != 0)
    }

    /// The import name of an extended instruction set.
    pub fn ext_set(&self, id: Id) -> Option<&str> {
        self.ext_sets.get(&id).map(String::as_str)
    }
}
