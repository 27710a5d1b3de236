//! The blocked, parallel float GEMM of the default model: B packed once (in parallel), then
//! row blocks handed out to the rayon pool's threads (`schedule`). Each task packs its own rows of A, decides whether the
//! fused kernel is exact for its rows (`float_exact`: every product of one of its A values
//! with a B value exact in fp32), starts its rows of D from C (or lets the first K block start
//! from +0), and walks K in blocks of KC steps: for each NR-column panel, for each MR-row
//! micro-panel, one micro-kernel call on a kc × NR slice of the B panel (kept in L2 across the
//! micro-panels) and MR row pieces of kc floats of A. D holds the fp32 accumulators between K blocks (the
//! same values the registers held, so the order of every element's chain is unchanged).
//! Blocks at the right and bottom edges run on a small tile. Last, each task turns its rows
//! into result patterns (NaN made canonical, then the Dst conversion).

use super::float_exact::{Span, products_exact};
use super::float_kernel::{self, Block, MR, NR};
use super::float_pack::{Widening, a_stride, pack_a, pack_b};
use super::schedule::guided;
use super::scratch::{Buffer, with_scratch};
use crate::matrix::ElementMatrix;

/// K steps per K block: a kc × NR B slice of 128 KiB, re-read from L2 by each micro-panel
/// (measured on the 2-vCPU EPYC at 1024³ fp16, one thread: 512 ran ≈ 5% faster than 256 or
/// 128, as fast as 1024).
const KC: usize = 512;

/// Micro-panels per row block at most (96 rows: the task's A block, 96 × KC floats, and
/// the B slice stay in L2).
const TASK_PANELS: usize = 16;

/// fp32 canonical NaN (what `float_dot` returns for NaN results).
const NAN32: u32 = 0x7fc0_0000;

/// The operands of one GEMM.
pub(super) struct Operands<'a> {
    pub(super) a: &'a ElementMatrix,
    pub(super) b: &'a ElementMatrix,
    pub(super) wa: Widening,
    pub(super) wb: Widening,
    /// K padded to whole instructions.
    pub(super) kp: usize,
}

/// D = start + A × B as result patterns: `start(r, j)` gives element (r, j)'s fp32 start
/// (`None`: +0 everywhere); `finish` turns the fp32 results of a row block into Dst patterns
/// (stored as `f32::from_bits`), NaN made canonical first.
pub(super) fn matmul(
    ops: &Operands<'_>,
    start: Option<&(dyn Fn(usize, usize) -> u32 + Sync)>,
    finish: &(dyn Fn(&mut [f32]) + Sync),
) -> Vec<u32> {
    let (m, n, kp) = (ops.a.rows(), ops.b.cols(), ops.kp);
    let panels = n.div_ceil(NR);
    let mut out = vec![0u32; m * n];
    // SAFETY: f32 and u32 have the same size and alignment and every bit pattern is valid for
    // both, so the elements may be viewed as f32 (the accumulators) and returned as u32.
    let acc = unsafe { std::slice::from_raw_parts_mut(out.as_mut_ptr().cast::<f32>(), out.len()) };
    with_scratch(Buffer::B, panels * kp * NR, |bp| {
        let b_span = pack_b(ops.b, ops.wb, kp, bp);
        let bp = &*bp;
        guided(acc, n, MR, TASK_PANELS, |row0, rows_out| {
            row_block(ops, bp, b_span, start, row0, rows_out);
            for v in rows_out.iter_mut() {
                if v.is_nan() {
                    *v = f32::from_bits(NAN32);
                }
            }
            finish(rows_out);
        });
    });
    out
}

/// Rows `row0 ..` of D (as many as `out` holds), as fp32 accumulators.
fn row_block(
    ops: &Operands<'_>,
    bp: &[f32],
    b_span: Span,
    start: Option<&(dyn Fn(usize, usize) -> u32 + Sync)>,
    row0: usize,
    out: &mut [f32],
) {
    let (n, kp) = (ops.b.cols(), ops.kp);
    if n == 0 {
        return;
    }
    let rows = out.len() / n;
    let micro = rows.div_ceil(MR);
    if let Some(start) = start {
        for (r, row) in out.chunks_exact_mut(n).enumerate() {
            for (j, v) in row.iter_mut().enumerate() {
                *v = f32::from_bits(start(row0 + r, j));
            }
        }
    }
    let lda = a_stride(kp);
    with_scratch(Buffer::A, micro * MR * lda, |ap| {
        let a_span = pack_a(ops.a, ops.wa, row0, lda, ap);
        let fused = products_exact(a_span, b_span);
        let mut tile = [0f32; MR * NR];
        for k0 in (0..kp).step_by(KC) {
            let kc = KC.min(kp - k0);
            let load = k0 > 0 || start.is_some();
            for (panel, b_panel) in bp.chunks_exact(kp * NR).enumerate() {
                let col0 = panel * NR;
                let width = NR.min(n - col0);
                let b_slice = &b_panel[k0 * NR..(k0 + kc) * NR];
                for (i, a_panel) in ap.chunks_exact(MR * lda).enumerate() {
                    let a_slice = (&a_panel[k0..], lda);
                    let here = MR.min(rows - i * MR);
                    let at = i * MR * n + col0;
                    if here == MR && width == NR {
                        let block = Block {
                            acc: &mut out[at..],
                            ldc: n,
                            load,
                        };
                        float_kernel::run(a_slice, b_slice, kc, block, fused);
                        continue;
                    }
                    // Edge block: through the tile (+0 where there is no element).
                    tile.fill(0.0);
                    if load {
                        for r in 0..here {
                            tile[r * NR..r * NR + width]
                                .copy_from_slice(&out[at + r * n..at + r * n + width]);
                        }
                    }
                    let block = Block {
                        acc: &mut tile,
                        ldc: NR,
                        load: true,
                    };
                    float_kernel::run(a_slice, b_slice, kc, block, fused);
                    for r in 0..here {
                        out[at + r * n..at + r * n + width]
                            .copy_from_slice(&tile[r * NR..r * NR + width]);
                    }
                }
            }
        }
    });
}
