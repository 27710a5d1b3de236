//! Expectations: a buffer after the run checked against expected bytes, element by element,
//! bit for bit ([`crate::compare`] with [`Tolerance::EXACT`]: spvx's results are exact, so
//! there is no tolerance), each check's PASS/FAIL line and the tally of a run.
//!
//! The expected data covers the first bytes of the buffer (all of it when it is as long); a
//! buffer shorter than the expected data fails. Floats compare by bits: -0 differs from +0 and
//! NaNs must have the same bits.

use crate::ElemType;
use crate::bindings::ElementSuffix;
use crate::compare::{Tolerance, compare};
use crate::data::{Data, LoadError};
use crate::element::{DtypeError, check_npy};
use crate::plan::{ExpectPlan, RunPlan};
use spvx_exec::{BindingInfo, Resources};
use std::collections::BTreeMap;
use std::fmt;

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
    let c = compare(
        expected,
        &actual[..expected.len()],
        elem,
        Tolerance::EXACT,
        1,
    );
    match c.listed.first() {
        None => Check::Pass {
            elements: c.elements,
        },
        Some(d) => Check::Mismatch {
            count: c.mismatches,
            elements: c.elements,
            index: d.index,
            got: d.actual,
            want: d.expected,
        },
    }
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

/// One checked buffer: what it is, how it compared; its [`Display`](fmt::Display) is the
/// PASS/FAIL line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    /// `0.3 (name)`, `0.1[2]`, `arg 1 (x)`.
    pub label: String,
    pub elem: ElemType,
    /// The buffer's length in bytes.
    pub buffer_len: usize,
    pub check: Check,
}

impl Checked {
    /// Checks `actual` against `expected` as `elem` elements.
    pub fn new(label: String, actual: &[u8], expected: &[u8], elem: ElemType) -> Checked {
        Checked {
            check: check(actual, expected, elem),
            label,
            elem,
            buffer_len: actual.len(),
        }
    }
}

impl fmt::Display for Checked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.check.line(&self.label, self.elem, self.buffer_len))
    }
}

/// The checks of one run: how many were made and how many failed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub checked: usize,
    pub failed: usize,
}

impl Tally {
    /// Counts one check.
    pub fn add(&mut self, c: &Check) {
        self.checked += 1;
        if !c.passed() {
            self.failed += 1;
        }
    }

    /// True when no check failed.
    pub fn passed(&self) -> bool {
        self.failed == 0
    }

    /// `PASS: 3 of 3 checked bindings match` (`what`: "bindings", "arguments"), when anything
    /// was checked.
    pub fn summary(&self, what: &str) -> Option<String> {
        let Tally { checked, failed } = *self;
        (checked > 0).then(|| {
            format!(
                "{}: {} of {checked} checked {what} match",
                if failed == 0 { "PASS" } else { "FAIL" },
                checked - failed
            )
        })
    }
}

/// Expected data that cannot be loaded, or a `.npy` file of another dtype than its binding's
/// element type.
#[derive(Debug, thiserror::Error)]
pub enum ExpectError {
    #[error("{origin} (expected data): {source}")]
    Load {
        origin: String,
        #[source]
        source: LoadError,
    },
    #[error(transparent)]
    Dtype(#[from] Box<DtypeError>),
}

/// The element type a check compares as: the expectation's `type`, else its data's, else the
/// input data's (callers fall back to the binding's element type in the module, else u8).
pub(crate) fn check_type(
    expect: &ExpectPlan,
    want: &Data,
    input: Option<&Data>,
) -> Option<ElemType> {
    expect
        .elem
        .or(want.elem)
        .or_else(|| input.and_then(|d| d.elem))
}

impl RunPlan {
    /// Loads an expectation's data (`origin`: where it was given, for the message).
    pub fn load_expected(&self, expect: &ExpectPlan, origin: &str) -> Result<Data, ExpectError> {
        expect
            .data
            .load(&self.base, self.config.memory_limit)
            .map_err(|source| ExpectError::Load {
                origin: origin.to_string(),
                source,
            })
    }

    /// Checks every buffer and tensor with an expectation against `res` after the run, in plan
    /// order, handing each check to `each` as it is made; `inputs` are the data each binding
    /// (set, binding, element) was given (for the element type to compare as); `elements`
    /// the buffers' element types in the module ([`crate::element::buffer_elements`]), which
    /// expected `.npy` data must have.
    pub fn check_expectations(
        &self,
        res: &Resources,
        bindings: &[BindingInfo],
        inputs: &BTreeMap<(u32, u32, u32), Data>,
        elements: &BTreeMap<(u32, u32), ElemType>,
        each: &mut dyn FnMut(&Checked),
    ) -> Result<Tally, ExpectError> {
        let mut tally = Tally::default();
        let checks = self
            .buffers
            .iter()
            .map(|b| {
                let index = b.index.unwrap_or(0);
                let data = res.buffer_element(b.set, b.binding, index);
                (
                    b.set, b.binding, index, b.index, &b.expect, &b.origin, data, true,
                )
            })
            .chain(self.tensors.iter().map(|t| {
                let index = t.index.unwrap_or(0);
                let data = res
                    .tensor_element(t.set, t.binding, index)
                    .map(|t| t.data.as_slice());
                (
                    t.set, t.binding, index, t.index, &t.expect, &t.origin, data, false,
                )
            }));
        for (set, binding, index, given_index, expect, origin, actual, buffer) in checks {
            let Some(expect) = expect else { continue };
            let want = self.load_expected(expect, origin)?;
            let name = bindings
                .iter()
                .find(|i| i.set == set && i.binding == binding)
                .and_then(|i| i.name.clone());
            if buffer {
                check_npy(
                    &expect.data,
                    &want,
                    elements,
                    (set, binding, given_index),
                    name.clone(),
                    origin,
                    true,
                )?;
            }
            let elem = check_type(expect, &want, inputs.get(&(set, binding, index)))
                .or_else(|| {
                    buffer
                        .then(|| elements.get(&(set, binding)).copied())
                        .flatten()
                })
                .unwrap_or(ElemType::U8);
            let element = ElementSuffix::new(index, index > 0);
            let label = match name {
                Some(n) if !n.is_empty() => format!("{set}.{binding}{element} ({n})"),
                _ => format!("{set}.{binding}{element}"),
            };
            let c = Checked::new(label, actual.unwrap_or(&[]), &want.bytes, elem);
            tally.add(&c.check);
            each(&c);
        }
        Ok(tally)
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
        // -0.0 and +0.0 differ as bits; so do NaNs with different payloads.
        assert!(!check(&[0, 0x80], &[0, 0], ElemType::F16).passed());
        assert!(!check(&[0x01, 0x7c], &[0x00, 0x7e], ElemType::F16).passed());
        // A trailing partial element: 3 bytes as u16 are 2 elements.
        assert_eq!(
            check(&[1, 0, 5, 0], &[1, 0, 6], ElemType::U16),
            Check::Mismatch {
                count: 1,
                elements: 2,
                index: 1,
                got: 5,
                want: 6
            }
        );
    }

    #[test]
    fn tally_lines() {
        let mut t = Tally::default();
        assert_eq!(t.summary("bindings"), None);
        t.add(&Check::Pass { elements: 1 });
        t.add(&Check::TooShort {
            actual: 0,
            expected: 1,
        });
        assert_eq!(
            t.summary("arguments").as_deref(),
            Some("FAIL: 1 of 2 checked arguments match")
        );
        assert!(!t.passed());
    }
}
