//! The mixed dots for generated code (the engine's JIT): the model configuration as one word
//! ([`config_word`], [`config_of_word`]) and one C-ABI function per operation and encodings
//! ([`entry`]) taking the packed vectors, the accumulator bits and that word. Each is the typed
//! API's function of one case (`super::api`): native arithmetic under every model with round to
//! nearest even and no flushing, the exact path otherwise and where the native one leaves a
//! case undecided; so the JIT, the interpreter, `calc mixdot` and the batches share one
//! arithmetic.

use super::api::{dot2_acc16, dot2_acc32, dot4_acc32};
use super::model::{Model, ModelConfig};
use super::op::{Fp8Encoding, Half16Encoding, MixOp};
use crate::float::RoundingMode;

/// A C-ABI entry point: `(a, b, acc, config word) → result bits`, each argument in the low
/// bits of its word (vectors packed component 0 lowest, the accumulator in the result's width).
pub type Entry = extern "C" fn(u64, u64, u64, u64) -> u64;

/// The configuration as a word: bits 0–2 the model (its index in [`Model::ALL`]), bit 3 flush
/// input denormals, bit 4 flush output denormals, bits 5–6 the rounding (nearest even, toward
/// zero, toward +inf, toward −inf). The default configuration (exact, nearest even, no
/// flushing) is 0.
pub fn config_word(cfg: &ModelConfig) -> u64 {
    let model = Model::ALL.iter().position(|&m| m == cfg.model).unwrap_or(0) as u64;
    let rounding = match cfg.rounding {
        RoundingMode::NearestEven => 0u64,
        RoundingMode::TowardZero => 1,
        RoundingMode::TowardPositive => 2,
        RoundingMode::TowardNegative => 3,
    };
    model
        | (u64::from(cfg.flush_input_denormals) << 3)
        | (u64::from(cfg.flush_output_denormals) << 4)
        | (rounding << 5)
}

/// The configuration of a word of [`config_word`]; `None` for a word it never gives.
pub fn config_of_word(word: u64) -> Option<ModelConfig> {
    if word >> 7 != 0 {
        return None;
    }
    let model = *Model::ALL.get((word & 7) as usize)?;
    let rounding = [
        RoundingMode::NearestEven,
        RoundingMode::TowardZero,
        RoundingMode::TowardPositive,
        RoundingMode::TowardNegative,
    ][((word >> 5) & 3) as usize];
    Some(ModelConfig {
        model,
        flush_input_denormals: word & 8 != 0,
        flush_output_denormals: word & 16 != 0,
        rounding,
    })
}

/// The canonical quiet NaNs, returned for a configuration word [`config_word`] never gives
/// (generated code passes only its words).
const NAN32: u64 = 0x7fc0_0000;
const NAN_F16: u64 = 0x7e00;
const NAN_BF16: u64 = 0x7fc0;

fn half(bf16: bool) -> Half16Encoding {
    if bf16 {
        Half16Encoding::Bf16
    } else {
        Half16Encoding::F16
    }
}

fn fp8(e5m2: bool) -> Fp8Encoding {
    if e5m2 {
        Fp8Encoding::E5m2
    } else {
        Fp8Encoding::E4m3
    }
}

fn halves(w: u64) -> [u16; 2] {
    [w as u16, (w >> 16) as u16]
}

extern "C" fn dot2_acc32_entry<const BF16: bool>(a: u64, b: u64, acc: u64, word: u64) -> u64 {
    let Some(cfg) = config_of_word(word) else {
        return NAN32;
    };
    u64::from(dot2_acc32(
        half(BF16),
        halves(a),
        halves(b),
        acc as u32,
        &cfg,
    ))
}

extern "C" fn dot2_acc16_entry<const BF16: bool>(a: u64, b: u64, acc: u64, word: u64) -> u64 {
    let Some(cfg) = config_of_word(word) else {
        return if BF16 { NAN_BF16 } else { NAN_F16 };
    };
    u64::from(dot2_acc16(
        half(BF16),
        halves(a),
        halves(b),
        acc as u16,
        &cfg,
    ))
}

extern "C" fn dot4_acc32_entry<const A_E5M2: bool, const B_E5M2: bool>(
    a: u64,
    b: u64,
    acc: u64,
    word: u64,
) -> u64 {
    let Some(cfg) = config_of_word(word) else {
        return NAN32;
    };
    let bytes = |w: u64| (w as u32).to_le_bytes();
    u64::from(dot4_acc32(
        fp8(A_E5M2),
        fp8(B_E5M2),
        bytes(a),
        bytes(b),
        acc as u32,
        &cfg,
    ))
}

/// Every entry point, at the index [`entry_index`] gives (a JIT passes this table to its code
/// rather than writing the functions' addresses into it).
pub const ENTRIES: [Entry; 8] = [
    dot2_acc32_entry::<false>,
    dot2_acc32_entry::<true>,
    dot2_acc16_entry::<false>,
    dot2_acc16_entry::<true>,
    dot4_acc32_entry::<false, false>,
    dot4_acc32_entry::<false, true>,
    dot4_acc32_entry::<true, false>,
    dot4_acc32_entry::<true, true>,
];

/// The index in [`ENTRIES`] of the entry point of `op` on `half` vectors (the Dot2 operations)
/// or on `fp8` vectors (Dot4: vector 1's and vector 2's encodings).
pub fn entry_index(op: MixOp, half: Half16Encoding, fp8: [Fp8Encoding; 2]) -> usize {
    let bf16 = usize::from(half == Half16Encoding::Bf16);
    let e5m2 = |e: Fp8Encoding| usize::from(e == Fp8Encoding::E5m2);
    match op {
        MixOp::Dot2Acc32 => bf16,
        MixOp::Dot2Acc16 => 2 + bf16,
        MixOp::Dot4Acc32 => 4 + 2 * e5m2(fp8[0]) + e5m2(fp8[1]),
    }
}

/// The entry point of `op` on `half` vectors (the Dot2 operations) or on `fp8` vectors (Dot4:
/// vector 1's and vector 2's encodings).
pub fn entry(op: MixOp, half: Half16Encoding, fp8: [Fp8Encoding; 2]) -> Entry {
    ENTRIES[entry_index(op, half, fp8)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mixdot::{Encoding, MixdotCase, exact_dot2_acc16, exact_dot2_acc32};

    fn all_configs() -> Vec<ModelConfig> {
        let mut v = Vec::new();
        for model in Model::ALL {
            for rounding in [
                RoundingMode::NearestEven,
                RoundingMode::TowardZero,
                RoundingMode::TowardPositive,
                RoundingMode::TowardNegative,
            ] {
                for (fi, fo) in [(false, false), (true, false), (false, true), (true, true)] {
                    v.push(ModelConfig {
                        model,
                        flush_input_denormals: fi,
                        flush_output_denormals: fo,
                        rounding,
                    });
                }
            }
        }
        v
    }

    #[test]
    fn words_round_trip_and_others_are_refused() {
        let all = all_configs();
        assert_eq!(config_word(&ModelConfig::default()), 0);
        let mut words: Vec<u64> = all.iter().map(config_word).collect();
        for (c, w) in all.iter().zip(&words) {
            assert_eq!(config_of_word(*w), Some(*c));
        }
        words.sort_unstable();
        words.dedup();
        assert_eq!(words.len(), all.len(), "distinct words");
        assert_eq!(config_of_word(5), None, "model index 5");
        assert_eq!(config_of_word(1 << 7), None);
        // An entry called with a refused word answers NaN rather than guessing a model.
        let f = entry(
            MixOp::Dot2Acc32,
            Half16Encoding::F16,
            [Fp8Encoding::E4m3; 2],
        );
        assert_eq!(f(0x3c00, 0x3c00, 0, 7), NAN32);
    }

    /// Every entry under every configuration gives the exact path's bits on edge-heavy words
    /// (the exact path: rational arithmetic, `MixdotCase` / `exact_*`).
    #[test]
    fn entries_agree_with_the_exact_path_under_every_configuration() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        // Edge components: ±0, subnormals, ±1, largest, inf/NaN patterns, random.
        let h = |r: u64| -> u64 {
            let s = (r >> 20 & 1) << 15;
            s | match r % 6 {
                0 => 0,
                1 => (r >> 24) & 0x3ff,
                2 => 0x3c00,
                3 => 0x7bff,
                4 => 0x7c00 | (((r >> 24) & 0x3ff) * ((r >> 40) & 1)),
                _ => (r >> 24) & 0x7fff,
            }
        };
        let cfgs = all_configs();
        for _ in 0..3000 {
            let (a, b) = (h(next()) | h(next()) << 16, h(next()) | h(next()) << 16);
            let acc32 = next() & 0xffff_ffff;
            let acc16 = h(next());
            let fp8a = next() & 0xffff_ffff;
            let fp8b = next() & 0xffff_ffff;
            let cfg = cfgs[(next() % cfgs.len() as u64) as usize];
            let w = config_word(&cfg);
            for (bf, enc) in [(false, Half16Encoding::F16), (true, Half16Encoding::Bf16)] {
                let e32 = entry(MixOp::Dot2Acc32, enc, [Fp8Encoding::E4m3; 2]);
                let want = exact_dot2_acc32(enc, halves(a), halves(b), acc32 as u32, &cfg);
                assert_eq!(e32(a, b, acc32, w), u64::from(want), "bf16 {bf} {cfg:?}");
                let e16 = entry(MixOp::Dot2Acc16, enc, [Fp8Encoding::E4m3; 2]);
                let want = exact_dot2_acc16(enc, halves(a), halves(b), acc16 as u16, &cfg);
                assert_eq!(e16(a, b, acc16, w), u64::from(want), "bf16 {bf} {cfg:?}");
            }
            for (ea, eb) in [
                (Fp8Encoding::E4m3, Fp8Encoding::E4m3),
                (Fp8Encoding::E4m3, Fp8Encoding::E5m2),
                (Fp8Encoding::E5m2, Fp8Encoding::E4m3),
                (Fp8Encoding::E5m2, Fp8Encoding::E5m2),
            ] {
                let e = entry(MixOp::Dot4Acc32, Half16Encoding::F16, [ea, eb]);
                let enc = |f: Fp8Encoding| match f {
                    Fp8Encoding::E4m3 => Encoding::E4m3,
                    Fp8Encoding::E5m2 => Encoding::E5m2,
                };
                let case = MixdotCase::new(
                    MixOp::Dot4Acc32,
                    enc(ea),
                    enc(eb),
                    fp8a as u32,
                    fp8b as u32,
                    acc32 as u32,
                )
                .expect("valid dot4 case");
                // `explain` evaluates on the exact path only.
                let want = case.explain(&cfg).result_bits;
                assert_eq!(e(fp8a, fp8b, acc32, w), want, "{ea:?}/{eb:?} {cfg:?}");
            }
        }
    }
}
