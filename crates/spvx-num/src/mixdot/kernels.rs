//! The branch-free kernels of the native path: one case of one operation, encodings and model
//! (constants, so that each combination is its own vectorised loop in `super::drive`), giving
//! the result bits and whether the case is undecided (then the exact path redoes it).
//!
//! Inputs and products are exact f64 values (`super::decode`). Every rounding — the exact
//! model's single one, and each step of the other models — is the correct rounding of an exact
//! sum of at most three f64 terms by `super::sum3`, so every model is computed as its definition
//! in `super::model` says, with round to nearest even and no flushing (the only configuration
//! the native path takes):
//! - `exact`: round(acc + Σ pᵢ), Σ pᵢ given as two exact terms (see [`Dot4Acc32`]).
//! - `sequential`: products rounded, ((p₀ + p₁) + p₂) + p₃ each add rounded, then + acc.
//! - `sequential-acc-first`: products rounded, ((acc + p₀) + p₁) + …, each add rounded.
//! - `fused-products`: round(round(Σ pᵢ) + acc).
//! - `fma-chain`: acc ← round(acc + pᵢ) for each exact product in lane order.
//!
//! Special values and signed zeros follow IEEE arithmetic at every step, which is the models'
//! rule (docs/semantics/mixed-dot.md).

use super::decode;
use super::drive::Kernel;
use super::model::Model;
use super::op::{Fp8Encoding, Half16Encoding};
use super::sum3::{BF16, F16, Half, sum2_to_f32, sum2_to_half_value, sum3_to_f32, sum3_to_half};

/// The models as constants of the kernel types.
pub(super) const EXACT: u8 = 0;
pub(super) const SEQUENTIAL: u8 = 1;
pub(super) const ACC_FIRST: u8 = 2;
pub(super) const FUSED: u8 = 3;
pub(super) const FMA: u8 = 4;

pub(super) const fn model_id(model: Model) -> u8 {
    match model {
        Model::Exact => EXACT,
        Model::Sequential => SEQUENTIAL,
        Model::SequentialAccFirst => ACC_FIRST,
        Model::FusedProducts => FUSED,
        Model::FmaChain => FMA,
    }
}

/// A result format: the rounding of an exact sum of three terms to its bits, of two terms,
/// and of one exact value.
trait Target: Copy {
    type Bits: Copy;
    fn sum(self, a: f64, b: f64, c: f64) -> (Self::Bits, bool);
    /// The rounding of an exact sum of two terms, as a value and as bits.
    fn add(self, a: f64, b: f64) -> f64;
    fn add_bits(self, a: f64, b: f64) -> Self::Bits;
    fn round(self, x: f64) -> f64;
}

#[derive(Clone, Copy)]
struct F32;

impl Target for F32 {
    type Bits = u32;
    #[inline(always)]
    fn sum(self, a: f64, b: f64, c: f64) -> (u32, bool) {
        sum3_to_f32(a, b, c)
    }
    #[inline(always)]
    fn add(self, a: f64, b: f64) -> f64 {
        f64::from(f32::from_bits(sum2_to_f32(a, b)))
    }
    #[inline(always)]
    fn add_bits(self, a: f64, b: f64) -> u32 {
        sum2_to_f32(a, b)
    }
    #[inline(always)]
    fn round(self, x: f64) -> f64 {
        f64::from(x as f32)
    }
}

#[derive(Clone, Copy)]
struct Half16(Half16Encoding);

impl Half16 {
    #[inline(always)]
    fn format(self) -> Half {
        match self.0 {
            Half16Encoding::F16 => F16,
            Half16Encoding::Bf16 => BF16,
        }
    }
}

impl Target for Half16 {
    type Bits = u16;
    #[inline(always)]
    fn sum(self, a: f64, b: f64, c: f64) -> (u16, bool) {
        sum3_to_half(self.format(), a, b, c)
    }
    #[inline(always)]
    fn add(self, a: f64, b: f64) -> f64 {
        sum2_to_half_value(self.format(), a, b)
    }
    #[inline(always)]
    fn add_bits(self, a: f64, b: f64) -> u16 {
        self.format().encode(self.add(a, b))
    }
    #[inline(always)]
    fn round(self, x: f64) -> f64 {
        self.format().round_beside(x, 0.0)
    }
}

/// Model `M` on the exact products `p` (lane order), their exact sum as two terms `psum`
/// (the second −0 when absent) and the accumulator.
#[inline(always)]
fn evaluate<const M: u8, T: Target, const N: usize>(
    t: T,
    acc: f64,
    p: [f64; N],
    psum: (f64, f64),
) -> (T::Bits, bool) {
    // One rounded addition of two exact values (never undecided).
    let add = |x: f64, y: f64| t.add(x, y);
    let mut q = p;
    if M == SEQUENTIAL || M == ACC_FIRST {
        for x in q.iter_mut() {
            *x = t.round(*x);
        }
    }
    match M {
        SEQUENTIAL => {
            let mut s = q[0];
            for &x in &q[1..] {
                s = add(s, x);
            }
            (t.add_bits(s, acc), false)
        }
        ACC_FIRST | FMA => {
            let mut s = acc;
            for &x in &q[..N - 1] {
                s = add(s, x);
            }
            (t.add_bits(s, q[N - 1]), false)
        }
        FUSED => (t.add_bits(add(psum.0, psum.1), acc), false),
        _ => t.sum(acc, psum.0, psum.1),
    }
}

const fn half_enc(bf16: bool) -> Half16Encoding {
    if bf16 {
        Half16Encoding::Bf16
    } else {
        Half16Encoding::F16
    }
}

const fn fp8_enc(e5m2: bool) -> Fp8Encoding {
    if e5m2 {
        Fp8Encoding::E5m2
    } else {
        Fp8Encoding::E4m3
    }
}

/// The two products of a Dot2 case.
#[inline(always)]
fn products2(enc: Half16Encoding, a: u32, b: u32) -> [f64; 2] {
    match enc {
        // Exact in f32 (see `decode`).
        Half16Encoding::F16 => [
            f64::from(decode::f16(a) * decode::f16(b)),
            f64::from(decode::f16(a >> 16) * decode::f16(b >> 16)),
        ],
        Half16Encoding::Bf16 => [
            decode::half(enc, a) * decode::half(enc, b),
            decode::half(enc, a >> 16) * decode::half(enc, b >> 16),
        ],
    }
}

/// `OpFDot2MixAcc32VALVE` in bf16 (`BF16`) or f16, model `M`.
pub(super) struct Dot2Acc32<const BF16: bool, const M: u8>;
/// `OpFDot2MixAcc16VALVE` in bf16 (`BF16`) or f16, model `M`.
pub(super) struct Dot2Acc16<const BF16: bool, const M: u8>;
/// `OpFDot4MixAcc32VALVE` with vector 1 / vector 2 in E5M2 (`true`) or E4M3, model `M`.
pub(super) struct Dot4Acc32<const A_E5M2: bool, const B_E5M2: bool, const M: u8>;

impl<const BF16: bool, const M: u8> Kernel<u32, u32> for Dot2Acc32<BF16, M> {
    #[inline(always)]
    fn eval(&self, a: u32, b: u32, acc: u32) -> (u32, bool) {
        let p = products2(half_enc(BF16), a, b);
        let acc = f64::from(f32::from_bits(acc));
        evaluate::<M, _, 2>(F32, acc, p, (p[0], p[1]))
    }
}

impl<const BF16: bool, const M: u8> Kernel<u16, u16> for Dot2Acc16<BF16, M> {
    #[inline(always)]
    fn eval(&self, a: u32, b: u32, acc: u16) -> (u16, bool) {
        let enc = half_enc(BF16);
        let p = products2(enc, a, b);
        let acc = decode::half(enc, u32::from(acc));
        evaluate::<M, _, 2>(Half16(enc), acc, p, (p[0], p[1]))
    }
}

impl<const A_E5M2: bool, const B_E5M2: bool, const M: u8> Kernel<u32, u32>
    for Dot4Acc32<A_E5M2, B_E5M2, M>
{
    /// The exact product sum: with an E4M3 vector the plain f64 sum of the four products is
    /// exact (multiples of 2⁻²⁵ — 2⁻¹⁸ for E4M3 × E4M3 — below 2²⁵: every partial sum is an
    /// integer multiple of 2⁻²⁵ below 2⁵³·2⁻²⁵). E5M2 × E5M2 (multiples of 2⁻³² up to 2³¹·⁶:
    /// a sum can need 66 bits): each product split into its nearest integer and the rest (a
    /// multiple of 2⁻³² within ±½), both exact; the four integers (below 2³⁴) and the four
    /// rests (at most 2) sum exactly.
    #[inline(always)]
    fn eval(&self, a: u32, b: u32, acc: u32) -> (u32, bool) {
        let (ea, eb) = (fp8_enc(A_E5M2), fp8_enc(B_E5M2));
        // Exact in f32 (see `decode`).
        let p = |k: u32| f64::from(decode::fp8(ea, a >> (8 * k)) * decode::fp8(eb, b >> (8 * k)));
        let p = [p(0), p(1), p(2), p(3)];
        // NaN/±∞ when the product sum is.
        let s = (p[0] + p[1]) + (p[2] + p[3]);
        let acc = f64::from(f32::from_bits(acc));
        if !(A_E5M2 && B_E5M2) {
            return evaluate::<M, _, 4>(F32, acc, p, (s, -0.0));
        }
        let magic = 1.5 * 2f64.powi(52);
        let w = |x: f64| (x + magic) - magic;
        let whole = [w(p[0]), w(p[1]), w(p[2]), w(p[3])];
        let rest = [
            p[0] - whole[0],
            p[1] - whole[1],
            p[2] - whole[2],
            p[3] - whole[3],
        ];
        let whole_sum = (whole[0] + whole[1]) + (whole[2] + whole[3]);
        let rest_sum = (rest[0] + rest[1]) + (rest[2] + rest[3]);
        // The plain sum s where it is special (NaN, ±∞) or the exact sum is zero (s then has
        // the sign rule's zero, −0 only when every product is −0; when nonzero products
        // cancel, s may be a rounding residue: +0 instead).
        let zero = whole_sum == 0.0 && rest_sum == 0.0;
        let plain = !s.is_finite() || zero;
        let s_zero = if s == 0.0 || !s.is_finite() { s } else { 0.0 };
        let psum = if plain {
            (s_zero, -0.0)
        } else {
            (whole_sum, rest_sum)
        };
        evaluate::<M, _, 4>(F32, acc, p, psum)
    }
}
