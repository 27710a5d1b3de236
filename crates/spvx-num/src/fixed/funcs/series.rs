//! Taylor series on balls with rigorous tail bounds: sin and cos for |r| ≤ 1, exp for
//! |y| ≤ 1/2, atanh for |z| ≤ 1/2.

use super::super::ball::Ball;
use num_bigint::BigInt;
use num_traits::One;

/// Summation stops once a term's bound is this many ulps: rounding keeps term radii near 2–4
/// ulps, so a stop at 1 ulp might never come; the tail bound is added to the radius either way.
fn stop() -> BigInt {
    BigInt::from(16)
}

/// (sin r, cos r) for a ball r with |r| ≤ 1. Both series alternate with decreasing terms, so the
/// tail after the last term added is bounded by that term; the radius is widened by it.
pub(crate) fn sin_cos(r: &Ball) -> (Ball, Ball) {
    let p = r.prec;
    let one = BigInt::one() << p;
    let r2 = r.mul(r);
    let mut s_term = r.clone();
    let mut sin = r.clone();
    let mut c_term = Ball::exact(one, p);
    let mut cos = c_term.clone();
    let mut j: u64 = 1;
    loop {
        // s_term = r^(2j−1)/(2j−1)!  →  r^(2j+1)/(2j+1)!
        s_term = s_term
            .mul(&r2)
            .div_int(&BigInt::from((2 * j) * (2 * j + 1)))
            .neg();
        // c_term = r^(2j−2)/(2j−2)!  →  r^(2j)/(2j)!
        c_term = c_term
            .mul(&r2)
            .div_int(&BigInt::from((2 * j - 1) * (2 * j)))
            .neg();
        sin = sin.add(&s_term);
        cos = cos.add(&c_term);
        j += 1;
        let s_up = s_term.abs_upper();
        let c_up = c_term.abs_upper();
        if s_up <= stop() && c_up <= stop() {
            return (sin.widen(&s_up), cos.widen(&c_up));
        }
    }
}

/// e^y for a ball y with |y| ≤ 1/2: the tail after term j is at most |y|^j/j! · |y|/(1−|y|) ≤
/// that term's bound.
pub(crate) fn exp_small(y: &Ball) -> Ball {
    let p = y.prec;
    let mut term = Ball::exact(BigInt::one() << p, p);
    let mut sum = term.clone();
    let mut j: u64 = 1;
    loop {
        term = term.mul(y).div_int(&BigInt::from(j));
        sum = sum.add(&term);
        j += 1;
        let up = term.abs_upper();
        if up <= stop() {
            return sum.widen(&up);
        }
    }
}

/// atanh z = Σ z^(2j+1)/(2j+1) for a ball z with |z| ≤ 1/2: the tail after the power z^(2j+1)
/// is at most |z|^(2j+1) · z²/(1−z²) ≤ that power's bound.
pub(crate) fn atanh_small(z: &Ball) -> Ball {
    let z2 = z.mul(z);
    let mut pw = z.clone();
    let mut sum = z.clone();
    let mut j: u64 = 1;
    loop {
        pw = pw.mul(&z2);
        sum = sum.add(&pw.div_int(&BigInt::from(2 * j + 1)));
        j += 1;
        let up = pw.abs_upper();
        if up <= stop() {
            return sum.widen(&up);
        }
    }
}
