//! The VALVE mixed float dot products (SPV_VALVE_mixed_float_dot_product), through
//! `spvx_num::mixdot` under the run's accumulation model (`RunConfig::mixdot`, default
//! `exact`: one rounding of the exact sum).

use crate::exec::ctx::Ctx;
use crate::exec::mask::lanes;
use crate::program::Slot;
use spvx_num::mixdot::{Fp8Encoding, Half16Encoding, MixOp, dot2_acc16, dot2_acc32, dot4_acc32};

/// Runs one VALVE dot product: `a`, `b` are the first slots of the vectors.
#[allow(clippy::too_many_arguments)]
pub fn mix_dot(
    cx: &mut Ctx,
    op: MixOp,
    half: Half16Encoding,
    fp8: [Fp8Encoding; 2],
    dst: Slot,
    a: Slot,
    b: Slot,
    acc: Slot,
) {
    let model = cx.cfg.mixdot;
    for l in lanes(cx.mask) {
        let c = cx.get(acc, l);
        let v = match op {
            MixOp::Dot2Acc32 => {
                let x = [cx.get(a, l) as u16, cx.get(a + 1, l) as u16];
                let y = [cx.get(b, l) as u16, cx.get(b + 1, l) as u16];
                dot2_acc32(half, x, y, c as u32, &model) as u64
            }
            MixOp::Dot2Acc16 => {
                let x = [cx.get(a, l) as u16, cx.get(a + 1, l) as u16];
                let y = [cx.get(b, l) as u16, cx.get(b + 1, l) as u16];
                dot2_acc16(half, x, y, c as u16, &model) as u64
            }
            MixOp::Dot4Acc32 => {
                let x = [0, 1, 2, 3].map(|i| cx.get(a + i, l) as u8);
                let y = [0, 1, 2, 3].map(|i| cx.get(b + i, l) as u8);
                dot4_acc32(fp8[0], fp8[1], x, y, c as u32, &model) as u64
            }
        };
        cx.set(dst, l, v);
    }
}
