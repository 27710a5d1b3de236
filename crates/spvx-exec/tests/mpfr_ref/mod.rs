//! MPFR (through rug) references for the float tests: a function evaluated with 256-bit
//! precision, then rounded once, by integer scaling, to binary16/32/64 (round to nearest even,
//! subnormals and overflow as IEEE 754) — written here, independent of the engine.
#![allow(dead_code)]

use rug::Float;
use rug::float::Round;

/// Working precision of the references.
pub const PREC: u32 = 256;

/// An IEEE 754 binary format: precision p (with the hidden bit), emin, emax.
#[derive(Clone, Copy, Debug)]
pub struct Ieee {
    pub p: u32,
    pub emin: i32,
    pub emax: i32,
}

pub const BINARY16: Ieee = Ieee {
    p: 11,
    emin: -14,
    emax: 15,
};
pub const BINARY32: Ieee = Ieee {
    p: 24,
    emin: -126,
    emax: 127,
};
pub const BINARY64: Ieee = Ieee {
    p: 53,
    emin: -1022,
    emax: 1023,
};

/// `v` rounded to `fmt`, as an f64 (exact); NaN stays NaN.
pub fn round(v: &Float, fmt: Ieee) -> f64 {
    if v.is_nan() {
        return f64::NAN;
    }
    if v.is_infinite() || v.is_zero() {
        return v.to_f64();
    }
    // 2^(e−1) <= |v| < 2^e.
    let e = v.get_exp().unwrap_or(0);
    let binade = (e - 1).max(fmt.emin);
    let ulp = binade - (fmt.p as i32 - 1);
    let scaled = Float::with_val(PREC, v >> ulp);
    let Some((q, _)) = scaled.to_integer_round(Round::Nearest) else {
        return f64::NAN;
    };
    let r = Float::with_val(PREC, q) << ulp;
    let max = Float::with_val(PREC, 1) << (fmt.emax + 1);
    if r.clone().abs() >= max {
        return if v.is_sign_negative() {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
    }
    let x = r.to_f64();
    if x == 0.0 && v.is_sign_negative() {
        -0.0
    } else {
        x
    }
}
