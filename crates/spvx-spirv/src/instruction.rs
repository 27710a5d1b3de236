//! One SPIR-V instruction as data: opcode, result type, result id and typed operands.
//!
//! This is the form every front end produces (binary reader, assembler, builder) and every back
//! end consumes (binary writer, disassembler, validator). Operands carry their grammar kind, so
//! a consumer never has to re-derive the layout.

use crate::grammar::KindId;
use crate::op::Op;

/// A SPIR-V `<id>`.
pub type Id = u32;

/// The value of one operand.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum OperandValue {
    /// A reference to an id (`IdRef`, `IdScope`, `IdMemorySemantics`).
    Id(Id),
    /// One word: a literal integer, an enum value or mask, an extended instruction number, a
    /// spec-constant opcode, or the bits of a 32-bit float literal.
    Word(u32),
    /// A context-dependent number (an `OpConstant` value, an `OpSwitch` case), low word first.
    /// Its width comes from a type: one word for types of 32 bits or fewer.
    Number(Vec<u32>),
    /// A literal string.
    String(String),
}

/// One operand: its grammar kind and value. Pair kinds appear as two operands, one per half.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Operand {
    pub kind: KindId,
    pub value: OperandValue,
}

impl Operand {
    /// The id, if this operand references one.
    pub fn id(&self) -> Option<Id> {
        match self.value {
            OperandValue::Id(id) => Some(id),
            _ => None,
        }
    }

    /// The word, if this operand is a single-word literal or enum.
    pub fn word(&self) -> Option<u32> {
        match self.value {
            OperandValue::Word(w) => Some(w),
            _ => None,
        }
    }

    /// The string, if this operand is a literal string.
    pub fn string(&self) -> Option<&str> {
        match &self.value {
            OperandValue::String(s) => Some(s),
            _ => None,
        }
    }

    /// Appends the binary encoding of this operand.
    pub fn encode(&self, out: &mut Vec<u32>) {
        match &self.value {
            OperandValue::Id(w) | OperandValue::Word(w) => out.push(*w),
            OperandValue::Number(ws) => out.extend_from_slice(ws),
            OperandValue::String(s) => encode_string(s, out),
        }
    }
}

/// Appends `s` as a nul-terminated, zero-padded sequence of little-endian words.
pub fn encode_string(s: &str, out: &mut Vec<u32>) {
    let bytes = s.as_bytes();
    for chunk in bytes.chunks(4) {
        let mut b = [0u8; 4];
        b[..chunk.len()].copy_from_slice(chunk);
        out.push(u32::from_le_bytes(b));
    }
    if bytes.len().is_multiple_of(4) {
        out.push(0);
    }
}

/// One instruction.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Instruction {
    pub opcode: Op,
    pub result_type: Option<Id>,
    pub result: Option<Id>,
    /// The operands after the result type and result id, in binary order.
    pub operands: Vec<Operand>,
}

impl Instruction {
    /// Appends the binary encoding (word count and opcode, then operands).
    pub fn encode(&self, out: &mut Vec<u32>) {
        let start = out.len();
        out.push(0);
        out.extend(self.result_type);
        out.extend(self.result);
        for o in &self.operands {
            o.encode(out);
        }
        let count = (out.len() - start) as u32;
        out[start] = (count << 16) | self.opcode.number() as u32;
    }

    /// The number of words this instruction occupies.
    pub fn word_count(&self) -> usize {
        let mut n = 1 + self.result_type.is_some() as usize + self.result.is_some() as usize;
        for o in &self.operands {
            n += match &o.value {
                OperandValue::Id(_) | OperandValue::Word(_) => 1,
                OperandValue::Number(ws) => ws.len(),
                OperandValue::String(s) => s.len() / 4 + 1,
            };
        }
        n
    }

    /// The ids this instruction references (result type excluded), in operand order.
    pub fn referenced_ids(&self) -> impl Iterator<Item = Id> + '_ {
        self.operands.iter().filter_map(Operand::id)
    }
}
