//! `spvx val`: validate a module (binary or text) and print each error in the manner of
//! spirv-val, with where it is: line:column of the instruction for text input, the word offset
//! for binary input.

use crate::cmd::CmdResult;
use crate::io::read_input;
use spvx_spirv::asm::{AsmOptions, assemble};
use spvx_spirv::binary::{MAGIC, ParsedModule, read_bytes, read_words};
use spvx_spirv::dis::{DisOptions, disassemble};
use spvx_spirv::instruction::{Instruction, OperandValue};
use spvx_val::{Options, TargetEnv, ValError, validate};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Validate a SPIR-V module: binary (either byte order) or text in spirv-as syntax.
///
/// A valid module prints nothing and exits 0, like spirv-val. Otherwise every error is printed
/// to standard error as `error: line L:C: <message>` (text input) or `error: word W: <message>`
/// (binary input), followed by the offending instruction as spirv-dis prints it, and the exit
/// status is 1. Text that does not assemble, or a binary that does not decode, is reported as
/// `spvx as` and `spvx dis` report it.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  spvx val shader.spv\n  spvx val --target-env vulkan1.3 shader.spvasm\n  cat shader.spv | spvx val -"
)]
pub struct ValArgs {
    /// The module: a binary (detected by the SPIR-V magic number) or assembly text; `-` reads
    /// standard input.
    #[arg(value_name = "FILE")]
    pub input: PathBuf,
    /// The target environment whose rules apply (default spv1.6, as spirv-val): spv1.0-spv1.6,
    /// universal1.0-1.6, vulkan1.0-vulkan1.4, vulkan1.1spv1.4, opencl..., opengl....
    #[arg(long = "target-env", value_name = "ENV")]
    pub target_env: Option<String>,
    #[command(flatten)]
    pub limits: crate::cmd::limits::LimitArgs,
}

/// Where each instruction is, for messages.
enum Locations {
    /// (line, column) of each instruction of a text module.
    Text(Vec<(u32, u32)>),
    /// Word offset of each instruction of a binary module.
    Words(Vec<usize>),
}

pub fn run(args: ValArgs) -> CmdResult {
    let env = match &args.target_env {
        None => TargetEnv::default(),
        Some(name) => TargetEnv::parse(name).ok_or_else(|| {
            format!("error: unknown target environment '{name}' (see `spvx val --help`)")
        })?,
    };
    let bytes = read_input(&args.input)?;
    let name = display_name(&args.input);
    let (module, locations) = if is_binary(&bytes) {
        let m = read_bytes(&bytes).map_err(|e| format!("error: {name}: {e}"))?;
        let offsets = m.offsets.clone();
        (m, Locations::Words(offsets))
    } else {
        decode_text(&name, &bytes, &env)?
    };
    let opts = Options {
        target_env: env,
        limits: args.limits.limits(),
    };
    match validate(&module.header, &module.instructions, &opts) {
        Ok(_) => Ok(ExitCode::SUCCESS),
        Err(errors) => {
            eprint!("{}", render_errors(&module, &locations, &errors));
            Ok(ExitCode::FAILURE)
        }
    }
}

/// True when the input starts with the SPIR-V magic number in either byte order.
fn is_binary(bytes: &[u8]) -> bool {
    bytes.len() >= 4 && {
        let w = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        w == MAGIC || w == MAGIC.swap_bytes()
    }
}

/// Assembles text for the target environment's version (as spirv-as --target-env does).
fn decode_text(
    name: &str,
    bytes: &[u8],
    env: &TargetEnv,
) -> Result<(ParsedModule, Locations), String> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        format!(
            "error: {name} is not valid UTF-8 (byte {})",
            e.valid_up_to()
        )
    })?;
    let asm = assemble(
        text,
        &AsmOptions {
            version: env.max_version,
        },
    )
    .map_err(|e| crate::cmd::asm::render_error(name, text, &e))?;
    let locations = asm.locations.clone();
    // Instructions written with raw words are decoded from the words; each item is one
    // instruction, so the item order is the instruction order.
    let instructions: Vec<Instruction> = if asm.has_raw() {
        read_words(&asm.words())
            .map_err(|e| format!("error: {name}: {e}"))?
            .instructions
    } else {
        asm.instructions().cloned().collect()
    };
    let module = ParsedModule {
        header: asm.header,
        offsets: Vec::new(),
        instructions,
        big_endian: false,
    };
    Ok((module, Locations::Text(locations)))
}

/// The errors as spirv-val prints them, one block per error.
fn render_errors(module: &ParsedModule, locations: &Locations, errors: &[ValError]) -> String {
    let lines = instruction_lines(module);
    let mut out = String::new();
    for e in errors {
        match e.index {
            Some(i) => {
                let place = match locations {
                    Locations::Text(l) => l
                        .get(i)
                        .map_or_else(String::new, |(line, col)| format!("line {line}:{col}: ")),
                    Locations::Words(w) => {
                        w.get(i).map_or_else(String::new, |w| format!("word {w}: "))
                    }
                };
                out.push_str(&format!("error: {place}{e}\n"));
                if let Some(text) = lines.get(i) {
                    out.push_str(&format!("  {text}\n"));
                }
            }
            None => out.push_str(&format!("error: {e}\n")),
        }
    }
    out
}

/// Each instruction disassembled with friendly names, without indentation (a string operand
/// holding newlines spans several lines of the disassembly).
fn instruction_lines(module: &ParsedModule) -> Vec<String> {
    let text = disassemble(
        module,
        &DisOptions {
            raw_id: false,
            header: false,
            indent: false,
        },
    );
    let mut lines = text.split('\n');
    module
        .instructions
        .iter()
        .map(|inst| {
            let extra = inst
                .operands
                .iter()
                .map(|o| match &o.value {
                    OperandValue::String(s) => s.matches('\n').count(),
                    _ => 0,
                })
                .sum::<usize>();
            let mut s = lines.next().unwrap_or("").to_string();
            for _ in 0..extra {
                s.push('\n');
                s.push_str(lines.next().unwrap_or(""));
            }
            s
        })
        .collect()
}

/// How the input is named in messages.
fn display_name(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}
