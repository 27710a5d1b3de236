//! Instructions on integers wider than 64 bits (SPV_INTEL_arbitrary_precision_integers).
//!
//! A `bits`-bit integer (65 ≤ bits ≤ `MAX_WIDE_BITS`) occupies `limbs(bits)` consecutive
//! registers per lane, little-endian 64-bit limbs, the unused high bits of the last limb zero
//! (`exec::limbs`; `regs` reads and writes them). The compiler scalarises vectors (one
//! [`WideInst`] per component, `program::wide`) and leaves
//! copies, composites, OpSelect, OpPhi, loads and stores to the ordinary per-register
//! instructions. Operands are re-normalised when read, so bits above the width that a load
//! brought in from memory never change a result.
//!
//! Undefined cases get the results the narrow instructions give (docs/semantics/undefined-behaviour.md
//! "Undefined behaviour"): division by zero gives 0, signed `MIN / −1` gives MIN (remainders
//! 0), both reported; a shift by at least the width shifts as if one bit at a time, reported.

mod bits;
mod extended;
mod float;
mod intdot;
mod regs;

use crate::bits::sext;
use crate::exec::ctx::{Ctx, Stop};
use crate::exec::limbs::{self, DivKind};
use crate::exec::mask::lanes;
use crate::program::wide::{WideInst, WideOp};
use crate::program::{IBinOp, ICmpOp, IUnOp, Slot};
use crate::report::UbKind;
use regs::{read, write};
use std::cmp::Ordering;

/// Runs one wide-integer instruction on the active lanes.
pub fn execute(cx: &mut Ctx, w: &WideInst) -> Result<(), Stop> {
    match w.op {
        WideOp::IntDot { spec, count, acc } => intdot::int_dot(cx, w, &spec, count, acc),
        WideOp::Bin { op, bits } => bin(cx, w, op, bits),
        WideOp::Shift {
            op,
            bits,
            shift_bits,
        } => shift(cx, w, op, bits, shift_bits),
        WideOp::Un { op, bits } => {
            let k = limbs::limbs(bits);
            let (mut x, mut d) = (vec![0; k], vec![0; k]);
            for l in lanes(cx.mask) {
                read(cx, w.a, l, bits, &mut x);
                match op {
                    IUnOp::Negate => limbs::neg(&mut d, &x, bits),
                    _ => limbs::not(&mut d, &x, bits),
                }
                write(cx, w.dst, l, &d);
            }
            Ok(())
        }
        WideOp::Cmp { op, bits } => {
            let k = limbs::limbs(bits);
            let (mut x, mut y) = (vec![0; k], vec![0; k]);
            for l in lanes(cx.mask) {
                read(cx, w.a, l, bits, &mut x);
                read(cx, w.b, l, bits, &mut y);
                let r = compare(op, &x, &y, bits);
                cx.set(w.dst, l, r as u64);
            }
            Ok(())
        }
        WideOp::Convert { from, to, signed } => {
            let (mut x, mut d) = (vec![0; limbs::limbs(from)], vec![0; limbs::limbs(to)]);
            for l in lanes(cx.mask) {
                read(cx, w.a, l, from, &mut x);
                limbs::extend(&mut d, to, &x, from, signed);
                write(cx, w.dst, l, &d);
            }
            Ok(())
        }
        WideOp::Bitcast {
            dst_bits,
            dst_count,
            src_bits,
            src_count,
        } => {
            bitcast(cx, w, (dst_bits, dst_count), (src_bits, src_count));
            Ok(())
        }
        WideOp::Extended { op, bits } => {
            extended::extended(cx, w, op, bits);
            Ok(())
        }
        WideOp::BitCount { bits, result_bits } => {
            bits::count(cx, w, bits, result_bits);
            Ok(())
        }
        WideOp::BitReverse { bits } => {
            bits::reverse(cx, w, bits);
            Ok(())
        }
        WideOp::FieldInsert {
            bits,
            offset_bits,
            count_bits,
        } => {
            bits::insert(cx, w, bits, offset_bits, count_bits);
            Ok(())
        }
        WideOp::FieldExtract {
            bits,
            signed,
            offset_bits,
            count_bits,
        } => {
            bits::extract(cx, w, bits, signed, offset_bits, count_bits);
            Ok(())
        }
        WideOp::IntToFloat {
            bits,
            to,
            signed,
            mode,
        } => {
            float::int_to_float(cx, w, bits, to, signed, mode);
            Ok(())
        }
        WideOp::FloatToInt {
            from,
            bits,
            signed,
            mode,
        } => {
            float::float_to_int(cx, w, from, bits, signed, mode);
            Ok(())
        }
        WideOp::ExtractDyn {
            bits,
            count,
            index_bits,
        } => {
            let k = limbs::limbs(bits) as u32;
            for l in lanes(cx.mask) {
                let i = sext(cx.get(w.b, l), index_bits);
                let inside = (0..count as i64).contains(&i);
                for j in 0..k {
                    let v = if inside {
                        cx.get(w.a + i as u32 * k + j, l)
                    } else {
                        0
                    };
                    cx.set(w.dst + j, l, v);
                }
            }
            Ok(())
        }
        WideOp::InsertDyn {
            bits,
            count,
            index_bits,
        } => {
            let k = limbs::limbs(bits) as u32;
            for l in lanes(cx.mask) {
                let i = sext(cx.get(w.c, l), index_bits);
                for comp in 0..count {
                    for j in 0..k {
                        let v = if i == comp as i64 {
                            cx.get(w.b + j, l)
                        } else {
                            cx.get(w.a + comp * k + j, l)
                        };
                        cx.set(w.dst + comp * k + j, l, v);
                    }
                }
            }
            Ok(())
        }
    }
}

/// A comparison of two normalised values.
fn compare(op: ICmpOp, x: &[u64], y: &[u64], bits: u32) -> bool {
    let u = limbs::cmp_unsigned(x, y);
    let s = limbs::cmp_signed(x, y, bits);
    match op {
        ICmpOp::Eq => u == Ordering::Equal,
        ICmpOp::Ne => u != Ordering::Equal,
        ICmpOp::UGt => u == Ordering::Greater,
        ICmpOp::UGe => u != Ordering::Less,
        ICmpOp::ULt => u == Ordering::Less,
        ICmpOp::ULe => u != Ordering::Greater,
        ICmpOp::SGt => s == Ordering::Greater,
        ICmpOp::SGe => s != Ordering::Less,
        ICmpOp::SLt => s == Ordering::Less,
        ICmpOp::SLe => s != Ordering::Greater,
    }
}

/// The two-operand operations other than shifts.
fn bin(cx: &mut Ctx, w: &WideInst, op: IBinOp, bits: u32) -> Result<(), Stop> {
    let k = limbs::limbs(bits);
    if k == 2 {
        return bin128(cx, w, op, bits);
    }
    let (mut x, mut y, mut d) = (vec![0; k], vec![0; k], vec![0; k]);
    for l in lanes(cx.mask) {
        read(cx, w.a, l, bits, &mut x);
        read(cx, w.b, l, bits, &mut y);
        let mut undefined = false;
        match op {
            IBinOp::Add => limbs::add(&mut d, &x, &y, bits),
            IBinOp::Sub => limbs::sub(&mut d, &x, &y, bits),
            IBinOp::Mul => limbs::mul(&mut d, &x, &y, bits),
            IBinOp::And | IBinOp::Or | IBinOp::Xor => {
                for ((d, x), y) in d.iter_mut().zip(&x).zip(&y) {
                    *d = match op {
                        IBinOp::And => x & y,
                        IBinOp::Or => x | y,
                        _ => x ^ y,
                    };
                }
            }
            IBinOp::UDiv | IBinOp::SDiv | IBinOp::UMod | IBinOp::SRem | IBinOp::SMod => {
                let kind = match op {
                    IBinOp::UDiv => DivKind::UDiv,
                    IBinOp::UMod => DivKind::UMod,
                    IBinOp::SDiv => DivKind::SDiv,
                    IBinOp::SRem => DivKind::SRem,
                    _ => DivKind::SMod,
                };
                if limbs::is_zero(&y) {
                    d.fill(0);
                    undefined = true;
                } else {
                    limbs::divide(&mut d, &x, &y, bits, kind);
                    undefined = kind == DivKind::SDiv && is_min(&x, bits) && is_minus_one(&y, bits);
                }
            }
            // Shifts are `WideOp::Shift`; the compiler never emits them here.
            IBinOp::Shl | IBinOp::ShrLogical | IBinOp::ShrArith => d.fill(0),
        }
        write(cx, w.dst, l, &d);
        if undefined {
            cx.report(UbKind::DivisionByZero, l)?;
        }
    }
    Ok(())
}

/// [`bin`] for widths 65 to 128 (two limbs), in `u128` arithmetic: the same results.
fn bin128(cx: &mut Ctx, w: &WideInst, op: IBinOp, bits: u32) -> Result<(), Stop> {
    let m = u128::MAX >> (128 - bits);
    let shift = 128 - bits;
    let sext = |v: u128| ((v << shift) as i128) >> shift;
    let get =
        |cx: &Ctx, s: Slot, l: usize| (cx.get(s, l) as u128 | (cx.get(s + 1, l) as u128) << 64) & m;
    for l in lanes(cx.mask) {
        let (x, y) = (get(cx, w.a, l), get(cx, w.b, l));
        let (r, undefined) = match op {
            IBinOp::Add => (x.wrapping_add(y), false),
            IBinOp::Sub => (x.wrapping_sub(y), false),
            IBinOp::Mul => (x.wrapping_mul(y), false),
            IBinOp::And => (x & y, false),
            IBinOp::Or => (x | y, false),
            IBinOp::Xor => (x ^ y, false),
            _ if y == 0 => (0, true),
            IBinOp::UDiv => (x / y, false),
            IBinOp::UMod => (x % y, false),
            IBinOp::SDiv => {
                // MIN / −1 wraps to MIN (i128 wrapping at 128 bits, the mask below otherwise).
                let overflow = x == 1 << (bits - 1) && y == m;
                (sext(x).wrapping_div(sext(y)) as u128, overflow)
            }
            IBinOp::SRem => (sext(x).wrapping_rem(sext(y)) as u128, false),
            IBinOp::SMod => {
                let (sx, sy) = (sext(x), sext(y));
                let r = sx.wrapping_rem(sy);
                let r = if r != 0 && (r < 0) != (sy < 0) {
                    r.wrapping_add(sy)
                } else {
                    r
                };
                (r as u128, false)
            }
            // Shifts are `WideOp::Shift`; the compiler never emits them here.
            IBinOp::Shl | IBinOp::ShrLogical | IBinOp::ShrArith => (0, false),
        };
        let r = r & m;
        cx.set(w.dst, l, r as u64);
        cx.set(w.dst + 1, l, (r >> 64) as u64);
        if undefined {
            cx.report(UbKind::DivisionByZero, l)?;
        }
    }
    Ok(())
}

/// The signed minimum (only the sign bit set).
fn is_min(x: &[u64], bits: u32) -> bool {
    let b = (bits - 1) as usize;
    x.iter().enumerate().all(|(i, &v)| {
        let want = if i == b / 64 { 1u64 << (b % 64) } else { 0 };
        v == want
    })
}

/// All `bits` bits set.
fn is_minus_one(x: &[u64], bits: u32) -> bool {
    let k = x.len();
    x[..k - 1].iter().all(|&v| v == u64::MAX) && x[k - 1] == limbs::top_mask(bits)
}

/// The shifts; the amount is read as an unsigned integer of `shift_bits` bits.
fn shift(cx: &mut Ctx, w: &WideInst, op: IBinOp, bits: u32, shift_bits: u32) -> Result<(), Stop> {
    let k = limbs::limbs(bits);
    let (mut x, mut s, mut d) = (vec![0; k], vec![0; limbs::limbs(shift_bits)], vec![0; k]);
    for l in lanes(cx.mask) {
        read(cx, w.a, l, bits, &mut x);
        read(cx, w.b, l, shift_bits, &mut s);
        // The amount, saturated to u64::MAX when a higher limb is set.
        let amount = if s[1..].iter().any(|&v| v != 0) {
            u64::MAX
        } else {
            s[0]
        };
        let negative = limbs::is_negative(&x, bits);
        if amount >= bits as u64 {
            // As if shifted one bit at a time.
            let fill = op == IBinOp::ShrArith && negative;
            d.fill(if fill { u64::MAX } else { 0 });
            limbs::normalise(&mut d, bits);
        } else {
            match op {
                IBinOp::Shl => limbs::shl(&mut d, &x, amount as u32, bits),
                IBinOp::ShrLogical => limbs::shr(&mut d, &x, amount as u32, bits, false),
                _ => limbs::shr(&mut d, &x, amount as u32, bits, negative),
            }
        }
        write(cx, w.dst, l, &d);
        if amount >= bits as u64 {
            cx.report(
                UbKind::ShiftOutOfRange {
                    shift: amount,
                    bits,
                },
                l,
            )?;
        }
    }
    Ok(())
}

/// OpBitcast between values whose components may be wide.
fn bitcast(cx: &mut Ctx, w: &WideInst, dst: (u32, u32), src: (u32, u32)) {
    let (sk, dk) = (limbs::limbs(src.0), limbs::limbs(dst.0));
    let total = (src.0 * src.1) as usize;
    let mut flat = vec![0u64; total.div_ceil(64)];
    let mut comp = vec![0u64; sk];
    let mut out = vec![0u64; dk];
    for l in lanes(cx.mask) {
        flat.fill(0);
        for c in 0..src.1 {
            read(cx, w.a + c * sk as u32, l, src.0, &mut comp);
            put_bits(&mut flat, (c * src.0) as usize, &comp, src.0);
        }
        for c in 0..dst.1 {
            get_bits(&flat, (c * dst.0) as usize, &mut out, dst.0);
            write(cx, w.dst + c * dk as u32, l, &out);
        }
    }
}

/// ORs the `bits` low bits of `v` into `flat` at bit `at`.
fn put_bits(flat: &mut [u64], at: usize, v: &[u64], bits: u32) {
    for i in 0..bits as usize {
        if v[i / 64] >> (i % 64) & 1 != 0 {
            let p = at + i;
            flat[p / 64] |= 1 << (p % 64);
        }
    }
}

/// The `bits` bits of `flat` from bit `at` into `out` (normalised).
fn get_bits(flat: &[u64], at: usize, out: &mut [u64], bits: u32) {
    out.fill(0);
    for i in 0..bits as usize {
        let p = at + i;
        if flat[p / 64] >> (p % 64) & 1 != 0 {
            out[i / 64] |= 1 << (i % 64);
        }
    }
}
