//! The text assembler: SPIR-V assembly in the syntax of SPIRV-Tools' `spirv-as` to binary.
//!
//! For any text spirv-as (SPIRV-Tools 2025.5) accepts, [`assemble`] produces the same words,
//! except the generator word of the header, which is spvx's own
//! ([`crate::binary::SPVX_GENERATOR`]). The syntax: `%name = OpName operands...` or
//! `OpName operands...`; ids `%name` (numeric names like `%7` are names too, numbered by first
//! appearance); `!<integer>` raw words; `"strings"` with backslash escapes; integers and floats
//! sized by their type (see [`literal`] and [`float`]); enumerant names and aliases;
//! `A|B` masks; extended instructions by name; `OpSpecConstantOp` opcodes without `Op`; `;`
//! comments. spvx additionally accepts numbers for enumerants, masks, extended instructions and
//! spec-constant opcodes, integer constants wider than 64 bits, and any extended set name.
//!
//! Operands are laid out by the grammar walk shared with the binary reader
//! ([`crate::layout::read_instruction`]); this module supplies the words (`source`).

mod error;
mod float;
mod ids;
mod lexer;
mod literal;
mod raw;
mod source;
mod target_env;

pub use error::{AsmError, AsmErrorKind};
pub use float::{FloatError, FloatFormat};
pub use literal::IntError;
pub use target_env::{DEFAULT_VERSION, TARGET_ENVS, target_env_version};

use crate::binary::Header;
use crate::context::ModuleContext;
use crate::grammar::{Grammar, Version, grammar};
use crate::instruction::{Instruction, Operand, OperandValue};
use crate::layout::read_instruction;
use crate::op::Op;
use ids::IdTable;
use lexer::{Token, error_at, lex};
use source::{TokenSource, id_name, is_instruction_start, starts_with_op};

/// Float literal encoders, exposed for tests and other front ends.
pub mod literals {
    pub use super::float::{BF16, E4M3, E5M2, F16, F32, F64, format_of};
    pub use super::literal::{encode_int, encode_u32, words_for_width};
}

/// Assembler options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AsmOptions {
    /// The SPIR-V version written in the header (spirv-as: from `--target-env`, default 1.6).
    pub version: Version,
}

impl Default for AsmOptions {
    fn default() -> Self {
        AsmOptions {
            version: DEFAULT_VERSION,
        }
    }
}

/// One assembled instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// An instruction written with its opcode name and grammar operands.
    Instruction(Instruction),
    /// An instruction written with raw words (`!<integer>`) somewhere: its words exactly as
    /// they will appear, first word included.
    Raw(Vec<u32>),
}

/// The result of [`assemble`]: the header and the instructions in text order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assembled {
    pub header: Header,
    pub items: Vec<Item>,
    /// Where each item starts in the text: (line, column), both from 1, the column counting
    /// characters. Parallel to `items`.
    pub locations: Vec<(u32, u32)>,
}

impl Assembled {
    /// The module's words (header first).
    pub fn words(&self) -> Vec<u32> {
        let mut out = self.header.words().to_vec();
        for item in &self.items {
            match item {
                Item::Instruction(i) => i.encode(&mut out),
                Item::Raw(ws) => out.extend_from_slice(ws),
            }
        }
        out
    }

    /// The module as little-endian bytes (what spirv-as writes).
    pub fn bytes(&self) -> Vec<u8> {
        self.words()
            .into_iter()
            .flat_map(u32::to_le_bytes)
            .collect()
    }

    /// The instructions written with grammar operands (all of them unless [`Self::has_raw`]).
    pub fn instructions(&self) -> impl Iterator<Item = &Instruction> {
        self.items.iter().filter_map(|i| match i {
            Item::Instruction(i) => Some(i),
            Item::Raw(_) => None,
        })
    }

    /// True when some instruction was written with raw words.
    pub fn has_raw(&self) -> bool {
        self.items.iter().any(|i| matches!(i, Item::Raw(_)))
    }
}

/// Assembles `text`. The first problem ends the assembly with an error naming its line and
/// column.
pub fn assemble(text: &str, opts: &AsmOptions) -> Result<Assembled, AsmError> {
    if text.is_empty() {
        return Err(error_at(text, 0, 0, 1, AsmErrorKind::EmptyText));
    }
    let tokens = lex(text)?;
    let mut a = Assembler {
        g: grammar(),
        text,
        tokens: &tokens,
        ids: IdTable::new(),
        ctx: ModuleContext::new(),
        items: Vec::new(),
    };
    let mut pos = 0;
    let mut locations = Vec::new();
    while pos < tokens.len() {
        let (start, before) = (tokens[pos], a.items.len());
        pos = a.instruction(pos)?;
        if a.items.len() > before {
            let line_start = text[..start.start].rfind('\n').map_or(0, |p| p + 1);
            let column = text[line_start..start.start].chars().count() as u32 + 1;
            locations.push((start.line, column));
        }
    }
    Ok(Assembled {
        header: Header::new(opts.version, a.ids.bound()),
        items: a.items,
        locations,
    })
}

/// The largest word count of an instruction.
const MAX_WORDS: usize = 0xffff;

struct Assembler<'a, 't> {
    g: &'static Grammar,
    text: &'t str,
    tokens: &'a [Token],
    ids: IdTable<'t>,
    ctx: ModuleContext,
    items: Vec<Item>,
}

impl<'t> Assembler<'_, 't> {
    fn err(&self, tok: Token, kind: AsmErrorKind) -> AsmError {
        error_at(self.text, tok.start, tok.end, tok.line, kind)
    }

    fn word(&self, i: usize) -> Option<(Token, &'t str)> {
        self.tokens.get(i).map(|&t| (t, t.text(self.text)))
    }

    /// Assembles the instruction starting at word `pos`; returns the index after it.
    fn instruction(&mut self, pos: usize) -> Result<usize, AsmError> {
        let Some((first, s)) = self.word(pos) else {
            return Ok(pos);
        };
        if s.starts_with('!') {
            return self.raw_instruction(pos);
        }
        let (result, op_pos) = if starts_with_op(s) {
            (None, pos)
        } else if s.starts_with('%') {
            match self.word(pos + 1) {
                Some((_, "=")) => {}
                Some((t, found)) => {
                    let k = AsmErrorKind::ExpectedEquals {
                        id: s.to_string(),
                        found: format!("'{found}'"),
                    };
                    return Err(self.err(t, k));
                }
                None => {
                    let k = AsmErrorKind::ExpectedEquals {
                        id: s.to_string(),
                        found: "the end of the text".to_string(),
                    };
                    return Err(self.err(first, k));
                }
            }
            match self.word(pos + 2) {
                Some((_, op)) if starts_with_op(op) => {}
                Some((t, found)) => {
                    return Err(self.err(t, AsmErrorKind::ExpectedOpcode(format!("'{found}'"))));
                }
                None => {
                    let k = AsmErrorKind::ExpectedOpcode("the end of the text".to_string());
                    return Err(self.err(self.tokens[pos + 1], k));
                }
            }
            (Some(first), pos + 2)
        } else {
            return Err(self.err(first, AsmErrorKind::ExpectedInstruction(s.to_string())));
        };
        let (op_tok, op_name) = self.word(op_pos).unwrap_or((first, s));
        let g = self.g;
        let Some(desc) = g.instruction_by_name(op_name) else {
            return Err(self.err(op_tok, AsmErrorKind::UnknownOpcode(op_name.to_string())));
        };
        let has_result = desc.has_result(g);
        let has_result_type = desc.has_result_type(g);
        if let Some(r) = result {
            if !has_result {
                let k = AsmErrorKind::UnexpectedResultId {
                    opcode: desc.name.to_string(),
                    id: r.text(self.text).to_string(),
                };
                return Err(self.err(r, k));
            }
            if let Err(k) = id_name(r.text(self.text)) {
                return Err(self.err(r, k));
            }
        } else if has_result {
            let k = AsmErrorKind::MissingResultId {
                opcode: desc.name.to_string(),
            };
            return Err(self.err(op_tok, k));
        }
        let mut src = TokenSource {
            g,
            text: self.text,
            tokens: self.tokens,
            pos: op_pos + 1,
            ids: &mut self.ids,
            opcode_name: desc.name,
            opcode_token: op_tok,
            pending_result: result,
            result_next: has_result && !has_result_type,
            has_result,
            words: Vec::new(),
            raw_at: None,
            error: None,
        };
        match read_instruction(g, &self.ctx, desc.opcode, &mut src) {
            Ok(inst) => {
                let count = inst.word_count();
                if count > MAX_WORDS {
                    return Err(self.err(op_tok, AsmErrorKind::InstructionTooLong(count)));
                }
                self.ctx.observe(&inst);
                self.items.push(Item::Instruction(inst));
                Ok(src.pos)
            }
            Err(()) => {
                let error = src.error.take();
                let raw_at = src.raw_at;
                let mut words = std::mem::take(&mut src.words);
                let pending = src.pending_result.take();
                if let Some(e) = error {
                    return Err(e);
                }
                let Some(raw_pos) = raw_at else {
                    let k = AsmErrorKind::Other(format!("{}: malformed instruction", desc.name));
                    return Err(self.err(op_tok, k));
                };
                // A raw word in operand position: the rest is context-independent values.
                let (raw_tok, raw_s) = self.word(raw_pos).unwrap_or((op_tok, ""));
                words.push(raw::raw_word(raw_s).map_err(|k| self.err(raw_tok, k))?);
                if let Some(r) = pending {
                    words.push(self.define_result(r)?);
                }
                let end = self.untyped_values(raw_pos + 1, &mut words)?;
                let count = words.len() + 1;
                if count > MAX_WORDS {
                    return Err(self.err(op_tok, AsmErrorKind::InstructionTooLong(count)));
                }
                self.observe_raw(desc.opcode, has_result_type, has_result, &words);
                words.insert(0, (count as u32) << 16 | desc.opcode.number() as u32);
                self.items.push(Item::Raw(words));
                Ok(end)
            }
        }
    }

    /// Numbers the result id `%name` in word `tok` and records its definition.
    fn define_result(&mut self, tok: Token) -> Result<u32, AsmError> {
        let s = tok.text(self.text);
        let name = id_name(s).map_err(|k| self.err(tok, k))?;
        let id = self.ids.get_or_assign(name);
        if let Err(first_line) = self.ids.define(id, tok.line) {
            let k = AsmErrorKind::IdDefinedTwice {
                name: s.to_string(),
                first_line,
            };
            return Err(self.err(tok, k));
        }
        Ok(id)
    }

    /// An instruction whose first word is raw.
    fn raw_instruction(&mut self, pos: usize) -> Result<usize, AsmError> {
        let (tok, s) = self
            .word(pos)
            .ok_or_else(|| error_at(self.text, 0, 0, 1, AsmErrorKind::Other("internal".into())))?;
        let mut words = vec![raw::raw_word(s).map_err(|k| self.err(tok, k))?];
        let end = self.untyped_values(pos + 1, &mut words)?;
        if words.len() > MAX_WORDS {
            return Err(self.err(tok, AsmErrorKind::InstructionTooLong(words.len())));
        }
        self.items.push(Item::Raw(words));
        Ok(end)
    }

    /// Appends context-independent values from word `pos` up to the next instruction.
    fn untyped_values(&mut self, mut pos: usize, out: &mut Vec<u32>) -> Result<usize, AsmError> {
        while pos < self.tokens.len() && !is_instruction_start(self.text, self.tokens, pos) {
            let tok = self.tokens[pos];
            if tok.text(self.text) == "=" {
                let k = AsmErrorKind::Other(
                    "'=' must follow a result id at the start of an instruction".into(),
                );
                return Err(self.err(tok, k));
            }
            raw::untyped_value(self.text, tok, &mut self.ids, out).map_err(|k| self.err(tok, k))?;
            pos += 1;
        }
        Ok(pos)
    }

    /// Tells the module context what a partly raw instruction declares (its words after the
    /// first), as spirv-as records types from the words it produced.
    fn observe_raw(&mut self, opcode: Op, has_type: bool, has_result: bool, words: &[u32]) {
        let mut it = words.iter().copied();
        let result_type = if has_type { it.next() } else { None };
        let result = if has_result { it.next() } else { None };
        let kind = self.g.common.literal_integer;
        let operands = it
            .map(|w| Operand {
                kind,
                value: OperandValue::Word(w),
            })
            .collect();
        self.ctx.observe(&Instruction {
            opcode,
            result_type,
            result,
            operands,
        });
    }
}
