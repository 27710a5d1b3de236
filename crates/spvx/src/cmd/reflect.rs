//! `spvx reflect`: what a module declares — entry points, bindings and block layouts, push constants,
//! specialisation constants, capabilities, extensions and the Vulkan features they need — as
//! text or JSON. The facts come from the module index (spvx-run's `reflect`); this file only
//! parses arguments and prints.

use super::{CmdResult, error, report};
use crate::io::write_output;
use clap::Args;
use spvx_run::module::LoadedModule;
use spvx_run::reflect::Reflection;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args)]
#[command(after_long_help = HELP)]
pub struct ReflectArgs {
    /// The module: a binary (SPIR-V magic number, either byte order) or assembly text.
    pub module: PathBuf,
    /// Print JSON (one object; the fields are the text form's sections).
    #[arg(long)]
    pub json: bool,
}

const HELP: &str = "\
Prints what the module declares, read from the same module index the engine, `spvx run` and
the Vulkan backend use (the module is not validated: an invalid module is described as it is):

  entry points      execution model, name, LocalSize (when the entry point has one)
  bindings          set.binding, storage class, variable, OpName, pointee type, the element
                    type every leaf of the block shares (if one does), array length or
                    'runtime array', 'never written' when no instruction of the module can
                    write it (every use followed: loads, copies, calls; the engine then
                    does not copy it back after a run); then the block's layout: its size
                    in bytes (or the bytes before its runtime array and that array's
                    stride: a buffer of OFFSET + n * STRIDE bytes holds n elements), and
                    each member's offset, name, type, size and ArrayStride / MatrixStride
                    (row-major marked), as the module's decorations give them ('?' where
                    one is missing)
  push constants    variable and type, and the block's layout as for bindings
  spec constants    SpecId, constant, type, default (true/false, or the literal words as an
                    unsigned integer: a float's bits)
  capabilities, extensions
  vulkan features   what the capabilities ask of a Vulkan device (features, subgroup
                    operations); for a capability Vulkan has no mapping for (e.g. Kernel),
                    why the module cannot run there

Types and ids are named as `spvx dis` names them (%uint, %_ptr_StorageBuffer_A, ...).

Examples:
  spvx reflect shader.spv
  spvx reflect --json kernel.spvasm | python3 -m json.tool";

pub fn run(args: ReflectArgs) -> CmdResult {
    let module = LoadedModule::read(&args.module).map_err(report)?;
    let r = Reflection::of(&module);
    let text = if args.json {
        serde_json::to_string_pretty(&r).map_err(error)? + "\n"
    } else {
        r.to_text()
    };
    write_output(Path::new("-"), text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
