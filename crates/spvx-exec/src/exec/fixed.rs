//! The eleven fixed-point functions of SPV_INTEL_arbitrary_precision_fixed_point, through
//! `spvx_num::fixed::evaluate` (exact value quantized under Q and O), lane by lane. Special
//! inputs get spvx-num's documented result and are reported.

use super::{Ctx, Stop, lanes, low_bits};
use crate::program::{FixedResult, Slot};
use crate::report::UbKind;
use num_bigint::BigUint;
use num_traits::ToPrimitive;
use spvx_num::fixed::{FixedOp, FixedValue, evaluate};

/// Runs a fixed-point function.
pub fn fixed(
    cx: &mut Ctx,
    op: &FixedOp,
    result: FixedResult,
    dst: Slot,
    src: Slot,
) -> Result<(), Stop> {
    let rw = op.result_width;
    let m = low_bits(rw);
    for l in lanes(cx.mask) {
        let input = BigUint::from(cx.get(src, l) & low_bits(op.input_width));
        let (sin, cos) = match evaluate(op, &input) {
            Ok(o) => {
                if let Some(e) = o.exception {
                    cx.report(UbKind::FixedPoint(e.description().to_string()), l)?;
                }
                match o.value {
                    FixedValue::Single(v) => (v.to_u64().unwrap_or(0), 0),
                    FixedValue::Pair { sin, cos } => {
                        (sin.to_u64().unwrap_or(0), cos.to_u64().unwrap_or(0))
                    }
                }
            }
            Err(e) => {
                cx.report(UbKind::FixedPoint(e.to_string()), l)?;
                (0, 0)
            }
        };
        match result {
            FixedResult::Single => cx.set(dst, l, sin & m),
            FixedResult::Vector => {
                cx.set(dst, l, sin & m);
                cx.set(dst + 1, l, cos & m);
            }
            FixedResult::Packed => cx.set(dst, l, ((sin & m) << rw) | (cos & m)),
        }
    }
    Ok(())
}
