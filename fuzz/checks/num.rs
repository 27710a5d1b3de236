//! Fuzz checks of spvx-num's conversions against the slow, independent references of its own
//! tests (included by path; they share no code with the library): `float_ref` (tables of every
//! value of the narrow formats, the hardware f64→f32 conversion) for `float::convert`, and
//! `fixed_ref` (rug/GMP/MPFR exact rationals and correctly rounded brackets) for
//! `fixed::convert_rational`, `fixed::convert_dyadic` and `fixed::evaluate`. No input may
//! panic and every result must equal the reference. Called by the fuzz targets `num_float` and
//! `num_fixed`, replayed by `crates/spvx-num/tests/fuzz_regressions.rs`.

use crate::fixed_ref::{pow2, ref_bits, ref_overflow, ref_quantize, ref_result, ref_value, to_rug};
use crate::float_ref::{ALL, MODES, Oracle, lib_format, lib_mode};
use num_bigint::{BigInt, BigUint};
use rug::{Integer, Rational};
use spvx_num::fixed::{
    Dyadic, FixedFormat, FixedFunction, FixedOp, FixedValue, Overflow, Quantization,
    convert_dyadic, convert_rational, evaluate,
};
use std::sync::OnceLock;

/// Reads bytes from the front of the fuzzer's input; zeros when it runs out.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn u8(&mut self) -> u8 {
        match self.0.split_first() {
            Some((b, rest)) => {
                self.0 = rest;
                *b
            }
            None => 0,
        }
    }
    fn u64(&mut self) -> u64 {
        (0..8).fold(0, |acc, k| acc | (self.u8() as u64) << (8 * k))
    }
    fn take(&mut self, n: usize) -> &[u8] {
        let n = n.min(self.0.len());
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        a
    }
}

fn oracle() -> &'static Oracle {
    static O: OnceLock<Oracle> = OnceLock::new();
    O.get_or_init(Oracle::new)
}

/// `float::convert` of one pattern from one format to another, every rounding mode, with and
/// without saturation, against `float_ref::Oracle`.
pub fn num_float(data: &[u8]) {
    let mut b = Bytes(data);
    let src = ALL[b.u8() as usize % ALL.len()];
    let dst = ALL[b.u8() as usize % ALL.len()];
    let raw = b.u64();
    let bits = if src.storage_bits >= 64 {
        raw
    } else {
        raw & ((1u64 << src.storage_bits) - 1)
    };
    for mode in MODES {
        for sat in [false, true] {
            let want = oracle().expected(src, bits, dst, mode, sat);
            let got = spvx_num::float::convert(
                lib_format(src),
                bits,
                lib_format(dst),
                lib_mode(mode),
                sat,
            );
            assert_eq!(
                got, want,
                "{} {bits:#x} -> {} {mode:?} sat={sat}: got {got:#x}, want {want:#x}",
                src.name, dst.name
            );
        }
    }
}

fn rug_of(b: &BigInt) -> Integer {
    Integer::from_str_radix(&b.to_str_radix(16), 16).unwrap_or_default()
}

fn signed_big(bytes: &[u8], negative: bool) -> BigInt {
    let m = BigInt::from(BigUint::from_bytes_le(bytes));
    if negative { -m } else { m }
}

/// Fixed point: the exact conversions (rational and dyadic) and one of the eleven functions,
/// each against the rug reference. Widths are kept to 1..=96 bits so the reference settles fast.
pub fn num_fixed(data: &[u8]) {
    let mut b = Bytes(data);
    let which = b.u8() % 3;
    let w = 1 + (b.u8() as u32) % 96;
    let i = (b.u8() as i8) as i32;
    let s = b.u8() & 1 == 1;
    let q = (b.u8() % 8) as u32;
    let o = (b.u8() % 4) as u32;
    let (Ok(qm), Ok(om)) = (Quantization::from_spirv(q), Overflow::from_spirv(o)) else {
        panic!("every mode in range must be accepted");
    };
    let fmt = FixedFormat::new(w, i, s).expect("width 1..=96 is valid");
    match which {
        0 => {
            let nlen = (b.u8() % 24) as usize;
            let dlen = 1 + (b.u8() % 10) as usize;
            let neg = b.u8() & 1 == 1;
            let n = signed_big(b.take(nlen), neg);
            let d = signed_big(b.take(dlen), false);
            let got = convert_rational(&n, &d, &fmt, qm, om);
            if d == BigInt::from(0) {
                assert!(got.is_err(), "a zero denominator must be an error");
                return;
            }
            let got = got.unwrap_or_else(|e| panic!("convert_rational failed: {e}"));
            let t = Rational::from((rug_of(&n), rug_of(&d))) * pow2(w as i64 - i as i64);
            let want = ref_overflow(&ref_quantize(&t, q), w, s, o);
            assert_eq!(
                ref_bits(&rug_of(&got), w),
                ref_bits(&want, w),
                "{n}/{d} into <{w},{i},{s}> q{q} o{o}"
            );
        }
        1 => {
            let mlen = (b.u8() % 24) as usize;
            let neg = b.u8() & 1 == 1;
            let shift = (b.u8() as i8) as i64;
            let mant = signed_big(b.take(mlen), neg);
            let e = fmt.lsb_exponent() + shift;
            let got = convert_dyadic(&Dyadic::new(mant.clone(), e), &fmt, qm, om);
            let t = Rational::from(rug_of(&mant)) * pow2(e - fmt.lsb_exponent());
            let want = ref_overflow(&ref_quantize(&t, q), w, s, o);
            assert_eq!(
                ref_bits(&rug_of(&got), w),
                ref_bits(&want, w),
                "{mant}·2^{e} into <{w},{i},{s}> q{q} o{o}"
            );
        }
        _ => {
            const FUNCS: [FixedFunction; 11] = [
                FixedFunction::Sqrt,
                FixedFunction::Recip,
                FixedFunction::Rsqrt,
                FixedFunction::Sin,
                FixedFunction::Cos,
                FixedFunction::SinCos,
                FixedFunction::SinPi,
                FixedFunction::CosPi,
                FixedFunction::SinCosPi,
                FixedFunction::Log,
                FixedFunction::Exp,
            ];
            let f = FUNCS[b.u8() as usize % FUNCS.len()];
            // Function inputs and results up to 64 bits; integer bits kept near the width so
            // exp/sin inputs stay within reach of the reference.
            // Exp inputs stay below 2^12 in magnitude: e^x beyond that leaves MPFR's exponent
            // range, where the reference has no answer (the fuzzer's first finding was this
            // limit of the reference, not of the library).
            let w = 1 + w % 64;
            let i = if f == FixedFunction::Exp {
                (i % 40).min(12)
            } else {
                i % 40
            };
            let rw = 1 + (b.u8() as u32) % 64;
            let ri = ((b.u8() as i8) as i32) % 40;
            let x = BigUint::from_bytes_le(b.take(8)) % (BigUint::from(1u32) << w);
            let op = FixedOp {
                function: f,
                signed: s,
                input_width: w,
                input_int_bits: i,
                result_width: rw,
                result_int_bits: ri,
                quantization: qm,
                overflow: om,
            };
            let got = match evaluate(&op, &x) {
                Ok(g) => g,
                Err(spvx_num::fixed::FixedError::ResourceLimit { .. }) => return,
                Err(e) => panic!("{f} <{w},{i}> -> <{rw},{ri}> x={x}: {e}"),
            };
            let xv = ref_value(&to_rug(&x), w, i, s);
            let want = |name: &str| ref_bits(&ref_result(name, &xv, rw, ri, s, q, o), rw);
            match got.value {
                FixedValue::Single(v) => {
                    assert_eq!(
                        to_rug(&v),
                        want(f.name()),
                        "{f} x={xv} -> <{rw},{ri},{s}> q{q} o{o}"
                    )
                }
                FixedValue::Pair { sin, cos } => {
                    let (sn, cn) = if f == FixedFunction::SinCos {
                        ("sin", "cos")
                    } else {
                        ("sinpi", "cospi")
                    };
                    assert_eq!(to_rug(&sin), want(sn), "{f} sin x={xv}");
                    assert_eq!(to_rug(&cos), want(cn), "{f} cos x={xv}");
                }
            }
        }
    }
}
