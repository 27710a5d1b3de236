//! Values written in a script, turned into bits of a buffer's element type: one value
//! (rounded once into the type; `0x` gives bits), a list, a `SERIES_FROM … INC_BY` series, and
//! the bytes of a SPIRV-HEX shader.

use super::error::{AmberError, Place};
use super::layout::DataType;
use super::lex::Tok;
use spvx_num::float::RoundingMode;

/// The most values a buffer may be given (2^25).
pub const MAX_VALUES: u64 = 1 << 25;

/// The largest buffer a script may make (1 GiB).
pub const MAX_BYTES: u64 = 1 << 30;

/// The bits of one value for `ty`'s element type.
pub fn encode(file: &str, ty: &DataType, t: &Tok) -> Result<u64, AmberError> {
    ty.value(&t.text)
        .map_err(|e| AmberError::parse(t.place(file), e.to_string()))
}

/// The bits of every token.
pub fn encode_all(file: &str, ty: &DataType, toks: &[Tok]) -> Result<Vec<u64>, AmberError> {
    toks.iter().map(|t| encode(file, ty, t)).collect()
}

/// `count` values from `start`, each `inc` more than the one before: integer addition for
/// integer types (range-checked), repeated f64 addition rounded once into float types.
pub fn series(
    file: &str,
    ty: &DataType,
    start: &Tok,
    inc: &Tok,
    count: usize,
) -> Result<Vec<u64>, AmberError> {
    let elem = ty.elem;
    match elem.float_format() {
        Some(format) => {
            let num = |t: &Tok| {
                t.text.parse::<f64>().map_err(|_| {
                    AmberError::parse(t.place(file), format!("'{}' is not a number", t.text))
                })
            };
            let (mut v, d) = (num(start)?, num(inc)?);
            let mut out = Vec::with_capacity(count);
            for _ in 0..count {
                out.push(format.from_f64(v, RoundingMode::NearestEven, false));
                v += d;
            }
            Ok(out)
        }
        None => {
            let num = |t: &Tok| {
                let neg = t.text.starts_with('-');
                let digits = t.text.trim_start_matches('-');
                super::args::parse_u64(digits)
                    .map(|v| if neg { -i128::from(v) } else { i128::from(v) })
                    .ok_or_else(|| {
                        AmberError::parse(t.place(file), format!("'{}' is not an integer", t.text))
                    })
            };
            let (s, d) = (num(start)?, num(inc)?);
            (0..count)
                .map(|i| {
                    elem.encode_int(s + d * i as i128).map_err(|e| {
                        AmberError::parse(start.place(file), format!("SERIES_FROM: {e}"))
                    })
                })
                .collect()
        }
    }
}

/// SPIRV-HEX text: byte tokens of two hex digits (or 8-digit words, little-endian), `0x`
/// allowed, `#` and `;` comments; `first` is the line number of its first line.
pub fn hex_bytes(file: &str, text: &str, first: u32) -> Result<Vec<u8>, AmberError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = first + i as u32;
        let code = line.split(';').next().unwrap_or("");
        for t in super::lex::lex_line(code, line_no) {
            let digits = t.text.trim_start_matches("0x");
            let bad = || {
                AmberError::parse(
                    Place {
                        file: file.to_string(),
                        line: t.line,
                        col: t.col,
                    },
                    format!(
                        "'{}' is not a hex byte (2 digits) or word (8 digits)",
                        t.text
                    ),
                )
            };
            match digits.len() {
                2 => out.push(u8::from_str_radix(digits, 16).map_err(|_| bad())?),
                8 => out.extend(
                    u32::from_str_radix(digits, 16)
                        .map_err(|_| bad())?
                        .to_le_bytes(),
                ),
                _ => return Err(bad()),
            }
        }
    }
    Ok(out)
}
