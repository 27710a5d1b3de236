//! x86-64 SIMD kernels of the packed 4×8 slice functions (32-bit results): AVX2 and AVX-512
//! VNNI. Each kernel handles whole vectors and leaves the tail to the portable kernel. The
//! callers in `slice.rs` check the slice lengths and detect the CPU features first; the only
//! `unsafe` operations here are those entry points and the unaligned loads/stores, whose
//! pointers stay within the slices (`i + LANES <= len`).
//!
//! How each kind is computed exactly:
//! - AVX2: bytes are widened to 16-bit lanes (even and odd bytes apart, sign- or zero-extended
//!   per vector) and multiplied with `vpmaddwd`; |byte products| ≤ 65025 and pair sums fit in
//!   i32, so nothing wraps.
//! - AVX-512 VNNI: `vpdpbusd` multiplies unsigned bytes of its first source by signed bytes of
//!   its second and adds groups of four to i32 exactly. Mixed = vpdpbusd(b, a).
//!   Signed: a·b = (a+128)·b − 128·b, and a+128 is `a XOR 0x80` read unsigned.
//!   Unsigned: a·b = a·(b−128) + 128·a, and b−128 is `b XOR 0x80` read signed.
//!   AccSat Mixed uses `vpdpbusds` (one saturation of acc + the exact four-product sum);
//!   the other kinds add the exact dot product to acc with a saturating 32-bit add.

use std::arch::x86_64::*;

use super::{DotKind, portable};

const AVX2_LANES: usize = 8;
const AVX512_LANES: usize = 16;

#[inline]
#[target_feature(enable = "avx2")]
fn avx2_widen(v: __m256i, signed: bool) -> (__m256i, __m256i) {
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
fn avx2_dot(kind: DotKind, a: __m256i, b: __m256i) -> __m256i {
    let (a_even, a_odd) = avx2_widen(a, kind.vector1_signed());
    let (b_even, b_odd) = avx2_widen(b, kind.vector2_signed());
    _mm256_add_epi32(
        _mm256_madd_epi16(a_even, b_even),
        _mm256_madd_epi16(a_odd, b_odd),
    )
}

#[inline]
#[target_feature(enable = "avx2")]
fn avx2_acc_sat(kind: DotKind, acc: __m256i, dot: __m256i) -> __m256i {
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
unsafe fn avx2_plain_loop(kind: DotKind, a: &[u32], b: &[u32], out: &mut [u32]) {
    let len = out.len().min(a.len()).min(b.len());
    let mut i = 0;
    while i + AVX2_LANES <= len {
        // SAFETY: i + 8 <= len of every slice, so each 32-byte access is in bounds.
        unsafe {
            let va = _mm256_loadu_si256(a.as_ptr().add(i).cast());
            let vb = _mm256_loadu_si256(b.as_ptr().add(i).cast());
            _mm256_storeu_si256(out.as_mut_ptr().add(i).cast(), avx2_dot(kind, va, vb));
        }
        i += AVX2_LANES;
    }
    portable::plain(kind, &a[i..len], &b[i..len], &mut out[i..len]);
}

/// # Safety
/// The CPU must support AVX2; all slices must have the same length.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn avx2_accumulate_loop(kind: DotKind, a: &[u32], b: &[u32], acc: &[u32], out: &mut [u32]) {
    let len = out.len().min(a.len()).min(b.len()).min(acc.len());
    let mut i = 0;
    while i + AVX2_LANES <= len {
        // SAFETY: i + 8 <= len of every slice, so each 32-byte access is in bounds.
        unsafe {
            let va = _mm256_loadu_si256(a.as_ptr().add(i).cast());
            let vb = _mm256_loadu_si256(b.as_ptr().add(i).cast());
            let vc = _mm256_loadu_si256(acc.as_ptr().add(i).cast());
            let r = avx2_acc_sat(kind, vc, avx2_dot(kind, va, vb));
            _mm256_storeu_si256(out.as_mut_ptr().add(i).cast(), r);
        }
        i += AVX2_LANES;
    }
    portable::accumulate(kind, &a[i..len], &b[i..len], &acc[i..len], &mut out[i..len]);
}

#[inline]
#[target_feature(enable = "avx512f,avx512vnni")]
fn avx512_dot(kind: DotKind, a: __m512i, b: __m512i) -> __m512i {
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
fn avx512_acc_sat(kind: DotKind, acc: __m512i, a: __m512i, b: __m512i) -> __m512i {
    if kind == DotKind::Mixed {
        return _mm512_dpbusds_epi32(acc, b, a);
    }
    let dot = avx512_dot(kind, a, b);
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
unsafe fn avx512_plain_loop(kind: DotKind, a: &[u32], b: &[u32], out: &mut [u32]) {
    let len = out.len().min(a.len()).min(b.len());
    let mut i = 0;
    while i + AVX512_LANES <= len {
        // SAFETY: i + 16 <= len of every slice, so each 64-byte access is in bounds.
        unsafe {
            let va = _mm512_loadu_si512(a.as_ptr().add(i).cast());
            let vb = _mm512_loadu_si512(b.as_ptr().add(i).cast());
            _mm512_storeu_si512(out.as_mut_ptr().add(i).cast(), avx512_dot(kind, va, vb));
        }
        i += AVX512_LANES;
    }
    portable::plain(kind, &a[i..len], &b[i..len], &mut out[i..len]);
}

/// # Safety
/// The CPU must support AVX-512F and AVX-512 VNNI; all slices must have the same length.
#[inline]
#[target_feature(enable = "avx512f,avx512vnni")]
unsafe fn avx512_accumulate_loop(
    kind: DotKind,
    a: &[u32],
    b: &[u32],
    acc: &[u32],
    out: &mut [u32],
) {
    let len = out.len().min(a.len()).min(b.len()).min(acc.len());
    let mut i = 0;
    while i + AVX512_LANES <= len {
        // SAFETY: i + 16 <= len of every slice, so each 64-byte access is in bounds.
        unsafe {
            let va = _mm512_loadu_si512(a.as_ptr().add(i).cast());
            let vb = _mm512_loadu_si512(b.as_ptr().add(i).cast());
            let vc = _mm512_loadu_si512(acc.as_ptr().add(i).cast());
            let r = avx512_acc_sat(kind, vc, va, vb);
            _mm512_storeu_si512(out.as_mut_ptr().add(i).cast(), r);
        }
        i += AVX512_LANES;
    }
    portable::accumulate(kind, &a[i..len], &b[i..len], &acc[i..len], &mut out[i..len]);
}

/// Calls `$loop` with `kind` as a constant in each arm, so that the inlined loop is specialised
/// per kind (no per-vector branch on the kind).
macro_rules! dispatch_kind {
    ($loop:ident, $kind:expr, $($arg:expr),*) => {
        match $kind {
            // SAFETY (all arms): forwarded from the caller's contract.
            DotKind::Signed => unsafe { $loop(DotKind::Signed, $($arg),*) },
            DotKind::Unsigned => unsafe { $loop(DotKind::Unsigned, $($arg),*) },
            DotKind::Mixed => unsafe { $loop(DotKind::Mixed, $($arg),*) },
        }
    };
}

/// Plain form, AVX2.
///
/// # Safety
/// The CPU must support AVX2; `a`, `b` and `out` must have the same length.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn avx2_plain(kind: DotKind, a: &[u32], b: &[u32], out: &mut [u32]) {
    dispatch_kind!(avx2_plain_loop, kind, a, b, out)
}

/// AccSat form, AVX2.
///
/// # Safety
/// The CPU must support AVX2; all slices must have the same length.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn avx2_accumulate(
    kind: DotKind,
    a: &[u32],
    b: &[u32],
    acc: &[u32],
    out: &mut [u32],
) {
    dispatch_kind!(avx2_accumulate_loop, kind, a, b, acc, out)
}

/// Plain form, AVX-512 VNNI.
///
/// # Safety
/// The CPU must support AVX-512F and AVX-512 VNNI; `a`, `b` and `out` must have the same length.
#[target_feature(enable = "avx512f,avx512vnni")]
pub(super) unsafe fn avx512_plain(kind: DotKind, a: &[u32], b: &[u32], out: &mut [u32]) {
    dispatch_kind!(avx512_plain_loop, kind, a, b, out)
}

/// AccSat form, AVX-512 VNNI.
///
/// # Safety
/// The CPU must support AVX-512F and AVX-512 VNNI; all slices must have the same length.
#[target_feature(enable = "avx512f,avx512vnni")]
pub(super) unsafe fn avx512_accumulate(
    kind: DotKind,
    a: &[u32],
    b: &[u32],
    acc: &[u32],
    out: &mut [u32],
) {
    dispatch_kind!(avx512_accumulate_loop, kind, a, b, acc, out)
}
