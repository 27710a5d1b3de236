//! Float fast GEMM. The instruction path computes, per output element, one `float_dot` per
//! DPAS instruction (K step), chaining the fp32 accumulator through F intermediates, then
//! converts to the Dst type. Here:
//!
//! - default model (and `cm`, which differs only in how tf32 containers are widened): the
//!   elements are widened to fp32 once, K is zero-padded to whole instructions, and the chain
//!   `acc = acc + a·b` (fp32 product, then fp32 sum, both rounded to nearest even; never fused)
//!   runs in increasing k, vectorised across 16-column groups of MR rows (AVX-512: the
//!   accumulators of a 16 × 16 block in registers, a[r][k] as an embedded broadcast). NaN results become
//!   the canonical NaN, as `float_dot` makes them.
//! - any other model: per element, one `spvx_num::dpas::float_dot` call per K step over the
//!   same zero-padded elements, rows in parallel.

use rayon::prelude::*;
use spvx_num::dpas::{
    Accumulation, DenormalMode, FloatElement, FloatModel, Order, ProductRounding, Tf32Inputs,
    acc_to_bf16, acc_to_fp16, bf16_to_acc, float_dot, fp16_to_acc,
};
use spvx_num::float::{Format, RoundingMode, convert};

use crate::matrix::{AccMatrix, ElementMatrix, MatmulSpec, Tiling};
use crate::{DataType, Precision, SimError};

/// Rows per vector block.
const MR: usize = 16;
/// Columns per vector block.
const NR: usize = 16;

/// fp32 canonical NaN (what `float_dot` returns for NaN results).
const NAN32: u32 = 0x7fc0_0000;

/// D = C + A × B for float precisions (bit patterns of the Dst type).
pub(super) fn matmul(
    spec: &MatmulSpec,
    t: &Tiling,
    a: &ElementMatrix,
    b: &ElementMatrix,
    c: Option<&AccMatrix>,
) -> Result<Vec<u32>, SimError> {
    let model = spec.options.model;
    let acc = if vectorisable(&model) {
        sequential(t, a, b, c, model.tf32_inputs)
    } else {
        per_element(t, a, b, c, &model)?
    };
    Ok(acc
        .into_iter()
        .map(|v| match spec.dst {
            DataType::Bf => u32::from(acc_to_bf16(v, spec.options.bf_rounding)),
            DataType::Hf => u32::from(acc_to_fp16(v)),
            _ => v,
        })
        .collect())
}

/// Whether `model` is the plain sequential fp32 chain of the vector path.
fn vectorisable(model: &FloatModel) -> bool {
    model.accumulation == Accumulation::Sequential
        && model.product == ProductRounding::Fp32
        && model.order == Order::IncreasingK
        && model.input_denormals == DenormalMode::Keep
        && model.output_denormals == DenormalMode::Keep
}

/// The fp32 accumulator start of element [r][j]: C widened exactly, or +0.
fn start(c: Option<&AccMatrix>, r: usize, j: usize) -> u32 {
    match c {
        None => 0,
        Some(c) => {
            let v = c.get(r, j);
            match c.ty() {
                DataType::Bf => bf16_to_acc(v as u16),
                DataType::Hf => fp16_to_acc(v as u16),
                _ => v,
            }
        }
    }
}

/// The fp32 pattern of an fp16 pattern's value (exact; NaN stays NaN, payload kept): the
/// magnitude's bits moved to fp32 positions are the value times 2^−112 (subnormals included),
/// so one exact multiplication by 2^112 rescales them.
fn fp16_to_f32(h: u32) -> u32 {
    let sign = (h & 0x8000) << 16;
    let mag = h & 0x7fff;
    if mag >= 0x7c00 {
        return sign | 0x7f80_0000 | ((mag & 0x3ff) << 13);
    }
    sign | (f32::from_bits(mag << 13) * f32::from_bits(0x7780_0000)).to_bits()
}

/// The exact fp32 value of a float element (tf32 per `tf32`).
fn widen(bits: u32, p: Precision, tf32: Tf32Inputs) -> f32 {
    let f = match p {
        Precision::Tf32 => match tf32 {
            Tf32Inputs::Truncate => bits & 0xffff_e000,
            Tf32Inputs::Full => bits,
        },
        Precision::Bf16 => bits << 16,
        Precision::Fp16 => fp16_to_f32(bits & 0xffff),
        _ => match p.float_format() {
            Some(fmt) => convert(
                fmt,
                u64::from(bits),
                Format::F32,
                RoundingMode::NearestEven,
                false,
            ) as u32,
            None => 0,
        },
    };
    f32::from_bits(f)
}

/// The vectorised sequential chain (see the module documentation).
fn sequential(
    t: &Tiling,
    a: &ElementMatrix,
    b: &ElementMatrix,
    c: Option<&AccMatrix>,
    tf32: Tf32Inputs,
) -> Vec<u32> {
    let (m, k, n) = (a.rows(), a.cols(), b.cols());
    let kp = t.k_steps * t.kd;
    let np = n.div_ceil(NR) * NR;
    // A widened, K padded: row-major m × kp. B widened and padded, in NR-column panels of
    // kp × NR (each panel read as one sequential stream by the chain).
    let mut aw = vec![0f32; m * kp];
    aw.par_chunks_mut(kp).enumerate().for_each(|(r, row)| {
        for (j, v) in row[..k].iter_mut().enumerate() {
            *v = widen(a.get(r, j), a.precision(), tf32);
        }
    });
    let mut bw = vec![0f32; kp * np];
    bw.par_chunks_mut(kp * NR)
        .enumerate()
        .for_each(|(panel, dst)| {
            let col0 = panel * NR;
            for (r, row) in dst.chunks_exact_mut(NR).take(k).enumerate() {
                for (j, v) in row.iter_mut().take(n - col0).enumerate() {
                    *v = widen(b.get(r, col0 + j), b.precision(), tf32);
                }
            }
        });
    let mut out = vec![0u32; m * n];
    out.par_chunks_mut(MR * n)
        .enumerate()
        .for_each(|(block, rows_out)| {
            let row0 = block * MR;
            let rows = rows_out.len() / n;
            for col0 in (0..n).step_by(NR) {
                let mut acc = [[0f32; NR]; MR];
                for (r, acc_row) in acc.iter_mut().enumerate().take(rows) {
                    for (j, v) in acc_row.iter_mut().enumerate().take(n - col0) {
                        *v = f32::from_bits(start(c, row0 + r, col0 + j));
                    }
                }
                let a_rows: [&[f32]; MR] = std::array::from_fn(|r| {
                    let row = (row0 + r).min(m - 1);
                    &aw[row * kp..row * kp + kp]
                });
                chain(&mut acc, &a_rows, &bw[col0 * kp..], NR, kp);
                for (r, acc_row) in acc.iter().enumerate().take(rows) {
                    for (j, v) in acc_row.iter().enumerate().take(n - col0) {
                        let bits = if v.is_nan() { NAN32 } else { v.to_bits() };
                        rows_out[r * n + col0 + j] = bits;
                    }
                }
            }
        });
    out
}

/// `acc[r][j] = acc[r][j] + a[r][k]·b[k][j]` for k = 0..kp in order; `b` starts at the block's
/// first column and has row stride `stride`.
fn chain(acc: &mut [[f32; NR]; MR], a: &[&[f32]; MR], b: &[f32], stride: usize, kp: usize) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f") {
        // SAFETY: AVX-512F was detected at run time.
        unsafe { chain_avx512(acc, a, b, stride, kp) };
        return;
    }
    chain_generic(acc, a, b, stride, kp);
}

/// [`chain_generic`] with AVX-512 intrinsics: the MR × NR accumulators in 2·MR zmm registers,
/// each step one broadcast of a[r][k] per row, a `vmulps` and a `vaddps` (separately rounded,
/// as the scalar code) per vector.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn chain_avx512(acc: &mut [[f32; NR]; MR], a: &[&[f32]; MR], b: &[f32], stride: usize, kp: usize) {
    use std::arch::x86_64::*;
    const Q: usize = NR / 16;
    const { assert!(NR.is_multiple_of(16)) };
    // Steps whose B row and A elements are all in bounds (the generic code stops at the
    // first that is not, too).
    let steps = (0..kp)
        .take_while(|&kk| kk * stride + NR <= b.len() && a.iter().all(|r| kk < r.len()))
        .count();
    let mut v = [[_mm512_setzero_ps(); Q]; MR];
    for (vr, ar) in v.iter_mut().zip(acc.iter()) {
        for (h, x) in vr.iter_mut().enumerate() {
            // SAFETY: `ar` holds NR floats; lanes 16h .. 16h + 16 are in bounds.
            *x = unsafe { _mm512_loadu_ps(ar.as_ptr().add(16 * h)) };
        }
    }
    for kk in 0..steps {
        // SAFETY: kk < steps, so B's row kk (NR floats from kk·stride) and a[r][kk] are in
        // bounds (checked above).
        unsafe {
            let bp = b.as_ptr().add(kk * stride);
            let bv: [__m512; Q] = std::array::from_fn(|q| _mm512_loadu_ps(bp.add(16 * q)));
            for (vr, ar) in v.iter_mut().zip(a.iter()) {
                let av = _mm512_set1_ps(*ar.get_unchecked(kk));
                for (x, &bq) in vr.iter_mut().zip(bv.iter()) {
                    *x = _mm512_add_ps(*x, _mm512_mul_ps(av, bq));
                }
            }
        }
    }
    for (vr, ar) in v.iter().zip(acc.iter_mut()) {
        for (h, x) in vr.iter().enumerate() {
            // SAFETY: as for the loads.
            unsafe { _mm512_storeu_ps(ar.as_mut_ptr().add(16 * h), *x) };
        }
    }
}

#[inline(always)]
fn chain_generic(acc: &mut [[f32; NR]; MR], a: &[&[f32]; MR], b: &[f32], stride: usize, kp: usize) {
    for kk in 0..kp {
        let brow: &[f32; NR] = match b
            .get(kk * stride..kk * stride + NR)
            .and_then(|s| s.try_into().ok())
        {
            Some(row) => row,
            None => return,
        };
        for (acc_row, a_row) in acc.iter_mut().zip(a.iter()) {
            let av = a_row[kk];
            for (v, &bv) in acc_row.iter_mut().zip(brow.iter()) {
                // Two roundings: the product, then the sum (Rust never fuses these).
                let p = av * bv;
                *v += p;
            }
        }
    }
}

/// Any model: per element, one `float_dot` per K step over zero-padded elements.
fn per_element(
    t: &Tiling,
    a: &ElementMatrix,
    b: &ElementMatrix,
    c: Option<&AccMatrix>,
    model: &FloatModel,
) -> Result<Vec<u32>, SimError> {
    let (m, k, n) = (a.rows(), a.cols(), b.cols());
    let rows: Result<Vec<Vec<u32>>, SimError> = (0..m)
        .into_par_iter()
        .map(|r| {
            let mut row = Vec::with_capacity(n);
            let mut bs = vec![
                FloatElement {
                    precision: b.precision(),
                    bits: 0
                };
                t.kd
            ];
            let mut as_ = vec![
                FloatElement {
                    precision: a.precision(),
                    bits: 0
                };
                t.kd
            ];
            for j in 0..n {
                let mut acc = start(c, r, j);
                for step in 0..t.k_steps {
                    for i in 0..t.kd {
                        let kk = step * t.kd + i;
                        let (av, bv) = if kk < k {
                            (a.get(r, kk), b.get(kk, j))
                        } else {
                            (0, 0)
                        };
                        as_[i].bits = av;
                        bs[i].bits = bv;
                    }
                    acc = float_dot(acc, &bs, &as_, model)?;
                }
                row.push(acc);
            }
            Ok(row)
        })
        .collect();
    Ok(rows?.concat())
}

#[cfg(test)]
mod tests {
    use super::*;

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
