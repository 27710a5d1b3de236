//! Diagnostics: an error or a warning with an optional place and notes, and the one renderer
//! every command prints them with (annotate-snippets, plain text, in the style of rustc).
//!
//! ```text
//! error: MESSAGE                       error: MESSAGE
//!  --> FILE:LINE:COL                    --> FILE: word W
//!   |                                    |
//! LINE | source line                     = instruction: %x = OpIAdd %int %a %b
//!   |      ^^^^
//! ```
//!
//! A place is a span of a text file (its source line, carets under the span; tabs before it
//! are kept as wide as in the line, so the carets line up), an instruction of a binary module
//! (its word offset, and the instruction as a note) or a whole file. Library errors that
//! carry places (run files, assembler and binary-reader errors, engine and validation errors)
//! turn into [`Diagnostic`]s through [`ToDiagnostics`]; their `Display` is the same rendering
//! without the leading `error: `, so `format!("error: {e}")` prints the same bytes.
//!
//! - `render`: the annotate-snippets adapter (the only code that lays out a diagnostic).
//! - `places`: where each instruction of a module is ([`InstructionPlaces`]), for validation
//!   and engine messages; [`instruction_texts`], each instruction disassembled.

mod places;
mod render;

pub use places::{InstructionPlaces, instruction_texts};

use spvx_spirv::asm::AsmError;
use spvx_spirv::binary::BinaryError;
use std::fmt;
use std::ops::Range;

/// How serious a diagnostic is: its first word (`error: `, `warning: `).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

/// One message to print: what is wrong, where, and notes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// One line, without the `error: ` prefix.
    pub message: String,
    pub place: Option<Place>,
    /// Printed after the place, each as `= LABEL: TEXT`.
    pub notes: Vec<Note>,
}

/// A note under a diagnostic: `= LABEL: TEXT` (`note`, `instruction`, ...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    pub label: String,
    pub text: String,
}

/// Where a diagnostic points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// A span of a text file: ` --> FILE:LINE:COL`, the source line and carets.
    Text(TextPlace),
    /// A word offset of a binary module (header included): ` --> FILE: word W`.
    Word { file: String, word: usize },
    /// A file as a whole: ` --> FILE`.
    File { file: String },
}

/// A span on one line of a text file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextPlace {
    pub file: String,
    /// 1-based line and column (in characters).
    pub line: usize,
    pub column: usize,
    /// The text of the line (without its line break).
    pub source_line: String,
    /// Carets under the span: its characters on this line (at least 1).
    pub width: usize,
}

impl TextPlace {
    /// The place of `span` (byte offsets) in `text`, the contents of `file`: carets under the
    /// span's characters on its first line.
    pub fn of_span(file: &str, text: &str, span: &Range<usize>) -> TextPlace {
        let start = text.floor_char_boundary(span.start.min(text.len()));
        let end = text.floor_char_boundary(span.end.clamp(start, text.len()));
        let (line, line_start, column) = line_and_column(text, start);
        let source_line = text[line_start..].lines().next().unwrap_or("").to_string();
        let width = text[start..end]
            .split('\n')
            .next()
            .map_or(1, |s| s.chars().count().max(1));
        TextPlace {
            file: file.to_string(),
            line,
            column,
            source_line,
            width,
        }
    }

    /// The place of an assembler error in `text`, the contents of `file`: its line and column,
    /// carets under the offending token.
    pub fn of_asm_error(file: &str, text: &str, e: &AsmError) -> TextPlace {
        let line = (e.line as usize).max(1);
        let source_line = text.lines().nth(line - 1).unwrap_or("").to_string();
        let width = text
            .get(e.start..e.end)
            .map_or(1, |s| s.split('\n').next().unwrap_or("").chars().count())
            .max(1);
        TextPlace {
            file: file.to_string(),
            line,
            column: (e.column as usize).max(1),
            source_line,
            width,
        }
    }

    /// Line `line`, column `column` of `text` (the contents of `file`), carets under the
    /// word that starts there (up to white space or one of `,.()`).
    pub fn token(file: &str, text: &str, line: usize, column: usize) -> TextPlace {
        let source_line = text.lines().nth(line.max(1) - 1).unwrap_or("").to_string();
        let column = column.max(1);
        let width = source_line
            .chars()
            .skip(column - 1)
            .take_while(|c| !c.is_whitespace() && !",.()".contains(*c))
            .count()
            .max(1);
        TextPlace {
            file: file.to_string(),
            line: line.max(1),
            column,
            source_line,
            width,
        }
    }

    /// Line `line` of `text` (the contents of `file`), carets under what it holds: from its
    /// first non-blank character to the first of `comments` (or the end), trailing blanks left
    /// out. `None` for a line the text does not have or that holds nothing.
    pub fn line_content(
        file: &str,
        text: &str,
        line: usize,
        comments: &[&str],
    ) -> Option<TextPlace> {
        let source_line = text.lines().nth(line.checked_sub(1)?)?;
        let cut = comments
            .iter()
            .filter_map(|c| source_line.find(c))
            .min()
            .unwrap_or(source_line.len());
        let content = &source_line[..cut];
        let start = content.len() - content.trim_start().len();
        let body = content.trim();
        if body.is_empty() {
            return None;
        }
        Some(TextPlace {
            file: file.to_string(),
            line,
            column: source_line[..start].chars().count() + 1,
            source_line: source_line.to_string(),
            width: body.chars().count(),
        })
    }

    /// An instruction of SPIR-V assembly that starts at `line`:`column` of `file`, whose line
    /// reads `source_line`: carets from there to the end of the instruction on that line
    /// (before a `;` comment, trailing blanks left out).
    pub fn instruction(file: &str, source_line: &str, line: usize, column: usize) -> TextPlace {
        let column = column.max(1);
        TextPlace {
            file: file.to_string(),
            line,
            column,
            source_line: source_line.to_string(),
            width: places::instruction_width(source_line, column),
        }
    }
}

impl Diagnostic {
    /// An error with no place yet.
    pub fn error(message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            place: None,
            notes: Vec::new(),
        }
    }

    /// A warning with no place yet.
    pub fn warning(message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(message)
        }
    }

    /// The same diagnostic at `place`.
    pub fn at(self, place: Place) -> Diagnostic {
        Diagnostic {
            place: Some(place),
            ..self
        }
    }

    /// The same diagnostic with the note `= LABEL: TEXT` added.
    pub fn note(mut self, label: &str, text: impl Into<String>) -> Diagnostic {
        self.notes.push(Note {
            label: label.to_string(),
            text: text.into(),
        });
        self
    }

    /// An assembler error in `text`, the contents of `file`.
    pub fn assembler(file: &str, text: &str, e: &AsmError) -> Diagnostic {
        Diagnostic::error(e.kind.to_string())
            .at(Place::Text(TextPlace::of_asm_error(file, text, e)))
    }

    /// A binary-reader error in `file`: at the word offset where the offending instruction or
    /// word begins.
    pub fn binary(file: &str, e: &BinaryError) -> Diagnostic {
        Diagnostic::error(e.kind.to_string()).at(Place::Word {
            file: file.to_string(),
            word: e.offset,
        })
    }

    /// The rendering without the leading `error: ` / `warning: ` (what the `Display` of a
    /// library error holding this diagnostic prints; callers put `error: ` before it).
    pub fn render_body(&self) -> String {
        render::render(self, false)
    }
}

/// The full rendering: `error: MESSAGE`, the place, the notes; no final line break.
impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&render::render(self, true))
    }
}

/// Diagnostics one after the other, one line break between two (none at the end).
pub fn render_all(diagnostics: &[Diagnostic]) -> String {
    diagnostics
        .iter()
        .map(Diagnostic::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

/// An error that can say where it is: one diagnostic, or several (the first is the error).
pub trait ToDiagnostics {
    fn diagnostics(&self) -> Vec<Diagnostic>;
}

impl<T: ToDiagnostics + ?Sized> ToDiagnostics for &T {
    fn diagnostics(&self) -> Vec<Diagnostic> {
        (**self).diagnostics()
    }
}

/// `FILE:LINE:COL` of byte offset `span.start` of `text`.
pub fn file_place(file: &str, text: &str, span: &Range<usize>) -> String {
    let start = text.floor_char_boundary(span.start.min(text.len()));
    let (line, _, column) = line_and_column(text, start);
    format!("{file}:{line}:{column}")
}

/// 1-based line, the byte offset where it starts, and 1-based column (in characters) of byte
/// offset `at` (a character boundary) of `text`.
fn line_and_column(text: &str, at: usize) -> (usize, usize, usize) {
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |p| p + 1);
    let column = text[line_start..at].chars().count() + 1;
    (line, line_start, column)
}

#[cfg(test)]
mod tests;
