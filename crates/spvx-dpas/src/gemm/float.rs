//! Float fast GEMM. The instruction path computes, per output element, one `float_dot` per
//! DPAS instruction (K step), chaining the fp32 accumulator through F intermediates, then
//! converts to the Dst type. Here:
//!
//! - default model (and `cm`, which differs only in how tf32 containers are widened): the
//!   elements are widened to fp32 once, K is zero-padded to whole instructions, and the chain
//!   `acc = acc + a·b` (fp32 product, then fp32 sum, both rounded to nearest even) runs in
//!   increasing k for every element, blocked and in parallel (`float_blocked`), on a fused
//!   multiply-add wherever every product is exact in fp32, which gives the same bits
//!   (`float_exact`), on separate multiply and add otherwise (`float_kernel`). NaN results
//!   become the canonical NaN, as `float_dot` makes them.
//! - any other model: per element, one `spvx_num::dpas::float_dot` call per K step over the
//!   same zero-padded elements, rows in parallel.

use rayon::prelude::*;
use spvx_num::dpas::{
    Accumulation, DenormalMode, FloatElement, FloatModel, Order, ProductRounding, acc_to_bf16,
    acc_to_fp16, bf16_to_acc, float_dot, fp16_to_acc,
};

use super::float_blocked::{self, Operands};
use super::float_pack::Widening;

use crate::matrix::{AccMatrix, ElementMatrix, MatmulSpec, Tiling};
use crate::{DataType, SimError};

/// D = C + A × B for float precisions (bit patterns of the Dst type).
pub(super) fn matmul(
    spec: &MatmulSpec,
    t: &Tiling,
    a: &ElementMatrix,
    b: &ElementMatrix,
    c: Option<&AccMatrix>,
) -> Result<Vec<u32>, SimError> {
    let model = spec.options.model;
    let dst = spec.dst;
    let bf_rounding = spec.options.bf_rounding;
    let finish = move |v: u32| match dst {
        DataType::Bf => u32::from(acc_to_bf16(v, bf_rounding)),
        DataType::Hf => u32::from(acc_to_fp16(v)),
        _ => v,
    };
    let finish_rows = move |rows: &mut [f32]| {
        if matches!(dst, DataType::Bf | DataType::Hf) {
            for v in rows.iter_mut() {
                *v = f32::from_bits(finish(v.to_bits()));
            }
        }
    };
    if vectorisable(&model) {
        let ops = Operands {
            a,
            b,
            wa: Widening::of(a.precision(), model.tf32_inputs),
            wb: Widening::of(b.precision(), model.tf32_inputs),
            kp: t.k_steps * t.kd,
        };
        let from_c = move |r: usize, j: usize| start(c, r, j);
        let from_c: Option<&(dyn Fn(usize, usize) -> u32 + Sync)> = match c {
            Some(_) => Some(&from_c),
            None => None,
        };
        return Ok(float_blocked::matmul(&ops, from_c, &finish_rows));
    }
    let acc = per_element(t, a, b, c, &model)?;
    Ok(acc.into_par_iter().map(finish).collect())
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
