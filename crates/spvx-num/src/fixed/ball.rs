//! Ball arithmetic on big integers: a value known to lie in `[mid − rad, mid + rad] · 2^−prec`.
//!
//! Every operation returns a ball that rigorously contains the exact result of the operation on
//! any points of its operand balls; rounding of the midpoint is absorbed into the radius. This
//! is what makes the transcendental evaluations provably correct.

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};

/// An enclosure `[mid − rad, mid + rad] · 2^−prec`, with `rad ≥ 0`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Ball {
    pub mid: BigInt,
    pub rad: BigInt,
    pub prec: u64,
}

/// Ceiling of `a · 2^−s` for a ≥ 0, in time linear in the size of `a` whatever `s` (a shift
/// by billions of bits must not build a 2^s).
fn ceil_shr(a: &BigInt, s: u64) -> BigInt {
    let floor: BigInt = a >> s;
    if shifts_exactly(a, s) {
        floor
    } else {
        floor + 1
    }
}

/// Whether `a` is a multiple of 2^s (its low `s` bits are zero).
fn shifts_exactly(a: &BigInt, s: u64) -> bool {
    s == 0 || a.trailing_zeros().is_none_or(|z| z >= s)
}

impl Ball {
    /// The exact value `mid · 2^−prec`.
    pub fn exact(mid: BigInt, prec: u64) -> Ball {
        Ball {
            mid,
            rad: BigInt::zero(),
            prec,
        }
    }

    /// The exact dyadic `m · 2^e`, enclosed at precision `prec` (radius ≤ 1).
    pub fn from_dyadic(m: &BigInt, e: i64, prec: u64) -> Ball {
        let shift = e + prec as i64;
        if shift >= 0 {
            Ball::exact(m << (shift as u64), prec)
        } else {
            let s = shift.unsigned_abs();
            let mid: BigInt = m >> s;
            let exact = shifts_exactly(m, s);
            Ball {
                mid,
                rad: if exact { BigInt::zero() } else { BigInt::one() },
                prec,
            }
        }
    }

    /// Lower end, in units of 2^−prec.
    pub fn lo(&self) -> BigInt {
        &self.mid - &self.rad
    }

    /// Upper end, in units of 2^−prec.
    pub fn hi(&self) -> BigInt {
        &self.mid + &self.rad
    }

    /// An upper bound of the absolute value, in units of 2^−prec.
    pub fn abs_upper(&self) -> BigInt {
        self.mid.abs() + &self.rad
    }

    /// Sum (same precision).
    pub fn add(&self, o: &Ball) -> Ball {
        debug_assert_eq!(self.prec, o.prec);
        Ball {
            mid: &self.mid + &o.mid,
            rad: &self.rad + &o.rad,
            prec: self.prec,
        }
    }

    /// Difference (same precision).
    pub fn sub(&self, o: &Ball) -> Ball {
        debug_assert_eq!(self.prec, o.prec);
        Ball {
            mid: &self.mid - &o.mid,
            rad: &self.rad + &o.rad,
            prec: self.prec,
        }
    }

    /// Negation.
    pub fn neg(&self) -> Ball {
        Ball {
            mid: -&self.mid,
            rad: self.rad.clone(),
            prec: self.prec,
        }
    }

    /// Product (same precision), rounded back to that precision.
    pub fn mul(&self, o: &Ball) -> Ball {
        debug_assert_eq!(self.prec, o.prec);
        let p = self.prec;
        let prod = &self.mid * &o.mid;
        let mid: BigInt = &prod >> p;
        let rounding = if (&mid << p) == prod { 0 } else { 1 };
        let err = self.mid.abs() * &o.rad + o.mid.abs() * &self.rad + &self.rad * &o.rad;
        Ball {
            mid,
            rad: ceil_shr(&err, p) + rounding,
            prec: p,
        }
    }

    /// Product with an exact integer.
    pub fn mul_int(&self, k: &BigInt) -> Ball {
        Ball {
            mid: &self.mid * k,
            rad: &self.rad * k.abs(),
            prec: self.prec,
        }
    }

    /// Quotient by an exact positive integer.
    pub fn div_int(&self, d: &BigInt) -> Ball {
        debug_assert!(d.is_positive());
        let (mid, rem) = self.mid.div_mod_floor(d);
        let (rq, rr) = self.rad.div_rem(d);
        let rad = rq + if rr.is_zero() { 0 } else { 1 } + if rem.is_zero() { 0 } else { 1 };
        Ball {
            mid,
            rad,
            prec: self.prec,
        }
    }

    /// Quotient by 2^s (exact scaling of the value, rounded at the same precision).
    pub fn shr(&self, s: u64) -> Ball {
        let mid: BigInt = &self.mid >> s;
        let exact = shifts_exactly(&self.mid, s);
        Ball {
            mid,
            rad: ceil_shr(&self.rad, s) + if exact { 0 } else { 1 },
            prec: self.prec,
        }
    }

    /// The same enclosure at a lower precision `p ≤ self.prec`.
    pub fn to_prec(&self, p: u64) -> Ball {
        debug_assert!(p <= self.prec);
        let s = self.prec - p;
        let mut b = self.shr(s);
        b.prec = p;
        b
    }

    /// Widens the radius by `extra` units.
    pub fn widen(&self, extra: &BigInt) -> Ball {
        Ball {
            mid: self.mid.clone(),
            rad: &self.rad + extra,
            prec: self.prec,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Scaling by 2^−s encloses the exact quotient, for small shifts (checked against the
    /// rationals) and for shifts of billions of bits, which must not build a 2^s (a fuzz input
    /// took 18 s in cos(π·x) for an x with that many fraction bits).
    #[test]
    fn shr_encloses_the_quotient_at_any_shift() {
        for (mid, rad) in [(1000i64, 0i64), (-1000, 3), (1024, 0), (-7, 1), (0, 5)] {
            let b = Ball {
                mid: BigInt::from(mid),
                rad: BigInt::from(rad),
                prec: 0,
            };
            for s in [0u64, 1, 3, 10, 11, 64] {
                let r = b.shr(s);
                // [mid − rad, mid + rad] / 2^s ⊆ [r.mid − r.rad, r.mid + r.rad], in integers
                // scaled by 2^s.
                let scale = BigInt::one() << s;
                let lo = BigInt::from(mid - rad);
                let hi = BigInt::from(mid + rad);
                assert!((&r.mid - &r.rad) * &scale <= lo, "{mid}±{rad} >> {s}");
                assert!((&r.mid + &r.rad) * &scale >= hi, "{mid}±{rad} >> {s}");
                // At most one unit wider than the rounded interval needs.
                assert!(r.rad <= ceil_shr(&BigInt::from(rad), s) + 1);
            }
        }
        let b = Ball {
            mid: BigInt::from(-12345),
            rad: BigInt::from(7),
            prec: 0,
        };
        let r = b.shr(1 << 40);
        assert_eq!((r.mid, r.rad), (BigInt::from(-1), BigInt::from(2)));
        assert_eq!(ceil_shr(&(BigInt::one() << 100u32), 1 << 40), BigInt::one());
        assert_eq!(ceil_shr(&BigInt::zero(), 1 << 40), BigInt::zero());
    }
}
