//! AVX-VNNI kernels (the 256-bit VEX form of `vpdpbusd`, on CPUs such as Alder Lake that have
//! it without AVX-512): the same identities as the AVX-512 VNNI kernels, 8 words per step, and
//! the AVX2 saturating add.

use std::arch::x86_64::*;

use super::super::{DotKind, portable};
use super::avx2;

const LANES: usize = 8;

#[inline]
#[target_feature(enable = "avx2,avxvnni")]
fn dot(kind: DotKind, a: __m256i, b: __m256i) -> __m256i {
    let zero = _mm256_setzero_si256();
    let bias = _mm256_set1_epi8(0x80u8 as i8);
    match kind {
        DotKind::Mixed => _mm256_dpbusd_avx_epi32(zero, b, a),
        DotKind::Signed => _mm256_sub_epi32(
            _mm256_dpbusd_avx_epi32(zero, _mm256_xor_si256(a, bias), b),
            _mm256_dpbusd_avx_epi32(zero, bias, b),
        ),
        DotKind::Unsigned => _mm256_sub_epi32(
            _mm256_dpbusd_avx_epi32(zero, a, _mm256_xor_si256(b, bias)),
            _mm256_dpbusd_avx_epi32(zero, a, bias),
        ),
    }
}

#[inline]
#[target_feature(enable = "avx2,avxvnni")]
fn acc_sat(kind: DotKind, acc: __m256i, a: __m256i, b: __m256i) -> __m256i {
    if kind == DotKind::Mixed {
        return _mm256_dpbusds_avx_epi32(acc, b, a);
    }
    avx2::acc_sat(kind, acc, dot(kind, a, b))
}

#[inline]
#[target_feature(enable = "avx2,avxvnni")]
unsafe fn plain_loop(kind: DotKind, a: &[u32], b: &[u32], out: &mut [u32]) {
    let len = out.len().min(a.len()).min(b.len());
    let mut i = 0;
    while i + LANES <= len {
        // SAFETY: i + 8 <= len of every slice, so each 32-byte access is in bounds.
        unsafe {
            let va = _mm256_loadu_si256(a.as_ptr().add(i).cast());
            let vb = _mm256_loadu_si256(b.as_ptr().add(i).cast());
            _mm256_storeu_si256(out.as_mut_ptr().add(i).cast(), dot(kind, va, vb));
        }
        i += LANES;
    }
    portable::plain(kind, &a[i..len], &b[i..len], &mut out[i..len]);
}

#[inline]
#[target_feature(enable = "avx2,avxvnni")]
unsafe fn accumulate_loop(kind: DotKind, a: &[u32], b: &[u32], acc: &[u32], out: &mut [u32]) {
    let len = out.len().min(a.len()).min(b.len()).min(acc.len());
    let mut i = 0;
    while i + LANES <= len {
        // SAFETY: i + 8 <= len of every slice, so each 32-byte access is in bounds.
        unsafe {
            let va = _mm256_loadu_si256(a.as_ptr().add(i).cast());
            let vb = _mm256_loadu_si256(b.as_ptr().add(i).cast());
            let vc = _mm256_loadu_si256(acc.as_ptr().add(i).cast());
            _mm256_storeu_si256(out.as_mut_ptr().add(i).cast(), acc_sat(kind, vc, va, vb));
        }
        i += LANES;
    }
    portable::accumulate(kind, &a[i..len], &b[i..len], &acc[i..len], &mut out[i..len]);
}

/// Plain form, AVX-VNNI.
///
/// # Safety
/// The CPU must support AVX2 and AVX-VNNI; `a`, `b` and `out` must have the same length.
#[target_feature(enable = "avx2,avxvnni")]
pub(in crate::intdot) unsafe fn plain(kind: DotKind, a: &[u32], b: &[u32], out: &mut [u32]) {
    dispatch_kind!(plain_loop, kind, a, b, out)
}

/// AccSat form, AVX-VNNI.
///
/// # Safety
/// The CPU must support AVX2 and AVX-VNNI; all slices must have the same length.
#[target_feature(enable = "avx2,avxvnni")]
pub(in crate::intdot) unsafe fn accumulate(
    kind: DotKind,
    a: &[u32],
    b: &[u32],
    acc: &[u32],
    out: &mut [u32],
) {
    dispatch_kind!(accumulate_loop, kind, a, b, acc, out)
}
