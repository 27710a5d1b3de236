//! The exact sum of products and values, rounded once: `round(Σ terms)`, where a term is a
//! decoded value or the product of two decoded values.
//!
//! One operation covers correctly rounded multiply (one product term), add (two value terms),
//! fused multiply-add (a product and a value) and a fused dot product with accumulator.
//!
//! Special values (IEEE 754-2019 §7.2, §6.1): any NaN term or factor gives NaN; ∞ × 0 gives NaN
//! (invalid); +∞ and −∞ among the terms give NaN (invalid); otherwise any infinity gives that
//! infinity. Signed zero (§6.3): if the exact sum is zero, it is −0 when every term is −0, +0 when
//! every term is +0, and otherwise (cancellation, or zeros of both signs) +0, except under
//! round-toward-negative where it is −0. A nonzero sum that rounds to zero keeps its sign.

use super::format::Format;
use super::round::RoundingMode;
use super::value::{Decoded, exact_decimal};
use num_bigint::{BigInt, BigUint, Sign};
use num_traits::Zero;

/// One term of an exact sum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Term {
    /// A single value.
    Value(Decoded),
    /// The exact product of two values.
    Product(Decoded, Decoded),
}

/// The sign rule for an exactly zero sum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ZeroSign {
    AllNegative,
    AllPositive,
    Mixed,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Magnitude {
    Small(u128),
    Big(BigUint),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum SumKind {
    Nan {
        invalid: bool,
    },
    Infinite {
        negative: bool,
    },
    Zero(ZeroSign),
    Nonzero {
        negative: bool,
        magnitude: Magnitude,
        exponent: i64,
    },
    /// Only from [`round_sum`]: a magnitude strictly between `mantissa` and `mantissa + 1` units
    /// of 2^exponent, with `mantissa` of at least 59 bits (enough for any rounding).
    Inexact {
        negative: bool,
        mantissa: u128,
        exponent: i64,
    },
}

/// The exact (unrounded) value of a sum of terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExactSum {
    kind: SumKind,
}

/// A finite nonzero term as (negative, integer magnitude, exponent).
type Finite = (bool, u128, i64);

/// Finite terms, kept on the stack for the usual short sums (dot products have at most 5 terms).
struct TermBuffer {
    inline: [Finite; 8],
    len: usize,
    spilled: Vec<Finite>,
}

impl TermBuffer {
    fn new() -> TermBuffer {
        TermBuffer {
            inline: [(false, 0, 0); 8],
            len: 0,
            spilled: Vec::new(),
        }
    }
    fn push(&mut self, t: Finite) {
        if self.spilled.is_empty() && self.len < self.inline.len() {
            self.inline[self.len] = t;
            self.len += 1;
        } else {
            if self.spilled.is_empty() {
                self.spilled.extend_from_slice(&self.inline[..self.len]);
            }
            self.spilled.push(t);
        }
    }
    fn as_slice(&self) -> &[Finite] {
        if self.spilled.is_empty() {
            &self.inline[..self.len]
        } else {
            &self.spilled
        }
    }
}

impl ExactSum {
    /// Computes the exact value of `Σ terms` (see the module comment for special values).
    pub fn of(terms: &[Term]) -> ExactSum {
        ExactSum::build(terms, false)
    }

    /// As [`ExactSum::of`]; with `compress`, far-below terms may be folded into a sticky bit
    /// (`SumKind::Inexact`), which keeps the rounded result exact but not the value itself.
    fn build(terms: &[Term], compress: bool) -> ExactSum {
        let mut any_nan = false;
        let mut invalid = false;
        let mut pos_inf = false;
        let mut neg_inf = false;
        let mut all_neg_zero = true;
        let mut all_pos_zero = true;
        let mut finite = TermBuffer::new();
        for t in terms {
            let (neg, m, e, inf) = match *t {
                Term::Value(v) => match v {
                    Decoded::Nan { .. } => {
                        any_nan = true;
                        continue;
                    }
                    Decoded::Infinite { negative } => (negative, 0, 0, true),
                    Decoded::Finite(d) => {
                        (d.negative, d.mantissa as u128, d.exponent as i64, false)
                    }
                },
                Term::Product(a, b) => match (a, b) {
                    (Decoded::Nan { .. }, _) | (_, Decoded::Nan { .. }) => {
                        any_nan = true;
                        continue;
                    }
                    (Decoded::Infinite { negative: na }, Decoded::Infinite { negative: nb }) => {
                        (na ^ nb, 0, 0, true)
                    }
                    (Decoded::Infinite { negative: ni }, Decoded::Finite(d))
                    | (Decoded::Finite(d), Decoded::Infinite { negative: ni }) => {
                        if d.is_zero() {
                            invalid = true;
                            continue;
                        }
                        (ni ^ d.negative, 0, 0, true)
                    }
                    (Decoded::Finite(x), Decoded::Finite(y)) => (
                        x.negative ^ y.negative,
                        x.mantissa as u128 * y.mantissa as u128,
                        x.exponent as i64 + y.exponent as i64,
                        false,
                    ),
                },
            };
            if inf {
                if neg {
                    neg_inf = true;
                } else {
                    pos_inf = true;
                }
                continue;
            }
            if m == 0 {
                if neg {
                    all_pos_zero = false;
                } else {
                    all_neg_zero = false;
                }
                continue;
            }
            all_pos_zero = false;
            all_neg_zero = false;
            finite.push((neg, m, e));
        }
        let kind = if any_nan || invalid || (pos_inf && neg_inf) {
            SumKind::Nan {
                invalid: invalid || (pos_inf && neg_inf),
            }
        } else if pos_inf || neg_inf {
            SumKind::Infinite { negative: neg_inf }
        } else {
            let zero = if all_neg_zero {
                ZeroSign::AllNegative
            } else if all_pos_zero {
                ZeroSign::AllPositive
            } else {
                ZeroSign::Mixed
            };
            sum_finite(finite.as_slice(), zero, compress)
        };
        ExactSum { kind }
    }

    /// Whether the sum is NaN (a NaN operand, or an invalid operation).
    pub fn is_nan(&self) -> bool {
        matches!(self.kind, SumKind::Nan { .. })
    }
    /// Whether the sum is NaN because of an invalid operation (∞ × 0 or +∞ + −∞) rather than only
    /// because of a NaN operand.
    pub fn is_invalid(&self) -> bool {
        matches!(self.kind, SumKind::Nan { invalid: true })
    }

    /// The exact finite value as (negative, magnitude, exponent), value = ±magnitude · 2^exponent;
    /// zero results use the sign they get under `mode`. `None` for NaN and infinities.
    pub fn finite_parts(&self, mode: RoundingMode) -> Option<(bool, BigUint, i64)> {
        match &self.kind {
            // `Inexact` never occurs in a value built by `ExactSum::of`.
            SumKind::Nan { .. } | SumKind::Infinite { .. } | SumKind::Inexact { .. } => None,
            SumKind::Zero(z) => Some((zero_is_negative(*z, mode), BigUint::zero(), 0)),
            SumKind::Nonzero {
                negative,
                magnitude,
                exponent,
            } => {
                let m = match magnitude {
                    Magnitude::Small(v) => BigUint::from(*v),
                    Magnitude::Big(b) => b.clone(),
                };
                Some((*negative, m, *exponent))
            }
        }
    }

    /// The exact value as text: an exact decimal, `inf`, `-inf` or `nan` (zero signed as under
    /// round-to-nearest-even).
    pub fn to_decimal_string(&self) -> String {
        match &self.kind {
            SumKind::Nan { .. } => "nan".to_string(),
            SumKind::Infinite { negative: true } => "-inf".to_string(),
            SumKind::Infinite { negative: false } => "inf".to_string(),
            _ => match self.finite_parts(RoundingMode::NearestEven) {
                Some((neg, m, e)) => exact_decimal(neg, &m, e),
                None => "nan".to_string(),
            },
        }
    }

    /// Rounds the sum once to `format`. NaN results are the format's canonical NaN
    /// ([`Format::canonical_nan`]); infinities become ±∞ (or NaN in E4M3, ±max with `saturate`);
    /// finite values round as [`Format::round_biguint`].
    pub fn round(&self, format: Format, mode: RoundingMode, saturate: bool) -> u64 {
        match &self.kind {
            SumKind::Nan { .. } => format.canonical_nan(),
            SumKind::Infinite { negative } => {
                if saturate {
                    format.max_finite(*negative)
                } else {
                    format
                        .infinity(*negative)
                        .unwrap_or_else(|| format.quiet_nan(*negative))
                }
            }
            SumKind::Zero(z) => format.zero(zero_is_negative(*z, mode)),
            SumKind::Nonzero {
                negative,
                magnitude,
                exponent,
            } => match magnitude {
                Magnitude::Small(m) => format.round_u128(*negative, *m, *exponent, mode, saturate),
                Magnitude::Big(m) => format.round_biguint(*negative, m, *exponent, mode, saturate),
            },
            SumKind::Inexact {
                negative,
                mantissa,
                exponent,
            } => format.round_u128_sticky(*negative, *mantissa, *exponent, true, mode, saturate),
        }
    }
}

/// `round(Σ terms)` into `format`: the same result as `ExactSum::of(terms).round(...)`, faster
/// for sums whose terms span more than ~120 bits (terms far below the leading ones are folded
/// into a sticky bit instead of being added in arbitrary precision).
pub fn round_sum(terms: &[Term], format: Format, mode: RoundingMode, saturate: bool) -> u64 {
    ExactSum::build(terms, true).round(format, mode, saturate)
}

fn zero_is_negative(z: ZeroSign, mode: RoundingMode) -> bool {
    match z {
        ZeroSign::AllNegative => true,
        ZeroSign::AllPositive => false,
        ZeroSign::Mixed => mode == RoundingMode::TowardNegative,
    }
}

fn bit_length(m: u128) -> u32 {
    128 - m.leading_zeros()
}

/// Sums nonzero finite terms exactly (or, with `compress`, exactly enough for rounding); `zero`
/// is the sign rule if the sum is zero.
fn sum_finite(terms: &[Finite], zero: ZeroSign, compress: bool) -> SumKind {
    let Some(min_e) = terms.iter().map(|t| t.2).min() else {
        return SumKind::Zero(zero);
    };
    let widest = terms
        .iter()
        .map(|&(_, m, e)| (e - min_e) as u64 + bit_length(m) as u64)
        .max()
        .unwrap_or(0);
    // Up to 8 terms of at most 124 bits each fit in an i128 with room for carries.
    if widest <= 123 && terms.len() <= 8 {
        let mut acc: i128 = 0;
        for &(neg, m, e) in terms {
            let v = (m << (e - min_e)) as i128;
            acc += if neg { -v } else { v };
        }
        if acc == 0 {
            return SumKind::Zero(ZeroSign::Mixed);
        }
        return SumKind::Nonzero {
            negative: acc < 0,
            magnitude: Magnitude::Small(acc.unsigned_abs()),
            exponent: min_e,
        };
    }
    if compress
        && terms.len() <= 8
        && let Some(kind) = sum_compressed(terms)
    {
        return kind;
    }
    let mut acc = BigInt::zero();
    for &(neg, m, e) in terms {
        let v = BigInt::from(m) << ((e - min_e) as u64);
        if neg {
            acc -= v;
        } else {
            acc += v;
        }
    }
    let (sign, mag) = acc.into_parts();
    match sign {
        Sign::NoSign => SumKind::Zero(ZeroSign::Mixed),
        _ => SumKind::Nonzero {
            negative: sign == Sign::Minus,
            magnitude: Magnitude::Big(mag),
            exponent: min_e,
        },
    }
}

/// The sum of up to 8 terms spanning more than an i128, when it splits into a high part H (on
/// the grid g = top − 120, exact in an i128, |H| ≥ 2^(g+57)) and low terms each below 2^(g−5),
/// whose total L therefore has |L| < 2^(g−2). Then in units of 2^(g−2) the value is 4H + L' with
/// |L'| < 1, so it lies strictly between 4|H| and 4|H| ± 1 by the sign of L (found exactly, by
/// recursion) — or is exactly 4|H| when L = 0. `None` when the terms do not split that way.
fn sum_compressed(terms: &[Finite]) -> Option<SumKind> {
    let lead = |m: u128, e: i64| e + bit_length(m) as i64 - 1;
    let top = terms.iter().map(|&(_, m, e)| lead(m, e)).max()?;
    let g = top - 120;
    let mut high: i128 = 0;
    let mut low = TermBuffer::new();
    for &(neg, m, e) in terms {
        if e >= g {
            let v = (m << (e - g)) as i128;
            high += if neg { -v } else { v };
        } else if lead(m, e) < g - 5 {
            low.push((neg, m, e));
        } else {
            return None;
        }
    }
    let magnitude = high.unsigned_abs();
    if bit_length(magnitude) < 58 {
        return None;
    }
    let negative = high < 0;
    let low_negative = match sum_finite(low.as_slice(), ZeroSign::Mixed, true) {
        SumKind::Zero(_) => {
            return Some(SumKind::Nonzero {
                negative,
                magnitude: Magnitude::Small(magnitude),
                exponent: g,
            });
        }
        SumKind::Nonzero { negative: n, .. } | SumKind::Inexact { negative: n, .. } => n,
        SumKind::Nan { .. } | SumKind::Infinite { .. } => return None,
    };
    let scaled = magnitude << 2;
    let mantissa = if low_negative == negative {
        scaled
    } else {
        scaled - 1
    };
    Some(SumKind::Inexact {
        negative,
        mantissa,
        exponent: g - 2,
    })
}

impl Format {
    /// Correctly rounded product `a × b` in this format (IEEE 754 multiplication).
    pub fn mul(&self, a: Decoded, b: Decoded, mode: RoundingMode) -> u64 {
        round_sum(&[Term::Product(a, b)], *self, mode, false)
    }
    /// Correctly rounded sum `a + b` in this format (IEEE 754 addition).
    pub fn add(&self, a: Decoded, b: Decoded, mode: RoundingMode) -> u64 {
        round_sum(&[Term::Value(a), Term::Value(b)], *self, mode, false)
    }
    /// Correctly rounded fused multiply-add `a × b + c` in this format (IEEE 754 fusedMultiplyAdd).
    pub fn fma(&self, a: Decoded, b: Decoded, c: Decoded, mode: RoundingMode) -> u64 {
        round_sum(&[Term::Product(a, b), Term::Value(c)], *self, mode, false)
    }
}
