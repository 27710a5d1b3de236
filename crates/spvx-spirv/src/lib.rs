//! `spvx-spirv`: SPIR-V as data — the grammar, the module model, the binary reader and writer,
//! and the text assembler and disassembler in the syntax of SPIRV-Tools.
//!
//! It knows how modules are encoded and spelled, not what they compute: no validation rules
//! beyond what decoding needs, and no execution.

pub mod grammar;
