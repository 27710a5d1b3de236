//! The batch API: one operation over a slice of raw bit patterns (`u64`, widths up to 64),
//! through the fast path with the exact path for the inputs it does not settle, sequentially or
//! with rayon across cores. `spvx calc fixed` calls it; it is the entry point meant for the
//! Python package and for vectors in the engine.

use super::fast::FastPlan;
use super::{BatchError, Exception, FixedOp, FixedValue, evaluate_exact};
use num_bigint::BigUint;
use num_traits::ToPrimitive;
use rayon::prelude::*;

/// What a batch produced besides the values.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BatchStats {
    /// How many inputs took the exact (slow) path: exact points, hard cases, and sizes beyond the
    /// native integers.
    pub slow_path: usize,
    /// The special inputs met, by input index (the values are the documented ones).
    pub exceptions: Vec<(usize, Exception)>,
}

/// Inputs per rayon task.
const CHUNK: usize = 4096;

/// Evaluates `op` on every W-bit pattern of `inputs`, writing the rW-bit result patterns to
/// `out`: one value per input, or for sincos / sincospi two (sine then cosine, interleaved:
/// `out[2i]`, `out[2i + 1]`). Each value is the one [`super::evaluate`] gives, bit for bit.
/// Fails when a width is above 64, `out` has the wrong length, or an input fails (its index is
/// named; values before it are written).
pub fn evaluate_batch(
    op: &FixedOp,
    inputs: &[u64],
    out: &mut [u64],
) -> Result<BatchStats, BatchError> {
    let plan = prepare(op, inputs.len(), out.len())?;
    run(op, &plan, inputs, out, 0)
}

/// [`evaluate_batch`] with the inputs split across rayon's thread pool. On failure the error
/// is that of the lowest failing index.
pub fn evaluate_batch_parallel(
    op: &FixedOp,
    inputs: &[u64],
    out: &mut [u64],
) -> Result<BatchStats, BatchError> {
    let plan = prepare(op, inputs.len(), out.len())?;
    let per = op.function.components();
    let parts: Vec<Result<BatchStats, BatchError>> = inputs
        .par_chunks(CHUNK)
        .zip(out.par_chunks_mut(CHUNK * per))
        .enumerate()
        .map(|(k, (xs, ys))| run(op, &plan, xs, ys, k * CHUNK))
        .collect();
    let mut stats = BatchStats::default();
    for p in parts {
        let p = p?;
        stats.slow_path += p.slow_path;
        stats.exceptions.extend(p.exceptions);
    }
    Ok(stats)
}

fn prepare(op: &FixedOp, inputs: usize, outputs: usize) -> Result<FastPlan, BatchError> {
    op.input_format().map_err(BatchError::Op)?;
    op.result_format().map_err(BatchError::Op)?;
    for (what, width) in [("input", op.input_width), ("result", op.result_width)] {
        if width > 64 {
            return Err(BatchError::TooWide { what, width });
        }
    }
    let per = op.function.components();
    if outputs != inputs * per {
        return Err(BatchError::OutputLength {
            inputs,
            per_input: per,
            want: inputs * per,
            got: outputs,
        });
    }
    FastPlan::new(op).ok_or(BatchError::TooWide {
        what: "input",
        width: op.input_width,
    })
}

/// The sequential loop over `inputs`, whose first element has index `base` in the batch.
fn run(
    op: &FixedOp,
    plan: &FastPlan,
    inputs: &[u64],
    out: &mut [u64],
    base: usize,
) -> Result<BatchStats, BatchError> {
    let mut stats = BatchStats::default();
    let pair = op.function.is_pair();
    for (i, &bits) in inputs.iter().enumerate() {
        let fail = |source| BatchError::Input {
            index: base + i,
            source,
        };
        let n = plan.decode(bits).map_err(fail)?;
        let (v, c) = match plan.eval(n) {
            Some((v, c, exception)) => {
                if let Some(e) = exception {
                    stats.exceptions.push((base + i, e));
                }
                (v, c)
            }
            None => {
                stats.slow_path += 1;
                let o = evaluate_exact(op, &BigUint::from(bits)).map_err(fail)?;
                if let Some(e) = o.exception {
                    stats.exceptions.push((base + i, e));
                }
                let low = |b: &BigUint| b.to_u64().unwrap_or(0);
                match &o.value {
                    FixedValue::Single(b) => (low(b), 0),
                    FixedValue::Pair { sin, cos } => (low(sin), low(cos)),
                }
            }
        };
        if pair {
            out[2 * i] = v;
            out[2 * i + 1] = c;
        } else {
            out[i] = v;
        }
    }
    Ok(stats)
}
