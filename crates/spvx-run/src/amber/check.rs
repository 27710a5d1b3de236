//! Checking one `EXPECT` against the buffers' bytes after the commands before it. Values are
//! compared as numbers of the buffer's element type (the expected text was rounded once into
//! that type): `EQ` holds for equal numbers (−0 = +0) and for two NaNs; with `TOLERANCE`,
//! `|got − expected| ≤ t`, or `≤ |expected| · t / 100` for `t%`. `EQ_BUFFER` is bit for bit
//! ([`crate::compare`]); `RMSE_BUFFER` is the root mean square of the components' differences.

use super::layout::{Number, number};
use super::model::{Buffer, Cmp, ExpectKind, Script, Tolerance};
use crate::compare::{Tolerance as Bits, compare};
use std::collections::BTreeMap;

/// A failed expectation: the first failing value's byte (for naming its writer) and the
/// message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Miss {
    pub buffer: String,
    pub byte: Option<usize>,
    pub message: String,
}

/// Checks `kind` on buffer `name`; `None` when it holds.
pub fn check(
    script: &Script,
    name: &str,
    kind: &ExpectKind,
    bytes: &BTreeMap<String, Vec<u8>>,
) -> Option<Miss> {
    let decl = &script.buffers[name];
    let data = &bytes[name];
    let miss = |byte, message| {
        Some(Miss {
            buffer: name.to_string(),
            byte,
            message,
        })
    };
    match kind {
        ExpectKind::Values {
            ty,
            layout,
            offset,
            tolerance,
            cmp,
            values,
        } => {
            let elem = ty.elem;
            let size = elem.size();
            let mut first = None;
            let mut failed = 0;
            for (i, &want) in values.iter().enumerate() {
                let byte = usize::try_from(*offset)
                    .unwrap_or(usize::MAX)
                    .saturating_add(ty.component_offset(*layout, i));
                let Some(slice) = data.get(byte..byte.saturating_add(size)) else {
                    return miss(
                        None,
                        format!(
                            "value {i} is at byte {byte}, past the end of '{name}' ({} bytes)",
                            data.len()
                        ),
                    );
                };
                let got = elem.bits_at(slice, 0);
                // A vector's component k (a matrix column's row k) takes tolerance k.
                let row = i % ty.components() % ty.rows as usize;
                let tol = (!tolerance.is_empty()).then(|| tolerance[row % tolerance.len()]);
                if !holds(*cmp, tol, number(elem, got), number(elem, want)) {
                    failed += 1;
                    first.get_or_insert((i, byte, want, got));
                }
            }
            let (i, byte, want, got) = first?;
            let n = ty.components();
            let stride = ty.stride(*layout);
            let tol = match tolerance.as_slice() {
                [] => String::new(),
                t => format!(
                    " within {}",
                    t.iter()
                        .map(|t| format!("{}{}", t.value, if t.percent { "%" } else { "" }))
                        .collect::<Vec<_>>()
                        .join(" ")
                ),
            };
            let what = if cmp_is_eq(*cmp) {
                "expected".to_string()
            } else {
                format!("expected {}", cmp.name())
            };
            miss(
                Some(byte),
                format!(
                    "value {i} at byte {byte} (element {}, component {}): {what} {}{tol}, got {}{}",
                    byte / stride,
                    (i % n),
                    elem.display(want),
                    elem.display(got),
                    if failed > 1 {
                        format!(" ({failed} of {} values fail)", values.len())
                    } else {
                        String::new()
                    }
                ),
            )
        }
        ExpectKind::EqBuffer(other) => {
            let theirs = &bytes[other];
            let elem = decl.ty.elem;
            if data.len() != theirs.len() {
                return miss(
                    None,
                    format!(
                        "'{name}' has {} bytes and '{other}' {}",
                        data.len(),
                        theirs.len()
                    ),
                );
            }
            let c = compare(theirs, data, elem, Bits::EXACT, 1);
            let d = c.first_mismatch()?;
            miss(
                Some(d.byte),
                format!(
                    "EQ_BUFFER {other}: element {} (byte {}): expected {}, got {} ({} of {} elements differ)",
                    d.index,
                    d.byte,
                    elem.display(d.expected),
                    elem.display(d.actual),
                    c.mismatches,
                    c.elements
                ),
            )
        }
        ExpectKind::Rmse(other, tol) => {
            let o = &script.buffers[other];
            let theirs = &bytes[other];
            let (a, b) = (components(decl, data), components(o, theirs));
            if a.len() != b.len() {
                return miss(
                    None,
                    format!(
                        "'{name}' has {} components and '{other}' {}",
                        a.len(),
                        b.len()
                    ),
                );
            }
            let sum: f64 = a.iter().zip(&b).map(|(x, y)| (x - y) * (x - y)).sum();
            let rmse = if a.is_empty() {
                0.0
            } else {
                (sum / a.len() as f64).sqrt()
            };
            (rmse > *tol || rmse.is_nan()).then(|| Miss {
                buffer: name.to_string(),
                byte: None,
                message: format!(
                    "RMSE_BUFFER {other}: root mean square difference {rmse} is more than the tolerance {tol}"
                ),
            })
        }
    }
}

fn cmp_is_eq(c: Cmp) -> bool {
    c == Cmp::Eq
}

/// Every component of a buffer, as f64.
fn components(b: &Buffer, data: &[u8]) -> Vec<f64> {
    let n = b.ty.components();
    let size = b.ty.elem.size();
    let elements = data.len() / b.ty.stride(b.layout).max(1);
    (0..elements * n)
        .filter_map(|k| {
            let at = b.ty.component_offset(b.layout, k);
            data.get(at..at + size)
                .map(|s| number(b.ty.elem, b.ty.elem.bits_at(s, 0)).as_f64())
        })
        .collect()
}

/// Whether `got CMP want` holds (with a tolerance for EQ).
pub fn holds(cmp: Cmp, tol: Option<Tolerance>, got: Number, want: Number) -> bool {
    if let Some(t) = tol {
        let (g, w) = (got.as_f64(), want.as_f64());
        let d = (g - w).abs();
        let limit = if t.percent {
            w.abs() * t.value / 100.0
        } else {
            t.value
        };
        return d <= limit;
    }
    use std::cmp::Ordering as O;
    let ord = match (got, want) {
        (Number::Int(a), Number::Int(b)) => Some(a.cmp(&b)),
        (Number::Float(a), Number::Float(b)) if a.is_nan() && b.is_nan() => {
            return matches!(cmp, Cmp::Eq);
        }
        (a, b) => a.as_f64().partial_cmp(&b.as_f64()),
    };
    match (cmp, ord) {
        (Cmp::Ne, None) => true,
        (_, None) => false,
        (Cmp::Eq, Some(o)) => o == O::Equal,
        (Cmp::Ne, Some(o)) => o != O::Equal,
        (Cmp::Lt, Some(o)) => o == O::Less,
        (Cmp::Le, Some(o)) => o != O::Greater,
        (Cmp::Gt, Some(o)) => o == O::Greater,
        (Cmp::Ge, Some(o)) => o != O::Less,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comparisons_and_tolerances() {
        let f = Number::Float;
        assert!(holds(Cmp::Eq, None, f(-0.0), f(0.0)));
        assert!(holds(Cmp::Eq, None, f(f64::NAN), f(f64::NAN)));
        assert!(!holds(Cmp::Ne, None, f(f64::NAN), f(f64::NAN)));
        assert!(holds(Cmp::Ne, None, f(1.0), f(f64::NAN)));
        assert!(holds(Cmp::Lt, None, Number::Int(-3), Number::Int(2)));
        assert!(!holds(Cmp::Ge, None, Number::Int(-3), Number::Int(2)));
        let abs = Tolerance {
            value: 0.5,
            percent: false,
        };
        assert!(holds(Cmp::Eq, Some(abs), f(10.5), f(10.0)));
        assert!(!holds(Cmp::Eq, Some(abs), f(10.6), f(10.0)));
        let pct = Tolerance {
            value: 10.0,
            percent: true,
        };
        assert!(holds(Cmp::Eq, Some(pct), f(109.0), f(100.0)));
        assert!(!holds(Cmp::Eq, Some(pct), f(111.0), f(100.0)));
    }
}
