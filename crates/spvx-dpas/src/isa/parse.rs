//! The text syntax of DPAS programs (one instruction per line):
//!
//! ```text
//! dpas.W.A.SD.RC (EXEC) DST SRC0 SRC1 SRC2     // comment
//! ```
//!
//! - `dpas` in any case; W (Src1/B precision) and A (Src2/A precision) are `u1 s1 u2 s2 u4 s4
//!   u8 s8 bf hf tf32 bf8 hf8`; SD and RC are decimal numbers.
//! - `(EXEC)` is the exec size, optionally with vISA's execution mask first: `(16)`,
//!   `(M1, 16)`, `(M5_NM, 8)`.
//! - Operands are `rN`, `rN.S` or either with `:T` (T = `d ud f bf hf`); S counts elements of
//!   type T. Without `:T`, Dst and Src0 are `d` for integer precisions and `f` for float ones,
//!   Src1 and Src2 are `ud`. Src0 may be `null` (optionally `null:T`). Operands are separated by
//!   spaces (commas are allowed too).
//! - `//`, `#` and `;` start comments; blank lines are ignored.

use spvx_num::dpas::Precision;

use super::{ExecMask, Instruction, Operand, Program, Src0};
use crate::{DataType, ParseError};

/// Parses a single instruction (the whole text; comments allowed).
pub fn parse_instruction(text: &str) -> Result<Instruction, ParseError> {
    let program = parse_program(text)?;
    match program.instructions() {
        [one] => Ok(one.1),
        list => Err(ParseError {
            line: 1,
            column: 1,
            message: format!("expected exactly one instruction, found {}", list.len()),
        }),
    }
}

/// Parses a program: every non-blank, non-comment line is one instruction.
pub fn parse_program(text: &str) -> Result<Program, ParseError> {
    let mut list = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = strip_comment(raw);
        if line.trim().is_empty() {
            continue;
        }
        let mut cursor = Cursor {
            chars: line.chars().collect(),
            pos: 0,
            line: i + 1,
        };
        list.push((i + 1, cursor.instruction()?));
    }
    Ok(Program::new(list))
}

fn strip_comment(line: &str) -> &str {
    let cut = [line.find("//"), line.find('#'), line.find(';')]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(line.len());
    &line[..cut]
}

/// A word of the line and the 0-based column where it starts.
struct Word {
    text: String,
    column: usize,
}

struct Cursor {
    chars: Vec<char>,
    pos: usize,
    line: usize,
}

impl Cursor {
    fn error<T>(&self, column0: usize, message: String) -> Result<T, ParseError> {
        Err(ParseError {
            line: self.line,
            column: column0 + 1,
            message,
        })
    }

    fn skip_space(&mut self) {
        while self
            .chars
            .get(self.pos)
            .is_some_and(|c| c.is_whitespace() || *c == ',')
        {
            self.pos += 1;
        }
    }

    /// The next word, ending at whitespace, a comma or one of `stop`.
    fn word(&mut self, stop: &[char]) -> Option<Word> {
        self.skip_space();
        let start = self.pos;
        while let Some(&c) = self.chars.get(self.pos) {
            if c.is_whitespace() || c == ',' || stop.contains(&c) {
                break;
            }
            self.pos += 1;
        }
        (self.pos > start).then(|| Word {
            text: self.chars[start..self.pos].iter().collect(),
            column: start,
        })
    }

    fn instruction(&mut self) -> Result<Instruction, ParseError> {
        let Some(head) = self.word(&['(']) else {
            return self.error(self.pos, "expected an instruction".into());
        };
        let (w, a, sd, rc) = self.mnemonic(&head)?;
        let (mask, exec_size) = self.exec()?;
        let (acc_default, src_default) = if w.is_df() {
            (DataType::Df, DataType::Df)
        } else if w.is_integer() {
            (DataType::D, DataType::Ud)
        } else {
            (DataType::F, DataType::Ud)
        };
        let dst = self.operand("Dst", acc_default, false)?;
        let src0 = self.operand("Src0", acc_default, true)?;
        let src1 = self.operand("Src1", src_default, false)?;
        let src2 = self.operand("Src2", src_default, false)?;
        self.skip_space();
        if self.pos < self.chars.len() {
            return self.error(self.pos, "unexpected text after Src2".into());
        }
        let (Src0::Reg(dst), Src0::Reg(src1), Src0::Reg(src2)) = (dst, src1, src2) else {
            return self.error(0, "only Src0 may be null".into());
        };
        Ok(Instruction {
            w,
            a,
            sd,
            rc,
            exec_size,
            mask,
            dst,
            src0,
            src1,
            src2,
        })
    }

    fn mnemonic(&self, head: &Word) -> Result<(Precision, Precision, u32, u32), ParseError> {
        let parts: Vec<&str> = head.text.split('.').collect();
        let column_of =
            |index: usize| head.column + parts[..index].iter().map(|p| p.len() + 1).sum::<usize>();
        if !parts[0].eq_ignore_ascii_case("dpas") {
            let hint = if parts[0].eq_ignore_ascii_case("dpasw") {
                " (DPASW is not simulated)"
            } else {
                ""
            };
            return self.error(
                head.column,
                format!("unknown instruction `{}`; expected `dpas`{hint}", parts[0]),
            );
        }
        if parts.len() != 5 {
            return self.error(
                head.column,
                format!(
                    "`{}`: expected dpas.W.A.SD.RC (W = Src1 precision, A = Src2 precision)",
                    head.text
                ),
            );
        }
        let precision = |index: usize| -> Result<Precision, ParseError> {
            parts[index]
                .to_ascii_lowercase()
                .parse()
                .or_else(|_| {
                    self.error(
                        column_of(index),
                        format!(
                            "unknown precision `{}` (expected u1 s1 u2 s2 u4 s4 u8 s8 bf hf tf32 bf8 hf8 df)",
                            parts[index]
                        ),
                    )
                })
        };
        let number = |index: usize, what: &str| -> Result<u32, ParseError> {
            parts[index].parse().or_else(|_| {
                self.error(
                    column_of(index),
                    format!("{what} `{}` is not a number", parts[index]),
                )
            })
        };
        Ok((
            precision(1)?,
            precision(2)?,
            number(3, "systolic depth")?,
            number(4, "repeat count")?,
        ))
    }

    fn exec(&mut self) -> Result<(ExecMask, u32), ParseError> {
        self.skip_space();
        if self.chars.get(self.pos) != Some(&'(') {
            return self.error(self.pos, "expected `(exec size)`".into());
        }
        let open = self.pos;
        let Some(close) = self.chars[open..].iter().position(|&c| c == ')') else {
            return self.error(open, "missing `)` after the exec size".into());
        };
        let inner: String = self.chars[open + 1..open + close].iter().collect();
        self.pos = open + close + 1;
        let items: Vec<&str> = inner.split(',').map(str::trim).collect();
        let (mask_text, size_text) = match items.as_slice() {
            [size] => (None, *size),
            [mask, size] => (Some(*mask), *size),
            _ => return self.error(open, format!("`({inner})`: expected (N) or (Mx, N)")),
        };
        let mut mask = ExecMask::default();
        if let Some(m) = mask_text {
            let upper = m.to_ascii_uppercase();
            let (body, no_mask) = match upper.strip_suffix("_NM") {
                Some(b) => (b, true),
                None => (upper.as_str(), false),
            };
            let offset = body
                .strip_prefix('M')
                .and_then(|n| n.parse::<u8>().ok())
                .filter(|n| (1..=8).contains(n));
            let Some(offset) = offset else {
                return self.error(
                    open + 1,
                    format!("`{m}` is not an execution mask M1..M8 (or Mx_NM)"),
                );
            };
            mask = ExecMask {
                offset: offset - 1,
                no_mask,
            };
        }
        let Ok(size) = size_text.parse::<u32>() else {
            return self.error(open + 1, format!("exec size `{size_text}` is not a number"));
        };
        Ok((mask, size))
    }

    fn operand(
        &mut self,
        name: &str,
        default: DataType,
        may_be_null: bool,
    ) -> Result<Src0, ParseError> {
        let Some(word) = self.word(&[]) else {
            return self.error(self.pos, format!("expected {name} operand"));
        };
        let (body, ty) = match word.text.split_once(':') {
            Some((b, t)) => {
                let column = word.column + b.len() + 1;
                let ty: DataType = t
                    .parse()
                    .or_else(|e| self.error(column, format!("{name}: {e}")))?;
                (b, Some(ty))
            }
            None => (word.text.as_str(), None),
        };
        if body.eq_ignore_ascii_case("null") {
            if !may_be_null {
                return self.error(
                    word.column,
                    format!("{name} cannot be null (only Src0 can)"),
                );
            }
            return Ok(Src0::Null(ty));
        }
        let bad = |this: &Self| {
            this.error(
                word.column,
                format!(
                    "{name}: `{}` is not a register operand rN, rN.S or null",
                    word.text
                ),
            )
        };
        let Some(rest) = body.strip_prefix(['r', 'R']) else {
            return bad(self);
        };
        let (reg, sub) = match rest.split_once('.') {
            Some((r, s)) => (r, s),
            None => (rest, "0"),
        };
        let (Ok(reg), Ok(sub)) = (reg.parse::<u32>(), sub.parse::<u32>()) else {
            return bad(self);
        };
        Ok(Src0::Reg(Operand::new(reg, sub, ty.unwrap_or(default))))
    }
}
