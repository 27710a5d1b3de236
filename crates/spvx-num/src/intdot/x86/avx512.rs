//! AVX-512 VNNI kernels: `vpdpbusd` multiplies unsigned bytes of its first source by signed
//! bytes of its second and adds groups of four to i32 exactly (see `x86.rs` for the identities
//! used for the signed and unsigned kinds).

use std::arch::x86_64::*;

use super::super::{DotKind, portable};

const LANES: usize = 16;

#[inline]
#[target_feature(enable = "avx512f,avx512vnni")]
fn dot(kind: DotKind, a: __m512i, b: __m512i) -> __m512i {
    let zero = _mm512_setzero_si512();
    let bias = _mm512_set1_epi8(0x80u8 as i8);
    match kind {
        DotKind::Mixed => _mm512_dpbusd_epi32(zero, b, a),
        DotKind::Signed => _mm512_sub_epi32(
            _mm512_dpbusd_epi32(zero, _mm512_xor_si512(a, bias), b),
            _mm512_dpbusd_epi32(zero, bias, b),
        ),
        DotKind::Unsigned => _mm512_sub_epi32(
            _mm512_dpbusd_epi32(zero, a, _mm512_xor_si512(b, bias)),
            _mm512_dpbusd_epi32(zero, a, bias),
        ),
    }
}

#[inline]
#[target_feature(enable = "avx512f,avx512vnni")]
fn acc_sat(kind: DotKind, acc: __m512i, a: __m512i, b: __m512i) -> __m512i {
    if kind == DotKind::Mixed {
        return _mm512_dpbusds_epi32(acc, b, a);
    }
    let dot = dot(kind, a, b);
    let sum = _mm512_add_epi32(acc, dot);
    if kind.result_signed() {
        let t = _mm512_and_si512(_mm512_xor_si512(acc, sum), _mm512_xor_si512(dot, sum));
        let overflow = _mm512_cmplt_epi32_mask(t, _mm512_setzero_si512());
        let bound = _mm512_xor_si512(_mm512_srai_epi32::<31>(acc), _mm512_set1_epi32(i32::MAX));
        _mm512_mask_mov_epi32(sum, overflow, bound)
    } else {
        let overflow = _mm512_cmplt_epu32_mask(sum, acc);
        _mm512_mask_mov_epi32(sum, overflow, _mm512_set1_epi32(-1))
    }
}

/// # Safety
/// The CPU must support AVX-512F and AVX-512 VNNI; `a`, `b` and `out` must have the same length.
#[inline]
#[target_feature(enable = "avx512f,avx512vnni")]
unsafe fn plain_loop(kind: DotKind, a: &[u32], b: &[u32], out: &mut [u32]) {
    let len = out.len().min(a.len()).min(b.len());
    let mut i = 0;
    while i + LANES <= len {
        // SAFETY: i + 16 <= len of every slice, so each 64-byte access is in bounds.
        unsafe {
            let va = _mm512_loadu_si512(a.as_ptr().add(i).cast());
            let vb = _mm512_loadu_si512(b.as_ptr().add(i).cast());
            _mm512_storeu_si512(out.as_mut_ptr().add(i).cast(), dot(kind, va, vb));
        }
        i += LANES;
    }
    portable::plain(kind, &a[i..len], &b[i..len], &mut out[i..len]);
}

/// # Safety
/// The CPU must support AVX-512F and AVX-512 VNNI; all slices must have the same length.
#[inline]
#[target_feature(enable = "avx512f,avx512vnni")]
unsafe fn accumulate_loop(kind: DotKind, a: &[u32], b: &[u32], acc: &[u32], out: &mut [u32]) {
    let len = out.len().min(a.len()).min(b.len()).min(acc.len());
    let mut i = 0;
    while i + LANES <= len {
        // SAFETY: i + 16 <= len of every slice, so each 64-byte access is in bounds.
        unsafe {
            let va = _mm512_loadu_si512(a.as_ptr().add(i).cast());
            let vb = _mm512_loadu_si512(b.as_ptr().add(i).cast());
            let vc = _mm512_loadu_si512(acc.as_ptr().add(i).cast());
            let r = acc_sat(kind, vc, va, vb);
            _mm512_storeu_si512(out.as_mut_ptr().add(i).cast(), r);
        }
        i += LANES;
    }
    portable::accumulate(kind, &a[i..len], &b[i..len], &acc[i..len], &mut out[i..len]);
}

/// Plain form, AVX-512 VNNI.
///
/// # Safety
/// The CPU must support AVX-512F and AVX-512 VNNI; `a`, `b` and `out` must have the same length.
#[target_feature(enable = "avx512f,avx512vnni")]
pub(in crate::intdot) unsafe fn plain(kind: DotKind, a: &[u32], b: &[u32], out: &mut [u32]) {
    dispatch_kind!(plain_loop, kind, a, b, out)
}

/// AccSat form, AVX-512 VNNI.
///
/// # Safety
/// The CPU must support AVX-512F and AVX-512 VNNI; all slices must have the same length.
#[target_feature(enable = "avx512f,avx512vnni")]
pub(in crate::intdot) unsafe fn accumulate(
    kind: DotKind,
    a: &[u32],
    b: &[u32],
    acc: &[u32],
    out: &mut [u32],
) {
    dispatch_kind!(accumulate_loop, kind, a, b, acc, out)
}
