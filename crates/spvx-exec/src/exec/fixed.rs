//! The eleven fixed-point functions of SPV_INTEL_arbitrary_precision_fixed_point, through
//! `spvx_num::fixed::evaluate` (exact value quantized under Q and O), lane by lane. Special
//! inputs get spvx-num's documented result and are reported.

use crate::exec::ctx::{Ctx, Stop};
use crate::exec::limbs::{from_big, limbs, normalise, to_big};
use crate::exec::mask::lanes;
use crate::program::{FixedResult, Slot};
use crate::report::UbKind;
use num_bigint::BigUint;
use spvx_num::fixed::{FixedOp, FixedValue, evaluate};

/// Runs a fixed-point function. Input and result may be wider than 64 bits: a value of `w`
/// bits is `ceil(w / 64)` registers, little-endian 64-bit limbs (`program::wide`).
pub fn fixed(
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
