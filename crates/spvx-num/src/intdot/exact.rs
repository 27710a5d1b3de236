//! Exact (big integer) integer dot products: the exact value R, results of any width (the
//! SPV_INTEL_arbitrary_precision_integers case), and the AccSat rule evaluated exactly.

use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_traits::{One, Zero};

use super::{AccSat, AccSatUndefined, DotSpec, IntDotError};

impl DotSpec {
    /// The exact dot product R of `a` (Vector 1) and `b` (Vector 2), computed "with enough
    /// precision to avoid overflow and underflow". Independent of the result width.
    pub fn dot_exact(&self, a: &[u64], b: &[u64]) -> Result<BigInt, IntDotError> {
        Self::check_lengths(a, b)?;
        Ok(self.products(a, b).sum())
    }

    /// The plain forms for a result of any width: the low `result_bits` bits of R as a
    /// non-negative bit pattern.
    pub fn dot_wide(&self, a: &[u64], b: &[u64]) -> Result<BigUint, IntDotError> {
        let r = self.dot_exact(a, b)?;
        Ok(low_bits(&r, self.result_bits()))
    }

    /// The AccSat forms for a result of any width. `acc` is the accumulator bit pattern; it must
    /// be below 2^result_bits. Returns saturate(R + accumulator) as a bit pattern and the
    /// undefined-case report, exactly as [`DotSpec::dot_acc_sat`] does for narrow results.
    pub fn dot_acc_sat_wide(
        &self,
        a: &[u64],
        b: &[u64],
        acc: &BigUint,
    ) -> Result<AccSat<BigUint>, IntDotError> {
        Self::check_lengths(a, b)?;
        let n = self.result_bits();
        if acc.bits() > u64::from(n) {
            return Err(IntDotError::AccumulatorTooWide {
                bits: acc.bits(),
                result_bits: n,
            });
        }
        let acc_value = pattern_value(acc, n, self.kind().result_signed());
        let (value, undefined) = self.acc_sat_exact(a, b, &acc_value);
        Ok(AccSat {
            value: low_bits(&value, n),
            undefined,
        })
    }

    /// The result range `[min, max]` of this instruction's result type, exactly.
    pub fn result_range(&self) -> (BigInt, BigInt) {
        let n = self.result_bits() as usize;
        if self.kind().result_signed() {
            let half = BigInt::one() << (n - 1);
            (-half.clone(), half - 1)
        } else {
            (BigInt::zero(), (BigInt::one() << n) - 1)
        }
    }

    fn products<'s>(&'s self, a: &'s [u64], b: &'s [u64]) -> impl Iterator<Item = BigInt> + 's {
        let (s1, s2) = (self.kind().vector1_signed(), self.kind().vector2_signed());
        a.iter().zip(b).map(move |(&x, &y)| {
            BigInt::from(self.component_value(x, s1)) * BigInt::from(self.component_value(y, s2))
        })
    }

    /// saturate(R + acc) as an exact value, and the undefined-case report.
    pub(super) fn acc_sat_exact(
        &self,
        a: &[u64],
        b: &[u64],
        acc: &BigInt,
    ) -> (BigInt, Option<AccSatUndefined>) {
        let (lo, hi) = self.result_range();
        let mut positive = BigInt::zero();
        let mut negative = BigInt::zero();
        let mut product_overflow = None;
        let mut prefix_overflow = false;
        for (i, p) in self.products(a, b).enumerate() {
            if (p < lo || p > hi) && product_overflow.is_none() {
                product_overflow = Some(i);
            }
            if p.sign() == Sign::Minus {
                negative += p;
            } else {
                positive += p;
            }
            let prefix = &positive + &negative;
            if i > 0 && (prefix < lo || prefix > hi) {
                prefix_overflow = true;
            }
        }
        let undefined = match product_overflow {
            Some(component) => Some(AccSatUndefined::ProductOverflow { component }),
            None if positive > hi || negative < lo => Some(AccSatUndefined::SumOverflow {
                in_component_order: prefix_overflow,
            }),
            None => None,
        };
        let total = positive + negative + acc;
        let value = if total < lo {
            lo
        } else if total > hi {
            hi
        } else {
            total
        };
        (value, undefined)
    }
}

/// `x mod 2^bits` as a non-negative pattern (two's complement for negative `x`).
fn low_bits(x: &BigInt, bits: u32) -> BigUint {
    let modulus = BigInt::one() << bits as usize;
    // mod_floor of a positive modulus is non-negative, so the magnitude is the pattern.
    x.mod_floor(&modulus).magnitude().clone()
}

/// The value of an n-bit pattern read as signed (two's complement) or unsigned.
fn pattern_value(pattern: &BigUint, bits: u32, signed: bool) -> BigInt {
    let v = BigInt::from(pattern.clone());
    if signed && bits > 0 && pattern.bit(u64::from(bits) - 1) {
        v - (BigInt::one() << bits as usize)
    } else {
        v
    }
}
