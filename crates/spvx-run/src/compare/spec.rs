//! The spec-aware comparison: each element of an implementation's output against the
//! reference's (spvx's engine), judged with what the module says about the binding
//! ([`ModuleFacts`]) and with the other legal results the engine computed
//! ([`Alternative`]s: the module with a freedom taken, or another accumulation model).
//!
//! The rules, in order, for an element whose bits differ (docs/semantics/comparison.md):
//!
//! 1. two NaNs: allowed (NaN payloads);
//! 2. the value of an alternative (a contraction, an unfused Fma, a VALVE model, flushed
//!    subnormal inputs, a profile): allowed, with that freedom; an alternative's subnormal
//!    value flushed to zero counts too where flushing is allowed;
//! 3. a subnormal reference value flushed to zero (of either sign) where the entry point does
//!    not declare DenormPreserve for the width: allowed;
//! 4. within the Vulkan precision bound of a last operation ([`super::precision`]): allowed;
//!    beyond a bound spvx cannot evaluate here: undecided; one ULP from a correctly rounded
//!    last operation without RoundingModeRTE/RTZ: undecided (the rounding mode is
//!    unspecified);
//! 5. an inexact or relaxed-precision operation before the last one, contraction sites not all
//!    evaluated, a NaN against a number: undecided;
//! 6. anything else: a violation.

use super::precision::{Check, Precision, check};
use super::provenance::{ModuleFacts, OutputFacts};
use super::verdict::{ElementVerdict, Freedom, Open, Violation};
use crate::ElemType;
use spvx_exec::Resources;

/// Another legal result: the outputs of the engine with one freedom taken.
#[derive(Clone, Debug)]
pub struct Alternative {
    pub freedom: Freedom,
    pub outputs: Resources,
}

impl Alternative {
    /// The bytes of output (set, binding, element of an array of buffers).
    fn bytes(&self, (set, binding, index): (u32, u32, u32)) -> Option<&[u8]> {
        self.outputs
            .buffer_element(set, binding, index)
            .or_else(|| {
                (index == 0)
                    .then(|| self.outputs.tensor(set, binding).map(|t| t.data.as_slice()))
                    .flatten()
            })
    }
}

/// One element whose bits differ, with its verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecDifference {
    pub index: usize,
    pub byte: usize,
    /// The reference's bits and the implementation's.
    pub expected: u64,
    pub actual: u64,
    pub verdict: ElementVerdict,
}

/// The outcome for one binding.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SpecComparison {
    pub elements: usize,
    pub allowed: usize,
    pub undecided: usize,
    pub violations: usize,
    /// The first differences of each kind (up to the limit given per kind), in index order.
    pub listed: Vec<SpecDifference>,
    /// The two lengths in bytes when they differ (a violation by itself).
    pub lengths: Option<(usize, usize)>,
}

impl SpecComparison {
    /// True when nothing is a violation.
    pub fn passed(&self) -> bool {
        self.violations == 0 && self.lengths.is_none()
    }
}

/// The judge of one module's outputs.
#[derive(Clone, Debug, Default)]
pub struct SpecJudge {
    pub facts: ModuleFacts,
    pub alternatives: Vec<Alternative>,
    /// Why some freedoms were not evaluated (a variant that did not compile, too many
    /// contraction sites for every combination): differences they could explain are
    /// undecided, not violations.
    pub unevaluated: Vec<String>,
    /// Floats this many ULPs apart or fewer that would be violations are allowed as
    /// [`Freedom::Tolerance`] (the caller's choice, not the specification's; 0: none).
    pub tolerance_ulps: u64,
}

impl SpecJudge {
    /// A judge from the module's facts and no alternatives (only NaN payloads, flushing and
    /// precision bounds can then explain a difference).
    pub fn new(facts: ModuleFacts) -> SpecJudge {
        SpecJudge {
            facts,
            alternatives: Vec::new(),
            unevaluated: Vec::new(),
            tolerance_ulps: 0,
        }
    }

    /// The verdict on element `i` of output `key` (set, binding, element of an array of
    /// buffers): `expected` is the reference's bits, `actual` the implementation's.
    pub fn judge(
        &self,
        key: (u32, u32, u32),
        elem: ElemType,
        i: usize,
        expected: u64,
        actual: u64,
    ) -> ElementVerdict {
        if expected == actual {
            return ElementVerdict::Same;
        }
        let empty = OutputFacts::default();
        let facts = self.facts.outputs.get(&(key.0, key.1)).unwrap_or(&empty);
        let format = elem.float_format();
        let width = elem.bits();
        let may_flush = format.is_some() && self.facts.may_flush(width);
        let flushed = |from: u64, to: u64| {
            format.is_some_and(|f| f.is_subnormal(from) && f.is_zero(to)) && may_flush
        };
        if elem.is_nan(expected) && elem.is_nan(actual) {
            return ElementVerdict::Allowed(Freedom::NanPayload);
        }
        for alt in &self.alternatives {
            let Some(bytes) = alt.bytes(key) else {
                continue;
            };
            let n = elem.size();
            if (i + 1) * n > bytes.len() {
                continue;
            }
            let bits = elem.bits_at(&bytes[i * n..(i + 1) * n], 0);
            if bits == actual
                || (format.is_some() && elem.is_nan(bits) && elem.is_nan(actual))
                || flushed(bits, actual)
            {
                return ElementVerdict::Allowed(alt.freedom.clone());
            }
        }
        if format.is_none() {
            return ElementVerdict::Violation(Violation {
                ulps: None,
                why: "integer results are exact".into(),
            });
        }
        if flushed(expected, actual) {
            return ElementVerdict::Allowed(Freedom::DenormalFlush {
                width,
                inputs: false,
            });
        }
        if elem.is_nan(expected) != elem.is_nan(actual) {
            return ElementVerdict::Undecided(Open {
                site: None,
                why: "a NaN against a number: without SignedZeroInfNanPreserve Vulkan does not require NaNs to be produced or propagated".into(),
            });
        }
        let mut open: Option<Open> = None;
        let distance = elem.ulp_distance(expected, actual);
        for (site, p, w) in &facts.roots {
            if *p == Precision::Exact || *w != width {
                continue;
            }
            if *p == Precision::CorrectlyRounded {
                if distance == Some(1) && !self.facts.rounding_fixed.contains(&width) {
                    open.get_or_insert(Open {
                        site: Some(site.clone()),
                        why: "1 ULP apart: Vulkan leaves the rounding mode unspecified without RoundingModeRTE/RTZ, so the other neighbour of an inexact result is allowed (spvx does not see the exact result here)".into(),
                    });
                }
                continue;
            }
            match check(*p, elem, expected, actual) {
                Check::Within(ulps) => {
                    return ElementVerdict::Allowed(Freedom::Precision {
                        site: site.clone(),
                        bound: p.describe(),
                        ulps,
                    });
                }
                Check::Open(why) => {
                    open.get_or_insert(Open {
                        site: Some(site.clone()),
                        why,
                    });
                }
                Check::Beyond(_) => {}
            }
        }
        if let Some(o) = open {
            return ElementVerdict::Undecided(o);
        }
        if let Some((site, p)) = facts.inner.first() {
            return ElementVerdict::Undecided(Open {
                site: Some(site.clone()),
                why: format!(
                    "an operation before the last one is not exact ({}); its error propagates and spvx does not bound it",
                    p.describe()
                ),
            });
        }
        if let Some(site) = facts.relaxed.first() {
            return ElementVerdict::Undecided(Open {
                site: Some(site.clone()),
                why: "decorated RelaxedPrecision: Vulkan allows lower precision".into(),
            });
        }
        if let Some(why) = self.unevaluated.first() {
            return ElementVerdict::Undecided(Open {
                site: None,
                why: why.clone(),
            });
        }
        let ulps = distance;
        if let Some(u) = ulps.filter(|&u| u <= self.tolerance_ulps) {
            return ElementVerdict::Allowed(Freedom::Tolerance {
                ulps: u,
                max: self.tolerance_ulps,
            });
        }
        let mut why = if facts.roots.is_empty() {
            "the value is a copy of input data".to_string()
        } else {
            let ops: Vec<String> = facts.roots.iter().map(|(s, _, _)| s.to_string()).collect();
            format!(
                "no freedom of the specification covers it ({} correctly rounded",
                ops.join(", ")
            ) + if facts.contractions.is_empty() {
                ")"
            } else {
                "; every contraction evaluated)"
            }
        };
        if may_flush && facts.float_ops > 1 {
            why.push_str(
                "; a subnormal intermediate result flushed to zero is not modelled (docs/semantics/comparison.md)",
            );
        }
        ElementVerdict::Violation(Violation { ulps, why })
    }

    /// Compares output `key` element by element as `elem`: `expected` from the reference,
    /// `actual` from the implementation, over their common length (a trailing partial element
    /// compared zero-extended). At most `max_listed` differences of each verdict are listed.
    pub fn compare(
        &self,
        key: (u32, u32, u32),
        elem: ElemType,
        expected: &[u8],
        actual: &[u8],
        max_listed: usize,
    ) -> SpecComparison {
        let n = elem.size();
        let common = expected.len().min(actual.len());
        let mut out = SpecComparison {
            elements: common.div_ceil(n),
            lengths: (expected.len() != actual.len()).then_some((expected.len(), actual.len())),
            ..SpecComparison::default()
        };
        let mut shown = [0usize; 3];
        for (c, (a, b)) in expected[..common]
            .chunks(n)
            .zip(actual[..common].chunks(n))
            .enumerate()
        {
            if a == b {
                continue;
            }
            let (x, y) = (elem.bits_at(a, 0), elem.bits_at(b, 0));
            let verdict = self.judge(key, elem, c, x, y);
            let kind = match verdict {
                ElementVerdict::Same => continue,
                ElementVerdict::Allowed(_) => {
                    out.allowed += 1;
                    0
                }
                ElementVerdict::Undecided(_) => {
                    out.undecided += 1;
                    1
                }
                ElementVerdict::Violation(_) => {
                    out.violations += 1;
                    2
                }
            };
            if shown[kind] < max_listed {
                shown[kind] += 1;
                out.listed.push(SpecDifference {
                    index: c,
                    byte: c * n,
                    expected: x,
                    actual: y,
                    verdict,
                });
            }
        }
        out
    }
}
