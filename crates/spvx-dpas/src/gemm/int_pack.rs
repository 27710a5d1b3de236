//! Packing of the integer fast GEMM's operands (see `int` for the shifts), and the row and
//! column sums that undo the shifts:
//!
//! - A' row-major, one dword per row and k-group of 4 (element 4g + t in byte t), rows
//!   [`lda_of`] dwords apart, one row block at a time and padded to whole MR-row panels; the
//!   kernels broadcast one dword per row and k-group straight from these rows.
//! - B' in NR-column panels: dword (panel·kg + g)·NR + c holds B'[4g..4g+4][panel·NR + c].
//!
//! K is padded to whole k-groups with the shifted zero, the columns of the last B panel past N
//! and the rows of the last A panel past M likewise. Two implementations with the same
//! output: plain Rust, and AVX-512 (BW + VNNI: one masked 64-byte load per row piece, the
//! shift as one xor and one byte add, the sums by `vpdpbusd` against ones), chosen by the
//! caller with the micro-kernel ([`IntKernel`]), so that every kernel's test covers its
//! packing.

use rayon::prelude::*;

use super::int_kernel::{IntKernel, NR};
use crate::matrix::ElementMatrix;

/// Converts element bit patterns to bytes `value − offset` (u8 for A with offset α, the bits
/// of an i8 for B with offset β): byte = ((x & mask) ^ flip) + add (mod 256), where
/// (x ^ m) − m with m = 2^(w−1) sign-extends a w-bit pattern x.
#[derive(Clone, Copy)]
pub(super) struct ByteMap {
    mask: u8,
    flip: u8,
    add: u8,
}

impl ByteMap {
    pub(super) fn new(m: &ElementMatrix, offset: i32) -> ByteMap {
        let p = m.precision();
        let w = p.bits().clamp(1, 8);
        let mask = (0xffu32 >> (8 - w)) as u8;
        let sign = if p.is_signed_integer() {
            1i32 << (w - 1)
        } else {
            0
        };
        ByteMap {
            mask,
            flip: sign as u8,
            add: (-sign).wrapping_sub(offset) as u8,
        }
    }

    /// The byte of one pattern.
    #[inline(always)]
    pub(super) fn byte(self, x: u8) -> u8 {
        ((x & self.mask) ^ self.flip).wrapping_add(self.add)
    }
}

/// Whether the AVX-512 packers serve `kernel` on this CPU.
fn simd(kernel: IntKernel) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        kernel == IntKernel::Avx512Vnni
            && kernel.is_available()
            && std::arch::is_x86_feature_detected!("avx512bw")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = kernel;
        false
    }
}

/// The row stride of packed A for `kg` k-groups: at least kg dwords, a multiple of 16, and not
/// of 1024, so that the MR rows a kernel reads do not fall in one cache set.
pub(super) fn lda_of(kg: usize) -> usize {
    let lda = kg.div_ceil(16) * 16;
    if lda.is_multiple_of(1024) {
        lda + 16
    } else {
        lda
    }
}

/// Packs rows `row0 ..` of A' (offset α; as many rows as `dst` holds, `lda` dwords each; rows
/// past M are padding) into `dst`, and their sums Σ_k A'[row] over the K' columns (padding
/// included) into `sums`. One row block's rows, packed by the thread that multiplies them.
#[allow(clippy::too_many_arguments)]
pub(super) fn pack_a_rows(
    a: &ElementMatrix,
    a_bytes: &[u8],
    map: ByteMap,
    kg: usize,
    lda: usize,
    row0: usize,
    kernel: IntKernel,
    dst: &mut [u32],
    sums: &mut [i32],
) {
    let k = a.cols();
    let simd = simd(kernel);
    for (r, (row_dst, s)) in dst.chunks_exact_mut(lda).zip(sums).enumerate() {
        let row = row0 + r;
        let src = a_bytes.get(row * k..row * k + k).unwrap_or(&[]);
        *s = pack_row(src, map, kg, simd, row_dst);
    }
}

/// One row of A' (`src` empty for a padding row) into `dst` (lda dwords); returns its sum
/// over the K' = 4·kg bytes.
fn pack_row(src: &[u8], map: ByteMap, kg: usize, simd: bool, dst: &mut [u32]) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if simd {
        // SAFETY: `simd` says AVX-512F/BW/VNNI were detected; dst holds lda ≥ kg dwords,
        // rounded up to whole 64-byte pieces (lda is a multiple of 16).
        return unsafe { avx512::pack_row(src, map, kg, dst) };
    }
    let _ = simd;
    let pad = map.byte(0);
    let mut sum = 0i32;
    for (g, w) in dst[..kg].iter_mut().enumerate() {
        let mut q = [pad; 4];
        for (t, v) in q.iter_mut().enumerate() {
            if let Some(&x) = src.get(4 * g + t) {
                *v = map.byte(x);
            }
            sum = sum.wrapping_add(i32::from(*v));
        }
        *w = u32::from_le_bytes(q);
    }
    sum
}

/// B' as packed (see the module documentation): panel p at dword p·kg·NR of `words`.
pub(super) struct BPack<'a> {
    /// The panels (see the module documentation).
    pub(super) words: &'a [u32],
    /// Σ_k B'[col] over the K' rows (padding included), per column of B.
    pub(super) sums: Vec<i32>,
}

/// Panels of B packed by one task.
const PANEL_GROUP: usize = 4;

/// Packs B' (offset β) into `buf`.
pub(super) fn pack_b<'a>(
    b: &ElementMatrix,
    b_bytes: &[u8],
    beta: i32,
    kg: usize,
    kernel: IntKernel,
    words: &'a mut [u32],
) -> BPack<'a> {
    let n = b.cols();
    let map = ByteMap::new(b, beta);
    let panels = n.div_ceil(NR);
    let mut sums = vec![0i32; panels * NR];
    let simd = simd(kernel);
    words
        .par_chunks_mut(PANEL_GROUP * kg * NR)
        .zip(sums.par_chunks_mut(PANEL_GROUP * NR))
        .enumerate()
        .for_each(|(group, (dst, sum))| {
            pack_panels(
                b,
                b_bytes,
                map,
                kg,
                group * PANEL_GROUP * NR,
                simd,
                dst,
                sum,
            )
        });
    sums.truncate(n);
    BPack {
        words: &*words,
        sums,
    }
}

/// The patterns of consecutive columns of B in its row-major bytes.
#[derive(Clone, Copy)]
struct ColumnsSrc<'b> {
    bytes: &'b [u8],
    k: usize,
    n: usize,
    col0: usize,
    width: usize,
}

impl<'b> ColumnsSrc<'b> {
    /// Row kk's patterns of the columns (empty past K).
    #[inline(always)]
    fn row(self, kk: usize) -> &'b [u8] {
        if kk < self.k {
            let at = kk * self.n + self.col0;
            self.bytes.get(at..at + self.width).unwrap_or(&[])
        } else {
            &[]
        }
    }
}

/// Consecutive B panels from column `col0` (as many as `dst` holds, kg·NR dwords each) and
/// their column sums (NR each), one k-group (four rows of B, read along the rows) at a time.
#[allow(clippy::too_many_arguments)]
fn pack_panels(
    b: &ElementMatrix,
    b_bytes: &[u8],
    map: ByteMap,
    kg: usize,
    col0: usize,
    simd: bool,
    dst: &mut [u32],
    sum: &mut [i32],
) {
    let (k, n) = (b.rows(), b.cols());
    let panels = dst.len() / (kg * NR);
    let src = ColumnsSrc {
        bytes: b_bytes,
        k,
        n,
        col0,
        width: (panels * NR).min(n - col0),
    };
    #[cfg(target_arch = "x86_64")]
    if simd {
        // SAFETY: `simd` says AVX-512F/BW/VNNI were detected; dst holds panels·kg·NR dwords,
        // sum panels·NR.
        unsafe { avx512::pack_panels(src, map, kg, dst, sum) };
        return;
    }
    let _ = simd;
    let pad = map.byte(0);
    sum.fill(0);
    for g in 0..kg {
        let rows = [
            src.row(4 * g),
            src.row(4 * g + 1),
            src.row(4 * g + 2),
            src.row(4 * g + 3),
        ];
        for (p, panel_sum) in sum.chunks_exact_mut(NR).enumerate() {
            let out = &mut dst[(p * kg + g) * NR..(p * kg + g + 1) * NR];
            for (c, (o, s)) in out.iter_mut().zip(panel_sum.iter_mut()).enumerate() {
                let q = rows.map(|r| r.get(p * NR + c).map_or(pad, |&x| map.byte(x)));
                *s = q
                    .iter()
                    .fold(*s, |s, &v| s.wrapping_add(i32::from(v as i8)));
                *o = u32::from_le_bytes(q);
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::{ByteMap, ColumnsSrc, NR, PANEL_GROUP};
    use std::arch::x86_64::*;

    /// k-groups ahead whose rows of B the panel packer prefetches.
    const PREFETCH: usize = 8;

    /// The mapped bytes of up to 64 patterns (`src`; the rest of the 64 bytes map zero).
    #[inline(always)]
    unsafe fn load_map(src: &[u8], map: ByteMap) -> __m512i {
        let len = src.len().min(64);
        let keep: u64 = if len == 64 { !0 } else { (1u64 << len) - 1 };
        // SAFETY: the mask covers only the first `len` bytes of `src`; masked-off bytes are
        // not accessed. Target features are the caller's.
        unsafe {
            let x = _mm512_maskz_loadu_epi8(keep, src.as_ptr().cast());
            let x = _mm512_and_si512(x, _mm512_set1_epi8(map.mask as i8));
            let x = _mm512_xor_si512(x, _mm512_set1_epi8(map.flip as i8));
            _mm512_add_epi8(x, _mm512_set1_epi8(map.add as i8))
        }
    }

    /// See [`super::pack_row`].
    ///
    /// # Safety
    /// AVX-512F/BW/VNNI; `dst` holds kg dwords rounded up to a multiple of 16.
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    pub(super) unsafe fn pack_row(src: &[u8], map: ByteMap, kg: usize, dst: &mut [u32]) -> i32 {
        let ones = _mm512_set1_epi8(1);
        let mut sum = _mm512_setzero_si512();
        let kp = 4 * kg;
        for (piece, out) in dst[..kg.div_ceil(16) * 16].chunks_exact_mut(16).enumerate() {
            let b0 = piece * 64;
            let v = unsafe { load_map(src.get(b0..).unwrap_or(&[]), map) };
            // Only the K' bytes count in the sum.
            let live = kp - b0;
            let keep: u64 = if live >= 64 { !0 } else { (1u64 << live) - 1 };
            sum = _mm512_dpbusd_epi32(sum, _mm512_maskz_mov_epi8(keep, v), ones);
            // SAFETY: `out` holds 16 dwords (64 bytes).
            unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), v) };
        }
        _mm512_reduce_add_epi32(sum)
    }

    /// See [`super::pack_panels`].
    ///
    /// # Safety
    /// AVX-512F/BW/VNNI; `dst` holds panels·kg·NR dwords and `sum` panels·NR i32s, where
    /// panels = `sum.len() / NR` ≤ [`super::PANEL_GROUP`].
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    pub(super) unsafe fn pack_panels(
        src: ColumnsSrc,
        map: ByteMap,
        kg: usize,
        dst: &mut [u32],
        sum: &mut [i32],
    ) {
        const { assert!(NR == 64) };
        let panels = (sum.len() / NR).min(PANEL_GROUP);
        let ones = _mm512_set1_epi8(1);
        let mut sums = [[_mm512_setzero_si512(); 4]; PANEL_GROUP];
        for g in 0..kg {
            // The rows PREFETCH k-groups ahead: each k-group's rows start a new 4 KiB page
            // once N ≥ 1024, where the hardware prefetchers stop, so without this every load
            // waited for L3 or memory. A prefetch does not fault, so the addresses past the
            // rows are harmless.
            let ahead = src
                .bytes
                .as_ptr()
                .wrapping_add(4 * (g + PREFETCH) * src.n + src.col0);
            for t in 0..4 {
                for p in 0..panels {
                    _mm_prefetch::<_MM_HINT_T0>(
                        ahead.wrapping_add(t * src.n + p * NR).cast::<i8>(),
                    );
                }
            }
            let rows: [&[u8]; 4] = std::array::from_fn(|t| src.row(4 * g + t));
            for (p, panel_sums) in sums.iter_mut().enumerate().take(panels) {
                // SAFETY (loads): see `load_map`.
                let [x0, x1, x2, x3] =
                    rows.map(|r| unsafe { load_map(r.get(p * NR..).unwrap_or(&[]), map) });
                // Bytes of rows 0/1 and 2/3 paired, then the pairs paired: in 128-bit lane l,
                // w[j] holds the dwords of columns 16l + 4j .. 16l + 4j + 4.
                let lo01 = _mm512_unpacklo_epi8(x0, x1);
                let hi01 = _mm512_unpackhi_epi8(x0, x1);
                let lo23 = _mm512_unpacklo_epi8(x2, x3);
                let hi23 = _mm512_unpackhi_epi8(x2, x3);
                let w0 = _mm512_unpacklo_epi16(lo01, lo23);
                let w1 = _mm512_unpackhi_epi16(lo01, lo23);
                let w2 = _mm512_unpacklo_epi16(hi01, hi23);
                let w3 = _mm512_unpackhi_epi16(hi01, hi23);
                // 4 × 4 transpose of 128-bit lanes: vector q = lane q of w0, w1, w2, w3.
                let t0 = _mm512_shuffle_i32x4::<0b01_00_01_00>(w0, w1); // w0.0 w0.1 w1.0 w1.1
                let t1 = _mm512_shuffle_i32x4::<0b11_10_11_10>(w0, w1); // w0.2 w0.3 w1.2 w1.3
                let t2 = _mm512_shuffle_i32x4::<0b01_00_01_00>(w2, w3);
                let t3 = _mm512_shuffle_i32x4::<0b11_10_11_10>(w2, w3);
                let v = [
                    _mm512_shuffle_i32x4::<0b10_00_10_00>(t0, t2), // w0.0 w1.0 w2.0 w3.0
                    _mm512_shuffle_i32x4::<0b11_01_11_01>(t0, t2),
                    _mm512_shuffle_i32x4::<0b10_00_10_00>(t1, t3),
                    _mm512_shuffle_i32x4::<0b11_01_11_01>(t1, t3),
                ];
                let out = &mut dst[(p * kg + g) * NR..(p * kg + g + 1) * NR];
                for (q, (&vq, s)) in v.iter().zip(panel_sums.iter_mut()).enumerate() {
                    *s = _mm512_dpbusd_epi32(*s, ones, vq);
                    // SAFETY: `out` holds NR = 64 dwords.
                    unsafe { _mm512_storeu_si512(out.as_mut_ptr().add(16 * q).cast(), vq) };
                }
            }
        }
        for (panel_sums, out) in sums.iter().zip(sum.chunks_exact_mut(NR)) {
            for (q, s) in panel_sums.iter().enumerate() {
                // SAFETY: `out` holds NR = 64 i32s.
                unsafe { _mm512_storeu_si512(out.as_mut_ptr().add(16 * q).cast(), *s) };
            }
        }
    }
}
