//! Portable kernels of the packed 4×8 slice functions (32-bit results). Also used for the
//! tails that the SIMD kernels leave over, so every backend shares these per-word rules.

use super::DotKind;

/// Exact dot product of two packed words; it always fits in `i32` (|R| ≤ 4·255·255).
#[inline]
pub(super) fn dot4x8(kind: DotKind, a: u32, b: u32) -> i32 {
    let (a, b) = (a.to_le_bytes(), b.to_le_bytes());
    let (s1, s2) = (kind.vector1_signed(), kind.vector2_signed());
    let ext = |byte: u8, signed: bool| -> i32 {
        if signed {
            i32::from(byte as i8)
        } else {
            i32::from(byte)
        }
    };
    (0..4).map(|i| ext(a[i], s1) * ext(b[i], s2)).sum()
}

/// Saturating 32-bit accumulation: signed range for SDot/SUDot, unsigned for UDot.
#[inline]
pub(super) fn acc_sat(kind: DotKind, acc: u32, dot: i32) -> u32 {
    if kind.result_signed() {
        let v = i64::from(acc as i32) + i64::from(dot);
        v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32 as u32
    } else {
        let v = i64::from(acc) + i64::from(dot);
        v.clamp(0, i64::from(u32::MAX)) as u32
    }
}

/// Plain form over slices of equal length (checked by the caller).
pub(super) fn plain(kind: DotKind, a: &[u32], b: &[u32], out: &mut [u32]) {
    // Each arm passes the kind as a constant, so the inlined loop is specialised per kind.
    match kind {
        DotKind::Signed => plain_loop(DotKind::Signed, a, b, out),
        DotKind::Unsigned => plain_loop(DotKind::Unsigned, a, b, out),
        DotKind::Mixed => plain_loop(DotKind::Mixed, a, b, out),
    }
}

#[inline(always)]
fn plain_loop(kind: DotKind, a: &[u32], b: &[u32], out: &mut [u32]) {
    for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
        *o = dot4x8(kind, x, y) as u32;
    }
}

/// AccSat form over slices of equal length (checked by the caller).
pub(super) fn accumulate(kind: DotKind, a: &[u32], b: &[u32], acc: &[u32], out: &mut [u32]) {
    match kind {
        DotKind::Signed => accumulate_loop(DotKind::Signed, a, b, acc, out),
        DotKind::Unsigned => accumulate_loop(DotKind::Unsigned, a, b, acc, out),
        DotKind::Mixed => accumulate_loop(DotKind::Mixed, a, b, acc, out),
    }
}

#[inline(always)]
fn accumulate_loop(kind: DotKind, a: &[u32], b: &[u32], acc: &[u32], out: &mut [u32]) {
    for (((o, &x), &y), &c) in out.iter_mut().zip(a).zip(b).zip(acc) {
        *o = acc_sat(kind, c, dot4x8(kind, x, y));
    }
}
