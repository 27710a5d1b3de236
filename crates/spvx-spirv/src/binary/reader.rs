//! Decodes a SPIR-V binary into a header and a flat list of instructions.
//!
//! Either byte order is accepted (the magic number tells). Every instruction is decoded by the
//! shared grammar walk ([`crate::layout`]); anything malformed stops the read with one error
//! naming the word offset of the offending instruction.

use super::error::{BinaryError, BinaryErrorKind as K};
use super::header::{Header, MAGIC};
use crate::context::{ModuleContext, NumericType};
use crate::grammar::{Grammar, KindId, grammar};
use crate::instruction::{Id, Instruction};
use crate::layout::{ExtInstChoice, OperandSource, read_instruction};
use crate::op::Op;
use std::borrow::Cow;

/// A decoded module: its header and its instructions in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedModule {
    pub header: Header,
    pub instructions: Vec<Instruction>,
    /// The word offset at which each instruction starts (parallel to `instructions`).
    pub offsets: Vec<usize>,
    /// True when the input was big-endian.
    pub big_endian: bool,
}

/// Decodes a module from bytes in either byte order.
pub fn read_bytes(bytes: &[u8]) -> Result<ParsedModule, BinaryError> {
    if !bytes.len().is_multiple_of(4) {
        return Err(BinaryError {
            offset: bytes.len() / 4,
            kind: K::NotWordAligned(bytes.len()),
        });
    }
    let le: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let big_endian = le.first() == Some(&MAGIC.swap_bytes());
    let words = if big_endian {
        le.into_iter().map(u32::swap_bytes).collect()
    } else {
        le
    };
    let mut m = read_words(&words)?;
    m.big_endian = big_endian;
    Ok(m)
}

/// Decodes a module from words in host order.
pub fn read_words(words: &[u32]) -> Result<ParsedModule, BinaryError> {
    if words.len() < 5 {
        return Err(BinaryError {
            offset: words.len(),
            kind: K::TruncatedHeader(words.len()),
        });
    }
    if words[0] != MAGIC {
        return Err(BinaryError {
            offset: 0,
            kind: K::BadMagic(words[0]),
        });
    }
    let header = Header {
        version: words[1],
        generator: words[2],
        bound: words[3],
        schema: words[4],
    };
    let g = grammar();
    let mut ctx = ModuleContext::new();
    let mut instructions = Vec::new();
    let mut offsets = Vec::new();
    let mut at = 5;
    while at < words.len() {
        let first = words[at];
        let count = (first >> 16) as usize;
        let opcode = (first & 0xffff) as u16;
        // Borrowed from the grammar: a name is only copied into an error.
        let name: Cow<'static, str> = match g.instruction_by_number(opcode) {
            Some(i) => Cow::Borrowed(i.name),
            None => Cow::Owned(format!("opcode {opcode}")),
        };
        if count == 0 {
            return Err(BinaryError {
                offset: at,
                kind: K::ZeroWordCount,
            });
        }
        let left = words.len() - at;
        if count > left {
            return Err(BinaryError {
                offset: at,
                kind: K::PastEnd {
                    name: name.into_owned(),
                    count,
                    left,
                },
            });
        }
        let Some(op) = Op::from_number(opcode) else {
            return Err(BinaryError {
                offset: at,
                kind: K::UnknownOpcode(opcode),
            });
        };
        let mut src = WordSource {
            g,
            words: &words[at + 1..at + count],
            pos: 0,
            name: &name,
            count,
            error: None,
        };
        let inst = read_instruction(g, &ctx, op, &mut src).map_err(|()| BinaryError {
            offset: at,
            kind: src.error.take().unwrap_or(K::Other {
                message: format!("{name}: malformed instruction"),
            }),
        })?;
        let extra = src.words.len() - src.pos;
        if extra != 0 {
            return Err(BinaryError {
                offset: at,
                kind: K::ExtraWords {
                    name: name.into_owned(),
                    extra,
                    count,
                },
            });
        }
        ctx.observe(&inst);
        instructions.push(inst);
        offsets.push(at);
        at += count;
    }
    Ok(ParsedModule {
        header,
        instructions,
        offsets,
        big_endian: false,
    })
}

/// Operands of one instruction, read from its words. Errors are stored in `error` and signalled
/// with `Err(())`, so the reader can attach the instruction's offset.
struct WordSource<'a> {
    g: &'a Grammar,
    words: &'a [u32],
    pos: usize,
    name: &'a str,
    count: usize,
    error: Option<K>,
}

impl WordSource<'_> {
    fn fail<T>(&mut self, kind: K) -> Result<T, ()> {
        self.error = Some(kind);
        Err(())
    }

    fn word(&mut self, kind: KindId) -> Result<u32, ()> {
        match self.words.get(self.pos) {
            Some(&w) => {
                self.pos += 1;
                Ok(w)
            }
            None => {
                let k = K::MissingOperand {
                    name: self.name.to_string(),
                    kind: self.g.kind(kind).name.clone(),
                    count: self.count,
                };
                self.fail(k)
            }
        }
    }

    fn kind_name(&self, kind: KindId) -> String {
        self.g.kind(kind).name.clone()
    }
}

impl OperandSource for WordSource<'_> {
    type Error = ();

    fn has_more(&mut self) -> bool {
        self.pos < self.words.len()
    }

    fn id(&mut self, kind: KindId) -> Result<Id, ()> {
        self.word(kind)
    }

    fn literal_integer(&mut self, kind: KindId) -> Result<u32, ()> {
        self.word(kind)
    }

    fn literal_string(&mut self, _kind: KindId) -> Result<String, ()> {
        let rest = &self.words[self.pos..];
        let mut bytes = Vec::new();
        for (i, w) in rest.iter().enumerate() {
            let b = w.to_le_bytes();
            if let Some(nul) = b.iter().position(|&x| x == 0) {
                bytes.extend_from_slice(&b[..nul]);
                self.pos += i + 1;
                // SPIR-V 1.6 §2.2.1 (Literal String): the final word is padded with 0 bytes
                // after the nul. Anything else could not be written back identically.
                if b[nul..].iter().any(|&x| x != 0) {
                    let name = self.name.to_string();
                    return self.fail(K::NonZeroStringPadding { name });
                }
                return match String::from_utf8(bytes) {
                    Ok(s) => Ok(s),
                    Err(_) => {
                        let name = self.name.to_string();
                        self.fail(K::InvalidUtf8 { name })
                    }
                };
            }
            bytes.extend_from_slice(&b);
        }
        let name = self.name.to_string();
        self.fail(K::UnterminatedString { name })
    }

    fn literal_float(&mut self, kind: KindId) -> Result<u32, ()> {
        self.word(kind)
    }

    fn number(&mut self, kind: KindId, ty: Option<NumericType>) -> Result<Vec<u32>, ()> {
        let Some(ty) = ty else {
            let name = self.name.to_string();
            return self.fail(K::UnknownLiteralType { name });
        };
        (0..ty.literal_words()).map(|_| self.word(kind)).collect()
    }

    fn value_enum(&mut self, kind: KindId) -> Result<u32, ()> {
        let v = self.word(kind)?;
        if self.g.kind(kind).enumerant(v).is_none() {
            let k = K::UnknownEnumValue {
                name: self.name.to_string(),
                kind: self.kind_name(kind),
                value: v,
            };
            return self.fail(k);
        }
        Ok(v)
    }

    fn bit_enum(&mut self, kind: KindId) -> Result<u32, ()> {
        let m = self.word(kind)?;
        let k = self.g.kind(kind);
        let unknown = (0..32).any(|b| m & (1 << b) != 0 && k.enumerant(1 << b).is_none());
        if unknown {
            let e = K::UnknownMaskBits {
                name: self.name.to_string(),
                kind: self.kind_name(kind),
                value: m,
            };
            return self.fail(e);
        }
        Ok(m)
    }

    fn ext_inst_number(
        &mut self,
        kind: KindId,
        set: Option<&str>,
    ) -> Result<(u32, ExtInstChoice), ()> {
        let number = self.word(kind)?;
        let g = self.g;
        // The set must be an OpExtInstImport result (as SPIRV-Tools' binary parser requires):
        // otherwise the instruction cannot be written as text (the assembler needs the set).
        let Some(set) = set else {
            let message = format!(
                "{}: the extended instruction set operand is not the result of an OpExtInstImport",
                self.name
            );
            return self.fail(K::Other { message });
        };
        match ExtInstChoice::of(g, set, number) {
            Some(choice) => Ok((number, choice)),
            None => {
                let e = K::UnknownExtInst {
                    name: self.name.to_string(),
                    set: set.to_string(),
                    number,
                };
                self.fail(e)
            }
        }
    }

    fn spec_constant_opcode(&mut self, kind: KindId) -> Result<Op, ()> {
        let w = self.word(kind)?;
        match u16::try_from(w).ok().and_then(Op::from_number) {
            Some(op) => Ok(op),
            None => {
                let message = format!("{}: unknown opcode {w} in OpSpecConstantOp", self.name);
                self.fail(K::Other { message })
            }
        }
    }

    fn missing_operand(&mut self, kind: KindId) {
        self.error = Some(K::MissingOperand {
            name: self.name.to_string(),
            kind: self.kind_name(kind),
            count: self.count,
        });
    }

    fn error(&mut self, message: String) {
        self.error = Some(K::Other {
            message: format!("{}: {message}", self.name),
        });
    }
}
