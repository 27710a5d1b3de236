//! One form of the mixed dot products — an operation and its two encodings — over slices of
//! words under any [`ModelConfig`], on all cores: which batch function of `super::fast`
//! computes the form, how its accumulators are narrowed, and how the cases are checked. The one
//! home of that dispatch, called by `spvx calc mixdot` (its batch form) and by the Python
//! package's `spvx.mixdot`.

use super::api::MixdotCase;
use super::error::MixdotError;
use super::fast::{BatchLengths, dot2_acc16_batch, dot2_acc32_batch, dot4_acc32_batch, par_batch};
use super::model::ModelConfig;
use super::op::{Encoding, MixOp};

/// Why [`evaluate_form`] cannot evaluate a batch.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FormError {
    /// The form itself is invalid (an encoding the operation does not take).
    #[error("{0}")]
    Form(MixdotError),
    /// The slices differ in length.
    #[error(transparent)]
    Lengths(#[from] BatchLengths),
    /// Case `index` is invalid (an Acc16 accumulator wider than 16 bits); the lowest such index.
    #[error("element {index}: {source}")]
    Element {
        /// The index of the case in the slices.
        index: usize,
        /// What [`MixdotCase::new`] says of it.
        source: MixdotError,
    },
}

/// `out[i]` = the operation `op` on `a[i]`, `b[i]` and `acc[i]` (vectors packed in 32-bit
/// words, component 0 in the low bits; the accumulator's bits) under `cfg`, for vectors in
/// `enc1` and `enc2`: what [`MixdotCase::evaluate`] gives for each case, bit for bit (16-bit
/// results zero-extended). The cases are evaluated by the batch functions of `super::fast` over
/// all cores ([`par_batch`]; `RAYON_NUM_THREADS=1` for one). Every case is checked first as a
/// [`MixdotCase`]; nothing is evaluated when one fails. Returns how many cases took the exact
/// path.
#[allow(clippy::too_many_arguments)]
pub fn evaluate_form(
    op: MixOp,
    enc1: Encoding,
    enc2: Encoding,
    a: &[u32],
    b: &[u32],
    acc: &[u32],
    cfg: &ModelConfig,
    out: &mut [u32],
) -> Result<usize, FormError> {
    MixdotCase::new(op, enc1, enc2, 0, 0, 0).map_err(FormError::Form)?;
    if !(a.len() == b.len() && b.len() == acc.len() && acc.len() == out.len()) {
        return Err(FormError::Lengths(BatchLengths {
            a: a.len(),
            b: b.len(),
            acc: acc.len(),
            out: out.len(),
        }));
    }
    // Only the Acc16 accumulator can make a case of a valid form invalid.
    if op == MixOp::Dot2Acc16
        && let Some(index) = acc.iter().position(|&w| w > 0xffff)
        && let Err(source) = MixdotCase::new(op, enc1, enc2, a[index], b[index], acc[index])
    {
        return Err(FormError::Element { index, source });
    }
    match (op, enc1.half16(), enc1.fp8(), enc2.fp8()) {
        (MixOp::Dot2Acc32, Some(h), _, _) => Ok(par_batch(a, b, acc, out, |a, b, c, o| {
            dot2_acc32_batch(h, a, b, c, cfg, o)
        })?),
        (MixOp::Dot2Acc16, Some(h), _, _) => {
            let acc16: Vec<u16> = acc.iter().map(|&w| w as u16).collect();
            let mut out16 = vec![0u16; out.len()];
            let slow = par_batch(a, b, &acc16, &mut out16, |a, b, c, o| {
                dot2_acc16_batch(h, a, b, c, cfg, o)
            })?;
            for (o, v) in out.iter_mut().zip(out16) {
                *o = u32::from(v);
            }
            Ok(slow)
        }
        (MixOp::Dot4Acc32, _, Some(ea), Some(eb)) => {
            Ok(par_batch(a, b, acc, out, |a, b, c, o| {
                dot4_acc32_batch(ea, eb, a, b, c, cfg, o)
            })?)
        }
        // Not reached: `MixdotCase::new` accepted the form above.
        _ => Err(FormError::Form(MixdotError::UnknownOp(
            op.name().to_string(),
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mixdot::Model;
    use crate::mixdot::api::{exact_dot2_acc16, exact_dot2_acc32, exact_dot4_acc32};
    use crate::mixdot::op::{Fp8Encoding, Half16Encoding};

    /// `n` pseudo-random words from `seed` (the low halves of SplitMix64's outputs).
    fn words(n: usize, seed: u64) -> Vec<u32> {
        let mut r = crate::test_rng::SplitMix64(seed);
        (0..n).map(|_| r.next() as u32).collect()
    }

    fn halves(w: u32) -> [u16; 2] {
        [w as u16, (w >> 16) as u16]
    }

    /// Every form under every model, nearest even and a flushing, directed configuration: the
    /// exact path's bits (rational arithmetic, case by case).
    #[test]
    fn every_form_gives_the_exact_paths_bits() {
        let n = 3000;
        let (a, b) = (words(n, 1), words(n, 2));
        let acc32 = words(n, 3);
        let acc16: Vec<u32> = acc32.iter().map(|&w| w & 0xffff).collect();
        let mut cfgs: Vec<ModelConfig> = Model::ALL.into_iter().map(ModelConfig::new).collect();
        let mut odd = ModelConfig::new(Model::Sequential);
        odd.flush_input_denormals = true;
        odd.rounding = crate::float::RoundingMode::TowardZero;
        cfgs.push(odd);
        for cfg in &cfgs {
            for (h, e) in [
                (Half16Encoding::F16, Encoding::F16),
                (Half16Encoding::Bf16, Encoding::Bf16),
            ] {
                let mut out = vec![0u32; n];
                evaluate_form(MixOp::Dot2Acc32, e, e, &a, &b, &acc32, cfg, &mut out)
                    .expect("valid");
                for k in 0..n {
                    let want = exact_dot2_acc32(h, halves(a[k]), halves(b[k]), acc32[k], cfg);
                    assert_eq!(out[k], want, "dot2acc32 {h:?} {cfg:?} case {k}");
                }
                evaluate_form(MixOp::Dot2Acc16, e, e, &a, &b, &acc16, cfg, &mut out)
                    .expect("valid");
                for k in 0..n {
                    let want =
                        exact_dot2_acc16(h, halves(a[k]), halves(b[k]), acc16[k] as u16, cfg);
                    assert_eq!(out[k], u32::from(want), "dot2acc16 {h:?} {cfg:?} case {k}");
                }
            }
            let fp8 = [
                (Fp8Encoding::E4m3, Encoding::E4m3),
                (Fp8Encoding::E5m2, Encoding::E5m2),
            ];
            for (ea, e1) in fp8 {
                for (eb, e2) in fp8 {
                    let mut out = vec![0u32; n];
                    evaluate_form(MixOp::Dot4Acc32, e1, e2, &a, &b, &acc32, cfg, &mut out)
                        .expect("valid");
                    for k in 0..n {
                        let want = exact_dot4_acc32(
                            ea,
                            eb,
                            a[k].to_le_bytes(),
                            b[k].to_le_bytes(),
                            acc32[k],
                            cfg,
                        );
                        assert_eq!(out[k], want, "dot4 {ea:?} {eb:?} {cfg:?} case {k}");
                    }
                }
            }
        }
    }

    /// A bad form, unequal lengths and the first too-wide Acc16 accumulator are refused with
    /// [`MixdotCase::new`]'s errors.
    #[test]
    fn invalid_batches_are_refused() {
        let cfg = ModelConfig::default();
        let mut out = vec![0u32; 3];
        let (f16, e4) = (Encoding::F16, Encoding::E4m3);
        let r = evaluate_form(
            MixOp::Dot4Acc32,
            f16,
            f16,
            &[0; 3],
            &[0; 3],
            &[0; 3],
            &cfg,
            &mut out,
        );
        assert!(matches!(
            r,
            Err(FormError::Form(MixdotError::WrongEncoding { .. }))
        ));
        let r = evaluate_form(
            MixOp::Dot2Acc32,
            e4,
            e4,
            &[0; 3],
            &[0; 3],
            &[0; 3],
            &cfg,
            &mut out,
        );
        assert!(matches!(r, Err(FormError::Form(_))));
        let r = evaluate_form(
            MixOp::Dot2Acc32,
            f16,
            f16,
            &[0; 3],
            &[0; 2],
            &[0; 3],
            &cfg,
            &mut out,
        );
        assert!(matches!(r, Err(FormError::Lengths(_))));
        let acc = [0x3c00, 0x1_0000, 0x2_0000];
        let r = evaluate_form(
            MixOp::Dot2Acc16,
            f16,
            f16,
            &[0; 3],
            &[0; 3],
            &acc,
            &cfg,
            &mut out,
        );
        assert_eq!(
            r,
            Err(FormError::Element {
                index: 1,
                source: MixdotCase::new(MixOp::Dot2Acc16, f16, f16, 0, 0, 0x1_0000)
                    .expect_err("too wide")
            })
        );
        assert_eq!(
            r.map_err(|e| e.to_string()),
            Err(
                "element 1: accumulator 0x10000 does not fit the 16-bit result type of dot2acc16"
                    .to_string()
            )
        );
    }
}
