//! Native arithmetic for the mixed dot products, round to nearest even and no flushing:
//! `OpFDot2MixAcc32VALVE`, `OpFDot2MixAcc16VALVE` and `OpFDot4MixAcc32VALVE` one case at a
//! time under every model ([`dot2_acc32_model`], [`dot2_acc16_model`], [`dot4_acc32_model`],
//! which the typed API, the interpreter and the JIT's entry points (`super::abi`) use; the
//! exact model's [`dot2_acc32`], ...), and over slices under every model
//! ([`dot2_acc32_batch`], [`dot2_acc16_batch`], [`dot4_acc32_batch`], [`par_batch`]).
//!
//! Every f16, bf16, E4M3 and E5M2 value is exact in f32, so each product of two of them is
//! exact in f64, as is the accumulator; infinities and NaNs decode to f64 infinities and NaNs,
//! whose IEEE arithmetic follows the models' rules (`super::decode`). Each rounding is the
//! correct rounding of an exact sum of at most three f64 terms (`super::sum3`, error-free
//! transformations); the kernels of each operation, encoding and model are in
//! `super::kernels`, run over slices in vectorised chunks by `super::drive`.
//!
//! `None` (and in batches the exact path) is left only for sums whose error terms span too
//! much (see `super::sum3`); no test or benchmark input reaches it, and the batch functions
//! return how many cases did.
//!
//! Checked against the exact path (spvx-num's rational arithmetic, each rounding step exact) on
//! random and edge inputs in this module's tests and in `tests/mixdot_fast.rs`.

use super::drive;
use super::drive::Kernel;
use super::kernels::{
    ACC_FIRST, Dot2Acc16, Dot2Acc32, Dot4Acc32, EXACT, FMA, FUSED, SEQUENTIAL, model_id,
};
use super::model::{Model, ModelConfig};
use super::op::{Fp8Encoding, Half16Encoding};
use crate::float::{Format, RoundingMode};
use rayon::prelude::*;
use std::sync::LazyLock;

/// Whether the exact model's per-case functions ([`dot2_acc32`], ...) compute what `cfg` asks
/// for (the `_model` ones and the batches compute every model where [`batch_native`] holds).
pub fn applies(cfg: &ModelConfig) -> bool {
    cfg.model == Model::Exact && batch_native(cfg)
}

/// Every bit pattern of `format` (`N` patterns) as an f64, from spvx-num's own decoding.
fn table<const N: usize>(format: Format) -> Box<[f64; N]> {
    let mut t = Box::new([0f64; N]);
    for (bits, v) in t.iter_mut().enumerate() {
        *v = format.decode(bits as u64).to_f64();
    }
    t
}

static E4M3: LazyLock<Box<[f64; 256]>> = LazyLock::new(|| table(Format::E4M3));
static E5M2: LazyLock<Box<[f64; 256]>> = LazyLock::new(|| table(Format::E5M2));

/// The value of every pattern of an fp8 encoding as an f64 (NaN for the NaNs, ±inf for
/// E5M2's infinities): the table the native path and the JIT's inline dots read.
pub fn fp8_table(enc: Fp8Encoding) -> &'static [f64; 256] {
    match enc {
        Fp8Encoding::E4m3 => &E4M3,
        Fp8Encoding::E5m2 => &E5M2,
    }
}

/// `OpFDot2MixAcc32VALVE` under the exact model (no flushing, nearest even): vectors packed
/// component 0 in the low 16 bits; `None` sends the case to the exact path.
pub fn dot2_acc32(enc: Half16Encoding, a: u32, b: u32, acc: u32) -> Option<u32> {
    dot2_acc32_model(enc, Model::Exact, a, b, acc)
}

/// `OpFDot2MixAcc16VALVE` under the exact model (no flushing, nearest even), the accumulator
/// and result in the vectors' encoding; `None` sends the case to the exact path.
pub fn dot2_acc16(enc: Half16Encoding, a: u32, b: u32, acc: u16) -> Option<u16> {
    dot2_acc16_model(enc, Model::Exact, a, b, acc)
}

/// `OpFDot4MixAcc32VALVE` under the exact model: each vector's components packed byte 0 first.
pub fn dot4_acc32(ea: Fp8Encoding, eb: Fp8Encoding, a: u32, b: u32, acc: u32) -> Option<u32> {
    dot4_acc32_model(ea, eb, Model::Exact, a, b, acc)
}

/// The kernel of `$k` for one case with the model `$m` as its last constant.
macro_rules! one_case {
    ($m:expr, ($a:expr, $b:expr, $acc:expr), $k:ident < $($c:literal),* >) => {
        match model_id($m) {
            EXACT => $k::<$($c,)* { EXACT }>.eval($a, $b, $acc),
            SEQUENTIAL => $k::<$($c,)* { SEQUENTIAL }>.eval($a, $b, $acc),
            ACC_FIRST => $k::<$($c,)* { ACC_FIRST }>.eval($a, $b, $acc),
            FUSED => $k::<$($c,)* { FUSED }>.eval($a, $b, $acc),
            _ => $k::<$($c,)* { FMA }>.eval($a, $b, $acc),
        }
    };
}

/// [`dot2_acc32`] under any model (nearest even, no flushing): one case through the batch
/// kernels' arithmetic; `None` sends the case to the exact path.
pub fn dot2_acc32_model(enc: Half16Encoding, m: Model, a: u32, b: u32, acc: u32) -> Option<u32> {
    let (v, undecided) = match enc {
        Half16Encoding::F16 => one_case!(m, (a, b, acc), Dot2Acc32<false>),
        Half16Encoding::Bf16 => one_case!(m, (a, b, acc), Dot2Acc32<true>),
    };
    (!undecided).then_some(v)
}

/// [`dot2_acc16`] under any model (nearest even, no flushing), as [`dot2_acc32_model`].
pub fn dot2_acc16_model(enc: Half16Encoding, m: Model, a: u32, b: u32, acc: u16) -> Option<u16> {
    let (v, undecided) = match enc {
        Half16Encoding::F16 => one_case!(m, (a, b, acc), Dot2Acc16<false>),
        Half16Encoding::Bf16 => one_case!(m, (a, b, acc), Dot2Acc16<true>),
    };
    (!undecided).then_some(v)
}

/// [`dot4_acc32`] under any model (nearest even, no flushing), as [`dot2_acc32_model`].
pub fn dot4_acc32_model(
    ea: Fp8Encoding,
    eb: Fp8Encoding,
    m: Model,
    a: u32,
    b: u32,
    acc: u32,
) -> Option<u32> {
    use Fp8Encoding::{E4m3, E5m2};
    let (v, undecided) = match (ea, eb) {
        (E4m3, E4m3) => one_case!(m, (a, b, acc), Dot4Acc32<false, false>),
        (E4m3, E5m2) => one_case!(m, (a, b, acc), Dot4Acc32<false, true>),
        (E5m2, E4m3) => one_case!(m, (a, b, acc), Dot4Acc32<true, false>),
        (E5m2, E5m2) => one_case!(m, (a, b, acc), Dot4Acc32<true, true>),
    };
    (!undecided).then_some(v)
}

/// Why a batch cannot be evaluated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("mixdot batch: {a} a, {b} b, {acc} acc and {out} out elements (all must be equal)")]
pub struct BatchLengths {
    pub a: usize,
    pub b: usize,
    pub acc: usize,
    pub out: usize,
}

fn check<T, U>(a: &[u32], b: &[u32], acc: &[T], out: &[U]) -> Result<(), BatchLengths> {
    if a.len() == b.len() && b.len() == acc.len() && acc.len() == out.len() {
        Ok(())
    } else {
        Err(BatchLengths {
            a: a.len(),
            b: b.len(),
            acc: acc.len(),
            out: out.len(),
        })
    }
}

/// Whether the batch functions compute `cfg` natively: any model, round to nearest even, no
/// flushing (the per-case functions of this module compute only the exact model).
pub fn batch_native(cfg: &ModelConfig) -> bool {
    cfg.rounding == RoundingMode::NearestEven
        && !cfg.flush_input_denormals
        && !cfg.flush_output_denormals
}

/// `out[i]` for every case by the exact path; how many cases (all).
fn all_exact<A: Copy, T>(
    (a, b, acc): (&[u32], &[u32], &[A]),
    out: &mut [T],
    exact: impl Fn(u32, u32, A) -> T,
) -> usize {
    for (((o, &x), &y), &z) in out.iter_mut().zip(a).zip(b).zip(acc) {
        *o = exact(x, y, z);
    }
    out.len()
}

/// The batch loop of the kernel type `$k` with the model of `$cfg` as its last constant, or
/// the exact path for every case where [`batch_native`] is false.
macro_rules! by_model {
    ($cfg:expr, $args:expr, $out:expr, $exact:expr, $k:ident < $($c:literal),* >) => {{
        let (a, b, acc) = $args;
        if !batch_native($cfg) {
            all_exact($args, $out, $exact)
        } else {
            match model_id($cfg.model) {
                EXACT => drive::run(a, b, acc, $out, $k::<$($c,)* { EXACT }>, $exact),
                SEQUENTIAL => drive::run(a, b, acc, $out, $k::<$($c,)* { SEQUENTIAL }>, $exact),
                ACC_FIRST => drive::run(a, b, acc, $out, $k::<$($c,)* { ACC_FIRST }>, $exact),
                FUSED => drive::run(a, b, acc, $out, $k::<$($c,)* { FUSED }>, $exact),
                _ => drive::run(a, b, acc, $out, $k::<$($c,)* { FMA }>, $exact),
            }
        }
    }};
}

fn halves(w: u32) -> [u16; 2] {
    [w as u16, (w >> 16) as u16]
}

/// `out[i] = OpFDot2MixAcc32VALVE(a[i], b[i], acc[i])` under `cfg` (vectors packed as in
/// [`dot2_acc32`]); the native path where it applies and decides, the exact path otherwise.
/// Returns how many cases took the exact path.
pub fn dot2_acc32_batch(
    enc: Half16Encoding,
    a: &[u32],
    b: &[u32],
    acc: &[u32],
    cfg: &ModelConfig,
    out: &mut [u32],
) -> Result<usize, BatchLengths> {
    check(a, b, acc, out)?;
    let exact = |x, y, z| super::api::exact_dot2_acc32(enc, halves(x), halves(y), z, cfg);
    Ok(match enc {
        Half16Encoding::F16 => by_model!(cfg, (a, b, acc), out, exact, Dot2Acc32<false>),
        Half16Encoding::Bf16 => by_model!(cfg, (a, b, acc), out, exact, Dot2Acc32<true>),
    })
}

/// `out[i] = OpFDot2MixAcc16VALVE(a[i], b[i], acc[i])` under `cfg` (accumulators and results
/// in the vectors' 16-bit encoding), as [`dot2_acc32_batch`].
pub fn dot2_acc16_batch(
    enc: Half16Encoding,
    a: &[u32],
    b: &[u32],
    acc: &[u16],
    cfg: &ModelConfig,
    out: &mut [u16],
) -> Result<usize, BatchLengths> {
    check(a, b, acc, out)?;
    let exact = |x, y, z| super::api::exact_dot2_acc16(enc, halves(x), halves(y), z, cfg);
    Ok(match enc {
        Half16Encoding::F16 => by_model!(cfg, (a, b, acc), out, exact, Dot2Acc16<false>),
        Half16Encoding::Bf16 => by_model!(cfg, (a, b, acc), out, exact, Dot2Acc16<true>),
    })
}

/// `out[i] = OpFDot4MixAcc32VALVE(a[i], b[i], acc[i])` under `cfg`, as [`dot2_acc32_batch`].
pub fn dot4_acc32_batch(
    ea: Fp8Encoding,
    eb: Fp8Encoding,
    a: &[u32],
    b: &[u32],
    acc: &[u32],
    cfg: &ModelConfig,
    out: &mut [u32],
) -> Result<usize, BatchLengths> {
    check(a, b, acc, out)?;
    let exact = |x: u32, y: u32, z| {
        super::api::exact_dot4_acc32(ea, eb, x.to_le_bytes(), y.to_le_bytes(), z, cfg)
    };
    use Fp8Encoding::{E4m3, E5m2};
    let args = (a, b, acc);
    Ok(match (ea, eb) {
        (E4m3, E4m3) => by_model!(cfg, args, out, exact, Dot4Acc32<false, false>),
        (E4m3, E5m2) => by_model!(cfg, args, out, exact, Dot4Acc32<false, true>),
        (E5m2, E4m3) => by_model!(cfg, args, out, exact, Dot4Acc32<true, false>),
        (E5m2, E5m2) => by_model!(cfg, args, out, exact, Dot4Acc32<true, true>),
    })
}

/// One of the batch functions over all cores (rayon): the slices cut into chunks of 64 Ki
/// cases, each evaluated by `batch`; the exact-path count summed.
pub fn par_batch<T: Sync, U: Send>(
    a: &[u32],
    b: &[u32],
    acc: &[T],
    out: &mut [U],
    batch: impl Fn(&[u32], &[u32], &[T], &mut [U]) -> Result<usize, BatchLengths> + Sync,
) -> Result<usize, BatchLengths> {
    check(a, b, acc, out)?;
    const CHUNK: usize = 1 << 16;
    out.par_chunks_mut(CHUNK)
        .enumerate()
        .map(|(k, o)| {
            let r = k * CHUNK..k * CHUNK + o.len();
            batch(&a[r.clone()], &b[r.clone()], &acc[r], o)
        })
        .try_reduce(|| 0, |x, y| Ok(x + y))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mixdot::api::{exact_dot2_acc32, exact_dot4_acc32};
    use crate::mixdot::decode;

    use crate::test_rng::SplitMix64 as Rng;

    /// A 16-bit pattern biased to the edges: subnormals, ±0, the largest values, ±1, and
    /// random bits.
    fn half(r: &mut Rng) -> u32 {
        let x = r.next();
        let sign = ((x >> 20) & 1) as u32 * 0x8000;
        sign | match x % 8 {
            0 => (x >> 24) as u32 & 0x03ff,       // subnormal (f16) / tiny (bf16)
            1 => 0,                               // ±0
            2 => 0x7bff - ((x >> 24) as u32 & 7), // the largest f16 values
            3 => 0x3c00 + ((x >> 24) as u32 & 3), // 1 and just above
            _ => (x >> 24) as u32 & 0x7fff,       // anything (NaN, Inf included)
        }
    }

    /// An f32 accumulator: random bits, or a value near a product's size so that sums cancel
    /// and land on ties.
    fn acc32(r: &mut Rng, near: f64) -> u32 {
        let x = r.next();
        match x % 4 {
            0 => (x >> 32) as u32,
            1 => (-near as f32).to_bits(),
            2 => ((-near as f32).to_bits()) ^ ((x >> 40) as u32 & 3),
            _ => ((x >> 32) as u32 & 0x807f_ffff) | (((x >> 60) as u32 + 100) << 23),
        }
    }

    #[test]
    fn dot2_agrees_with_the_exact_path_and_rarely_needs_it() {
        let cfg = ModelConfig::new(Model::Exact);
        for enc in [Half16Encoding::F16, Half16Encoding::Bf16] {
            let mut r = Rng(7);
            let (mut fast, mut total, mut decided_by_low_part) = (0u32, 0u32, 0u32);
            for _ in 0..400_000 {
                let (a, b) = (
                    half(&mut r) | (half(&mut r) << 16),
                    half(&mut r) | (half(&mut r) << 16),
                );
                let near = decode::half(enc, a) * decode::half(enc, b);
                let acc = acc32(&mut r, near);
                let halves = |w: u32| [w as u16, (w >> 16) as u16];
                let want = exact_dot2_acc32(enc, halves(a), halves(b), acc, &cfg);
                total += 1;
                if let Some(got) = dot2_acc32(enc, a, b, acc) {
                    fast += 1;
                    assert_eq!(got, want, "{enc:?} a {a:#x} b {b:#x} acc {acc:#x}");
                    // Where the plain f64 sum rounded to f32 is wrong, the double-double
                    // and the midpoint rule decided.
                    let p1 = decode::half(enc, a >> 16) * decode::half(enc, b >> 16);
                    let naive = ((f64::from(f32::from_bits(acc)) + near) + p1) as f32;
                    decided_by_low_part += u32::from(naive.to_bits() != got);
                }
            }
            assert!(
                decided_by_low_part > 0,
                "{enc:?}: no case needed the low part"
            );
            // Specials, zeros and overflow are decided natively too; the exact path is left
            // for error terms spanning too much, which these inputs never reach.
            assert_eq!(fast, total, "{enc:?}: {fast} of {total} fast");
        }
    }

    #[test]
    fn fp8_tables_hold_the_formats_values() {
        let e4 = fp8_table(Fp8Encoding::E4m3);
        // Hand-computed (OCP OFP8): 0x01 = 2^-9 (smallest subnormal), 0x08 = 2^-6 (smallest
        // normal), 0x7e = 448 (largest), 0x38 = 1, 0xb8 = -1, 0x7f and 0xff NaN, 0x80 = -0.
        assert_eq!(e4[0x01], 2f64.powi(-9));
        assert_eq!(e4[0x08], 2f64.powi(-6));
        assert_eq!(e4[0x7e], 448.0);
        assert_eq!(e4[0x38], 1.0);
        assert_eq!(e4[0xb8], -1.0);
        assert!(e4[0x7f].is_nan() && e4[0xff].is_nan());
        assert_eq!(e4[0x80].to_bits(), (-0f64).to_bits());
        assert_eq!(e4.iter().filter(|v| v.is_nan()).count(), 2);
        let e5 = fp8_table(Fp8Encoding::E5m2);
        // 0x01 = 2^-16, 0x04 = 2^-14, 0x7b = 57344, 0x3c = 1, 0x7c = inf, 0x7d..0x7f NaN.
        assert_eq!(e5[0x01], 2f64.powi(-16));
        assert_eq!(e5[0x04], 2f64.powi(-14));
        assert_eq!(e5[0x7b], 57344.0);
        assert_eq!(e5[0x3c], 1.0);
        assert_eq!(e5[0x7c], f64::INFINITY);
        assert_eq!(e5[0xfc], f64::NEG_INFINITY);
        assert_eq!(e5.iter().filter(|v| v.is_nan()).count(), 6);
    }

    #[test]
    fn dot4_agrees_with_the_exact_path() {
        let cfg = ModelConfig::new(Model::Exact);
        let mut r = Rng(11);
        for (ea, eb) in [
            (Fp8Encoding::E4m3, Fp8Encoding::E4m3),
            (Fp8Encoding::E4m3, Fp8Encoding::E5m2),
            (Fp8Encoding::E5m2, Fp8Encoding::E5m2),
        ] {
            let mut fast = 0;
            for _ in 0..200_000 {
                let (a, b) = (r.next() as u32, (r.next() >> 32) as u32);
                let acc = acc32(&mut r, 1.0);
                let want = exact_dot4_acc32(ea, eb, a.to_le_bytes(), b.to_le_bytes(), acc, &cfg);
                if let Some(got) = dot4_acc32(ea, eb, a, b, acc) {
                    fast += 1;
                    assert_eq!(got, want, "{ea:?}/{eb:?} a {a:#x} b {b:#x} acc {acc:#x}");
                }
            }
            assert_eq!(fast, 200_000, "{ea:?}/{eb:?}: {fast} fast");
        }
    }

    /// Hand-made ties and near-ties: 1 + 2^-24 (an f32 midpoint: ties to even, 1) with a tiny
    /// product past it (then up), and the sum just below a midpoint.
    #[test]
    fn midpoints_are_decided_by_the_low_part() {
        let one = 1f32.to_bits();
        // f16 bits: 2^-12 = 0x0c00, 2^-24 = 0x0001 (the smallest subnormal), ±1 = 0x3c00/0xbc00.
        // 2^-12 · 2^-12 = 2^-24: exactly half an ulp of 1 in f32: ties to even, 1.0.
        let p = 0x0c00u32;
        assert_eq!(dot2_acc32(Half16Encoding::F16, p, p, one), Some(one));
        // Plus 2^-24 · 2^-24 = 2^-48 in lane 1: past the midpoint: 1 + 2^-23.
        let a = p | (0x0001u32 << 16);
        let b = p | (0x3c00u32 << 16);
        let want = (1f32 + 2f32.powi(-23)).to_bits();
        let got = dot2_acc32(Half16Encoding::F16, a, b, one);
        // The double-double holds 1 + 2^-24 + 2^-24·... exactly; the rounding goes up.
        let cfg = ModelConfig::new(Model::Exact);
        let exact = exact_dot2_acc32(
            Half16Encoding::F16,
            [p as u16, 0x0001u32 as u16],
            [p as u16, 0x3c00u32 as u16],
            one,
            &cfg,
        );
        assert_eq!(exact, want);
        assert!(got.is_none_or(|g| g == want), "{got:?}");
        // Minus instead: below the midpoint: 1.0.
        let b = p | (0xbc00u32 << 16);
        assert_eq!(
            dot2_acc32(Half16Encoding::F16, a, b, one).unwrap_or(one),
            one
        );
    }

    #[test]
    fn batches_take_the_exact_path_for_other_roundings_and_check_lengths() {
        let a = [0x3c00_3c00u32, 0x7c00_0000, 0x0001_0001];
        let b = [0x3c00_3c00u32, 0x0000_3c00, 0x0001_0001];
        let acc = [1f32.to_bits(), 0, 0];
        let mut out = [0u32; 3];
        let exact = ModelConfig::new(Model::Exact);
        let slow = dot2_acc32_batch(Half16Encoding::F16, &a, &b, &acc, &exact, &mut out).unwrap();
        assert_eq!(out[0], 3f32.to_bits());
        // Inf·0 is NaN, decided natively; the subnormal products 2^-48 each.
        assert_eq!(slow, 0);
        assert_eq!(out[1], 0x7fc0_0000);
        let exact_out = out;
        assert_eq!(out[2], (2f32.powi(-47)).to_bits());
        // Other models with nearest even and no flushing: native too.
        let seq = ModelConfig::new(Model::Sequential);
        let slow = dot2_acc32_batch(Half16Encoding::F16, &a, &b, &acc, &seq, &mut out).unwrap();
        assert_eq!(slow, 0);
        assert_eq!(out, exact_out);
        // Another rounding direction, or flushing: the exact path for every case.
        let mut rtz = ModelConfig::new(Model::Exact);
        rtz.rounding = RoundingMode::TowardZero;
        let slow = dot2_acc32_batch(Half16Encoding::F16, &a, &b, &acc, &rtz, &mut out).unwrap();
        assert_eq!(slow, 3);
        let e = dot2_acc32_batch(Half16Encoding::F16, &a, &b[..2], &acc, &exact, &mut out);
        assert_eq!(
            e.unwrap_err().to_string(),
            "mixdot batch: 3 a, 2 b, 3 acc and 3 out elements (all must be equal)"
        );
        // Over cores: the same results.
        let mut par = [0u32; 3];
        let slow = par_batch(&a, &b, &acc, &mut par, |a, b, c, o| {
            dot2_acc32_batch(Half16Encoding::F16, a, b, c, &exact, o)
        })
        .unwrap();
        assert_eq!(slow, 0);
        assert_eq!(par, exact_out);
    }
}
