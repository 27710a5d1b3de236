//! Reading and writing a wide integer's limbs in the registers of one lane (shared by the
//! wide-integer files).

use crate::exec::ctx::Ctx;
use crate::exec::limbs;
use crate::program::Slot;

/// Reads the `bits`-bit value at `slot` for `lane` into `out` (`limbs(bits)` long), normalised.
#[inline]
pub(super) fn read(cx: &Ctx, slot: Slot, lane: usize, bits: u32, out: &mut [u64]) {
    for (i, o) in out.iter_mut().enumerate() {
        *o = cx.get(slot + i as u32, lane);
    }
    limbs::normalise(out, bits);
}

/// The `bits`-bit unsigned value at `slot` for `lane`, saturated to `u64::MAX`.
#[inline]
pub(super) fn read_u64(cx: &Ctx, slot: Slot, lane: usize, bits: u32) -> u64 {
    let mut v = vec![0; limbs::limbs(bits)];
    read(cx, slot, lane, bits, &mut v);
    if v[1..].iter().any(|&x| x != 0) {
        u64::MAX
    } else {
        v[0]
    }
}

/// Writes the limbs `v` to the registers from `slot` for `lane`.
#[inline]
pub(super) fn write(cx: &mut Ctx, slot: Slot, lane: usize, v: &[u64]) {
    for (i, x) in v.iter().enumerate() {
        cx.set(slot + i as u32, lane, *x);
    }
}
