//! The fixed-point functions for generated code (the engine's JIT): an operation prepared once
//! ([`Prepared`], for input and result widths up to 64 bits) and one C-ABI function ([`eval`])
//! that evaluates it on one bit pattern through the fast path of [`super::evaluate_batch`]. The
//! inputs that path does not settle alone — a special input (whose documented result comes
//! with an exception the caller reports), an exact point or hard case left to the exact path —
//! are handed back unsettled: the caller then takes the full evaluation (the engine's
//! interpreter), so that one arithmetic gives every result and every report.

use super::FixedOp;
use super::fast::FastPlan;

/// An operation ready for [`eval`]: its fast-path plan and its widths.
#[derive(Debug, Clone, Copy)]
pub struct Prepared {
    plan: FastPlan,
    input_mask: u64,
    result_mask: u64,
    pair: bool,
}

/// The C-ABI type of [`eval`]: `(operation, input bits, result words) → status`.
pub type Entry = unsafe extern "C" fn(*const Prepared, u64, *mut u64) -> u64;

/// [`eval`]'s status: the results are written.
pub const SETTLED: u64 = 0;
/// [`eval`]'s status: nothing is written; the caller evaluates this input in full.
pub const UNSETTLED: u64 = 1;

fn low_bits(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1 << width) - 1
    }
}

impl Prepared {
    /// `op` prepared, or `None` when its formats are invalid or wider than 64 bits (the
    /// operations [`super::evaluate_batch`] refuses).
    pub fn new(op: &FixedOp) -> Option<Prepared> {
        op.input_format().ok()?;
        op.result_format().ok()?;
        if op.input_width > 64 || op.result_width > 64 {
            return None;
        }
        Some(Prepared {
            plan: FastPlan::new(op)?,
            input_mask: low_bits(op.input_width),
            result_mask: low_bits(op.result_width),
            pair: op.function.is_pair(),
        })
    }
}

/// Evaluates the operation `p` on the W-bit pattern in the low bits of `bits` (higher bits are
/// ignored, as the interpreter ignores them) and, when the fast path settles it without an
/// exception, writes the rW-bit result to `out[0]` (for SinCos / SinCosPi the sine there and
/// the cosine to `out[1]`) and returns [`SETTLED`]; else writes nothing and returns
/// [`UNSETTLED`]. The values are those of [`super::evaluate`] (and of the exact path), bit for
/// bit.
///
/// # Safety
/// `p` must point to a live [`Prepared`], and `out` to two writable `u64`s.
pub unsafe extern "C" fn eval(p: *const Prepared, bits: u64, out: *mut u64) -> u64 {
    // SAFETY: the caller's contract.
    let p = unsafe { &*p };
    let Ok(n) = p.plan.decode(bits & p.input_mask) else {
        return UNSETTLED;
    };
    match p.plan.eval(n) {
        Some((v, c, None)) => {
            // SAFETY: the caller's contract (two words).
            unsafe {
                *out = v & p.result_mask;
                if p.pair {
                    *out.add(1) = c & p.result_mask;
                }
            }
            SETTLED
        }
        _ => UNSETTLED,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixed::{FixedFunction, FixedValue, Overflow, Quantization, evaluate_exact};
    use num_bigint::BigUint;
    use num_traits::ToPrimitive;

    fn op(function: FixedFunction, signed: bool, w: u32, i: i32, rw: u32, ri: i32) -> FixedOp {
        FixedOp {
            function,
            signed,
            input_width: w,
            input_int_bits: i,
            result_width: rw,
            result_int_bits: ri,
            quantization: Quantization::Trn,
            overflow: Overflow::Wrap,
        }
    }

    /// Every settled input gives the exact path's bits (`evaluate_exact`: ball arithmetic, not
    /// the fast path under test), and every input it reports an exception for is unsettled; the fast path settles at least nine in ten of the others.
    #[test]
    fn settled_results_are_the_exact_paths_and_exceptions_are_left_to_the_caller() {
        let ops = [
            op(FixedFunction::Sqrt, false, 16, 4, 12, 6),
            op(FixedFunction::Sqrt, true, 13, 5, 9, 3),
            op(FixedFunction::Recip, true, 10, 3, 12, 4),
            op(FixedFunction::Sin, true, 12, 4, 10, 2),
            op(FixedFunction::Log, true, 11, 6, 14, 5),
            op(FixedFunction::SinCosPi, true, 11, 3, 9, 2),
            op(FixedFunction::Exp, false, 9, 2, 16, 8),
        ];
        let modes = [
            (Quantization::Trn, Overflow::Wrap),
            (Quantization::RndZero, Overflow::Sat),
            (Quantization::Rnd, Overflow::SatSym),
            (Quantization::TrnZero, Overflow::SatZero),
        ];
        for (k, mut o) in ops.into_iter().enumerate() {
            (o.quantization, o.overflow) = modes[k % modes.len()];
            let p = Prepared::new(&o).expect("narrow formats");
            let (mut settled, mut plain) = (0u64, 0u64);
            for bits in 0..1u64 << o.input_width {
                let mut out = [u64::MAX; 2];
                // SAFETY: `p` lives; `out` has two words.
                let status = unsafe { eval(&p, bits | (0xabc << 20), out.as_mut_ptr()) };
                let want = evaluate_exact(&o, &BigUint::from(bits)).expect("evaluates");
                let words: Vec<u64> = match &want.value {
                    FixedValue::Single(v) => vec![v.to_u64().unwrap_or(0)],
                    FixedValue::Pair { sin, cos } => {
                        vec![sin.to_u64().unwrap_or(0), cos.to_u64().unwrap_or(0)]
                    }
                };
                plain += u64::from(want.exception.is_none());
                if status == SETTLED {
                    settled += 1;
                    assert!(want.exception.is_none(), "{o:?} at {bits:#x}: an exception");
                    assert_eq!(&out[..words.len()], &words[..], "{o:?} at {bits:#x}");
                } else {
                    assert_eq!(status, UNSETTLED);
                    assert_eq!(out, [u64::MAX; 2], "{o:?} at {bits:#x}: written");
                }
            }
            assert!(
                settled * 10 >= 9 * plain,
                "{o:?}: {settled} of {plain} settled"
            );
        }
    }

    #[test]
    fn wide_or_invalid_operations_are_not_prepared() {
        assert!(Prepared::new(&op(FixedFunction::Sin, true, 65, 4, 10, 2)).is_none());
        assert!(Prepared::new(&op(FixedFunction::Sin, true, 12, 4, 65, 2)).is_none());
        assert!(Prepared::new(&op(FixedFunction::Sin, true, 0, 4, 10, 2)).is_none());
    }
}
