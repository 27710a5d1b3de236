//! Amber scripts (google/amber's AmberScript and VkScript), the compute subset: parsed into
//! one [`model::Script`], then carried out on the engine or a Vulkan device, each `RUN` over
//! the same machinery as `spvx run` (the module read and compiled by [`crate::module`], buffers
//! as engine [`spvx_exec::Resources`] or spvx-vk runs), each `EXPECT` checked in the buffer's
//! element type ([`crate::ElemType`]; `EQ_BUFFER` through [`crate::compare`]).
//!
//! - [`lex`], [`args`]: lines and tokens with line:column; [`error`]: places and errors.
//! - [`layout`]: data types and Amber's std140/std430/packed layouts; [`values`]: values.
//! - [`parse`] (with `parse_pipeline`, `parse_command`): AmberScript; [`vkscript`]: VkScript; [`model`]: the script they both give.
//! - [`shader`]: shaders to SPIR-V (spvx's assembler, hex, binary files, glslangValidator).
//! - [`exec`]: running the commands; [`check`]: the EXPECTs; [`allowance`]: the
//!   specification's freedoms in EXPECTs on a device; [`outputs`]: the buffers after a script
//!   (`--out`).
//!
//! Decisions the Amber documents leave open are in docs/semantics/amber.md.

pub mod allowance;
pub mod args;
pub mod check;
pub mod error;
pub mod exec;
pub mod layout;
pub mod lex;
pub mod model;
pub mod outputs;
pub mod parse;
mod parse_command;
mod parse_pipeline;
pub mod require;
pub mod shader;
pub mod values;
pub mod vkscript;

pub use error::{AmberError, Place};
pub use exec::{
    Failure, OutBuffer, Outcome, ScriptOptions, Status, Target, run_script, run_script_with,
};
