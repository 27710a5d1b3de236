//! The batch form of `spvx calc fixed`: lines `FUNC W I RW RI S Q O X` from stdin, one result
//! line each. Consecutive lines of the same operation with widths up to 64 are gathered and
//! evaluated together by `spvx_num::fixed::evaluate_batch_parallel` (rayon; RAYON_NUM_THREADS=1
//! for one core); other lines one by one with `evaluate`. Stdin is read in 1 MiB blocks, the
//! operation of a line is parsed only when its first eight fields differ
//! from the previous line's, and hex is written by hand: parsing and printing stay well below
//! the cost of the arithmetic.

use super::fixed::{FIELDS, hex, parse_hex, parse_op};
use super::lines::{Stop, each_line};
use crate::cmd::CmdResult;
use spvx_num::fixed::{
    BatchError, FixedError, FixedOp, MAX_FAST_WIDTH, evaluate, evaluate_batch_parallel,
};
use std::io::{Read, Write};
use std::process::ExitCode;

/// Lines gathered before a batch is evaluated and printed.
const GROUP: usize = 1 << 16;

/// Consecutive lines of one operation, not yet evaluated.
struct Group {
    op: FixedOp,
    xs: Vec<u64>,
    lines: Vec<usize>,
}

/// `error: line N:` with the field an evaluation error belongs to, as the single-line path
/// reports it.
fn eval_error(lineno: usize, e: &FixedError) -> String {
    let field = match e {
        FixedError::InputTooWide { .. } => " field 9 (X):",
        FixedError::InvalidWidth { what: "input", .. } => " field 2 (W):",
        FixedError::InvalidWidth { what: "result", .. } => " field 4 (RW):",
        _ => "",
    };
    format!("error: line {lineno}:{field} {e}")
}

/// Appends `0x` and the low `width` bits of `v` as ceil(width/4) lowercase hex digits.
fn push_hex(out: &mut Vec<u8>, v: u64, width: u32) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    out.extend_from_slice(b"0x");
    for k in (0..width.div_ceil(4)).rev() {
        out.push(DIGITS[((v >> (4 * k)) & 0xf) as usize]);
    }
}

/// Hex digits (with or without 0x) as a u64; None when not hex or wider than 64 bits.
fn hex_u64(s: &str) -> Option<u64> {
    let t = s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .unwrap_or(s);
    if t.is_empty() {
        return None;
    }
    let t = t.trim_start_matches('0');
    if t.len() > 16 {
        return None;
    }
    let mut v = 0u64;
    for c in t.bytes() {
        let d = (c as char).to_digit(16)?;
        v = (v << 4) | d as u64;
    }
    Some(v)
}

/// Evaluates and prints a group; on an input error, prints the lines before it and returns
/// the error of that line.
fn flush(group: &mut Option<Group>, out: &mut impl Write) -> Result<(), String> {
    let Some(g) = group.take() else {
        return Ok(());
    };
    let per = g.op.function.components();
    let mut values = vec![0u64; g.xs.len() * per];
    let result = evaluate_batch_parallel(&g.op, &g.xs, &mut values);
    let (done, err) = match result {
        Ok(_) => (g.xs.len(), None),
        Err(BatchError::Input { index, source }) => {
            (index, Some(eval_error(g.lines[index], &source)))
        }
        Err(e) => (0, Some(format!("error: line {}: {e}", g.lines[0]))),
    };
    let mut text = Vec::with_capacity(done * per * 20);
    for k in 0..done {
        for c in 0..per {
            if c > 0 {
                text.push(b' ');
            }
            push_hex(&mut text, values[k * per + c], g.op.result_width);
        }
        text.push(b'\n');
    }
    out.write_all(&text)
        .map_err(|e| format!("error: cannot write standard output: {e}"))?;
    err.map_or(Ok(()), Err)
}

/// Runs the batch form.
pub(super) fn run() -> CmdResult {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let result = read_all(&mut input, &mut out);
    let flushed = out
        .flush()
        .map_err(|e| format!("error: cannot write standard output: {e}"));
    result?;
    flushed?;
    Ok(ExitCode::SUCCESS)
}

/// Reads every line; stops at the first bad one (after printing the lines before it).
fn read_all(input: &mut impl Read, out: &mut impl Write) -> Result<(), String> {
    let mut st = Lines {
        lineno: 0,
        cache: None,
        group: None,
    };
    let read = each_line(input, |line| st.line(line, out));
    match read {
        Ok(()) => flush(&mut st.group, out),
        Err(Stop::Line(e)) => Err(e),
        Err(Stop::Read(e)) => {
            flush(&mut st.group, out)?;
            Err(format!("error: line {}: cannot read: {e}", st.lineno + 1))
        }
    }
}

/// The state carried from line to line.
struct Lines {
    lineno: usize,
    /// The first eight fields of the last operation parsed, and that operation.
    cache: Option<(Vec<u8>, FixedOp)>,
    group: Option<Group>,
}

impl Lines {
    /// Handles one line (without its newline).
    fn line(&mut self, bytes: &[u8], out: &mut impl Write) -> Result<(), String> {
        self.lineno += 1;
        let lineno = self.lineno;
        let group = &mut self.group;
        let text = match std::str::from_utf8(bytes) {
            Ok(t) => t.trim(),
            Err(_) => {
                flush(group, out)?;
                return Err(format!(
                    "error: line {lineno}: cannot read: stream did not contain valid UTF-8"
                ));
            }
        };
        if text.is_empty() || text.starts_with('#') {
            return Ok(());
        }
        let mut fields = [""; 9];
        let mut count = 0;
        for f in text.split_ascii_whitespace() {
            if count < fields.len() {
                fields[count] = f;
            }
            count += 1;
        }
        if count != FIELDS.len() {
            flush(group, out)?;
            return Err(format!(
                "error: line {lineno}: expected 9 fields `FUNC W I RW RI S Q O X`, found {count}"
            ));
        }
        let prefix = &text.as_bytes()[..fields[8].as_ptr() as usize - text.as_ptr() as usize];
        let op = match &self.cache {
            Some((p, op)) if p.as_slice() == prefix => *op,
            _ => match parse_op(&fields) {
                Ok(op) => {
                    self.cache = Some((prefix.to_vec(), op));
                    op
                }
                Err((k, msg)) => {
                    flush(group, out)?;
                    return Err(format!(
                        "error: line {lineno}: field {} ({}): {msg}",
                        k + 1,
                        FIELDS[k]
                    ));
                }
            },
        };
        let fast = op.input_width <= MAX_FAST_WIDTH && op.result_width <= MAX_FAST_WIDTH;
        if let (true, Some(x)) = (fast, hex_u64(fields[8])) {
            if group
                .as_ref()
                .is_some_and(|g| g.op != op || g.xs.len() >= GROUP)
            {
                flush(group, out)?;
            }
            let g = group.get_or_insert_with(|| Group {
                op,
                xs: Vec::new(),
                lines: Vec::new(),
            });
            g.xs.push(x);
            g.lines.push(lineno);
            return Ok(());
        }
        flush(group, out)?;
        let x = parse_hex(fields[8]).ok_or_else(|| {
            format!(
                "error: line {lineno}: field 9 (X): `{}` is not hex",
                fields[8]
            )
        })?;
        let outcome = evaluate(&op, &x).map_err(|e| eval_error(lineno, &e))?;
        let line = outcome
            .value
            .components()
            .iter()
            .map(|b| hex(b, op.result_width))
            .collect::<Vec<_>>()
            .join(" ");
        writeln!(out, "{line}").map_err(|e| format!("error: cannot write standard output: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;
    use spvx_num::fixed::{FixedFunction, FixedValue, Overflow, Quantization, evaluate_exact};

    fn run_text(text: &str) -> (String, Result<(), String>) {
        let mut out = Vec::new();
        let r = read_all(&mut text.as_bytes(), &mut out);
        (String::from_utf8(out).unwrap_or_default(), r)
    }

    /// The exact path's line for one case, formatted independently of `push_hex`.
    fn exact_line(op: &FixedOp, x: u64) -> String {
        let o = evaluate_exact(op, &BigUint::from(x)).unwrap();
        let digits = op.result_width.div_ceil(4) as usize;
        let f = |b: &BigUint| format!("0x{:0>digits$}", b.to_str_radix(16));
        match &o.value {
            FixedValue::Single(b) => f(b),
            FixedValue::Pair { sin, cos } => format!("{} {}", f(sin), f(cos)),
        }
    }

    /// Lines crossing a group boundary, alternating operations, a CRLF line, comments and a
    /// last line without newline all print what the exact path gives, in order.
    #[test]
    fn batches_print_the_exact_results_in_order() {
        let ops = [
            ("sqrt 20 4 20 4 0 RND_CONV SAT", FixedFunction::Sqrt, false),
            ("sincospi 20 2 20 2 1 0 0", FixedFunction::SinCosPi, true),
        ];
        let mut text = String::new();
        let mut want = String::new();
        for k in 0..(GROUP as u64 + 50) {
            let (prefix, f, s) = ops[usize::from(k % 7 == 0 && k < 200)];
            let x = (k * 2_654_435_761) & 0xf_ffff;
            text.push_str(&format!(
                "{prefix} {x:#x}{}",
                if k == 3 { "\r\n" } else { "\n" }
            ));
            if k == 10 {
                text.push_str("# comment\n\n");
            }
            let op = FixedOp {
                function: f,
                signed: s,
                input_width: 20,
                input_int_bits: if s { 2 } else { 4 },
                result_width: 20,
                result_int_bits: if s { 2 } else { 4 },
                quantization: if s {
                    Quantization::Trn
                } else {
                    Quantization::RndConv
                },
                overflow: if s { Overflow::Wrap } else { Overflow::Sat },
            };
            want.push_str(&exact_line(&op, x));
            want.push('\n');
        }
        text.push_str("exp 8 2 8 2 1 0 0 0x7f");
        let op = FixedOp {
            function: FixedFunction::Exp,
            signed: true,
            input_width: 8,
            input_int_bits: 2,
            result_width: 8,
            result_int_bits: 2,
            quantization: Quantization::Trn,
            overflow: Overflow::Wrap,
        };
        want.push_str(&exact_line(&op, 0x7f));
        want.push('\n');
        let (got, r) = run_text(&text);
        assert_eq!(r, Ok(()));
        assert!(got == want, "outputs differ");
    }

    /// An input error inside a group prints the lines before it and names its own line.
    #[test]
    fn an_error_inside_a_group_stops_after_the_lines_before_it() {
        let text = "recip 8 4 8 4 1 0 0 0x10\nrecip 8 4 8 4 1 0 0 0x20\nrecip 8 4 8 4 1 0 0 0x120\n\
                    recip 8 4 8 4 1 0 0 0x30\n";
        let (got, r) = run_text(text);
        assert_eq!(got.lines().count(), 2);
        assert_eq!(
            r,
            Err(
                "error: line 3: field 9 (X): input bits need 9 bits but the input width is 8"
                    .to_string()
            )
        );
    }
}
