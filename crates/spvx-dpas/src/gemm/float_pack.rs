//! Packing of the float fast GEMM's operands: elements widened exactly to fp32 once, K
//! zero-padded to whole instructions (`kp`), laid out as the micro-kernels read them:
//!
//! - B in NR-column panels, each kp × NR, k-major (float (panel·kp + k)·NR + c holds
//!   B[k][panel·NR + c]); columns past N are zero;
//! - A in MR-row micro-panels, rows [`a_stride`] floats apart (float (i·MR + r)·lda + k
//!   holds A[row0 + i·MR + r][k]): the rows as they are, widened, so the kernel broadcasts
//!   each row's element from its own row; rows past M are zero.
//!
//! Each packer also returns the [`Span`] of what it wrote, for the exactness test of the fused
//! kernel.

use rayon::prelude::*;
use spvx_num::dpas::Tf32Inputs;
use spvx_num::float::{Format, RoundingMode, convert};

use super::float_exact::Span;
use super::float_kernel::NR;
use crate::Precision;
use crate::matrix::{ElementMatrix, Patterns};

/// How the patterns of one element precision widen to fp32 (exactly).
#[derive(Clone, Copy)]
pub(super) enum Widening {
    /// bf16: the pattern is the high half of the fp32 one.
    Bf16,
    /// fp16: see [`fp16_to_f32`].
    Fp16,
    /// tf32 truncated to its 19 bits (the low 13 fraction bits cleared).
    Tf32Truncated,
    /// tf32 read as the whole fp32 container.
    Fp32,
    /// Any other float format, by `spvx_num::float::convert`.
    Convert(Format),
    /// Not a float precision (not reached: the caller only packs floats): zeros.
    Zero,
}

impl Widening {
    pub(super) fn of(p: Precision, tf32: Tf32Inputs) -> Widening {
        match p {
            Precision::Tf32 => match tf32 {
                Tf32Inputs::Truncate => Widening::Tf32Truncated,
                Tf32Inputs::Full => Widening::Fp32,
            },
            Precision::Bf16 => Widening::Bf16,
            Precision::Fp16 => Widening::Fp16,
            _ => match p.float_format() {
                Some(fmt) => Widening::Convert(fmt),
                None => Widening::Zero,
            },
        }
    }

    /// Widens a run of patterns into `out` (as many as both hold).
    #[inline(always)]
    fn run(self, src: Patterns<'_>, out: &mut [f32]) {
        match src {
            Patterns::Bytes(s) => self.each(s, out),
            Patterns::Halves(s) => self.each(s, out),
            Patterns::Words(s) => self.each(s, out),
        }
    }

    #[inline(always)]
    fn each<S: Copy + Into<u32>>(self, src: &[S], out: &mut [f32]) {
        let pairs = out.iter_mut().zip(src.iter().map(|&x| x.into()));
        match self {
            Widening::Bf16 => pairs.for_each(|(o, x)| *o = f32::from_bits(x << 16)),
            Widening::Fp16 => pairs.for_each(|(o, x)| *o = f32::from_bits(fp16_to_f32(x))),
            Widening::Tf32Truncated => {
                pairs.for_each(|(o, x)| *o = f32::from_bits(x & 0xffff_e000))
            }
            Widening::Fp32 => pairs.for_each(|(o, x)| *o = f32::from_bits(x)),
            Widening::Convert(fmt) => pairs.for_each(|(o, x)| {
                let w = convert(
                    fmt,
                    u64::from(x),
                    Format::F32,
                    RoundingMode::NearestEven,
                    false,
                );
                *o = f32::from_bits(w as u32)
            }),
            Widening::Zero => pairs.for_each(|(o, _)| *o = 0.0),
        }
    }
}

/// The fp32 pattern of an fp16 pattern's value (exact; NaN stays NaN, payload kept): the
/// magnitude's bits moved to fp32 positions are the value times 2^−112 (subnormals included),
/// so one exact multiplication by 2^112 rescales them.
#[inline(always)]
pub(super) fn fp16_to_f32(h: u32) -> u32 {
    let sign = (h & 0x8000) << 16;
    let mag = h & 0x7fff;
    // Both candidates, then a select (no branch, so that loops over elements vectorise).
    let special = 0x7f80_0000 | ((mag & 0x3ff) << 13);
    let finite = (f32::from_bits(mag << 13) * f32::from_bits(0x7780_0000)).to_bits();
    sign | if mag >= 0x7c00 { special } else { finite }
}

/// Rows of B per packing task.
const B_ROWS: usize = 64;

/// Packs B (k × n) into `dst` (panels of kp × NR, see the module documentation), in
/// parallel over blocks of rows (each row widened whole, as it lies in memory, then cut into
/// the panels); returns the span of all packed values.
pub(super) fn pack_b(b: &ElementMatrix, w: Widening, kp: usize, dst: &mut [f32]) -> Span {
    let panels = b.cols().div_ceil(NR);
    // pieces[block][panel]: rows B_ROWS·block .. of one panel.
    let mut pieces: Vec<Vec<&mut [f32]>> = (0..kp.div_ceil(B_ROWS))
        .map(|_| Vec::with_capacity(panels))
        .collect();
    for panel in dst.chunks_exact_mut(kp * NR) {
        for (block, piece) in panel.chunks_mut(B_ROWS * NR).enumerate() {
            pieces[block].push(piece);
        }
    }
    pieces
        .into_par_iter()
        .enumerate()
        .map(|(block, mut pieces)| {
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: AVX2 was detected at run time.
                return unsafe { pack_b_rows_avx2(b, w, kp, block * B_ROWS, &mut pieces) };
            }
            pack_b_rows(b, w, kp, block * B_ROWS, &mut pieces)
        })
        .reduce(|| Span::EMPTY, Span::join)
}

/// [`pack_b_rows`] compiled for AVX2 (the widening and span loops then run on 8-lane vectors;
/// the baseline x86-64 target even lacks 32-bit min/max).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn pack_b_rows_avx2(
    b: &ElementMatrix,
    w: Widening,
    kp: usize,
    k0: usize,
    pieces: &mut [&mut [f32]],
) -> Span {
    pack_b_rows(b, w, kp, k0, pieces)
}

/// Rows k0 .. k0 + B_ROWS of B (zeros from K on, up to kp) into the `pieces` of the panels;
/// returns their span.
#[inline(always)]
fn pack_b_rows(
    b: &ElementMatrix,
    w: Widening,
    kp: usize,
    k0: usize,
    pieces: &mut [&mut [f32]],
) -> Span {
    let (k, n) = (b.rows(), b.cols());
    let mut row = vec![0f32; pieces.len() * NR];
    for i in 0..B_ROWS.min(kp.saturating_sub(k0)) {
        let kk = k0 + i;
        if kk < k {
            w.run(b.row_patterns(kk, 0..n), &mut row[..n]);
        } else {
            row[..n].fill(0.0);
        }
        for (piece, src) in pieces.iter_mut().zip(row.chunks_exact(NR)) {
            piece[i * NR..(i + 1) * NR].copy_from_slice(src);
        }
    }
    pieces
        .iter()
        .fold(Span::EMPTY, |s, piece| s.join(Span::of(piece)))
}

/// Floats from one packed row of A to the next for K padded to `kp`: at least kp, a multiple
/// of 16 (rows start on cache lines) and not of 256 (the MR rows a kernel reads then do not
/// all fall in one L1 cache set).
pub(super) fn a_stride(kp: usize) -> usize {
    let lda = kp.next_multiple_of(16);
    if lda.is_multiple_of(256) {
        lda + 16
    } else {
        lda
    }
}

/// Packs rows `row0 ..` of A (as many rows of `lda` floats as `dst` holds) and returns their
/// span.
pub(super) fn pack_a(
    a: &ElementMatrix,
    w: Widening,
    row0: usize,
    lda: usize,
    dst: &mut [f32],
) -> Span {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: AVX2 was detected at run time.
        return unsafe { pack_a_avx2(a, w, row0, lda, dst) };
    }
    pack_a_rows(a, w, row0, lda, dst)
}

/// [`pack_a_rows`] compiled for AVX2 (see [`pack_b_rows_avx2`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn pack_a_avx2(a: &ElementMatrix, w: Widening, row0: usize, lda: usize, dst: &mut [f32]) -> Span {
    pack_a_rows(a, w, row0, lda, dst)
}

#[inline(always)]
fn pack_a_rows(a: &ElementMatrix, w: Widening, row0: usize, lda: usize, dst: &mut [f32]) -> Span {
    let (m, k) = (a.rows(), a.cols());
    for (r, row) in dst.chunks_exact_mut(lda).enumerate() {
        let gr = row0 + r;
        if gr < m {
            w.run(a.row_patterns(gr, 0..k), &mut row[..k]);
            row[k..].fill(0.0);
        } else {
            row.fill(0.0);
        }
    }
    Span::of(dst)
}

#[cfg(test)]
mod tests {
    use super::*;
    use spvx_num::dpas::fp16_to_acc;

    #[test]
    fn fp16_widening_matches_the_reference_for_every_pattern() {
        for h in 0..=u16::MAX {
            let (got, want) = (fp16_to_f32(u32::from(h)), fp16_to_acc(h));
            let nan = |x: u32| f32::from_bits(x).is_nan();
            assert!(
                got == want || (nan(got) && nan(want)),
                "{h:#06x}: {got:#x} {want:#x}"
            );
        }
    }
}
