//! The eleven fixed-point functions of SPV_INTEL_arbitrary_precision_fixed_point. Input and
//! result widths up to 64 bits: the patterns of all active lanes in one
//! `spvx_num::fixed::evaluate_batch` call (u64 in, u64 out); wider formats, and an instruction
//! in which some lane fails (a resource limit of the exact path), lane by lane through
//! `spvx_num::fixed::evaluate` (exact value quantized under Q and O). The results are the same
//! either way; special inputs get spvx-num's documented result and are reported per lane, in
//! lane order, before that lane's result is written.

use crate::bits::low_bits;
use crate::exec::ctx::{Ctx, Stop};
use crate::exec::limbs::{from_big, limbs, normalise, to_big};
use crate::exec::mask::lanes;
use crate::program::{FixedResult, Slot};
use crate::report::UbKind;
use num_bigint::BigUint;
use spvx_num::fixed::{FixedOp, FixedValue, evaluate, evaluate_batch};

/// Runs a fixed-point function. Input and result may be wider than 64 bits: a value of `w`
/// bits is `ceil(w / 64)` registers, little-endian 64-bit limbs (`program::wide`).
pub fn fixed(
    cx: &mut Ctx,
    op: &FixedOp,
    result: FixedResult,
    dst: Slot,
    src: Slot,
) -> Result<(), Stop> {
    if op.input_width <= 64
        && op.result_width <= 64
        && let Some(done) = narrow(cx, op, result, dst, src)
    {
        return done;
    }
    lane_by_lane(cx, op, result, dst, src)
}

/// Most lanes of a subgroup (`RunConfig::subgroup_size` is at most 64).
const MAX_LANES: usize = 64;

/// W, rW ≤ 64: every active lane in one batch. None, with nothing written or reported, when
/// the batch fails (a lane's error, which [`lane_by_lane`] reports as before) or there are more
/// lanes than [`MAX_LANES`].
fn narrow(
    cx: &mut Ctx,
    op: &FixedOp,
    result: FixedResult,
    dst: Slot,
    src: Slot,
) -> Option<Result<(), Stop>> {
    let mut active = [0usize; MAX_LANES];
    let mut inputs = [0u64; MAX_LANES];
    let mut n = 0;
    for l in lanes(cx.mask) {
        if n == MAX_LANES {
            return None;
        }
        active[n] = l;
        inputs[n] = cx.get(src, l) & low_bits(op.input_width);
        n += 1;
    }
    let per = op.function.components();
    let mut out = [0u64; 2 * MAX_LANES];
    let stats = evaluate_batch(op, &inputs[..n], &mut out[..n * per]).ok()?;
    let (rw, mask) = (op.result_width, low_bits(op.result_width));
    let mut exceptions = stats.exceptions.into_iter().peekable();
    let mut write = || {
        for (k, &l) in active[..n].iter().enumerate() {
            while let Some((_, e)) = exceptions.next_if(|&(i, _)| i == k) {
                cx.report(UbKind::FixedPoint(e.description().to_string()), l)?;
            }
            let (sin, cos) = if per == 2 {
                (out[2 * k] & mask, out[2 * k + 1] & mask)
            } else {
                (out[k] & mask, 0)
            };
            match result {
                FixedResult::Single => cx.set(dst, l, sin),
                FixedResult::Vector => {
                    cx.set(dst, l, sin);
                    cx.set(dst + 1, l, cos);
                }
                FixedResult::Packed => {
                    // 2·rW bits: one or two registers.
                    let packed = (u128::from(sin) << rw) | u128::from(cos);
                    cx.set(dst, l, packed as u64);
                    if limbs(2 * rw) == 2 {
                        cx.set(dst + 1, l, (packed >> 64) as u64);
                    }
                }
            }
        }
        Ok(())
    };
    Some(write())
}

/// Every active lane by `evaluate` on big integers (any width).
fn lane_by_lane(
    cx: &mut Ctx,
    op: &FixedOp,
    result: FixedResult,
    dst: Slot,
    src: Slot,
) -> Result<(), Stop> {
    let rw = op.result_width;
    let in_limbs = limbs(op.input_width);
    let mut input_limbs = vec![0u64; in_limbs];
    for l in lanes(cx.mask) {
        for (i, x) in input_limbs.iter_mut().enumerate() {
            *x = cx.get(src + i as u32, l);
        }
        normalise(&mut input_limbs, op.input_width);
        let input = to_big(&input_limbs);
        let zero = BigUint::ZERO;
        let outcome = evaluate(op, &input);
        let (sin, cos) = match &outcome {
            Ok(o) => {
                if let Some(e) = o.exception {
                    cx.report(UbKind::FixedPoint(e.description().to_string()), l)?;
                }
                match &o.value {
                    FixedValue::Single(v) => (v, &zero),
                    FixedValue::Pair { sin, cos } => (sin, cos),
                }
            }
            Err(e) => {
                cx.report(UbKind::FixedPoint(e.to_string()), l)?;
                (&zero, &zero)
            }
        };
        match result {
            FixedResult::Single => put(cx, dst, l, sin, rw),
            FixedResult::Vector => {
                put(cx, dst, l, sin, rw);
                put(cx, dst + limbs(rw) as u32, l, cos, rw);
            }
            FixedResult::Packed => {
                let mask = (BigUint::from(1u8) << rw) - 1u8;
                let packed = ((sin & &mask) << rw) | (cos & &mask);
                put(cx, dst, l, &packed, 2 * rw);
            }
        }
    }
    Ok(())
}

/// Writes `v` modulo 2^bits into the registers from `slot` for `lane`.
fn put(cx: &mut Ctx, slot: Slot, lane: usize, v: &BigUint, bits: u32) {
    let mut out = vec![0u64; limbs(bits)];
    from_big(&mut out, v, bits);
    for (i, x) in out.into_iter().enumerate() {
        cx.set(slot + i as u32, lane, x);
    }
}
