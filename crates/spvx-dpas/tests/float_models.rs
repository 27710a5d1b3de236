//! Float DPAS through the matrix API (chained instructions) against an independent reference
//! written here from each accumulation model's description (docs/semantics/dpas.md, "DPAS element
//! arithmetic"; reference/dpas.md §2): elements decoded from their bit fields into exact
//! rationals (with ±0, ±inf and NaN tracked), exact products and sums, and the model's rounding
//! points written out explicitly (round-to-nearest-even into fp32, fp16 or bf16 by an exact
//! rational rounding). One reference "instruction" covers 8·OPS elements (zero-padded), the
//! accumulator is carried in fp32 between instructions, and the last value is converted to
//! the Dst type.

mod common;

use common::{Rng, spec};
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use spvx_dpas::gemm::matmul_fast;
use spvx_dpas::isa::ExecOptions;
use spvx_dpas::matrix::{AccMatrix, ElementMatrix, matmul_instructions};
use spvx_dpas::{BfOutputRounding, DataType, FloatModel, Platform, Precision};

#[derive(Clone, Copy)]
struct Fmt {
    ebits: u32,
    mbits: u32,
    /// false: E4M3 (no infinities; only S.1111.111 is NaN).
    ieee: bool,
}

const F32: Fmt = Fmt {
    ebits: 8,
    mbits: 23,
    ieee: true,
};
const F16: Fmt = Fmt {
    ebits: 5,
    mbits: 10,
    ieee: true,
};
const BF16: Fmt = Fmt {
    ebits: 8,
    mbits: 7,
    ieee: true,
};
const E5M2: Fmt = Fmt {
    ebits: 5,
    mbits: 2,
    ieee: true,
};
const E4M3: Fmt = Fmt {
    ebits: 4,
    mbits: 3,
    ieee: false,
};

impl Fmt {
    fn bias(self) -> i64 {
        (1 << (self.ebits - 1)) - 1
    }
}

#[derive(Clone, Debug, PartialEq)]
enum V {
    Nan,
    Inf(bool),
    /// Exact value and sign (the sign matters for zero).
    Fin(BigRational, bool),
}

fn pow2(e: i64) -> BigRational {
    if e >= 0 {
        BigRational::from_integer(BigInt::one() << e as usize)
    } else {
        BigRational::new(BigInt::one(), BigInt::one() << (-e) as usize)
    }
}

fn decode(f: Fmt, bits: u64) -> V {
    let m = bits & ((1 << f.mbits) - 1);
    let e = (bits >> f.mbits) & ((1 << f.ebits) - 1);
    let neg = (bits >> (f.ebits + f.mbits)) & 1 == 1;
    let top = (1 << f.ebits) - 1;
    if f.ieee && e == top {
        return if m == 0 { V::Inf(neg) } else { V::Nan };
    }
    if !f.ieee && e == top && m == (1 << f.mbits) - 1 {
        return V::Nan;
    }
    let (int, exp) = if e == 0 {
        (m, 1 - f.bias() - i64::from(f.mbits))
    } else {
        (m | (1 << f.mbits), e as i64 - f.bias() - i64::from(f.mbits))
    };
    let mag = BigRational::from_integer(BigInt::from(int)) * pow2(exp);
    V::Fin(if neg { -mag } else { mag }, neg)
}

fn is_subnormal(f: Fmt, bits: u64) -> bool {
    let m = bits & ((1 << f.mbits) - 1);
    let e = (bits >> f.mbits) & ((1 << f.ebits) - 1);
    e == 0 && m != 0
}

/// Round to nearest, ties to even, into an IEEE-style format (overflow → infinity).
fn round(f: Fmt, v: &V) -> V {
    let V::Fin(r, neg) = v else { return v.clone() };
    if r.is_zero() {
        return v.clone();
    }
    let a = r.abs();
    let mut e = a.numer().bits() as i64 - a.denom().bits() as i64;
    while pow2(e) > a {
        e -= 1;
    }
    while pow2(e + 1) <= a {
        e += 1;
    }
    let e = e.max(1 - f.bias());
    let quantum = pow2(e - i64::from(f.mbits));
    let n = &a / &quantum;
    let fl = n.floor().to_integer();
    let frac = &n - BigRational::from_integer(fl.clone());
    let half = BigRational::new(BigInt::one(), BigInt::from(2));
    let q = if frac > half || (frac == half && fl.is_odd()) {
        fl + 1
    } else {
        fl
    };
    let mag = BigRational::from_integer(q) * quantum;
    let emax = (1i64 << f.ebits) - 2 - f.bias();
    if mag >= pow2(emax + 1) {
        return V::Inf(*neg);
    }
    V::Fin(if *neg { -mag } else { mag }, *neg)
}

fn add(x: &V, y: &V) -> V {
    match (x, y) {
        (V::Nan, _) | (_, V::Nan) => V::Nan,
        (V::Inf(a), V::Inf(b)) => {
            if a == b {
                V::Inf(*a)
            } else {
                V::Nan
            }
        }
        (V::Inf(a), _) | (_, V::Inf(a)) => V::Inf(*a),
        (V::Fin(a, na), V::Fin(b, nb)) => {
            let s = a + b;
            let neg = if s.is_zero() {
                a.is_zero() && b.is_zero() && *na && *nb
            } else {
                s.is_negative()
            };
            V::Fin(s, neg)
        }
    }
}

fn mul(x: &V, y: &V) -> V {
    match (x, y) {
        (V::Nan, _) | (_, V::Nan) => V::Nan,
        (V::Inf(a), V::Inf(b)) => V::Inf(a ^ b),
        (V::Inf(a), V::Fin(r, n)) | (V::Fin(r, n), V::Inf(a)) => {
            if r.is_zero() {
                V::Nan
            } else {
                V::Inf(a ^ n)
            }
        }
        (V::Fin(a, na), V::Fin(b, nb)) => V::Fin(a * b, na ^ nb),
    }
}

/// The exact sum of several values, IEEE specials first; an exact zero is -0 only if every
/// term is a zero with negative sign (round to nearest).
fn exact_sum(terms: &[V]) -> V {
    if terms.contains(&V::Nan) {
        return V::Nan;
    }
    let pos = terms.contains(&V::Inf(false));
    let neg = terms.contains(&V::Inf(true));
    match (pos, neg) {
        (true, true) => return V::Nan,
        (true, false) => return V::Inf(false),
        (false, true) => return V::Inf(true),
        _ => {}
    }
    let mut s = BigRational::zero();
    let mut all_neg_zero = true;
    for t in terms {
        if let V::Fin(r, n) = t {
            s += r;
            all_neg_zero &= r.is_zero() && *n;
        }
    }
    let neg = if s.is_zero() {
        all_neg_zero
    } else {
        s.is_negative()
    };
    V::Fin(s, neg)
}

fn flush32(v: V) -> V {
    match v {
        V::Fin(r, neg) if !r.is_zero() && r.abs() < pow2(-126) => V::Fin(BigRational::zero(), neg),
        other => other,
    }
}

fn encode(f: Fmt, v: &V) -> u32 {
    let sign_bit = 1u32 << (f.ebits + f.mbits);
    match v {
        V::Nan => ((1u32 << f.ebits) - 1) << f.mbits | 1 << (f.mbits - 1),
        V::Inf(n) => (if *n { sign_bit } else { 0 }) | ((1u32 << f.ebits) - 1) << f.mbits,
        V::Fin(r, n) => {
            let s = if *n { sign_bit } else { 0 };
            if r.is_zero() {
                return s;
            }
            let a = r.abs();
            let mut e = a.numer().bits() as i64 - a.denom().bits() as i64;
            while pow2(e) > a {
                e -= 1;
            }
            while pow2(e + 1) <= a {
                e += 1;
            }
            if e < 1 - f.bias() {
                let m = (&a / pow2(1 - f.bias() - i64::from(f.mbits))).to_integer();
                s | u32::try_from(m).unwrap()
            } else {
                let m = (&a / pow2(e - i64::from(f.mbits))).to_integer()
                    - (BigInt::one() << f.mbits as usize);
                s | ((e + f.bias()) as u32) << f.mbits | u32::try_from(m).unwrap()
            }
        }
    }
}

/// The models, from their descriptions.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Model {
    Emulator,
    Exact,
    Esimd,
    Cm,
    Mesa,
    BfTfFtz,
}

const MODELS: [(Model, &str); 6] = [
    (Model::Emulator, "emulator"),
    (Model::Exact, "exact"),
    (Model::Esimd, "esimd"),
    (Model::Cm, "cm"),
    (Model::Mesa, "mesa"),
    (Model::BfTfFtz, "bf-tf-ftz"),
];

fn elem_fmt(p: Precision) -> Fmt {
    match p {
        Precision::Bf16 => BF16,
        Precision::Fp16 => F16,
        Precision::Bf8 => E5M2,
        Precision::Hf8 => E4M3,
        _ => F32,
    }
}

/// An element as the model reads it (tf32: low 13 bits dropped unless `cm`; bf/tf denormals
/// flushed under bf-tf-ftz).
fn element(model: Model, p: Precision, bits: u32) -> V {
    let bits = if p == Precision::Tf32 && model != Model::Cm {
        bits & 0xffff_e000
    } else {
        bits
    };
    let f = elem_fmt(p);
    let bf_tf = matches!(p, Precision::Bf16 | Precision::Tf32);
    if model == Model::BfTfFtz && bf_tf && is_subnormal(f, u64::from(bits)) {
        return V::Fin(BigRational::zero(), bits >> (f.ebits + f.mbits) & 1 == 1);
    }
    decode(f, u64::from(bits))
}

/// One instruction's worth for one output element: acc (fp32 value) and kd (b, a) pairs.
fn instruction(model: Model, p: Precision, ops: usize, acc: V, b: &[V], a: &[V]) -> V {
    let ftz = model == Model::BfTfFtz && matches!(p, Precision::Bf16 | Precision::Tf32);
    let out = |v: V| if ftz { flush32(v) } else { v };
    let acc = if ftz { flush32(acc) } else { acc };
    let product = |x: &V, y: &V| {
        let exact = mul(x, y);
        if model == Model::Esimd && p == Precision::Fp16 {
            round(F32, &round(F16, &exact))
        } else {
            round(F32, &exact)
        }
    };
    match model {
        Model::Exact => {
            let mut terms = vec![acc];
            terms.extend(b.iter().zip(a).map(|(x, y)| mul(x, y)));
            round(F32, &exact_sum(&terms))
        }
        Model::Mesa => {
            let depths = b.len() / ops;
            let mut s = V::Fin(BigRational::zero(), false);
            for sub in 0..ops {
                for d in 0..depths {
                    let j = d * ops + sub;
                    s = out(round(F32, &add(&s, &product(&b[j], &a[j]))));
                }
            }
            out(round(F32, &add(&s, &acc)))
        }
        _ => {
            let mut s = acc;
            for (x, y) in b.iter().zip(a) {
                s = out(round(F32, &add(&s, &product(x, y))));
            }
            s
        }
    }
}

fn ops_of(p: Precision) -> usize {
    match p {
        Precision::Tf32 => 1,
        Precision::Bf16 | Precision::Fp16 => 2,
        _ => 4,
    }
}

#[allow(clippy::too_many_arguments)]
fn reference(
    model: Model,
    bf_rounding: BfOutputRounding,
    a: &ElementMatrix,
    b: &ElementMatrix,
    c: Option<&AccMatrix>,
    dst: DataType,
) -> Vec<u32> {
    let (m, k, n) = (a.rows(), a.cols(), b.cols());
    let p = b.precision();
    let ops = ops_of(p);
    let kd = 8 * ops;
    let steps = k.div_ceil(kd);
    let zero_a = element(model, a.precision(), 0);
    let zero_b = element(model, p, 0);
    let mut out = Vec::new();
    for r in 0..m {
        for j in 0..n {
            let mut acc = match c {
                None => V::Fin(BigRational::zero(), false),
                Some(c) => match c.ty() {
                    DataType::Bf => decode(BF16, u64::from(c.get(r, j))),
                    DataType::Hf => decode(F16, u64::from(c.get(r, j))),
                    _ => decode(F32, u64::from(c.get(r, j))),
                },
            };
            for s in 0..steps {
                let mut bs = Vec::new();
                let mut as_ = Vec::new();
                for i in 0..kd {
                    let kk = s * kd + i;
                    if kk < k {
                        bs.push(element(model, p, b.get(kk, j)));
                        as_.push(element(model, a.precision(), a.get(r, kk)));
                    } else {
                        bs.push(zero_b.clone());
                        as_.push(zero_a.clone());
                    }
                }
                acc = instruction(model, p, ops, acc, &bs, &as_);
            }
            out.push(match dst {
                DataType::F => encode(F32, &acc),
                DataType::Hf => encode(F16, &round(F16, &acc)),
                DataType::Bf => {
                    let bits32 = encode(F32, &acc);
                    let e = (bits32 >> 23) & 0xff;
                    if bf_rounding == BfOutputRounding::EmulatorNormalOnly && (e == 0 || e == 0xff)
                    {
                        bits32 >> 16
                    } else {
                        encode(BF16, &round(BF16, &acc))
                    }
                }
                _ => unreachable!(),
            });
        }
    }
    out
}

/// Random element bits of a format: mostly normal values with exponents close together (so
/// sums cancel and round), some subnormals, zeros, large values, infinities and NaNs.
fn random_bits(rng: &mut Rng, f: Fmt, container32: bool) -> u32 {
    let sign = (rng.below(2) as u32) << (f.ebits + f.mbits);
    let mant = (rng.next() as u32) & ((1 << f.mbits) - 1);
    let top = (1u32 << f.ebits) - 1;
    let bias = f.bias();
    let e = match rng.below(100) {
        0..=69 => (bias + rng.range(-3, 3)) as u32,
        70..=79 => 0,
        80..=84 => return sign,
        85..=91 => top - 1,
        92..=94 => top,
        _ => (bias + rng.range(-bias + 1, bias)) as u32,
    };
    let mut bits = sign | e << f.mbits | mant;
    if f.ieee && e == top && rng.below(2) == 0 {
        bits = sign | e << f.mbits; // infinity
    }
    if container32 {
        bits |= (rng.next() as u32) & 0x1fff; // tf32: low container bits
    }
    bits
}

fn random_matrix(
    rng: &mut Rng,
    name: &'static str,
    rows: usize,
    cols: usize,
    p: Precision,
) -> ElementMatrix {
    let f = elem_fmt(p);
    let bits = (0..rows * cols)
        .map(|_| {
            random_bits(
                rng,
                if p == Precision::Tf32 {
                    Fmt {
                        ebits: 8,
                        mbits: 10,
                        ieee: true,
                    }
                } else {
                    f
                },
                false,
            )
        })
        .collect::<Vec<_>>();
    let bits = if p == Precision::Tf32 {
        bits.into_iter()
            .map(|b| b << 13 | (rng.next() as u32 & 0x1fff))
            .collect()
    } else {
        bits
    };
    ElementMatrix::from_bits(name, rows, cols, p, bits).unwrap()
}

fn random_c(rng: &mut Rng, rows: usize, cols: usize, ty: DataType) -> AccMatrix {
    let f = match ty {
        DataType::Bf => BF16,
        DataType::Hf => F16,
        _ => F32,
    };
    let bits = (0..rows * cols)
        .map(|_| random_bits(rng, f, false))
        .collect();
    AccMatrix::from_bits("C", rows, cols, ty, bits).unwrap()
}

fn check(
    rng: &mut Rng,
    platform: Platform,
    pa: Precision,
    pb: Precision,
    dst: DataType,
    c_ty: Option<DataType>,
) {
    let ops = ops_of(pb);
    let m = rng.range(1, 10) as usize;
    let n = rng.range(1, 18) as usize;
    let k = rng.range(1, (3 * 8 * ops) as i64) as usize;
    let a = random_matrix(rng, "A", m, k, pa);
    let b = random_matrix(rng, "B", k, n, pb);
    let c = c_ty.map(|t| random_c(rng, m, n, t));
    for (model, name) in MODELS {
        for bf in [
            BfOutputRounding::NearestEven,
            BfOutputRounding::EmulatorNormalOnly,
        ] {
            if bf != BfOutputRounding::NearestEven && dst != DataType::Bf {
                continue;
            }
            let mut s = spec(platform, pa, pb, dst);
            s.options = ExecOptions {
                model: FloatModel::named(name).unwrap(),
                bf_rounding: bf,
            };
            let want = reference(model, bf, &a, &b, c.as_ref(), dst);
            let what = format!(
                "{platform} {pb}x{pa} model {name} dst {dst} C {c_ty:?} {m}x{k}x{n} {bf:?}"
            );
            let got = matmul_instructions(&s, &a, &b, c.as_ref()).unwrap();
            assert_eq!(got.bits(), &want[..], "instructions: {what}");
            let got = matmul_fast(&s, &a, &b, c.as_ref()).unwrap();
            assert_eq!(got.bits(), &want[..], "fast: {what}");
        }
    }
}

#[test]
fn bf16_and_fp16_every_model_and_dst() {
    let mut rng = Rng(0xf00d_1234_5678_9abc);
    for _ in 0..2 {
        for (p, half) in [
            (Precision::Bf16, DataType::Bf),
            (Precision::Fp16, DataType::Hf),
        ] {
            for dst in [DataType::F, half] {
                for c_ty in [None, Some(DataType::F), Some(half)] {
                    check(&mut rng, Platform::Pvc, p, p, dst, c_ty);
                }
            }
            check(
                &mut rng,
                Platform::Dg2,
                p,
                p,
                DataType::F,
                Some(DataType::F),
            );
        }
    }
}

#[test]
fn tf32_every_model() {
    let mut rng = Rng(0x7f32);
    for _ in 0..6 {
        for c_ty in [None, Some(DataType::F)] {
            check(
                &mut rng,
                Platform::Xe2,
                Precision::Tf32,
                Precision::Tf32,
                DataType::F,
                c_ty,
            );
        }
    }
}

#[test]
fn fp8_mixes_every_model() {
    let mut rng = Rng(0x0f8);
    for _ in 0..1 {
        for pa in [Precision::Bf8, Precision::Hf8] {
            for pb in [Precision::Bf8, Precision::Hf8] {
                for dst in [DataType::F, DataType::Bf] {
                    for c_ty in [None, Some(DataType::F), Some(DataType::Bf)] {
                        check(&mut rng, Platform::Xe3p, pa, pb, dst, c_ty);
                    }
                }
            }
        }
    }
}

#[test]
fn reference_sanity() {
    // The reference itself on hand-computed values: 1 + 2^-24 rounds to 1 (tie to even),
    // 1 + 3·2^-24 to 1 + 2^-22, bf16 0x3f80 = 1.0, E4M3 0x7e = 448.
    let one = decode(F32, 0x3f80_0000);
    let tiny = V::Fin(pow2(-24), false);
    assert_eq!(encode(F32, &round(F32, &add(&one, &tiny))), 0x3f80_0000);
    let three = V::Fin(
        pow2(-24) * BigRational::from_integer(BigInt::from(3)),
        false,
    );
    assert_eq!(encode(F32, &round(F32, &add(&one, &three))), 0x3f80_0002);
    assert_eq!(decode(BF16, 0x3f80), one);
    assert_eq!(
        decode(E4M3, 0x7e),
        V::Fin(BigRational::from_integer(BigInt::from(448)), false)
    );
    assert_eq!(decode(E4M3, 0x7f), V::Nan);
    assert_eq!(
        encode(
            F16,
            &round(
                F16,
                &V::Fin(BigRational::from_integer(BigInt::from(65520)), false)
            )
        ),
        0x7c00
    );
}
