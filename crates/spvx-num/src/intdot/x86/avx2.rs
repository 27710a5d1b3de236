//! AVX2 kernels: bytes are widened to 16-bit lanes (even and odd bytes apart, sign- or
//! zero-extended per vector) and multiplied with `vpmaddwd`; |byte products| ≤ 65025 and pair
//! sums fit in i32, so nothing wraps. The saturating 32-bit add is shared with the AVX-VNNI
//! kernels.

use std::arch::x86_64::*;

use super::super::{DotKind, portable};

const LANES: usize = 8;

#[inline]
#[target_feature(enable = "avx2")]
fn widen(v: __m256i, signed: bool) -> (__m256i, __m256i) {
    if signed {
        (
            _mm256_srai_epi16::<8>(_mm256_slli_epi16::<8>(v)),
            _mm256_srai_epi16::<8>(v),
        )
    } else {
        (
            _mm256_and_si256(v, _mm256_set1_epi16(0x00ff)),
            _mm256_srli_epi16::<8>(v),
        )
    }
}

#[inline]
#[target_feature(enable = "avx2")]
fn dot(kind: DotKind, a: __m256i, b: __m256i) -> __m256i {
    let (a_even, a_odd) = widen(a, kind.vector1_signed());
    let (b_even, b_odd) = widen(b, kind.vector2_signed());
    _mm256_add_epi32(
        _mm256_madd_epi16(a_even, b_even),
        _mm256_madd_epi16(a_odd, b_odd),
    )
}

#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn acc_sat(kind: DotKind, acc: __m256i, dot: __m256i) -> __m256i {
    let sum = _mm256_add_epi32(acc, dot);
    if kind.result_signed() {
        // Signed overflow iff acc and dot have the same sign and sum has the other one.
        let overflow = _mm256_srai_epi32::<31>(_mm256_and_si256(
            _mm256_xor_si256(acc, sum),
            _mm256_xor_si256(dot, sum),
        ));
        let bound = _mm256_xor_si256(_mm256_srai_epi32::<31>(acc), _mm256_set1_epi32(i32::MAX));
        _mm256_blendv_epi8(sum, bound, overflow)
    } else {
        // dot >= 0, so unsigned overflow iff sum < acc, i.e. max(sum, acc) != sum.
        let fits = _mm256_cmpeq_epi32(_mm256_max_epu32(sum, acc), sum);
        _mm256_or_si256(sum, _mm256_xor_si256(fits, _mm256_set1_epi32(-1)))
    }
}

/// # Safety
/// The CPU must support AVX2; `a`, `b` and `out` must have the same length.
#[inline]
#[target_feature(enable = "avx2")]
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

/// # Safety
/// The CPU must support AVX2; all slices must have the same length.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn accumulate_loop(kind: DotKind, a: &[u32], b: &[u32], acc: &[u32], out: &mut [u32]) {
    let len = out.len().min(a.len()).min(b.len()).min(acc.len());
    let mut i = 0;
    while i + LANES <= len {
        // SAFETY: i + 8 <= len of every slice, so each 32-byte access is in bounds.
        unsafe {
            let va = _mm256_loadu_si256(a.as_ptr().add(i).cast());
            let vb = _mm256_loadu_si256(b.as_ptr().add(i).cast());
            let vc = _mm256_loadu_si256(acc.as_ptr().add(i).cast());
            let r = acc_sat(kind, vc, dot(kind, va, vb));
            _mm256_storeu_si256(out.as_mut_ptr().add(i).cast(), r);
        }
        i += LANES;
    }
    portable::accumulate(kind, &a[i..len], &b[i..len], &acc[i..len], &mut out[i..len]);
}

/// Plain form, AVX2.
///
/// # Safety
/// The CPU must support AVX2; `a`, `b` and `out` must have the same length.
#[target_feature(enable = "avx2")]
pub(in crate::intdot) unsafe fn plain(kind: DotKind, a: &[u32], b: &[u32], out: &mut [u32]) {
    dispatch_kind!(plain_loop, kind, a, b, out)
}

/// AccSat form, AVX2.
///
/// # Safety
/// The CPU must support AVX2; all slices must have the same length.
#[target_feature(enable = "avx2")]
pub(in crate::intdot) unsafe fn accumulate(
    kind: DotKind,
    a: &[u32],
    b: &[u32],
    acc: &[u32],
    out: &mut [u32],
) {
    dispatch_kind!(accumulate_loop, kind, a, b, acc, out)
}
