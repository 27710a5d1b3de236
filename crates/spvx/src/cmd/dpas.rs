//! `spvx dpas`: run DPAS programs over a register file, or multiply `.npy` matrices through the
//! DPAS simulator (crate spvx-dpas; the `.npy` files are read and written by spvx-run).
//! Argument handling and printing only; a program's syntax errors and failing instructions are
//! printed at their place in the program text (spvx-run's `diagnostic`).

use crate::cmd::CmdResult;
use crate::io::{read_input, write_output};
use spvx_dpas::gemm::matmul_fast;
use spvx_dpas::isa::{ExecOptions, parse_program};
use spvx_dpas::matrix::{MatmulSpec, matmul_instructions};
use spvx_dpas::{
    BfOutputRounding, DataType, FloatModel, Platform, Precision, RegisterFile, SimError,
};
use spvx_run::diagnostic::{Diagnostic, Place, TextPlace};
use spvx_run::npy::matrix::{acc_matrix_from_npy, acc_matrix_to_npy, element_matrix_from_npy};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Subcommand)]
pub enum DpasCommand {
    /// Run a DPAS program (text, one instruction per line) over a register file.
    #[command(after_help = "\
Program syntax, one instruction per line (`//`, `#`, `;` start comments):
  dpas.W.A.SD.RC (EXEC) DST SRC0 SRC1 SRC2
W = Src1 (B) precision, A = Src2 (A) precision: u1 s1 u2 s2 u4 s4 u8 s8 bf hf tf32 bf8 hf8.
Operands rN, rN.S, with optional :d :ud :f :bf :hf (S counts elements of that type);
Src0 may be null. Example:
  dpas.s8.s8.8.8 (16) r40:d r32:d r8 r0

Register files: raw little-endian bytes (GRF 0 first), or hex text when the file name ends
in .hex or .txt (`rN: dword0 dword1 ...`, unlisted GRFs zero). Standard output gets hex.")]
    Run(RunArgs),
    /// Multiply matrices given as .npy files: D = C + A x B through DPAS.
    #[command(after_help = "\
Element conventions: integer A/B as int8 or uint8 arrays (values in the precision's range),
hf as float16, bf as uint16 bits, bf8/hf8 as uint8 bits, tf32 as float32. C and D: D/UD as
int32/uint32, F as float32, BF/HF as uint16 bits (C may also be float16 for HF).

Example:
  spvx dpas matmul --a A.npy --b B.npy --a-type s8 --b-type s8 --dst-type d -o D.npy")]
    Matmul(MatmulArgs),
}

/// Options shared by both subcommands.
#[derive(clap::Args)]
pub struct CommonArgs {
    /// Platform: xehp, dg2 (exec size 8), pvc, xe2, xe3, xe3p (exec size 16).
    #[arg(long, default_value = "pvc")]
    platform: String,
    /// Float accumulation model: emulator (default), exact, esimd, cm, mesa, bf-tf-ftz.
    #[arg(long, default_value = "emulator")]
    model: String,
    /// fp32 to BF Dst rounding: rne (default) or emulator (CM/ESIMD: normal values only).
    #[arg(long, default_value = "rne")]
    bf_rounding: String,
}

#[derive(clap::Args)]
pub struct RunArgs {
    /// Program text; `-` reads standard input.
    #[arg(value_name = "PROGRAM")]
    program: PathBuf,
    /// Register file to start from (all zero when absent).
    #[arg(long, value_name = "FILE")]
    regs: Option<PathBuf>,
    /// Number of GRFs (1 to 256).
    #[arg(long, default_value_t = spvx_dpas::DEFAULT_GRFS)]
    grfs: usize,
    /// Output register file; `-` (the default) writes hex text to standard output.
    #[arg(short = 'o', value_name = "OUT", default_value = "-")]
    output: PathBuf,
    #[command(flatten)]
    common: CommonArgs,
}

#[derive(clap::Args)]
pub struct MatmulArgs {
    /// A (M x K).
    #[arg(long, value_name = "A.npy")]
    a: PathBuf,
    /// B (K x N).
    #[arg(long, value_name = "B.npy")]
    b: PathBuf,
    /// C (M x N); absent means a null Src0 (zero).
    #[arg(long, value_name = "C.npy")]
    c: Option<PathBuf>,
    /// Precision of A (Src2).
    #[arg(long)]
    a_type: String,
    /// Precision of B (Src1).
    #[arg(long)]
    b_type: String,
    /// Type of D: d, ud, f, bf, hf.
    #[arg(long)]
    dst_type: String,
    /// Output .npy file.
    #[arg(short = 'o', value_name = "D.npy")]
    output: PathBuf,
    /// Compute by simulating each DPAS instruction instead of the fast GEMM (same bits).
    #[arg(long)]
    instructions: bool,
    #[command(flatten)]
    common: CommonArgs,
}

pub fn run(c: DpasCommand) -> CmdResult {
    match c {
        DpasCommand::Run(a) => run_program(a),
        DpasCommand::Matmul(a) => matmul(a),
    }
}

fn common(c: &CommonArgs) -> Result<(Platform, ExecOptions), String> {
    let platform: Platform = c.platform.parse().map_err(|e| format!("error: {e}"))?;
    let model = FloatModel::named(&c.model).ok_or_else(|| {
        format!(
            "error: unknown float model `{}` (expected {})",
            c.model,
            FloatModel::NAMES.join(", ")
        )
    })?;
    let bf_rounding = match c.bf_rounding.as_str() {
        "rne" => BfOutputRounding::NearestEven,
        "emulator" => BfOutputRounding::EmulatorNormalOnly,
        other => {
            return Err(format!(
                "error: unknown BF rounding `{other}` (expected rne or emulator)"
            ));
        }
    };
    Ok((platform, ExecOptions { model, bf_rounding }))
}

fn is_hex(path: &Path) -> bool {
    path.as_os_str() == "-"
        || matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("hex" | "txt")
        )
}

fn run_program(args: RunArgs) -> CmdResult {
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

fn precision(name: &str, what: &str) -> Result<Precision, String> {
    let canonical = match name.to_ascii_lowercase().as_str() {
        "bf16" => "bf".to_string(),
        "fp16" | "f16" => "hf".to_string(),
        "e5m2" => "bf8".to_string(),
        "e4m3" => "hf8".to_string(),
        other => other.to_string(),
    };
    canonical
        .parse()
        .map_err(|_| format!("error: {what}: unknown precision `{name}` (expected u1 s1 u2 s2 u4 s4 u8 s8 bf hf tf32 bf8 hf8)"))
}

fn matmul(args: MatmulArgs) -> CmdResult {
    let (platform, options) = common(&args.common)?;
    let a_type = precision(&args.a_type, "--a-type")?;
    let b_type = precision(&args.b_type, "--b-type")?;
    let dst: DataType = args
        .dst_type
        .parse()
        .map_err(|e| format!("error: --dst-type: {e}"))?;
    let a = element_matrix_from_npy("A", &read_input(&args.a)?, a_type)
        .map_err(|e| format!("error: {}: {e}", args.a.display()))?;
    let b = element_matrix_from_npy("B", &read_input(&args.b)?, b_type)
        .map_err(|e| format!("error: {}: {e}", args.b.display()))?;
    let half = if a_type == Precision::Fp16 {
        DataType::Hf
    } else {
        DataType::Bf
    };
    let c = match &args.c {
        Some(path) => Some(
            acc_matrix_from_npy("C", &read_input(path)?, half)
                .map_err(|e| format!("error: {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let spec = MatmulSpec {
        platform,
        a: a_type,
        b: b_type,
        dst,
        options,
    };
    let d = if args.instructions {
        matmul_instructions(&spec, &a, &b, c.as_ref())
    } else {
        matmul_fast(&spec, &a, &b, c.as_ref())
    }
    .map_err(|e| format!("error: {e}"))?;
    let bytes = acc_matrix_to_npy(&d).map_err(|e| format!("error: cannot encode D: {e}"))?;
    write_output(&args.output, &bytes)?;
    Ok(ExitCode::SUCCESS)
}
