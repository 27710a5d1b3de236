//! The one buffer comparison of spvx: two byte strings (from the engine, a device, a run file's
//! expected data, a reference run) compared element by element in an element type, bit for
//! bit. `spvx run`'s expectations, `spvx diff` and `spvx bench` all go through [`compare`].
//!
//! What counts as a mismatch is the caller's [`Tolerance`]:
//!
//! - exact ([`Tolerance::EXACT`]): any different bits (spvx's results are exact; -0 differs
//!   from +0, NaNs must have the same bits);
//! - with `nan_payloads`, two NaNs with different bits are a documented undefined case (SPIR-V
//!   defines no NaN payloads; the engine writes the canonical quiet NaN), counted apart and not
//!   a mismatch;
//! - with `ulps > 0`, floats at most that many units in the last place apart (counted on the
//!   ordered bit patterns, +0 and −0 being 0 apart) are "within tolerance", not mismatches.
//!
//! This function knows bytes and element types only; printing values is the caller's job.
//!
//! The spec-aware comparison (`spvx diff`, `spvx conform`) is built on the same element
//! walk, with the module's say on every output:
//!
//! - [`verdict`]: [`ElementVerdict`] (same, allowed with its [`Freedom`], undecided with its
//!   [`Open`] reason, violation) and the instruction [`Site`]s named in reasons;
//! - [`precision`]: the Vulkan precision table and the check of one element against it;
//! - [`provenance`]: [`ModuleFacts`], which instructions produce each output binding
//!   (contraction sites, Fma, VALVE dot products, precision of the last operation);
//! - [`rewrite`]: module variants with a freedom taken (contractions fused, Fma split);
//! - [`spec`]: [`SpecJudge`], the per-element rules, and [`SpecComparison`] per binding;
//! - [`alternatives`]: [`judge_for`], the judge of a loaded plan with every alternative result
//!   the engine computes (variants, VALVE models, flushed subnormal inputs).
//!
//! Rules and sources: docs/semantics/comparison.md.

pub mod alternatives;
pub mod precision;
pub mod provenance;
pub mod rewrite;
pub mod spec;
pub mod verdict;

pub use alternatives::{JudgedRun, judge_for, judge_of};
pub use provenance::{ModuleFacts, OutputFacts};
pub use spec::{Alternative, SpecComparison, SpecDifference, SpecJudge};
pub use verdict::{ElementVerdict, Freedom, Open, Site, Violation};

use crate::ElemType;

/// Which differences are not mismatches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tolerance {
    /// Two NaNs with different bits are undefined, not a mismatch.
    pub nan_payloads: bool,
    /// Floats at most this many ULPs apart are within tolerance (0: none are).
    pub ulps: u64,
}

impl Tolerance {
    /// Bit for bit: every difference is a mismatch.
    pub const EXACT: Tolerance = Tolerance {
        nan_payloads: false,
        ulps: 0,
    };

    /// Between two implementations (`spvx diff`): NaN payloads are undefined, and floats `ulps`
    /// apart are accepted.
    pub const fn between_implementations(ulps: u64) -> Tolerance {
        Tolerance {
            nan_payloads: true,
            ulps,
        }
    }
}

/// How one element compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Different bits outside any tolerance: a mismatch.
    Mismatch,
    /// Two NaNs with different bits (undefined payload).
    NanPayload,
    /// Floats this many ULPs apart, within the tolerance.
    WithinUlps(u64),
}

/// One element whose bits differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Difference {
    /// Element index.
    pub index: usize,
    /// Byte offset of the element.
    pub byte: usize,
    /// The element's bits from the first input (the expected side) and the second (the actual).
    pub expected: u64,
    pub actual: u64,
    pub verdict: Verdict,
}

/// The outcome for one binding.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Comparison {
    /// Elements compared (a trailing partial element counts as one).
    pub elements: usize,
    /// Elements that are mismatches.
    pub mismatches: usize,
    /// Elements that differ but are a documented undefined case (NaN payloads).
    pub undefined: usize,
    /// Elements that differ within the ULP tolerance.
    pub within_ulps: usize,
    /// The first differences of each class (up to the limit given), in index order.
    pub listed: Vec<Difference>,
    /// The two lengths in bytes when they differ (a mismatch by itself).
    pub lengths: Option<(usize, usize)>,
}

impl Comparison {
    /// True when nothing is a mismatch.
    pub fn passed(&self) -> bool {
        self.mismatches == 0 && self.lengths.is_none()
    }

    /// The first listed mismatch, if any was listed.
    pub fn first_mismatch(&self) -> Option<&Difference> {
        self.listed.iter().find(|d| d.verdict == Verdict::Mismatch)
    }
}

/// Compares `expected` with `actual` as `elem` elements over their common length (a longer
/// side makes [`Comparison::lengths`]). A trailing part of an element (when the length is not
/// a multiple of the size) is compared as one more element, zero-extended. `max_listed` bounds
/// [`Comparison::listed`].
pub fn compare(
    expected: &[u8],
    actual: &[u8],
    elem: ElemType,
    tolerance: Tolerance,
    max_listed: usize,
) -> Comparison {
    let n = elem.size();
    let common = expected.len().min(actual.len());
    let mut out = Comparison {
        elements: common.div_ceil(n),
        lengths: (expected.len() != actual.len()).then_some((expected.len(), actual.len())),
        ..Comparison::default()
    };
    // Fast path: equal chunks are skipped without decoding.
    for (c, (a, b)) in expected[..common]
        .chunks(n)
        .zip(actual[..common].chunks(n))
        .enumerate()
    {
        if a == b {
            continue;
        }
        let x = elem.bits_at(a, 0);
        let y = elem.bits_at(b, 0);
        let verdict = if tolerance.nan_payloads && elem.is_nan(x) && elem.is_nan(y) {
            out.undefined += 1;
            Verdict::NanPayload
        } else {
            match elem.ulp_distance(x, y) {
                Some(d)
                    if tolerance.ulps > 0
                        && d <= tolerance.ulps
                        && !elem.is_nan(x)
                        && !elem.is_nan(y) =>
                {
                    out.within_ulps += 1;
                    Verdict::WithinUlps(d)
                }
                _ => {
                    out.mismatches += 1;
                    Verdict::Mismatch
                }
            }
        };
        if out.listed.len() < max_listed {
            out.listed.push(Difference {
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

#[cfg(test)]
mod tests {
    use super::*;

    const DIFF: Tolerance = Tolerance::between_implementations(0);

    fn bytes16(v: &[u16]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    #[test]
    fn equal_bytes_pass_and_one_flipped_bit_is_reported_with_its_place() {
        let a: Vec<u8> = (0..64).collect();
        let mut b = a.clone();
        assert!(compare(&a, &b, ElemType::I32, DIFF, 8).passed());
        b[13] ^= 0x10;
        let c = compare(&a, &b, ElemType::I32, DIFF, 8);
        assert_eq!(c.mismatches, 1);
        assert_eq!(c.elements, 16);
        assert_eq!(
            c.listed,
            vec![Difference {
                index: 3,
                byte: 12,
                expected: 0x0f0e0d0c,
                actual: 0x0f0e1d0c,
                verdict: Verdict::Mismatch
            }]
        );
    }

    #[test]
    fn nan_payloads_are_undefined_between_implementations_and_mismatches_when_exact() {
        // f16: 0x7e00 canonical quiet NaN, 0x7c01 signalling NaN, 0xfe00 negative NaN.
        let (a, b) = (bytes16(&[0x7e00, 0x7e00]), bytes16(&[0x7c01, 0xfe00]));
        let c = compare(&a, &b, ElemType::F16, DIFF, 8);
        assert!(c.passed());
        assert_eq!(c.undefined, 2);
        let c = compare(&a, &b, ElemType::F16, Tolerance::EXACT, 8);
        assert_eq!((c.mismatches, c.undefined), (2, 0));
        // NaN against infinity (0x7c00) is a mismatch.
        let c = compare(
            &bytes16(&[0x7e00]),
            &bytes16(&[0x7c00]),
            ElemType::F16,
            DIFF,
            8,
        );
        assert_eq!(c.mismatches, 1);
        // As integers, the same bits are plain mismatches.
        let c = compare(
            &bytes16(&[0x7e00]),
            &bytes16(&[0x7c01]),
            ElemType::U16,
            DIFF,
            8,
        );
        assert_eq!(c.mismatches, 1);
        // -0.0 and +0.0 differ as bits.
        assert!(!compare(&[0, 0x80], &[0, 0], ElemType::F16, Tolerance::EXACT, 1).passed());
    }

    #[test]
    fn ulp_tolerance_counts_ordered_distance_across_zero() {
        // f32 1.0 = 0x3f800000; next up 0x3f800001; -0 = 0x80000000; smallest negative
        // subnormal 0x80000001 is 1 ULP from -0 and 2 from the smallest positive subnormal.
        let f = |v: &[u32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
        let ulps = Tolerance::between_implementations;
        let c = compare(
            &f(&[0x3f800000]),
            &f(&[0x3f800001]),
            ElemType::F32,
            ulps(0),
            8,
        );
        assert_eq!(c.mismatches, 1);
        let c = compare(
            &f(&[0x3f800000]),
            &f(&[0x3f800001]),
            ElemType::F32,
            ulps(1),
            8,
        );
        assert!(c.passed());
        assert_eq!(c.listed[0].verdict, Verdict::WithinUlps(1));
        let c = compare(
            &f(&[0x00000001]),
            &f(&[0x80000001]),
            ElemType::F32,
            ulps(1),
            8,
        );
        assert_eq!(c.mismatches, 1);
        let c = compare(
            &f(&[0x00000001]),
            &f(&[0x80000001]),
            ElemType::F32,
            ulps(2),
            8,
        );
        assert!(c.passed());
        let c = compare(
            &f(&[0x00000000]),
            &f(&[0x80000000]),
            ElemType::F32,
            ulps(1),
            8,
        );
        assert_eq!(c.listed[0].verdict, Verdict::WithinUlps(0));
    }

    #[test]
    fn length_differences_and_partial_elements_are_mismatches() {
        let c = compare(&[1, 2, 3, 4, 5], &[1, 2, 3, 4, 6], ElemType::U32, DIFF, 8);
        assert_eq!(c.elements, 2);
        assert_eq!(c.mismatches, 1);
        assert_eq!(c.listed[0].index, 1);
        let c = compare(&[1, 2, 3, 4], &[1, 2, 3, 4, 0], ElemType::U8, DIFF, 8);
        assert!(!c.passed());
        assert_eq!(c.lengths, Some((4, 5)));
    }
}
