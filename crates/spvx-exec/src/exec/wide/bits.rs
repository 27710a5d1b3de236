//! OpBitCount, OpBitReverse and the bit-field instructions on integers wider than 64 bits,
//! with the narrow instructions' rules (`exec::bitwise`): offsets and counts are read as
//! unsigned integers and clamped to the width (not reported).

use super::regs::{read, read_u64, write};
use crate::exec::ctx::Ctx;
use crate::exec::limbs;
use crate::exec::mask::lanes;
use crate::program::wide::WideInst;

/// Bit `i` of `x`.
#[inline]
fn bit(x: &[u64], i: u32) -> bool {
    x[(i / 64) as usize] >> (i % 64) & 1 != 0
}

/// Sets bit `i` of `x` to `v`.
#[inline]
fn set_bit(x: &mut [u64], i: u32, v: bool) {
    let (w, b) = ((i / 64) as usize, i % 64);
    x[w] = (x[w] & !(1 << b)) | ((v as u64) << b);
}

/// OpBitCount: the number of set bits of `a` (`bits` wide) as a `result_bits` integer.
pub fn count(cx: &mut Ctx, w: &WideInst, bits: u32, result_bits: u32) {
    let mut x = vec![0; limbs::limbs(bits)];
    let mut d = vec![0; limbs::limbs(result_bits)];
    for l in lanes(cx.mask) {
        read(cx, w.a, l, bits, &mut x);
        let n: u64 = x.iter().map(|v| v.count_ones() as u64).sum();
        d.fill(0);
        d[0] = n;
        limbs::normalise(&mut d, result_bits);
        write(cx, w.dst, l, &d);
    }
}

/// OpBitReverse: bit `i` of the result is bit `bits − 1 − i` of `a`.
pub fn reverse(cx: &mut Ctx, w: &WideInst, bits: u32) {
    let k = limbs::limbs(bits);
    let (mut x, mut d) = (vec![0; k], vec![0; k]);
    for l in lanes(cx.mask) {
        read(cx, w.a, l, bits, &mut x);
        d.fill(0);
        for i in 0..bits {
            set_bit(&mut d, bits - 1 - i, bit(&x, i));
        }
        write(cx, w.dst, l, &d);
    }
}

/// The offset and count of a bit field, clamped to the width: `(off, n)` with
/// `off + n ≤ bits`.
fn field(cx: &Ctx, l: usize, slots: (u32, u32), widths: (u32, u32), bits: u32) -> (u32, u32) {
    let off = read_u64(cx, slots.0, l, widths.0).min(bits as u64) as u32;
    let n = read_u64(cx, slots.1, l, widths.1).min((bits - off) as u64) as u32;
    (off, n)
}

/// OpBitFieldInsert: `a` (Base) with bits `off..off + n` replaced by the low `n` bits of `b`
/// (Insert); offset in `c`, count in `d`.
pub fn insert(cx: &mut Ctx, w: &WideInst, bits: u32, offset_bits: u32, count_bits: u32) {
    let k = limbs::limbs(bits);
    let (mut base, mut ins) = (vec![0; k], vec![0; k]);
    for l in lanes(cx.mask) {
        read(cx, w.a, l, bits, &mut base);
        read(cx, w.b, l, bits, &mut ins);
        let (off, n) = field(cx, l, (w.c, w.d), (offset_bits, count_bits), bits);
        for i in 0..n {
            set_bit(&mut base, off + i, bit(&ins, i));
        }
        write(cx, w.dst, l, &base);
    }
}

/// OpBitFieldUExtract / OpBitFieldSExtract: bits `off..off + n` of `a`, zero- or
/// sign-extended (a count of 0 gives 0); offset in `b`, count in `c`.
pub fn extract(
    cx: &mut Ctx,
    w: &WideInst,
    bits: u32,
    signed: bool,
    offset_bits: u32,
    count_bits: u32,
) {
    let k = limbs::limbs(bits);
    let (mut base, mut d) = (vec![0; k], vec![0; k]);
    for l in lanes(cx.mask) {
        read(cx, w.a, l, bits, &mut base);
        let (off, n) = field(cx, l, (w.b, w.c), (offset_bits, count_bits), bits);
        d.fill(0);
        for i in 0..n {
            set_bit(&mut d, i, bit(&base, off + i));
        }
        if signed && n > 0 && bit(&base, off + n - 1) {
            for i in n..bits {
                set_bit(&mut d, i, true);
            }
        }
        write(cx, w.dst, l, &d);
    }
}
