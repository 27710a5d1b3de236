//! Arithmetic on integers wider than 64 bits held as little-endian 64-bit limbs: limb 0 holds
//! bits 0–63, the last limb the top `bits − 64·(k − 1)` bits of a `bits`-bit two's complement
//! pattern, **normalised with the unused high bits of the last limb zero** (the same rule as
//! the engine's narrow integers, which are zero-extended patterns in their 64-bit registers).
//!
//! Every function takes slices of exactly `limbs(bits)` limbs and returns normalised results.
//! Addition, subtraction, multiplication, shifts and comparisons work on the limbs directly;
//! division and remainder go through `num-bigint`.

use num_bigint::BigUint;
use std::cmp::Ordering;

/// Limbs of a `bits`-bit integer.
#[inline]
pub fn limbs(bits: u32) -> usize {
    bits.div_ceil(64).max(1) as usize
}

/// The mask of the used bits of the last limb.
#[inline]
pub fn top_mask(bits: u32) -> u64 {
    let r = bits - 64 * (limbs(bits) as u32 - 1);
    crate::bits::low_bits(r)
}

/// Clears the unused high bits of the last limb.
#[inline]
pub fn normalise(x: &mut [u64], bits: u32) {
    if let Some(t) = x.last_mut() {
        *t &= top_mask(bits);
    }
}

/// Bit `bits − 1` (the sign bit of the signed reading).
#[inline]
pub fn is_negative(x: &[u64], bits: u32) -> bool {
    let b = bits - 1;
    x[(b / 64) as usize] >> (b % 64) & 1 != 0
}

/// `d = a + b` modulo 2^bits.
pub fn add(d: &mut [u64], a: &[u64], b: &[u64], bits: u32) {
    let mut carry = false;
    for i in 0..d.len() {
        let (s, c1) = a[i].overflowing_add(b[i]);
        let (s, c2) = s.overflowing_add(carry as u64);
        d[i] = s;
        carry = c1 || c2;
    }
    normalise(d, bits);
}

/// `d = a − b` modulo 2^bits.
pub fn sub(d: &mut [u64], a: &[u64], b: &[u64], bits: u32) {
    let mut borrow = false;
    for i in 0..d.len() {
        let (s, b1) = a[i].overflowing_sub(b[i]);
        let (s, b2) = s.overflowing_sub(borrow as u64);
        d[i] = s;
        borrow = b1 || b2;
    }
    normalise(d, bits);
}

/// `d = a · b` modulo 2^bits (schoolbook, the products above the width dropped).
pub fn mul(d: &mut [u64], a: &[u64], b: &[u64], bits: u32) {
    let k = d.len();
    d.fill(0);
    for (i, &ai) in a[..k].iter().enumerate() {
        if ai == 0 {
            continue;
        }
        let mut carry = 0u128;
        for (dj, &bj) in d[i..].iter_mut().zip(&b[..k]) {
            let t = ai as u128 * bj as u128 + *dj as u128 + carry;
            *dj = t as u64;
            carry = t >> 64;
        }
    }
    normalise(d, bits);
}

/// `d = −a` modulo 2^bits.
pub fn neg(d: &mut [u64], a: &[u64], bits: u32) {
    let mut carry = true;
    for i in 0..d.len() {
        let (s, c) = (!a[i]).overflowing_add(carry as u64);
        d[i] = s;
        carry = c;
    }
    normalise(d, bits);
}

/// `d = !a` (the low `bits` bits).
pub fn not(d: &mut [u64], a: &[u64], bits: u32) {
    for (d, a) in d.iter_mut().zip(a) {
        *d = !a;
    }
    normalise(d, bits);
}

/// Unsigned comparison.
pub fn cmp_unsigned(a: &[u64], b: &[u64]) -> Ordering {
    a.iter().rev().cmp(b.iter().rev())
}

/// Signed (two's complement) comparison.
pub fn cmp_signed(a: &[u64], b: &[u64], bits: u32) -> Ordering {
    match (is_negative(a, bits), is_negative(b, bits)) {
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        // Same sign: the patterns order as the values.
        _ => cmp_unsigned(a, b),
    }
}

/// Bit `i` of `x` (0 beyond the limbs).
#[inline]
fn bit_word(x: &[u64], word: usize) -> u64 {
    x.get(word).copied().unwrap_or(0)
}

/// `d = a << s` for `s < bits`.
pub fn shl(d: &mut [u64], a: &[u64], s: u32, bits: u32) {
    let (w, b) = ((s / 64) as usize, s % 64);
    for i in (0..d.len()).rev() {
        let lo = if i >= w { a[i - w] } else { 0 };
        let below = if i > w { a[i - w - 1] } else { 0 };
        d[i] = if b == 0 {
            lo
        } else {
            (lo << b) | (below >> (64 - b))
        };
    }
    normalise(d, bits);
}

/// `d = a >> s` for `s < bits`, filling with `fill` (all ones for an arithmetic shift of a
/// negative value, else zero).
pub fn shr(d: &mut [u64], a: &[u64], s: u32, bits: u32, fill_ones: bool) {
    let k = d.len();
    // Sign-extend into the unused bits of the last limb first, so that they shift in.
    let mut src: Vec<u64> = a.to_vec();
    let fill = if fill_ones { u64::MAX } else { 0 };
    src[k - 1] |= fill & !top_mask(bits);
    let (w, b) = ((s / 64) as usize, s % 64);
    let word = |i: usize| if i < k { bit_word(&src, i) } else { fill };
    for (i, d) in d.iter_mut().enumerate() {
        let lo = word(i + w);
        let hi = word(i + w + 1);
        *d = if b == 0 {
            lo
        } else {
            (lo >> b) | (hi << (64 - b))
        };
    }
    normalise(d, bits);
}

/// `d` (of `to` bits) = `a` (of `from` bits) zero- or sign-extended, or truncated.
pub fn extend(d: &mut [u64], to: u32, a: &[u64], from: u32, signed: bool) {
    let fill = if signed && is_negative(a, from) {
        u64::MAX
    } else {
        0
    };
    let ka = a.len();
    for (i, d) in d.iter_mut().enumerate() {
        *d = if i + 1 < ka {
            a[i]
        } else if i + 1 == ka {
            a[i] | (fill & !top_mask(from))
        } else {
            fill
        };
    }
    normalise(d, to);
}

/// True when every limb is zero.
pub fn is_zero(a: &[u64]) -> bool {
    a.iter().all(|&x| x == 0)
}

/// The unsigned value of the limbs.
pub fn to_big(a: &[u64]) -> BigUint {
    let digits: Vec<u32> = a
        .iter()
        .flat_map(|&x| [x as u32, (x >> 32) as u32])
        .collect();
    BigUint::new(digits)
}

/// `d` = `v` modulo 2^bits.
pub fn from_big(d: &mut [u64], v: &BigUint, bits: u32) {
    let digits = v.to_u64_digits();
    for (i, d) in d.iter_mut().enumerate() {
        *d = digits.get(i).copied().unwrap_or(0);
    }
    normalise(d, bits);
}

/// The magnitude of the signed reading of `a` (as `bits` bits).
fn magnitude(a: &[u64], bits: u32) -> BigUint {
    if is_negative(a, bits) {
        let mut n = vec![0; a.len()];
        neg(&mut n, a, bits);
        // −MIN wraps to MIN, whose unsigned reading is the magnitude 2^(bits−1).
        to_big(&n)
    } else {
        to_big(a)
    }
}

/// Sets `d` to `v` or `−v` modulo 2^bits.
fn from_signed(d: &mut [u64], v: &BigUint, negative: bool, bits: u32) {
    from_big(d, v, bits);
    if negative {
        let p = d.to_vec();
        neg(d, &p, bits);
    }
}

/// The divisions and remainders, for a non-zero `b`: `which` is 0 UDiv, 1 UMod, 2 SDiv
/// (truncating), 3 SRem (sign of the dividend), 4 SMod (sign of the divisor).
pub fn divide(d: &mut [u64], a: &[u64], b: &[u64], bits: u32, which: DivKind) {
    match which {
        DivKind::UDiv => from_big(d, &(to_big(a) / to_big(b)), bits),
        DivKind::UMod => from_big(d, &(to_big(a) % to_big(b)), bits),
        DivKind::SDiv | DivKind::SRem | DivKind::SMod => {
            let (na, nb) = (is_negative(a, bits), is_negative(b, bits));
            let (ma, mb) = (magnitude(a, bits), magnitude(b, bits));
            match which {
                DivKind::SDiv => from_signed(d, &(&ma / &mb), na != nb, bits),
                DivKind::SRem => from_signed(d, &(&ma % &mb), na, bits),
                _ => {
                    let r = &ma % &mb;
                    if r == BigUint::ZERO || na == nb {
                        from_signed(d, &r, nb, bits);
                    } else {
                        // Different signs: r − |b| carries the sign of b.
                        from_signed(d, &(&mb - &r), nb, bits);
                    }
                }
            }
        }
    }
}

/// Which division [`divide`] computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DivKind {
    UDiv,
    UMod,
    SDiv,
    SRem,
    SMod,
}
