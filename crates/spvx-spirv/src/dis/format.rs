//! The text of the module: header comments, one line per instruction, operands.
//!
//! Layout (spirv-dis 2025.5): with indentation on, an instruction with a result id starts with
//! `%name = ` where `%name` is right-aligned so that `=` sits in column 14 (names of 11 or more
//! characters push the line right); an instruction without a result starts after 15 spaces.
//! Operands follow the opcode name, separated by single spaces, in binary order, the result id
//! left out. Under `--nested-indent` an instruction inside a block gets two spaces per nesting
//! level after that (two more inside the block's body). Under `--color` the pieces are wrapped in
//! the ANSI sequences spirv-dis 2025.5 writes (see [`Palette`]).

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
pub const INDENT: usize = 15;

/// The ANSI colours of `spirv-dis --color` (2025.5, observed byte for byte): result ids blue
/// (with their padding), id operands yellow, numbers and extended-instruction and
/// `OpSpecConstantOp` names red, string contents green, byte offsets grey; every operand ends
/// with a reset, and a number with a second one.
#[derive(Clone, Copy)]
pub struct Palette {
    pub on: bool,
}

pub const RESET: &str = "\x1b[0m";
pub const GREY: &str = "\x1b[1;30m";
pub const RED: &str = "\x1b[31m";
pub const GREEN: &str = "\x1b[32m";
pub const YELLOW: &str = "\x1b[33m";
pub const BLUE: &str = "\x1b[34m";

impl Palette {
    pub fn push(self, out: &mut String, code: &str) {
        if self.on {
            out.push_str(code);
        }
    }
}

/// The length of `line` as spirv-dis measures it to align comments: bytes (not characters),
/// ANSI sequences (`ESC … m`) left out.
pub fn display_len(line: &str) -> usize {
    let mut n = 0;
    let mut in_escape = false;
    for &b in line.as_bytes() {
        if in_escape {
            in_escape = b != b'm';
        } else if b == 0x1b {
            in_escape = true;
        } else {
            n += 1;
        }
    }
    n
}

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
        self.write_bare(out, id);
    }

    /// The name without `%`.
    pub fn write_bare(&self, out: &mut String, id: Id) {
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
    fn palette(&self) -> Palette {
        Palette {
            on: self.opts.color,
        }
    }

    /// Appends one instruction, without its newline. `block_level` is the nesting level of the
    /// block the instruction is in, under `--nested-indent` (`None` outside blocks).
    pub fn write_line(&self, out: &mut String, inst: &Instruction, block_level: Option<u32>) {
        let c = self.palette();
        match inst.result {
            Some(id) => {
                c.push(out, BLUE);
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
                c.push(out, RESET);
                out.push_str(" = ");
            }
            None => {
                if self.opts.indent {
                    out.push_str(SPACES);
                }
            }
        }
        if let Some(level) = block_level {
            let body = if inst.opcode == Op::Label { 0 } else { 2 };
            let n = level as usize * 2 + body;
            out.extend(std::iter::repeat_n(' ', n));
        }
        match self.g.instruction(inst.opcode) {
            Some(d) => out.push_str(d.name),
            None => {
                let _ = write!(out, "Op{}", inst.opcode);
            }
        }
        if let Some(t) = inst.result_type {
            out.push(' ');
            c.push(out, YELLOW);
            self.names.write(out, t);
            c.push(out, RESET);
        }
        for (i, o) in inst.operands.iter().enumerate() {
            out.push(' ');
            self.operand(out, inst, i, o);
        }
    }

    /// Appends operand `index` of `inst` as spirv-dis prints it (colours included).
    pub fn operand(&self, out: &mut String, inst: &Instruction, index: usize, o: &Operand) {
        let g = self.g;
        let c = self.palette();
        let kind = g.kind(o.kind);
        match (&o.value, kind.shape) {
            (OperandValue::Id(id), _) => {
                c.push(out, YELLOW);
                self.names.write(out, *id);
            }
            (OperandValue::String(s), _) => {
                out.push('"');
                c.push(out, GREEN);
                write_string_body(out, s);
                c.push(out, RESET);
                out.push('"');
            }
            (OperandValue::Number(ws), _) => {
                c.push(out, RED);
                match self.number_type(inst) {
                    Some(t) => literal::write_number(out, t, ws),
                    None => literal::write_integer(out, ws, false),
                }
                c.push(out, RESET);
            }
            (OperandValue::Word(w), Shape::LiteralFloat) => {
                c.push(out, RED);
                literal::write_f32_bits(out, *w);
                c.push(out, RESET);
            }
            (OperandValue::Word(w), Shape::ValueEnum) => match kind.enumerant(*w) {
                Some(e) => out.push_str(e.name),
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
                c.push(out, RED);
                match set {
                    Some(e) => out.push_str(e.name),
                    None => {
                        let _ = write!(out, "{w}");
                    }
                }
            }
            (OperandValue::Word(w), Shape::LiteralSpecConstantOpInteger) => {
                c.push(out, RED);
                match u16::try_from(*w)
                    .ok()
                    .and_then(|op| g.instruction_by_number(op))
                {
                    Some(d) => out.push_str(d.name.strip_prefix("Op").unwrap_or(d.name)),
                    None => {
                        let _ = write!(out, "{w}");
                    }
                }
            }
            (OperandValue::Word(w), _) => {
                c.push(out, RED);
                let _ = write!(out, "{w}");
                c.push(out, RESET);
            }
        }
        c.push(out, RESET);
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

/// Appends the contents of a string, escaping `"` and `\` with a backslash.
fn write_string_body(out: &mut String, s: &str) {
    for c in s.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
}

/// Appends a mask as the names of its set bits, lowest first, joined by `|`; zero prints as
/// the kind's name for 0 (usually `None`).
fn write_mask(out: &mut String, kind: &crate::grammar::OperandKind, mask: u32) {
    if mask == 0 {
        if let Some(e) = kind.enumerant(0) {
            out.push_str(e.name);
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
            Some(e) => out.push_str(e.name),
            None => {
                let _ = write!(out, "{b:#x}");
            }
        }
    }
}
