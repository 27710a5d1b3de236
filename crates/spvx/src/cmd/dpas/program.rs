//! `spvx dpas run`: a DPAS program over a register file; syntax errors and failing instructions
//! are printed at their place in the program text (spvx-run's `diagnostic`).

use super::{RunArgs, common};
use crate::cmd::CmdResult;
use crate::io::{read_input, write_output};
use spvx_dpas::isa::parse_program;
use spvx_dpas::{RegisterFile, SimError};
use spvx_run::diagnostic::{Diagnostic, Place, TextPlace};
use std::path::Path;
use std::process::ExitCode;

fn is_hex(path: &Path) -> bool {
    path.as_os_str() == "-"
        || matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("hex" | "txt")
        )
}

pub(super) fn run_program(args: RunArgs) -> CmdResult {
    let (platform, options) = common(&args.common)?;
    let name = args.program.display().to_string();
    let text = String::from_utf8(read_input(&args.program)?)
        .map_err(|_| format!("error: {name}: the program is not UTF-8 text"))?;
    let program = parse_program(&text).map_err(|e| {
        Diagnostic::error(e.message)
            .at(Place::Text(TextPlace::token(
                &name, &text, e.line, e.column,
            )))
            .to_string()
    })?;
    let grf_bytes = platform.grf_bytes() as usize;
    let mut regs = match &args.regs {
        None => RegisterFile::with_grf_bytes(grf_bytes, args.grfs),
        Some(path) => {
            let bytes = read_input(path)?;
            if is_hex(path) {
                let text = String::from_utf8(bytes)
                    .map_err(|_| format!("error: {}: not UTF-8 text", path.display()))?;
                RegisterFile::from_hex(&text, grf_bytes, args.grfs)
            } else {
                RegisterFile::from_raw(&bytes, grf_bytes, args.grfs)
            }
        }
    }
    .map_err(|e| format!("error: {e}"))?;
    program
        .run(platform, &mut regs, &options)
        .map_err(|e| run_error(&name, &text, e))?;
    let out = if is_hex(&args.output) {
        regs.to_hex().into_bytes()
    } else {
        regs.to_raw()
    };
    write_output(&args.output, &out)?;
    Ok(ExitCode::SUCCESS)
}

/// The comment markers of DPAS program text (as its parser strips them).
const COMMENTS: [&str; 3] = ["//", "#", ";"];

/// A failing instruction of the program `name` (text `text`): at its line, carets under it.
fn run_error(name: &str, text: &str, e: SimError) -> String {
    match e {
        SimError::InProgram {
            index,
            line,
            source,
        } => {
            let d = Diagnostic::error(format!("instruction {index}: {source}"));
            match TextPlace::line_content(name, text, line, &COMMENTS) {
                Some(place) => d.at(Place::Text(place)),
                None => d.at(Place::File {
                    file: name.to_string(),
                }),
            }
            .to_string()
        }
        other => format!("error: {name}: {other}"),
    }
}
