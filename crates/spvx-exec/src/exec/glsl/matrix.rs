//! GLSL.std.450 Determinant and MatrixInverse, computed exactly and rounded once.
//!
//! Every entry of a float matrix is an exact binary rational m·2^e, so the determinant (a sum
//! of products) and each entry of the inverse (a cofactor divided by the determinant) are
//! exact rationals: spvx computes them with big integers and rounds once to the matrix's
//! format (round to nearest even, overflow to ±∞) — the correctly rounded result, tighter than
//! GLSL's "inherited from" bounds. A matrix with a NaN or infinite entry gives NaN (every
//! entry, for the inverse); a singular matrix has no inverse: every entry is NaN (GLSL: the
//! values are undefined). A zero result carries the sign the written formula gives it in IEEE
//! arithmetic (adjugate over determinant, Laplace expansion along the first row; see
//! docs/semantics/arithmetic.md): e.g. the off-diagonal zeros of a diagonal matrix's inverse
//! at odd positions are −0.

use crate::exec::ctx::Ctx;
use crate::exec::float_bits::{canonical_nan, to_f64};
use crate::exec::mask::lanes;
use crate::program::glsl::GlslOp;
use crate::program::{FloatFmt, Slot};
use num_bigint::{BigInt, Sign};
use num_traits::Zero;
use spvx_num::float::RoundingMode;

/// (integer significand, exponent) of a finite f64.
fn parts(x: f64) -> (i64, i64) {
    let bits = x.to_bits();
    let e = ((bits >> 52) & 0x7ff) as i64;
    let f = (bits & ((1 << 52) - 1)) as i64;
    let (m, e) = if e == 0 {
        (f, -1074)
    } else {
        (f | 1 << 52, e - 1075)
    };
    (if x < 0.0 { -m } else { m }, e)
}

/// An exact value with an IEEE sign bit: `neg` is the sign of `v`, and for a zero `v` the sign
/// the IEEE operations written in the formula give it (±0).
#[derive(Clone)]
struct Signed {
    v: BigInt,
    neg: bool,
}

impl Signed {
    fn mul(&self, o: &Signed) -> Signed {
        Signed {
            v: &self.v * &o.v,
            neg: self.neg != o.neg,
        }
    }

    fn neg(self) -> Signed {
        Signed {
            v: -self.v,
            neg: !self.neg,
        }
    }

    /// The exact sum; an exact zero is −0 only when every term is −0 (IEEE 754 §6.3 under
    /// round to nearest: x + (−x) is +0, and −0 + −0 is −0).
    fn sum(terms: Vec<Signed>) -> Signed {
        let all_neg_zero = terms.iter().all(|t| t.neg && t.v.is_zero());
        let v: BigInt = terms.into_iter().map(|t| t.v).sum();
        let neg = if v.is_zero() {
            all_neg_zero
        } else {
            v.sign() == Sign::Minus
        };
        Signed { v, neg }
    }
}

/// The entries `a[r][c]` as integers over the common scale 2^scale (a zero keeps its sign), or
/// None if one is not finite.
fn scaled(v: &[f64], n: usize) -> Option<(Vec<Vec<Signed>>, i64)> {
    if v.iter().any(|x| !x.is_finite()) {
        return None;
    }
    let p: Vec<(i64, i64)> = v.iter().map(|&x| parts(x)).collect();
    let scale = p
        .iter()
        .filter(|q| q.0 != 0)
        .map(|q| q.1)
        .min()
        .unwrap_or(0);
    // Leaves are column by column: leaf c·n + r is row r of column c.
    let a = (0..n)
        .map(|r| {
            (0..n)
                .map(|c| {
                    let (m, e) = p[c * n + r];
                    Signed {
                        v: BigInt::from(m) << ((e - scale).max(0) as u64),
                        neg: v[c * n + r].is_sign_negative(),
                    }
                })
                .collect()
        })
        .collect();
    Some((a, scale))
}

/// The determinant of a square matrix by Laplace expansion along the first row, as written:
/// a[0][0]·M00 − a[0][1]·M01 + …, so that an exact zero gets the sign IEEE arithmetic gives
/// that formula (products' signs, negation of the odd terms, sums as in [`Signed::sum`]).
fn det(a: &[Vec<Signed>]) -> Signed {
    match a.len() {
        0 => Signed {
            v: BigInt::from(1),
            neg: false,
        },
        1 => a[0][0].clone(),
        n => Signed::sum(
            (0..n)
                .map(|c| {
                    let t = a[0][c].mul(&det(&minor(a, 0, c)));
                    if c % 2 == 0 { t } else { t.neg() }
                })
                .collect(),
        ),
    }
}

/// `a` without row `r` and column `c`.
fn minor(a: &[Vec<Signed>], r: usize, c: usize) -> Vec<Vec<Signed>> {
    a.iter()
        .enumerate()
        .filter(|(i, _)| *i != r)
        .map(|(_, row)| {
            row.iter()
                .enumerate()
                .filter(|(j, _)| *j != c)
                .map(|(_, v)| v.clone())
                .collect()
        })
        .collect()
}

/// `value · 2^exponent` rounded to `fmt`.
fn round_scaled(fmt: FloatFmt, value: &BigInt, exponent: i64) -> u64 {
    fmt.format().round_biguint(
        value.sign() == Sign::Minus,
        value.magnitude(),
        exponent,
        RoundingMode::NearestEven,
        false,
    )
}

/// `num / den · 2^exponent` rounded to `fmt` (`den` nonzero); a zero `num` gives the zero
/// whose sign is the XOR of the operands' signs (IEEE 754 §6.3).
fn round_quotient(fmt: FloatFmt, num: &Signed, den: &Signed, exponent: i64) -> u64 {
    let negative = num.neg != den.neg;
    let (mut n, mut d) = (num.v.magnitude().clone(), den.v.magnitude().clone());
    if exponent >= 0 {
        n <<= exponent as u64;
    } else {
        d <<= (-exponent) as u64;
    }
    if n.is_zero() {
        return if negative {
            1u64 << (fmt.bits() - 1)
        } else {
            0
        };
    }
    fmt.format()
        .round_ratio(negative, &n, &d, RoundingMode::NearestEven, false)
        .unwrap_or_else(|_| canonical_nan(fmt))
}

/// Determinant (one result slot) or inverse (n² result slots, column by column) of the n×n
/// matrix at `src`, on the active lanes.
pub fn matrix(cx: &mut Ctx, op: GlslOp, fmt: FloatFmt, n: u32, dst: Slot, src: Slot) {
    let nn = (n * n) as usize;
    let n = n as usize;
    for l in lanes(cx.mask) {
        let v: Vec<f64> = (0..nn as u32)
            .map(|k| to_f64(fmt, cx.get(src + k, l)))
            .collect();
        let nan = canonical_nan(fmt);
        let Some((a, scale)) = scaled(&v, n) else {
            let count = if op == GlslOp::Determinant { 1 } else { nn };
            for k in 0..count {
                cx.set(dst + k as u32, l, nan);
            }
            continue;
        };
        let d = det(&a);
        if op == GlslOp::Determinant {
            let bits = if d.v.is_zero() && d.neg {
                1u64 << (fmt.bits() - 1)
            } else {
                round_scaled(fmt, &d.v, scale * n as i64)
            };
            cx.set(dst, l, bits);
            continue;
        }
        for c in 0..n {
            for r in 0..n {
                // inverse[r][c] = cofactor(c, r) / det; cofactor over 2^((n−1)·scale), det over
                // 2^(n·scale): the quotient carries 2^(−scale).
                let bits = if d.v.is_zero() {
                    nan
                } else {
                    // The cofactor with its sign as written (a negated minor), so a zero
                    // cofactor at an odd position is −0 when its minor is +0.
                    let m = det(&minor(&a, c, r));
                    let cof = if (r + c) % 2 == 0 { m } else { m.neg() };
                    round_quotient(fmt, &cof, &d, -scale)
                };
                cx.set(dst + (c * n + r) as u32, l, bits);
            }
        }
    }
}
