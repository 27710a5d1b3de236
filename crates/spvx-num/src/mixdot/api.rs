//! Entry points: typed functions per operation, and the word-level [`MixdotCase`] (operation,
//! encodings, packed 32-bit vectors, accumulator bits) with validation and an explanation.

use super::error::MixdotError;
use super::eval::{decode_flushed, evaluate};
use super::model::ModelConfig;
use super::op::{Encoding, Fp8Encoding, Half16Encoding, MixOp};
use crate::float::{Decoded, ExactSum, Format, Term};

fn decode_lanes<const N: usize>(format: Format, lanes: [u64; N], flush: bool) -> [Decoded; N] {
    lanes.map(|x| decode_flushed(format, x, flush))
}

fn decode_slice(format: Format, lanes: &[u64], flush: bool) -> Vec<Decoded> {
    lanes
        .iter()
        .map(|&x| decode_flushed(format, x, flush))
        .collect()
}

/// `OpFDot2MixAcc32VALVE`: `acc + a·b` for 2-component f16 or bf16 vectors, f32 accumulator and
/// result (bit patterns). Every model with round to nearest even and no flushing runs in native
/// arithmetic where that decides the rounding ([`super::fast`]), else on the exact path.
pub fn dot2_acc32(
    enc: Half16Encoding,
    a: [u16; 2],
    b: [u16; 2],
    acc: u32,
    cfg: &ModelConfig,
) -> u32 {
    let pack = |v: [u16; 2]| u32::from(v[0]) | (u32::from(v[1]) << 16);
    if super::fast::batch_native(cfg)
        && let Some(r) = super::fast::dot2_acc32_model(enc, cfg.model, pack(a), pack(b), acc)
    {
        return r;
    }
    exact_dot2_acc32(enc, a, b, acc, cfg)
}

/// [`dot2_acc32`] on the exact path only (rational arithmetic, one rounding): the reference
/// the native path is checked against.
pub fn exact_dot2_acc32(
    enc: Half16Encoding,
    a: [u16; 2],
    b: [u16; 2],
    acc: u32,
    cfg: &ModelConfig,
) -> u32 {
    let f = enc.format();
    let fl = cfg.flush_input_denormals;
    let a = decode_lanes(f, [a[0] as u64, a[1] as u64], fl);
    let b = decode_lanes(f, [b[0] as u64, b[1] as u64], fl);
    let acc = decode_flushed(Format::F32, acc as u64, fl);
    evaluate(Format::F32, &a, &b, acc, cfg) as u32
}

/// `OpFDot2MixAcc16VALVE`: `acc + a·b` for 2-component f16 or bf16 vectors, with accumulator and
/// result in the same 16-bit encoding; native arithmetic where it decides, as [`dot2_acc32`].
pub fn dot2_acc16(
    enc: Half16Encoding,
    a: [u16; 2],
    b: [u16; 2],
    acc: u16,
    cfg: &ModelConfig,
) -> u16 {
    let pack = |v: [u16; 2]| u32::from(v[0]) | (u32::from(v[1]) << 16);
    if super::fast::batch_native(cfg)
        && let Some(r) = super::fast::dot2_acc16_model(enc, cfg.model, pack(a), pack(b), acc)
    {
        return r;
    }
    exact_dot2_acc16(enc, a, b, acc, cfg)
}

/// [`dot2_acc16`] on the exact path only.
pub fn exact_dot2_acc16(
    enc: Half16Encoding,
    a: [u16; 2],
    b: [u16; 2],
    acc: u16,
    cfg: &ModelConfig,
) -> u16 {
    let f = enc.format();
    let fl = cfg.flush_input_denormals;
    let a = decode_lanes(f, [a[0] as u64, a[1] as u64], fl);
    let b = decode_lanes(f, [b[0] as u64, b[1] as u64], fl);
    let acc = decode_flushed(f, acc as u64, fl);
    evaluate(f, &a, &b, acc, cfg) as u16
}

/// `OpFDot4MixAcc32VALVE`: `acc + a·b` for 4-component fp8 vectors (each vector in its own
/// encoding), f32 accumulator and result; native arithmetic where it decides, as
/// [`dot2_acc32`].
pub fn dot4_acc32(
    enc_a: Fp8Encoding,
    enc_b: Fp8Encoding,
    a: [u8; 4],
    b: [u8; 4],
    acc: u32,
    cfg: &ModelConfig,
) -> u32 {
    if super::fast::batch_native(cfg)
        && let Some(r) = super::fast::dot4_acc32_model(
            enc_a,
            enc_b,
            cfg.model,
            u32::from_le_bytes(a),
            u32::from_le_bytes(b),
            acc,
        )
    {
        return r;
    }
    exact_dot4_acc32(enc_a, enc_b, a, b, acc, cfg)
}

/// [`dot4_acc32`] on the exact path only.
pub fn exact_dot4_acc32(
    enc_a: Fp8Encoding,
    enc_b: Fp8Encoding,
    a: [u8; 4],
    b: [u8; 4],
    acc: u32,
    cfg: &ModelConfig,
) -> u32 {
    let fl = cfg.flush_input_denormals;
    let a = decode_lanes(enc_a.format(), a.map(u64::from), fl);
    let b = decode_lanes(enc_b.format(), b.map(u64::from), fl);
    let acc = decode_flushed(Format::F32, acc as u64, fl);
    evaluate(Format::F32, &a, &b, acc, cfg) as u32
}

/// One validated case at word level: vectors packed into 32-bit words with component 0 in the
/// least significant bits (16 bits per component for Dot2, 8 for Dot4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MixdotCase {
    op: MixOp,
    enc1: Encoding,
    enc2: Encoding,
    a: u32,
    b: u32,
    acc: u32,
}

/// What a case computes, for people: the decoded inputs, the exact value and the result.
#[derive(Debug, Clone, PartialEq)]
pub struct Explanation {
    /// Components of vector 1 (bits, value), after input flushing.
    pub a: Vec<(u64, Decoded)>,
    /// Components of vector 2 (bits, value), after input flushing.
    pub b: Vec<(u64, Decoded)>,
    /// Accumulator (bits, value), after input flushing.
    pub acc: (u64, Decoded),
    /// The exact value `acc + Σ a_i·b_i` of the (flushed) inputs, as exact decimal text.
    pub exact: String,
    /// The result format.
    pub result_format: Format,
    /// The result bits under the model.
    pub result_bits: u64,
    /// The result value.
    pub result: Decoded,
}

impl MixdotCase {
    /// Validates a case: Dot2 operations need both encodings equal and 16-bit; Dot4 takes E4M3 or
    /// E5M2 for each vector independently; the Acc16 accumulator must fit 16 bits.
    pub fn new(
        op: MixOp,
        enc1: Encoding,
        enc2: Encoding,
        a: u32,
        b: u32,
        acc: u32,
    ) -> Result<MixdotCase, MixdotError> {
        match op {
            MixOp::Dot2Acc32 | MixOp::Dot2Acc16 => {
                for e in [enc1, enc2] {
                    if e.half16().is_none() {
                        return Err(MixdotError::WrongEncoding {
                            op: op.name(),
                            expected: "f16 or bf16",
                            got: e.name(),
                        });
                    }
                }
                if enc1 != enc2 {
                    return Err(MixdotError::MixedEncodings {
                        op: op.name(),
                        enc1: enc1.name(),
                        enc2: enc2.name(),
                    });
                }
                if op == MixOp::Dot2Acc16 && acc > 0xffff {
                    return Err(MixdotError::AccumulatorTooWide {
                        op: op.name(),
                        width: 16,
                        acc,
                    });
                }
            }
            MixOp::Dot4Acc32 => {
                for e in [enc1, enc2] {
                    if e.fp8().is_none() {
                        return Err(MixdotError::WrongEncoding {
                            op: op.name(),
                            expected: "e4m3 or e5m2",
                            got: e.name(),
                        });
                    }
                }
            }
        }
        Ok(MixdotCase {
            op,
            enc1,
            enc2,
            a,
            b,
            acc,
        })
    }

    /// The operation.
    pub const fn op(&self) -> MixOp {
        self.op
    }
    /// The result (and accumulator) format: f32 for the Acc32 operations, the input encoding for
    /// Acc16.
    pub const fn result_format(&self) -> Format {
        match self.op {
            MixOp::Dot2Acc16 => self.enc1.format(),
            _ => Format::F32,
        }
    }

    fn lanes(&self, word: u32) -> Vec<u64> {
        let word = word as u64;
        match self.op.lanes() {
            2 => vec![word & 0xffff, word >> 16],
            _ => (0..4).map(|i| (word >> (8 * i)) & 0xff).collect(),
        }
    }

    fn decoded(&self, flush: bool) -> (Vec<Decoded>, Vec<Decoded>, Decoded) {
        let a = decode_slice(self.enc1.format(), &self.lanes(self.a), flush);
        let b = decode_slice(self.enc2.format(), &self.lanes(self.b), flush);
        let acc = decode_flushed(self.result_format(), self.acc as u64, flush);
        (a, b, acc)
    }

    /// The result bits (zero-extended to 32 bits for 16-bit results).
    pub fn evaluate(&self, cfg: &ModelConfig) -> u32 {
        let halves = |w: u32| [w as u16, (w >> 16) as u16];
        match (
            self.op,
            self.enc1.half16(),
            self.enc1.fp8(),
            self.enc2.fp8(),
        ) {
            (MixOp::Dot2Acc32, Some(enc), _, _) => {
                dot2_acc32(enc, halves(self.a), halves(self.b), self.acc, cfg)
            }
            (MixOp::Dot2Acc16, Some(enc), _, _) => {
                dot2_acc16(enc, halves(self.a), halves(self.b), self.acc as u16, cfg) as u32
            }
            (MixOp::Dot4Acc32, _, Some(e1), Some(e2)) => dot4_acc32(
                e1,
                e2,
                self.a.to_le_bytes(),
                self.b.to_le_bytes(),
                self.acc,
                cfg,
            ),
            // Unreachable for validated cases; evaluate generically anyway.
            _ => {
                let (a, b, acc) = self.decoded(cfg.flush_input_denormals);
                evaluate(self.result_format(), &a, &b, acc, cfg) as u32
            }
        }
    }

    /// The decoded inputs, the exact value and the result under `cfg`.
    pub fn explain(&self, cfg: &ModelConfig) -> Explanation {
        let flush = cfg.flush_input_denormals;
        let (a, b, acc) = self.decoded(flush);
        let mut terms: Vec<Term> = a
            .iter()
            .zip(&b)
            .map(|(&x, &y)| Term::Product(x, y))
            .collect();
        terms.push(Term::Value(acc));
        let exact = ExactSum::of(&terms).to_decimal_string();
        let rf = self.result_format();
        let result_bits = evaluate(rf, &a, &b, acc, cfg);
        let with_bits = |words: Vec<u64>, vals: Vec<Decoded>| -> Vec<(u64, Decoded)> {
            words.into_iter().zip(vals).collect()
        };
        Explanation {
            a: with_bits(self.lanes(self.a), a),
            b: with_bits(self.lanes(self.b), b),
            acc: (self.acc as u64, acc),
            exact,
            result_format: rf,
            result_bits,
            result: rf.decode(result_bits),
        }
    }
}
