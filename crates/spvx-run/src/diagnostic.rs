//! The places errors and events point at, rendered rustc-style: a run file's span (file,
//! line, column, the source line and carets), an assembler error in a module's text, and an
//! instruction of a module (line and column of its text, or word offset of its binary).
//!
//! Each renders exactly as `spvx` has always printed it; one shared renderer for every command
//! is a later step.

use spvx_spirv::asm::AsmError;
use std::fmt;
use std::ops::Range;

/// A span of a text file: where it is and the line it is on, rendered as
/// `\n --> FILE:LINE:COL\n  |\nLINE | source\n  |     ^^^`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snippet {
    pub file: String,
    /// 1-based line and column (in characters).
    pub line: usize,
    pub column: usize,
    /// The text of the line.
    pub source_line: String,
    /// Carets under the span (its characters on its first line, at least 1).
    pub width: usize,
}

impl Snippet {
    /// The snippet of `span` (byte offsets) in `text`, the contents of `file`.
    pub fn of(file: &str, text: &str, span: &Range<usize>) -> Snippet {
        let start = span.start.min(text.len());
        let (line, line_start, column) = line_and_column(text, start);
        let source_line = text[line_start..].lines().next().unwrap_or("").to_string();
        let width = text[start..span.end.clamp(start, text.len())]
            .split('\n')
            .next()
            .map_or(1, |s| s.chars().count().max(1));
        Snippet {
            file: file.to_string(),
            line,
            column,
            source_line,
            width,
        }
    }
}

impl fmt::Display for Snippet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let number = self.line.to_string();
        let pad = " ".repeat(number.len());
        write!(
            f,
            "\n{pad}--> {}:{}:{}\n{pad} |\n{number} | {}\n{pad} | {}{}",
            self.file,
            self.line,
            self.column,
            self.source_line,
            " ".repeat(self.column - 1),
            "^".repeat(self.width)
        )
    }
}

/// `FILE:LINE:COL` of byte offset `span.start` of `text`.
pub fn file_place(file: &str, text: &str, span: &Range<usize>) -> String {
    let start = span.start.min(text.len());
    let (line, _, column) = line_and_column(text, start);
    format!("{file}:{line}:{column}")
}

/// 1-based line, the byte offset where it starts, and 1-based column (in characters) of byte
/// offset `at` of `text`.
fn line_and_column(text: &str, at: usize) -> (usize, usize, usize) {
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |p| p + 1);
    let column = text[line_start..at].chars().count() + 1;
    (line, line_start, column)
}

/// An assembler error with its place, rendered rustc-style: message, location, the source
/// line and carets (tabs before the place kept, so that the carets line up).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsmDiagnostic {
    pub file: String,
    pub error: AsmError,
    /// The text of the error's line (up to a NUL).
    pub source_line: String,
    /// Carets under the span (its characters on its first line, at least 1).
    pub width: usize,
}

impl AsmDiagnostic {
    /// The diagnostic of `e`, an error in `text`, the contents of `file`.
    pub fn new(file: &str, text: &str, e: &AsmError) -> AsmDiagnostic {
        let line_text = text.lines().nth(e.line as usize - 1).unwrap_or("");
        let line_text = line_text.split('\0').next().unwrap_or("");
        let width = text
            .get(e.start..e.end)
            .map_or(1, |s| s.split('\n').next().unwrap_or("").chars().count())
            .max(1);
        AsmDiagnostic {
            file: file.to_string(),
            error: e.clone(),
            source_line: line_text.to_string(),
            width,
        }
    }
}

impl fmt::Display for AsmDiagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = &self.error;
        let number = e.line.to_string();
        let pad = " ".repeat(number.len());
        let col = e.column.max(1) as usize;
        let prefix: String = self
            .source_line
            .chars()
            .take(col - 1)
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        write!(
            f,
            "{kind}\n{pad}--> {file}:{line}:{col}\n{pad} |\n{number} | {line_text}\n{pad} | {prefix}{carets}",
            kind = e.kind,
            file = self.file,
            line = e.line,
            line_text = self.source_line,
            carets = "^".repeat(self.width),
        )
    }
}

/// Where an instruction of a module is, rendered as `\n --> FILE:LINE:COL\n  |\nLINE | text`
/// (text modules) or `\n --> FILE: word W` (binaries).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    Text {
        file: String,
        line: u32,
        column: u32,
        /// The line's text, trailing white space removed.
        source_line: String,
    },
    Word {
        file: String,
        word: usize,
    },
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Text {
                file,
                line,
                column,
                source_line,
            } => {
                let number = line.to_string();
                let pad = " ".repeat(number.len());
                write!(
                    f,
                    "\n{pad}--> {file}:{line}:{column}\n{pad} |\n{number} | {source_line}"
                )
            }
            Place::Word { file, word } => write!(f, "\n --> {file}: word {word}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snippet_by_hand() {
        let text = "a = 1\nbb = \"x\"\n";
        let s = Snippet::of("f.toml", text, &(11..14));
        assert_eq!(
            s.to_string(),
            "\n --> f.toml:2:6\n  |\n2 | bb = \"x\"\n  |      ^^^"
        );
        assert_eq!(file_place("f.toml", text, &(11..14)), "f.toml:2:6");
    }
}
