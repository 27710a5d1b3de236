//! `spvx as`: assemble SPIR-V text (spirv-as syntax) into a binary module.
//!
//! Mirrors `spirv-as` (SPIRV-Tools 2025.5): `--target-env ENV` sets the header version the way
//! spirv-as does, `-` reads standard input or writes standard output, and the output defaults to
//! `out.spv`. Errors are printed rustc-style, with the source line and a caret under the place.

use crate::cmd::CmdResult;
use crate::io::{read_input, write_output};
use spvx_run::diagnostic::Diagnostic;
use spvx_spirv::asm::{
    AsmError, AsmOptions, DEFAULT_VERSION, TARGET_ENVS, assemble, target_env_version,
};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Assemble SPIR-V text into a binary module.
///
/// The text uses the syntax of SPIRV-Tools' spirv-as: `%name = OpName operands...`, `;`
/// comments, `!<integer>` raw words. For the same text the output equals spirv-as's output
/// except for the generator word of the header.
#[derive(clap::Args)]
#[command(after_help = target_env_help())]
pub struct AsArgs {
    /// The assembly text file; `-` reads standard input.
    #[arg(value_name = "IN")]
    pub input: PathBuf,
    /// The binary module to write; `-` writes standard output.
    #[arg(short = 'o', value_name = "OUT", default_value = "out.spv")]
    pub output: PathBuf,
    /// The target environment, which sets the SPIR-V version in the header (default: SPIR-V
    /// 1.6, as spirv-as). As in spirv-as, an argument that starts with a known name selects it.
    #[arg(long = "target-env", value_name = "ENV")]
    pub target_env: Option<String>,
}

fn target_env_help() -> String {
    let names: Vec<String> = TARGET_ENVS
        .iter()
        .map(|(n, v)| format!("{n} (SPIR-V {v})"))
        .collect();
    format!(
        "Target environments: {}.\nWithout --target-env the header says SPIR-V {DEFAULT_VERSION}.",
        names.join(", ")
    )
}

pub fn run(args: AsArgs) -> CmdResult {
    let version = match &args.target_env {
        None => DEFAULT_VERSION,
        Some(env) => target_env_version(env).ok_or_else(|| {
            format!("error: unknown target environment '{env}' (see `spvx as --help`)")
        })?,
    };
    let bytes = read_input(&args.input)?;
    let text = std::str::from_utf8(&bytes).map_err(|e| {
        format!(
            "error: {} is not valid UTF-8 (byte {})",
            display_name(&args.input),
            e.valid_up_to()
        )
    })?;
    let module = assemble(text, &AsmOptions { version })
        .map_err(|e| render_error(&display_name(&args.input), text, &e))?;
    write_output(&args.output, &module.bytes())?;
    Ok(ExitCode::SUCCESS)
}

fn display_name(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

/// Renders an assembler error rustc-style: message, location, the source line and carets.
pub fn render_error(file: &str, text: &str, e: &AsmError) -> String {
    Diagnostic::assembler(file, text, e).to_string()
}
