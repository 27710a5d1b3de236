//! Integer dot products (SPV_KHR_integer_dot_product): OpSDot, OpUDot, OpSUDot and their
//! AccSat forms, vector and PackedVectorFormat4x8Bit, all through `spvx_num::intdot`.
//!
//! The packed forms with a 32-bit result run all lanes at once through spvx-num's slice
//! functions (SIMD backends). Those can never hit the AccSat undefined case: every product of
//! two 8-bit values and every partial sum of four lies within ±2^17, inside a 32-bit result.
//! Every other form runs lane by lane through `DotSpec::dot` / `DotSpec::dot_acc_sat`, and the
//! AccSat undefined case is reported (value: saturate(exact dot + accumulator)).

use crate::exec::ctx::{Ctx, Stop};
use crate::exec::mask::{full_mask, lanes};
use crate::program::Slot;
use crate::report::UbKind;
use spvx_num::intdot::{Backend, DotSpec, packed4x8_acc_sat_slice, packed4x8_slice, unpack4x8};

const MAX_LANES: usize = 64;

/// Runs an integer dot product (`count == 0`: packed 4×8 words).
pub fn int_dot(
    cx: &mut Ctx,
    spec: &DotSpec,
    dst: Slot,
    a: Slot,
    b: Slot,
    count: u8,
    acc: Option<Slot>,
) -> Result<(), Stop> {
    if count == 0 && spec.result_bits() == 32 && cx.mask == full_mask(cx.width) {
        return packed_wide(cx, spec, dst, a, b, acc);
    }
    let n = if count == 0 { 4 } else { count as usize };
    let mut va = [0u64; 64];
    let mut vb = [0u64; 64];
    let n = n.min(64);
    for l in lanes(cx.mask) {
        if count == 0 {
            va[..4].copy_from_slice(&unpack4x8(cx.get(a, l) as u32));
            vb[..4].copy_from_slice(&unpack4x8(cx.get(b, l) as u32));
        } else {
            for i in 0..n {
                va[i] = cx.get(a + i as u32, l);
                vb[i] = cx.get(b + i as u32, l);
            }
        }
        let (x, y) = (&va[..n], &vb[..n]);
        let value = match acc {
            None => spec.dot(x, y).unwrap_or(0),
            Some(s) => match spec.dot_acc_sat(x, y, cx.get(s, l)) {
                Ok(r) => {
                    if let Some(u) = r.undefined {
                        cx.report(UbKind::AccSatOverflow(u), l)?;
                    }
                    r.value
                }
                Err(_) => 0,
            },
        };
        cx.set(dst, l, value);
    }
    Ok(())
}

/// Packed 4×8 with a 32-bit result on all lanes: one slice call.
fn packed_wide(
    cx: &mut Ctx,
    spec: &DotSpec,
    dst: Slot,
    a: Slot,
    b: Slot,
    acc: Option<Slot>,
) -> Result<(), Stop> {
    let w = cx.width.min(MAX_LANES);
    let mut xa = [0u32; MAX_LANES];
    let mut xb = [0u32; MAX_LANES];
    let mut xc = [0u32; MAX_LANES];
    let mut out = [0u32; MAX_LANES];
    for l in 0..w {
        xa[l] = cx.get(a, l) as u32;
        xb[l] = cx.get(b, l) as u32;
        if let Some(s) = acc {
            xc[l] = cx.get(s, l) as u32;
        }
    }
    let backend = Backend::best();
    let r = match acc {
        None => packed4x8_slice(backend, spec.kind(), &xa[..w], &xb[..w], &mut out[..w]),
        Some(_) => packed4x8_acc_sat_slice(
            backend,
            spec.kind(),
            &xa[..w],
            &xb[..w],
            &xc[..w],
            &mut out[..w],
        ),
    };
    if r.is_err() {
        out = [0; MAX_LANES];
    }
    for (l, v) in out.iter().enumerate().take(w) {
        cx.set(dst, l, *v as u64);
    }
    Ok(())
}
