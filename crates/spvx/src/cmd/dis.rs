//! `spvx dis`: disassemble a binary module into SPIR-V text, as spirv-dis prints it; a binary
//! that does not decode is reported at its word offset (` --> FILE: word W`).

use crate::cmd::CmdResult;
use crate::io::{read_input, write_output};
use spvx_run::diagnostic::Diagnostic;
use spvx_spirv::dis::{DisOptions, disassemble_bytes};
use std::path::PathBuf;
use std::process::ExitCode;

/// Disassemble a SPIR-V binary (either byte order) into text in spirv-dis syntax.
///
/// The default output is byte-for-byte what spirv-dis (SPIRV-Tools 2025.5) prints: a header
/// comment block, friendly id names derived from OpName, built-ins and types (%uint,
/// %_ptr_Input_v3uint, %float_1_5, ...), the `=` of result ids aligned, canonical opcode and
/// enumerant names. A malformed binary is reported with the word offset of the offending
/// instruction.
#[derive(clap::Args)]
#[command(after_help = "\
The output is byte for byte what spirv-dis (SPIRV-Tools 2025.5) prints, under each of its
flags (--raw-id, --no-header, --no-indent, --nested-indent, --offsets, --comment, --color):
a header comment block, friendly id names derived from OpName, built-ins and types (%uint,
%_ptr_Input_v3uint, %float_1_5, ...), the `=` of result ids aligned, canonical opcode and
enumerant names.
A malformed binary is reported with the word offset of the offending instruction:
  error: instruction OpFunctionEnd has word count 2, but only 1 words remain in the module
   --> shader.spv: word 50

Examples:
  spvx dis shader.spv
  spvx dis --raw-id shader.spv -o shader.spvasm
  spvx dis --comment --nested-indent --offsets shader.spv
  cat shader.spv | spvx dis -")]
pub struct DisArgs {
    /// Input binary; `-` reads standard input.
    #[arg(value_name = "IN")]
    input: PathBuf,
    /// Output file; `-` (the default) writes standard output.
    #[arg(short = 'o', value_name = "OUT", default_value = "-")]
    output: PathBuf,
    /// Print numeric ids (%1) instead of friendly names, as `spirv-dis --raw-id`.
    #[arg(long)]
    raw_id: bool,
    /// Leave out the `; SPIR-V` header comments, as `spirv-dis --no-header`.
    #[arg(long)]
    no_header: bool,
    /// Do not indent instructions or align `=`, as `spirv-dis --no-indent`.
    #[arg(long)]
    no_indent: bool,
    /// Indent blocks by their nesting in structured control flow, as
    /// `spirv-dis --nested-indent`.
    #[arg(long)]
    nested_indent: bool,
    /// End each line with a comment giving the instruction's byte offset, as
    /// `spirv-dis --offsets`.
    #[arg(long)]
    offsets: bool,
    /// Add section comments, the id each OpName names and each id's decorations, as
    /// `spirv-dis --comment`.
    #[arg(long)]
    comment: bool,
    /// Colour the output with ANSI escapes, as `spirv-dis --color`: only on standard output, and
    /// not with --no-color anywhere on the line (what spirv-dis 2025.5 does). The default is no
    /// colour, as spirv-dis writing to a file or pipe.
    #[arg(long)]
    color: bool,
    /// No colour (the default); wins over --color wherever it is, as in spirv-dis 2025.5.
    #[arg(long)]
    no_color: bool,
}

pub fn run(args: DisArgs) -> CmdResult {
    let bytes = read_input(&args.input)?;
    let opts = DisOptions {
        raw_id: args.raw_id,
        header: !args.no_header,
        indent: !args.no_indent,
        nested_indent: args.nested_indent,
        offsets: args.offsets,
        comment: args.comment,
        color: args.color && !args.no_color && args.output.as_os_str() == "-",
    };
    let text = disassemble_bytes(&bytes, &opts)
        .map_err(|e| Diagnostic::binary(&display_name(&args.input), &e).to_string())?;
    write_output(&args.output, text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

/// How the input is named in messages.
fn display_name(path: &std::path::Path) -> String {
    if path.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}
