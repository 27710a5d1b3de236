//! The batch API of the exact model's native path (`mixdot::fast`) against the exact path
//! (rational sum, one rounding) case by case: a million cases per form (f16 and bf16 Dot2 with
//! f32 and with 16-bit accumulators, the four fp8 encoding pairs of Dot4), half of them uniformly random words (every exponent,
//! NaNs and infinities included) and half built at the edges: ±0, subnormals, the largest
//! values, infinities and NaNs, accumulators cancelling the products exactly or to a few
//! ulps, and sums landing on f32 midpoints (ties) or just beside them. Every other model
//! (native with nearest even and no flushing) against the exact path on 100,000 cases per
//! form, and the flush switches through the batch API against the per-case API.

use spvx_num::float::{Format, RoundingMode, convert};
use spvx_num::mixdot::{
    Fp8Encoding, Half16Encoding, Model, ModelConfig, dot2_acc16, dot2_acc32, dot4_acc32,
    exact_dot2_acc16, exact_dot2_acc32, exact_dot4_acc32, fast,
};

/// SplitMix64.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A lane of `width` bits (16 or 8) with `frac` fraction bits, biased to the edges.
fn edge_lane(r: &mut Rng, width: u32, frac: u32) -> u32 {
    let sign = (r.next() as u32 & 1) << (width - 1);
    let exp_mask = (1u32 << (width - 1 - frac)) - 1;
    let frac_mask = (1u32 << frac) - 1;
    let x = r.next() as u32;
    let e = match r.below(8) {
        0 => 0,                               // ±0 or subnormal
        1 => return sign,                     // ±0
        2 => exp_mask,                        // ±∞ or NaN
        3 => exp_mask - 1,                    // the largest binade
        4 => 1,                               // the smallest normal binade
        5 => (exp_mask >> 1) + (x >> 28) % 3, // near 1
        _ => (x >> 8) & exp_mask,             // anywhere
    };
    let f = match r.below(4) {
        0 => 0,
        1 => frac_mask,
        _ => x & frac_mask,
    };
    sign | (e << frac) | f
}

fn word(r: &mut Rng, width: u32, frac: u32) -> u32 {
    let lanes = 32 / width;
    (0..lanes).fold(0, |w, k| w | (edge_lane(r, width, frac) << (k * width)))
}

/// An f32 accumulator for a case whose exact product sum is about `products` (an f64 that
/// may be rounded): random bits, edge values, the negated sum (cancelling) and its
/// neighbours, and the sum's f32 neighbours shifted by half an ulp (ties).
fn acc_for(r: &mut Rng, products: f64) -> u32 {
    let x = r.next();
    let neg = (-products) as f32;
    match x % 8 {
        0 => (x >> 32) as u32,
        1 => [
            0,
            0x8000_0000,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            1,
            0x7f7f_ffff,
        ][(x >> 40) as usize % 7],
        2 | 3 => neg.to_bits(),
        4 => neg.to_bits() ^ ((x >> 40) as u32 & 7),
        5 => {
            // acc = 2^k with the products about half an ulp of it: a tie or near-tie.
            let k = if products == 0.0 {
                0
            } else {
                products.abs().log2() as i32 + 24
            };
            let v = 2f32.powi(k.clamp(-149, 127));
            (if x >> 63 == 0 { v } else { -v }).to_bits()
        }
        _ => ((x >> 32) as u32 & 0x807f_ffff) | ((((x >> 56) as u32) % 254 + 1) << 23),
    }
}

fn half_f64(enc: Half16Encoding, bits: u32) -> f64 {
    let f = match enc {
        Half16Encoding::F16 => Format::F16,
        Half16Encoding::Bf16 => Format::BF16,
    };
    f.decode(u64::from(bits & 0xffff)).to_f64()
}

const CASES: usize = 1_000_000;

/// `n` Dot2 cases: even ones uniformly random words, odd ones built at the edges.
fn dot2_data(enc: Half16Encoding, seed: u64, n: usize) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
    let (frac, mut r) = (if enc == Half16Encoding::F16 { 10 } else { 7 }, Rng(seed));
    let (mut a, mut b, mut acc) = (vec![0u32; n], vec![0u32; n], vec![0u32; n]);
    for i in 0..n {
        if i % 2 == 0 {
            (a[i], b[i], acc[i]) = (r.next() as u32, r.next() as u32, r.next() as u32);
        } else {
            (a[i], b[i]) = (word(&mut r, 16, frac), word(&mut r, 16, frac));
            let p = half_f64(enc, a[i]) * half_f64(enc, b[i])
                + half_f64(enc, a[i] >> 16) * half_f64(enc, b[i] >> 16);
            acc[i] = acc_for(&mut r, if p.is_finite() { p } else { 1.0 });
        }
    }
    (a, b, acc)
}

/// The batch against the exact path case by case under `cfg`; how many cases took the
/// exact path.
fn dot2_check(
    enc: Half16Encoding,
    data: &(Vec<u32>, Vec<u32>, Vec<u32>),
    cfg: &ModelConfig,
) -> usize {
    let (a, b, acc) = data;
    let mut out = vec![0u32; a.len()];
    let slow = fast::dot2_acc32_batch(enc, a, b, acc, cfg, &mut out).expect("lengths");
    let halves = |w: u32| [w as u16, (w >> 16) as u16];
    let mut failures = Vec::new();
    for i in 0..a.len() {
        let want = exact_dot2_acc32(enc, halves(a[i]), halves(b[i]), acc[i], cfg);
        if out[i] != want && failures.len() < 10 {
            failures.push(format!(
                "{enc:?} {} a {:#010x} b {:#010x} acc {:#010x}: got {:#010x} want {want:#010x}",
                cfg.model, a[i], b[i], acc[i], out[i]
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    slow
}

fn dot2_form(enc: Half16Encoding, seed: u64) {
    let data = dot2_data(enc, seed, CASES);
    let slow = dot2_check(enc, &data, &ModelConfig::new(Model::Exact));
    // The exact path is kept for error terms spanning too much; these inputs never need it.
    assert_eq!(slow, 0, "{enc:?}: {slow} cases took the exact path");
}

#[test]
fn f16_dot2_batch_is_bit_exact() {
    dot2_form(Half16Encoding::F16, 1);
}

#[test]
fn bf16_dot2_batch_is_bit_exact() {
    dot2_form(Half16Encoding::Bf16, 2);
}

/// The Acc16 accumulator for a case: the f32 accumulator of [`acc_for`] rounded into the
/// encoding (cancelling and near-tie values carry over), or random bits.
fn acc16_for(r: &mut Rng, enc: Half16Encoding, products: f64) -> u16 {
    let acc = acc_for(r, products);
    if r.next().is_multiple_of(4) {
        return acc as u16;
    }
    let f = match enc {
        Half16Encoding::F16 => Format::F16,
        Half16Encoding::Bf16 => Format::BF16,
    };
    convert(
        Format::F32,
        u64::from(acc),
        f,
        RoundingMode::NearestEven,
        false,
    ) as u16
}

fn dot2_acc16_data(enc: Half16Encoding, seed: u64, n: usize) -> (Vec<u32>, Vec<u32>, Vec<u16>) {
    let (frac, mut r) = (if enc == Half16Encoding::F16 { 10 } else { 7 }, Rng(seed));
    let (mut a, mut b, mut acc) = (vec![0u32; n], vec![0u32; n], vec![0u16; n]);
    for i in 0..n {
        if i % 2 == 0 {
            (a[i], b[i], acc[i]) = (r.next() as u32, r.next() as u32, r.next() as u16);
        } else {
            (a[i], b[i]) = (word(&mut r, 16, frac), word(&mut r, 16, frac));
            let p = half_f64(enc, a[i]) * half_f64(enc, b[i])
                + half_f64(enc, a[i] >> 16) * half_f64(enc, b[i] >> 16);
            acc[i] = acc16_for(&mut r, enc, if p.is_finite() { p } else { 1.0 });
        }
    }
    (a, b, acc)
}

fn dot2_acc16_check(
    enc: Half16Encoding,
    data: &(Vec<u32>, Vec<u32>, Vec<u16>),
    cfg: &ModelConfig,
) -> usize {
    let (a, b, acc) = data;
    let mut out = vec![0u16; a.len()];
    let slow = fast::dot2_acc16_batch(enc, a, b, acc, cfg, &mut out).expect("lengths");
    let halves = |w: u32| [w as u16, (w >> 16) as u16];
    let mut failures = Vec::new();
    for i in 0..a.len() {
        let want = exact_dot2_acc16(enc, halves(a[i]), halves(b[i]), acc[i], cfg);
        if out[i] != want && failures.len() < 10 {
            failures.push(format!(
                "{enc:?} {} a {:#010x} b {:#010x} acc {:#06x}: got {:#06x} want {want:#06x}",
                cfg.model, a[i], b[i], acc[i], out[i]
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    slow
}

fn dot2_acc16_form(enc: Half16Encoding, seed: u64) {
    let data = dot2_acc16_data(enc, seed, CASES);
    let slow = dot2_acc16_check(enc, &data, &ModelConfig::new(Model::Exact));
    assert_eq!(slow, 0, "{enc:?}: {slow} cases took the exact path");
}

#[test]
fn f16_dot2_acc16_batch_is_bit_exact() {
    dot2_acc16_form(Half16Encoding::F16, 7);
}

#[test]
fn bf16_dot2_acc16_batch_is_bit_exact() {
    dot2_acc16_form(Half16Encoding::Bf16, 8);
}

fn fp8_f64(enc: Fp8Encoding, bits: u32) -> f64 {
    fast::fp8_table(enc)[(bits & 0xff) as usize]
}

fn dot4_data(
    ea: Fp8Encoding,
    eb: Fp8Encoding,
    seed: u64,
    n: usize,
) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
    let frac = |e: Fp8Encoding| if e == Fp8Encoding::E4m3 { 3 } else { 2 };
    let mut r = Rng(seed);
    let (mut a, mut b, mut acc) = (vec![0u32; n], vec![0u32; n], vec![0u32; n]);
    for i in 0..n {
        if i % 2 == 0 {
            (a[i], b[i], acc[i]) = (r.next() as u32, r.next() as u32, r.next() as u32);
        } else {
            (a[i], b[i]) = (word(&mut r, 8, frac(ea)), word(&mut r, 8, frac(eb)));
            let p: f64 = (0..4)
                .map(|k| fp8_f64(ea, a[i] >> (8 * k)) * fp8_f64(eb, b[i] >> (8 * k)))
                .sum();
            acc[i] = acc_for(&mut r, if p.is_finite() { p } else { 1.0 });
        }
    }
    (a, b, acc)
}

fn dot4_check(
    ea: Fp8Encoding,
    eb: Fp8Encoding,
    data: &(Vec<u32>, Vec<u32>, Vec<u32>),
    cfg: &ModelConfig,
) -> usize {
    let (a, b, acc) = data;
    let mut out = vec![0u32; a.len()];
    let slow = fast::dot4_acc32_batch(ea, eb, a, b, acc, cfg, &mut out).expect("lengths");
    let mut failures = Vec::new();
    for i in 0..a.len() {
        let (x, y) = (a[i].to_le_bytes(), b[i].to_le_bytes());
        let want = exact_dot4_acc32(ea, eb, x, y, acc[i], cfg);
        if out[i] != want && failures.len() < 10 {
            failures.push(format!(
                "{ea:?}x{eb:?} {} a {:#010x} b {:#010x} acc {:#010x}: got {:#010x} want {want:#010x}",
                cfg.model, a[i], b[i], acc[i], out[i]
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    slow
}

fn dot4_form(ea: Fp8Encoding, eb: Fp8Encoding, seed: u64) {
    let data = dot4_data(ea, eb, seed, CASES);
    let slow = dot4_check(ea, eb, &data, &ModelConfig::new(Model::Exact));
    assert_eq!(slow, 0, "{ea:?}x{eb:?}: {slow} cases took the exact path");
}

#[test]
fn e4m3_e4m3_dot4_batch_is_bit_exact() {
    dot4_form(Fp8Encoding::E4m3, Fp8Encoding::E4m3, 3);
}

#[test]
fn e4m3_e5m2_dot4_batch_is_bit_exact() {
    dot4_form(Fp8Encoding::E4m3, Fp8Encoding::E5m2, 4);
}

#[test]
fn e5m2_e4m3_dot4_batch_is_bit_exact() {
    dot4_form(Fp8Encoding::E5m2, Fp8Encoding::E4m3, 5);
}

#[test]
fn e5m2_e5m2_dot4_batch_is_bit_exact() {
    dot4_form(Fp8Encoding::E5m2, Fp8Encoding::E5m2, 6);
}

/// Hand-made cases with known answers: ties to even both ways, the low part deciding, the
/// overflow threshold, the sign of exact zeros, and specials.
#[test]
fn hand_made_cases() {
    let f16 = Half16Encoding::F16;
    let bf16 = Half16Encoding::Bf16;
    let one = 1f32.to_bits();
    let cfg = ModelConfig::new(Model::Exact);
    let check = |enc, a: u32, b: u32, acc: u32, want: u32| {
        let mut out = [0u32];
        fast::dot2_acc32_batch(enc, &[a], &[b], &[acc], &cfg, &mut out).expect("lengths");
        assert_eq!(out[0], want, "{enc:?} a {a:#x} b {b:#x} acc {acc:#x}");
        let halves = |w: u32| [w as u16, (w >> 16) as u16];
        assert_eq!(exact_dot2_acc32(enc, halves(a), halves(b), acc, &cfg), want);
    };
    // f16 2^-12 · 2^-12 = 2^-24, half an ulp of 1: a tie, to even (1).
    check(f16, 0x0c00, 0x0c00, one, one);
    // 1 + 2^-23 (odd) plus half an ulp: to even, 1 + 2^-22.
    check(f16, 0x0c00, 0x0c00, one + 1, one + 2);
    // The tie plus 2^-24 · 2^-24 in lane 1: past the midpoint, up.
    check(f16, 0x0001_0c00, 0x0001_0c00, one, one + 1);
    // The tie minus it: below the midpoint, down.
    check(f16, 0x0001_0c00, 0x8001_0c00, one, one);
    // bf16 2^127 · 2 = 2^128: overflow to +∞; minus the largest f32: exactly representable.
    check(bf16, 0x7f00, 0x4000, 0, 0x7f80_0000);
    check(bf16, 0x7f00, 0x4000, 0xff7f_ffff, 0x7380_0000);
    // The overflow threshold 2^128 − 2^103 (the largest f32 2^128 − 2^104 plus bf16 2^103 · 1)
    // ties to ∞; 2^-133 · −2^-133 below it rounds to the largest finite value.
    check(bf16, 0x3f80_7300, 0x0000_3f80, 0x7f7f_ffff, 0x7f80_0000);
    check(bf16, 0x0001_7300, 0x8001_3f80, 0x7f7f_ffff, 0x7f7f_ffff);
    // Zeros: all −0 gives −0; −0 and +0 give +0; 1 − 1 gives +0.
    check(f16, 0x8000_8000, 0x0000_0000, 0x8000_0000, 0x8000_0000);
    check(f16, 0x0000_8000, 0x0000_0000, 0x8000_0000, 0);
    check(f16, 0x0000_3c00, 0x0000_bc00, one, 0);
    // Specials: ∞ · 0 is NaN, ∞ − ∞ is NaN, ∞ + finite is ∞, NaN in is NaN.
    check(f16, 0x7c00, 0x0000, 0, 0x7fc0_0000);
    check(f16, 0x7c00_7c00, 0xbc00_3c00, 0, 0x7fc0_0000);
    check(f16, 0x7c00, 0xbc00, one, 0xff80_0000);
    check(f16, 0x3c00, 0x3c00, 0x7f80_0001, 0x7fc0_0000);
    check(bf16, 0x3f80, 0x3f80, 0xff80_0000, 0xff80_0000);
}

/// Every model and the flush switches through the batch API: the per-case API's results.
#[test]
fn other_models_through_the_batch_api() {
    let mut r = Rng(9);
    let n = 20_000;
    let a: Vec<u32> = (0..n).map(|_| word(&mut r, 16, 10)).collect();
    let b: Vec<u32> = (0..n).map(|_| word(&mut r, 16, 10)).collect();
    let acc: Vec<u32> = (0..n).map(|_| acc_for(&mut r, 1.0)).collect();
    let mut out = vec![0u32; n];
    for model in Model::ALL {
        for (fi, fo) in [(false, false), (true, false), (false, true)] {
            let mut cfg = ModelConfig::new(model);
            cfg.flush_input_denormals = fi;
            cfg.flush_output_denormals = fo;
            for enc in [Half16Encoding::F16, Half16Encoding::Bf16] {
                fast::dot2_acc32_batch(enc, &a, &b, &acc, &cfg, &mut out).expect("lengths");
                for i in 0..n {
                    let h = |w: u32| [w as u16, (w >> 16) as u16];
                    assert_eq!(out[i], dot2_acc32(enc, h(a[i]), h(b[i]), acc[i], &cfg));
                }
            }
            let acc16: Vec<u16> = acc.iter().map(|&w| (w >> 16) as u16).collect();
            let mut out16 = vec![0u16; n];
            for enc in [Half16Encoding::F16, Half16Encoding::Bf16] {
                fast::dot2_acc16_batch(enc, &a, &b, &acc16, &cfg, &mut out16).expect("lengths");
                for i in 0..n {
                    let h = |w: u32| [w as u16, (w >> 16) as u16];
                    assert_eq!(out16[i], dot2_acc16(enc, h(a[i]), h(b[i]), acc16[i], &cfg));
                }
            }
            let (ea, eb) = (Fp8Encoding::E4m3, Fp8Encoding::E5m2);
            fast::dot4_acc32_batch(ea, eb, &a, &b, &acc, &cfg, &mut out).expect("lengths");
            for i in 0..n {
                let (x, y) = (a[i].to_le_bytes(), b[i].to_le_bytes());
                assert_eq!(out[i], dot4_acc32(ea, eb, x, y, acc[i], &cfg));
            }
        }
    }
}

/// Every other model, natively with nearest even and no flushing, against the exact path
/// (each model's steps rounded exactly) on 100,000 cases per form; with another rounding
/// direction or a flush switch every case takes the exact path.
#[test]
fn every_model_matches_the_exact_path() {
    const N: usize = 100_000;
    use Fp8Encoding::{E4m3, E5m2};
    for model in Model::ALL {
        let cfg = ModelConfig::new(model);
        for (k, enc) in [Half16Encoding::F16, Half16Encoding::Bf16]
            .into_iter()
            .enumerate()
        {
            let seed = 100 + k as u64;
            assert_eq!(dot2_check(enc, &dot2_data(enc, seed, N), &cfg), 0);
            assert_eq!(
                dot2_acc16_check(enc, &dot2_acc16_data(enc, seed, N), &cfg),
                0
            );
        }
        for (k, (ea, eb)) in [(E4m3, E4m3), (E4m3, E5m2), (E5m2, E4m3), (E5m2, E5m2)]
            .into_iter()
            .enumerate()
        {
            assert_eq!(
                dot4_check(ea, eb, &dot4_data(ea, eb, 200 + k as u64, N), &cfg),
                0
            );
        }
    }
    let mut rtz = ModelConfig::new(Model::Sequential);
    rtz.rounding = RoundingMode::TowardZero;
    let mut flush = ModelConfig::new(Model::FmaChain);
    flush.flush_output_denormals = true;
    for cfg in [rtz, flush] {
        let data = dot2_data(Half16Encoding::Bf16, 300, 5000);
        assert_eq!(dot2_check(Half16Encoding::Bf16, &data, &cfg), 5000);
        let data = dot4_data(E4m3, E5m2, 301, 5000);
        assert_eq!(dot4_check(E4m3, E5m2, &data, &cfg), 5000);
    }
}
