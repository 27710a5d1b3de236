//! Float GEMM micro-kernels: an MR × NR block of fp32 accumulators, `acc[r][c] ← acc[r][c] +
//! a[r][k]·b[k][c]` for k in increasing order, over packed operands (A: MR rows `lda` floats
//! apart; B: an NR-column panel, NR floats per k). Two step forms:
//!
//! - separate: the product rounded to fp32, then the sum (`vmulps`, `vaddps`): the default
//!   model itself;
//! - fused: one `vfmadd231ps`, the same bits when every product is exact in fp32 (the caller
//!   decides, see `float_exact`), at half the instructions.
//!
//! The AVX-512 kernel keeps the block in 24 zmm registers (6 rows × 4 vectors of 16 lanes),
//! loads B's 4 vectors once per k and broadcasts each row's A element from its row in memory. A plain
//! Rust kernel (always separate, which is the model) serves other CPUs.

/// Rows of a block.
pub(super) const MR: usize = 6;
/// 16-lane vectors per block row.
const NV: usize = 4;
/// Columns of a block.
pub(super) const NR: usize = 16 * NV;

/// The accumulators of one block: `acc` rows `ldc` floats apart, starting from their values
/// (`load`) or from +0.
pub(super) struct Block<'a> {
    pub(super) acc: &'a mut [f32],
    pub(super) ldc: usize,
    pub(super) load: bool,
}

/// Runs `kc` steps of the block on the packed `a` (MR rows of ≥ kc floats, `lda` apart) and
/// `b` (≥ kc·NR floats); `fused` steps only when every product is exact. Too-short slices are
/// an internal error and only cut the chain short in release builds.
pub(super) fn run((a, lda): (&[f32], usize), b: &[f32], kc: usize, block: Block<'_>, fused: bool) {
    let kc = kc
        .min(lda)
        .min(a.len().saturating_sub((MR - 1) * lda))
        .min(b.len() / NR);
    debug_assert!(block.acc.len() >= (MR - 1) * block.ldc + NR);
    if block.acc.len() < (MR - 1) * block.ldc + NR {
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f") {
        // SAFETY: AVX-512F was detected at run time; `kc` steps fit in `a` and `b` (clamped
        // above) and the block's MR rows of NR floats fit in `acc` (checked above).
        unsafe {
            if fused {
                avx512::<true>((a.as_ptr(), lda), b.as_ptr(), kc, block);
            } else {
                avx512::<false>((a.as_ptr(), lda), b.as_ptr(), kc, block);
            }
        }
        return;
    }
    let _ = fused;
    portable((a, lda), b, kc, block);
}

/// The separate-rounding chain in plain Rust (Rust never fuses `a * b + c`).
fn portable((a, lda): (&[f32], usize), b: &[f32], kc: usize, block: Block<'_>) {
    let mut acc = [[0f32; NR]; MR];
    if block.load {
        for (r, row) in acc.iter_mut().enumerate() {
            row.copy_from_slice(&block.acc[r * block.ldc..r * block.ldc + NR]);
        }
    }
    for (k, bk) in b.chunks_exact(NR).enumerate().take(kc) {
        for (r, row) in acc.iter_mut().enumerate() {
            let av = a[r * lda + k];
            for (v, &bv) in row.iter_mut().zip(bk) {
                let p = av * bv;
                *v += p;
            }
        }
    }
    for (r, row) in acc.iter().enumerate() {
        block.acc[r * block.ldc..r * block.ldc + NR].copy_from_slice(row);
    }
}

/// # Safety
/// AVX-512F must be available; `a` must hold MR rows of kc floats `lda` apart, `b` kc·NR
/// floats, and `block.acc` MR rows of NR floats `block.ldc` apart.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn avx512<const FUSED: bool>(
    (a, lda): (*const f32, usize),
    b: *const f32,
    kc: usize,
    block: Block<'_>,
) {
    use std::arch::x86_64::*;
    let c = block.acc.as_mut_ptr();
    let ldc = block.ldc;
    let mut acc = [[_mm512_setzero_ps(); NV]; MR];
    if block.load {
        for (r, row) in acc.iter_mut().enumerate() {
            for (v, x) in row.iter_mut().enumerate() {
                // SAFETY: row r, lanes 16v .. 16v + 16 lie in the block (caller).
                *x = unsafe { _mm512_loadu_ps(c.add(r * ldc + 16 * v)) };
            }
        }
    }
    for k in 0..kc {
        // SAFETY: step k < kc reads B floats k·NR .. k·NR + NR and A float r·lda + k of each
        // row r (caller).
        unsafe {
            let bp = b.add(k * NR);
            let bv: [__m512; NV] = std::array::from_fn(|v| _mm512_loadu_ps(bp.add(16 * v)));
            let ap = a.add(k);
            for (r, row) in acc.iter_mut().enumerate() {
                let av = _mm512_set1_ps(*ap.add(r * lda));
                for (x, &bq) in row.iter_mut().zip(bv.iter()) {
                    *x = if FUSED {
                        _mm512_fmadd_ps(av, bq, *x)
                    } else {
                        _mm512_add_ps(*x, _mm512_mul_ps(av, bq))
                    };
                }
            }
        }
    }
    for (r, row) in acc.iter().enumerate() {
        for (v, x) in row.iter().enumerate() {
            // SAFETY: as for the loads.
            unsafe { _mm512_storeu_ps(c.add(r * ldc + 16 * v), *x) };
        }
    }
}
