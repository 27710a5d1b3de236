//! df (fp64) DPAS dot products: Src1, Src2, Src0 and Dst all hold IEEE binary64 values (DPAS.md:
//! "For df type, dst/src0/src1/srcs must have same df precision"; "the output of each stage is
//! a … df which is the accumulated input to the next systolic stage"). One element per channel
//! and stage (OPS_PER_CHAN 1), so a dot product over K = SD elements is SD stages.
//!
//! Under [`Accumulation::Sequential`] each stage rounds its output to fp64 (nearest even);
//! [`DfProduct`] says whether the product is rounded too. [`Accumulation::Exact`] rounds the
//! exact sum once. Denormals are always kept (no DPAS denormal control covers df); every NaN
//! result is the canonical fp64 NaN. The arithmetic is that of [`crate::float`] (exact sums),
//! not the host's.

use super::{Accumulation, DfProduct, DpasError, FloatModel, Order};
use crate::float::{Decoded, ExactSum, Format, RoundingMode, Term};

const RNE: RoundingMode = RoundingMode::NearestEven;

fn dec(bits: u64) -> Decoded {
    Format::F64.decode(bits)
}

fn canonical(bits: u64) -> u64 {
    if f64::from_bits(bits).is_nan() {
        Format::F64.canonical_nan()
    } else {
        bits
    }
}

/// One stage: `s + b·a` under `product`.
fn stage(s: u64, b: u64, a: u64, product: DfProduct) -> u64 {
    match product {
        DfProduct::Fused => Format::F64.fma(dec(b), dec(a), dec(s), RNE),
        DfProduct::Rounded => {
            let p = Format::F64.mul(dec(b), dec(a), RNE);
            Format::F64.add(dec(s), dec(p), RNE)
        }
    }
}

/// `acc + Σ src1[j]·src2[j]` for fp64 bit patterns under `model` (its df switches:
/// [`FloatModel::accumulation`], [`FloatModel::df_product`], [`FloatModel::order`]; the
/// denormal, tf32 and fp32-product switches do not apply to df). `acc` is the Src0 value (+0.0
/// = 0 for a null Src0). With [`Order::SubwordMajorAccLast`] (OPS_PER_CHAN 1: the products in
/// increasing k from +0) the accumulator is added last.
pub fn df_dot(acc: u64, src1: &[u64], src2: &[u64], model: &FloatModel) -> Result<u64, DpasError> {
    if src1.len() != src2.len() {
        return Err(DpasError::LengthMismatch {
            src1: src1.len(),
            src2: src2.len(),
        });
    }
    if model.accumulation == Accumulation::Exact {
        let mut terms = Vec::with_capacity(src1.len() + 1);
        terms.push(Term::Value(dec(acc)));
        for (&b, &a) in src1.iter().zip(src2) {
            terms.push(Term::Product(dec(b), dec(a)));
        }
        return Ok(canonical(ExactSum::of(&terms).round(
            Format::F64,
            RNE,
            false,
        )));
    }
    let products = src1.iter().zip(src2);
    let result = match model.order {
        Order::IncreasingK => products.fold(acc, |s, (&b, &a)| stage(s, b, a, model.df_product)),
        Order::SubwordMajorAccLast => {
            let s = products.fold(0, |s, (&b, &a)| stage(s, b, a, model.df_product));
            Format::F64.add(dec(s), dec(acc), RNE)
        }
    };
    Ok(canonical(result))
}
