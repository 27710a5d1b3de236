//! Float DPAS dot steps: the elements are widened exactly to fp32 and combined with the fp32
//! accumulator under a [`FloatModel`]. The accumulator and the result are fp32 bit patterns.
//!
//! The sequential model uses the host's IEEE binary32 addition and multiplication, which Rust
//! guarantees to be correctly rounded to nearest even with subnormals (it is exactly what the
//! emulators do); the fused and exact forms and the fp16 product rounding use the exact sums
//! of [`crate::float`]. Every NaN result is the canonical fp32 NaN 0x7fc00000 (the emulators
//! would pass on host NaN payloads).

use super::widen::widen;
use super::{
    Accumulation, DenormalMode, DpasError, FloatElement, FloatModel, Order, PackedRun, Precision,
    ProductRounding, ops_per_chan,
};
use crate::float::{Decoded, ExactSum, Format, RoundingMode, Term, convert};

const RNE: RoundingMode = RoundingMode::NearestEven;

fn flushes(mode: DenormalMode, precision: Precision) -> bool {
    match mode {
        DenormalMode::Keep => false,
        DenormalMode::FlushBfTf => matches!(precision, Precision::Bf16 | Precision::Tf32),
        DenormalMode::FlushAll => true,
    }
}

/// Replaces an fp32 denormal by zero of the same sign.
#[inline]
fn flush32(bits: u32) -> u32 {
    if bits & 0x7f80_0000 == 0 {
        bits & 0x8000_0000
    } else {
        bits
    }
}

#[inline]
fn canonical(bits: u32) -> u32 {
    if f32::from_bits(bits).is_nan() {
        Format::F32.canonical_nan() as u32
    } else {
        bits
    }
}

fn dec(bits: u32) -> Decoded {
    Format::F32.decode(u64::from(bits))
}

/// The settings of one call, resolved from the model and the operation's precision.
struct Step {
    model: FloatModel,
    flush_in: bool,
    flush_out: bool,
}

impl Step {
    /// fp32 pattern of an element after the tf32 and input-denormal rules.
    #[inline]
    fn element(&self, e: FloatElement) -> Result<u32, DpasError> {
        let (bits, subnormal) = widen(e, self.model.tf32_inputs)?;
        Ok(
            if subnormal && flushes(self.model.input_denormals, e.precision) {
                bits & 0x8000_0000
            } else {
                bits
            },
        )
    }

    #[inline]
    fn out(&self, v: u32) -> u32 {
        if self.flush_out { flush32(v) } else { v }
    }

    /// `s + b·a` under the product rule, then the output rule.
    #[inline]
    fn accumulate(&self, s: u32, b: FloatElement, a: FloatElement) -> Result<u32, DpasError> {
        let (x, y) = (self.element(b)?, self.element(a)?);
        let both_hf = b.precision == Precision::Fp16 && a.precision == Precision::Fp16;
        let r = match self.model.product {
            ProductRounding::Fused => Format::F32.fma(dec(x), dec(y), dec(s), RNE) as u32,
            ProductRounding::Fp16ForHf if both_hf => {
                let p16 = Format::F16.mul(dec(x), dec(y), RNE);
                let p = convert(Format::F16, p16, Format::F32, RNE, false) as u32;
                (f32::from_bits(s) + f32::from_bits(p)).to_bits()
            }
            _ => (f32::from_bits(s) + f32::from_bits(x) * f32::from_bits(y)).to_bits(),
        };
        Ok(self.out(r))
    }
}

fn check_sources(src1: &[FloatElement], src2: &[FloatElement]) -> Result<u32, DpasError> {
    if src1.len() != src2.len() {
        return Err(DpasError::LengthMismatch {
            src1: src1.len(),
            src2: src2.len(),
        });
    }
    for (operand, list) in [("Src1", src1), ("Src2", src2)] {
        if let Some(first) = list.first()
            && let Some(other) = list.iter().find(|e| e.precision != first.precision)
        {
            return Err(DpasError::InconsistentPrecision {
                operand,
                first: first.precision,
                other: other.precision,
            });
        }
    }
    match (src1.first(), src2.first()) {
        (Some(b), Some(a)) => ops_per_chan(b.precision, a.precision),
        _ => Ok(1),
    }
}

/// `acc + Σ src1[j]·src2[j]` accumulated into fp32 under `model`. `acc` is the fp32 Src0 value
/// (use +0.0 = 0 for a null Src0; widen BF/HF Src0 with [`super::bf16_to_acc`] /
/// [`super::fp16_to_acc`]). All elements of one source share one precision, and the two
/// precisions must be a legal DPAS combination ([`ops_per_chan`]).
/// With [`Order::SubwordMajorAccLast`] the elements are taken as consecutive channels of
/// OPS_PER_CHAN elements each (k increasing), as a whole DPAS row supplies them.
pub fn float_dot(
    acc: u32,
    src1: &[FloatElement],
    src2: &[FloatElement],
    model: &FloatModel,
) -> Result<u32, DpasError> {
    let ops = check_sources(src1, src2)? as usize;
    // The precision class of the operation, for the bf/tf denormal switches.
    let class = src1.first().map_or(Precision::Fp16, |e| e.precision);
    let step = Step {
        model: *model,
        flush_in: flushes(model.input_denormals, class),
        flush_out: flushes(model.output_denormals, class),
    };
    let acc = if step.flush_in { flush32(acc) } else { acc };

    if model.accumulation == Accumulation::Exact {
        let mut terms = Vec::with_capacity(src1.len() + 1);
        terms.push(Term::Value(dec(acc)));
        for (&b, &a) in src1.iter().zip(src2) {
            terms.push(Term::Product(dec(step.element(b)?), dec(step.element(a)?)));
        }
        let sum = ExactSum::of(&terms).round(Format::F32, RNE, false) as u32;
        return Ok(canonical(step.out(sum)));
    }

    let result = match model.order {
        Order::IncreasingK => {
            let mut s = acc;
            for (&b, &a) in src1.iter().zip(src2) {
                s = step.accumulate(s, b, a)?;
            }
            s
        }
        Order::SubwordMajorAccLast => {
            if !src1.len().is_multiple_of(ops) {
                return Err(DpasError::NotWholeChannels {
                    len: src1.len(),
                    ops: ops as u32,
                });
            }
            let depths = src1.len() / ops;
            let mut s = 0;
            for sub in 0..ops {
                for d in 0..depths {
                    let j = d * ops + sub;
                    s = step.accumulate(s, src1[j], src2[j])?;
                }
            }
            step.out((f32::from_bits(s) + f32::from_bits(acc)).to_bits())
        }
    };
    Ok(canonical(result))
}

/// One float DPAS step for one channel: `acc + dotOPS(src1 run, src2 run)` with OPS =
/// [`ops_per_chan`] (dot2 for bf16/fp16, dot1 for tf32, dot4 for fp8); each run supplies OPS
/// consecutive elements of its channel (DPAS.md: `temp.F[i] += dot2(Src1.R[m].DW[i].n[1:0],
/// Src2.k[1:0])`).
pub fn float_dot_step(
    acc: u32,
    src1: PackedRun,
    src2: PackedRun,
    model: &FloatModel,
) -> Result<u32, DpasError> {
    let ops = ops_per_chan(src1.precision, src2.precision)?;
    let n = ops as usize;
    let b = src1.floats(ops)?;
    let a = src2.floats(ops)?;
    float_dot(acc, &b[..n], &a[..n], model)
}
