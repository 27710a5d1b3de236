//! The assembler's [`OperandSource`]: operand values read from the words of one instruction,
//! for the shared grammar walk in [`crate::layout`].
//!
//! Errors are stored in `error` and signalled with `Err(())`, as in the binary reader. A raw
//! word (`!<integer>`) in operand position stops the walk without an error and sets `raw_at`:
//! from there on spirv-as no longer follows the grammar (see [`super::raw`]).

use super::error::{AsmError, AsmErrorKind as K};
use super::float::{self, FloatError, FloatFormat};
use super::ids::IdTable;
use super::lexer::{Token, error_at};
use super::literal::{self, IntError};
use crate::context::NumericType;
use crate::grammar::{Grammar, KindId, Shape};
use crate::instruction::{Id, encode_string};
use crate::layout::{ExtInstChoice, OperandSource};
use crate::op::Op;

/// True when the word at `i` begins an instruction: `Op` and a capital letter, or `%id = Op...`.
pub fn is_instruction_start(text: &str, tokens: &[Token], i: usize) -> bool {
    let Some(t) = tokens.get(i) else { return false };
    let s = t.text(text);
    if starts_with_op(s) {
        return true;
    }
    s.starts_with('%')
        && tokens.get(i + 1).is_some_and(|t| t.text(text) == "=")
        && tokens
            .get(i + 2)
            .is_some_and(|t| starts_with_op(t.text(text)))
}

/// `Op` followed by an ASCII capital letter, the test spirv-as uses for an opcode.
pub fn starts_with_op(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 3 && b[0] == b'O' && b[1] == b'p' && b[2].is_ascii_uppercase()
}

/// Parses `%name` and returns the name, or the error for the word.
pub fn id_name(s: &str) -> Result<&str, K> {
    let Some(name) = s.strip_prefix('%') else {
        return Err(K::ExpectedId(s.to_string()));
    };
    if name.is_empty() || !name.bytes().all(|c| c == b'_' || c.is_ascii_alphanumeric()) {
        return Err(K::InvalidId(s.to_string()));
    }
    Ok(name)
}

/// Decodes a string word `"..."`: a backslash escapes the next character. The first and last
/// characters must be quotes (as in spirv-as, the last one closes the string even if escaped).
pub fn string_value(s: &str) -> Option<String> {
    if s.len() < 2 || !s.starts_with('"') || !s.ends_with('"') {
        return None;
    }
    let inner = &s[1..s.len() - 1];
    let mut out = String::with_capacity(inner.len());
    let mut escaping = false;
    for c in inner.chars() {
        if c == '\\' && !escaping {
            escaping = true;
        } else {
            out.push(c);
            escaping = false;
        }
    }
    Some(out)
}

/// Operand values of one instruction, read from its words.
pub struct TokenSource<'a, 't> {
    pub g: &'static Grammar,
    pub text: &'t str,
    pub tokens: &'a [Token],
    /// Index of the next word.
    pub pos: usize,
    pub ids: &'a mut IdTable<'t>,
    /// The name of the instruction (for messages).
    pub opcode_name: &'static str,
    /// The word of the opcode (where instruction-level errors point).
    pub opcode_token: Token,
    /// The `%name` of `%name = Op...`, not yet handed to the walk.
    pub pending_result: Option<Token>,
    /// True when the walk asks for the result id next.
    pub result_next: bool,
    /// True when the instruction has a result id (set once the result type is read).
    pub has_result: bool,
    /// The words produced so far, after the first word.
    pub words: Vec<u32>,
    /// Set when a raw word was met at this word index.
    pub raw_at: Option<usize>,
    pub error: Option<AsmError>,
}

impl<'t> TokenSource<'_, 't> {
    fn fail<T>(&mut self, tok: Token, kind: K) -> Result<T, ()> {
        self.error = Some(error_at(self.text, tok.start, tok.end, tok.line, kind));
        Err(())
    }

    /// The next word, or a stop for a raw word.
    fn next(&mut self) -> Result<(Token, &'t str), ()> {
        let Some(&tok) = self.tokens.get(self.pos) else {
            let t = self.opcode_token;
            let kind = K::Other(format!("{}: unexpected end of text", self.opcode_name));
            return self.fail(t, kind);
        };
        let s = tok.text(self.text);
        if s.starts_with('!') {
            self.raw_at = Some(self.pos);
            return Err(());
        }
        self.pos += 1;
        Ok((tok, s))
    }

    fn kind_name(&self, kind: KindId) -> String {
        self.g.kind(kind).name.clone()
    }

    /// The id of `%name` in word `tok`.
    pub fn id_of(&mut self, tok: Token) -> Result<Id, ()> {
        let s = tok.text(self.text);
        match id_name(s) {
            Ok(name) => Ok(self.ids.get_or_assign(name)),
            Err(k) => self.fail(tok, k),
        }
    }

    /// Hands out the pending result id, checking it is defined only once.
    pub fn take_result(&mut self) -> Result<Id, ()> {
        self.result_next = false;
        let Some(tok) = self.pending_result.take() else {
            let t = self.opcode_token;
            let k = K::MissingResultId {
                opcode: self.opcode_name.to_string(),
            };
            return self.fail(t, k);
        };
        let id = self.id_of(tok)?;
        if let Err(first_line) = self.ids.define(id, tok.line) {
            let name = tok.text(self.text).to_string();
            return self.fail(tok, K::IdDefinedTwice { name, first_line });
        }
        self.words.push(id);
        Ok(id)
    }

    fn int_error(
        &mut self,
        tok: Token,
        e: IntError,
        width: u32,
        signed: bool,
    ) -> Result<Vec<u32>, ()> {
        let text = tok.text(self.text).to_string();
        let kind = match e {
            IntError::Syntax => K::InvalidLiteral {
                what: if signed {
                    "signed integer"
                } else {
                    "unsigned integer"
                }
                .into(),
                text,
            },
            IntError::Negative => K::NegativeUnsigned(text),
            IntError::OutOfRange => K::IntegerOutOfRange {
                text,
                width,
                signedness: if signed { "signed" } else { "unsigned" },
            },
        };
        self.fail(tok, kind)
    }

    fn float(&mut self, tok: Token, s: &str, f: FloatFormat) -> Result<Vec<u32>, ()> {
        match f.encode(s) {
            Ok(ws) => Ok(ws),
            Err(FloatError::Syntax) => self.fail(
                tok,
                K::InvalidLiteral {
                    what: f.name.into(),
                    text: s.into(),
                },
            ),
            Err(FloatError::OutOfRange) => self.fail(
                tok,
                K::FloatOutOfRange {
                    text: s.into(),
                    format: f.name.into(),
                },
            ),
        }
    }

    /// A value or mask word: an enumerant name, or a number (an spvx extension).
    fn enum_word(&mut self, tok: Token, s: &str, kind: KindId) -> Result<u32, ()> {
        let k = self.g.kind(kind);
        if let Some(e) = k.enumerant_by_name(s) {
            return Ok(e.value);
        }
        if let Ok(v) = literal::encode_u32(s) {
            let known = if k.is_bit_enum() {
                (0..32).all(|b| v & (1 << b) == 0 || k.enumerant(1 << b).is_some())
            } else {
                k.enumerant(v).is_some()
            };
            if known {
                return Ok(v);
            }
        }
        let kind = K::UnknownEnumerant {
            kind: k.name.clone(),
            name: s.to_string(),
        };
        self.fail(tok, kind)
    }
}

impl OperandSource for TokenSource<'_, '_> {
    type Error = ();

    fn has_more(&mut self) -> bool {
        self.result_next
            || (self.pos < self.tokens.len()
                && !is_instruction_start(self.text, self.tokens, self.pos))
    }

    fn id(&mut self, kind: KindId) -> Result<Id, ()> {
        match self.g.kind(kind).shape {
            Shape::IdResult => self.take_result(),
            shape => {
                let (tok, _) = self.next()?;
                let id = self.id_of(tok)?;
                self.words.push(id);
                if shape == Shape::IdResultType && self.has_result {
                    self.result_next = true;
                }
                Ok(id)
            }
        }
    }

    fn literal_integer(&mut self, _kind: KindId) -> Result<u32, ()> {
        let (tok, s) = self.next()?;
        match literal::encode_u32(s) {
            Ok(v) => {
                self.words.push(v);
                Ok(v)
            }
            Err(e) => self.int_error(tok, e, 32, false).map(|_| 0),
        }
    }

    fn literal_string(&mut self, _kind: KindId) -> Result<String, ()> {
        let (tok, s) = self.next()?;
        match string_value(s) {
            Some(v) => {
                encode_string(&v, &mut self.words);
                Ok(v)
            }
            None => self.fail(tok, K::InvalidString(s.to_string())),
        }
    }

    fn literal_float(&mut self, _kind: KindId) -> Result<u32, ()> {
        let (tok, s) = self.next()?;
        let ws = self.float(tok, s, float::F32)?;
        self.words.extend_from_slice(&ws);
        Ok(ws[0])
    }

    fn number(&mut self, _kind: KindId, ty: Option<NumericType>) -> Result<Vec<u32>, ()> {
        let (tok, s) = self.next()?;
        let ws = match ty {
            None => {
                let what = if self.opcode_name == Op::Switch.name() {
                    "the OpSwitch selector's type must be a scalar integer type".to_string()
                } else {
                    format!(
                        "the result type of {} must be a scalar integer or float type",
                        self.opcode_name
                    )
                };
                return self.fail(tok, K::UnknownLiteralType(what));
            }
            Some(NumericType::Int { width, signed }) => {
                if literal::words_for_width(width) > 0xfffe || width == 0 {
                    let m = format!("unsupported {width}-bit integer literals");
                    return self.fail(tok, K::UnsupportedLiteralType(m));
                }
                match literal::encode_int(s, width, signed) {
                    Ok(ws) => ws,
                    Err(e) => return self.int_error(tok, e, width, signed),
                }
            }
            Some(NumericType::Float { width, encoding }) => match float::format_of(width, encoding)
            {
                Some(f) => self.float(tok, s, f)?,
                None => {
                    let m = match encoding {
                        None => format!("unsupported {width}-bit float literals"),
                        Some(e) => format!(
                            "unsupported float literals for {width}-bit floats with FP encoding {e}"
                        ),
                    };
                    return self.fail(tok, K::UnsupportedLiteralType(m));
                }
            },
        };
        self.words.extend_from_slice(&ws);
        Ok(ws)
    }

    fn value_enum(&mut self, kind: KindId) -> Result<u32, ()> {
        let (tok, s) = self.next()?;
        let v = self.enum_word(tok, s, kind)?;
        self.words.push(v);
        Ok(v)
    }

    fn bit_enum(&mut self, kind: KindId) -> Result<u32, ()> {
        let (tok, s) = self.next()?;
        let mut mask = 0;
        for part in s.split('|') {
            if part.is_empty() {
                let k = K::UnknownEnumerant {
                    kind: self.kind_name(kind),
                    name: s.to_string(),
                };
                return self.fail(tok, k);
            }
            mask |= self.enum_word(tok, part, kind)?;
        }
        self.words.push(mask);
        Ok(mask)
    }

    fn ext_inst_number(
        &mut self,
        _kind: KindId,
        set: Option<&str>,
    ) -> Result<(u32, ExtInstChoice), ()> {
        let set_token = self.tokens[self.pos.saturating_sub(1)];
        let (tok, s) = self.next()?;
        let Some(set) = set else {
            let id = set_token.text(self.text).to_string();
            return self.fail(set_token, K::NotAnExtInstImport { id });
        };
        let g = self.g;
        let by_name = g
            .ext_inst_set(set)
            .and_then(|known| known.instruction_by_name(s))
            .map(|i| (i.number, ExtInstChoice::Known(i.operands.clone())));
        let found = by_name.or_else(|| {
            literal::encode_u32(s)
                .ok()
                .and_then(|n| ExtInstChoice::of(g, set, n).map(|c| (n, c)))
        });
        match found {
            Some((n, choice)) => {
                self.words.push(n);
                Ok((n, choice))
            }
            None => {
                let k = K::UnknownExtInst {
                    set: set.to_string(),
                    name: s.to_string(),
                };
                self.fail(tok, k)
            }
        }
    }

    fn spec_constant_opcode(&mut self, _kind: KindId) -> Result<Op, ()> {
        let (tok, s) = self.next()?;
        let g = self.g;
        let by_name = if starts_with_op(s) {
            None
        } else {
            g.instruction_by_name(&format!("Op{s}"))
        };
        let found = by_name
            .or_else(|| {
                literal::encode_u32(s)
                    .ok()
                    .and_then(|n| u16::try_from(n).ok())
                    .and_then(|n| g.instruction_by_number(n))
            })
            .filter(|i| i.has_result_type(g) && i.has_result(g));
        match found {
            Some(i) => {
                self.words.push(i.opcode.number() as u32);
                Ok(i.opcode)
            }
            None => self.fail(tok, K::UnknownSpecConstantOpcode(s.to_string())),
        }
    }

    fn error(&mut self, message: String) {
        let t = self.opcode_token;
        let kind = match message.strip_prefix("expected operand of kind ") {
            Some(rest) => {
                let found = match self.tokens.get(self.pos) {
                    Some(next) => format!("the next instruction '{}'", next.text(self.text)),
                    None => "the end of the text".to_string(),
                };
                K::MissingOperand {
                    opcode: self.opcode_name.to_string(),
                    kind: rest.split(',').next().unwrap_or(rest).to_string(),
                    found,
                }
            }
            None => K::Other(format!("{}: {message}", self.opcode_name)),
        };
        self.error = Some(error_at(self.text, t.start, t.end, t.line, kind));
    }
}
