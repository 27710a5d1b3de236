//! The exact arithmetic of `spvx calc`, one case per array element: the fixed-point functions
//! of SPV_INTEL_arbitrary_precision_fixed_point (`spvx calc fixed`) and the mixed float dot
//! products of SPV_VALVE_mixed_float_dot_product (`spvx calc mixdot`), from spvx-num's batch
//! APIs over all cores (`fixed::evaluate_batch_parallel` for widths up to 64 bits,
//! `mixdot::bulk::evaluate_form`), the GIL released while they run.

use crate::errors::{Kind, raise};
use num_bigint::BigUint;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use spvx_num::fixed::{
    BatchError, FixedFunction, FixedOp, Overflow, Quantization, evaluate, evaluate_batch_parallel,
};
use spvx_num::float::RoundingMode;
use spvx_num::mixdot::bulk::{FormError, evaluate_form};
use spvx_num::mixdot::{Encoding, MixOp, MixdotCase, Model, ModelConfig};

/// The error of input `k`, as `spvx calc fixed` words it.
fn input_error(k: usize, e: impl std::fmt::Display) -> PyErr {
    raise(Kind::Calc, format!("error: bits[{k}]: {e}"))
}

/// Each input's result components, one input at a time on big integers: formats wider than
/// 64 bits, and patterns beyond 64 bits (which fail as too wide for the input).
fn evaluate_each(op: &FixedOp, inputs: &[BigUint]) -> PyResult<Vec<Vec<BigUint>>> {
    inputs
        .iter()
        .enumerate()
        .map(|(k, x)| {
            evaluate(op, x)
                .map(|outcome| outcome.value.components().into_iter().cloned().collect())
                .map_err(|e| input_error(k, e))
        })
        .collect()
}

/// W, rW ≤ 64: the result patterns of every input in one batch over all cores, the
/// components of each input consecutive (sine then cosine).
fn evaluate_words(py: Python<'_>, op: &FixedOp, inputs: &[u64]) -> PyResult<Vec<u64>> {
    let mut out = vec![0u64; inputs.len() * op.function.components()];
    py.detach(|| evaluate_batch_parallel(op, inputs, &mut out))
        .map_err(|e| match e {
            BatchError::Input { index, source } => input_error(index, source),
            e => raise(Kind::Calc, format!("error: {e}")),
        })?;
    Ok(out)
}

/// The operation of the arguments of [`fixed`] and [`fixed_words`], checked.
#[allow(clippy::too_many_arguments)]
fn fixed_op(
    function: &str,
    w: u32,
    i: i32,
    rw: u32,
    ri: i32,
    signed: bool,
    q: &str,
    o: &str,
) -> PyResult<FixedOp> {
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
    Ok(op)
}

/// Whether both widths fit the batch API's u64 patterns.
fn narrow(op: &FixedOp) -> bool {
    op.input_width <= 64 && op.result_width <= 64
}

/// `spvx calc fixed`: FUNCTION of every input bit pattern (W bits, I integer bits), result
/// RW bits with RI integer bits, quantization Q and overflow O (SPIR-V numbers or names);
/// with the number of result components (2 for sincos and sincospi).
#[pyfunction]
#[pyo3(signature = (function, bits, w, i, rw, ri, signed, q, o))]
#[allow(clippy::too_many_arguments)]
pub fn fixed(
    py: Python<'_>,
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
    let op = fixed_op(function, w, i, rw, ri, signed, q, o)?;
    let components = op.function.components();
    let words: Option<Vec<u64>> = bits.iter().map(|x| u64::try_from(x).ok()).collect();
    let results = match words {
        Some(words) if narrow(&op) => evaluate_words(py, &op, &words)?
            .chunks(components)
            .map(|c| c.iter().map(|&v| BigUint::from(v)).collect())
            .collect(),
        _ => evaluate_each(&op, &bits)?,
    };
    Ok((results, components))
}

/// Little-endian 64-bit words of `bytes` (the Python side gives whole words).
fn words64(bytes: &[u8]) -> Vec<u64> {
    bytes
        .chunks_exact(8)
        .map(|w| u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]))
        .collect()
}

/// [`fixed`] for W, rW ≤ 64 on a NumPy array's bytes: the input patterns as little-endian
/// u64 words; the result patterns likewise (the components of each input consecutive), and the
/// number of components.
#[pyfunction]
#[pyo3(signature = (function, bits, w, i, rw, ri, signed, q, o))]
#[allow(clippy::too_many_arguments)]
pub fn fixed_words<'py>(
    py: Python<'py>,
    function: &str,
    bits: &[u8],
    w: u32,
    i: i32,
    rw: u32,
    ri: i32,
    signed: bool,
    q: &str,
    o: &str,
) -> PyResult<(Bound<'py, PyBytes>, usize)> {
    let op = fixed_op(function, w, i, rw, ri, signed, q, o)?;
    if !narrow(&op) {
        return Err(raise(
            Kind::Argument,
            format!("error: fixed_words takes widths up to 64 bits, not {w} and {rw}"),
        ));
    }
    let out = evaluate_words(py, &op, &words64(bits))?;
    let bytes: Vec<u8> = out.iter().flat_map(|v| v.to_le_bytes()).collect();
    Ok((PyBytes::new(py, &bytes), op.function.components()))
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
    // The three arrays are broadcast to one shape on the Python side.
    let n = a.len().min(b.len()).min(acc.len());
    let mut out = vec![0u32; n];
    py.detach(|| evaluate_form(op, enc1, enc2, &a[..n], &b[..n], &acc[..n], &cfg, &mut out))
        .map_err(|e| match e {
            FormError::Element { index, source } => {
                raise(Kind::Calc, format!("error: element {index}: {source}"))
            }
            e => raise(Kind::Calc, format!("error: {e}")),
        })?;
    let bytes: Vec<u8> = out.iter().flat_map(|v| v.to_le_bytes()).collect();
    Ok((PyBytes::new(py, &bytes), width))
}
