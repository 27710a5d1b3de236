//! Independent exact reference for the mixed dot product tests: values as exact dyadic rationals
//! (num-bigint mantissa, power-of-two exponent), IEEE special-value rules written out here, and round-to-nearest-even by
//! comparing the exact value with the neighbouring candidates of the target format (f32 by bit
//! neighbours of the hardware conversion, 16- and 8-bit formats by the sorted value table of
//! `float_ref`). Nothing here calls the code under test.
#![allow(dead_code)]

use super::float_ref::{BF16, E4M3, E5M2, F16, Mode, RefFormat, RefVal, Table};
use num_bigint::BigInt;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// A result format of the reference.
pub enum Target {
    F32,
    Small(Table),
}

impl Target {
    pub fn f16() -> Target {
        Target::Small(Table::new(F16))
    }
    pub fn bf16() -> Target {
        Target::Small(Table::new(BF16))
    }
    pub fn canonical_nan(&self) -> u64 {
        match self {
            Target::F32 => 0x7fc0_0000,
            Target::Small(t) => {
                let f = t.fmt;
                (((1u64 << f.exp_bits) - 1) << f.man_bits) | (1u64 << (f.man_bits - 1))
            }
        }
    }
    pub fn decode(&self, bits: u64) -> RefVal {
        match self {
            Target::F32 => {
                let x = f32::from_bits(bits as u32);
                if x.is_nan() {
                    RefVal::Nan {
                        neg: x.is_sign_negative(),
                        frac: bits & 0x7f_ffff,
                    }
                } else if x.is_infinite() {
                    RefVal::Inf { neg: x < 0.0 }
                } else {
                    RefVal::Fin(x as f64)
                }
            }
            Target::Small(t) => t.fmt.decode(bits),
        }
    }
    fn sign_bit(&self) -> u64 {
        match self {
            Target::F32 => 1 << 31,
            Target::Small(t) => t.fmt.sign_bit(),
        }
    }
    fn inf(&self, neg: bool) -> u64 {
        let s = if neg { self.sign_bit() } else { 0 };
        match self {
            Target::F32 => s | 0x7f80_0000,
            Target::Small(t) => s | t.fmt.inf_pattern().expect("result formats have infinities"),
        }
    }
    pub fn is_subnormal(&self, bits: u64) -> bool {
        match self.decode(bits) {
            RefVal::Fin(x) => x != 0.0 && x.abs() < self.min_normal(),
            _ => false,
        }
    }
    fn min_normal(&self) -> f64 {
        match self {
            Target::F32 => f32::MIN_POSITIVE as f64,
            Target::Small(t) => 2f64.powi(1 - t.fmt.bias),
        }
    }
    pub fn zero(&self, neg: bool) -> u64 {
        if neg { self.sign_bit() } else { 0 }
    }
}

/// An exact dyadic value `m · 2^e` (no gcd work, unlike a general rational).
#[derive(Clone, Debug)]
pub struct Dy {
    pub m: BigInt,
    pub e: i64,
}

impl Dy {
    /// An f64 from its bit fields.
    pub fn of(x: f64) -> Dy {
        let bits = x.to_bits();
        let exp = ((bits >> 52) & 0x7ff) as i64;
        let frac = (bits & ((1 << 52) - 1)) as i64;
        let (m, e) = if exp == 0 {
            (frac, -1074)
        } else {
            (frac | 1 << 52, exp - 1075)
        };
        Dy {
            m: BigInt::from(if x < 0.0 { -m } else { m }),
            e,
        }
    }
    fn pow2(k: i64) -> Dy {
        Dy {
            m: BigInt::one(),
            e: k,
        }
    }
    fn is_negative(&self) -> bool {
        self.m.is_negative()
    }
    fn abs(&self) -> Dy {
        Dy {
            m: self.m.abs(),
            e: self.e,
        }
    }
    /// Both mantissas on the smaller exponent.
    fn aligned(&self, o: &Dy) -> (BigInt, BigInt) {
        let e = self.e.min(o.e);
        (
            &self.m << ((self.e - e) as usize),
            &o.m << ((o.e - e) as usize),
        )
    }
    fn cmp(&self, o: &Dy) -> std::cmp::Ordering {
        let (a, b) = self.aligned(o);
        a.cmp(&b)
    }
    fn dist(&self, o: &Dy) -> Dy {
        let (a, b) = self.aligned(o);
        Dy {
            m: (a - b).abs(),
            e: self.e.min(o.e),
        }
    }
    /// An approximation good to a few ulps of f64 (for finding candidates only).
    fn approx(&self) -> f64 {
        let bits = self.m.bits();
        let shift = bits.saturating_sub(60);
        let top = (&self.m >> (shift as usize)).to_f64().unwrap_or(0.0);
        let mut e = self.e + shift as i64;
        let mut v = top;
        while e > 0 && v.is_finite() {
            let st = e.min(1000);
            v *= 2f64.powi(st as i32);
            e -= st;
        }
        while e < 0 && v != 0.0 {
            let st = (-e).min(1000);
            v *= 2f64.powi(-st as i32);
            e += st;
        }
        v
    }
}

/// Candidate magnitudes (bits, value, is_even) around `approx` for the target.
fn candidates(t: &Target, approx: f64) -> Vec<(u64, Dy, bool)> {
    let mut out = Vec::new();
    match t {
        Target::F32 => {
            let c = (approx.abs() as f32).min(f32::MAX);
            let cb = c.to_bits() as i64;
            for b in (cb - 2)..=(cb + 2) {
                if !(0..=0x7f80_0000).contains(&b) {
                    continue;
                }
                let v = f32::from_bits(b as u32);
                if v.is_infinite() {
                    // 2^128, the overflow candidate (even).
                    out.push((0x7f80_0000, Dy::pow2(128), true));
                } else {
                    out.push((b as u64, Dy::of(v as f64), b % 2 == 0));
                }
            }
        }
        Target::Small(tab) => {
            let i = tab.values.partition_point(|&v| v <= approx.abs()) as i64;
            for k in (i - 3)..=(i + 2) {
                if k < 0 || k as usize > tab.values.len() {
                    continue;
                }
                let v = if (k as usize) < tab.values.len() {
                    tab.values[k as usize]
                } else {
                    tab.beyond
                };
                out.push((tab.fmt.pattern(k as u64), Dy::of(v), k % 2 == 0));
            }
        }
    }
    out
}

fn beyond(t: &Target) -> u64 {
    match t {
        Target::F32 => 0x7f80_0000,
        Target::Small(tab) => tab.fmt.pattern(tab.values.len() as u64),
    }
}

fn signed(t: &Target, neg: bool, bits: u64) -> u64 {
    let mag = if bits == beyond(t) {
        t.inf(false)
    } else {
        bits
    };
    if neg { mag | t.sign_bit() } else { mag }
}

/// Round-to-nearest-even of a nonzero exact value; overflow gives ±infinity.
pub fn round_rne(t: &Target, q: &Dy) -> u64 {
    let m = q.abs();
    let mut best: Option<(u64, Dy, bool)> = None;
    for (b, v, even) in candidates(t, m.approx()) {
        let d = m.dist(&v);
        best = match best {
            None => Some((b, d, even)),
            Some((bb, bd, be)) => {
                let ord = d.cmp(&bd);
                if ord.is_lt() || (ord.is_eq() && even && !be) {
                    Some((b, d, even))
                } else {
                    Some((bb, bd, be))
                }
            }
        };
    }
    let (bits, _, _) = best.expect("candidates");
    signed(t, q.is_negative(), bits)
}

/// Σ x·y exactly.
fn exact_sum_of_products(pairs: &[(f64, f64)]) -> Dy {
    let parts: Vec<Dy> = pairs
        .iter()
        .map(|&(x, y)| {
            let (a, b) = (Dy::of(x), Dy::of(y));
            Dy {
                m: a.m * b.m,
                e: a.e + b.e,
            }
        })
        .collect();
    let min_e = parts.iter().map(|p| p.e).min().unwrap_or(0);
    let mut num = BigInt::zero();
    for p in parts {
        num += p.m << ((p.e - min_e) as usize);
    }
    Dy { m: num, e: min_e }
}

/// Rounding of a nonzero exact value in any direction; overflow gives ±infinity where IEEE 754
/// §7.4 says so (RNE always, RTP for positive, RTN for negative) and ±max otherwise.
pub fn round_dir(t: &Target, q: &Dy, mode: Mode) -> u64 {
    let up = match mode {
        Mode::Rne => return round_rne(t, q),
        Mode::Rtz => false,
        Mode::Rtp => !q.is_negative(),
        Mode::Rtn => q.is_negative(),
    };
    let m = q.abs();
    let over = beyond(t);
    let cands = candidates(t, m.approx());
    let pick = if up {
        cands
            .iter()
            .filter(|c| c.1.cmp(&m).is_ge())
            .min_by(|x, y| x.1.cmp(&y.1))
    } else {
        cands
            .iter()
            .filter(|c| c.1.cmp(&m).is_le() && c.0 != over)
            .max_by(|x, y| x.1.cmp(&y.1))
    };
    signed(t, q.is_negative(), pick.map(|c| c.0).unwrap_or(over))
}

/// A term: a value or a product of two values.
#[derive(Clone, Copy, Debug)]
pub enum RTerm {
    Val(RefVal),
    Prod(RefVal, RefVal),
}

/// `round_rne(Σ terms)` with IEEE special values, written out: NaN in → canonical NaN; ∞·0 or
/// +∞ with −∞ → canonical NaN; exact zero is −0 only if every term is −0.
pub fn round_sum(t: &Target, terms: &[RTerm], flush_out: bool) -> u64 {
    round_sum_mode(t, terms, flush_out, Mode::Rne)
}

/// [`round_sum`] in any rounding direction (an exact zero from cancellation or mixed-sign zeros
/// is −0 under RTN, IEEE 754 §6.3).
pub fn round_sum_mode(t: &Target, terms: &[RTerm], flush_out: bool, mode: Mode) -> u64 {
    let mut nan = false;
    let mut pinf = false;
    let mut ninf = false;
    let mut all_neg_zero = true;
    let mut all_pos_zero = true;
    let mut finite: Vec<(f64, f64)> = Vec::new(); // (x, y) for x·y; (x, 1) for a value
    for term in terms {
        let (x, y) = match *term {
            RTerm::Val(v) => (v, RefVal::Fin(1.0)),
            RTerm::Prod(a, b) => (a, b),
        };
        match (x, y) {
            (RefVal::Nan { .. }, _) | (_, RefVal::Nan { .. }) => nan = true,
            (RefVal::Inf { neg: n1 }, RefVal::Inf { neg: n2 }) => {
                if n1 != n2 {
                    ninf = true
                } else {
                    pinf = true
                }
            }
            (RefVal::Inf { neg }, RefVal::Fin(v)) | (RefVal::Fin(v), RefVal::Inf { neg }) => {
                if v == 0.0 {
                    nan = true;
                } else if neg != v.is_sign_negative() {
                    ninf = true;
                } else {
                    pinf = true;
                }
            }
            (RefVal::Fin(a), RefVal::Fin(b)) => {
                let zero = a == 0.0 || b == 0.0;
                let negative = a.is_sign_negative() != b.is_sign_negative();
                if !(zero && negative) {
                    all_neg_zero = false;
                }
                if !zero || negative {
                    all_pos_zero = false;
                }
                if !zero {
                    finite.push((a, b));
                }
                continue;
            }
        }
        all_neg_zero = false;
        all_pos_zero = false;
    }
    if nan || (pinf && ninf) {
        return t.canonical_nan();
    }
    if pinf || ninf {
        return t.inf(ninf);
    }
    // Fast path: the f64 sum is exact, so one hardware (or table) rounding is correct.
    let fast = if mode == Mode::Rne {
        exact_f64_sum(&finite)
    } else {
        None
    };
    let (negative, bits) = match fast {
        Some(x) => {
            if x == 0.0 {
                return t.zero(zero_negative(
                    all_neg_zero && finite.is_empty(),
                    all_pos_zero && finite.is_empty(),
                    mode,
                ));
            }
            let bits = match t {
                Target::F32 => (x as f32).to_bits() as u64,
                Target::Small(tab) => {
                    super::float_ref::expected_finite(tab, x, super::float_ref::Mode::Rne, false)
                }
            };
            (x < 0.0, bits)
        }
        None => {
            let sum = exact_sum_of_products(&finite);
            if sum.m.is_zero() {
                return t.zero(zero_negative(
                    all_neg_zero && finite.is_empty(),
                    all_pos_zero && finite.is_empty(),
                    mode,
                ));
            }
            (sum.is_negative(), round_dir(t, &sum, mode))
        }
    };
    if flush_out && t.is_subnormal(bits) {
        return t.zero(negative);
    }
    bits
}

fn zero_negative(all_negative_zero: bool, all_positive_zero: bool, mode: Mode) -> bool {
    // Every term −0: −0. Every term +0: +0. Mixed zeros or cancellation: −0 only under RTN.
    if all_negative_zero {
        return true;
    }
    !all_positive_zero && mode == Mode::Rtn
}

/// The sum of finite nonzero products (x, y) in f64 when every product and every partial sum is exact in f64
/// (checked with fma and Knuth's TwoSum error terms); `None` otherwise.
fn exact_f64_sum(pairs: &[(f64, f64)]) -> Option<f64> {
    let mut s = 0.0f64;
    for &(x, y) in pairs {
        let p = x * y;
        if !p.is_finite() || x.mul_add(y, -p) != 0.0 || (p == 0.0 && x != 0.0 && y != 0.0) {
            return None;
        }
        let n = s + p;
        let bb = n - s;
        let err = (s - (n - bb)) + (p - bb);
        if !n.is_finite() || err != 0.0 {
            return None;
        }
        s = n;
    }
    Some(s)
}

/// A reference input decoder with optional flushing of subnormals (in the input's own format).
pub fn input(fmt: RefFormat, bits: u64, flush: bool) -> RefVal {
    let v = fmt.decode(bits);
    if let RefVal::Fin(x) = v {
        let min_normal = 2f64.powi(1 - fmt.bias);
        if flush && x != 0.0 && x.abs() < min_normal {
            return RefVal::Fin(if x < 0.0 { -0.0 } else { 0.0 });
        }
    }
    v
}

/// The f32 accumulator as a reference value (flushed if asked).
pub fn input_f32(bits: u32, flush: bool) -> RefVal {
    let x = f32::from_bits(bits);
    if x.is_nan() {
        return RefVal::Nan {
            neg: x.is_sign_negative(),
            frac: (bits & 0x7f_ffff) as u64,
        };
    }
    if x.is_infinite() {
        return RefVal::Inf { neg: x < 0.0 };
    }
    if flush && x.is_subnormal() {
        return RefVal::Fin(if x < 0.0 { -0.0 } else { 0.0 });
    }
    RefVal::Fin(x as f64)
}

pub const FP8: [RefFormat; 2] = [E4M3, E5M2];
