//! A DPAS program: instructions in source order, run one after another over one register
//! file.

use super::{ExecOptions, Instruction, execute};
use crate::{Platform, RegisterFile, SimError};

/// Instructions with their 1-based source lines.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Program {
    instructions: Vec<(usize, Instruction)>,
}

impl Program {
    /// A program of `(line, instruction)` pairs.
    pub fn new(instructions: Vec<(usize, Instruction)>) -> Program {
        Program { instructions }
    }

    /// The instructions with their source lines.
    pub fn instructions(&self) -> &[(usize, Instruction)] {
        &self.instructions
    }

    /// Checks every instruction on `platform` before running any, then runs them in order on
    /// `regs`. An error names the instruction (index and line).
    pub fn run(
        &self,
        platform: Platform,
        regs: &mut RegisterFile,
        options: &ExecOptions,
    ) -> Result<(), SimError> {
        let wrap = |index: usize, line: usize, e: SimError| SimError::InProgram {
            index,
            line,
            source: Box::new(e),
        };
        for (index, (line, instr)) in self.instructions.iter().enumerate() {
            super::check(instr, platform).map_err(|e| wrap(index, *line, e.into()))?;
        }
        for (index, (line, instr)) in self.instructions.iter().enumerate() {
            execute(instr, platform, regs, options).map_err(|e| wrap(index, *line, e))?;
        }
        Ok(())
    }
}
