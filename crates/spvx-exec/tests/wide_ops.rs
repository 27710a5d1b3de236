//! The less common instructions on integers wider than 64 bits through the engine: OpIAddCarry,
//! OpISubBorrow, OpUMulExtended, OpSMulExtended; OpBitCount, OpBitReverse, OpBitFieldInsert,
//! OpBitField{S,U}Extract (offsets and counts beyond the width clamped, as for narrow
//! integers); conversions to and from f32/f64 (float to integer under each FPRoundingMode).
//! Checked against num-bigint exact arithmetic and, for the float conversions, MPFR (rug)
//! rounding of the exact integer.

mod support;
mod wide_support;
use num_bigint::{BigInt, BigUint};
use num_traits::{One, Zero};
use rug::{Float, Integer};
use wide_support::*;

const WIDTHS: [u32; 5] = [65, 100, 128, 129, 256];

fn pairs_of(values: &[BigUint]) -> Vec<(BigUint, BigUint)> {
    values
        .iter()
        .flat_map(|x| values.iter().map(move |y| (x.clone(), y.clone())))
        .collect()
}

#[test]
fn carry_borrow_and_extended_products() {
    for bits in WIDTHS {
        let t = format!("t{bits}");
        let e = elem_bytes(bits);
        let decls = format!("{}%st = OpTypeStruct %{t} %{t}\n", int_types(&[bits]));
        let pairs = pairs_of(&boundaries(bits));
        let m = BigUint::one() << bits;
        for op in [
            "OpIAddCarry",
            "OpISubBorrow",
            "OpUMulExtended",
            "OpSMulExtended",
        ] {
            for member in [0, 1] {
                let body = format!("%s = {op} %st %a %b\n%r = OpCompositeExtract %{t} %s {member}");
                let module_ = compile(&module(&t, e, &t, e, &decls, &body));
                let (got, _) = run_pairs(&module_, &pairs, e, e);
                for ((a, b), g) in pairs.iter().zip(&got) {
                    let (lo, hi) = match op {
                        "OpIAddCarry" => {
                            let s = a + b;
                            (&s % &m, &s >> bits)
                        }
                        "OpISubBorrow" => (
                            wrap(&(BigInt::from(a.clone()) - BigInt::from(b.clone())), bits),
                            BigUint::from((a < b) as u8),
                        ),
                        "OpUMulExtended" => {
                            let p = a * b;
                            (&p % &m, &p >> bits)
                        }
                        _ => {
                            let p = wrap(&(signed(a, bits) * signed(b, bits)), 2 * bits);
                            (&p % &m, &p >> bits)
                        }
                    };
                    let want = if member == 0 { lo } else { hi };
                    assert_eq!(g, &want, "{op} i{bits} member {member}: {a:#x}, {b:#x}");
                }
            }
        }
    }
}

#[test]
fn bit_count_and_reverse() {
    for bits in WIDTHS {
        let t = format!("t{bits}");
        let e = elem_bytes(bits);
        let decls = int_types(&[bits]);
        let pairs: Vec<_> = boundaries(bits)
            .into_iter()
            .map(|v| (v, BigUint::zero()))
            .collect();
        let narrow = compile(&module(&t, e, "t32", 4, &decls, "%r = OpBitCount %t32 %a"));
        let same = compile(&module(
            &t,
            e,
            &t,
            e,
            &decls,
            &format!("%r = OpBitCount %{t} %a"),
        ));
        let rev = compile(&module(
            &t,
            e,
            &t,
            e,
            &decls,
            &format!("%r = OpBitReverse %{t} %a"),
        ));
        let (n, _) = run_pairs(&narrow, &pairs, e, 4);
        let (s, _) = run_pairs(&same, &pairs, e, e);
        let (r, _) = run_pairs(&rev, &pairs, e, e);
        for (i, (a, _)) in pairs.iter().enumerate() {
            let ones = BigUint::from(a.count_ones());
            assert_eq!(n[i], ones, "BitCount i{bits} -> 32: {a:#x}");
            assert_eq!(s[i], ones, "BitCount i{bits}: {a:#x}");
            let text: String = format!("{:0>width$}", a.to_str_radix(2), width = bits as usize)
                .chars()
                .rev()
                .collect();
            let want = BigUint::parse_bytes(text.as_bytes(), 2).expect("binary");
            assert_eq!(r[i], want, "BitReverse i{bits}: {a:#x}");
        }
    }
}

/// Bit fields: `b` carries the offset (low 32 bits) and the count (next 32 bits); Insert is
/// `!a`. Offsets and counts beyond the width are clamped (docs: "Bit-field offset/count beyond
/// the width").
#[test]
fn bit_fields_with_clamped_offsets() {
    for bits in WIDTHS {
        let t = format!("t{bits}");
        let e = elem_bytes(bits);
        let decls = format!("{}%k32 = OpConstant %{t} 32\n", int_types(&[bits]));
        let head = format!(
            "%off = OpUConvert %t32 %b\n%bh = OpShiftRightLogical %{t} %b %k32\n%cnt = OpUConvert %t32 %bh\n"
        );
        let mk = |call: &str| compile(&module(&t, e, &t, e, &decls, &format!("{head}{call}")));
        let ins = mk(&format!(
            "%n = OpNot %{t} %a\n%r = OpBitFieldInsert %{t} %a %n %off %cnt"
        ));
        let sx = mk(&format!("%r = OpBitFieldSExtract %{t} %a %off %cnt"));
        let ux = mk(&format!("%r = OpBitFieldUExtract %{t} %a %off %cnt"));
        let fields = [
            (0, 0),
            (0, 1),
            (3, 64),
            (63, 2),
            (64, 1),
            (bits - 1, 1),
            (bits - 1, 5),
            (bits - 70, 70),
            (0, bits),
            (bits, 3),
            (bits + 5, 10),
            (7, u32::MAX),
        ];
        let mut pairs = Vec::new();
        for a in boundaries(bits) {
            for (off, cnt) in fields {
                let b = BigUint::from(off) | (BigUint::from(cnt) << 32u32);
                pairs.push((a.clone(), b));
            }
        }
        let (gi, _) = run_pairs(&ins, &pairs, e, e);
        let (gs, _) = run_pairs(&sx, &pairs, e, e);
        let (gu, _) = run_pairs(&ux, &pairs, e, e);
        let all = (BigUint::one() << bits) - 1u8;
        for (i, (a, b)) in pairs.iter().enumerate() {
            let off = (b & BigUint::from(u32::MAX))
                .to_u32_digits()
                .first()
                .copied()
                .unwrap_or(0);
            let cnt = (b >> 32u32).to_u32_digits().first().copied().unwrap_or(0);
            let off = off.min(bits);
            let n = cnt.min(bits - off);
            let field = ((BigUint::one() << n) - 1u8) << off;
            let not_a = &all ^ a;
            let inserted = (a & (&all ^ &field)) | ((&not_a << off) & &field);
            assert_eq!(gi[i], inserted, "insert i{bits} off {off} n {n}: {a:#x}");
            let u = (a >> off) & ((BigUint::one() << n) - 1u8);
            assert_eq!(gu[i], u, "uextract i{bits} off {off} n {n}: {a:#x}");
            let s = if n > 0 && (&u >> (n - 1)) & BigUint::one() == BigUint::one() {
                wrap(&(BigInt::from(u.clone()) - (BigInt::one() << n)), bits)
            } else {
                u.clone()
            };
            assert_eq!(gs[i], s, "sextract i{bits} off {off} n {n}: {a:#x}");
        }
    }
}

/// The float nearest `v` (ties to even) in `prec` bits of precision, as f64 (MPFR rounds the
/// exact integer once; f32 results are exact in f64, overflow gives ±inf).
fn mpfr_round(v: &BigInt, prec: u32) -> f64 {
    let i = Integer::from_str_radix(&v.to_str_radix(16), 16).expect("integer");
    let f = Float::with_val(prec, &i);
    if prec == 24 {
        f.to_f32() as f64
    } else {
        f.to_f64()
    }
}

#[test]
fn integer_to_float_conversions_round_once() {
    for bits in WIDTHS {
        let t = format!("t{bits}");
        let e = elem_bytes(bits);
        let decls = format!(
            "{}%f32 = OpTypeFloat 32\n%f64 = OpTypeFloat 64\n",
            int_types(&[bits])
        );
        let mut vals = boundaries(bits);
        // Halfway and near-halfway cases for f32 and f64 (24 / 53 significant bits).
        for p in [24u32, 53] {
            if bits > p + 2 {
                let base = BigUint::one() << (bits - 2);
                let ulp = BigUint::one() << (bits - 2 - (p - 1));
                let half = &ulp >> 1u32;
                vals.push(&base + &half);
                vals.push(&base + &half + 1u8);
                vals.push(&base + &ulp + &half);
                vals.push(&base + &half - 1u8);
            }
        }
        let pairs: Vec<_> = vals.iter().map(|v| (v.clone(), BigUint::zero())).collect();
        for (op, is_signed) in [("OpConvertUToF", false), ("OpConvertSToF", true)] {
            for (fty, prec, bytes) in [("f32", 24u32, 4usize), ("f64", 53, 8)] {
                let body = format!("%r = {op} %{fty} %a");
                let text = module(&t, e, fty, bytes, &decls, &body).replacen(
                    "OpCapability Int64\n",
                    "OpCapability Int64\nOpCapability Float64\n",
                    1,
                );
                let m = compile(&text);
                let (got, _) = run_pairs(&m, &pairs, e, bytes);
                for ((a, _), g) in pairs.iter().zip(&got) {
                    let v = if is_signed {
                        signed(a, bits)
                    } else {
                        BigInt::from(a.clone())
                    };
                    let want = mpfr_round(&v, prec);
                    let g = g.to_u64_digits().first().copied().unwrap_or(0);
                    let g = if bytes == 4 {
                        f32::from_bits(g as u32) as f64
                    } else {
                        f64::from_bits(g)
                    };
                    assert_eq!(g.to_bits(), want.to_bits(), "{op} i{bits} -> {fty}: {a:#x}");
                }
            }
        }
    }
}

/// The FPRoundingMode decorations of a float-to-integer conversion and what they round to
/// (SPIR-V §3.16: without one, toward zero).
type Round = fn(f64) -> f64;
const ROUNDINGS: [(Option<&str>, Round); 5] = [
    (None, f64::trunc),
    (Some("RTE"), f64::round_ties_even),
    (Some("RTZ"), f64::trunc),
    (Some("RTP"), f64::ceil),
    (Some("RTN"), f64::floor),
];

#[test]
fn float_to_integer_conversions_round_and_saturate() {
    let inputs = [
        0.0,
        -0.0,
        1.5,
        -1.5,
        2.5,
        -2.5,
        0.25,
        -0.25,
        2f64.powi(100) + 2f64.powi(50),
        -(2f64.powi(99)),
        2f64.powi(127),
        -(2f64.powi(127)),
        2f64.powi(128),
        1e300,
        -1e300,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        123456789.987,
    ];
    for bits in WIDTHS {
        let t = format!("t{bits}");
        let e = elem_bytes(bits);
        let decls = format!("{}%f64 = OpTypeFloat 64\n", int_types(&[bits]));
        let pairs: Vec<_> = inputs
            .iter()
            .map(|x| (BigUint::from(x.to_bits()), BigUint::zero()))
            .collect();
        for (op, is_signed) in [("OpConvertFToU", false), ("OpConvertFToS", true)] {
            let text = module("f64", 8, &t, e, &decls, &format!("%r = {op} %{t} %a")).replacen(
                "OpCapability Int64\n",
                "OpCapability Int64\nOpCapability Float64\n",
                1,
            );
            for (deco, round) in ROUNDINGS {
                let text = match deco {
                    Some(d) => text.replacen(
                        "OpDecorate %gid BuiltIn",
                        &format!("OpDecorate %r FPRoundingMode {d}\nOpDecorate %gid BuiltIn"),
                        1,
                    ),
                    None => text.clone(),
                };
                let m = compile(&text);
                let (got, _) = run_pairs(&m, &pairs, 8, e);
                let (lo, hi) = if is_signed {
                    (
                        -(BigInt::one() << (bits - 1)),
                        (BigInt::one() << (bits - 1)) - 1,
                    )
                } else {
                    (BigInt::zero(), (BigInt::one() << bits) - BigInt::one())
                };
                for (x, g) in inputs.iter().zip(&got) {
                    let want = if x.is_nan() {
                        BigInt::zero()
                    } else if x.is_infinite() {
                        if *x > 0.0 { hi.clone() } else { lo.clone() }
                    } else {
                        let exact = Integer::from_f64(round(*x)).expect("finite");
                        let v = BigInt::parse_bytes(exact.to_string_radix(16).as_bytes(), 16)
                            .expect("int");
                        v.clamp(lo.clone(), hi.clone())
                    };
                    assert_eq!(g, &wrap(&want, bits), "{op} {deco:?} {x} -> i{bits}");
                }
            }
        }
    }
}

/// Saturating integer conversions on wide integers are not implemented: refused by name, not
/// run as plain (wrapping) conversions.
#[test]
fn saturating_conversions_of_wide_integers_are_refused() {
    let decls = int_types(&[100, 64]);
    for (body, name) in [
        ("%r = OpSConvert %t64 %a", "OpSConvert"),
        ("%r = OpUConvert %t64 %a", "OpUConvert"),
        ("%r = OpSatConvertSToU %t64 %a", "OpSatConvertSToU"),
        ("%r = OpSatConvertUToS %t64 %a", "OpSatConvertUToS"),
    ] {
        // SaturatedConversion needs the Kernel capability.
        let text = module("t100", 16, "t64", 8, &decls, body)
            .replacen(
                "OpDecorate %gid BuiltIn",
                "OpDecorate %r SaturatedConversion\nOpDecorate %gid BuiltIn",
                1,
            )
            .replacen(
                "OpCapability Shader\n",
                "OpCapability Shader\nOpCapability Kernel\n",
                1,
            );
        let e = match support::compile(&text) {
            Ok(_) => panic!("{name}: compiled"),
            Err(e) => e.to_string(),
        };
        assert!(
            e.contains(&format!("saturating {name} on integers wider than 64 bits")),
            "{name}: {e}"
        );
    }
}
