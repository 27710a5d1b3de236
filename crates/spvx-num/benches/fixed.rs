//! Criterion benchmarks of the fixed-point functions: sqrt, recip, rsqrt, sin, sinpi, exp and log
//! at input and result widths W = 16, 32, 48, 64 and 128 (I = 4, signed, RND_CONV / SAT), on a spread of inputs,
//! through `evaluate` (fast path first for W ≤ 64) and, at W = 32, through the exact
//! path alone (`evaluate_exact`, as `fixed/<f>/exact/32`), to show what the fast path gains.

use criterion::{BenchmarkId, Criterion, black_box, criterion_group, criterion_main};
use num_bigint::BigUint;
use spvx_num::fixed::{FixedFunction, FixedOp, Overflow, Quantization, evaluate, evaluate_exact};

fn inputs(w: u32) -> Vec<BigUint> {
    // 16 positive inputs spread over (0, 8): bit patterns 0b0xxx… with a fixed pseudo-random tail.
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    (1..=16u32)
        .map(|k| {
            let mut v = BigUint::from(k) << (w - 6);
            let mut tail = BigUint::default();
            for _ in 0..w.div_ceil(64) {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                tail = (tail << 64u32) | BigUint::from(state);
            }
            v |= tail % (BigUint::from(1u32) << (w - 6));
            v
        })
        .collect()
}

fn bench_fixed(c: &mut Criterion) {
    for f in [
        FixedFunction::Sqrt,
        FixedFunction::Recip,
        FixedFunction::Rsqrt,
        FixedFunction::Sin,
        FixedFunction::SinPi,
        FixedFunction::Exp,
        FixedFunction::Log,
    ] {
        let mut group = c.benchmark_group(format!("fixed/{f}"));
        for w in [16u32, 32, 48, 64, 128] {
            let op = FixedOp {
                function: f,
                signed: true,
                input_width: w,
                input_int_bits: 4,
                result_width: w,
                result_int_bits: 8,
                quantization: Quantization::RndConv,
                overflow: Overflow::Sat,
            };
            let xs = inputs(w);
            group.bench_with_input(BenchmarkId::from_parameter(w), &xs, |b, xs| {
                b.iter(|| {
                    for x in xs {
                        black_box(evaluate(&op, black_box(x)).ok());
                    }
                })
            });
            if w == 32 {
                group.bench_with_input(BenchmarkId::new("exact", w), &xs, |b, xs| {
                    b.iter(|| {
                        for x in xs {
                            black_box(evaluate_exact(&op, black_box(x)).ok());
                        }
                    })
                });
            }
        }
        group.finish();
    }
}

criterion_group!(benches, bench_fixed);
criterion_main!(benches);
