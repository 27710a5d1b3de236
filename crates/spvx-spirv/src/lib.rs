//! `spvx-spirv`: SPIR-V as data — the grammar, the module model, the binary reader and writer,
//! and the text assembler and disassembler in the syntax of SPIRV-Tools.
//!
//! It knows how modules are encoded and spelled, not what they compute: no validation rules
//! beyond what decoding needs, and no execution.
//!
//! - [`grammar`]: the one table of instructions, operand kinds and enumerants.
//! - [`op`]: typed opcodes (generated from the same grammar): [`op::Op`] and the extended sets.
//! - [`instruction`]: one instruction as data.
//! - [`context`]: facts earlier instructions give about later ones (literal widths, ext sets).
//! - [`index`]: the module index (definitions, types, constants, capabilities, names,
//!   decorations, entry points, functions and blocks), built once and read by every consumer.
//! - [`layout`]: the grammar walk shared by the binary reader and the assembler.
//! - [`binary`]: header, reader and writer of the binary form.
//! - [`module`]: the module model (sections, functions, blocks) and a builder.
//! - [`asm`]: the text assembler (spirv-as syntax).
//! - [`dis`]: the disassembler (spirv-dis output).

pub mod asm;
pub mod binary;
pub mod context;
pub mod dis;
pub mod grammar;
pub mod index;
pub mod instruction;
pub mod layout;
pub mod module;
pub mod op;
