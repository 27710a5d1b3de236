//! e^x: argument reduction x = k·ln2 + r with |r| ≲ ln2/2, then e^(r/2^s) by Taylor series and
//! s squarings, all on balls; the result is 2^k · e^r.

use super::super::ball::Ball;
use super::super::consts::ln2;
use super::super::convert::{Dyadic, far_out_of_range, tiny_floor, tiny_frac};
use super::super::quantize::{apply_overflow, round_parts};
use super::super::ziv::{Approx, Target, resolve};
use super::super::{FixedError, Overflow};
use super::series::exp_small;
use num_bigint::BigInt;
use num_integer::{Integer, Roots};
use num_traits::{One, Signed, Zero};

/// Bits of the bit length of p, for guard sizes.
fn log2_bits(p: u64) -> u64 {
    64 - p.leading_zeros() as u64
}

/// Largest |x| magnitude exponent handled by full evaluation: x < 2^40.
const MAX_LOG2_X: i64 = 40;

pub(crate) fn exp(x: &Dyadic, t: &Target) -> Result<BigInt, FixedError> {
    let n = &x.mantissa;
    if n.is_zero() {
        return resolve(t, 64, |_| Ok(Approx::Exact(Dyadic::new(BigInt::one(), 0))));
    }
    let fb = t.frac_bits();
    let w = t.fmt.width() as i64;
    // 2^(l−1) ≤ |x| < 2^l
    let l = (n.bits() as i64).saturating_add(x.exponent);
    let big = |l: i64, bound: i64| l >= 1 && (l > 62 || (1i64 << (l - 1)) >= bound);
    if n.is_negative() {
        // e^x ≤ 2^x ≤ 2^(−2^(l−1)): t < 1/4 when 2^(l−1) ≥ fb + 2.
        if big(l, fb.saturating_add(2)) {
            let m = round_parts(tiny_floor(false), tiny_frac(false), t.q);
            return Ok(apply_overflow(&m, t.fmt, t.o));
        }
    } else if t.o != Overflow::Wrap && big(l, (w + 2).saturating_sub(fb)) {
        // e^x ≥ 2^x ≥ 2^(2^(l−1)): t ≥ 2^(w+2), beyond the range.
        return Ok(apply_overflow(&far_out_of_range(false, t.fmt), t.fmt, t.o));
    }
    if l > MAX_LOG2_X {
        return Err(t.too_precise(u64::MAX));
    }
    // log2 e^x = x·log2(e) < 1.5·|x| < 1.5·2^l
    let log2_result = if n.is_negative() {
        -(1i64 << (l.max(1) - 1))
    } else {
        3 * (1i64 << l.max(0)) / 2 + 1
    };
    let start = (fb + log2_result).max(0) as u64 + 32;
    t.check(start)?;
    resolve(t, start, |p| enclosure(x, p, t))
}

/// An enclosure of e^x good to about 2^−p relative to its own size.
fn enclosure(x: &Dyadic, p: u64, t: &Target) -> Result<Approx, FixedError> {
    let s = (p.sqrt() / 2).max(4);
    let wp = p + s + 2 * log2_bits(p) + 16;
    let xb = Ball::from_dyadic(&x.mantissa, x.exponent, wp);
    // ln2 to wp + (bits of x) so that k·ln2 is known to 2^−wp.
    let xbits = (x.mantissa.bits() as i64 + x.exponent).max(0) as u64;
    let pp = wp + xbits + 8;
    t.check(pp)?;
    let l2 = ln2(pp);
    let xp = Ball::from_dyadic(&x.mantissa, x.exponent, pp);
    // k = round(x / ln2), any integer near it will do.
    let num: BigInt = &xp.mid * 2 + &l2.mid;
    let den: BigInt = &l2.mid * 2;
    let k = num.div_floor(&den);
    let kln2 = l2.mul_int(&k).to_prec(wp);
    let r = xb.sub(&kln2);
    if r.abs_upper() > (BigInt::one() << wp) {
        // |r| > 1 cannot happen with the precision above; refuse to use the series.
        return Err(t.too_precise(pp));
    }
    let mut e = exp_small(&r.shr(s));
    for _ in 0..s {
        e = e.mul(&e);
    }
    let k = i64::try_from(&k).map_err(|_| t.too_precise(u64::MAX))?;
    Ok(Approx::Enclosure {
        lo: e.lo(),
        hi: e.hi(),
        exp: k - wp as i64,
        sign: 1,
    })
}
