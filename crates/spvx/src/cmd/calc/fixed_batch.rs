//! The batch form of `spvx calc fixed`: lines `FUNC W I RW RI S Q O X` from stdin, one result
//! line each. Consecutive lines of the same operation with widths up to 64 are gathered and
//! evaluated together by `spvx_num::fixed::evaluate_batch_parallel` (rayon; RAYON_NUM_THREADS=1
//! for one core); other lines one by one with `evaluate`. Lines are read as bytes into one
//! reused buffer, the operation of a line is parsed only when its first eight fields differ
//! from the previous line's, and hex is written by hand: parsing and printing stay well below
//! the cost of the arithmetic.

use super::fixed::{FIELDS, hex, parse_hex, parse_op};
use crate::cmd::CmdResult;
use spvx_num::fixed::{
    BatchError, FixedError, FixedOp, MAX_FAST_WIDTH, evaluate, evaluate_batch_parallel,
};
use std::io::{BufRead, Write};
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

fn read_all(input: &mut impl BufRead, out: &mut impl Write) -> Result<(), String> {
    let mut buf = Vec::new();
    let mut lineno = 0usize;
    let mut cache: Option<(Vec<u8>, FixedOp)> = None;
    let mut group: Option<Group> = None;
    loop {
        buf.clear();
        let read = input.read_until(b'\n', &mut buf);
        let n = match read {
            Ok(n) => n,
            Err(e) => {
                flush(&mut group, out)?;
                return Err(format!("error: line {}: cannot read: {e}", lineno + 1));
            }
        };
        if n == 0 {
            break;
        }
        lineno += 1;
        let text = match std::str::from_utf8(&buf) {
            Ok(t) => t.trim(),
            Err(_) => {
                flush(&mut group, out)?;
                return Err(format!(
                    "error: line {lineno}: cannot read: stream did not contain valid UTF-8"
                ));
            }
        };
        if text.is_empty() || text.starts_with('#') {
            continue;
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
            flush(&mut group, out)?;
            return Err(format!(
                "error: line {lineno}: expected 9 fields `FUNC W I RW RI S Q O X`, found {count}"
            ));
        }
        let prefix = &text.as_bytes()[..fields[8].as_ptr() as usize - text.as_ptr() as usize];
        let op = match &cache {
            Some((p, op)) if p.as_slice() == prefix => *op,
            _ => match parse_op(&fields) {
                Ok(op) => {
                    cache = Some((prefix.to_vec(), op));
                    op
                }
                Err((k, msg)) => {
                    flush(&mut group, out)?;
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
                flush(&mut group, out)?;
            }
            let g = group.get_or_insert_with(|| Group {
                op,
                xs: Vec::new(),
                lines: Vec::new(),
            });
            g.xs.push(x);
            g.lines.push(lineno);
            continue;
        }
        flush(&mut group, out)?;
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
        writeln!(out, "{line}").map_err(|e| format!("error: cannot write standard output: {e}"))?;
    }
    flush(&mut group, out)
}
