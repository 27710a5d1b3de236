//! Integer fast GEMM. Every integer element fits u8 (unsigned precisions) or i8 (signed ones).
//! With A = A' + α and B = B' + β, where A' is a u8 (α = −128 for signed A, else 0) and B' an
//! i8 (β = 128 for unsigned B, else 0):
//!
//! Σ_k A·B = Σ_k A'·B' + β·Σ_k A'[m] + α·Σ_k B'[n] + K'·α·β   (mod 2^32)
//!
//! where K' is K rounded up to a multiple of 4 (padding with A = B = 0, for which the identity
//! holds as well). Σ A'·B' is what `vpdpbusd` computes.
//!
//! Blocking: B is packed in NR-column panels, in k-groups of 4 (one dword per column and
//! group; see `int_pack`), before the parallel phase. Row blocks of whole MR-row micro-panels
//! are handed out to the pool's threads by `schedule::guided`; each thread packs its block's
//! rows of A (one dword per row and group) into its own scratch buffer, then for each column
//! panel walks K in blocks of KCG k-groups (a slice of up to 256 KiB of the B panel, re-read
//! from L2 by each micro-panel). D itself holds the sums between K blocks: the first K block
//! starts each MR × NR block from C + row term + column term, later ones from D, and every
//! block's sums are stored straight from the registers into D (edge blocks go through a small
//! tile).

use std::mem::MaybeUninit;

use super::int_kernel::{IntKernel, MR, NR, Start};
use super::int_pack::{BPack, ByteMap, lda_of, pack_a_rows, pack_b};
use super::schedule::guided;
use super::scratch::{Buffer, with_scratch};
use crate::matrix::{AccMatrix, ElementMatrix};

/// k-groups (of 4) per K block (K = 4096 per block): one kernel call per block, so longer
/// blocks pay the call's start and stores less often (measured on the 2-vCPU EPYC: K = 4096
/// in one block ran at 0.96 of the `vpdpbusd` peak, in blocks of 1024 at 0.89; at K = 16384
/// blocks of 4096 beat both 1024 and 16384).
const KCG: usize = 1024;

/// Micro-panels per row block at most (row blocks are handed out by `schedule::guided`:
/// big ones first, single micro-panels at the end).
const BLOCK_PANELS: usize = 32;

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
    // B is packed here, in parallel; A one row block at a time by the thread that multiplies
    // it (no second pass over A, and its rows are in that core's cache when the kernel reads
    // them).
    Some(with_scratch(Buffer::B, n.div_ceil(NR) * kg * NR, |b_buf| {
        let bp = pack_b(b, b_bytes, beta, kg, kernel, b_buf);
        let a_side = ASide {
            matrix: a,
            bytes: a_bytes,
            map: ByteMap::new(a, alpha),
            lda: lda_of(kg),
        };
        multiply(&a_side, &bp, (m, kg, n), (alpha, beta), c, kernel)
    }))
}

/// A, to be packed one row block at a time.
struct ASide<'a> {
    matrix: &'a ElementMatrix,
    bytes: &'a [u8],
    /// Element patterns to A' bytes (offset α).
    map: ByteMap,
    /// Packed row stride (dwords).
    lda: usize,
}

/// The operands and the terms that undo the shifts.
struct Packed<'a> {
    a: &'a ASide<'a>,
    b_pack: &'a [u32],
    /// β, the factor of a row's term β·Σ A'[row].
    beta: i32,
    /// α·Σ B'[col] + K'·α·β.
    col_term: Vec<i32>,
    kg: usize,
    n: usize,
    c: Option<&'a AccMatrix>,
    kernel: IntKernel,
}

/// The blocked, parallel product of the operands (B packed), with the shifts undone.
fn multiply(
    a: &ASide,
    bp: &BPack,
    (m, kg, n): (usize, usize, usize),
    (alpha, beta): (i32, i32),
    c: Option<&AccMatrix>,
    kernel: IntKernel,
) -> Vec<u32> {
    let constant = ((kg * 4) as i32).wrapping_mul(alpha).wrapping_mul(beta);
    let packed = Packed {
        a,
        b_pack: bp.words,
        beta,
        col_term: bp
            .sums
            .iter()
            .map(|&s| alpha.wrapping_mul(s).wrapping_add(constant))
            .collect(),
        kg,
        n,
        c,
        kernel,
    };
    // Every element of D is written exactly once by `row_block` (each row block covers all
    // of its rows and every column panel up to n), so D need not be zeroed first.
    let mut out: Vec<u32> = Vec::with_capacity(m * n);
    advise_huge_pages(&mut out);
    guided(
        &mut out.spare_capacity_mut()[..m * n],
        n,
        MR,
        BLOCK_PANELS,
        |row0, out_rows| {
            let rows = out_rows.len() / n;
            let lda = packed.a.lda;
            with_scratch(
                Buffer::A,
                rows.div_ceil(MR) * MR * lda,
                |a_pack: &mut [u32]| {
                    let mut sums = [0i32; MR * BLOCK_PANELS];
                    let sums = &mut sums[..rows.div_ceil(MR) * MR];
                    let a = packed.a;
                    pack_a_rows(
                        a.matrix, a.bytes, a.map, kg, lda, row0, kernel, a_pack, sums,
                    );
                    let block = RowBlock {
                        row0,
                        a_pack,
                        row_sums: sums,
                    };
                    #[cfg(target_arch = "x86_64")]
                    if std::arch::is_x86_feature_detected!("avx2") {
                        // SAFETY: AVX2 was detected at run time.
                        unsafe { row_block_avx2(&packed, &block, out_rows) };
                        return;
                    }
                    row_block(&packed, &block, out_rows)
                },
            )
        },
    );
    // SAFETY: the capacity is m·n and all m·n elements were initialised above (`guided`
    // hands out every row once).
    unsafe { out.set_len(m * n) };
    out
}

/// One row block's packed A rows (padded to whole micro-panels) and their sums Σ A'[row].
struct RowBlock<'a> {
    row0: usize,
    a_pack: &'a [u32],
    row_sums: &'a [i32],
}

/// Outputs from this size (bytes) are asked to be backed by transparent huge pages.
const HUGE_OUTPUT: usize = 8 << 20;

/// Asks Linux to back the (fresh, untouched) capacity of a large output with transparent huge
/// pages: the kernel then faults in 2 MiB at a time instead of 4 KiB. At 4096³ the 64 MiB D
/// took about 16 000 page faults per call, measured at ≈ 10% of the GEMM's time. Only a
/// hint: the bits written are the same either way, and failure is ignored.
fn advise_huge_pages(out: &mut Vec<u32>) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let spare = out.spare_capacity_mut();
        let bytes = std::mem::size_of_val(spare);
        if bytes < HUGE_OUTPUT {
            return;
        }
        let start = spare.as_mut_ptr() as usize;
        let first = start.next_multiple_of(HUGE);
        let end = (start + bytes) / HUGE * HUGE;
        if end > first {
            // SAFETY: [first, end) lies inside this Vec's own allocation, which nothing else
            // uses; MADV_HUGEPAGE changes only how its pages are backed, not their contents.
            unsafe {
                libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (out, HUGE_OUTPUT);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn row_block_avx2(p: &Packed, block: &RowBlock, out_rows: &mut [MaybeUninit<u32>]) {
    row_block(p, block, out_rows)
}

/// Rows `row0 ..` of D (as many as `out_rows` holds): for every column panel and K block,
/// the micro-kernel on each MR × NR block, D = C + Σ A'B' + row term + column term.
#[inline(always)]
fn row_block(p: &Packed, block: &RowBlock, out_rows: &mut [MaybeUninit<u32>]) {
    let (kg, n, lda) = (p.kg, p.n, p.a.lda);
    let row_term = |lr: usize| p.beta.wrapping_mul(block.row_sums[lr]);
    let rows = out_rows.len() / n;
    let micro = rows.div_ceil(MR);
    let mut tile = [[0i32; NR]; MR];
    for col0 in (0..n).step_by(NR) {
        let panel = col0 / NR;
        let b_panel = &p.b_pack[panel * kg * NR..(panel + 1) * kg * NR];
        let width = NR.min(n - col0);
        let terms = &p.col_term[col0..col0 + width];
        for g0 in (0..kg).step_by(KCG) {
            let gn = KCG.min(kg - g0);
            let b_block = &b_panel[g0 * NR..(g0 + gn) * NR];
            for i in 0..micro {
                let lr0 = i * MR;
                let a_block = (&block.a_pack[lr0 * lda + g0..], lda);
                let here = MR.min(rows - lr0);
                let gr0 = block.row0 + lr0;
                let d = &mut out_rows[lr0 * n + col0..];
                if here == MR && width == NR {
                    let start = if g0 == 0 {
                        let mut row = [0i32; MR];
                        for (r, t) in row.iter_mut().enumerate() {
                            *t = row_term(lr0 + r);
                        }
                        Start::Terms {
                            row,
                            col: terms,
                            c: p.c.map(|c| (&c.bits()[gr0 * n + col0..], n)),
                        }
                    } else {
                        Start::FromD
                    };
                    if p.kernel.run_direct(a_block, b_block, gn, start, d, n) {
                        continue;
                    }
                }
                // Edge blocks and kernels without a direct form: through the tile.
                for (r, tile_row) in tile.iter_mut().enumerate().take(here) {
                    let gr = gr0 + r;
                    if g0 == 0 {
                        let rt = row_term(lr0 + r);
                        for (t, &ct) in tile_row.iter_mut().zip(terms) {
                            *t = rt.wrapping_add(ct);
                        }
                        if let Some(c) = p.c {
                            let cs = &c.bits()[gr * n + col0..gr * n + col0 + width];
                            for (t, &cv) in tile_row.iter_mut().zip(cs) {
                                *t = t.wrapping_add(cv as i32);
                            }
                        }
                    } else {
                        for (t, v) in tile_row.iter_mut().zip(&d[r * n..r * n + width]) {
                            // SAFETY: the K block g0 = 0 wrote every element of this block.
                            *t = unsafe { v.assume_init() } as i32;
                        }
                    }
                }
                p.kernel.run(a_block, b_block, gn, &mut tile);
                for (r, tile_row) in tile.iter().enumerate().take(here) {
                    for (v, &t) in d[r * n..r * n + width].iter_mut().zip(tile_row) {
                        v.write(t as u32);
                    }
                }
            }
        }
    }
}
