//! The constants π and ln 2 as rigorous balls at any precision, computed at run time with
//! big integers (Machin's formula; ln 2 = 2·atanh(1/3)) and cached at the highest precision
//! computed so far.

use super::ball::Ball;
use num_bigint::BigInt;
use num_traits::{One, Zero};
use std::sync::Mutex;

static PI: Mutex<Option<Ball>> = Mutex::new(None);
static LN2: Mutex<Option<Ball>> = Mutex::new(None);

/// Guard bits for a series at precision p: covers the ≤ 3 ulps per term of rounding.
fn guard(p: u64) -> u64 {
    2 * (64 - p.leading_zeros() as u64) + 16
}

/// Σ_j sign^j / ((2j+1)·k^(2j+1)) at precision p: atan(1/k) when `alternating`, else
/// atanh(1/k). Each term is formed by floor divisions with error < 3 ulps; the tail after the
/// power vanishes is < 3 ulps.
fn inverse_series(k: u64, p: u64, alternating: bool) -> Ball {
    let k = BigInt::from(k);
    let k2 = &k * &k;
    let mut pw: BigInt = (BigInt::one() << p) / &k;
    let mut sum = BigInt::zero();
    let mut n: u64 = 0;
    while !pw.is_zero() {
        let term = &pw / BigInt::from(2 * n + 1);
        if alternating && n % 2 == 1 {
            sum -= term;
        } else {
            sum += term;
        }
        pw /= &k2;
        n += 1;
    }
    Ball {
        mid: sum,
        rad: BigInt::from(3 * n + 3),
        prec: p,
    }
}

fn compute_pi(p: u64) -> Ball {
    let w = p + guard(p);
    let a = inverse_series(5, w, true).mul_int(&BigInt::from(16));
    let b = inverse_series(239, w, true).mul_int(&BigInt::from(4));
    a.sub(&b).to_prec(p)
}

fn compute_ln2(p: u64) -> Ball {
    let w = p + guard(p);
    inverse_series(3, w, false)
        .mul_int(&BigInt::from(2))
        .to_prec(p)
}

fn cached(cache: &Mutex<Option<Ball>>, p: u64, compute: fn(u64) -> Ball) -> Ball {
    if let Ok(mut slot) = cache.lock() {
        if let Some(b) = slot.as_ref().filter(|b| b.prec >= p) {
            return b.to_prec(p);
        }
        let target = slot.as_ref().map_or(p, |b| p.max(2 * b.prec)).max(256);
        let b = compute(target);
        let out = b.to_prec(p);
        *slot = Some(b);
        out
    } else {
        compute(p)
    }
}

/// π at precision p.
pub(crate) fn pi(p: u64) -> Ball {
    cached(&PI, p, compute_pi)
}

/// ln 2 at precision p.
pub(crate) fn ln2(p: u64) -> Ball {
    cached(&LN2, p, compute_ln2)
}
