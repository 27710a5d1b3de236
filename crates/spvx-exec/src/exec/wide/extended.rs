//! The two-result instructions on integers wider than 64 bits: OpIAddCarry, OpISubBorrow
//! (result and carry/borrow 0 or 1) and OpUMulExtended, OpSMulExtended (the 2N-bit product's
//! low and high halves, the signed one as two's complement).

use super::regs::{read, write};
use crate::exec::ctx::Ctx;
use crate::exec::limbs;
use crate::exec::mask::lanes;
use crate::program::IWideOp;
use crate::program::wide::WideInst;
use num_bigint::{BigInt, BigUint, Sign};

/// Runs one two-result instruction: low part into `dst`, high part (or carry) into `c`.
pub fn extended(cx: &mut Ctx, w: &WideInst, op: IWideOp, bits: u32) {
    let k = limbs::limbs(bits);
    let (mut x, mut y, mut lo, mut hi) = (vec![0; k], vec![0; k], vec![0; k], vec![0; k]);
    for l in lanes(cx.mask) {
        read(cx, w.a, l, bits, &mut x);
        read(cx, w.b, l, bits, &mut y);
        hi.fill(0);
        match op {
            IWideOp::AddCarry => {
                limbs::add(&mut lo, &x, &y, bits);
                // A carry out of bit N−1: the truncated sum is below an operand.
                hi[0] = (limbs::cmp_unsigned(&lo, &x) == std::cmp::Ordering::Less) as u64;
            }
            IWideOp::SubBorrow => {
                limbs::sub(&mut lo, &x, &y, bits);
                hi[0] = (limbs::cmp_unsigned(&x, &y) == std::cmp::Ordering::Less) as u64;
            }
            IWideOp::UMulExtended | IWideOp::SMulExtended => {
                let p = if op == IWideOp::UMulExtended {
                    limbs::to_big(&x) * limbs::to_big(&y)
                } else {
                    let signed = |v: &[u64]| {
                        let u = BigInt::from_biguint(Sign::Plus, limbs::to_big(v));
                        if limbs::is_negative(v, bits) {
                            u - (BigInt::from(1u8) << bits)
                        } else {
                            u
                        }
                    };
                    let p = signed(&x) * signed(&y);
                    // The 2N-bit two's complement pattern of the product.
                    let m = BigInt::from(1u8) << (2 * bits);
                    let p = ((p % &m) + &m) % &m;
                    p.to_biguint().unwrap_or(BigUint::ZERO)
                };
                limbs::from_big(&mut lo, &p, bits);
                limbs::from_big(&mut hi, &(p >> bits), bits);
            }
        }
        write(cx, w.dst, l, &lo);
        write(cx, w.c, l, &hi);
    }
}
