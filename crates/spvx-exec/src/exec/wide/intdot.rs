//! Integer dot products with a result wider than 64 bits (SPV_KHR_integer_dot_product over
//! SPV_INTEL_arbitrary_precision_integers): exact, through spvx-num's any-width forms
//! (`DotSpec::dot_wide`, `DotSpec::dot_acc_sat_wide`); the AccSat undefined case is reported
//! as for narrow results (docs/semantics/integer-dot.md).

use super::regs::{read, write};
use crate::exec::ctx::{Ctx, Stop};
use crate::exec::limbs;
use crate::exec::mask::lanes;
use crate::program::wide::WideInst;
use crate::report::UbKind;
use spvx_num::intdot::{DotSpec, unpack4x8};

/// Runs the dot product on the active lanes (`count == 0`: packed 4×8 words).
pub(super) fn int_dot(
    cx: &mut Ctx,
    w: &WideInst,
    spec: &DotSpec,
    count: u8,
    acc: bool,
) -> Result<(), Stop> {
    let bits = spec.result_bits();
    let k = limbs::limbs(bits);
    let (mut c, mut d) = (vec![0; k], vec![0; k]);
    let n = if count == 0 { 4 } else { count as usize };
    let (mut x, mut y) = (vec![0u64; n], vec![0u64; n]);
    for l in lanes(cx.mask) {
        if count == 0 {
            x.copy_from_slice(&unpack4x8(cx.get(w.a, l) as u32));
            y.copy_from_slice(&unpack4x8(cx.get(w.b, l) as u32));
        } else {
            for i in 0..n {
                x[i] = cx.get(w.a + i as u32, l);
                y[i] = cx.get(w.b + i as u32, l);
            }
        }
        let value = if acc {
            read(cx, w.c, l, bits, &mut c);
            match spec.dot_acc_sat_wide(&x, &y, &limbs::to_big(&c)) {
                Ok(r) => {
                    if let Some(u) = r.undefined {
                        cx.report(UbKind::AccSatOverflow(u), l)?;
                    }
                    Some(r.value)
                }
                Err(_) => None,
            }
        } else {
            spec.dot_wide(&x, &y).ok()
        };
        match value {
            Some(v) => limbs::from_big(&mut d, &v, bits),
            // (Lengths and the accumulator's width are fixed by the compiler: unreachable.)
            None => d.fill(0),
        }
        write(cx, w.dst, l, &d);
    }
    Ok(())
}
