//! sin, cos (radians) and sinpi, cospi.
//!
//! Radians: x = k·π/2 + r with π computed to enough bits for the size of x (exact argument
//! reduction), then the Taylor series of sin r and cos r. Pi-scaled: x is reduced exactly
//! (it is dyadic) to x ≡ j/2 + f/2 (mod 2) with f in (−1/2, 1/2], so that the only
//! irrational step is θ = π·f/2; multiples of 1/2 are exact (reference/acfixed.md §5.11).

use super::super::FixedError;
use super::super::ball::Ball;
use super::super::consts::pi;
use super::super::convert::Dyadic;
use super::super::ziv::{Approx, Target, resolve};
use super::series::sin_cos;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// Which component to produce.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Which {
    Sin,
    Cos,
}

/// sin or cos of x (radians), or of πx when `pi_scaled`.
pub(crate) fn trig(
    x: &Dyadic,
    pi_scaled: bool,
    which: Which,
    t: &Target,
) -> Result<BigInt, FixedError> {
    if pi_scaled {
        trig_pi(x, which, t)
    } else {
        trig_radians(x, which, t)
    }
}

/// The value at quadrant j (x = j·π/2 + θ) from (sin θ, cos θ): returns (value, negated?)
/// choosing sin or cos of θ.
fn quadrant(j: u64, which: Which) -> (Which, bool) {
    match (j % 4, which) {
        (0, w) => (w, false),
        (1, Which::Sin) => (Which::Cos, false),
        (1, Which::Cos) => (Which::Sin, true),
        (2, w) => (w, true),
        (_, Which::Sin) => (Which::Cos, true),
        (_, Which::Cos) => (Which::Sin, false),
    }
}

/// The exact value at a multiple j of π/2.
fn exact_at_quadrant(j: u64, which: Which) -> Dyadic {
    let v = match quadrant(j, which) {
        (Which::Sin, _) => 0,
        (Which::Cos, false) => 1,
        (Which::Cos, true) => -1,
    };
    Dyadic::new(BigInt::from(v), 0)
}

/// The enclosure [−1, 1] of any sine or cosine.
fn unit_enclosure() -> Approx {
    Approx::Enclosure {
        lo: -BigInt::one(),
        hi: BigInt::one(),
        exp: 0,
        sign: 0,
    }
}

fn guard(p: u64) -> u64 {
    2 * (64 - p.leading_zeros() as u64) + 16
}

fn pick(s: Ball, c: Ball, j: u64, which: Which) -> (Ball, i8) {
    let (w, neg) = quadrant(j, which);
    let b = if w == Which::Sin { s } else { c };
    (if neg { b.neg() } else { b }, if neg { -1 } else { 1 })
}

fn trig_radians(x: &Dyadic, which: Which, t: &Target) -> Result<BigInt, FixedError> {
    let n = &x.mantissa;
    if n.is_zero() {
        let d = exact_at_quadrant(0, which);
        return resolve(t, 64, |_| Ok(Approx::Exact(d.clone())));
    }
    // 2^(l−1) ≤ |x| < 2^l
    let l = (n.bits() as i64).saturating_add(x.exponent);
    t.check(l.max(0) as u64)?;
    // Small |x|: sin x ≈ x needs about −l bits more to be told from 0.
    let start = (t.frac_bits().max(0) + (-l).max(0)) as u64 + 32;
    t.check(start)?;
    resolve(t, start, |p| {
        let wp = p + guard(p);
        let xb = Ball::from_dyadic(n, x.exponent, wp);
        // π to wp + (bits of x) so that k·π/2 is known to 2^−wp.
        let pp = wp + l.max(0) as u64 + 8;
        t.check(pp)?;
        let pib = pi(pp);
        let xp = Ball::from_dyadic(n, x.exponent, pp);
        // k = round(x / (π/2)) = round(2x/π), any integer near it will do.
        let num: BigInt = &xp.mid * 4 + &pib.mid;
        let den: BigInt = &pib.mid * 2;
        let k = num.div_floor(&den);
        // k·π/2 at precision wp = k·π at precision wp − 1, reread at wp.
        let mut kpi2 = pib.mul_int(&k).to_prec(wp - 1);
        kpi2.prec = wp;
        let r = xb.sub(&kpi2);
        if r.abs_upper() > (BigInt::one() << wp) {
            // Not reduced to |r| ≤ 1 (cannot happen with the precision above): no enclosure
            // better than [−1, 1] yet.
            return Ok(unit_enclosure());
        }
        let (s, c) = sin_cos(&r);
        let j = k.mod_floor(&BigInt::from(4)).to_u64().unwrap_or(0);
        let (v, _) = pick(s, c, j, which);
        Ok(Approx::Enclosure {
            lo: v.lo(),
            hi: v.hi(),
            exp: -(wp as i64),
            sign: 0,
        })
    })
}

fn trig_pi(x: &Dyadic, which: Which, t: &Target) -> Result<BigInt, FixedError> {
    let n = &x.mantissa;
    // sin(π·(−x)) = −sin(πx), cos even: work on |x|.
    let flip = which == Which::Sin && n.is_negative();
    let a = n.abs();
    let (j, f, d) = reduce_half_turns(&a, x.exponent);
    let exact = f.is_zero();
    let neg_result = |d: Dyadic| {
        if flip {
            Dyadic::new(-d.mantissa, d.exponent)
        } else {
            d
        }
    };
    if exact {
        let v = neg_result(exact_at_quadrant(j, which));
        return resolve(t, 64, |_| Ok(Approx::Exact(v.clone())));
    }
    // θ = π·f / 2^d with f ≠ 0, |θ| ≤ π/4.
    let (w, neg) = quadrant(j, which);
    // sign of sin θ is that of f; cos θ > 0.
    let base_sign: i8 = if w == Which::Cos || f.is_positive() {
        1
    } else {
        -1
    };
    let mut sign = if neg { -base_sign } else { base_sign };
    if flip {
        sign = -sign;
    }
    // |θ| ≥ 2^(bits(f) − 1 − d); sin θ ≥ (2/π)θ: about d − bits(f) bits to see it.
    let small = (d as i64 - f.bits() as i64).max(0);
    let start = (t.frac_bits().max(0) + if w == Which::Sin { small } else { 0 }) as u64 + 32;
    t.check(start)?;
    resolve(t, start, |p| {
        let wp = p + guard(p);
        t.check(wp + f.bits() + 4)?;
        let theta = pi(wp + f.bits() + 4).mul_int(&f).to_prec(wp);
        let theta = theta.shr(d);
        let (s, c) = sin_cos(&theta);
        let (v, _) = pick(s, c, j, which);
        let v = if flip { v.neg() } else { v };
        Ok(Approx::Enclosure {
            lo: v.lo(),
            hi: v.hi(),
            exp: -(wp as i64),
            sign,
        })
    })
}

/// Exact reduction of a = |n| · 2^e (e the exponent) modulo 2: a ≡ j/2 + (f / 2^dd)·... returns
/// (j mod 4, f, d) with a ≡ j·(1/2) + f / 2^d (mod 2), f an integer with |f / 2^d| ≤ 1/4
/// (so θ = π·f/2^d has |θ| ≤ π/4); f = 0 exactly at multiples of 1/2.
fn reduce_half_turns(a: &BigInt, e: i64) -> (u64, BigInt, u64) {
    if e >= 0 {
        // a is an integer: multiple of 1/2 with j = 2·(a mod 2).
        let odd = e == 0 && a.is_odd();
        return (if odd { 2 } else { 0 }, BigInt::zero(), 0);
    }
    let dd = e.unsigned_abs(); // a = A / 2^dd
    // X = A mod 2^(dd+1): a mod 2 = X / 2^dd.
    let x = if a.bits() <= dd + 1 {
        a.clone()
    } else {
        a.mod_floor(&(BigInt::one() << (dd + 1)))
    };
    // a mod 2 = X/2^dd = j/2 + F/2^dd with F = X mod 2^(dd−1), j = X >> (dd−1); θ = π·F/2^dd.
    if dd == 0 {
        return (0, BigInt::zero(), 0);
    }
    let (mut j, mut f) = if dd == 1 {
        (x.clone(), BigInt::zero())
    } else {
        let jj: BigInt = &x >> (dd - 1);
        let ff = &x - (&jj << (dd - 1));
        (jj, ff)
    };
    // F / 2^(dd−1) in [0, 1): shift to (−1/2, 1/2] so that |θ| = π·|F|/2^dd ≤ π/4.
    if dd >= 2 && f.bits() >= dd - 1 {
        // F ≥ 2^(dd−2): compare 2F with 2^(dd−1)
        let half = BigInt::one() << (dd - 2);
        if f > half {
            f -= BigInt::one() << (dd - 1);
            j += 1;
        }
    }
    let j = j.mod_floor(&BigInt::from(4)).to_u64().unwrap_or(0);
    (j, f, dd)
}
