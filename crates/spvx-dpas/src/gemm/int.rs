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
//! k-groups (a 64 KiB slice of the B panel, re-read from L2 by each micro-panel; smaller
//! blocks that fit L1 measured slower here).

use std::mem::MaybeUninit;

use rayon::prelude::*;

use super::int_kernel::{IntKernel, MR, NR};
use crate::matrix::{AccMatrix, ElementMatrix};

/// k-groups (of 4) per K block (K = 1024 per block).
const KCG: usize = 256;

/// D = C + A × B for integer precisions (bit patterns of D/UD).
pub(super) fn matmul(
    a: &ElementMatrix,
    b: &ElementMatrix,
    c: Option<&AccMatrix>,
    kernel: IntKernel,
) -> Option<Vec<u32>> {
    let (m, k, n) = (a.rows(), a.cols(), b.cols());
    let (a_bytes, b_bytes) = (a.bytes()?, b.bytes()?);
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
    let kg = k.div_ceil(4);
    Some(with_scratch(|a_pack, b_pack| {
        let row_sum = pack_a(a, a_bytes, alpha, kg, a_pack);
        let col_sum = pack_b(b, b_bytes, beta, kg, b_pack);
        multiply(
            a_pack,
            b_pack,
            &row_sum,
            &col_sum,
            (m, kg, n),
            (alpha, beta),
            c,
            kernel,
        )
    }))
}

/// The packed operands and the terms that undo the shifts.
struct Packed<'a> {
    a_pack: &'a [u32],
    b_pack: &'a [u8],
    /// β·Σ A'[row].
    row_term: Vec<i32>,
    /// α·Σ B'[col] + K'·α·β.
    col_term: Vec<i32>,
    kg: usize,
    n: usize,
    c: Option<&'a AccMatrix>,
    kernel: IntKernel,
}

/// The blocked, parallel product of the packed operands, with the shifts undone.
#[allow(clippy::too_many_arguments)]
fn multiply(
    a_pack: &[u32],
    b_pack: &[u8],
    row_sum: &[i32],
    col_sum: &[i32],
    (m, kg, n): (usize, usize, usize),
    (alpha, beta): (i32, i32),
    c: Option<&AccMatrix>,
    kernel: IntKernel,
) -> Vec<u32> {
    let constant = ((kg * 4) as i32).wrapping_mul(alpha).wrapping_mul(beta);
    let packed = Packed {
        a_pack,
        b_pack,
        row_term: row_sum.iter().map(|&s| beta.wrapping_mul(s)).collect(),
        col_term: col_sum
            .iter()
            .map(|&s| alpha.wrapping_mul(s).wrapping_add(constant))
            .collect(),
        kg,
        n,
        c,
        kernel,
    };
    // About four row blocks per thread, each a whole number of micro-panels.
    let panels = m.div_ceil(MR);
    let tasks = (rayon::current_num_threads() * 4).max(1);
    let mc = panels.div_ceil(tasks).max(1) * MR;

    // Every element of D is written exactly once by `row_block` (each row block covers all
    // of its rows and every column panel up to n), so D need not be zeroed first.
    let mut out: Vec<u32> = Vec::with_capacity(m * n);
    out.spare_capacity_mut()[..m * n]
        .par_chunks_mut(mc * n)
        .enumerate()
        .for_each(|(block, out_rows)| {
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: AVX2 was detected at run time.
                unsafe { row_block_avx2(&packed, block * mc, out_rows) };
                return;
            }
            row_block(&packed, block * mc, out_rows)
        });
    // SAFETY: the capacity is m·n and all m·n elements were initialised above.
    unsafe { out.set_len(m * n) };
    out
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn row_block_avx2(p: &Packed, row0: usize, out_rows: &mut [MaybeUninit<u32>]) {
    row_block(p, row0, out_rows)
}

/// Rows `row0 ..` of D (as many as `out_rows` holds): micro-kernels over every column panel
/// and K block, then D = C + Σ A'B' + row term + column term.
#[inline(always)]
fn row_block(p: &Packed, row0: usize, out_rows: &mut [MaybeUninit<u32>]) {
    let (kg, n) = (p.kg, p.n);
    let rows = out_rows.len() / n;
    let micro = rows.div_ceil(MR);
    let mut tiles = vec![[[0i32; NR]; MR]; micro];
    for col0 in (0..n).step_by(NR) {
        let panel = col0 / NR;
        let b_panel = &p.b_pack[panel * kg * NR * 4..(panel + 1) * kg * NR * 4];
        // Start each tile from C + row term + column term; the kernels add Σ A'B'.
        let width = NR.min(n - col0);
        let terms = &p.col_term[col0..col0 + width];
        for (i, tile) in tiles.iter_mut().enumerate() {
            for (r, tile_row) in tile.iter_mut().enumerate() {
                let gr = (row0 + i * MR + r).min(p.row_term.len() - 1);
                let rt = p.row_term[gr];
                tile_row.fill(0);
                for (t, &ct) in tile_row.iter_mut().zip(terms) {
                    *t = rt.wrapping_add(ct);
                }
                if let Some(c) = p.c {
                    let cs = &c.bits()[gr * n + col0..gr * n + col0 + width];
                    for (t, &cv) in tile_row.iter_mut().zip(cs) {
                        *t = t.wrapping_add(cv as i32);
                    }
                }
            }
        }
        for g0 in (0..kg).step_by(KCG) {
            let gn = KCG.min(kg - g0);
            let b_block = &b_panel[g0 * NR * 4..(g0 + gn) * NR * 4];
            for (i, tile) in tiles.iter_mut().enumerate() {
                let ap = row0 / MR + i;
                let a_panel = &p.a_pack[ap * kg * MR..(ap + 1) * kg * MR];
                p.kernel
                    .run(&a_panel[g0 * MR..(g0 + gn) * MR], b_block, gn, tile);
            }
        }
        for (i, tile) in tiles.iter().enumerate() {
            for (r, tile_row) in tile.iter().enumerate().take(rows.saturating_sub(i * MR)) {
                let lr = i * MR + r;
                store_row(
                    &mut out_rows[lr * n + col0..lr * n + col0 + width],
                    tile_row,
                );
            }
        }
    }
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE2 is part of x86-64; the fence orders the streaming stores of `store_row`.
    unsafe {
        std::arch::x86_64::_mm_sfence()
    };
}

/// Writes one tile row into D. Full 64-element rows starting at a 16-byte boundary use
/// streaming (non-temporal) stores: D is written once and not read again here, so this
/// saves reading its lines into the cache first.
#[inline(always)]
fn store_row(dst: &mut [MaybeUninit<u32>], src: &[i32; NR]) {
    #[cfg(target_arch = "x86_64")]
    if dst.len() == NR && (dst.as_ptr() as usize).is_multiple_of(16) {
        use std::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_stream_si128};
        for q in 0..NR / 4 {
            // SAFETY: q·4 + 4 ≤ NR = dst.len() = src.len(); the destination address is 16-byte
            // aligned (checked above, and 16 bytes per step keep it aligned); SSE2 is part of
            // x86-64. MaybeUninit<u32> has the layout of u32.
            unsafe {
                let v = _mm_loadu_si128(src.as_ptr().add(q * 4).cast::<__m128i>());
                _mm_stream_si128(dst.as_mut_ptr().add(q * 4).cast::<__m128i>(), v);
            }
        }
        return;
    }
    for (d, &v) in dst.iter_mut().zip(src) {
        d.write(v as u32);
    }
}

/// Converts element bit patterns to bytes `value − offset` (u8 for A with offset α, the bits
/// of an i8 for B with offset β).
#[derive(Clone, Copy)]
struct Shift {
    shift: u32,
    signed: bool,
    offset: i32,
}

impl Shift {
    fn new(m: &ElementMatrix, offset: i32) -> Shift {
        let p = m.precision();
        Shift {
            shift: 32 - p.bits(),
            signed: p.is_signed_integer(),
            offset,
        }
    }

    /// The byte of one pattern.
    fn byte(self, x: u32) -> u8 {
        let v = if self.signed {
            ((x << self.shift) as i32) >> self.shift
        } else {
            x as i32
        };
        v.wrapping_sub(self.offset) as u8
    }

    /// The shifted bytes of the patterns `src` into `dst` (same length).
    fn bytes(self, src: &[u8], dst: &mut [u8]) {
        let (shift, offset) = (self.shift, self.offset);
        if self.signed {
            for (d, &x) in dst.iter_mut().zip(src) {
                *d = ((((u32::from(x) << shift) as i32) >> shift).wrapping_sub(offset)) as u8;
            }
        } else {
            for (d, &x) in dst.iter_mut().zip(src) {
                *d = (i32::from(x)).wrapping_sub(offset) as u8;
            }
        }
    }
}

thread_local! {
    /// Packing buffers kept between calls on the calling thread (fresh pages are expensive).
    static SCRATCH: std::cell::RefCell<(Vec<u32>, Vec<u8>)> = const { std::cell::RefCell::new((Vec::new(), Vec::new())) };
}

/// Runs `f` with the calling thread's A and B packing buffers.
pub(super) fn with_scratch<R>(f: impl FnOnce(&mut Vec<u32>, &mut Vec<u8>) -> R) -> R {
    SCRATCH.with(|s| match s.try_borrow_mut() {
        Ok(mut guard) => {
            let (a, b) = &mut *guard;
            f(a, b)
        }
        // Re-entered (cannot happen in this crate): fresh buffers.
        Err(_) => f(&mut Vec::new(), &mut Vec::new()),
    })
}

/// A' in MR-row panels into `pack`: dword (panel·kg + g)·MR + r holds
/// A'[panel·MR + r][4g..4g+4]; returns Σ_k A'[row] over the K' columns (padding included).
fn pack_a(
    a: &ElementMatrix,
    a_bytes: &[u8],
    alpha: i32,
    kg: usize,
    pack: &mut Vec<u32>,
) -> Vec<i32> {
    let m = a.rows();
    let sh = Shift::new(a, alpha);
    let pad = sh.byte(0);
    let panels = m.div_ceil(MR);
    // Stale contents are harmless: every element that reaches a kept result is rewritten.
    pack.resize(panels * kg * MR, 0);
    let mut sums = vec![0i32; panels * MR];
    pack.par_chunks_mut(kg * MR)
        .zip(sums.par_chunks_mut(MR))
        .enumerate()
        .for_each(|(panel, (dst, sum))| {
            with_avx2!(
                pack_a_panel,
                pack_a_panel_avx2,
                (a, a_bytes, sh, pad, kg, panel, dst, sum)
            )
        });
    sums.truncate(m);
    sums
}

/// B' in NR-column panels into `pack`: byte ((panel·kg + g)·NR + c)·4 + t holds
/// B'[4g + t][panel·NR + c]; returns Σ_k B'[col] over the K' rows (padding included).
fn pack_b(b: &ElementMatrix, b_bytes: &[u8], beta: i32, kg: usize, pack: &mut Vec<u8>) -> Vec<i32> {
    let (k, n) = (b.rows(), b.cols());
    let sh = Shift::new(b, beta);
    let pad = sh.byte(0);
    let panels = n.div_ceil(NR);
    if pack.len() != panels * kg * NR * 4 {
        pack.clear();
        pack.resize(panels * kg * NR * 4, pad);
    }
    let mut sums = vec![(kg * 4 - k) as i32 * i32::from(pad as i8); panels * NR];
    // Tasks of PANEL_GROUP panels: each row of B is read in runs of PANEL_GROUP·NR columns.
    pack.par_chunks_mut(PANEL_GROUP * kg * NR * 4)
        .zip(sums.par_chunks_mut(PANEL_GROUP * NR))
        .enumerate()
        .for_each(|(group, (dst, sum))| {
            with_avx2!(
                pack_b_panels,
                pack_b_panels_avx2,
                (b, b_bytes, sh, pad, kg, group * PANEL_GROUP, dst, sum)
            )
        });
    sums.truncate(n);
    sums
}

/// One A panel (MR rows) and its row sums.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn pack_a_panel(
    a: &ElementMatrix,
    a_bytes: &[u8],
    sh: Shift,
    pad: u8,
    kg: usize,
    panel: usize,
    dst: &mut [u32],
    sum: &mut [i32],
) {
    let (m, k) = (a.rows(), a.cols());
    let mut row_bytes = vec![pad; kg * 4];
    for (r, s) in sum.iter_mut().enumerate() {
        let row = panel * MR + r;
        if row >= m {
            break;
        }
        sh.bytes(&a_bytes[row * k..row * k + k], &mut row_bytes[..k]);
        for (g, q) in row_bytes.chunks_exact(4).enumerate() {
            dst[g * MR + r] = u32::from_le_bytes([q[0], q[1], q[2], q[3]]);
        }
        *s = row_bytes.iter().map(|&b| i32::from(b)).sum();
    }
}

/// Panels of B packed by one task.
const PANEL_GROUP: usize = 4;

/// Consecutive B panels from `first_panel` (as many as `dst` holds) and their column sums,
/// four rows (one k-group) at a time.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn pack_b_panels(
    b: &ElementMatrix,
    b_bytes: &[u8],
    sh: Shift,
    pad: u8,
    kg: usize,
    first_panel: usize,
    dst: &mut [u8],
    sum: &mut [i32],
) {
    let (k, n) = (b.rows(), b.cols());
    let panel_bytes = kg * NR * 4;
    let panels = dst.len() / panel_bytes;
    let col0 = first_panel * NR;
    let width = (panels * NR).min(n - col0);
    let mut rows = vec![[pad; 4]; panels * NR];
    let mut row_bytes = vec![pad; panels * NR];
    for g in 0..kg {
        for t in 0..4 {
            let row = 4 * g + t;
            if row < k {
                sh.bytes(
                    &b_bytes[row * n + col0..row * n + col0 + width],
                    &mut row_bytes[..width],
                );
                for (s, &v) in sum.iter_mut().zip(&row_bytes[..width]) {
                    *s += i32::from(v as i8);
                }
            } else {
                row_bytes.fill(pad);
            }
            for (q, &v) in rows.iter_mut().zip(&row_bytes) {
                q[t] = v;
            }
        }
        for (p, cols) in rows.chunks_exact(NR).enumerate() {
            let at = p * panel_bytes + g * NR * 4;
            for (d, q) in dst[at..at + NR * 4].chunks_exact_mut(4).zip(cols) {
                d.copy_from_slice(q);
            }
        }
    }
}

/// Calls the AVX2-compiled twin of a packing function when the CPU has AVX2.
macro_rules! with_avx2 {
    ($plain:ident, $avx2:ident, ($($arg:expr),*)) => {{
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: AVX2 was detected at run time.
            unsafe { $avx2($($arg),*) }
        } else {
            $plain($($arg),*)
        }
        #[cfg(not(target_arch = "x86_64"))]
        $plain($($arg),*)
    }};
}
use with_avx2;

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(clippy::too_many_arguments)]
fn pack_a_panel_avx2(
    a: &ElementMatrix,
    a_bytes: &[u8],
    sh: Shift,
    pad: u8,
    kg: usize,
    panel: usize,
    dst: &mut [u32],
    sum: &mut [i32],
) {
    pack_a_panel(a, a_bytes, sh, pad, kg, panel, dst, sum)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(clippy::too_many_arguments)]
fn pack_b_panels_avx2(
    b: &ElementMatrix,
    b_bytes: &[u8],
    sh: Shift,
    pad: u8,
    kg: usize,
    first_panel: usize,
    dst: &mut [u8],
    sum: &mut [i32],
) {
    pack_b_panels(b, b_bytes, sh, pad, kg, first_panel, dst, sum)
}
