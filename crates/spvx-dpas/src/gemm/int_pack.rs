//! Packing of the integer fast GEMM's operands (see `int` for the shifts): A' in MR-row panels
//! and B' in NR-column panels, one dword per row (A) or column (B) and k-group of 4 (element
//! 4g + t in byte t), and the row and column sums that undo the shifts. K is padded to whole
//! k-groups with the shifted zero, columns of the last B panel past N likewise.

use rayon::prelude::*;

use super::int_kernel::{MR, NR};
use crate::matrix::ElementMatrix;

/// Converts element bit patterns to bytes `value − offset` (u8 for A with offset α, the bits
/// of an i8 for B with offset β).
#[derive(Clone, Copy)]
pub(super) struct Shift {
    shift: u32,
    signed: bool,
    offset: i32,
}

impl Shift {
    pub(super) fn new(m: &ElementMatrix, offset: i32) -> Shift {
        let p = m.precision();
        Shift {
            shift: 32 - p.bits(),
            signed: p.is_signed_integer(),
            offset,
        }
    }

    /// The byte of one pattern.
    pub(super) fn byte(self, x: u32) -> u8 {
        let v = if self.signed {
            ((x << self.shift) as i32) >> self.shift
        } else {
            x as i32
        };
        v.wrapping_sub(self.offset) as u8
    }

    /// The shifted bytes of the patterns `src` into `dst` (same length).
    #[inline(always)]
    fn bytes(self, src: &[u8], dst: &mut [u8]) {
        let (shift, offset) = (self.shift, self.offset);
        if shift == 24 {
            // 8-bit elements: the low byte of value − offset does not depend on the sign
            // extension.
            let o = offset as u8;
            for (d, &x) in dst.iter_mut().zip(src) {
                *d = x.wrapping_sub(o);
            }
        } else if self.signed {
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
    static SCRATCH: std::cell::RefCell<(Vec<u32>, Vec<u32>)> = const { std::cell::RefCell::new((Vec::new(), Vec::new())) };
}

/// Runs `f` with the calling thread's A and B packing buffers.
pub(super) fn with_scratch<R>(f: impl FnOnce(&mut Vec<u32>, &mut Vec<u32>) -> R) -> R {
    SCRATCH.with(|s| match s.try_borrow_mut() {
        Ok(mut guard) => {
            let (a, b) = &mut *guard;
            f(a, b)
        }
        // Re-entered (cannot happen in this crate): fresh buffers.
        Err(_) => f(&mut Vec::new(), &mut Vec::new()),
    })
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

/// A' in MR-row panels into `pack`: dword (panel·kg + g)·MR + r holds
/// A'[panel·MR + r][4g..4g+4]; returns Σ_k A'[row] over the K' columns (padding included).
pub(super) fn pack_a(
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

/// Panels of B packed by one task.
const PANEL_GROUP: usize = 4;

/// B' in NR-column panels into `pack[at..]`, `at` chosen so that the panels start on a
/// 64-byte boundary (the kernels load B in 64-byte vectors; line-splitting loads measured up
/// to twice slower): dword `at` + (panel·kg + g)·NR + c holds B'[4g..4g+4][panel·NR + c].
/// Returns `at` and Σ_k B'[col] over the K' rows (padding included).
pub(super) fn pack_b(
    b: &ElementMatrix,
    b_bytes: &[u8],
    beta: i32,
    kg: usize,
    pack: &mut Vec<u32>,
) -> (usize, Vec<i32>) {
    let (k, n) = (b.rows(), b.cols());
    let sh = Shift::new(b, beta);
    let pad = sh.byte(0);
    let panels = n.div_ceil(NR);
    let len = panels * kg * NR;
    // Every dword of the panels is rewritten below.
    pack.resize(len + 16, 0);
    let at = pack.as_ptr().align_offset(64).min(16);
    let mut sums = vec![(kg * 4 - k) as i32 * i32::from(pad as i8); panels * NR];
    pack[at..at + len]
        .par_chunks_mut(PANEL_GROUP * kg * NR)
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
    (at, sums)
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
    let here = MR.min(m - panel * MR);
    let mut rows = vec![pad; MR * kg * 4];
    for (r, (s, row_bytes)) in sum
        .iter_mut()
        .zip(rows.chunks_exact_mut(kg * 4))
        .enumerate()
    {
        if r == here {
            break;
        }
        let row = panel * MR + r;
        sh.bytes(&a_bytes[row * k..row * k + k], &mut row_bytes[..k]);
        *s = row_bytes.iter().map(|&b| i32::from(b)).sum();
    }
    let rows: Vec<&[u8]> = rows.chunks_exact(kg * 4).collect();
    for (g, out) in dst.chunks_exact_mut(MR).enumerate() {
        for (o, row) in out.iter_mut().zip(&rows) {
            let q = &row[4 * g..4 * g + 4];
            *o = u32::from_le_bytes([q[0], q[1], q[2], q[3]]);
        }
    }
}

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
    dst: &mut [u32],
    sum: &mut [i32],
) {
    let (k, n) = (b.rows(), b.cols());
    let panel_words = kg * NR;
    let panels = dst.len() / panel_words;
    let span = panels * NR;
    let col0 = first_panel * NR;
    let width = span.min(n - col0);
    // The four shifted rows of one k-group; columns past `width` stay `pad`.
    let mut rows = vec![pad; 4 * span];
    for g in 0..kg {
        for (t, buf) in rows.chunks_exact_mut(span).enumerate() {
            let row = 4 * g + t;
            let buf = &mut buf[..width];
            if row < k {
                sh.bytes(&b_bytes[row * n + col0..row * n + col0 + width], buf);
                for (s, &v) in sum.iter_mut().zip(buf.iter()) {
                    *s += i32::from(v as i8);
                }
            } else {
                buf.fill(pad);
            }
        }
        let (r0, rest) = rows.split_at(span);
        let (r1, rest) = rest.split_at(span);
        let (r2, r3) = rest.split_at(span);
        for p in 0..panels {
            let out = &mut dst[p * panel_words + g * NR..p * panel_words + (g + 1) * NR];
            let c = p * NR..(p + 1) * NR;
            for ((((o, &x0), &x1), &x2), &x3) in out
                .iter_mut()
                .zip(&r0[c.clone()])
                .zip(&r1[c.clone()])
                .zip(&r2[c.clone()])
                .zip(&r3[c])
            {
                *o = u32::from(x0) | u32::from(x1) << 8 | u32::from(x2) << 16 | u32::from(x3) << 24;
            }
        }
    }
}

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
    dst: &mut [u32],
    sum: &mut [i32],
) {
    pack_b_panels(b, b_bytes, sh, pad, kg, first_panel, dst, sum)
}
