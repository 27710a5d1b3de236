//! Evaluation of an accumulation model on decoded operands.

use super::model::{Model, ModelConfig};
use crate::float::{Decoded, Format, Term, round_sum};

/// The value of `bits` in `format`, with a subnormal replaced by zero of the same sign when
/// `flush` is set.
pub fn decode_flushed(format: Format, bits: u64, flush: bool) -> Decoded {
    if flush && format.is_subnormal(bits) {
        return format.decode(format.zero(format.is_negative(bits)));
    }
    format.decode(bits)
}

/// Evaluates `acc + Σ a_i·b_i` into `result` under `cfg` (inputs already decoded and, if asked,
/// input-flushed). At most 4 lanes are used. Returns the result bit pattern.
pub fn evaluate(
    result: Format,
    a: &[Decoded],
    b: &[Decoded],
    acc: Decoded,
    cfg: &ModelConfig,
) -> u64 {
    let mode = cfg.rounding;
    let round = |terms: &[Term]| -> u64 {
        let bits = round_sum(terms, result, mode, false);
        if cfg.flush_output_denormals && result.is_subnormal(bits) {
            result.zero(result.is_negative(bits))
        } else {
            bits
        }
    };
    let rounded = |terms: &[Term]| -> Decoded { result.decode(round(terms)) };
    // At most 4 lanes: products and the accumulator fit a stack array.
    let lanes = a.len().min(b.len()).min(4);
    let mut products = [Term::Value(acc); 4];
    for i in 0..lanes {
        products[i] = Term::Product(a[i], b[i]);
    }
    let products = &products[..lanes];
    match cfg.model {
        Model::Exact => {
            let mut terms = [Term::Value(acc); 5];
            terms[..lanes].copy_from_slice(products);
            round(&terms[..=lanes])
        }
        Model::Sequential => {
            let mut sum: Option<Decoded> = None;
            for &p in products {
                let p = rounded(&[p]);
                sum = Some(match sum {
                    None => p,
                    Some(s) => rounded(&[Term::Value(s), Term::Value(p)]),
                });
            }
            match sum {
                Some(s) => round(&[Term::Value(s), Term::Value(acc)]),
                None => round(&[Term::Value(acc)]),
            }
        }
        Model::SequentialAccFirst => {
            let mut s = acc;
            for &p in products {
                let p = rounded(&[p]);
                s = rounded(&[Term::Value(s), Term::Value(p)]);
            }
            result.encode(&s, mode, false)
        }
        Model::FusedProducts => {
            let s = rounded(products);
            round(&[Term::Value(s), Term::Value(acc)])
        }
        Model::FmaChain => {
            let mut s = acc;
            for &p in products {
                s = rounded(&[p, Term::Value(s)]);
            }
            result.encode(&s, mode, false)
        }
    }
}
