//! The text of the module: header comments, one line per instruction, operands.
//!
//! Layout (spirv-dis 2025.5): with indentation on, an instruction with a result id starts with
//! `%name = ` where `%name` is right-aligned so that `=` sits in column 14 (names of 11 or more
//! characters push the line right); an instruction without a result starts after 15 spaces.
//! Operands follow the opcode name, separated by single spaces, in binary order, the result id
//! left out.

use super::generator::generator_text;
use super::literal;
use super::names::FriendlyNames;
use super::options::DisOptions;
use super::types::ModuleTypes;
use crate::binary::Header;
use crate::grammar::{Grammar, Shape};
use crate::instruction::{Id, Instruction, Operand, OperandValue};
use crate::op::Op;
use std::fmt::Write;

/// Column of the `=` sign minus one: `kStandardIndent` of spirv-dis.
const INDENT: usize = 15;

/// `INDENT` spaces.
const SPACES: &str = "               ";

/// Appends the `; SPIR-V` comment block.
pub fn write_header(out: &mut String, h: &Header) {
    let _ = write!(
        out,
        "; SPIR-V\n; Version: {}.{}\n; Generator: {}\n; Bound: {}\n; Schema: {}\n",
        (h.version >> 16) & 0xff,
        (h.version >> 8) & 0xff,
        generator_text(h.generator),
        h.bound,
        h.schema
    );
}

/// How ids are spelled.
pub enum IdNames<'a> {
    Raw,
    Friendly(&'a FriendlyNames),
}

impl IdNames<'_> {
    fn write(&self, out: &mut String, id: Id) {
        out.push('%');
        match self {
            IdNames::Raw => {
                let _ = write!(out, "{id}");
            }
            IdNames::Friendly(n) => out.push_str(&n.get(id)),
        }
    }
}

/// Everything one line needs.
pub struct LineWriter<'a> {
    pub g: &'a Grammar,
    pub ctx: &'a ModuleTypes,
    pub names: IdNames<'a>,
    pub opts: DisOptions,
}

impl LineWriter<'_> {
    /// Appends one instruction and its newline.
    pub fn write(&self, out: &mut String, inst: &Instruction) {
        match inst.result {
            Some(id) => {
                if self.opts.indent {
                    // spirv-dis: setw(12 - len(name)) applied to "%": right-align `%name` in 12.
                    let start = out.len();
                    self.names.write(out, id);
                    let len = out.len() - start;
                    let pad = (INDENT - 3).saturating_sub(len);
                    out.insert_str(start, &SPACES[..pad]);
                } else {
                    self.names.write(out, id);
                }
                out.push_str(" = ");
            }
            None => {
                if self.opts.indent {
                    out.push_str(SPACES);
                }
            }
        }
        match self.g.instruction(inst.opcode) {
            Some(d) => out.push_str(&d.name),
            None => {
                let _ = write!(out, "Op{}", inst.opcode);
            }
        }
        if let Some(t) = inst.result_type {
            out.push(' ');
            self.names.write(out, t);
        }
        for (i, o) in inst.operands.iter().enumerate() {
            out.push(' ');
            self.operand(out, inst, i, o);
        }
        out.push('\n');
    }

    fn operand(&self, out: &mut String, inst: &Instruction, index: usize, o: &Operand) {
        let g = self.g;
        let kind = g.kind(o.kind);
        match (&o.value, kind.shape) {
            (OperandValue::Id(id), _) => self.names.write(out, *id),
            (OperandValue::String(s), _) => write_string(out, s),
            (OperandValue::Number(ws), _) => match self.number_type(inst) {
                Some(t) => literal::write_number(out, t, ws),
                None => literal::write_integer(out, ws, false),
            },
            (OperandValue::Word(w), Shape::LiteralFloat) => literal::write_f32_bits(out, *w),
            (OperandValue::Word(w), Shape::ValueEnum) => match kind.enumerant(*w) {
                Some(e) => out.push_str(&e.name),
                None => {
                    let _ = write!(out, "{w}");
                }
            },
            (OperandValue::Word(w), Shape::BitEnum) => write_mask(out, kind, *w),
            (OperandValue::Word(w), Shape::LiteralExtInstInteger) => {
                let set = index
                    .checked_sub(1)
                    .and_then(|i| inst.operands.get(i))
                    .and_then(Operand::id)
                    .and_then(|id| self.ctx.ext_set(id))
                    .and_then(|s| g.ext_inst_set(s))
                    .filter(|s| s.disassembled_by_name)
                    .and_then(|s| s.instruction(*w));
                match set {
                    Some(e) => out.push_str(&e.name),
                    None => {
                        let _ = write!(out, "{w}");
                    }
                }
            }
            (OperandValue::Word(w), Shape::LiteralSpecConstantOpInteger) => {
                match u16::try_from(*w)
                    .ok()
                    .and_then(|op| g.instruction_by_number(op))
                {
                    Some(d) => out.push_str(d.name.strip_prefix("Op").unwrap_or(&d.name)),
                    None => {
                        let _ = write!(out, "{w}");
                    }
                }
            }
            (OperandValue::Word(w), _) => {
                let _ = write!(out, "{w}");
            }
        }
    }

    /// The type of a context-dependent number in `inst`.
    fn number_type(&self, inst: &Instruction) -> Option<crate::context::NumericType> {
        let type_id = if inst.opcode == Op::Switch {
            let selector = inst.operands.first().and_then(Operand::id)?;
            self.ctx.selector_type(selector)?
        } else {
            inst.result_type?
        };
        self.ctx.numeric_type(type_id)
    }
}

/// Appends a quoted string, escaping `"` and `\` with a backslash.
fn write_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
}

/// Appends a mask as the names of its set bits, lowest first, joined by `|`; zero prints as
/// the kind's name for 0 (usually `None`).
fn write_mask(out: &mut String, kind: &crate::grammar::OperandKind, mask: u32) {
    if mask == 0 {
        if let Some(e) = kind.enumerant(0) {
            out.push_str(&e.name);
        } else {
            out.push('0');
        }
        return;
    }
    let mut first = true;
    for bit in 0..32 {
        let b = 1u32 << bit;
        if mask & b == 0 {
            continue;
        }
        if !first {
            out.push('|');
        }
        first = false;
        match kind.enumerant(b) {
            Some(e) => out.push_str(&e.name),
            None => {
                let _ = write!(out, "{b:#x}");
            }
        }
    }
}
