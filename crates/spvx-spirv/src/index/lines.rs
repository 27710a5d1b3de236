//! Source locations of instructions: the `OpLine` or `DebugLine` (NonSemantic.Shader.DebugInfo.100)
//! in force at an instruction, for runtime reports that point into the source a compiler read.
//!
//! Scope (SPIR-V 1.6 §3.49.2 `OpLine`; NonSemantic.Shader.DebugInfo.100 §4.13 `DebugLine`): a
//! location applies to the instructions physically following it, up to the next `OpLine`,
//! `OpNoLine`, `DebugLine` or `DebugNoLine`, or the end of the block. spvx therefore looks back
//! from the instruction to the nearest of those, stopping at the block's `OpLabel`, the previous
//! block's termination instruction, or a function boundary. A `DebugLine`'s lines and columns are
//! ids of integer constants; one that is not such a constant gives no location (never a guess).

use super::ModuleIndex;
use crate::instruction::{Id, Instruction, Operand};
use crate::module::is_terminator;
use crate::op::Op;
use std::fmt;

/// Where in the source an instruction came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceLocation {
    /// The file name (`OpString`), when the file operand names one.
    pub file: Option<String>,
    pub line: u32,
    pub column: u32,
    /// The last line and column of a `DebugLine` range (equal to the first for `OpLine`).
    pub line_end: u32,
    pub column_end: u32,
    /// Index of the `OpLine` or `DebugLine` instruction that gives it.
    pub from: usize,
}

impl fmt::Display for SourceLocation {
    /// `file:line:column` (`<unknown file>` when the file is not an `OpString`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = self.file.as_deref().unwrap_or("<unknown file>");
        write!(f, "{file}:{}:{}", self.line, self.column)
    }
}

/// What a line instruction says.
enum LineMark {
    At(SourceLocation),
    NoLine,
}

impl ModuleIndex {
    /// The source location in force at instruction `index`, if any.
    pub fn source_location(&self, index: usize) -> Option<SourceLocation> {
        let before = self.insts.get(..index)?;
        for (i, inst) in before.iter().enumerate().rev() {
            if let Some(mark) = self.line_mark(i, inst) {
                return match mark {
                    LineMark::At(loc) => Some(loc),
                    LineMark::NoLine => None,
                };
            }
            let op = inst.opcode;
            if op == Op::Label || op == Op::Function || op == Op::FunctionEnd || is_terminator(op) {
                return None;
            }
        }
        None
    }

    fn line_mark(&self, index: usize, inst: &Instruction) -> Option<LineMark> {
        match inst.opcode {
            Op::Line => {
                let file = inst.operands.first().and_then(Operand::id);
                let line = inst.operands.get(1).and_then(Operand::word)?;
                let column = inst.operands.get(2).and_then(Operand::word)?;
                Some(LineMark::At(SourceLocation {
                    file: file.and_then(|f| self.op_string(f)),
                    line,
                    column,
                    line_end: line,
                    column_end: column,
                    from: index,
                }))
            }
            Op::NoLine => Some(LineMark::NoLine),
            Op::ExtInst => match self.shader_debug_info(inst)? {
                "DebugNoLine" => Some(LineMark::NoLine),
                "DebugLine" => {
                    let arg = |k: usize| inst.operands.get(2 + k).and_then(Operand::id);
                    let value = |k: usize| {
                        arg(k)
                            .and_then(|id| self.const_u64(id))
                            .and_then(|v| u32::try_from(v).ok())
                    };
                    let file = arg(0).and_then(|src| self.debug_source_file(src));
                    Some(LineMark::At(SourceLocation {
                        file,
                        line: value(1)?,
                        line_end: value(2)?,
                        column: value(3)?,
                        column_end: value(4)?,
                        from: index,
                    }))
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// The name of `inst` when it is an instruction of NonSemantic.Shader.DebugInfo.100.
    fn shader_debug_info(&self, inst: &Instruction) -> Option<&'static str> {
        if inst.opcode != Op::ExtInst {
            return None;
        }
        let set = inst.operands.first().and_then(Operand::id)?;
        let s = self.grammar.ext_inst_set(self.ext_imports.get(&set)?)?;
        if s.name != "NonSemantic.Shader.DebugInfo.100" {
            return None;
        }
        let number = inst.operands.get(1).and_then(Operand::word)?;
        Some(s.instruction(number)?.name)
    }

    /// The text of an `OpString`.
    pub fn op_string(&self, id: Id) -> Option<String> {
        let inst = self.def_inst(id)?;
        (inst.opcode == Op::String)
            .then(|| inst.operands.first()?.string().map(str::to_string))
            .flatten()
    }

    /// The file name of a `DebugSource` (its `File` operand, an `OpString`).
    fn debug_source_file(&self, source: Id) -> Option<String> {
        let inst = self.def_inst(source)?;
        if self.shader_debug_info(inst)? != "DebugSource" {
            return None;
        }
        let file = inst.operands.get(2).and_then(Operand::id)?;
        self.op_string(file)
    }

    /// The source text the module embeds for `file`: an `OpSource` naming it, with the
    /// `OpSourceContinued`s after it (glslang `-g`), or a `DebugSource` naming it with its
    /// `Text` (NonSemantic.Shader.DebugInfo.100, glslang `-gVS`).
    pub fn source_text(&self, file: &str) -> Option<String> {
        for (at, inst) in self.insts.iter().enumerate() {
            let names = |k: usize| {
                inst.operands
                    .get(k)
                    .and_then(Operand::id)
                    .and_then(|f| self.op_string(f))
                    .is_some_and(|f| f == file)
            };
            if inst.opcode == Op::Source && names(2) {
                let mut text = inst.operands.get(3)?.string()?.to_string();
                for next in &self.insts[at + 1..] {
                    match (next.opcode, next.operands.first().and_then(|o| o.string())) {
                        (Op::SourceContinued, Some(more)) => text.push_str(more),
                        _ => break,
                    }
                }
                return Some(text);
            }
            if inst.opcode == Op::ExtInst
                && self.shader_debug_info(inst) == Some("DebugSource")
                && names(2)
            {
                let text = inst.operands.get(3).and_then(Operand::id)?;
                return self.op_string(text);
            }
        }
        None
    }

    /// Line `loc.line` (1-based) of the embedded source text of `loc`'s file.
    pub fn source_line(&self, loc: &SourceLocation) -> Option<String> {
        let text = self.source_text(loc.file.as_deref()?)?;
        let n = usize::try_from(loc.line).ok()?.checked_sub(1)?;
        text.lines().nth(n).map(str::to_string)
    }
}
