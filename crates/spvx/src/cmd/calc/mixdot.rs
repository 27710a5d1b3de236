//! `spvx calc mixdot`: the mixed float dot products of SPV_VALVE_mixed_float_dot_product on the
//! command line — a batch form for scripts (one case per line on stdin) and a single-case form
//! for people. Parsing and printing only; the arithmetic is `spvx_num::mixdot` (the batch form,
//! in batches: `super::mixdot_batch`).

use crate::cmd::CmdResult;
use spvx_num::float::{Format, RoundingMode};
use spvx_num::mixdot::{Encoding, MixOp, MixdotCase, Model, ModelConfig};
use std::io::Write;
use std::process::ExitCode;

const HELP_TEXT: &str = "\
Mixed-precision float dot products (SPV_VALVE_mixed_float_dot_product): result = ACC + A·B.

OPERATIONS
  dot2acc32  OpFDot2MixAcc32VALVE: 2 × f16 or 2 × bf16 (both vectors the same), f32 ACC → f32
  dot2acc16  OpFDot2MixAcc16VALVE: 2 × f16 or 2 × bf16, ACC and result in that same format
  dot4acc32  OpFDot4MixAcc32VALVE: 4 × e4m3 or e5m2 (each vector its own encoding), f32 ACC → f32

ENCODINGS
  f16   IEEE binary16 (1-5-10, bias 15)         bf16  bfloat16 (1-8-7, bias 127)
  e4m3  OCP fp8 E4M3FN (1-4-3, bias 7, no inf, NaN = S.1111.111, max 448)
  e5m2  OCP fp8 E5M2 (1-5-2, bias 15, IEEE-like inf/NaN, max 57344)

BATCH FORM (no OP argument): reads lines `OP ENC1 ENC2 A B ACC` from stdin and prints one line per
case, the result bits. A and B are each one 32-bit hex word holding the vector, component 0 in the
least significant bits (16 bits per component for dot2, 8 for dot4). ACC is the accumulator bits
in hex (f32 for the acc32 forms, 16 bits for dot2acc16). Hex input may have a 0x prefix or not.
Output is lowercase hex with a 0x prefix, zero-padded to the result width: 0x3f800000 (f32),
0x3c00 (f16/bf16). Empty lines and text after '#' are ignored. The first bad line stops the run
with an error naming its line number and a non-zero exit status; results of earlier lines are
already printed.
  example:  echo 'dot2acc32 f16 f16 0x3c003c00 0x40003c00 0x3f800000' | spvx calc mixdot
            → 0x40800000   (1·1 + 1·2 + 1 = 4)

SINGLE-CASE FORM: spvx calc mixdot OP --enc1 E --enc2 E --a V --b V --acc X
  (--enc sets both encodings). V is a packed hex word (0x3c004000) or a comma-separated list of
  components, each a decimal (1.5, -2e-3, inf, nan) or 0x-prefixed component bits. X is hex bits
  (0x...) or a decimal. Decimals are rounded to nearest even into the format (a note says so when
  inexact). Prints the decoded inputs, the exact value of ACC + A·B, the result under the model,
  and the result bits under every model (same switches) for comparison.

MODELS (--model; the spec leaves order and precision to the implementation)
  exact                 exact products and sum, one rounding (default)
  sequential            products rounded, ((p0 + p1) + p2) + p3, then + ACC, each step rounded
  sequential-acc-first  products rounded, ((ACC + p0) + p1) + ..., each step rounded
  fused-products        round(round(Σ p_i) + ACC)
  fma-chain             ACC = fma(a_i, b_i, ACC) for i = 0, 1, ..., each rounded
Every step rounds into the result format with --rounding (rne default, rtz, rtp, rtn).
--flush-input-denormals reads subnormal inputs (in their own format, and ACC) as ±0;
--flush-output-denormals turns every rounded subnormal (result and intermediates) into ±0.
NaN results are the canonical quiet NaN of the result format (0x7fc00000, 0x7e00, 0x7fc0).";

/// Mixed-precision float dot products (SPV_VALVE_mixed_float_dot_product).
#[derive(clap::Args)]
#[command(after_help = HELP_TEXT)]
pub struct MixdotArgs {
    /// Operation for a single case (dot2acc32, dot2acc16, dot4acc32); omit to read cases from stdin.
    op: Option<String>,
    /// Accumulation model: exact, sequential, sequential-acc-first, fused-products, fma-chain.
    #[arg(long, default_value = "exact")]
    model: String,
    /// Rounding direction of every rounding step: rne, rtz, rtp, rtn.
    #[arg(long, default_value = "rne")]
    rounding: String,
    /// Read subnormal inputs as zero (same sign).
    #[arg(long)]
    flush_input_denormals: bool,
    /// Turn subnormal rounded values into zero (same sign).
    #[arg(long)]
    flush_output_denormals: bool,
    /// Single case: encoding of both vectors (f16, bf16, e4m3, e5m2).
    #[arg(long)]
    enc: Option<String>,
    /// Single case: encoding of vector 1.
    #[arg(long)]
    enc1: Option<String>,
    /// Single case: encoding of vector 2.
    #[arg(long)]
    enc2: Option<String>,
    /// Single case: vector 1, packed hex word or comma-separated components.
    #[arg(long, allow_hyphen_values = true)]
    a: Option<String>,
    /// Single case: vector 2, packed hex word or comma-separated components.
    #[arg(long, allow_hyphen_values = true)]
    b: Option<String>,
    /// Single case: accumulator, hex bits (0x...) or a decimal.
    #[arg(long, allow_hyphen_values = true)]
    acc: Option<String>,
}

pub fn run(args: MixdotArgs) -> CmdResult {
    let model: Model = args.model.parse().map_err(|e| format!("error: {e}"))?;
    let rounding: RoundingMode = args.rounding.parse().map_err(|e| format!("error: {e}"))?;
    let cfg = ModelConfig {
        model,
        flush_input_denormals: args.flush_input_denormals,
        flush_output_denormals: args.flush_output_denormals,
        rounding,
    };
    match args.op.clone() {
        None => {
            if args.enc.is_some() || args.enc1.is_some() || args.a.is_some() || args.acc.is_some() {
                return Err(
                    "error: --enc/--enc1/--enc2/--a/--b/--acc need an OP argument \
                            (e.g. `spvx calc mixdot dot2acc32 --enc f16 ...`)"
                        .into(),
                );
            }
            run_batch(&cfg)
        }
        Some(op) => run_single(&op, &args, &cfg),
    }
}

/// Parses a hex number with an optional 0x prefix into at most 32 bits.
pub(super) fn parse_hex32(text: &str) -> Result<u32, String> {
    let digits = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))
        .unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_hexdigit()) {
        return Err(format!("`{text}` is not a hex number"));
    }
    let significant = digits.trim_start_matches('0');
    if significant.len() > 8 {
        return Err(format!("`{text}` does not fit in 32 bits"));
    }
    if significant.is_empty() {
        return Ok(0);
    }
    u32::from_str_radix(significant, 16).map_err(|_| format!("`{text}` is not a hex number"))
}

fn format_bits(f: Format, bits: u64) -> String {
    format!("0x{:0width$x}", bits, width = f.hex_digits())
}

fn run_batch(cfg: &ModelConfig) -> CmdResult {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let result = super::mixdot_batch::run(&mut input, &mut out, cfg);
    let flushed = out
        .flush()
        .map_err(|e| format!("error: cannot write standard output: {e}"));
    result?;
    flushed?;
    Ok(ExitCode::SUCCESS)
}

/// Parses one component or accumulator: 0x-prefixed bits, or a decimal rounded into `f`.
fn parse_component(
    f: Format,
    text: &str,
    what: &str,
    notes: &mut Vec<String>,
) -> Result<u64, String> {
    let t = text.trim();
    if t.starts_with("0x") || t.starts_with("0X") {
        let bits = parse_hex32(t).map_err(|e| format!("error: {what}: {e}"))? as u64;
        return f
            .check_bits(bits)
            .map_err(|e| format!("error: {what}: {e}"));
    }
    let (bits, exact) = f
        .parse_decimal(t, RoundingMode::NearestEven)
        .map_err(|e| format!("error: {what}: {e}"))?;
    if !exact {
        notes.push(format!(
            "note: {what} `{t}` is not exact in {f}; rounded to nearest even: {} = {}",
            format_bits(f, bits),
            f.decode(bits)
        ));
    }
    Ok(bits)
}

/// Parses a vector: a packed hex word, or a comma-separated list of `lanes` components.
fn parse_vector(
    f: Format,
    lanes: usize,
    text: &str,
    what: &str,
    notes: &mut Vec<String>,
) -> Result<u32, String> {
    if !text.contains(',') {
        if text.starts_with("0x") || text.starts_with("0X") {
            return parse_hex32(text).map_err(|e| format!("error: {what}: {e}"));
        }
        return Err(format!(
            "error: {what}: give a packed hex word (0x...) or {lanes} comma-separated components"
        ));
    }
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() != lanes {
        return Err(format!(
            "error: {what}: expected {lanes} components, found {}",
            parts.len()
        ));
    }
    let width = 32 / lanes;
    let mut word = 0u32;
    for (i, p) in parts.iter().enumerate() {
        let bits = parse_component(f, p, &format!("{what}[{i}]"), notes)?;
        word |= (bits as u32) << (width * i);
    }
    Ok(word)
}

fn run_single(op: &str, args: &MixdotArgs, cfg: &ModelConfig) -> CmdResult {
    let op: MixOp = op.parse().map_err(|e| format!("error: {e}"))?;
    let enc_arg = |specific: &Option<String>, name: &str| -> Result<Encoding, String> {
        let text = specific
            .as_ref()
            .or(args.enc.as_ref())
            .ok_or_else(|| format!("error: missing --{name} (or --enc for both vectors)"))?;
        text.parse().map_err(|e| format!("error: --{name}: {e}"))
    };
    let enc1 = enc_arg(&args.enc1, "enc1")?;
    let enc2 = enc_arg(&args.enc2, "enc2")?;
    let need = |v: &Option<String>, name: &str| -> Result<String, String> {
        v.clone().ok_or_else(|| format!("error: missing --{name}"))
    };
    let mut notes = Vec::new();
    let a = parse_vector(
        enc1.format(),
        op.lanes(),
        &need(&args.a, "a")?,
        "--a",
        &mut notes,
    )?;
    let b = parse_vector(
        enc2.format(),
        op.lanes(),
        &need(&args.b, "b")?,
        "--b",
        &mut notes,
    )?;
    let acc_format = match op {
        MixOp::Dot2Acc16 => enc1.format(),
        _ => Format::F32,
    };
    let acc = parse_component(acc_format, &need(&args.acc, "acc")?, "--acc", &mut notes)? as u32;
    let case = MixdotCase::new(op, enc1, enc2, a, b, acc).map_err(|e| format!("error: {e}"))?;
    let ex = case.explain(cfg);
    let list = |f: Format, items: &[(u64, spvx_num::float::Decoded)]| -> String {
        let parts: Vec<String> = items
            .iter()
            .map(|(bits, v)| format!("{} = {v}", format_bits(f, *bits)))
            .collect();
        parts.join(", ")
    };
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    let mut out = String::new();
    for n in &notes {
        out.push_str(n);
        out.push('\n');
    }
    out.push_str(&format!("op      {} (opcode {})\n", op, op.opcode()));
    out.push_str(&format!(
        "model   {} (rounding {}, flush input denormals: {}, flush output denormals: {})\n",
        cfg.model,
        cfg.rounding,
        yes_no(cfg.flush_input_denormals),
        yes_no(cfg.flush_output_denormals)
    ));
    out.push_str(&format!(
        "a       {} [{}]\n",
        enc1,
        list(enc1.format(), &ex.a)
    ));
    out.push_str(&format!(
        "b       {} [{}]\n",
        enc2,
        list(enc2.format(), &ex.b)
    ));
    out.push_str(&format!(
        "acc     {} {} = {}\n",
        ex.result_format,
        format_bits(ex.result_format, ex.acc.0),
        ex.acc.1
    ));
    out.push_str(&format!("exact   {}\n", ex.exact));
    out.push_str(&format!(
        "result  {} {} = {}\n",
        ex.result_format,
        format_bits(ex.result_format, ex.result_bits),
        ex.result
    ));
    // The same case under every model with the same switches, for comparison.
    let others: Vec<String> = Model::ALL
        .into_iter()
        .map(|m| {
            let bits = case.evaluate(&ModelConfig { model: m, ..*cfg });
            format!("{m} {}", format_bits(ex.result_format, bits as u64))
        })
        .collect();
    out.push_str(&format!("models  {}\n", others.join(", ")));
    std::io::stdout()
        .lock()
        .write_all(out.as_bytes())
        .map_err(|e| format!("error: cannot write standard output: {e}"))?;
    Ok(ExitCode::SUCCESS)
}
