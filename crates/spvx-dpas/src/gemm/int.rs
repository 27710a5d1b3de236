//! Integer fast GEMM. Every integer element fits u8 (unsigned precisions) or i8 (signed ones).
//! With A = A' + α and B = B' + β, where A' is a u8 (α = −128 for signed A, else 0) and B' an
//! i8 (β = 128 for unsigned B, else 0):
//!
//! Σ_k A·B = Σ_k A'·B' + β·Σ_k A'[m] + α·Σ_k B'[n] + K'·α·β   (mod 2^32)
//!
//! where K' is K rounded up to a multiple of 4 (padding with A = B = 0, for which the identity
//! holds as well). Σ A'·B' is what `vpdpbusd` computes.

use rayon::prelude::*;

use super::int_kernel::{IntKernel, MR, NR};
use crate::matrix::{AccMatrix, ElementMatrix, sign_extend};

/// Rows of one parallel task (a multiple of MR).
const MC: usize = MR * 16;

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
    let (a_pack, row_sum) = pack_a(a, alpha, kg);
    let (b_pack, col_sum) = pack_b(b, beta, kg);
    let constant = (kp as i32).wrapping_mul(alpha).wrapping_mul(beta);

    let mut out = vec![0u32; m * n];
    out.par_chunks_mut(MC * n)
        .enumerate()
        .for_each(|(block, out_rows)| {
            let row0 = block * MC;
            let rows = out_rows.len() / n;
            let mut tile = [[0i32; NR]; MR];
            for col0 in (0..n).step_by(NR) {
                let panel = col0 / NR;
                let b_panel = &b_pack[panel * kg * NR * 4..(panel + 1) * kg * NR * 4];
                for r0 in (0..rows).step_by(MR) {
                    let ap = (row0 + r0) / MR;
                    let a_panel = &a_pack[ap * kg * MR..(ap + 1) * kg * MR];
                    kernel.run(a_panel, b_panel, kg, &mut tile);
                    for (r, tile_row) in tile.iter().enumerate().take(MR.min(rows - r0)) {
                        let gr = row0 + r0 + r;
                        let rs = beta.wrapping_mul(row_sum[gr]);
                        for (j, &v) in tile_row.iter().enumerate().take(n - col0) {
                            let gc = col0 + j;
                            let cv = c.map_or(0, |c| c.get(gr, gc));
                            let d = v
                                .wrapping_add(rs)
                                .wrapping_add(alpha.wrapping_mul(col_sum[gc]))
                                .wrapping_add(constant);
                            out_rows[(r0 + r) * n + gc] = cv.wrapping_add(d as u32);
                        }
                    }
                }
            }
        });
    out
}

/// A' in MR-row panels: dword (panel·kg + g)·MR + r holds A'[panel·MR + r][4g..4g+4]; and
/// Σ_k A'[row] over the K' columns.
fn pack_a(a: &ElementMatrix, alpha: i32, kg: usize) -> (Vec<u32>, Vec<i32>) {
    let (m, k) = (a.rows(), a.cols());
    let panels = m.div_ceil(MR);
    let mut pack = vec![0u32; panels * kg * MR];
    let mut sums = vec![0i32; m];
    let p = a.precision();
    for row in 0..m {
        let (panel, r) = (row / MR, row % MR);
        let mut sum = 0i32;
        for g in 0..kg {
            let mut bytes = [0u8; 4];
            for (t, byte) in bytes.iter_mut().enumerate() {
                let col = 4 * g + t;
                let v = if col < k {
                    sign_extend(a.get(row, col), p)
                } else {
                    0
                };
                let shifted = v - alpha; // 0..=255
                *byte = shifted as u8;
                sum = sum.wrapping_add(shifted);
            }
            pack[(panel * kg + g) * MR + r] = u32::from_le_bytes(bytes);
        }
        sums[row] = sum;
    }
    (pack, sums)
}

/// B' in NR-column panels: byte ((panel·kg + g)·NR + c)·4 + t holds B'[4g + t][panel·NR + c];
/// and Σ_k B'[col] over the K' rows.
fn pack_b(b: &ElementMatrix, beta: i32, kg: usize) -> (Vec<u8>, Vec<i32>) {
    let (k, n) = (b.rows(), b.cols());
    let panels = n.div_ceil(NR);
    let mut pack = vec![0u8; panels * kg * NR * 4];
    let mut sums = vec![0i32; n];
    let p = b.precision();
    for row in 0..kg * 4 {
        let (g, t) = (row / 4, row % 4);
        for (col, sum) in sums.iter_mut().enumerate() {
            let v = if row < k {
                sign_extend(b.get(row, col), p)
            } else {
                0
            };
            let shifted = v - beta; // -128..=127
            let (panel, c) = (col / NR, col % NR);
            pack[((panel * kg + g) * NR + c) * 4 + t] = shifted as i8 as u8;
            *sum = sum.wrapping_add(shifted);
        }
    }
    (pack, sums)
}
