//! The batch form of `spvx calc mixdot`: lines `OP ENC1 ENC2 A B ACC` from stdin, one result
//! line each. Consecutive lines of one form (operation and encodings) are gathered, up to
//! [`GROUP`] lines, and evaluated together by `spvx_num::mixdot::bulk::evaluate_form` (the
//! batch functions of `mixdot::fast` over all cores; RAYON_NUM_THREADS=1 for one core).
//! Stdin is read in 1 MiB blocks, the form of a line is parsed only when its first three
//! fields differ from the previous line's, and hex is read and written by hand: parsing and
//! printing stay near the cost of the arithmetic. Every line is still validated as one
//! `MixdotCase`, so the errors (and the line numbers they name) are those of a case-by-case run.

use super::lines::{Stop, each_line};
use super::mixdot::parse_hex32;
use spvx_num::mixdot::bulk::evaluate_form;
use spvx_num::mixdot::{Encoding, MixOp, MixdotCase, ModelConfig};
use std::io::{Read, Write};

/// Lines gathered before a batch is evaluated and printed.
const GROUP: usize = 1 << 16;

/// An operation and its two encodings.
type Form = (MixOp, Encoding, Encoding);

/// Consecutive lines of one form, not yet evaluated.
struct Group {
    form: Form,
    a: Vec<u32>,
    b: Vec<u32>,
    acc: Vec<u32>,
}

fn write_error(e: std::io::Error) -> String {
    format!("error: cannot write standard output: {e}")
}

/// Appends `0x` and the low `digits` hex digits of `v`, lowercase, then a newline.
fn push_hex_line(out: &mut Vec<u8>, v: u32, digits: u32) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    out.extend_from_slice(b"0x");
    for k in (0..digits).rev() {
        out.push(DIGITS[((v >> (4 * k)) & 0xf) as usize]);
    }
    out.push(b'\n');
}

/// Hex digits with an optional 0x prefix as a u32; None when not hex or wider than 32 bits
/// (exactly where [`parse_hex32`] gives an error).
fn hex32(s: &str) -> Option<u32> {
    let t = s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .unwrap_or(s);
    if t.is_empty() {
        return None;
    }
    let mut v = 0u64;
    for c in t.bytes() {
        let d = (c as char).to_digit(16)?;
        v = (v << 4) | u64::from(d);
        if v > u64::from(u32::MAX) {
            return None;
        }
    }
    Some(v as u32)
}

/// A hex field, with [`parse_hex32`]'s message when it is not one.
fn hex_field(s: &str) -> Result<u32, String> {
    hex32(s).map_or_else(|| parse_hex32(s), Ok)
}

/// Evaluates and prints the pending group, if any.
fn flush(group: &mut Option<Group>, cfg: &ModelConfig, out: &mut impl Write) -> Result<(), String> {
    let Some(g) = group.take() else {
        return Ok(());
    };
    let (op, enc1, enc2) = g.form;
    let mut values = vec![0u32; g.a.len()];
    evaluate_form(op, enc1, enc2, &g.a, &g.b, &g.acc, cfg, &mut values)
        .map_err(|e| format!("error: {e}"))?;
    let digits = if g.form.0 == MixOp::Dot2Acc16 { 4 } else { 8 };
    let mut text = Vec::with_capacity(values.len() * (digits as usize + 3));
    for v in values {
        push_hex_line(&mut text, v, digits);
    }
    out.write_all(&text).map_err(write_error)
}

/// Runs the batch form on `input`, printing to `out`; stops at the first bad line (after
/// printing the lines before it) with its error.
pub(super) fn run(
    input: &mut impl Read,
    out: &mut impl Write,
    cfg: &ModelConfig,
) -> Result<(), String> {
    let mut st = Lines {
        cfg,
        lineno: 0,
        cache: None,
        group: None,
    };
    let read = each_line(input, |line| st.line(line, out));
    match read {
        Ok(()) => flush(&mut st.group, cfg, out),
        Err(Stop::Line(e)) => Err(e),
        Err(Stop::Read(e)) => {
            flush(&mut st.group, cfg, out)?;
            Err(format!(
                "error: line {}: cannot read standard input: {e}",
                st.lineno + 1
            ))
        }
    }
}

/// Splits `text` at whitespace as `str::split_whitespace` does, the first fields into
/// `fields`; returns how many there are. ASCII text (the usual) is split byte by byte: its
/// whitespace characters are exactly the six below.
fn split_fields<'t>(text: &'t str, fields: &mut [&'t str; 6]) -> usize {
    let mut count = 0;
    let mut put = |f: &'t str| {
        if count < fields.len() {
            fields[count] = f;
        }
        count += 1;
    };
    if !text.is_ascii() {
        text.split_whitespace().for_each(put);
        return count;
    }
    let bytes = text.as_bytes();
    let space = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r');
    let mut i = 0;
    while i < bytes.len() {
        while i < bytes.len() && space(bytes[i]) {
            i += 1;
        }
        let start = i;
        while i < bytes.len() && !space(bytes[i]) {
            i += 1;
        }
        if i > start {
            put(&text[start..i]);
        }
    }
    count
}

/// The state carried from line to line.
struct Lines<'c> {
    cfg: &'c ModelConfig,
    lineno: usize,
    /// The text of the first three fields of the last line, and its form.
    cache: Option<(String, Form)>,
    group: Option<Group>,
}

impl Lines<'_> {
    /// Handles one line (without its newline).
    fn line(&mut self, bytes: &[u8], out: &mut impl Write) -> Result<(), String> {
        self.lineno += 1;
        let lineno = self.lineno;
        let case = match std::str::from_utf8(bytes) {
            Ok(text) => {
                // Text after '#' is a comment; a line without fields is skipped.
                let content = match bytes.iter().position(|&b| b == b'#') {
                    Some(k) => &text[..k],
                    None => text,
                };
                let mut fields = [""; 6];
                let count = split_fields(content, &mut fields);
                if count == 0 {
                    return Ok(());
                }
                self.parse(content, &fields, count)
            }
            Err(_) => Err("cannot read standard input: stream did not contain valid UTF-8".into()),
        };
        let (form, a, b, acc) = match case {
            Ok(c) => c,
            Err(e) => {
                flush(&mut self.group, self.cfg, out)?;
                return Err(format!("error: line {lineno}: {e}"));
            }
        };
        if self
            .group
            .as_ref()
            .is_some_and(|g| g.form != form || g.a.len() >= GROUP)
        {
            flush(&mut self.group, self.cfg, out)?;
        }
        let g = self.group.get_or_insert_with(|| Group {
            form,
            a: Vec::new(),
            b: Vec::new(),
            acc: Vec::new(),
        });
        g.a.push(a);
        g.b.push(b);
        g.acc.push(acc);
        Ok(())
    }

    /// One case's form and words, validated as a `MixdotCase` (the messages of
    /// `mixdot::parse_case`, field by field in the same order).
    fn parse(
        &mut self,
        content: &str,
        fields: &[&str; 6],
        count: usize,
    ) -> Result<(Form, u32, u32, u32), String> {
        if count != 6 {
            return Err(format!(
                "expected 6 fields `OP ENC1 ENC2 A B ACC`, found {count}"
            ));
        }
        let prefix =
            &content[..fields[2].as_ptr() as usize - content.as_ptr() as usize + fields[2].len()];
        let form = match &self.cache {
            Some((p, form)) if p == prefix => *form,
            _ => {
                let op: MixOp = fields[0].parse().map_err(|e| format!("{e}"))?;
                let enc1: Encoding = fields[1].parse().map_err(|e| format!("{e}"))?;
                let enc2: Encoding = fields[2].parse().map_err(|e| format!("{e}"))?;
                self.cache = Some((prefix.to_string(), (op, enc1, enc2)));
                (op, enc1, enc2)
            }
        };
        let a = hex_field(fields[3]).map_err(|e| format!("A: {e}"))?;
        let b = hex_field(fields[4]).map_err(|e| format!("B: {e}"))?;
        let acc = hex_field(fields[5]).map_err(|e| format!("ACC: {e}"))?;
        MixdotCase::new(form.0, form.1, form.2, a, b, acc).map_err(|e| format!("{e}"))?;
        Ok((form, a, b, acc))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use spvx_num::mixdot::{Model, exact_dot2_acc32};

    fn run_text(text: &[u8], cfg: &ModelConfig) -> (String, Result<(), String>) {
        let mut out = Vec::new();
        let r = run(&mut &text[..], &mut out, cfg);
        (String::from_utf8(out).unwrap_or_default(), r)
    }

    /// The hand parser accepts exactly what `parse_hex32` accepts, with the same value.
    #[test]
    fn hex_fields_match_the_reference_parser() {
        for s in [
            "0",
            "0x0",
            "0X1f",
            "ffffffff",
            "0xFFFFFFFF",
            "000000000001",
            "0x100000000",
            "1g",
            "",
            "0x",
            "-1",
            "+1",
            "0x 1",
            "123456789",
        ] {
            assert_eq!(hex_field(s), parse_hex32(s), "`{s}`");
        }
    }

    /// The byte splitter gives `split_whitespace`'s fields on ASCII text (every ASCII
    /// character that is whitespace included) and the field count beyond six.
    #[test]
    fn fields_split_as_split_whitespace_does() {
        for t in [
            "",
            "   ",
            "a",
            " a  b\tc\x0bd\x0ce\rf\n",
            "1 2 3 4 5 6 7 8",
            "\u{a0}x y\u{2003}z",
            "dot2acc32 f16 f16 0 0 0",
        ] {
            let mut got = [""; 6];
            let n = split_fields(t, &mut got);
            let want: Vec<&str> = t.split_whitespace().collect();
            assert_eq!(n, want.len(), "`{t}`");
            let k = n.min(6);
            assert_eq!(&got[..k], &want[..k], "`{t}`");
        }
        // Every ASCII character: whitespace to the splitter exactly when to `char`.
        for b in 0u8..128 {
            let t = format!("a{}b", b as char);
            let mut got = [""; 6];
            assert_eq!(
                split_fields(&t, &mut got),
                t.split_whitespace().count(),
                "{b:#x}"
            );
        }
    }

    /// Lines crossing a group boundary, switching forms, with comments, a CRLF line and no
    /// final newline give, line by line, the exact path's bits (rational arithmetic, one case
    /// at a time), formatted independently.
    #[test]
    fn groups_print_the_exact_results_in_order() {
        let cfg = ModelConfig::new(Model::Sequential);
        let mut text = String::new();
        let mut want = String::new();
        let mut x = 0x1234_5678u64;
        let mut next = || {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (x >> 32) as u32
        };
        for k in 0..(GROUP + 70) {
            let (a, b, acc) = (next(), next(), next());
            if k % 9 == 0 && k < 300 {
                // bf16 lines inside the f16 run: a form switch either way.
                text.push_str(&format!("dot2acc32 BF16 bf16 {a:x} {b:#x} {acc:#X}\n"));
                let w = exact_dot2_acc32(
                    spvx_num::mixdot::Half16Encoding::Bf16,
                    [a as u16, (a >> 16) as u16],
                    [b as u16, (b >> 16) as u16],
                    acc,
                    &cfg,
                );
                want.push_str(&format!("0x{w:08x}\n"));
            } else {
                let end = if k == 5 { "  # note\r\n" } else { "\n" };
                text.push_str(&format!("dot2acc32 f16 f16 {a:#010x} {b:#x} {acc:#x}{end}"));
                let w = exact_dot2_acc32(
                    spvx_num::mixdot::Half16Encoding::F16,
                    [a as u16, (a >> 16) as u16],
                    [b as u16, (b >> 16) as u16],
                    acc,
                    &cfg,
                );
                want.push_str(&format!("0x{w:08x}\n"));
            }
            if k == 20 {
                text.push_str("# a comment\n   \n");
            }
        }
        text.push_str("dot2acc16 f16 f16 0x3c003c00 0x3c003c00 0x3c00");
        want.push_str("0x4200\n"); // 1 + 1 + 1 = 3 = f16 0x4200
        let (got, r) = run_text(text.as_bytes(), &cfg);
        assert_eq!(r, Ok(()));
        assert!(got == want, "outputs differ");
    }

    /// A bad line inside a group prints the lines before it and names its own line number;
    /// invalid UTF-8 is reported as reading standard input.
    #[test]
    fn a_bad_line_stops_after_the_lines_before_it() {
        let cfg = ModelConfig::default();
        let text = "dot2acc32 f16 f16 0x3c003c00 0x40003c00 0x3f800000\n\n\
                    dot2acc16 f16 f16 0 0 0x10000\ndot2acc32 f16 f16 0 0 0\n";
        let (got, r) = run_text(text.as_bytes(), &cfg);
        assert_eq!(got, "0x40800000\n");
        let e = r.expect_err("bad line");
        assert!(e.starts_with("error: line 3: "), "{e}");
        let (got, r) = run_text(
            b"dot4acc32 e4m3 e4m3 0 0 0\ndot4acc32 e4m3 \xff 0 0 0\n",
            &cfg,
        );
        assert_eq!(got, "0x00000000\n");
        assert_eq!(
            r,
            Err(
                "error: line 2: cannot read standard input: stream did not contain valid UTF-8"
                    .to_string()
            )
        );
        let (_, r) = run_text(b"dot4acc32 e4m3 e4m3 0 0x1ffffffff 0\n", &cfg);
        assert_eq!(
            r,
            Err("error: line 1: B: `0x1ffffffff` does not fit in 32 bits".to_string())
        );
    }
}
