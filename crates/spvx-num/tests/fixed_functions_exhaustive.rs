//! Every input of 8-bit fixed-point formats through each of the eleven functions, for several
//! (S, I, rW, rI) and all 8 × 4 Q/O modes, against the independent rug/MPFR reference of
//! `fixed_ref` (correctly rounded MPFR brackets + rational quantization from the definitions).

mod fixed_ref;

use fixed_ref::{ref_bits, ref_result, ref_value, to_big, to_rug};
use num_bigint::BigUint;
use rug::{Integer, Rational};
use spvx_num::fixed::{FixedFunction, FixedOp, FixedValue, Overflow, Quantization, evaluate};

/// (S, I, rW, rI) with W = 8.
const CONFIGS: [(bool, i32, u32, i32); 6] = [
    (true, 3, 8, 3),
    (true, -1, 10, 2),
    (true, 10, 8, 12),
    (false, 4, 8, 4),
    (false, 0, 12, -2),
    (false, 9, 6, 1),
];

fn op(f: FixedFunction, s: bool, i: i32, rw: u32, ri: i32, q: u32, o: u32) -> FixedOp {
    FixedOp {
        function: f,
        signed: s,
        input_width: 8,
        input_int_bits: i,
        result_width: rw,
        result_int_bits: ri,
        quantization: Quantization::from_spirv(q).unwrap(),
        overflow: Overflow::from_spirv(o).unwrap(),
    }
}

fn check_function(f: FixedFunction) {
    let mut checked = 0u64;
    for &(s, i, rw, ri) in &CONFIGS {
        for x in 0u32..256 {
            let xv: Rational = ref_value(&Integer::from(x), 8, i, s);
            for q in 0..8 {
                for o in 0..4 {
                    let got = evaluate(&op(f, s, i, rw, ri, q, o), &BigUint::from(x))
                        .unwrap_or_else(|e| {
                            panic!("{f} x={x:#x} S={s} I={i} rW={rw} rI={ri}: {e}")
                        });
                    let want = |name: &str| ref_bits(&ref_result(name, &xv, rw, ri, s, q, o), rw);
                    let ctx =
                        format!("{f} x={x:#04x} ({xv}) S={s} I={i} rW={rw} rI={ri} Q={q} O={o}");
                    match (&got.value, f) {
                        (FixedValue::Pair { sin, cos }, FixedFunction::SinCos) => {
                            assert_eq!(to_rug(sin), want("sin"), "sin of {ctx}");
                            assert_eq!(to_rug(cos), want("cos"), "cos of {ctx}");
                            let packed = (want("sin") << rw) | want("cos");
                            assert_eq!(got.value.packed(rw), to_big(&packed), "packing of {ctx}");
                        }
                        (FixedValue::Pair { sin, cos }, FixedFunction::SinCosPi) => {
                            assert_eq!(to_rug(sin), want("sinpi"), "sin of {ctx}");
                            assert_eq!(to_rug(cos), want("cospi"), "cos of {ctx}");
                        }
                        (FixedValue::Single(b), _) => {
                            assert_eq!(to_rug(b), want(f.name()), "{ctx}");
                        }
                        _ => panic!("wrong shape for {ctx}"),
                    }
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 6 * 256 * 32);
}

#[test]
fn sqrt_exhaustive() {
    check_function(FixedFunction::Sqrt);
}
#[test]
fn recip_exhaustive() {
    check_function(FixedFunction::Recip);
}
#[test]
fn rsqrt_exhaustive() {
    check_function(FixedFunction::Rsqrt);
}
#[test]
fn sin_exhaustive() {
    check_function(FixedFunction::Sin);
}
#[test]
fn cos_exhaustive() {
    check_function(FixedFunction::Cos);
}
#[test]
fn sincos_exhaustive() {
    check_function(FixedFunction::SinCos);
}
#[test]
fn sinpi_exhaustive() {
    check_function(FixedFunction::SinPi);
}
#[test]
fn cospi_exhaustive() {
    check_function(FixedFunction::CosPi);
}
#[test]
fn sincospi_exhaustive() {
    check_function(FixedFunction::SinCosPi);
}
#[test]
fn log_exhaustive() {
    check_function(FixedFunction::Log);
}
#[test]
fn exp_exhaustive() {
    check_function(FixedFunction::Exp);
}
