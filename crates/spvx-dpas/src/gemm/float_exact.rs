//! When a fused multiply-add computes the default float model exactly.
//!
//! The model's step is `acc ← fl(acc + fl(a·b))` (two roundings to nearest even). A fused
//! multiply-add computes `fl(acc + a·b)` (one rounding of the exact value). When the product
//! a·b is exactly representable in fp32, fl(a·b) = a·b and the two are the same rounding of the
//! same exact value, hence the same bits, for every accumulator (infinite, NaN or signed zero
//! included: with an exact product both evaluate acc + a·b under the same IEEE rules). Products
//! with an infinite or NaN factor are exact in the same sense (inf·x = ±inf and 0·inf = NaN in
//! both, NaN results are made canonical afterwards); products with a zero factor are exact
//! zeros of the sign of the factors' signs in both.
//!
//! A finite nonzero fp32 value x = ±M·2^Q with M odd has `bits(x)` = bit length of M
//! significant bits, lowest bit 2^Q and |x| < 2^(Q + bits). The product of two such values is
//! ±M_a·M_b·2^(Q_a + Q_b) with M_a·M_b odd and of at most bits_a + bits_b bits, below
//! 2^(Q_a + bits_a + Q_b + bits_b). It is an fp32 value (normal or subnormal) when it has at
//! most 24 bits, its lowest bit is at least 2^−149 and it is below 2^128 (then at most
//! (2^24 − 1)·2^104, the largest finite fp32). [`Span`] bounds these quantities over a whole
//! set of values from three reductions of their patterns (largest exponent field, smallest
//! exponent field of the finite nonzero values, OR of the fraction fields), and
//! [`products_exact`] checks the three conditions for every pair of a set of A values and a
//! set of B values at once. fp16 inputs always pass (11 + 11 bits, lowest bits ≥ 2^−48,
//! magnitudes < 2^32); bf16, tf32 and the fp8 formats pass unless some products overflow or
//! reach below the normal fp32 range (or tf32 full containers carry more than 12 bits).

/// Bounds over the finite nonzero values of a set of fp32 patterns (see the module
/// documentation). Infinities and NaNs are ignored; zeros only lower `max_exp`'s floor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Span {
    /// Largest exponent field of a finite value (0 when there are none).
    max_exp: u32,
    /// Smallest of max(exponent field, 1) over the finite nonzero values (255 when none).
    min_exp: u32,
    /// OR of the fraction fields of the finite values.
    fractions: u32,
}

impl Span {
    /// The span of no values.
    pub(super) const EMPTY: Span = Span {
        max_exp: 0,
        min_exp: 255,
        fractions: 0,
    };

    /// The span of `values` (branch-free, so that it vectorises).
    #[inline(always)]
    pub(super) fn of(values: &[f32]) -> Span {
        let (mut max_exp, mut min_exp, mut fractions) = (0u32, 255u32, 0u32);
        for &x in values {
            let u = x.to_bits();
            let e = (u >> 23) & 0xff;
            let finite = e != 255;
            let nonzero = u & 0x7fff_ffff != 0;
            max_exp = max_exp.max(if finite { e } else { 0 });
            min_exp = min_exp.min(if finite && nonzero { e.max(1) } else { 255 });
            fractions |= if finite { u & 0x7f_ffff } else { 0 };
        }
        Span {
            max_exp,
            min_exp,
            fractions,
        }
    }

    /// The span of the union of both sets.
    pub(super) fn join(self, o: Span) -> Span {
        Span {
            max_exp: self.max_exp.max(o.max_exp),
            min_exp: self.min_exp.min(o.min_exp),
            fractions: self.fractions | o.fractions,
        }
    }

    /// Whether the set has no finite nonzero value.
    fn is_empty(self) -> bool {
        self.min_exp == 255
    }

    /// (most significant bits, exponent of the lowest set bit, exponent bound of the top):
    /// every finite nonzero value x has at most `bits` significant bits, its lowest set bit is
    /// at least 2^`low`, and |x| < 2^`top`.
    fn bounds(self) -> (i32, i32, i32) {
        // Every significand 1.f (normal) or 0.f (subnormal) has its lowest set bit at or above
        // the lowest bit set in any fraction (the implicit bit, 2^23, when none is).
        let tz = self.fractions.trailing_zeros().min(23) as i32;
        let bits = 24 - tz;
        // The lowest bit of a value with exponent field e (e = 0 scales as e = 1) is
        // 2^(e − 150 + tz) at least.
        let low = self.min_exp as i32 - 150 + tz;
        // Values with exponent field e are below 2^(e − 126).
        let top = self.max_exp as i32 - 126;
        (bits, low, top)
    }
}

/// Whether every product of a finite nonzero value of `a`'s set with one of `b`'s is exactly
/// representable in fp32 (true when either set has none: then every product has a zero,
/// infinite or NaN factor; see the module documentation).
pub(super) fn products_exact(a: Span, b: Span) -> bool {
    if a.is_empty() || b.is_empty() {
        return true;
    }
    let (bits_a, low_a, top_a) = a.bounds();
    let (bits_b, low_b, top_b) = b.bounds();
    bits_a + bits_b <= 24 && low_a + low_b >= -149 && top_a + top_b <= 128
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether x·y is exact in fp32, by f64 (exact for two 24-bit significands) and back.
    fn exact(x: f32, y: f32) -> bool {
        let p = f64::from(x) * f64::from(y);
        f64::from(x * y) == p && (x * y).is_finite()
    }

    fn lcg(s: &mut u64) -> u32 {
        *s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (*s >> 32) as u32
    }

    #[test]
    fn the_test_never_accepts_an_inexact_product() {
        // Random sets of a few values of random exponent and width: whenever the test accepts
        // the pair of sets, every product of their finite nonzero members is exact.
        let mut s = 7u64;
        let mut accepted = 0;
        for _ in 0..20_000 {
            let set = |s: &mut u64| -> Vec<f32> {
                let keep = 32 - (lcg(s) % 24);
                let mid = lcg(s) % 254;
                (0..3)
                    .map(|_| {
                        let e = (mid + lcg(s) % 40).saturating_sub(20).min(254);
                        let frac = lcg(s) & 0x7f_ffff & (u32::MAX << (32 - keep).min(23));
                        f32::from_bits((lcg(s) & 0x8000_0000) | e << 23 | frac)
                    })
                    .collect()
            };
            let (a, b) = (set(&mut s), set(&mut s));
            if products_exact(Span::of(&a), Span::of(&b)) {
                accepted += 1;
                for &x in &a {
                    for &y in &b {
                        if x != 0.0 && y != 0.0 {
                            assert!(exact(x, y), "{x:e} {y:e}");
                        }
                    }
                }
            }
        }
        assert!(accepted > 1000, "{accepted}");
    }

    #[test]
    fn fp16_always_passes_and_extreme_bf16_does_not() {
        let all_fp16: Vec<f32> = (0..=u16::MAX)
            .map(half_to_f32)
            .filter(|x| x.is_finite())
            .collect();
        assert!(products_exact(Span::of(&all_fp16), Span::of(&all_fp16)));
        let big = [f32::from_bits(0x7f00_0000)];
        // 2^−126·(1 + 2^−7), a bf16 value: times 2^−20 its lowest bit would be 2^−153.
        let tiny = [f32::from_bits(0x0081_0000)];
        let one = [1.0f32];
        assert!(!products_exact(Span::of(&big), Span::of(&big)));
        assert!(!products_exact(
            Span::of(&tiny),
            Span::of(&[2f32.powi(-20)])
        ));
        assert!(products_exact(Span::of(&tiny), Span::of(&[0.5f32])));
        assert!(products_exact(Span::of(&tiny), Span::of(&one)));
        assert!(products_exact(
            Span::of(&[f32::INFINITY, f32::NAN, 0.0]),
            Span::of(&big)
        ));
    }

    /// fp16 pattern → f32 (test-only, by arithmetic).
    fn half_to_f32(h: u16) -> f32 {
        let e = i32::from((h >> 10) & 0x1f);
        let f = f32::from(h & 0x3ff);
        let v = match e {
            0 => f * 2f32.powi(-24),
            31 => {
                if f == 0.0 {
                    f32::INFINITY
                } else {
                    f32::NAN
                }
            }
            _ => (1024.0 + f) * 2f32.powi(e - 25),
        };
        if h & 0x8000 != 0 { -v } else { v }
    }
}
