//! Integer arithmetic: OpIAdd, OpISub, OpIMul, the divisions and remainders, and the
//! two-result forms (OpIAddCarry, OpISubBorrow, OpUMulExtended, OpSMulExtended).
//!
//! Values are `bits`-bit patterns zero-extended in 64-bit registers; results are reduced
//! modulo 2^bits. Division by zero and signed `MIN / -1` are undefined in SPIR-V: spvx gives
//! 0 (quotient and remainder) for a zero divisor and `MIN` (remainder 0) for the overflow, and
//! reports the event.

use super::bitwise;
use crate::bits::{low_bits, sext};
use crate::exec::ctx::{Ctx, Stop};
use crate::exec::mask::lanes;
use crate::program::{IBinOp, IWideOp, Slot};
use crate::report::UbKind;

/// Runs a two-operand integer operation.
pub fn ibin(cx: &mut Ctx, op: IBinOp, bits: u32, dst: Slot, a: Slot, b: Slot) -> Result<(), Stop> {
    let m = low_bits(bits);
    match op {
        IBinOp::Add if bits == 32 => {
            cx.pure2(dst, a, b, |x, y| (x as u32).wrapping_add(y as u32) as u64)
        }
        IBinOp::Sub if bits == 32 => {
            cx.pure2(dst, a, b, |x, y| (x as u32).wrapping_sub(y as u32) as u64)
        }
        IBinOp::Mul if bits == 32 => {
            cx.pure2(dst, a, b, |x, y| (x as u32).wrapping_mul(y as u32) as u64)
        }
        IBinOp::Add => cx.pure2(dst, a, b, |x, y| x.wrapping_add(y) & m),
        IBinOp::Sub => cx.pure2(dst, a, b, |x, y| x.wrapping_sub(y) & m),
        IBinOp::Mul => cx.pure2(dst, a, b, |x, y| x.wrapping_mul(y) & m),
        IBinOp::And => cx.pure2(dst, a, b, |x, y| x & y),
        IBinOp::Or => cx.pure2(dst, a, b, |x, y| x | y),
        IBinOp::Xor => cx.pure2(dst, a, b, |x, y| x ^ y),
        IBinOp::Shl | IBinOp::ShrLogical | IBinOp::ShrArith => {
            return bitwise::shift(cx, op, bits, dst, a, b);
        }
        IBinOp::UDiv | IBinOp::SDiv | IBinOp::UMod | IBinOp::SRem | IBinOp::SMod => {
            return divide(cx, op, bits, dst, a, b);
        }
    }
    Ok(())
}

/// Divisions and remainders, lane by lane (they can report).
fn divide(cx: &mut Ctx, op: IBinOp, bits: u32, dst: Slot, a: Slot, b: Slot) -> Result<(), Stop> {
    let m = low_bits(bits);
    let min = sext(1u64 << (bits - 1), bits);
    for l in lanes(cx.mask) {
        let (x, y) = (cx.get(a, l), cx.get(b, l));
        let (sx, sy) = (sext(x, bits), sext(y, bits));
        let undefined = match op {
            IBinOp::UDiv | IBinOp::UMod => y == 0,
            _ => sy == 0 || (op == IBinOp::SDiv && sx == min && sy == -1),
        };
        let r = if y == 0 {
            0
        } else {
            match op {
                IBinOp::UDiv => x.checked_div(y).unwrap_or(0),
                IBinOp::UMod => x.checked_rem(y).unwrap_or(0),
                IBinOp::SDiv => sx.wrapping_div(sy) as u64,
                IBinOp::SRem => sx.wrapping_rem(sy) as u64,
                _ => {
                    // OpSMod: the sign of the divisor.
                    let r = sx.wrapping_rem(sy);
                    if r != 0 && ((r < 0) != (sy < 0)) {
                        r.wrapping_add(sy) as u64
                    } else {
                        r as u64
                    }
                }
            }
        };
        cx.set(dst, l, r & m);
        if undefined {
            cx.report(UbKind::DivisionByZero, l)?;
        }
    }
    Ok(())
}

/// The two-result operations.
pub fn iwide(cx: &mut Ctx, op: IWideOp, bits: u32, lo: Slot, hi: Slot, a: Slot, b: Slot) {
    let m = low_bits(bits);
    for l in lanes(cx.mask) {
        let (x, y) = (cx.get(a, l), cx.get(b, l));
        let (r0, r1) = match op {
            IWideOp::AddCarry => {
                let s = x as u128 + y as u128;
                (s as u64 & m, ((s >> bits) & 1) as u64)
            }
            IWideOp::SubBorrow => (x.wrapping_sub(y) & m, (x < y) as u64),
            IWideOp::UMulExtended => {
                let p = x as u128 * y as u128;
                (p as u64 & m, (p >> bits) as u64 & m)
            }
            IWideOp::SMulExtended => {
                let p = sext(x, bits) as i128 * sext(y, bits) as i128;
                (p as u64 & m, (p >> bits) as u64 & m)
            }
        };
        cx.set(lo, l, r0);
        cx.set(hi, l, r1);
    }
}
