//! The disassembler: a decoded module as text, in the form spirv-dis (SPIRV-Tools 2025.5)
//! prints by default — header comments, friendly id names, aligned `=`, canonical opcode and
//! enumerant names, literals formatted as SPIRV-Tools formats them.
//!
//! - [`options`]: what can be switched (raw ids, header, indentation).
//! - [`names`]: friendly names (`%uint`, `%_ptr_Input_v3uint`, `%float_1_5`, ...).
//! - [`literal`]: integer and float literal formatting.
//! - [`format`]: header block and instruction lines.
//! - [`generator`]: registered generator tool names for the header.
//!
//! It knows nothing of validity: whatever the binary reader accepts, it prints.
//! Where spvx deliberately differs from spirv-dis it is written in docs/semantics/disassembler.md
//! (integer constants wider than 64 bits, which spirv-dis leaves blank, print their value).

mod fast_hash;
mod format;
mod generator;
pub mod literal;
pub mod names;
mod options;
mod types;

pub use generator::generator_text;
pub use names::FriendlyNames;
pub use options::DisOptions;

use crate::binary::{BinaryError, ParsedModule, read_bytes, read_words};
use crate::grammar::grammar;
use format::{IdNames, LineWriter};

/// The text of `module`.
pub fn disassemble(module: &ParsedModule, opts: &DisOptions) -> String {
    let g = grammar();
    let ctx = types::ModuleTypes::collect(&module.instructions);
    let friendly;
    let names = if opts.raw_id {
        IdNames::Raw
    } else {
        friendly = FriendlyNames::build_for_print(g, &ctx, &module.instructions);
        IdNames::Friendly(&friendly)
    };
    let mut out = String::with_capacity(module.instructions.len() * 40 + 128);
    if opts.header {
        format::write_header(&mut out, &module.header);
    }
    let lines = LineWriter {
        g,
        ctx: &ctx,
        names,
        opts: *opts,
    };
    for inst in &module.instructions {
        lines.write(&mut out, inst);
    }
    out
}

/// Decodes a binary (either byte order) and disassembles it.
pub fn disassemble_bytes(bytes: &[u8], opts: &DisOptions) -> Result<String, BinaryError> {
    Ok(disassemble(&read_bytes(bytes)?, opts))
}

/// Decodes a module given as host-order words and disassembles it.
pub fn disassemble_words(words: &[u32], opts: &DisOptions) -> Result<String, BinaryError> {
    Ok(disassemble(&read_words(words)?, opts))
}
