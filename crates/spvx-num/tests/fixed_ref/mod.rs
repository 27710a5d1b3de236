//! Independent reference for the fixed-point tests, written with rug (GMP/MPFR) only: exact
//! rationals for quantization and overflow, straight from the definitions of
//! reference/acfixed.md §1.2–1.3, and MPFR's correctly rounded functions (rounded down and up
//! to bracket the exact value) for the math functions. Shares no code with spvx-num.

#![allow(dead_code)]

use rug::float::Round;
use rug::ops::Pow;
use rug::{Float, Integer, Rational};
use std::cmp::Ordering;

/// Rational 1/2.
fn half() -> Rational {
    Rational::from((1, 2))
}

/// Q of t, from the definitions (SPIR-V numbering).
pub fn ref_quantize(t: &Rational, q: u32) -> Integer {
    let floor = |r: &Rational| r.clone().floor().numer().clone();
    let ceil = |r: &Rational| r.clone().ceil().numer().clone();
    let nonneg = *t >= 0;
    match q {
        0 => floor(t),
        1 => t.clone().trunc().numer().clone(),
        2 => floor(&(t.clone() + half())),
        3 => {
            if nonneg {
                ceil(&(t.clone() - half()))
            } else {
                floor(&(t.clone() + half()))
            }
        }
        4 => {
            if nonneg {
                floor(&(t.clone() + half()))
            } else {
                ceil(&(t.clone() - half()))
            }
        }
        5 => ceil(&(t.clone() - half())),
        6 | 7 => {
            let f = floor(t);
            let d = t.clone() - Rational::from(f.clone());
            match d.cmp(&half()) {
                Ordering::Less => f,
                Ordering::Greater => f + 1,
                Ordering::Equal => {
                    let f_even = f.is_even();
                    if (q == 6) == f_even { f } else { f + 1 }
                }
            }
        }
        _ => panic!("bad q"),
    }
}

/// Raw range of a format.
pub fn range(w: u32, signed: bool) -> (Integer, Integer) {
    if signed {
        let h = Integer::from(1) << (w - 1);
        (-h.clone(), h - 1)
    } else {
        (Integer::from(0), (Integer::from(1) << w) - 1)
    }
}

/// O applied to m (SAT_SYM: signed m ≤ MIN → −MAX, which is 0 for W = 1).
pub fn ref_overflow(m: &Integer, w: u32, signed: bool, o: u32) -> Integer {
    let (lo, hi) = range(w, signed);
    match o {
        0 => {
            let modulus = Integer::from(1) << w;
            let mut r = Integer::from(m % &modulus);
            if r < 0 {
                r += &modulus;
            }
            if signed && r > hi {
                r -= modulus;
            }
            r
        }
        1 => m.clone().clamp(&lo, &hi),
        2 => {
            if *m < lo || *m > hi {
                Integer::from(0)
            } else {
                m.clone()
            }
        }
        3 => {
            if *m > hi {
                hi
            } else if signed && *m <= lo {
                -hi
            } else if *m < lo {
                lo
            } else {
                m.clone()
            }
        }
        _ => panic!("bad o"),
    }
}

/// The W-bit pattern of raw value m.
pub fn ref_bits(m: &Integer, w: u32) -> Integer {
    let modulus = Integer::from(1) << w;
    let mut r = Integer::from(m % &modulus);
    if r < 0 {
        r += modulus;
    }
    r
}

/// The value of bits `x` in `<w, i, signed>`.
pub fn ref_value(x: &Integer, w: u32, i: i32, signed: bool) -> Rational {
    let mut n = x.clone();
    if signed && n.get_bit(w - 1) {
        n -= Integer::from(1) << w;
    }
    Rational::from(n) * pow2(i as i64 - w as i64)
}

/// 2^e as a rational.
pub fn pow2(e: i64) -> Rational {
    if e >= 0 {
        Rational::from(Integer::from(1) << (e as u32))
    } else {
        Rational::from((Integer::from(1), Integer::from(1) << ((-e) as u32)))
    }
}

/// What the reference knows about f(x).
pub enum RefValue {
    Exact(Rational),
    Bracket(Rational, Rational),
    PosInf,
    NegInf,
    /// NaN (sqrt, rsqrt, log of negatives): the documented result is raw 0.
    Nan,
}

/// f(x) for one of sqrt recip rsqrt sin cos sinpi cospi log exp, at MPFR precision `prec`.
pub fn ref_eval(func: &str, x: &Rational, prec: u32) -> RefValue {
    let zero = *x == 0;
    let neg = *x < 0;
    match func {
        "recip" => {
            return if zero {
                RefValue::PosInf
            } else {
                RefValue::Exact(x.clone().recip())
            };
        }
        "sqrt" if neg => return RefValue::Nan,
        "rsqrt" if neg => return RefValue::Nan,
        "rsqrt" if zero => return RefValue::PosInf,
        "log" if neg => return RefValue::Nan,
        "log" if zero => return RefValue::NegInf,
        _ => {}
    }
    // x exactly as a Float (its numerator and denominator are powers of two or small).
    let bits = (x.numer().significant_bits() + x.denom().significant_bits() + 8).max(prec);
    let xf = Float::with_val(bits, x);
    let mut d = xf.clone();
    let mut u = xf.clone();
    let od = round_into(func, &mut d, Round::Down);
    let _ = round_into(func, &mut u, Round::Up);
    if od == Ordering::Equal {
        return RefValue::Exact(d.to_rational().expect("finite"));
    }
    RefValue::Bracket(
        d.to_rational().expect("finite"),
        u.to_rational().expect("finite"),
    )
}

fn round_into(func: &str, y: &mut Float, round: Round) -> Ordering {
    match func {
        "sqrt" => y.sqrt_round(round),
        "rsqrt" => y.recip_sqrt_round(round),
        "sin" => y.sin_round(round),
        "cos" => y.cos_round(round),
        "sinpi" => y.sin_pi_round(round),
        "cospi" => y.cos_pi_round(round),
        "log" => y.ln_round(round),
        "exp" => y.exp_round(round),
        _ => panic!("bad func {func}"),
    }
}

/// The raw result of `func` (not sincos) at exact input x into `<rw, ri, signed>` under q, o,
/// following the documented decisions for the special inputs.
pub fn ref_result(
    func: &str,
    x: &Rational,
    rw: u32,
    ri: i32,
    signed: bool,
    q: u32,
    o: u32,
) -> Integer {
    let scale = pow2(rw as i64 - ri as i64);
    let (lo, hi) = range(rw, signed);
    let mut prec = 256;
    loop {
        match ref_eval(func, x, prec) {
            RefValue::Nan => return Integer::from(0),
            RefValue::PosInf => {
                return match o {
                    0 | 1 | 3 => hi,
                    _ => Integer::from(0),
                };
            }
            RefValue::NegInf => {
                return match o {
                    0 | 1 => lo,
                    3 => {
                        if signed {
                            -hi
                        } else {
                            lo
                        }
                    }
                    _ => Integer::from(0),
                };
            }
            RefValue::Exact(v) => {
                return ref_overflow(&ref_quantize(&(v * &scale), q), rw, signed, o);
            }
            RefValue::Bracket(a, b) => {
                let ma = ref_quantize(&(a * &scale), q);
                let mb = ref_quantize(&(b * &scale), q);
                if ma == mb {
                    return ref_overflow(&ma, rw, signed, o);
                }
            }
        }
        prec *= 2;
        assert!(prec <= 1 << 18, "reference did not settle: {func} {x}");
    }
}

/// Hex of a num-bigint BigUint as a rug Integer.
pub fn to_rug(b: &num_bigint::BigUint) -> Integer {
    Integer::from_str_radix(&b.to_str_radix(16), 16).expect("hex")
}

/// A rug Integer (≥ 0) as a BigUint.
pub fn to_big(i: &Integer) -> num_bigint::BigUint {
    num_bigint::BigUint::parse_bytes(i.to_string_radix(16).as_bytes(), 16).expect("hex")
}

/// 2^e as a rug Integer power helper (unused-import guard for Pow).
pub fn int_pow2(e: u32) -> Integer {
    Integer::from(2).pow(e)
}
