//! `OpFDot4MixAcc32VALVE` under the default `exact` model: every pair of fp8 values (256 × 256)
//! in one lane with the other lanes zero, for all four encoding combinations and several
//! accumulators, then random full vectors, compared with the exact rational reference of
//! `mixdot_ref` (exact sum, IEEE special values, round-to-nearest-even to f32).

mod float_ref;
mod mixdot_ref;

use float_ref::RefVal;
use mixdot_ref::*;
use proptest::prelude::*;
use spvx_num::mixdot::{Encoding, MixOp, MixdotCase, ModelConfig};

fn enc(f: float_ref::RefFormat) -> Encoding {
    f.name.parse().expect("fp8 names")
}

fn expected(e1: float_ref::RefFormat, e2: float_ref::RefFormat, a: u32, b: u32, acc: u32) -> u64 {
    let mut terms: Vec<RTerm> = (0..4)
        .map(|i| {
            let x = input(e1, ((a >> (8 * i)) & 0xff) as u64, false);
            let y = input(e2, ((b >> (8 * i)) & 0xff) as u64, false);
            RTerm::Prod(x, y)
        })
        .collect();
    terms.push(RTerm::Val(input_f32(acc, false)));
    round_sum(&Target::F32, &terms, false)
}

#[test]
fn every_fp8_pair_in_one_lane() {
    let accs: [u32; 6] = [
        0x0000_0000,         // +0
        0x8000_0000,         // −0
        (-1.5f32).to_bits(), // cancels products of either sign
        0x3380_0001,         // 2^−24 (1 + 2^−23): needs rounding against small products
        0x0000_0003,         // f32 subnormal
        0x4b80_0000,         // 2^24: products below 1 round away
    ];
    let cfg = ModelConfig::default();
    let mut failures = Vec::new();
    for e1 in FP8 {
        for e2 in FP8 {
            for x in 0..256u32 {
                for y in 0..256u32 {
                    // Each pair once in a rotating lane, with every accumulator; the other
                    // lanes are +0 in vector 1 and −0 in vector 2 (products −0).
                    let lane = (x ^ y) % 4;
                    let a = x << (8 * lane);
                    let b = (y << (8 * lane)) | (0x8080_8080 & !(0xff << (8 * lane)));
                    for &acc in &accs {
                        let case = MixdotCase::new(MixOp::Dot4Acc32, enc(e1), enc(e2), a, b, acc)
                            .expect("valid case");
                        let got = case.evaluate(&cfg) as u64;
                        let want = expected(e1, e2, a, b, acc);
                        if got != want && failures.len() < 20 {
                            failures.push(format!(
                                "{}x{} a={a:#010x} b={b:#010x} acc={acc:#010x}: got {got:#010x} want {want:#010x}",
                                e1.name, e2.name
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]
    #[test]
    fn random_full_vectors(a in any::<u32>(), b in any::<u32>(), acc_pick in 0usize..4, acc_bits in any::<u32>(),
                           e1 in 0usize..2, e2 in 0usize..2) {
        let acc = match acc_pick {
            0 => acc_bits,
            1 => 0,
            2 => acc_bits & 0x807f_ffff | 0x3f00_0000, // magnitude in [0.5, 2)
            _ => acc_bits & 0x8000_ffff,               // subnormal
        };
        let (f1, f2) = (FP8[e1], FP8[e2]);
        let case = MixdotCase::new(MixOp::Dot4Acc32, enc(f1), enc(f2), a, b, acc).expect("valid");
        let got = case.evaluate(&ModelConfig::default()) as u64;
        prop_assert_eq!(got, expected(f1, f2, a, b, acc));
    }
}

#[test]
fn reference_decodes_lanes_as_documented() {
    // Guard for the test itself: E4M3 0x7e is 448, component 0 in the low byte.
    assert_eq!(float_ref::E4M3.decode(0x7e), RefVal::Fin(448.0));
    assert_eq!(
        expected(float_ref::E4M3, float_ref::E4M3, 0x7e, 0x38, 0),
        448.0f32.to_bits() as u64
    );
}
