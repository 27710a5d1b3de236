//! DPAS float element arithmetic against an independent exact-rational reference written here:
//! elements and accumulators are decoded from their bit fields into `BigRational`s (with
//! infinities, NaN and signed zero tracked beside them), every arithmetic step is exact, and the
//! rounding points of each model are written out explicitly below (`round(F32, …)` after each
//! product and each addition for the emulator model, once at the end for the exact model, and
//! so on). Library outputs are decoded by the same field decoder and compared by value and sign.

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use proptest::prelude::*;
use spvx_num::dpas::{
    Accumulation, BfOutputRounding, DenormalMode, FloatElement, FloatModel, Order, PackedRun,
    Precision, ProductRounding, Tf32Inputs, acc_to_bf16, acc_to_fp16, bf16_to_acc, float_dot,
    float_dot_step, fp16_to_acc,
};

// ---------------------------------------------------------------------------------------------
// Reference formats and values.

#[derive(Clone, Copy)]
struct Fmt {
    ebits: u32,
    mbits: u32,
    bias: i32,
    /// IEEE specials (all-ones exponent = inf/NaN); false = E4M3 (only S.1111.111 is NaN).
    ieee: bool,
}

const F32: Fmt = Fmt {
    ebits: 8,
    mbits: 23,
    bias: 127,
    ieee: true,
};
const F16: Fmt = Fmt {
    ebits: 5,
    mbits: 10,
    bias: 15,
    ieee: true,
};
const BF16: Fmt = Fmt {
    ebits: 8,
    mbits: 7,
    bias: 127,
    ieee: true,
};
const TF32: Fmt = Fmt {
    ebits: 8,
    mbits: 10,
    bias: 127,
    ieee: true,
};
const E5M2: Fmt = Fmt {
    ebits: 5,
    mbits: 2,
    bias: 15,
    ieee: true,
};
const E4M3: Fmt = Fmt {
    ebits: 4,
    mbits: 3,
    bias: 7,
    ieee: false,
};

#[derive(Clone, Debug, PartialEq)]
enum V {
    Nan,
    Inf(bool),
    /// Exact value; the flag is the sign (meaningful for zero: -0).
    Fin(BigRational, bool),
}

fn pow2(e: i64) -> BigRational {
    if e >= 0 {
        BigRational::from_integer(BigInt::one() << e as usize)
    } else {
        BigRational::new(BigInt::one(), BigInt::one() << (-e) as usize)
    }
}

fn fields(f: Fmt, bits: u64) -> (bool, u64, u64) {
    let m = bits & ((1 << f.mbits) - 1);
    let e = (bits >> f.mbits) & ((1 << f.ebits) - 1);
    let neg = (bits >> (f.ebits + f.mbits)) & 1 == 1;
    (neg, e, m)
}

fn decode(f: Fmt, bits: u64) -> V {
    let (neg, e, m) = fields(f, bits);
    let emax_field = (1u64 << f.ebits) - 1;
    if f.ieee && e == emax_field {
        return if m == 0 { V::Inf(neg) } else { V::Nan };
    }
    if !f.ieee && e == emax_field && m == (1 << f.mbits) - 1 {
        return V::Nan;
    }
    let (int, exp) = if e == 0 {
        (m, 1 - f.bias as i64 - f.mbits as i64)
    } else {
        (
            m + (1 << f.mbits),
            e as i64 - f.bias as i64 - f.mbits as i64,
        )
    };
    let mag = BigRational::from_integer(BigInt::from(int)) * pow2(exp);
    V::Fin(if neg { -mag } else { mag }, neg)
}

fn is_subnormal(f: Fmt, bits: u64) -> bool {
    let (_, e, m) = fields(f, bits);
    e == 0 && m != 0
}

/// floor(log2(a)) for a > 0.
fn ilog2(a: &BigRational) -> i64 {
    let mut e = a.numer().bits() as i64 - a.denom().bits() as i64;
    while &pow2(e) > a {
        e -= 1;
    }
    while &pow2(e + 1) <= a {
        e += 1;
    }
    e
}

/// Round to nearest, ties to even, into an IEEE-style format (with infinity on overflow).
fn round(f: Fmt, v: &V) -> V {
    let V::Fin(r, neg) = v else { return v.clone() };
    if r.is_zero() {
        return v.clone();
    }
    let a = r.abs();
    let emin = 1 - f.bias as i64;
    let e = ilog2(&a).max(emin);
    let quantum = pow2(e - f.mbits as i64);
    let n = &a / &quantum;
    let fl = n.floor().to_integer();
    let frac = &n - BigRational::from_integer(fl.clone());
    let half = BigRational::new(BigInt::one(), BigInt::from(2));
    let up = frac > half || (frac == half && fl.is_odd());
    let q = if up { fl + 1 } else { fl };
    let mag = BigRational::from_integer(q) * quantum;
    let emax = (1i64 << f.ebits) - 2 - f.bias as i64;
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
            if s.is_zero() {
                // IEEE 754 §6.3 under round-to-nearest: -0 only if both addends are -0.
                let neg = a.is_zero() && b.is_zero() && *na && *nb;
                V::Fin(s, neg)
            } else {
                let neg = s.is_negative();
                V::Fin(s, neg)
            }
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

fn flush(v: V) -> V {
    match v {
        V::Fin(r, neg) if !r.is_zero() && r.abs() < pow2(-126) => V::Fin(BigRational::zero(), neg),
        other => other,
    }
}

fn fmt_of(p: Precision) -> Fmt {
    match p {
        Precision::Bf16 => BF16,
        Precision::Fp16 => F16,
        Precision::Tf32 => TF32,
        Precision::Bf8 => E5M2,
        Precision::Hf8 => E4M3,
        _ => unreachable!("float precisions only"),
    }
}

fn flushes(mode: DenormalMode, p: Precision) -> bool {
    match mode {
        DenormalMode::Keep => false,
        DenormalMode::FlushBfTf => matches!(p, Precision::Bf16 | Precision::Tf32),
        DenormalMode::FlushAll => true,
    }
}

/// Reference element value: tf32 reads bits 31..13 (or the whole container as fp32 for `Full`).
fn element(e: FloatElement, model: &FloatModel) -> V {
    let (f, bits) = match (e.precision, model.tf32_inputs) {
        (Precision::Tf32, Tf32Inputs::Full) => (F32, e.bits as u64),
        (Precision::Tf32, Tf32Inputs::Truncate) => (TF32, (e.bits >> 13) as u64),
        (p, _) => (fmt_of(p), e.bits as u64),
    };
    let v = decode(f, bits);
    if flushes(model.input_denormals, e.precision) && is_subnormal(f, bits) {
        let V::Fin(_, neg) = v else { unreachable!() };
        return V::Fin(BigRational::zero(), neg);
    }
    v
}

/// The reference model with its rounding points spelled out.
fn reference(acc: u32, b: &[FloatElement], a: &[FloatElement], model: &FloatModel) -> V {
    let class = b[0].precision;
    let mut acc_v = decode(F32, acc as u64);
    if flushes(model.input_denormals, class) && is_subnormal(F32, acc as u64) {
        acc_v = V::Fin(BigRational::zero(), acc >> 31 == 1);
    }
    let out = |v: V| {
        if flushes(model.output_denormals, class) {
            flush(v)
        } else {
            v
        }
    };
    let pairs: Vec<(V, V, bool)> = b
        .iter()
        .zip(a)
        .map(|(&x, &y)| {
            let hf = x.precision == Precision::Fp16 && y.precision == Precision::Fp16;
            (element(x, model), element(y, model), hf)
        })
        .collect();
    if model.accumulation == Accumulation::Exact {
        // One rounding point: round(F32, acc + Σ exact products).
        let mut s = acc_v;
        for (x, y, _) in &pairs {
            s = add(&s, &mul(x, y));
        }
        return out(round(F32, &s));
    }
    let ops = match class {
        Precision::Tf32 => 1,
        Precision::Bf16 | Precision::Fp16 => 2,
        _ => 4,
    };
    let order: Vec<usize> = match model.order {
        Order::IncreasingK => (0..pairs.len()).collect(),
        Order::SubwordMajorAccLast => {
            let depth = pairs.len() / ops;
            let mut o = vec![];
            for sub in 0..ops {
                for d in 0..depth {
                    o.push(d * ops + sub);
                }
            }
            o
        }
    };
    let acc_last = model.order == Order::SubwordMajorAccLast;
    let mut s = if acc_last {
        V::Fin(BigRational::zero(), false)
    } else {
        acc_v.clone()
    };
    for j in order {
        let (x, y, hf) = &pairs[j];
        s = match model.product {
            // Rounding points: product to fp32, then the sum to fp32.
            ProductRounding::Fp32 => out(round(F32, &add(&s, &round(F32, &mul(x, y))))),
            // One rounding point per product: the fused sum.
            ProductRounding::Fused => out(round(F32, &add(&s, &mul(x, y)))),
            // fp16 × fp16 products rounded to fp16 first, then the fp32 sum.
            ProductRounding::Fp16ForHf => {
                let p = if *hf {
                    round(F16, &mul(x, y))
                } else {
                    round(F32, &mul(x, y))
                };
                out(round(F32, &add(&s, &p)))
            }
        };
    }
    if acc_last {
        s = out(round(F32, &add(&s, &acc_v)));
    }
    s
}

fn assert_same(got_bits: u32, want: &V, what: &str) {
    match want {
        V::Nan => assert_eq!(got_bits, 0x7fc0_0000, "{what}: NaN must be canonical"),
        _ => assert_eq!(
            &decode(F32, got_bits as u64),
            want,
            "{what}: got {got_bits:#010x}"
        ),
    }
}

fn models() -> Vec<(String, FloatModel)> {
    let mut list: Vec<(String, FloatModel)> = FloatModel::NAMES
        .iter()
        .map(|n| (n.to_string(), FloatModel::named(n).unwrap()))
        .collect();
    list.push((
        "fused".into(),
        FloatModel {
            product: ProductRounding::Fused,
            ..FloatModel::EMULATOR
        },
    ));
    list.push((
        "flush-all".into(),
        FloatModel {
            input_denormals: DenormalMode::FlushAll,
            output_denormals: DenormalMode::FlushAll,
            ..FloatModel::EMULATOR
        },
    ));
    list.push((
        "mesa-exact-products-ftz".into(),
        FloatModel {
            order: Order::SubwordMajorAccLast,
            product: ProductRounding::Fused,
            output_denormals: DenormalMode::FlushAll,
            ..FloatModel::EMULATOR
        },
    ));
    list
}

// ---------------------------------------------------------------------------------------------
// Random inputs.

const PAIRS: [(Precision, Precision); 7] = [
    (Precision::Bf16, Precision::Bf16),
    (Precision::Fp16, Precision::Fp16),
    (Precision::Tf32, Precision::Tf32),
    (Precision::Bf8, Precision::Bf8),
    (Precision::Bf8, Precision::Hf8),
    (Precision::Hf8, Precision::Bf8),
    (Precision::Hf8, Precision::Hf8),
];

/// A pattern of precision `p`: either any bits, or a value near 1 (so that sums round).
fn element_bits(p: Precision, raw: u32, near_one: bool) -> u32 {
    let width = match p {
        Precision::Tf32 => 32,
        Precision::Bf16 | Precision::Fp16 => 16,
        _ => 8,
    };
    if !near_one {
        return if width == 32 {
            raw
        } else {
            raw & ((1 << width) - 1)
        };
    }
    let f = fmt_of(p);
    let shift = if p == Precision::Tf32 { 13 } else { 0 };
    let e = (f.bias as u32 + raw % 3).wrapping_sub(1) & ((1 << f.ebits) - 1);
    let m = (raw >> 4) & ((1 << f.mbits) - 1);
    let s = (raw >> 31) & 1;
    let v = (s << (f.ebits + f.mbits)) | (e << f.mbits) | m;
    (v << shift) | if shift > 0 { (raw >> 8) & 0x1fff } else { 0 }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn float_dot_matches_rational_reference(
        pair in prop::sample::select(PAIRS.to_vec()),
        depth in 1usize..=8,
        raws in prop::collection::vec((any::<u32>(), any::<u32>(), any::<bool>()), 32),
        acc_raw in any::<u32>(),
        acc_near in any::<bool>(),
    ) {
        let ops = match pair.0 { Precision::Tf32 => 1, Precision::Bf16 | Precision::Fp16 => 2, _ => 4 };
        let k = ops * depth;
        let b: Vec<FloatElement> = raws[..k].iter().map(|r| FloatElement { precision: pair.0, bits: element_bits(pair.0, r.0, r.2) }).collect();
        let a: Vec<FloatElement> = raws[..k].iter().map(|r| FloatElement { precision: pair.1, bits: element_bits(pair.1, r.1, r.2) }).collect();
        let acc = if acc_near { 0x3f00_0000 | (acc_raw & 0x80ff_ffff) } else { acc_raw };
        for (name, model) in models() {
            let got = float_dot(acc, &b, &a, &model).unwrap();
            assert_same(got, &reference(acc, &b, &a, &model), &format!("{name} {pair:?} acc={acc:#x} b={b:?} a={a:?}"));
        }
    }

    /// The packed step extracts OPS consecutive elements (element 0 in the low bits) and equals
    /// the reference on those elements.
    #[test]
    fn float_dot_step_reads_packed_channels(pair in prop::sample::select(PAIRS.to_vec()),
                                            bd in any::<u32>(), ad in any::<u32>(), acc in any::<u32>()) {
        let ops = match pair.0 { Precision::Tf32 => 1u32, Precision::Bf16 | Precision::Fp16 => 2, _ => 4 };
        let bits = 32 / ops;
        let split = |d: u32, p: Precision| -> Vec<FloatElement> {
            (0..ops).map(|j| FloatElement { precision: p, bits: if bits == 32 { d } else { (d >> (j * bits)) & ((1 << bits) - 1) } }).collect()
        };
        let model = FloatModel::EMULATOR;
        let got = float_dot_step(acc, PackedRun::new(bd, pair.0, 0), PackedRun::new(ad, pair.1, 0), &model).unwrap();
        assert_same(got, &reference(acc, &split(bd, pair.0), &split(ad, pair.1), &model), "step");
    }
}

/// Every fp8 × fp8 product (all four encoding mixes) under the default model:
/// p = round32(a·b), acc = round32(acc + p). Onto +0 the result must be the exact product
/// (fp8 products are exact in fp32; a product that is exactly zero is +0 or -0 by the sign rule
/// +0 + (±0) = +0), checked for every pair against the decoded operands; one pair in eight is
/// also added to 1.0 through the full reference (random tests do more).
#[test]
fn exhaustive_fp8_single_products() {
    let fp8 = [Precision::Bf8, Precision::Hf8];
    let table = |p: Precision| -> Vec<V> { (0..256u64).map(|x| decode(fmt_of(p), x)).collect() };
    for pb in fp8 {
        for pa in fp8 {
            let (vb, va) = (table(pb), table(pa));
            for x in 0..256u32 {
                for y in 0..256u32 {
                    let b = [FloatElement {
                        precision: pb,
                        bits: x,
                    }];
                    let a = [FloatElement {
                        precision: pa,
                        bits: y,
                    }];
                    let got = float_dot(0, &b, &a, &FloatModel::EMULATOR).unwrap();
                    let want = match mul(&vb[x as usize], &va[y as usize]) {
                        // +0 + (±0) = +0 under round-to-nearest.
                        V::Fin(r, _) if r.is_zero() => V::Fin(r, false),
                        other => other,
                    };
                    assert_same(got, &want, &format!("{pb}x{pa} {x:#x}*{y:#x}"));
                    if (x ^ y) & 7 == 0 {
                        let acc = 0x3f80_0000;
                        let got = float_dot(acc, &b, &a, &FloatModel::EMULATOR).unwrap();
                        let want = reference(acc, &b, &a, &FloatModel::EMULATOR);
                        assert_same(got, &want, &format!("{pb}x{pa} {x:#x}*{y:#x}+1"));
                    }
                }
            }
        }
    }
}

/// Every bf16 and fp16 pattern (and 8192 tf32 containers) times 1.0
/// onto +0 must give the element's exact value (-0 becomes +0 by +0 + -0 = +0; NaN canonical):
/// checks the exact widening of each element against the field decoder.
#[test]
fn exhaustive_16bit_element_widening() {
    for (p, one) in [(Precision::Bf16, 0x3f80), (Precision::Fp16, 0x3c00)] {
        for x in 0..=0xffffu32 {
            let got = float_dot(0, &[el(p, x)], &[el(p, one)], &FloatModel::EMULATOR).unwrap();
            let want = match decode(fmt_of(p), x as u64) {
                V::Fin(r, _) if r.is_zero() => V::Fin(r, false),
                other => other,
            };
            assert_same(got, &want, &format!("{p} {x:#06x}"));
        }
    }
    // tf32: every sign and exponent with 16 mantissas (including 0, 1 and all-ones), and junk in
    // the 13 ignored bits.
    let mantissas = [
        0u32, 1, 2, 3, 0x155, 0x200, 0x2aa, 0x3fe, 0x3ff, 7, 0x100, 0x80, 0x1f0, 0x333, 0x0f0,
        0x301,
    ];
    let tops = (0..512u32).flat_map(|se| mantissas.iter().map(move |&m| (se << 10) | m));
    for top in tops {
        let x = (top << 13) | (top.wrapping_mul(2_654_435_761) & 0x1fff);
        let got = float_dot(
            0,
            &[el(Precision::Tf32, x)],
            &[el(Precision::Tf32, 0x3f80_0000)],
            &FloatModel::EMULATOR,
        )
        .unwrap();
        let want = match decode(TF32, top as u64) {
            V::Fin(r, _) if r.is_zero() => V::Fin(r, false),
            other => other,
        };
        assert_same(got, &want, &format!("tf32 {x:#010x}"));
    }
}

fn el(precision: Precision, bits: u32) -> FloatElement {
    FloatElement { precision, bits }
}

/// Hand-computed vectors that separate the models.
#[test]
fn hand_computed_model_differences() {
    use Precision::*;
    // bf16 2^-12 = 0x3980; two products of 2^-24 on an accumulator of 1.0:
    // sequential: 1 + 2^-24 is a tie -> 1.0 (even), twice -> 0x3f800000;
    // exact: 1 + 2^-23 = 0x3f800001; mesa: (0 + 2^-24) + 2^-24 = 2^-23, then + 1 = 0x3f800001.
    let b = [el(Bf16, 0x3980), el(Bf16, 0x3980)];
    let a = b;
    let m = |n| FloatModel::named(n).unwrap();
    assert_eq!(
        float_dot(0x3f80_0000, &b, &a, &m("emulator")).unwrap(),
        0x3f80_0000
    );
    assert_eq!(
        float_dot(0x3f80_0000, &b, &a, &m("exact")).unwrap(),
        0x3f80_0001
    );
    assert_eq!(
        float_dot(0x3f80_0000, &b, &a, &m("mesa")).unwrap(),
        0x3f80_0001
    );
    // fp16 (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20: exact in fp32 = 0x3f804008; the ESIMD emulator
    // rounds it to fp16 first: 1 + 2^-9 = 0x3f804000.
    let h = [el(Fp16, 0x3c01)];
    assert_eq!(float_dot(0, &h, &h, &m("emulator")).unwrap(), 0x3f80_4008);
    assert_eq!(float_dot(0, &h, &h, &m("esimd")).unwrap(), 0x3f80_4000);
    // tf32 container 0x3f800001 (1 + 2^-23) × 1.0: the hardware uses 10 mantissa bits (1.0);
    // the CM emulator reads the whole fp32 (1 + 2^-23).
    let t = [el(Tf32, 0x3f80_0001)];
    let one = [el(Tf32, 0x3f80_0000)];
    assert_eq!(float_dot(0, &t, &one, &m("emulator")).unwrap(), 0x3f80_0000);
    assert_eq!(float_dot(0, &t, &one, &m("cm")).unwrap(), 0x3f80_0001);
    // bf16 denormal 0x0001 = 2^-133 times 1.0 onto 0: kept (0x00000001 << 16 = 2^-133 = fp32
    // 0x00010000) or flushed to +0 when BF/TF denormals are zero.
    let d = [el(Bf16, 0x0001)];
    let bone = [el(Bf16, 0x3f80)];
    assert_eq!(
        float_dot(0, &d, &bone, &m("emulator")).unwrap(),
        0x0001_0000
    );
    assert_eq!(float_dot(0, &d, &bone, &m("bf-tf-ftz")).unwrap(), 0);
    // fp16 denormals are not affected by the BF/TF switch: 2^-24 = fp32 0x33800000.
    let hd = [el(Fp16, 0x0001)];
    let hone = [el(Fp16, 0x3c00)];
    assert_eq!(
        float_dot(0, &hd, &hone, &m("bf-tf-ftz")).unwrap(),
        0x3380_0000
    );
    // tf32 denormals: container 0x00002000 is the smallest tf32 subnormal (2^-136), flushed
    // under bf-tf-ftz; container 0x00000001 is +0 once truncated to tf32 (default) but an fp32
    // denormal when read whole (cm), which the flush switch then removes.
    let t1 = [el(Tf32, 0x3f80_0000)];
    assert_eq!(
        float_dot(0, &[el(Tf32, 0x2000)], &t1, &m("emulator")).unwrap(),
        0x2000
    );
    assert_eq!(
        float_dot(0, &[el(Tf32, 0x2000)], &t1, &m("bf-tf-ftz")).unwrap(),
        0
    );
    assert_eq!(
        float_dot(0, &[el(Tf32, 0x1)], &t1, &m("emulator")).unwrap(),
        0
    );
    assert_eq!(float_dot(0, &[el(Tf32, 0x1)], &t1, &m("cm")).unwrap(), 1);
    let cm_ftz = FloatModel {
        input_denormals: DenormalMode::FlushBfTf,
        ..m("cm")
    };
    assert_eq!(float_dot(0, &[el(Tf32, 0x1)], &t1, &cm_ftz).unwrap(), 0);
    // Output flushing: 2^-100 · 2^-30 = 2^-130 is an fp32 denormal result (bf16 inputs normal).
    let tiny = [el(Bf16, 0x0d80)]; // 2^-100
    let small = [el(Bf16, 0x3080)]; // 2^-30
    assert_eq!(
        float_dot(0, &tiny, &small, &m("emulator")).unwrap(),
        0x0008_0000 // 2^19 · 2^-149
    );
    assert_eq!(float_dot(0, &tiny, &small, &m("bf-tf-ftz")).unwrap(), 0);
    // Specials: inf·0 is NaN (canonical); +inf + -inf is NaN; -0 + (-0·1) stays -0.
    let inf = [el(Bf16, 0x7f80)];
    let zero = [el(Bf16, 0x0000)];
    assert_eq!(
        float_dot(0, &inf, &zero, &m("emulator")).unwrap(),
        0x7fc0_0000
    );
    let ninf = [el(Bf16, 0xff80)];
    assert_eq!(
        float_dot(0, &[inf[0], ninf[0]], &[bone[0], bone[0]], &m("emulator")).unwrap(),
        0x7fc0_0000
    );
    assert_eq!(
        float_dot(0x8000_0000, &[el(Bf16, 0x8000)], &bone, &m("emulator")).unwrap(),
        0x8000_0000
    );
    // hf8 0x7e = 448 (max), bf8 0x7b = 57344 (max): 448·57344 = 25690112 = 0x4bc40000.
    assert_eq!(
        float_dot(0, &[el(Hf8, 0x7e)], &[el(Bf8, 0x7b)], &m("emulator")).unwrap(),
        0x4bc4_0000
    );
}

#[test]
fn accumulator_conversions() {
    // bf16 Src0 widening is the shift by 16; fp16 widening is exact.
    assert_eq!(bf16_to_acc(0xc0a0), 0xc0a0_0000);
    assert_eq!(fp16_to_acc(0x3c00), 0x3f80_0000);
    assert_eq!(fp16_to_acc(0x0001), 0x3380_0000); // 2^-24
    assert_eq!(fp16_to_acc(0xfc00), 0xff80_0000);
    // fp32 -> fp16 RNE: 1 + 2^-11 is a tie -> 1.0; 1 + 3·2^-11 -> 1 + 2^-9 (even); 65520 -> inf.
    assert_eq!(acc_to_fp16(0x3f80_1000), 0x3c00);
    assert_eq!(acc_to_fp16(0x3f80_3000), 0x3c02);
    assert_eq!(acc_to_fp16(0x477f_f000), 0x7c00);
    // fp32 -> bf16: ties to even on normal values under both rules.
    for rule in [
        BfOutputRounding::NearestEven,
        BfOutputRounding::EmulatorNormalOnly,
    ] {
        assert_eq!(acc_to_bf16(0x3f80_8000, rule), 0x3f80);
        assert_eq!(acc_to_bf16(0x3f81_8000, rule), 0x3f82);
        assert_eq!(acc_to_bf16(0x3f80_8001, rule), 0x3f81);
        assert_eq!(acc_to_bf16(0x7f7f_ffff, rule), 0x7f80);
    }
    // Denormal tie 0x00018000: RNE -> 0x0002; the emulators truncate non-normal values -> 0x0001.
    assert_eq!(
        acc_to_bf16(0x0001_8000, BfOutputRounding::NearestEven),
        0x0002
    );
    assert_eq!(
        acc_to_bf16(0x0001_8000, BfOutputRounding::EmulatorNormalOnly),
        0x0001
    );
    // A NaN whose payload is only in the low 16 bits: RNE keeps a NaN, truncation makes +inf.
    let nan = acc_to_bf16(0x7f80_0001, BfOutputRounding::NearestEven);
    assert!(nan & 0x7f80 == 0x7f80 && nan & 0x007f != 0);
    assert_eq!(
        acc_to_bf16(0x7f80_0001, BfOutputRounding::EmulatorNormalOnly),
        0x7f80
    );
}

#[test]
fn malformed_calls_are_errors() {
    use spvx_num::dpas::DpasError;
    let m = FloatModel::EMULATOR;
    assert!(matches!(
        float_dot(0, &[el(Precision::Bf16, 0)], &[], &m),
        Err(DpasError::LengthMismatch { .. })
    ));
    assert!(matches!(
        float_dot(0, &[el(Precision::Bf16, 0)], &[el(Precision::Fp16, 0)], &m),
        Err(DpasError::IllegalCombination { .. })
    ));
    assert!(matches!(
        float_dot(0, &[el(Precision::U8, 0)], &[el(Precision::U8, 0)], &m),
        Err(DpasError::WrongPrecisionKind { .. })
    ));
    assert!(matches!(
        float_dot(
            0,
            &[el(Precision::Bf16, 0), el(Precision::Fp16, 0)],
            &[el(Precision::Bf16, 0), el(Precision::Fp16, 0)],
            &m
        ),
        Err(DpasError::InconsistentPrecision {
            operand: "Src1",
            ..
        })
    ));
    let mesa = FloatModel::named("mesa").unwrap();
    assert!(matches!(
        float_dot(
            0,
            &[el(Precision::Bf16, 0)],
            &[el(Precision::Bf16, 0)],
            &mesa
        ),
        Err(DpasError::NotWholeChannels { .. })
    ));
    assert!(FloatModel::named("nonsense").is_none());
}
