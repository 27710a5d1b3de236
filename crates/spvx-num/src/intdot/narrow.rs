//! One lane of an integer dot product with a result of at most 64 bits, on `u64` bit patterns.
//! The plain forms wrap modulo 2^64 (exact in the low N bits); the AccSat forms use exact
//! `i128` arithmetic and fall back to big integers only when `i128` itself would overflow.

use num_bigint::BigInt;
use num_traits::ToPrimitive;

use super::{AccSat, AccSatUndefined, DotSpec, IntDotError};

#[inline]
fn low_mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

impl DotSpec {
    fn check_narrow(&self) -> Result<(), IntDotError> {
        if self.result_bits() > 64 {
            return Err(IntDotError::ResultNeedsWide(self.result_bits()));
        }
        Ok(())
    }

    /// The result range `[min, max]` for results of at most 64 bits.
    fn narrow_range(&self) -> (i128, i128) {
        let n = self.result_bits();
        if self.kind().result_signed() {
            (-(1i128 << (n - 1)), (1i128 << (n - 1)) - 1)
        } else {
            (0, (1i128 << n) - 1)
        }
    }

    /// OpSDot / OpUDot / OpSUDot for one lane: the low `result_bits` bits of the exact dot
    /// product of `a` (Vector 1) and `b` (Vector 2). Components are bit patterns of
    /// `component_bits` bits (higher bits ignored). Requires `result_bits <= 64`.
    pub fn dot(&self, a: &[u64], b: &[u64]) -> Result<u64, IntDotError> {
        self.check_narrow()?;
        Self::check_lengths(a, b)?;
        let (s1, s2) = (self.kind().vector1_signed(), self.kind().vector2_signed());
        // Arithmetic modulo 2^64 gives the exact low 64 bits (and so the low N <= 64 bits).
        let mut sum = 0u64;
        for (&x, &y) in a.iter().zip(b) {
            let p = (self.component_value(x, s1) as u64)
                .wrapping_mul(self.component_value(y, s2) as u64);
            sum = sum.wrapping_add(p);
        }
        Ok(sum & low_mask(self.result_bits()))
    }

    /// OpSDotAccSat / OpUDotAccSat / OpSUDotAccSat for one lane, results of at most 64 bits.
    /// `acc` is the accumulator bit pattern (low `result_bits` bits used). The value is
    /// saturate(exact dot product + accumulator) to the result range; `undefined` reports the
    /// spec's undefined case.
    pub fn dot_acc_sat(&self, a: &[u64], b: &[u64], acc: u64) -> Result<AccSat<u64>, IntDotError> {
        self.check_narrow()?;
        Self::check_lengths(a, b)?;
        let n = self.result_bits();
        let (lo, hi) = self.narrow_range();
        let (s1, s2) = (self.kind().vector1_signed(), self.kind().vector2_signed());
        let acc_value = self.result_pattern_value(acc);

        let mut positive = 0i128;
        let mut negative = 0i128;
        let mut product_overflow = None;
        let mut prefix_overflow = false;
        for (i, (&x, &y)) in a.iter().zip(b).enumerate() {
            let Some(p) = self
                .component_value(x, s1)
                .checked_mul(self.component_value(y, s2))
            else {
                return self.dot_acc_sat_via_bigint(a, b, acc_value);
            };
            if (p < lo || p > hi) && product_overflow.is_none() {
                product_overflow = Some(i);
            }
            let step = if p >= 0 {
                positive.checked_add(p).map(|v| positive = v)
            } else {
                negative.checked_add(p).map(|v| negative = v)
            };
            if step.is_none() {
                return self.dot_acc_sat_via_bigint(a, b, acc_value);
            }
            // positive + negative is the left-to-right partial sum after component i.
            let prefix = positive + negative;
            if i > 0 && (prefix < lo || prefix > hi) {
                prefix_overflow = true;
            }
        }
        let Some(total) = (positive + negative).checked_add(acc_value) else {
            return self.dot_acc_sat_via_bigint(a, b, acc_value);
        };
        let undefined = match product_overflow {
            Some(component) => Some(AccSatUndefined::ProductOverflow { component }),
            None if positive > hi || negative < lo => Some(AccSatUndefined::SumOverflow {
                in_component_order: prefix_overflow,
            }),
            None => None,
        };
        let value = (total.clamp(lo, hi) as u64) & low_mask(n);
        Ok(AccSat { value, undefined })
    }

    /// The exact value of a result-typed pattern (accumulator), signed or unsigned per kind.
    fn result_pattern_value(&self, pattern: u64) -> i128 {
        let n = self.result_bits();
        let shift = 64 - n;
        if self.kind().result_signed() {
            (((pattern << shift) as i64) >> shift) as i128
        } else {
            ((pattern << shift) >> shift) as i128
        }
    }

    #[cold]
    fn dot_acc_sat_via_bigint(
        &self,
        a: &[u64],
        b: &[u64],
        acc_value: i128,
    ) -> Result<AccSat<u64>, IntDotError> {
        let (value, undefined) = self.acc_sat_exact(a, b, &BigInt::from(acc_value));
        // The clamped value lies in the (at most 64-bit) result range, so it fits in i128.
        let clamped = value.to_i128().unwrap_or(0);
        Ok(AccSat {
            value: (clamped as u64) & low_mask(self.result_bits()),
            undefined,
        })
    }
}
