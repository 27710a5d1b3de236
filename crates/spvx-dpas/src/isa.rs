//! The DPAS instruction: its model ([`Instruction`]), text syntax ([`parse_program`]), legality
//! per platform ([`check`]), execution over a register file ([`execute`]), programs of several
//! instructions ([`Program`]) and the binary header fields for a later encoder ([`encoding`]).

pub mod encoding;
mod exec;
mod geometry;
mod instr;
mod legality;
mod parse;
mod program;

pub use exec::{ExecOptions, execute};
pub use geometry::Geometry;
pub use instr::{ExecMask, Instruction, Operand, Src0};
pub use legality::check;
pub use parse::{parse_instruction, parse_program};
pub use program::Program;
