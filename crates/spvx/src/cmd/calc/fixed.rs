//! `spvx calc fixed`: the fixed-point math instructions of SPV_INTEL_arbitrary_precision_fixed_point
//! on the command line. Batch form (no function argument): one case per stdin line; single-case
//! form with named flags. Parsing and printing only; the arithmetic is `spvx_num::fixed`.

use crate::cmd::CmdResult;
use num_bigint::{BigInt, BigUint};
use spvx_num::fixed::{
    Dyadic, FixedFormat, FixedFunction, FixedOp, Overflow, Quantization, approximate,
    convert_rational, evaluate, signedness_from_spirv,
};
use std::process::ExitCode;

const HELP: &str = "\
BATCH FORM (no FUNC argument): reads lines `FUNC W I RW RI S Q O X` from stdin and prints one
line per case: the result bits as lowercase hex with a 0x prefix, zero-padded to ceil(RW/4)
digits; for sincos and sincospi the sine, a space, the cosine (each RW bits).
  FUNC  sqrt recip rsqrt sin cos sincos sinpi cospi sincospi log exp
  W RW  input / result width in bits (1..=65536)
  I RI  input / result integer bits (any i32, may be negative or above the width)
  S     0 unsigned, 1 signed (input and result alike)
  Q     quantization mode, a SPIR-V number (table 3.16b) or a name:
          0 TRN  1 TRN_ZERO  2 RND  3 RND_ZERO  4 RND_INF  5 RND_MIN_INF  6 RND_CONV  7 RND_CONV_ODD
        (numbers are NOT ac_types' C++ enum, where AC_RND = 1 and AC_TRN_ZERO = 2; names may be
        written as ac_types spells them, AC_RND, or with _INTEL, in any case)
  O     overflow mode (table 3.16c), a number or a name: 0 WRAP  1 SAT  2 SAT_ZERO  3 SAT_SYM
  X     the input bits in hex, with or without 0x
Blank lines and lines starting with '#' are skipped. The first bad line stops the run with an
error naming the line and field, and a non-zero exit status. Consecutive lines of one operation
with W and RW up to 64 are evaluated together across cores (RAYON_NUM_THREADS=1 for one).

The result is the exact f(x) quantized under Q, then overflow-handled under O
(docs/semantics/fixed-point.md, fixed point).

SINGLE-CASE FORM: spvx calc fixed sqrt --w 16 --i 4 --signed --q RND --o SAT --x 0x1234
(--rw/--ri default to --w/--i; --value 2.5 gives a decimal input instead of --x, converted to
the input format with RND_CONV and SAT).";

/// Arguments of `spvx calc fixed`.
#[derive(clap::Args)]
#[command(after_long_help = HELP, allow_negative_numbers = true)]
pub struct FixedArgs {
    /// Function for the single-case form (sqrt recip rsqrt sin cos sincos sinpi cospi sincospi
    /// log exp); without it, cases are read from stdin (see --help).
    pub function: Option<String>,
    /// Input width W.
    #[arg(long)]
    pub w: Option<u32>,
    /// Input integer bits I.
    #[arg(long)]
    pub i: Option<i32>,
    /// Result width RW (default: W).
    #[arg(long)]
    pub rw: Option<u32>,
    /// Result integer bits RI (default: I).
    #[arg(long)]
    pub ri: Option<i32>,
    /// Signed input and result (S = 1).
    #[arg(long)]
    pub signed: bool,
    /// Quantization mode: a name (TRN TRN_ZERO RND RND_ZERO RND_INF RND_MIN_INF RND_CONV
    /// RND_CONV_ODD; also AC_… and …_INTEL) or its SPIR-V number (0 to 7, in that order).
    #[arg(long, default_value = "0")]
    pub q: String,
    /// Overflow mode: a name (WRAP SAT SAT_ZERO SAT_SYM; also AC_… and …_INTEL) or its number
    /// (0 to 3).
    #[arg(long, default_value = "0")]
    pub o: String,
    /// Input bits in hex (with or without 0x).
    #[arg(long)]
    pub x: Option<String>,
    /// Input as a decimal number (e.g. -2.375), rounded into the input format.
    #[arg(long)]
    pub value: Option<String>,
}

/// Runs `spvx calc fixed`.
pub fn run(args: FixedArgs) -> CmdResult {
    match args.function.clone() {
        None => super::fixed_batch::run(),
        Some(f) => single(&f, &args),
    }
}

/// Lowercase 0x hex, zero-padded to ceil(width/4) digits.
pub(super) fn hex(bits: &BigUint, width: u32) -> String {
    let digits = width.div_ceil(4) as usize;
    format!("0x{:0>digits$}", bits.to_str_radix(16))
}

pub(super) fn parse_hex(s: &str) -> Option<BigUint> {
    let t = s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .unwrap_or(s);
    if t.is_empty() || !t.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    BigUint::parse_bytes(t.as_bytes(), 16)
}

pub(super) const FIELDS: [&str; 9] = ["FUNC", "W", "I", "RW", "RI", "S", "Q", "O", "X"];

/// The operation of a batch line from its first eight fields; errors name the field (0-based).
pub(super) fn parse_op(fields: &[&str]) -> Result<FixedOp, (usize, String)> {
    let num = |k: usize| -> Result<i64, (usize, String)> {
        fields[k]
            .parse::<i64>()
            .map_err(|_| (k, format!("`{}` is not an integer", fields[k])))
    };
    let int = |k: usize, lo: i64, hi: i64| -> Result<i64, (usize, String)> {
        let v = num(k)?;
        if v < lo || v > hi {
            return Err((k, format!("{v} is outside {lo}..={hi}")));
        }
        Ok(v)
    };
    let function: FixedFunction = fields[0].parse().map_err(|e| (0, format!("{e}")))?;
    let w = int(1, 1, u32::MAX as i64)? as u32;
    let i = int(2, i32::MIN as i64, i32::MAX as i64)? as i32;
    let rw = int(3, 1, u32::MAX as i64)? as u32;
    let ri = int(4, i32::MIN as i64, i32::MAX as i64)? as i32;
    let s = signedness_from_spirv(int(5, 0, u32::MAX as i64)? as u32)
        .map_err(|e| (5, e.to_string()))?;
    let q = Quantization::parse(fields[6]).map_err(|e| (6, e.to_string()))?;
    let o = Overflow::parse(fields[7]).map_err(|e| (7, e.to_string()))?;
    Ok(FixedOp {
        function,
        signed: s,
        input_width: w,
        input_int_bits: i,
        result_width: rw,
        result_int_bits: ri,
        quantization: q,
        overflow: o,
    })
}

/// Parses a decimal `[-]digits[.digits]` into num/den.
fn parse_decimal(s: &str) -> Option<(BigInt, BigInt)> {
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    if !int.chars().chain(frac.chars()).all(|c| c.is_ascii_digit()) {
        return None;
    }
    let digits = format!("{int}{frac}");
    let mut num = BigInt::parse_bytes(digits.as_bytes(), 10)?;
    if neg {
        num = -num;
    }
    let den = BigInt::from(10u32).pow(frac.len() as u32);
    Some((num, den))
}

fn fmt_name(f: &FixedFormat) -> String {
    format!(
        "<{},{},{}>",
        f.width(),
        f.int_bits(),
        if f.signed() { "signed" } else { "unsigned" }
    )
}

fn single(function: &str, a: &FixedArgs) -> CmdResult {
    let e = |m: String| format!("error: {m}");
    let function: FixedFunction = function.parse().map_err(|x| e(format!("{x}")))?;
    let w =
        a.w.ok_or_else(|| e("--w (input width) is required".into()))?;
    let i =
        a.i.ok_or_else(|| e("--i (input integer bits) is required".into()))?;
    let q = Quantization::parse(&a.q).map_err(|x| e(format!("--q: {x}")))?;
    let o = Overflow::parse(&a.o).map_err(|x| e(format!("--o: {x}")))?;
    let op = FixedOp {
        function,
        signed: a.signed,
        input_width: w,
        input_int_bits: i,
        result_width: a.rw.unwrap_or(w),
        result_int_bits: a.ri.unwrap_or(i),
        quantization: q,
        overflow: o,
    };
    let in_fmt = op.input_format().map_err(|x| e(format!("--w: {x}")))?;
    let out_fmt = op.result_format().map_err(|x| e(format!("--rw: {x}")))?;
    let x = match (&a.x, &a.value) {
        (Some(h), None) => parse_hex(h).ok_or_else(|| e(format!("--x: `{h}` is not hex")))?,
        (None, Some(v)) => {
            let (num, den) =
                parse_decimal(v).ok_or_else(|| e(format!("--value: `{v}` is not a decimal")))?;
            // Rounded to nearest (ties to even) in a signed format 65 bits wider with the same
            // LSB, so that a value the input format cannot hold is reported, not clipped.
            let wide =
                FixedFormat::new(w + 65, i + 65, true).map_err(|x| e(format!("--value: {x}")))?;
            let raw = convert_rational(&num, &den, &wide, Quantization::RndConv, Overflow::Sat)
                .map_err(|x| e(format!("--value: {x}")))?;
            if raw < in_fmt.raw_min() || raw > in_fmt.raw_max() {
                let bound = |r: BigInt| Dyadic::from_raw(r, &in_fmt).to_decimal_string(40);
                return Err(e(format!(
                    "--value: {v} is outside the input format {} (from {} to {}); give a value in range, or its bits with --x",
                    fmt_name(&in_fmt),
                    bound(in_fmt.raw_min()),
                    bound(in_fmt.raw_max())
                )));
            }
            in_fmt.encode(&raw)
        }
        _ => {
            return Err(e(
                "give exactly one of --x (bits) or --value (decimal)".into()
            ));
        }
    };
    let raw_in = in_fmt.decode(&x).map_err(|x| e(format!("--x: {x}")))?;
    let outcome = evaluate(&op, &x).map_err(|x| e(x.to_string()))?;
    let frac_digits = 40usize;
    let approx = approximate(function, &in_fmt, &x, (frac_digits as u32) * 10 / 3 + 8)
        .map_err(|x| e(x.to_string()))?;
    let show = |d: &Dyadic| d.to_decimal_string(frac_digits);
    let mut out = String::new();
    out.push_str(&format!(
        "input   {} = {}  {}\n",
        hex(&x, w),
        show(&Dyadic::from_raw(raw_in, &in_fmt)),
        fmt_name(&in_fmt)
    ));
    let names: &[&str] = if function.is_pair() {
        &["sin", "cos"]
    } else {
        &[""]
    };
    match outcome.exception {
        Some(ex) => out.push_str(&format!("exact   {function}(x): {}\n", ex.description())),
        None => {
            for (k, v) in approx.values.iter().enumerate() {
                let label = if names[k].is_empty() {
                    format!("{function}(x)")
                } else {
                    format!("{function}(x).{}", names[k])
                };
                let beyond = if approx.beyond_range {
                    " (clamped at ±2^200)"
                } else {
                    ""
                };
                out.push_str(&format!("exact   {label} = {}{beyond}\n", show(v)));
            }
        }
    }
    for (k, b) in outcome.value.components().iter().enumerate() {
        let raw = out_fmt.decode(b).map_err(|x| e(x.to_string()))?;
        let label = if names[k].is_empty() {
            String::new()
        } else {
            format!(".{}", names[k])
        };
        out.push_str(&format!(
            "result{label} {} = {}  {} Q={}({}) O={}({})\n",
            hex(b, out_fmt.width()),
            show(&Dyadic::from_raw(raw, &out_fmt)),
            fmt_name(&out_fmt),
            q.name(),
            q.spirv_value(),
            o.name(),
            o.spirv_value()
        ));
    }
    if function.is_pair() {
        out.push_str(&format!(
            "packed  {} (sin in the high half)\n",
            hex(&outcome.value.packed(out_fmt.width()), 2 * out_fmt.width())
        ));
    }
    print!("{out}");
    Ok(ExitCode::SUCCESS)
}
