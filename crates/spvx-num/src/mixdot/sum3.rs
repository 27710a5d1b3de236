//! The one rounding of the exact model with an f32 result: `round_f32(a + b + c)` for three
//! f64 terms holding exact values, round to nearest even, with the model's rules for special
//! values and zeros, in native f64 arithmetic (error-free transformations, no exact path).
//!
//! Three Knuth TwoSums give `a + b + c = hi + lo + e3` exactly (`(s1, e1) = b ⊕ c`,
//! `(s2, e2) = a ⊕ s1`, `(t, e3) = e2 ⊕ e1`, `(hi, lo) = s2 ⊕ t`), where `hi + lo` is an exact
//! double-double (`|lo|` at most half the gap from `hi` to its neighbour towards `lo`). The f32
//! rounding of the exact sum `T` is then decided from `hi` and the sign `σ` of `r = lo + e3 =
//! T − hi`, provided `0 < |r|` < the gap from `hi` to its neighbour `hi'` towards `σ`: `T` lies
//! strictly between `hi` and `hi'`, and since every f32 value and every f32 midpoint is an f64,
//! none lies strictly between two neighbouring doubles, so `T` rounds as any point of that
//! open interval: when `hi` and `hi'` round to the same f32 that is the result; otherwise one
//! of them is an f32 midpoint — `hi` (then `T` is past it: `hi'`'s rounding) or `hi'` (then
//! `T` is before it: `hi`'s rounding). The bound on `r` holds when `e3 = 0` (`r = lo`), when
//! `|e3| < |lo|` (`|r| < 2|lo|`), or when `lo = 0` and `|e3| < 2⁻⁵³|hi|`; otherwise (only
//! when the three terms and their errors span far more than 106 bits, never seen in the tests)
//! the caller takes the exact path (`None`). With `hi = 0`, `T = e3` exactly.
//!
//! Special values and zeros come from IEEE f64 arithmetic itself, whose rules are the model's
//! (docs/semantics/mixed-dot.md, "Special values of sums", "Signed zero"): the terms are exact
//! products and an f32 (finite ones stay below 2²⁶⁰), so `s2`, the plain f64 sum, is NaN
//! exactly when the model's result is NaN (a NaN term, ∞ − ∞; ∞ · 0 is NaN in the product
//! already) and ±∞ exactly when the result is that infinity. An exact zero sum is −0 only when
//! every term is −0, the only case where the f64 sum `s2` is −0 (x + (−x) is +0 in RNE).
//! F32 overflow is `hi as f32`'s (IEEE conversion, RNE: ±∞ from the midpoint above the largest
//! finite value, which ties to the even ∞); the midpoint test counts that threshold as one.

/// Knuth's TwoSum: `s + e == a + b` exactly, `s` the rounded sum.
#[inline(always)]
pub(super) fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    (s, e)
}

/// The exact sum of three terms, in the form its rounding needs.
#[derive(Clone, Copy, Debug)]
pub(super) enum Exact3 {
    /// The plain f64 sum is NaN or ±∞: the model's result is NaN or that infinity.
    Special(f64),
    /// The sum is exactly this f64 (a zero with the model's sign included).
    Is(f64),
    /// The sum lies strictly between `hi` and its neighbouring double towards the sign of
    /// `r` (nonzero; `r` is `lo` or `e3` of the module text).
    Between { hi: f64, r: f64 },
}

/// `a + b + c` as an [`Exact3`], or `None` in the rare case where the error terms leave it
/// undecided (see the module text). `a`, `b`, `c` must hold the exact terms; finite ones
/// below 2²⁶⁰ in magnitude. A term that is absent must be passed as −0 (the identity of IEEE
/// addition for the sign of zero).
#[inline(always)]
pub(super) fn exact3(a: f64, b: f64, c: f64) -> Option<Exact3> {
    let (s1, e1) = two_sum(b, c);
    let (s2, e2) = two_sum(a, s1);
    if !s2.is_finite() {
        return Some(Exact3::Special(s2));
    }
    let (t, e3) = two_sum(e2, e1);
    let (hi, lo) = two_sum(s2, t);
    if hi == 0.0 {
        // s2 + t is exactly zero, so the exact sum is e3; when that is zero too, it is −0
        // only when every term is −0, as s2 is then.
        return Some(Exact3::Is(if e3 != 0.0 {
            e3
        } else if s2 == 0.0 {
            s2
        } else {
            0.0
        }));
    }
    let r = if e3 == 0.0 || (lo != 0.0 && e3.abs() < lo.abs()) {
        lo
    } else if lo == 0.0 && e3.abs() * 2f64.powi(53) < hi.abs() {
        e3
    } else {
        return None;
    };
    Some(if r == 0.0 {
        Exact3::Is(hi)
    } else {
        Exact3::Between { hi, r }
    })
}

/// The rounding of a sum strictly between `hi` and its neighbouring double towards `r`,
/// given the rounding `round` of a double to the target format and `top`, the power of two
/// just above the target's largest finite value (standing for ∞ in the midpoint test).
#[inline(always)]
fn decide(hi: f64, r: f64, round: impl Fn(f64) -> f64, top: f64) -> f64 {
    let r1 = round(hi);
    // The neighbour of `hi` towards `r` (away from zero when they share a sign).
    let away = (r > 0.0) == (hi > 0.0);
    let next = f64::from_bits(if away {
        hi.to_bits() + 1
    } else {
        hi.to_bits() - 1
    });
    let r2 = round(next);
    if r1 == r2 {
        return r1;
    }
    // r1 and r2 are neighbours in the target format (or its largest finite value and ∞): one
    // of hi, next is their midpoint; hi when it is as far from r1 as from r2.
    let widen = |x: f64| if x.is_infinite() { top.copysign(x) } else { x };
    let midpoint = (widen(r1) - hi).abs() == (widen(r2) - hi).abs();
    if midpoint { r2 } else { r1 }
}

/// The canonical f32 NaN of arithmetic results.
const NAN32: u32 = 0x7fc0_0000;

/// `round_f32(a + b + c)` (bits) under the exact model with RNE and no flushing, or `None`
/// where [`exact3`] is undecided.
#[inline(always)]
pub(super) fn sum3_to_f32(a: f64, b: f64, c: f64) -> Option<u32> {
    Some(match exact3(a, b, c)? {
        Exact3::Special(s) if s.is_nan() => NAN32,
        Exact3::Special(s) | Exact3::Is(s) => (s as f32).to_bits(),
        Exact3::Between { hi, r } => {
            let round = |x: f64| f64::from(x as f32);
            (decide(hi, r, round, 2f64.powi(128)) as f32).to_bits()
        }
    })
}

/// A 16-bit result format of `OpFDot2MixAcc16VALVE`: precision, smallest normal exponent,
/// largest exponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Half {
    precision: i32,
    emin: i32,
    emax: i32,
    bf16: bool,
}

pub(super) const F16: Half = Half {
    precision: 11,
    emin: -14,
    emax: 15,
    bf16: false,
};
pub(super) const BF16: Half = Half {
    precision: 8,
    emin: -126,
    emax: 127,
    bf16: true,
};

impl Half {
    /// `x` rounded to nearest even in this format (±∞ on overflow), as an f64. `x` must be 0,
    /// infinite or at least 2⁻¹⁰⁰⁰ in magnitude (every sum of these operands is).
    #[inline(always)]
    fn round(self, x: f64) -> f64 {
        if x == 0.0 || !x.is_finite() {
            return x;
        }
        let e = ((x.to_bits() >> 52) & 0x7ff) as i32 - 1023;
        let k = e.max(self.emin) - (self.precision - 1);
        // x·2^-k is below 2^precision; adding and removing 1.5·2^52 rounds it to an integer,
        // ties to even (scalings by powers of two are exact); a zero keeps x's sign.
        let magic = 1.5 * 2f64.powi(52);
        let y = x * pow2(-k);
        let r = (((y + magic) - magic) * pow2(k)).copysign(x);
        if r.abs() >= pow2(self.emax + 1) {
            f64::INFINITY.copysign(x)
        } else {
            r
        }
    }

    /// The bits of `x`, a value of this format (or NaN: the canonical NaN).
    #[inline(always)]
    fn encode(self, x: f64) -> u16 {
        if x.is_nan() {
            return if self.bf16 { 0x7fc0 } else { 0x7e00 };
        }
        let f = (x as f32).to_bits();
        if self.bf16 {
            return (f >> 16) as u16;
        }
        let sign = ((f >> 16) & 0x8000) as u16;
        let magnitude = f & 0x7fff_ffff;
        sign | if magnitude >= 0x7f80_0000 {
            0x7c00
        } else if magnitude >= 0x3880_0000 {
            // Normal: rebias the exponent (127 − 15 = 112) and drop 13 fraction bits.
            ((magnitude >> 13) - (112 << 10)) as u16
        } else {
            // Subnormal (or zero): the value in units of 2^-24.
            (x.abs() * 2f64.powi(24)) as u16
        }
    }
}

/// 2^k as an f64 for -1022 ≤ k ≤ 1023.
#[inline(always)]
fn pow2(k: i32) -> f64 {
    f64::from_bits(((k + 1023) as u64) << 52)
}

/// `round(a + b + c)` in a 16-bit format (bits) under the exact model with RNE and no
/// flushing, or `None` where [`exact3`] is undecided.
#[inline(always)]
pub(super) fn sum3_to_half(fmt: Half, a: f64, b: f64, c: f64) -> Option<u16> {
    let v = match exact3(a, b, c)? {
        Exact3::Special(s) => s,
        Exact3::Is(s) => fmt.round(s),
        Exact3::Between { hi, r } => decide(hi, r, |x| fmt.round(x), pow2(fmt.emax + 1)),
    };
    Some(fmt.encode(v))
}
