//! A cursor over the tokens of one command line, with the errors every command shares
//! (`expected …`, `unexpected …`), each naming the file, line and column.

use super::error::AmberError;
use super::lex::Tok;

/// The tokens of one line, read left to right.
pub struct Args<'t> {
    pub toks: &'t [Tok],
    pub i: usize,
    pub file: &'t str,
}

impl<'t> Args<'t> {
    pub fn new(file: &'t str, toks: &'t [Tok]) -> Args<'t> {
        Args { toks, i: 0, file }
    }

    /// An error at `t`.
    pub fn err(&self, t: &Tok, msg: impl Into<String>) -> AmberError {
        AmberError::parse(t.place(self.file), msg)
    }

    /// Something unsupported at `t`.
    pub fn unsupported(&self, t: &Tok, what: impl Into<String>) -> AmberError {
        AmberError::unsupported(t.place(self.file), what)
    }

    /// The last token read (or the first, before any).
    pub fn last(&self) -> &'t Tok {
        &self.toks[self.i.saturating_sub(1).min(self.toks.len() - 1)]
    }

    pub fn peek(&self) -> Option<&'t str> {
        self.toks.get(self.i).map(|t| t.text.as_str())
    }

    pub fn at_end(&self) -> bool {
        self.i >= self.toks.len()
    }

    /// The next token; `what` names it in the error when there is none.
    pub fn next(&mut self, what: &str) -> Result<&'t Tok, AmberError> {
        match self.toks.get(self.i) {
            Some(t) => {
                self.i += 1;
                Ok(t)
            }
            None => {
                let l = self.last();
                Err(self.err(l, format!("expected {what} after '{}'", l.text)))
            }
        }
    }

    /// Reads `kw` when it is next.
    pub fn eat(&mut self, kw: &str) -> bool {
        let yes = self.peek() == Some(kw);
        if yes {
            self.i += 1;
        }
        yes
    }

    /// The keyword `kw`, which must come next.
    pub fn keyword(&mut self, kw: &str) -> Result<&'t Tok, AmberError> {
        let t = self.next(kw)?;
        if t.text != kw {
            return Err(self.err(t, format!("expected {kw}, found '{}'", t.text)));
        }
        Ok(t)
    }

    /// An unsigned integer (decimal or 0x hex).
    pub fn u64(&mut self, what: &str) -> Result<u64, AmberError> {
        let t = self.next(what)?;
        parse_u64(&t.text).ok_or_else(|| {
            self.err(
                t,
                format!("expected {what} (an integer), found '{}'", t.text),
            )
        })
    }

    pub fn u32(&mut self, what: &str) -> Result<u32, AmberError> {
        let t = self.next(what)?;
        parse_u64(&t.text)
            .and_then(|v| u32::try_from(v).ok())
            .ok_or_else(|| {
                self.err(
                    t,
                    format!(
                        "expected {what} (an unsigned 32-bit integer), found '{}'",
                        t.text
                    ),
                )
            })
    }

    /// Nothing may follow.
    pub fn done(&self) -> Result<(), AmberError> {
        match self.toks.get(self.i) {
            Some(t) => Err(self.err(t, format!("unexpected '{}'", t.text))),
            None => Ok(()),
        }
    }
}

/// A non-negative integer, decimal or `0x` hex.
pub fn parse_u64(t: &str) -> Option<u64> {
    match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => t.parse().ok(),
    }
}

/// A tolerance: a number, optionally followed by `%`.
pub fn parse_tolerance(t: &str) -> Option<super::model::Tolerance> {
    let (num, percent) = match t.strip_suffix('%') {
        Some(n) => (n, true),
        None => (t, false),
    };
    let value: f64 = num.parse().ok()?;
    (value.is_finite() && value >= 0.0).then_some(super::model::Tolerance { value, percent })
}
