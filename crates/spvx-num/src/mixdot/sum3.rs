//! The correct rounding of an exact sum of three f64 terms to f32 or to a 16-bit format (f16,
//! bf16), round to nearest even, with the models' rules for special values and zeros, in
//! native f64 arithmetic (error-free transformations, no exact path): the exact model's one
//! rounding, and each rounding step of the other models.
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
//! the caller takes the exact path (the `undecided` flag). With `hi = 0`, `T = e3` exactly.
//!
//! Everything is computed for every case and chosen by selects, without branches, so that a
//! loop over slices vectorises (`super::drive`).
//!
//! Special values and zeros come from IEEE f64 arithmetic itself, whose rules are the model's
//! (docs/semantics/mixed-dot.md, "Special values of sums", "Signed zero"): the terms are exact
//! products and an f32 (finite ones stay below 2²⁶⁰), so `s2`, the plain f64 sum, is NaN
//! exactly when the model's result is NaN (a NaN term, ∞ − ∞; ∞ · 0 is NaN in the product
//! already) and ±∞ exactly when the result is that infinity. An exact zero sum is −0 only when
//! every term is −0, the only case where the f64 sum `s2` is −0 (x + (−x) is +0 in RNE).
//! F32 overflow is `hi as f32`'s (IEEE conversion, RNE: ±∞ from the midpoint above the largest
//! finite value, which ties to the even ∞); the midpoint test counts that threshold as one.
//!
//! The 16-bit formats ([`Half`]) round `hi` in one step instead: scaled so that the format's
//! last significand place is 1, rounded to an integer by adding and removing 1.5·2⁵² (ties to
//! even), a tie broken towards `σ` (`T` lies past the midpoint `hi`), scaled back; overflow
//! from 2^(emax+1).

/// Knuth's TwoSum: `s + e == a + b` exactly, `s` the rounded sum.
#[inline(always)]
pub(super) fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    (s, e)
}

/// The exact sum of three terms in the form its rounding needs.
#[derive(Clone, Copy, Debug)]
struct Parts {
    /// The plain f64 sum: NaN or ±∞ when the model's result is.
    s2: f64,
    /// The exact sum when `hi` is 0: `e3`, or a zero with the model's sign.
    zero: f64,
    hi: f64,
    /// The sign of `T − hi` (0 when `T = hi`).
    r: f64,
    undecided: bool,
}

/// `a + b + c` decomposed (see the module text). `a`, `b`, `c` must hold the exact terms;
/// finite ones below 2²⁶⁰ in magnitude. A term that is absent must be passed as −0 (the
/// identity of IEEE addition for the sign of zero).
#[inline(always)]
fn parts(a: f64, b: f64, c: f64) -> Parts {
    let (s1, e1) = two_sum(b, c);
    let (s2, e2) = two_sum(a, s1);
    let (t, e3) = two_sum(e2, e1);
    let (hi, lo) = two_sum(s2, t);
    // hi = 0: s2 + t is exactly zero, so the exact sum is e3; when that is zero too, it is
    // −0 only when every term is −0, as s2 is then.
    let zero = if e3 != 0.0 {
        e3
    } else if s2 == 0.0 {
        s2
    } else {
        0.0
    };
    let take_lo = e3 == 0.0 || (lo != 0.0 && e3.abs() < lo.abs());
    let take_e3 = lo == 0.0 && e3.abs() * 2f64.powi(53) < hi.abs();
    let finite = s2.is_finite();
    Parts {
        s2,
        zero,
        hi,
        r: if take_lo { lo } else { e3 },
        undecided: finite && hi != 0.0 && !take_lo && !take_e3,
    }
}

/// The rounding of a sum strictly between `hi` and its neighbouring double towards `r`
/// (or equal to `hi` when `r` is 0), given `round`, the rounding of a double to the target
/// format, and `top`, the power of two just above the target's largest finite value
/// (standing for ∞ in the midpoint test).
#[inline(always)]
fn decide(hi: f64, r: f64, round: impl Fn(f64) -> f64, top: f64) -> f64 {
    let r1 = round(hi);
    // The neighbour of `hi` towards `r` (away from zero when they share a sign).
    let away = (r > 0.0) == (hi > 0.0);
    let step = if away { 1 } else { u64::MAX };
    let next = f64::from_bits(hi.to_bits().wrapping_add(step));
    let r2 = round(next);
    // When r1 ≠ r2 they are neighbours in the target format (or its largest finite value
    // and ∞): one of hi, next is their midpoint; hi when it is as far from r1 as from r2.
    let widen = |x: f64| if x.is_infinite() { top.copysign(x) } else { x };
    let midpoint = (widen(r1) - hi).abs() == (widen(r2) - hi).abs();
    if r != 0.0 && r1 != r2 && midpoint {
        r2
    } else {
        r1
    }
}

/// The canonical f32 NaN of arithmetic results.
const NAN32: u32 = 0x7fc0_0000;

/// `round_f32(a + b + c)` (bits) under the exact model with RNE and no flushing, and whether
/// the case is undecided (then the bits are meaningless and the exact path must be taken).
/// The terms as for [`parts`].
#[inline(always)]
pub(super) fn sum3_to_f32(a: f64, b: f64, c: f64) -> (u32, bool) {
    let p = parts(a, b, c);
    let round = |x: f64| f64::from(x as f32);
    let near = decide(p.hi, p.r, round, 2f64.powi(128));
    let v = if !p.s2.is_finite() {
        p.s2
    } else if p.hi == 0.0 {
        p.zero
    } else {
        near
    };
    let bits = (v as f32).to_bits();
    (if v.is_nan() { NAN32 } else { bits }, p.undecided)
}

/// `round_f32(a + b)` (bits) for two exact terms (as for [`parts`]): one TwoSum gives the
/// exact double-double `hi + lo`, never undecided; `hi` is ±∞/NaN exactly when the result is,
/// and a zero `hi` is exact with IEEE's sign, the model's. The rounding steps of the models
/// other than `exact`.
#[inline(always)]
pub(super) fn sum2_to_f32(a: f64, b: f64) -> u32 {
    let (hi, lo) = two_sum(a, b);
    let near = decide(hi, lo, |x| f64::from(x as f32), 2f64.powi(128));
    let v = if hi.is_finite() && hi != 0.0 {
        near
    } else {
        hi
    };
    let bits = (v as f32).to_bits();
    if v.is_nan() { NAN32 } else { bits }
}

/// `round(a + b)` in a 16-bit format as an f64 value (NaN, ±∞ included), as
/// [`sum2_to_f32`].
#[inline(always)]
pub(super) fn sum2_to_half_value(fmt: Half, a: f64, b: f64) -> f64 {
    let (hi, lo) = two_sum(a, b);
    fmt.round_beside(hi, lo)
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
    /// The rounding to nearest even in this format (±∞ on overflow), as an f64, of a value
    /// strictly between `x` and its neighbouring double towards the sign of `r`, or of `x`
    /// itself when `r` is 0; zeros, infinities and NaNs unchanged. A finite `x` must be 0 or
    /// at least 2⁻¹⁰⁰⁰ in magnitude (every sum of these operands is).
    ///
    /// `x` is scaled so that the format's last significand place is 1 (exact: `|y|` below
    /// 2^precision) and rounded to an integer by adding and removing 1.5·2⁵² (ties to even).
    /// The value lies within less than one f64 step of `x`, so it rounds as `x` does unless
    /// `x` is a midpoint: then it lies past it, on `r`'s side.
    #[inline(always)]
    pub(super) fn round_beside(self, x: f64, r: f64) -> f64 {
        let e = ((x.to_bits() >> 52) & 0x7ff) as i32 - 1023;
        let k = e.clamp(self.emin, 1000) - (self.precision - 1);
        let magic = 1.5 * 2f64.powi(52);
        let y = x * pow2(-k);
        let nearest = (y + magic) - magic;
        let tie = (y - nearest).abs() == 0.5;
        let y = if tie && r != 0.0 {
            y + 0.5f64.copysign(r)
        } else {
            nearest
        };
        // A zero keeps x's sign.
        let v = (y * pow2(k)).copysign(x);
        if !x.is_finite() {
            x
        } else if v.abs() >= pow2(self.emax + 1) {
            f64::INFINITY.copysign(x)
        } else {
            v
        }
    }

    /// The bits of `x`, a value of this format (or NaN: the canonical NaN).
    #[inline(always)]
    pub(super) fn encode(self, x: f64) -> u16 {
        let f = (x as f32).to_bits();
        if self.bf16 {
            return if x.is_nan() { 0x7fc0 } else { (f >> 16) as u16 };
        }
        let sign = ((f >> 16) & 0x8000) as u16;
        let magnitude = f & 0x7fff_ffff;
        // Normal: rebias the exponent (127 − 15 = 112) and drop 13 fraction bits.
        let normal = (magnitude >> 13).wrapping_sub(112 << 10) as u16;
        // Subnormal (or zero): the value in units of 2^-24.
        let subnormal = (x.abs() * 2f64.powi(24)) as u16;
        if x.is_nan() {
            0x7e00
        } else if magnitude >= 0x7f80_0000 {
            sign | 0x7c00
        } else if magnitude >= 0x3880_0000 {
            sign | normal
        } else {
            sign | subnormal
        }
    }
}

/// 2^k as an f64 for -1022 ≤ k ≤ 1023.
#[inline(always)]
fn pow2(k: i32) -> f64 {
    f64::from_bits(((k + 1023) as u64) << 52)
}

/// `round(a + b + c)` in a 16-bit format (bits) under the exact model with RNE and no
/// flushing, and whether the case is undecided, as [`sum3_to_f32`].
#[inline(always)]
pub(super) fn sum3_to_half(fmt: Half, a: f64, b: f64, c: f64) -> (u16, bool) {
    let p = parts(a, b, c);
    let (x, r) = if p.hi == 0.0 {
        (p.zero, 0.0)
    } else {
        (p.hi, p.r)
    };
    let near = fmt.round_beside(x, r);
    let v = if p.s2.is_finite() { near } else { p.s2 };
    (fmt.encode(v), p.undecided)
}
