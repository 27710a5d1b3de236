//! The exact arithmetic of `spvx calc`, one case per array element: the fixed-point functions
//! of SPV_INTEL_arbitrary_precision_fixed_point (`spvx calc fixed`) and the mixed float dot
//! products of SPV_VALVE_mixed_float_dot_product (`spvx calc mixdot`), from spvx-num.

use crate::errors::{Kind, raise};
use num_bigint::BigUint;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use spvx_num::fixed::{FixedFunction, FixedOp, Overflow, Quantization, evaluate};
use spvx_num::float::RoundingMode;
use spvx_num::mixdot::{Encoding, MixOp, MixdotCase, Model, ModelConfig};

/// Each input's result components (one, or sine and cosine). The one place the elements are
/// evaluated: this loop is what a batch API of spvx-num would replace.
fn evaluate_all(op: &FixedOp, inputs: &[BigUint]) -> PyResult<Vec<Vec<BigUint>>> {
    inputs
        .iter()
        .enumerate()
        .map(|(k, x)| {
            evaluate(op, x)
                .map(|outcome| outcome.value.components().into_iter().cloned().collect())
                .map_err(|e| raise(Kind::Calc, format!("error: bits[{k}]: {e}")))
        })
        .collect()
}

/// `spvx calc fixed`: FUNCTION of every input bit pattern (W bits, I integer bits), result
/// RW bits with RI integer bits, quantization Q and overflow O (SPIR-V numbers or names);
/// with the number of result components (2 for sincos and sincospi).
#[pyfunction]
#[pyo3(signature = (function, bits, w, i, rw, ri, signed, q, o))]
#[allow(clippy::too_many_arguments)]
pub fn fixed(
    function: &str,
    bits: Vec<BigUint>,
    w: u32,
    i: i32,
    rw: u32,
    ri: i32,
    signed: bool,
    q: &str,
    o: &str,
) -> PyResult<(Vec<Vec<BigUint>>, usize)> {
    let arg = |e: String| raise(Kind::Argument, format!("error: {e}"));
    let function: FixedFunction = function.parse().map_err(|e| arg(format!("{e}")))?;
    let op = FixedOp {
        function,
        signed,
        input_width: w,
        input_int_bits: i,
        result_width: rw,
        result_int_bits: ri,
        quantization: Quantization::parse(q).map_err(|e| arg(format!("q: {e}")))?,
        overflow: Overflow::parse(o).map_err(|e| arg(format!("o: {e}")))?,
    };
    op.input_format().map_err(|e| arg(format!("w: {e}")))?;
    op.result_format().map_err(|e| arg(format!("rw: {e}")))?;
    let components = if function.is_pair() { 2 } else { 1 };
    Ok((evaluate_all(&op, &bits)?, components))
}

/// Little-endian 32-bit words of `bytes` (the Python side gives whole words).
fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect()
}

/// `spvx calc mixdot`: OP of every (A, B, ACC) triple — A and B packed words, ACC the
/// accumulator's bits — as little-endian u32 arrays of one length; the result bits, one u32
/// each, and the width of the result format (16 or 32).
#[pyfunction]
#[pyo3(signature = (op, enc1, enc2, a, b, acc, model, rounding, flush_input_denormals, flush_output_denormals))]
#[allow(clippy::too_many_arguments)]
pub fn mixdot<'py>(
    py: Python<'py>,
    op: &str,
    enc1: &str,
    enc2: &str,
    a: &[u8],
    b: &[u8],
    acc: &[u8],
    model: &str,
    rounding: &str,
    flush_input_denormals: bool,
    flush_output_denormals: bool,
) -> PyResult<(Bound<'py, PyBytes>, usize)> {
    let arg = |e: String| raise(Kind::Argument, format!("error: {e}"));
    let op: MixOp = op.parse().map_err(|e| arg(format!("{e}")))?;
    let enc1: Encoding = enc1.parse().map_err(|e| arg(format!("enc1: {e}")))?;
    let enc2: Encoding = enc2.parse().map_err(|e| arg(format!("enc2: {e}")))?;
    let model: Model = model.parse().map_err(|e| arg(format!("{e}")))?;
    let rounding: RoundingMode = rounding.parse().map_err(|e| arg(format!("{e}")))?;
    let cfg = ModelConfig {
        model,
        flush_input_denormals,
        flush_output_denormals,
        rounding,
    };
    let width = MixdotCase::new(op, enc1, enc2, 0, 0, 0)
        .map_err(|e| arg(format!("{e}")))?
        .result_format()
        .hex_digits()
        * 4;
    let (a, b, acc) = (words(a), words(b), words(acc));
    let mut out = Vec::with_capacity(a.len() * 4);
    for (k, ((&a, &b), &acc)) in a.iter().zip(&b).zip(&acc).enumerate() {
        let case = MixdotCase::new(op, enc1, enc2, a, b, acc)
            .map_err(|e| raise(Kind::Calc, format!("error: element {k}: {e}")))?;
        out.extend_from_slice(&case.evaluate(&cfg).to_le_bytes());
    }
    Ok((PyBytes::new(py, &out), width))
}
