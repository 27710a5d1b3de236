//! Where each instruction of a module is, for the messages of validation (`spvx val`) and of
//! the engine (`spvx run`, `spvx diff`): line and column in assembly text, with the source
//! line; or word offset in a binary, with the instruction disassembled (friendly names, as
//! spirv-val prints it) as a note.

use super::{Diagnostic, Place, TextPlace};
use spvx_spirv::binary::{Header, ParsedModule};
use spvx_spirv::dis::{DisOptions, disassemble};
use spvx_spirv::instruction::{Instruction, OperandValue};
use std::sync::OnceLock;

/// The places of a module's instructions, by instruction index (file order).
pub struct InstructionPlaces {
    file: String,
    at: At,
}

enum At {
    /// Assembly text: (line, column) where each instruction starts, and the text's lines.
    Text {
        at: Vec<(u32, u32)>,
        lines: Vec<String>,
    },
    /// A binary: the word offset of each instruction, and (made on first use) each
    /// instruction's text.
    Words {
        offsets: Vec<usize>,
        texts: OnceLock<Vec<String>>,
    },
}

impl InstructionPlaces {
    /// Instructions of assembly `text` (the contents of `file`) starting at `at`
    /// ((line, column) each, as the assembler reports them).
    pub fn text(file: &str, text: &str, at: Vec<(u32, u32)>) -> InstructionPlaces {
        InstructionPlaces {
            file: file.to_string(),
            at: At::Text {
                at,
                lines: text.lines().map(str::to_string).collect(),
            },
        }
    }

    /// Instructions of the binary `file` starting at word `offsets`.
    pub fn words(file: &str, offsets: Vec<usize>) -> InstructionPlaces {
        InstructionPlaces {
            file: file.to_string(),
            at: At::Words {
                offsets,
                texts: OnceLock::new(),
            },
        }
    }

    /// The file's name, as messages give it.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// Where instruction `index` is: its line, column and source line (carets under the
    /// instruction), or its word offset; `None` for an index the module does not have.
    pub fn place(&self, index: usize) -> Option<Place> {
        match &self.at {
            At::Text { at, lines } => at.get(index).map(|&(line, column)| {
                let source = lines
                    .get((line as usize).saturating_sub(1))
                    .map_or("", |l| l.trim_end());
                Place::Text(TextPlace::instruction(
                    &self.file,
                    source,
                    line as usize,
                    column as usize,
                ))
            }),
            At::Words { offsets, .. } => offsets.get(index).map(|&word| Place::Word {
                file: self.file.clone(),
                word,
            }),
        }
    }

    /// `d` placed at instruction `index` of the module (`header` and `instructions`, the ones
    /// these places were made for): in a binary, with the instruction as the note
    /// `= instruction: ...`. Unchanged for an index the module does not have.
    pub fn locate(
        &self,
        d: Diagnostic,
        index: usize,
        header: &Header,
        instructions: &[Instruction],
    ) -> Diagnostic {
        let Some(place) = self.place(index) else {
            return d;
        };
        let d = d.at(place);
        match &self.at {
            At::Words { texts, .. } => {
                let texts = texts.get_or_init(|| instruction_texts(header, instructions));
                match texts.get(index) {
                    Some(text) => d.note("instruction", text.as_str()),
                    None => d,
                }
            }
            At::Text { .. } => d,
        }
    }
}

/// Each instruction of the module disassembled with friendly names and without indentation
/// (`%8 = OpIAdd %float %int_1 %int_1`); a string operand holding line breaks keeps them.
pub fn instruction_texts(header: &Header, instructions: &[Instruction]) -> Vec<String> {
    let module = ParsedModule {
        header: *header,
        instructions: instructions.to_vec(),
        offsets: Vec::new(),
        big_endian: false,
    };
    let text = disassemble(
        &module,
        &DisOptions {
            raw_id: false,
            header: false,
            indent: false,
            ..DisOptions::default()
        },
    );
    let mut lines = text.split('\n');
    instructions
        .iter()
        .map(|inst| {
            let extra = inst
                .operands
                .iter()
                .map(|o| match &o.value {
                    OperandValue::String(s) => s.matches('\n').count(),
                    _ => 0,
                })
                .sum::<usize>();
            let mut s = lines.next().unwrap_or("").to_string();
            for _ in 0..extra {
                s.push('\n');
                s.push_str(lines.next().unwrap_or(""));
            }
            s
        })
        .collect()
}

/// The characters of the instruction that starts at 1-based `column` of `line`: up to a `;`
/// comment outside a string literal (or the end), trailing blanks left out; at least 1.
pub(super) fn instruction_width(line: &str, column: usize) -> usize {
    let mut in_string = false;
    let mut escaped = false;
    let mut width = 0;
    let mut content = 0;
    for c in line.chars().skip(column.max(1) - 1) {
        if in_string {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == ';' {
            break;
        } else if c == '"' {
            in_string = true;
        }
        width += 1;
        if !c.is_whitespace() {
            content = width;
        }
    }
    content.max(1)
}
