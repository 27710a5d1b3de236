//! `spvx val`: validate a module (binary or text) and print each error in the manner of
//! spirv-val, at its place, through the one diagnostic renderer (spvx-run's `diagnostic`):
//! line:column and the source line for text input, the word offset and the instruction for
//! binary input.

use crate::cmd::CmdResult;
use crate::io::read_input;
use spvx_run::diagnostic::{Diagnostic, InstructionPlaces, Place};
use spvx_spirv::asm::{AsmOptions, assemble};
use spvx_spirv::binary::{MAGIC, ParsedModule, read_bytes, read_words};
use spvx_spirv::instruction::Instruction;
use spvx_val::{Options, TargetEnv, ValError, validate};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Validate a SPIR-V module: binary (either byte order) or text in spirv-as syntax.
///
/// A valid module prints nothing and exits 0, like spirv-val. Otherwise every error is printed
/// to standard error, each at its place, and the exit status is 1. Text that does not
/// assemble, or a binary that does not decode, is reported as `spvx as` and `spvx dis` report
/// it.
#[derive(clap::Args)]
#[command(after_help = "\
Each error is printed to standard error at its place, in the style of rustc. Text input: the
line and column where the instruction starts, the source line and carets under the instruction:

  error: OpIAdd: expected an int scalar or vector type as Result Type, found %float
    --> shader.spvasm:13:4
     |
  13 |    %x = OpIAdd %float %c %c
     |    ^^^^^^^^^^^^^^^^^^^^^^^^

Binary input: the word offset of the instruction (header included) and the instruction as
spirv-dis prints it (friendly names):

  error: OpIAdd: expected an int scalar or vector type as Result Type, found %float
   --> shader.spv: word 44
    |
    = instruction: %8 = OpIAdd %float %int_1 %int_1

An error of the module as a whole names the file alone (` --> shader.spv`).

Examples:
  spvx val shader.spv
  spvx val --target-env vulkan1.3 shader.spvasm
  cat shader.spv | spvx val -")]
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
    #[command(flatten)]
    pub switches: SwitchArgs,
}

/// spirv-val's switches, by the same names and with the same meaning.
#[derive(clap::Args)]
#[command(next_help_heading = "spirv-val switches")]
pub struct SwitchArgs {
    /// Enable VK_KHR_relaxed_block_layout when checking block layouts (the default for
    /// Vulkan 1.1 and later).
    #[arg(long)]
    pub relax_block_layout: bool,
    /// Enable uniformBufferStandardLayout: uniform blocks use std430 (base) alignment.
    #[arg(long)]
    pub uniform_buffer_standard_layout: bool,
    /// Enable scalarBlockLayout for Uniform, StorageBuffer, PushConstant and
    /// PhysicalStorageBuffer blocks (more permissive than relaxed layout).
    #[arg(long)]
    pub scalar_block_layout: bool,
    /// Enable scalar block layout for Workgroup blocks
    /// (workgroupMemoryExplicitLayoutScalarBlockLayout).
    #[arg(long)]
    pub workgroup_scalar_block_layout: bool,
    /// Skip the block layout rules (overrides the three above).
    #[arg(long)]
    pub skip_block_layout: bool,
    /// Allow pointer-typed variables and functions returning pointers under Logical
    /// addressing.
    #[arg(long)]
    pub relax_logical_pointer: bool,
    /// Allow the code patterns spirv-opt's HLSL legalization removes (implies
    /// --relax-logical-pointer).
    #[arg(long)]
    pub before_hlsl_legalization: bool,
    /// Allow OpStore of a struct into a pointer to a different struct type with the same
    /// layout and members.
    #[arg(long)]
    pub relax_struct_store: bool,
    /// Allow the LocalSizeId execution mode where the target environment does not.
    #[arg(long)]
    pub allow_localsizeid: bool,
}

impl SwitchArgs {
    fn layout(&self) -> spvx_val::LayoutFlags {
        spvx_val::LayoutFlags {
            relax_block_layout: self.relax_block_layout,
            uniform_buffer_standard_layout: self.uniform_buffer_standard_layout,
            scalar_block_layout: self.scalar_block_layout,
            workgroup_scalar_block_layout: self.workgroup_scalar_block_layout,
            skip_block_layout: self.skip_block_layout,
        }
    }

    fn relaxations(&self) -> spvx_val::Relaxations {
        spvx_val::Relaxations {
            relax_logical_pointer: self.relax_logical_pointer,
            before_hlsl_legalization: self.before_hlsl_legalization,
            relax_struct_store: self.relax_struct_store,
            allow_localsizeid: self.allow_localsizeid,
        }
    }
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
    let (module, places) = if is_binary(&bytes) {
        let m = read_bytes(&bytes).map_err(|e| Diagnostic::binary(&name, &e).to_string())?;
        let places = InstructionPlaces::words(&name, m.offsets.clone());
        (m, places)
    } else {
        decode_text(&name, &bytes, &env)?
    };
    let opts = Options {
        target_env: env,
        limits: args.limits.limits(),
        layout: args.switches.layout(),
        relax: args.switches.relaxations(),
    };
    match validate(&module.header, &module.instructions, &opts) {
        Ok(_) => Ok(ExitCode::SUCCESS),
        Err(errors) => {
            let mut out = String::new();
            for e in &errors {
                out.push_str(&diagnostic(&module, &places, e).to_string());
                out.push('\n');
            }
            eprint!("{out}");
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
) -> Result<(ParsedModule, InstructionPlaces), String> {
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
    let places = InstructionPlaces::text(name, text, asm.locations.clone());
    // Instructions written with raw words are decoded from the words; each item is one
    // instruction, so the item order is the instruction order.
    let instructions: Vec<Instruction> = if asm.has_raw() {
        read_words(&asm.words())
            .map_err(|e| Diagnostic::binary(name, &e).to_string())?
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
    Ok((module, places))
}

/// A validation error at the place of its instruction (a binary's with the instruction as a
/// note); an error of the module as a whole at the file.
fn diagnostic(module: &ParsedModule, places: &InstructionPlaces, e: &ValError) -> Diagnostic {
    let d = Diagnostic::error(e.to_string());
    let d = match e.index {
        Some(i) => places.locate(d, i, &module.header, &module.instructions),
        None => d,
    };
    match d.place {
        Some(_) => d,
        None => d.at(Place::File {
            file: places.file().to_string(),
        }),
    }
}

/// How the input is named in messages.
fn display_name(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}
