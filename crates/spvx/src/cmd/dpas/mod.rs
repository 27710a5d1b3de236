//! `spvx dpas`: run DPAS programs over a register file ([`program`]), multiply `.npy` matrices
//! through the DPAS simulator ([`matmul`]; the `.npy` files are read and written by spvx-run),
//! or time the fast GEMM against the machine's peak ([`bench`]), or draw an instruction's
//! register regions ([`layout`]). Argument handling and printing only.

mod bench;
mod layout;
mod matmul;
mod program;

use crate::cmd::CmdResult;
use spvx_dpas::isa::ExecOptions;
use spvx_dpas::{BfOutputRounding, FloatModel, Platform};
use std::path::PathBuf;

#[derive(clap::Subcommand)]
pub enum DpasCommand {
    /// Run a DPAS program (text, one instruction per line) over a register file.
    #[command(after_help = "\
Program syntax, one instruction per line (`//`, `#`, `;` start comments):
  dpas.W.A.SD.RC (EXEC) DST SRC0 SRC1 SRC2
W = Src1 (B) precision, A = Src2 (A) precision: u1 s1 u2 s2 u4 s4 u8 s8 bf hf tf32 bf8 hf8
df (df: fp64, Xe3P only, all four operands DF). Operands rN, rN.S, with optional
:d :ud :f :bf :hf :df (S counts elements of that type); Src0 may be null. Examples:
  dpas.s8.s8.8.8 (16) r40:d r32:d r8 r0
  dpas.df.df.8.8 (16) r0 null r32 r48        (--platform xe3p)

Register files: raw little-endian bytes (GRF 0 first), or hex text when the file name ends
in .hex or .txt (`rN: dword0 dword1 ...`, unlisted GRFs zero). Standard output gets hex.")]
    Run(RunArgs),
    /// Multiply matrices given as .npy files: D = C + A x B through DPAS.
    #[command(after_help = "\
Element conventions: integer A/B as int8 or uint8 arrays (values in the precision's range),
hf as float16 (<f2), bf as ml_dtypes.bfloat16 (np.save writes it as <V2), bf8/hf8 as uint8
bits, tf32 as float32; with --raw, hf and bf also as uint16/int16 bit patterns. C and D:
D/UD as int32/uint32, F as float32, BF/HF as uint16 bits (C may also be float16 for HF,
bfloat16 for BF). df is not supported here (use `spvx dpas run`).

Example:
  spvx dpas matmul --a A.npy --b B.npy --a-type s8 --b-type s8 --dst-type d -o D.npy
  spvx dpas matmul --bench --size 1024 --a-type s8 --b-type s8 --dst-type d")]
    Matmul(MatmulArgs),
    /// Draw a DPAS instruction's register regions (Dst, Src0, Src1 with its VNNI packing,
    /// Src2) as a text grid, or as an SVG with --svg.
    #[command(after_help = "\
One row per GRF, one column per dword; each dword names the elements it holds: D r,c and
C r,c (Dst, Src0), B k,n (Src1), A r,k (Src2), ranges as B0-1,5 (B[0][5] and B[1][5]);
a df element spans two dwords (.lo, .hi); `.` is a dword the operand does not use.

Example:
  spvx dpas layout 'dpas.bf.bf.8.2 (8) r10 null r20 r30' --platform dg2")]
    Layout(LayoutArgs),
}

/// Options shared by both subcommands.
#[derive(clap::Args)]
pub struct CommonArgs {
    /// Platform: xehp, dg2 (exec size 8), pvc, xe2, xe3, xe3p (exec size 16).
    #[arg(long, default_value = "pvc")]
    platform: String,
    /// Float accumulation model: emulator (default), exact, esimd, cm, mesa, bf-tf-ftz,
    /// df-rounded (df products rounded to fp64 before each addition).
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
    #[arg(long, value_name = "A.npy", required_unless_present = "bench")]
    a: Option<PathBuf>,
    /// B (K x N).
    #[arg(long, value_name = "B.npy", required_unless_present = "bench")]
    b: Option<PathBuf>,
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
    #[arg(short = 'o', value_name = "D.npy", required_unless_present = "bench")]
    output: Option<PathBuf>,
    /// Compute by simulating each DPAS instruction instead of the fast GEMM (same bits).
    #[arg(long)]
    instructions: bool,
    /// Also read hf and bf A/B elements from uint16/int16 arrays, as bit patterns.
    #[arg(long)]
    raw: bool,
    /// Instead of reading A and B: time the fast GEMM on generated SIZE³ matrices of the
    /// given types, alternating with the machine's peak loop (`vpdpbusd` for integer types,
    /// fp32 FMA for float types) on the same threads, and print both rates and their ratio.
    #[arg(long, conflicts_with_all = ["a", "b", "c", "output", "instructions", "raw"])]
    bench: bool,
    /// M = K = N of --bench.
    #[arg(long, default_value_t = 1024, requires = "bench")]
    size: usize,
    /// Rounds of --bench (one GEMM and one peak-loop run each; the best of each counts).
    #[arg(long, default_value_t = 10, requires = "bench")]
    rounds: usize,
    #[command(flatten)]
    common: CommonArgs,
}

#[derive(clap::Args)]
pub struct LayoutArgs {
    /// The instruction, e.g. 'dpas.s8.s8.8.8 (16) r40 r32 r8 r0'.
    #[arg(value_name = "INSTRUCTION")]
    instruction: String,
    /// Platform: xehp, dg2 (exec size 8), pvc, xe2, xe3, xe3p (exec size 16).
    #[arg(long, default_value = "pvc")]
    platform: String,
    /// Write an SVG drawing to FILE (`-`: standard output) instead of the text grid.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
}

pub fn run(c: DpasCommand) -> CmdResult {
    match c {
        DpasCommand::Run(a) => program::run_program(a),
        DpasCommand::Matmul(a) => matmul::matmul(a),
        DpasCommand::Layout(a) => layout::layout(a),
    }
}

pub(super) fn common(c: &CommonArgs) -> Result<(Platform, ExecOptions), String> {
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
