//! The disassembler: a decoded module as text, in the form spirv-dis (SPIRV-Tools 2025.5)
//! prints by default — header comments, friendly id names, aligned `=`, canonical opcode and
//! enumerant names, literals formatted as SPIRV-Tools formats them.
//!
//! - [`options`]: what can be switched (raw ids, header, indentation, nesting, offsets,
//!   comments, colour — spirv-dis's flags).
//! - [`names`]: friendly names (`%uint`, `%_ptr_Input_v3uint`, `%float_1_5`, ...).
//! - [`literal`]: integer and float literal formatting.
//! - [`format`]: header block and instruction lines.
//! - [`generator`]: registered generator tool names for the header.
//! - [`nesting`]: block nesting levels (`--nested-indent`).
//! - [`comments`]: section and line comments (`--comment`, `--offsets`).
//!
//! It knows nothing of validity: whatever the binary reader accepts, it prints.
//! Where spvx deliberately differs from spirv-dis it is written in docs/semantics/disassembler.md
//! (integer constants wider than 64 bits, which spirv-dis leaves blank, print their value).

mod comments;
mod format;
mod generator;
pub mod literal;
pub mod names;
mod nesting;
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
    if !(opts.nested_indent || opts.comment || opts.offsets || opts.color) {
        for inst in &module.instructions {
            lines.write_line(&mut out, inst, None);
            out.push('\n');
        }
        return out;
    }
    let levels = if opts.nested_indent {
        nesting::block_levels(&module.instructions)
    } else {
        Vec::new()
    };
    let mut comments = comments::Comments::default();
    // Under --nested-indent spirv-dis holds a function's blocks back until its OpFunctionEnd,
    // while section comments are written at once: the held lines go here meanwhile.
    let mut held = String::new();
    for (i, inst) in module.instructions.iter().enumerate() {
        comments.section(&mut out, &lines, inst);
        let level = levels.get(i).copied().flatten();
        if level.is_none() && !held.is_empty() {
            out.push_str(&held);
            held.clear();
        }
        let target = if level.is_some() { &mut held } else { &mut out };
        if opts.nested_indent && inst.opcode == crate::op::Op::Label {
            target.push('\n');
        }
        let start = target.len();
        lines.write_line(target, inst, level);
        let offset = module.offsets.get(i).copied().unwrap_or(0) * 4;
        comments.line(target, start, &lines, inst, offset);
        target.push('\n');
    }
    out.push_str(&held);
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
