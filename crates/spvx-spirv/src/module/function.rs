//! Functions and blocks of the module model.

use super::sections::{is_line, is_terminator};
use crate::instruction::{Id, Instruction};

/// One function: `OpFunction`, its parameters, its blocks (none for a declaration) and
/// `OpFunctionEnd`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    /// `OpLine`/`OpNoLine` standing between the previous function's `OpFunctionEnd` and this
    /// `OpFunction` (glslang emits them there). Before the first function they belong to the
    /// types/globals section instead, so this is empty for the first function.
    pub leading_lines: Vec<Instruction>,
    /// The `OpFunction` instruction.
    pub def: Instruction,
    /// The `OpFunctionParameter` instructions, with any `OpLine`/`OpNoLine` that stood among
    /// them or before the first block, in order.
    pub parameters: Vec<Instruction>,
    /// The blocks, in order. Empty for a function declaration.
    pub blocks: Vec<Block>,
    /// The `OpFunctionEnd` instruction.
    pub end: Instruction,
}

impl Function {
    /// The function's result id.
    pub fn id(&self) -> Option<Id> {
        self.def.result
    }

    /// True for a declaration (a function without a body, §2.4 item 10).
    pub fn is_declaration(&self) -> bool {
        self.blocks.is_empty()
    }

    /// The number of instructions the function flattens to.
    pub fn instruction_count(&self) -> usize {
        2 + self.leading_lines.len()
            + self.parameters.len()
            + self
                .blocks
                .iter()
                .map(|b| 1 + b.instructions.len())
                .sum::<usize>()
    }

    /// The function's instructions in order, without copying them.
    pub fn iter(&self) -> impl Iterator<Item = &Instruction> {
        self.leading_lines
            .iter()
            .chain(std::iter::once(&self.def))
            .chain(&self.parameters)
            .chain(self.blocks.iter().flat_map(Block::iter))
            .chain(std::iter::once(&self.end))
    }

    /// Appends the function's instructions in order.
    pub fn flatten_into(&self, out: &mut Vec<Instruction>) {
        out.extend(self.iter().cloned());
    }
}

/// One block: its `OpLabel` and the instructions after it, up to the next `OpLabel` or
/// `OpFunctionEnd`. In a module in logical layout the last instruction other than
/// `OpLine`/`OpNoLine` is the block's termination instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// The `OpLabel` instruction.
    pub label: Instruction,
    /// The instructions after the label, termination instruction included.
    pub instructions: Vec<Instruction>,
}

impl Block {
    /// The block's label id.
    pub fn id(&self) -> Option<Id> {
        self.label.result
    }

    /// The label and then the block's instructions, in order.
    pub fn iter(&self) -> impl Iterator<Item = &Instruction> {
        std::iter::once(&self.label).chain(&self.instructions)
    }

    /// The termination instruction: the last instruction other than `OpLine`/`OpNoLine`, if it
    /// is one.
    pub fn terminator(&self) -> Option<&Instruction> {
        self.instructions
            .iter()
            .rev()
            .find(|i| !is_line(i.opcode))
            .filter(|i| is_terminator(i.opcode))
    }
}
