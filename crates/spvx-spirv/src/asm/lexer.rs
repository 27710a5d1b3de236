//! Splits assembly text into words the way spirv-as does.
//!
//! Between words: spaces, tabs, carriage returns and newlines, and `;` comments to the end of
//! the line. A word runs until an unquoted, unescaped space, tab, `\r`, `\n`, `;`, `,`, `(` or
//! `)`; double quotes group (so `"a b"` is one word) and a backslash escapes the next character.
//! The text ends at its first NUL character, as for spirv-as, which reads C strings. A `,`, `(`
//! or `)` between words is an error (spirv-as reports an empty word there). `\v` and `\f` are
//! not separators (spirv-as treats them as part of a word).

use super::error::{AsmError, AsmErrorKind};

/// One word of the text: a byte span and the line it starts on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub start: usize,
    pub end: usize,
    pub line: u32,
}

impl Token {
    /// The word's text.
    pub fn text<'t>(&self, src: &'t str) -> &'t str {
        &src[self.start..self.end]
    }
}

/// The words of `text`, in order.
pub fn lex(text: &str) -> Result<Vec<Token>, AsmError> {
    let bytes = text.as_bytes();
    let len = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    let bytes = &bytes[..len];
    let mut tokens = Vec::with_capacity(len / 6 + 1);
    let mut i = 0;
    let mut line = 1u32;
    while i < len {
        match bytes[i] {
            b' ' | b'\t' | b'\r' => i += 1,
            b'\n' => {
                line += 1;
                i += 1;
            }
            b';' => {
                while i < len && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            c @ (b',' | b'(' | b')') => {
                return Err(error_at(
                    text,
                    i,
                    i + 1,
                    line,
                    AsmErrorKind::UnexpectedCharacter(c as char),
                ));
            }
            _ => {
                let start = i;
                let start_line = line;
                let mut quoting = false;
                let mut escaping = false;
                while i < len {
                    let c = bytes[i];
                    if c == b'\\' {
                        escaping = !escaping;
                    } else {
                        if c == b'"' && !escaping {
                            quoting = !quoting;
                        } else if !escaping
                            && !quoting
                            && matches!(c, b' ' | b'\t' | b'\r' | b'\n' | b';' | b',' | b'(' | b')')
                        {
                            break;
                        }
                        escaping = false;
                    }
                    if c == b'\n' {
                        line += 1;
                    }
                    i += 1;
                }
                if quoting {
                    let quote =
                        start + bytes[start..i].iter().position(|&b| b == b'"').unwrap_or(0);
                    return Err(error_at(
                        text,
                        quote,
                        i,
                        start_line_of(bytes, quote, start, start_line),
                        AsmErrorKind::UnterminatedString,
                    ));
                }
                tokens.push(Token {
                    start,
                    end: i,
                    line: start_line,
                });
            }
        }
    }
    Ok(tokens)
}

/// The line of byte `at`, given that byte `from` (<= at) is on line `from_line`.
fn start_line_of(bytes: &[u8], at: usize, from: usize, from_line: u32) -> u32 {
    from_line + bytes[from..at].iter().filter(|&&b| b == b'\n').count() as u32
}

/// An error for the byte span `start..end`, which begins on `line`.
pub fn error_at(text: &str, start: usize, end: usize, line: u32, kind: AsmErrorKind) -> AsmError {
    let line_start = text[..start].rfind('\n').map_or(0, |p| p + 1);
    let column = text[line_start..start].chars().count() as u32 + 1;
    AsmError {
        line,
        column,
        start,
        end,
        kind,
    }
}
