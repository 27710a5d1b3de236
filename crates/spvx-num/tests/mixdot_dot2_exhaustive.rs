//! The Dot2 operations under the default `exact` model with one operand running over every
//! 16-bit pattern (f16 and bf16), against fixed partners and accumulators chosen to hit ties,
//! cancellation, overflow and subnormal results; compared with the exact reference of
//! `mixdot_ref`.

mod float_ref;
mod mixdot_ref;

use float_ref::{BF16, F16, RefFormat};
use mixdot_ref::*;
use spvx_num::mixdot::{Encoding, MixOp, MixdotCase, ModelConfig};

fn run(fmt: RefFormat, op: MixOp, partners: &[(u16, u16, u16)], accs: &[u32], target: &Target) {
    let enc: Encoding = fmt.name.parse().expect("encoding");
    let cfg = ModelConfig::default();
    let mut failures = Vec::new();
    for x in 0..=u16::MAX {
        for &(b0, a1, b1) in partners {
            for &acc in accs {
                let a = (x as u32) | (a1 as u32) << 16;
                let b = (b0 as u32) | (b1 as u32) << 16;
                let case = MixdotCase::new(op, enc, enc, a, b, acc).expect("valid case");
                let got = case.evaluate(&cfg) as u64;
                let accv = match op {
                    MixOp::Dot2Acc16 => input(fmt, acc as u64, false),
                    _ => input_f32(acc, false),
                };
                let terms = [
                    RTerm::Prod(input(fmt, x as u64, false), input(fmt, b0 as u64, false)),
                    RTerm::Prod(input(fmt, a1 as u64, false), input(fmt, b1 as u64, false)),
                    RTerm::Val(accv),
                ];
                let want = round_sum(target, &terms, false);
                if got != want && failures.len() < 20 {
                    failures.push(format!(
                        "{op} {} a={a:#010x} b={b:#010x} acc={acc:#x}: got {got:#x} want {want:#x}",
                        fmt.name
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn f16_every_first_component() {
    // (b0, a1, b1): x·1 + 0·0; x·(−1.5) + 2^-24·2^-24 (tiny term: sticky); x·3 + 1·(−65504).
    let partners = [
        (0x3c00, 0x0000, 0x8000),
        (0xbe00, 0x0001, 0x0001),
        (0x4200, 0x3c00, 0xfbff),
    ];
    run(
        F16,
        MixOp::Dot2Acc32,
        &partners,
        &[0x0000_0000, 0x3f80_0000, 0x8000_0001],
        &Target::F32,
    );
    run(
        F16,
        MixOp::Dot2Acc16,
        &partners,
        &[0x0000, 0x3c00, 0x8001, 0x7bff],
        &Target::f16(),
    );
}

#[test]
fn bf16_every_first_component() {
    // bf16 products reach 2^±256, outside f32: overflow and underflow of the Acc32 result.
    let partners = [
        (0x3f80, 0x0000, 0x8000),
        (0x7f00, 0x0001, 0x0001),
        (0x0080, 0x3f80, 0xff7f),
    ];
    run(
        BF16,
        MixOp::Dot2Acc32,
        &partners,
        &[0x0000_0000, 0x3f80_0000, 0x8000_0001],
        &Target::F32,
    );
    run(
        BF16,
        MixOp::Dot2Acc16,
        &partners,
        &[0x0000, 0x3f80, 0x8001],
        &Target::bf16(),
    );
}
