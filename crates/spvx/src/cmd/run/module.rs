//! Reading the module to run (binary, detected by the SPIR-V magic number, or assembly text),
//! choosing its entry point, compiling it with spvx-exec, and saying where an instruction is
//! (line:column of the text, or word offset of the binary) in messages.

use spvx_spirv::op::Op;
use spvx_exec::{CompileOptions, CompiledModule};
use spvx_spirv::asm::{AsmOptions, assemble};
use spvx_spirv::binary::{Header, MAGIC, read_bytes, read_words};
use spvx_spirv::instruction::{Instruction, OperandValue};
use std::path::Path;

/// OpEntryPoint's opcode.
/// ExecutionModel Kernel.
pub const KERNEL: u32 = 6;

/// A module read from a file.
pub struct LoadedModule {
    /// The name used in messages.
    pub name: String,
    pub header: Header,
    pub instructions: Vec<Instruction>,
    places: Places,
}

/// Where each instruction is.
enum Places {
    /// Text: (line, column) of each instruction and the text's lines.
    Text {
        at: Vec<(u32, u32)>,
        lines: Vec<String>,
    },
    /// Binary: word offset of each instruction.
    Words(Vec<usize>),
}

/// One entry point of the module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryPoint {
    pub name: String,
    pub model: u32,
}

impl LoadedModule {
    /// Reads `path`: a binary module (either byte order) or spirv-as text.
    pub fn read(path: &Path) -> Result<LoadedModule, String> {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| format!("error: cannot read {name}: {e}"))?;
        if is_binary(&bytes) {
            let m = read_bytes(&bytes).map_err(|e| format!("error: {name}: {e}"))?;
            return Ok(LoadedModule {
                name,
                header: m.header,
                instructions: m.instructions,
                places: Places::Words(m.offsets),
            });
        }
        let text = std::str::from_utf8(&bytes).map_err(|e| {
            format!(
                "error: {name} is neither a SPIR-V binary (no magic number) nor UTF-8 text (byte {})",
                e.valid_up_to()
            )
        })?;
        let asm = assemble(text, &AsmOptions::default())
            .map_err(|e| crate::cmd::asm::render_error(&name, text, &e))?;
        let instructions = if asm.has_raw() {
            read_words(&asm.words())
                .map_err(|e| format!("error: {name}: {e}"))?
                .instructions
        } else {
            asm.instructions().cloned().collect()
        };
        Ok(LoadedModule {
            name,
            header: asm.header,
            instructions,
            places: Places::Text {
                at: asm.locations.clone(),
                lines: text.lines().map(str::to_string).collect(),
            },
        })
    }

    /// The module's entry points, in module order.
    pub fn entry_points(&self) -> Vec<EntryPoint> {
        self.instructions
            .iter()
            .filter(|i| i.opcode == Op::EntryPoint)
            .filter_map(|i| {
                let model = i.operands.first()?.word()?;
                let name = i.operands.iter().find_map(|o| match &o.value {
                    OperandValue::String(s) => Some(s.clone()),
                    _ => None,
                })?;
                Some(EntryPoint { name, model })
            })
            .collect()
    }

    /// The entry point to run: `requested`, else the only one, else the one named `main`.
    pub fn choose_entry(&self, requested: Option<&str>) -> Result<EntryPoint, String> {
        let all = self.entry_points();
        let names = || {
            all.iter()
                .map(|e| e.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        if let Some(want) = requested {
            return all.iter().find(|e| e.name == want).cloned().ok_or_else(|| {
                format!(
                    "error: {}: no entry point named '{want}' (the module has: {})",
                    self.name,
                    names()
                )
            });
        }
        match all.as_slice() {
            [] => Err(format!("error: {}: the module has no entry point", self.name)),
            [only] => Ok(only.clone()),
            _ => all.iter().find(|e| e.name == "main").cloned().ok_or_else(|| {
                format!(
                    "error: {}: the module has several entry points ({}); choose one with --entry",
                    self.name,
                    names()
                )
            }),
        }
    }

    /// Compiles `entry` with spvx-exec.
    pub fn compile(&self, entry: &str, opts: &CompileOptions) -> Result<CompiledModule, String> {
        CompiledModule::from_instructions(&self.header, &self.instructions, entry, opts)
            .map_err(|e| self.render_exec_error(&e))
    }

    /// An engine error with the place of the instruction it names, if any.
    pub fn render_exec_error(&self, e: &spvx_exec::ExecError) -> String {
        use spvx_exec::ExecError as E;
        let index = match e {
            E::Unsupported { instruction, .. }
            | E::Compile { instruction, .. }
            | E::BarrierDeadlock { instruction, .. } => Some(*instruction),
            E::Undefined(ev) => Some(ev.instruction),
            _ => None,
        };
        let mut out = format!("error: {e}");
        if let E::Invalid(errors) = e {
            for v in errors.iter().skip(1).take(9) {
                out.push_str(&format!("\nerror: {v}"));
            }
            if let Some(i) = errors.first().and_then(|v| v.index) {
                out.push_str(&self.place(i as u32));
            }
        }
        if let Some(i) = index {
            out.push_str(&self.place(i));
        }
        out
    }

    /// `\n --> file:line:col` and the source line (text), or `\n --> file: word W` (binary).
    pub fn place(&self, index: u32) -> String {
        match &self.places {
            Places::Text { at, lines } => match at.get(index as usize) {
                Some(&(line, col)) => {
                    let src = lines
                        .get((line as usize).saturating_sub(1))
                        .map_or("", String::as_str);
                    let number = line.to_string();
                    let pad = " ".repeat(number.len());
                    format!(
                        "\n{pad}--> {}:{line}:{col}\n{pad} |\n{number} | {}",
                        self.name,
                        src.trim_end()
                    )
                }
                None => String::new(),
            },
            Places::Words(offsets) => offsets
                .get(index as usize)
                .map_or_else(String::new, |w| format!("\n --> {}: word {w}", self.name)),
        }
    }
}

/// True when the input starts with the SPIR-V magic number in either byte order.
fn is_binary(bytes: &[u8]) -> bool {
    bytes.len() >= 4 && {
        let w = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        w == MAGIC || w == MAGIC.swap_bytes()
    }
}
