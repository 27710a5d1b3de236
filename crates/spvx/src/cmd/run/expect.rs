//! Checking a buffer after the run against expected bytes, element by element, bit for bit
//! (spvx's results are exact, so there is no tolerance), and the PASS/FAIL line.
//!
//! The expected data covers the first bytes of the buffer (all of it when it is as long); a
//! buffer shorter than the expected data fails. Floats compare by bits: -0 differs from +0 and
//! NaNs must have the same bits.

use super::elem::ElemType;

/// The outcome of one check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Check {
    Pass {
        elements: usize,
    },
    /// The buffer is shorter than the expected data.
    TooShort {
        actual: usize,
        expected: usize,
    },
    Mismatch {
        /// Elements that differ.
        count: usize,
        /// Elements compared.
        elements: usize,
        /// The first differing element.
        index: usize,
        got: u64,
        want: u64,
    },
}

/// Compares `actual` with `expected` as elements of `elem`. A trailing partial element (an
/// expected length not a multiple of the element size) is compared as bytes of the last
/// element.
pub fn check(actual: &[u8], expected: &[u8], elem: ElemType) -> Check {
    if actual.len() < expected.len() {
        return Check::TooShort {
            actual: actual.len(),
            expected: expected.len(),
        };
    }
    let size = elem.size();
    let elements = expected.len().div_ceil(size);
    let mut first = None;
    let mut count = 0;
    for i in 0..elements {
        let end = ((i + 1) * size).min(expected.len());
        let (a, e) = (&actual[i * size..end], &expected[i * size..end]);
        if a != e {
            count += 1;
            if first.is_none() {
                first = Some((i, to_bits(a), to_bits(e)));
            }
        }
    }
    match first {
        None => Check::Pass { elements },
        Some((index, got, want)) => Check::Mismatch {
            count,
            elements,
            index,
            got,
            want,
        },
    }
}

/// The checks of one run: prints each checked buffer's PASS/FAIL line, then the summary line;
/// the exit code is failure when any check failed.
#[derive(Default)]
pub struct Tally {
    checked: usize,
    failed: usize,
}

impl Tally {
    /// Checks `actual` against `expected` and prints the line of `label`.
    pub fn check(&mut self, label: &str, actual: &[u8], expected: &[u8], elem: ElemType) {
        let outcome = check(actual, expected, elem);
        println!("{}", outcome.line(label, elem, actual.len()));
        self.checked += 1;
        if !outcome.passed() {
            self.failed += 1;
        }
    }

    /// `PASS: 3 of 3 checked bindings match` (`what`: "bindings", "arguments"), when anything
    /// was checked.
    pub fn finish(self, what: &str) -> std::process::ExitCode {
        let Tally { checked, failed } = self;
        if checked > 0 {
            println!(
                "{}: {} of {checked} checked {what} match",
                if failed == 0 { "PASS" } else { "FAIL" },
                checked - failed
            );
        }
        if failed == 0 {
            std::process::ExitCode::SUCCESS
        } else {
            std::process::ExitCode::FAILURE
        }
    }
}

fn to_bits(bytes: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    w[..bytes.len()].copy_from_slice(bytes);
    u64::from_le_bytes(w)
}

impl Check {
    /// True for [`Check::Pass`].
    pub fn passed(&self) -> bool {
        matches!(self, Check::Pass { .. })
    }

    /// `PASS 0.3 (name): 256 i32 elements match` or the FAIL line with the first mismatch.
    pub fn line(&self, label: &str, elem: ElemType, buffer_len: usize) -> String {
        match self {
            Check::Pass { elements } => {
                let part = if elements * elem.size() < buffer_len {
                    format!(
                        " (the first {} of {buffer_len} bytes)",
                        elements * elem.size()
                    )
                } else {
                    String::new()
                };
                format!("PASS {label}: {elements} {elem} elements match{part}")
            }
            Check::TooShort { actual, expected } => {
                format!("FAIL {label}: the buffer has {actual} bytes, the expected data {expected}")
            }
            Check::Mismatch {
                count,
                elements,
                index,
                got,
                want,
            } => format!(
                "FAIL {label}: {count} of {elements} {elem} elements differ; first at element {index} (byte {}): got {}, expected {}",
                index * elem.size(),
                elem.display(*got),
                elem.display(*want)
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn by_hand() {
        let want = [1u8, 0, 2, 0, 3, 0];
        assert_eq!(
            check(&want, &want, ElemType::U16),
            Check::Pass { elements: 3 }
        );
        let got = [1u8, 0, 2, 0, 4, 0, 9, 9];
        let c = check(&got, &want, ElemType::U16);
        assert_eq!(
            c,
            Check::Mismatch {
                count: 1,
                elements: 3,
                index: 2,
                got: 4,
                want: 3
            }
        );
        assert_eq!(
            c.line("0.1", ElemType::U16, 8),
            "FAIL 0.1: 1 of 3 u16 elements differ; first at element 2 (byte 4): got 4 (0x0004), expected 3 (0x0003)"
        );
        assert_eq!(
            check(&got[..2], &want, ElemType::U16),
            Check::TooShort {
                actual: 2,
                expected: 6
            }
        );
        // -0.0 and +0.0 differ as bits.
        assert!(!check(&[0, 0x80], &[0, 0], ElemType::F16).passed());
    }
}
