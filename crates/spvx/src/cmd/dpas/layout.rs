//! `spvx dpas layout`: an instruction's register regions as a text grid or an SVG (drawn by
//! `spvx_dpas::diagram`).

use super::LayoutArgs;
use crate::cmd::CmdResult;
use crate::io::write_output;
use spvx_dpas::Platform;
use spvx_dpas::diagram::{svg, text};
use spvx_dpas::isa::parse_instruction;
use std::process::ExitCode;

pub(super) fn layout(args: LayoutArgs) -> CmdResult {
    let platform: Platform = args.platform.parse().map_err(|e| format!("error: {e}"))?;
    let instr = parse_instruction(&args.instruction).map_err(|e| {
        format!(
            "error: instruction, column {}: {}\n  {}\n  {:>width$}",
            e.column,
            e.message,
            args.instruction,
            "^",
            width = e.column
        )
    })?;
    let drawing = match &args.svg {
        Some(_) => svg(&instr, platform),
        None => text(&instr, platform),
    }
    .map_err(|e| format!("error: {e}"))?;
    match &args.svg {
        Some(path) => write_output(path, drawing.as_bytes())?,
        None => print!("{drawing}"),
    }
    Ok(ExitCode::SUCCESS)
}
