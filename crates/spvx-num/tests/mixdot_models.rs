//! Every accumulation model, with and without flushing, on all three operations: random inputs
//! (and inputs built to cancel) compared with the rational reference of `mixdot_ref`, where each
//! model is composed from exactly rounded steps as its documentation describes, in all four
//! rounding directions. The f32 models are also checked against hardware f32 arithmetic (IEEE,
//! RNE) where that is exact.

mod float_ref;
mod mixdot_ref;

use float_ref::{BF16, E4M3, E5M2, F16, MODES, Mode, RefFormat, RefVal, lib_mode};
use mixdot_ref::*;
use proptest::prelude::*;
use spvx_num::mixdot::{Encoding, MixOp, MixdotCase, Model, ModelConfig};
use std::sync::OnceLock;

fn ref_model(
    model: Model,
    t: &Target,
    a: &[RefVal],
    b: &[RefVal],
    acc: RefVal,
    flush_out: bool,
    mode: Mode,
) -> u64 {
    let r = |terms: &[RTerm]| round_sum_mode(t, terms, flush_out, mode);
    let products: Vec<RTerm> = a.iter().zip(b).map(|(&x, &y)| RTerm::Prod(x, y)).collect();
    match model {
        Model::Exact => {
            let mut terms = products.clone();
            terms.push(RTerm::Val(acc));
            r(&terms)
        }
        Model::Sequential => {
            let p: Vec<RefVal> = products.iter().map(|&p| t.decode(r(&[p]))).collect();
            let mut s = p[0];
            for &pi in &p[1..] {
                s = t.decode(r(&[RTerm::Val(s), RTerm::Val(pi)]));
            }
            r(&[RTerm::Val(s), RTerm::Val(acc)])
        }
        Model::SequentialAccFirst => {
            let mut s = acc;
            let mut bits = 0;
            for &p in &products {
                let pi = t.decode(r(&[p]));
                bits = r(&[RTerm::Val(s), RTerm::Val(pi)]);
                s = t.decode(bits);
            }
            bits
        }
        Model::FusedProducts => {
            let s = t.decode(r(&products));
            r(&[RTerm::Val(s), RTerm::Val(acc)])
        }
        Model::FmaChain => {
            let mut s = acc;
            let mut bits = 0;
            for &p in &products {
                let RTerm::Prod(x, y) = p else { unreachable!() };
                bits = r(&[RTerm::Prod(x, y), RTerm::Val(s)]);
                s = t.decode(bits);
            }
            bits
        }
    }
}

fn enc(f: RefFormat) -> Encoding {
    f.name.parse().expect("encoding names")
}

fn lanes(fmt: RefFormat, word: u32, n: usize, flush: bool) -> Vec<RefVal> {
    let w = 32 / n;
    (0..n)
        .map(|i| input(fmt, ((word as u64) >> (w * i)) & ((1 << w) - 1), flush))
        .collect()
}

fn cfg(model: Model, fi: bool, fo: bool, mode: Mode) -> ModelConfig {
    ModelConfig {
        model,
        flush_input_denormals: fi,
        flush_output_denormals: fo,
        rounding: lib_mode(mode),
    }
}

/// Checks one case under every model, rounding direction and flush combination.
fn check(
    op: MixOp,
    e1: RefFormat,
    e2: RefFormat,
    a: u32,
    b: u32,
    acc: u32,
) -> Result<(), TestCaseError> {
    let n = op.lanes();
    let case = MixdotCase::new(op, enc(e1), enc(e2), a, b, acc).expect("valid case");
    let target = match op {
        MixOp::Dot2Acc16 if e1.name == "f16" => f16_target(),
        MixOp::Dot2Acc16 => bf16_target(),
        _ => &Target::F32,
    };
    for model in Model::ALL {
        for mode in MODES {
            for fi in [false, true] {
                for fo in [false, true] {
                    let accv = match op {
                        MixOp::Dot2Acc16 => input(e1, acc as u64, fi),
                        _ => input_f32(acc, fi),
                    };
                    let (va, vb) = (lanes(e1, a, n, fi), lanes(e2, b, n, fi));
                    let want = ref_model(model, target, &va, &vb, accv, fo, mode);
                    let got = case.evaluate(&cfg(model, fi, fo, mode)) as u64;
                    prop_assert_eq!(
                        got,
                        want,
                        "{} {} {} a={:#x} b={:#x} acc={:#x} model={} {:?} fi={} fo={}",
                        op,
                        e1.name,
                        e2.name,
                        a,
                        b,
                        acc,
                        model,
                        mode,
                        fi,
                        fo
                    );
                }
            }
        }
    }
    Ok(())
}

fn f16_target() -> &'static Target {
    static T: OnceLock<Target> = OnceLock::new();
    T.get_or_init(Target::f16)
}

fn bf16_target() -> &'static Target {
    static T: OnceLock<Target> = OnceLock::new();
    T.get_or_init(Target::bf16)
}

/// Random words, or words whose two products cancel exactly (lane 1 = lane 0, sign flipped in b).
fn dot2_words() -> impl Strategy<Value = (u32, u32)> {
    prop_oneof![
        (any::<u32>(), any::<u32>()),
        (any::<u16>(), any::<u16>()).prop_map(|(x, y)| {
            let a = (x as u32) | (x as u32) << 16;
            let b = (y as u32) | ((y ^ 0x8000) as u32) << 16;
            (a, b)
        }),
        // Small exponents: subnormal-heavy inputs.
        (any::<u32>(), any::<u32>()).prop_map(|(x, y)| (x & 0x83ff_83ff, y & 0x8fff_8fff)),
    ]
}

fn acc32() -> impl Strategy<Value = u32> {
    prop_oneof![
        any::<u32>(),
        any::<u32>().prop_map(|x| x & 0x807f_ffff),
        Just(0u32),
        Just(0x8000_0000u32)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn dot2_acc32_all_models(w in dot2_words(), acc in acc32(), bf in any::<bool>()) {
        let f = if bf { BF16 } else { F16 };
        check(MixOp::Dot2Acc32, f, f, w.0, w.1, acc)?;
    }

    #[test]
    fn dot2_acc16_all_models(w in dot2_words(), acc in any::<u16>(), bf in any::<bool>()) {
        let f = if bf { BF16 } else { F16 };
        check(MixOp::Dot2Acc16, f, f, w.0, w.1, acc as u32)?;
    }

    #[test]
    fn dot4_acc32_all_models(a in any::<u32>(), b in any::<u32>(), acc in acc32(), e1 in any::<bool>(), e2 in any::<bool>()) {
        let f1 = if e1 { E5M2 } else { E4M3 };
        let f2 = if e2 { E5M2 } else { E4M3 };
        check(MixOp::Dot4Acc32, f1, f2, a, b, acc)?;
    }

    /// f16 inputs: products are exact in f32, so `sequential` and `fma-chain` are plain f32
    /// hardware arithmetic: `(a0*b0 + a1*b1) + acc` and `fma(a1, b1, fma(a0, b0, acc))`.
    #[test]
    fn f16_acc32_models_match_hardware_f32(a in any::<u32>(), b in any::<u32>(), acc in any::<u32>()) {
        let f = |w: u32, i: u32| match F16.decode(((w >> (16 * i)) & 0xffff) as u64) {
            RefVal::Fin(x) => x as f32,
            RefVal::Inf { neg } => if neg { f32::NEG_INFINITY } else { f32::INFINITY },
            RefVal::Nan { .. } => f32::NAN,
        };
        let (a0, a1, b0, b1) = (f(a, 0), f(a, 1), f(b, 0), f(b, 1));
        let c = f32::from_bits(acc);
        let case = MixdotCase::new(MixOp::Dot2Acc32, Encoding::F16, Encoding::F16, a, b, acc).expect("valid");
        let seq = f32::from_bits(case.evaluate(&ModelConfig::new(Model::Sequential)));
        let hw_seq = (a0 * b0 + a1 * b1) + c;
        prop_assert!(seq.to_bits() == hw_seq.to_bits() || (seq.is_nan() && hw_seq.is_nan()));
        let fma = f32::from_bits(case.evaluate(&ModelConfig::new(Model::FmaChain)));
        let hw_fma = a1.mul_add(b1, a0.mul_add(b0, c));
        prop_assert!(fma.to_bits() == hw_fma.to_bits() || (fma.is_nan() && hw_fma.is_nan()));
    }
}
