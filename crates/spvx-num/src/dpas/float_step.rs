//! Float DPAS dot steps: the elements are widened exactly to fp32 and combined with the fp32
//! accumulator under a [`FloatModel`]. The accumulator and the result are fp32 bit patterns.
//!
//! The sequential model uses the host's IEEE binary32 addition and multiplication, which Rust
//! guarantees to be correctly rounded to nearest even with subnormals (it is exactly what the
//! emulators do); the fused and exact forms use the exact sums of [`crate::float`]. Every NaN
//! result is the canonical fp32 NaN 0x7fc00000 (the emulators would pass on host NaN payloads).

use super::{
    Accumulation, DenormalMode, DpasError, FloatElement, FloatModel, Order, PackedRun, Precision,
    ProductRounding, Tf32Inputs, ops_per_chan,
};
use crate::float::{ExactSum, Format, RoundingMode, Term, convert};

const RNE: RoundingMode = RoundingMode::NearestEven;

fn flushes(mode: DenormalMode, precision: Precision) -> bool {
    match mode {
        DenormalMode::Keep => false,
        DenormalMode::FlushBfTf => matches!(precision, Precision::Bf16 | Precision::Tf32),
        DenormalMode::FlushAll => true,
    }
}

/// Replaces an fp32 denormal by zero of the same sign.
fn flush32(bits: u32) -> u32 {
    if Format::F32.is_subnormal(u64::from(bits)) {
        bits & 0x8000_0000
    } else {
        bits
    }
}

fn canonical(bits: u32) -> u32 {
    if Format::F32.is_nan(u64::from(bits)) {
        Format::F32.canonical_nan() as u32
    } else {
        bits
    }
}

/// The fp32 pattern of an element (exact widening), after the tf32 and input-denormal rules.
fn widen(e: FloatElement, model: &FloatModel) -> Result<u32, DpasError> {
    let (format, bits) = match (e.precision, model.tf32_inputs) {
        (Precision::Tf32, Tf32Inputs::Full) => (Format::F32, u64::from(e.bits)),
        (p, _) => match p.float_format() {
            Some(f) => (f, u64::from(e.bits) & f.storage_mask()),
            None => {
                return Err(DpasError::WrongPrecisionKind {
                    op: "float_dot",
                    expected: "float",
                    precision: p,
                });
            }
        },
    };
    if flushes(model.input_denormals, e.precision) && format.is_subnormal(bits) {
        return Ok(if format.is_negative(bits) {
            0x8000_0000
        } else {
            0
        });
    }
    Ok(convert(format, bits, Format::F32, RNE, false) as u32)
}

fn dec(bits: u32) -> crate::float::Decoded {
    Format::F32.decode(u64::from(bits))
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
    let ops = match (src1.first(), src2.first()) {
        (Some(b), Some(a)) => ops_per_chan(b.precision, a.precision)?,
        _ => 1,
    };
    // The precision class of the operation, for the bf/tf denormal switches.
    let class = src1.first().map_or(Precision::Fp16, |e| e.precision);
    let mut pairs = Vec::with_capacity(src1.len());
    for (&b, &a) in src1.iter().zip(src2) {
        let both_hf = b.precision == Precision::Fp16 && a.precision == Precision::Fp16;
        pairs.push((widen(b, model)?, widen(a, model)?, both_hf));
    }
    let acc = if flushes(model.input_denormals, class) {
        flush32(acc)
    } else {
        acc
    };
    let flush_out = flushes(model.output_denormals, class);
    let out = |v: u32| if flush_out { flush32(v) } else { v };

    if model.accumulation == Accumulation::Exact {
        let mut terms = Vec::with_capacity(pairs.len() + 1);
        terms.push(Term::Value(dec(acc)));
        terms.extend(pairs.iter().map(|&(b, a, _)| Term::Product(dec(b), dec(a))));
        let sum = ExactSum::of(&terms).round(Format::F32, RNE, false) as u32;
        return Ok(canonical(out(sum)));
    }

    let order: Vec<usize> = match model.order {
        Order::IncreasingK => (0..pairs.len()).collect(),
        Order::SubwordMajorAccLast => {
            let ops = ops as usize;
            if pairs.len() % ops != 0 {
                return Err(DpasError::NotWholeChannels {
                    len: pairs.len(),
                    ops: ops as u32,
                });
            }
            let depths = pairs.len() / ops;
            (0..ops)
                .flat_map(|sub| (0..depths).map(move |d| d * ops + sub))
                .collect()
        }
    };
    let acc_last = model.order == Order::SubwordMajorAccLast;
    let mut s = if acc_last { 0 } else { acc };
    for j in order {
        let (b, a, both_hf) = pairs[j];
        s = out(match model.product {
            ProductRounding::Fused => Format::F32.fma(dec(b), dec(a), dec(s), RNE) as u32,
            ProductRounding::Fp16ForHf if both_hf => {
                let p16 = Format::F16.mul(dec(b), dec(a), RNE);
                let p = convert(Format::F16, p16, Format::F32, RNE, false) as u32;
                (f32::from_bits(s) + f32::from_bits(p)).to_bits()
            }
            _ => (f32::from_bits(s) + f32::from_bits(b) * f32::from_bits(a)).to_bits(),
        });
    }
    if acc_last {
        s = out((f32::from_bits(s) + f32::from_bits(acc)).to_bits());
    }
    Ok(canonical(s))
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
    let b = src1.floats(ops)?;
    let a = src2.floats(ops)?;
    float_dot(acc, &b, &a, model)
}
