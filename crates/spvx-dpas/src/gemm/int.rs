//! Integer fast GEMM. Every integer element fits u8 (unsigned precisions) or i8 (signed ones).
//! With A = A' + α and B = B' + β, where A' is a u8 (α = −128 for signed A, else 0) and B' an
//! i8 (β = 128 for unsigned B, else 0):
//!
//! Σ_k A·B = Σ_k A'·B' + β·Σ_k A'[m] + α·Σ_k B'[n] + K'·α·β   (mod 2^32)
//!
//! where K' is K rounded up to a multiple of 4 (padding with A = B = 0, for which the identity
//! holds as well). Σ A'·B' is what `vpdpbusd` computes.
//!
//! Blocking: B is packed in NR-column panels, A in MR-row panels, both in k-groups of 4. Each
//! parallel task owns a block of rows; for each column panel it walks K in blocks of KCG
//! k-groups (a 32 KiB slice of the B panel, which stays in L1 across the block's micro-panels).

use rayon::prelude::*;

use super::int_kernel::{IntKernel, MR, NR};
use crate::matrix::{AccMatrix, ElementMatrix};

/// k-groups (of 4) per K block.
const KCG: usize = 128;

/// D = C + A × B for integer precisions (bit patterns of D/UD).
pub(super) fn matmul(
    a: &ElementMatrix,
    b: &ElementMatrix,
    c: Option<&AccMatrix>,
    kernel: IntKernel,
) -> Vec<u32> {
    let (m, k, n) = (a.rows(), a.cols(), b.cols());
    let alpha: i32 = if a.precision().is_signed_integer() {
        -128
    } else {
        0
    };
    let beta: i32 = if b.precision().is_signed_integer() {
        0
    } else {
        128
    };
    let kp = k.div_ceil(4) * 4;
    let kg = kp / 4;
    let ((a_pack, row_sum), (b_pack, col_sum)) =
        rayon::join(|| pack_a(a, alpha, kg), || pack_b(b, beta, kg));
    let constant = (kp as i32).wrapping_mul(alpha).wrapping_mul(beta);
    let col_term: Vec<i32> = col_sum
        .iter()
        .map(|&s| alpha.wrapping_mul(s).wrapping_add(constant))
        .collect();

    // About four row blocks per thread, each a whole number of micro-panels.
    let panels = m.div_ceil(MR);
    let tasks = (rayon::current_num_threads() * 4).max(1);
    let mc = panels.div_ceil(tasks).max(1) * MR;

    let mut out = vec![0u32; m * n];
    out.par_chunks_mut(mc * n)
        .enumerate()
        .for_each(|(block, out_rows)| {
            let row0 = block * mc;
            let rows = out_rows.len() / n;
            let micro = rows.div_ceil(MR);
            let mut tiles = vec![[[0i32; NR]; MR]; micro];
            for col0 in (0..n).step_by(NR) {
                let panel = col0 / NR;
                let b_panel = &b_pack[panel * kg * NR * 4..(panel + 1) * kg * NR * 4];
                for t in tiles.iter_mut() {
                    *t = [[0; NR]; MR];
                }
                for g0 in (0..kg).step_by(KCG) {
                    let gn = KCG.min(kg - g0);
                    let b_block = &b_panel[g0 * NR * 4..(g0 + gn) * NR * 4];
                    for (i, tile) in tiles.iter_mut().enumerate() {
                        let ap = row0 / MR + i;
                        let a_panel = &a_pack[ap * kg * MR..(ap + 1) * kg * MR];
                        kernel.run(&a_panel[g0 * MR..(g0 + gn) * MR], b_block, gn, tile);
                    }
                }
                let width = NR.min(n - col0);
                let terms = &col_term[col0..col0 + width];
                for (i, tile) in tiles.iter().enumerate() {
                    for (r, tile_row) in tile.iter().enumerate().take(rows.saturating_sub(i * MR)) {
                        let lr = i * MR + r;
                        let gr = row0 + lr;
                        let rs = beta.wrapping_mul(row_sum[gr]);
                        let dst = &mut out_rows[lr * n + col0..lr * n + col0 + width];
                        for ((d, &v), &ct) in dst.iter_mut().zip(tile_row).zip(terms) {
                            *d = v.wrapping_add(rs).wrapping_add(ct) as u32;
                        }
                        if let Some(c) = c {
                            let cs = &c.bits()[gr * n + col0..gr * n + col0 + width];
                            for (d, &cv) in dst.iter_mut().zip(cs) {
                                *d = d.wrapping_add(cv);
                            }
                        }
                    }
                }
            }
        });
    out
}

/// The elements of `m` as bytes `value − offset`, row-major (u8 for A with offset α, the bits
/// of an i8 for B with offset β).
fn shifted_bytes(m: &ElementMatrix, offset: i32) -> Vec<u8> {
    let p = m.precision();
    let shift = 32 - p.bits();
    let signed = p.is_signed_integer();
    let mut out = vec![0u8; m.bits().len()];
    out.par_chunks_mut(1 << 16)
        .zip(m.bits().par_chunks(1 << 16))
        .for_each(|(dst, src)| {
            for (d, &x) in dst.iter_mut().zip(src) {
                let v = if signed {
                    ((x << shift) as i32) >> shift
                } else {
                    x as i32
                };
                *d = v.wrapping_sub(offset) as u8;
            }
        });
    out
}

/// A' in MR-row panels: dword (panel·kg + g)·MR + r holds A'[panel·MR + r][4g..4g+4]; and
/// Σ_k A'[row] over the K' columns (padding included).
fn pack_a(a: &ElementMatrix, alpha: i32, kg: usize) -> (Vec<u32>, Vec<i32>) {
    let (m, k) = (a.rows(), a.cols());
    let bytes = shifted_bytes(a, alpha);
    let pad = (-alpha) as u8;
    let panels = m.div_ceil(MR);
    let mut pack = vec![0u32; panels * kg * MR];
    pack.par_chunks_mut(kg * MR)
        .enumerate()
        .for_each(|(panel, dst)| {
            for r in 0..MR {
                let row = panel * MR + r;
                if row >= m {
                    break;
                }
                let src = &bytes[row * k..row * k + k];
                for g in 0..kg {
                    let mut q = [pad; 4];
                    let lo = 4 * g;
                    if lo + 4 <= k {
                        q.copy_from_slice(&src[lo..lo + 4]);
                    } else {
                        for (t, b) in q.iter_mut().enumerate() {
                            if lo + t < k {
                                *b = src[lo + t];
                            }
                        }
                    }
                    dst[g * MR + r] = u32::from_le_bytes(q);
                }
            }
        });
    let padding = (kg * 4 - k) as i32 * i32::from(pad);
    let sums = bytes
        .par_chunks(k)
        .map(|row| row.iter().map(|&b| i32::from(b)).sum::<i32>() + padding)
        .collect();
    (pack, sums)
}

/// B' in NR-column panels: byte ((panel·kg + g)·NR + c)·4 + t holds B'[4g + t][panel·NR + c];
/// and Σ_k B'[col] over the K' rows (padding included).
fn pack_b(b: &ElementMatrix, beta: i32, kg: usize) -> (Vec<u8>, Vec<i32>) {
    let (k, n) = (b.rows(), b.cols());
    let bytes = shifted_bytes(b, beta);
    let pad = (-beta) as i8 as u8;
    let panels = n.div_ceil(NR);
    let mut pack = vec![pad; panels * kg * NR * 4];
    pack.par_chunks_mut(kg * NR * 4)
        .enumerate()
        .for_each(|(panel, dst)| {
            let col0 = panel * NR;
            let width = NR.min(n - col0);
            for row in 0..k {
                let (g, t) = (row / 4, row % 4);
                let src = &bytes[row * n + col0..row * n + col0 + width];
                let group = &mut dst[g * NR * 4..(g + 1) * NR * 4];
                for (c, &v) in src.iter().enumerate() {
                    group[c * 4 + t] = v;
                }
            }
        });
    let mut sums = vec![(kg * 4 - k) as i32 * i32::from(pad as i8); n];
    for row in bytes.chunks_exact(n) {
        for (s, &v) in sums.iter_mut().zip(row) {
            *s = s.wrapping_add(i32::from(v as i8));
        }
    }
    (pack, sums)
}
