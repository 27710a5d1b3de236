//! Raw words (`!<integer>`) and what follows them.
//!
//! spirv-as lets a raw word stand for any word of an instruction. At the start of an
//! instruction it is the whole first word (word count and opcode, written as given, never
//! recomputed). In operand position it replaces one operand word, and from there on the grammar
//! is no longer followed: the result id (if the instruction has one and it was not written yet)
//! comes next, then every remaining word up to the next instruction is a "context-independent
//! value" — a raw word, a number (a 32-bit float if it contains `.`, else an integer with
//! −2^31 ≤ v < 2^32), a quoted string, or an id — each encoded on its own.

use super::error::AsmErrorKind as K;
use super::float;
use super::ids::IdTable;
use super::lexer::Token;
use super::literal;
use super::source::{id_name, string_value};
use crate::instruction::encode_string;

/// The value of a raw word `!<integer>`.
pub fn raw_word(s: &str) -> Result<u32, K> {
    let digits = s.strip_prefix('!').unwrap_or(s);
    if digits.starts_with('-') {
        return Err(K::InvalidRawWord(s.to_string()));
    }
    literal::encode_u32(digits).map_err(|_| K::InvalidRawWord(s.to_string()))
}

/// Appends the encoding of one context-independent value.
pub fn untyped_value<'t>(
    text: &'t str,
    tok: Token,
    ids: &mut IdTable<'t>,
    out: &mut Vec<u32>,
) -> Result<(), K> {
    let s = tok.text(text);
    if s.starts_with('!') {
        out.push(raw_word(s)?);
        return Ok(());
    }
    let number = if s.contains('.') {
        float::F32.encode_bits(s).ok().map(|b| b as u32)
    } else {
        literal::encode_untyped_int(s).ok()
    };
    if let Some(w) = number {
        out.push(w);
    } else if let Some(v) = string_value(s) {
        encode_string(&v, out);
    } else if s.starts_with('%') {
        let name = id_name(s)?;
        out.push(ids.get_or_assign(name));
    } else {
        return Err(K::InvalidRawOperand(s.to_string()));
    }
    Ok(())
}
