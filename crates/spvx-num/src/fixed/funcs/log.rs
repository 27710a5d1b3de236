//! ln x: x = y · 2^e with y in [3/4, 3/2], ln x = e·ln2 + 2·atanh((y−1)/(y+1)), on balls.

use super::super::ball::Ball;
use super::super::consts::ln2;
use super::super::convert::Dyadic;
use super::super::ziv::{Approx, Target, resolve};
use super::super::{Exception, FixedError};
use super::infinity;
use super::series::atanh_small;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};

/// ln x. Zero: −∞ with [`Exception::LogOfZero`]; negative: result 0 with
/// [`Exception::LogOfNegative`].
pub(crate) fn log(x: &Dyadic, t: &Target) -> Result<(BigInt, Option<Exception>), FixedError> {
    let n = &x.mantissa;
    if n.is_negative() {
        return Ok((BigInt::zero(), Some(Exception::LogOfNegative)));
    }
    if n.is_zero() {
        return Ok((infinity(true, t), Some(Exception::LogOfZero)));
    }
    let lb = n.bits();
    // c = 2^(lb−1), or 2^lb when n > 1.5·2^(lb−1); y = n / c in [3/4, 3/2].
    let c_exp = if (n * 2u32) > (BigInt::from(3u32) << (lb - 1)) {
        lb
    } else {
        lb - 1
    };
    let c = BigInt::one() << c_exp;
    let e2 = x.exponent.saturating_add(c_exp as i64);
    if *n == c && e2 == 0 {
        return Ok((
            resolve(t, 64, |_| Ok(Approx::Exact(Dyadic::new(BigInt::zero(), 0))))?,
            None,
        ));
    }
    // sign of ln x: that of x − 1 = n·2^a − 1, i.e. of e2 when e2 ≠ 0, else of n − c.
    let sign: i8 = if e2 > 0 || (e2 == 0 && *n > c) { 1 } else { -1 };
    let e2b = BigInt::from(e2);
    let fb = t.frac_bits();
    let start = (fb.max(0) as u64) + e2b.bits() + lb + 32;
    t.check(start)?;
    let num = n - &c;
    let den = n + &c;
    let r = resolve(t, start, |p| {
        let wp = p + 2 * (64 - p.leading_zeros() as u64) + 16;
        let z = Ball {
            mid: (&num << wp).div_floor(&den),
            rad: BigInt::one(),
            prec: wp,
        };
        let series = atanh_small(&z).mul_int(&BigInt::from(2));
        t.check(wp + e2b.bits() + 4)?;
        let el2 = ln2(wp + e2b.bits() + 4).mul_int(&e2b).to_prec(wp);
        let v = series.add(&el2);
        Ok(Approx::Enclosure {
            lo: v.lo(),
            hi: v.hi(),
            exp: -(wp as i64),
            sign,
        })
    })?;
    Ok((r, None))
}
