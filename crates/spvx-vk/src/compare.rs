//! Comparing one binding's bytes from two implementations (the engine and a device), element
//! by element in a given element type: bit for bit, except
//!
//! - two NaNs with different bits are a documented undefined case (SPIR-V defines no NaN
//!   payloads; the engine writes the canonical quiet NaN), reported as such and not a mismatch;
//! - with `ulps > 0`, floats at most that many units in the last place apart (counted on the
//!   ordered bit patterns, +0 and −0 being 0 apart) are "within tolerance", not mismatches.
//!
//! This module knows bytes and element types only; printing values is the caller's job.

/// The element types a binding can be compared as (little-endian).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Element {
    U8,
    I8,
    U16,
    I16,
    U32,
    I32,
    U64,
    I64,
    F16,
    BF16,
    F32,
    F64,
    /// OCP E4M3FN (no infinities; NaN is S.1111.111).
    E4M3,
    /// OCP E5M2 (IEEE-like).
    E5M2,
}

impl Element {
    /// Bytes per element.
    pub fn size(self) -> usize {
        use Element::*;
        match self {
            U8 | I8 | E4M3 | E5M2 => 1,
            U16 | I16 | F16 | BF16 => 2,
            U32 | I32 | F32 => 4,
            U64 | I64 | F64 => 8,
        }
    }

    /// Exponent and mantissa bits of a float type (None for integers).
    fn float_bits(self) -> Option<(u32, u32)> {
        use Element::*;
        match self {
            F16 => Some((5, 10)),
            BF16 => Some((8, 7)),
            F32 => Some((8, 23)),
            F64 => Some((11, 52)),
            E4M3 => Some((4, 3)),
            E5M2 => Some((5, 2)),
            _ => None,
        }
    }

    /// True when `bits` is a NaN of this float type.
    pub fn is_nan(self, bits: u64) -> bool {
        let Some((e, m)) = self.float_bits() else {
            return false;
        };
        let mag = bits & ((1u64 << (e + m)) - 1);
        if self == Element::E4M3 {
            return mag == 0x7f;
        }
        let exp = mag >> m;
        exp == (1 << e) - 1 && mag & ((1 << m) - 1) != 0
    }

    /// The distance in units in the last place between two non-NaN floats of this type.
    fn ulp_distance(self, a: u64, b: u64) -> Option<u64> {
        let (e, m) = self.float_bits()?;
        let width = e + m + 1;
        let ordered = |x: u64| -> i128 {
            let mag = i128::from(x & ((1u64 << (width - 1)) - 1));
            if (x >> (width - 1)) & 1 == 1 {
                -mag
            } else {
                mag
            }
        };
        Some(ordered(a).abs_diff(ordered(b)) as u64)
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
    /// The element's bits from the first input (the engine) and the second (the device).
    pub expected: u64,
    pub actual: u64,
    pub verdict: Verdict,
}

/// The outcome for one binding.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Comparison {
    /// Whole elements compared.
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
}

/// Reads element `i` of `bytes` (little-endian), zero-extended.
pub fn element_bits(bytes: &[u8], elem: Element, i: usize) -> u64 {
    let n = elem.size();
    let mut w = [0u8; 8];
    let start = i * n;
    let end = (start + n).min(bytes.len());
    if start < end {
        w[..end - start].copy_from_slice(&bytes[start..end]);
    }
    u64::from_le_bytes(w)
}

/// Compares `expected` (the engine's bytes) with `actual` (the device's) as `elem` elements.
/// A trailing part of an element (when the length is not a multiple of the size) is compared
/// as one more element, zero-extended. `max_listed` bounds [`Comparison::listed`].
pub fn compare(
    expected: &[u8],
    actual: &[u8],
    elem: Element,
    ulps: u64,
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
        let x = element_bits(a, elem, 0);
        let y = element_bits(b, elem, 0);
        let verdict = if elem.is_nan(x) && elem.is_nan(y) {
            out.undefined += 1;
            Verdict::NanPayload
        } else {
            match elem.ulp_distance(x, y) {
                Some(d) if ulps > 0 && d <= ulps && !elem.is_nan(x) && !elem.is_nan(y) => {
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

    fn bytes16(v: &[u16]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    #[test]
    fn equal_bytes_pass_and_one_flipped_bit_is_reported_with_its_place() {
        let a: Vec<u8> = (0..64).collect();
        let mut b = a.clone();
        assert!(compare(&a, &b, Element::I32, 0, 8).passed());
        b[13] ^= 0x10;
        let c = compare(&a, &b, Element::I32, 0, 8);
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
    fn nan_payloads_are_undefined_not_mismatches() {
        // f16: 0x7e00 canonical quiet NaN, 0x7c01 signalling NaN, 0xfe00 negative NaN.
        let c = compare(
            &bytes16(&[0x7e00, 0x7e00]),
            &bytes16(&[0x7c01, 0xfe00]),
            Element::F16,
            0,
            8,
        );
        assert!(c.passed());
        assert_eq!(c.undefined, 2);
        // NaN against infinity (0x7c00) is a mismatch.
        let c = compare(&bytes16(&[0x7e00]), &bytes16(&[0x7c00]), Element::F16, 0, 8);
        assert_eq!(c.mismatches, 1);
        // As integers, the same bits are plain mismatches.
        let c = compare(&bytes16(&[0x7e00]), &bytes16(&[0x7c01]), Element::U16, 0, 8);
        assert_eq!(c.mismatches, 1);
        // E4M3FN: only S.1111.111 is NaN; 0x7e is 448.
        assert!(Element::E4M3.is_nan(0x7f) && Element::E4M3.is_nan(0xff));
        assert!(!Element::E4M3.is_nan(0x7e));
        assert!(Element::E5M2.is_nan(0x7d) && !Element::E5M2.is_nan(0x7c));
    }

    #[test]
    fn ulp_tolerance_counts_ordered_distance_across_zero() {
        // f32 1.0 = 0x3f800000; next up 0x3f800001; -0 = 0x80000000; smallest negative
        // subnormal 0x80000001 is 1 ULP from -0 and 2 from the smallest positive subnormal.
        let f = |v: &[u32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
        let c = compare(&f(&[0x3f800000]), &f(&[0x3f800001]), Element::F32, 0, 8);
        assert_eq!(c.mismatches, 1);
        let c = compare(&f(&[0x3f800000]), &f(&[0x3f800001]), Element::F32, 1, 8);
        assert!(c.passed());
        assert_eq!(c.listed[0].verdict, Verdict::WithinUlps(1));
        let c = compare(&f(&[0x00000001]), &f(&[0x80000001]), Element::F32, 1, 8);
        assert_eq!(c.mismatches, 1);
        let c = compare(&f(&[0x00000001]), &f(&[0x80000001]), Element::F32, 2, 8);
        assert!(c.passed());
        let c = compare(&f(&[0x00000000]), &f(&[0x80000000]), Element::F32, 1, 8);
        assert_eq!(c.listed[0].verdict, Verdict::WithinUlps(0));
    }

    #[test]
    fn length_differences_and_partial_elements_are_mismatches() {
        let c = compare(&[1, 2, 3, 4, 5], &[1, 2, 3, 4, 6], Element::U32, 0, 8);
        assert_eq!(c.elements, 2);
        assert_eq!(c.mismatches, 1);
        assert_eq!(c.listed[0].index, 1);
        let c = compare(&[1, 2, 3, 4], &[1, 2, 3, 4, 0], Element::U8, 0, 8);
        assert!(!c.passed());
        assert_eq!(c.lengths, Some((4, 5)));
    }
}
