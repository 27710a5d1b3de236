//! The spvx side of the ac_math comparison (scripts/bench-acmath; bench/acmath/driver.cpp is
//! the C++ side): `evaluate_batch` on one core over the same W = 32 inputs and formats as the
//! driver, printing `NAME RATE_M_PER_S SLOW_FRACTION` per function (best of a few runs).
//! Arguments (after `--`): the batch size (default 200000) and the number of runs (default 3).
//! A benchmark, not a test: it asserts nothing about time.

use spvx_num::fixed::{FixedFunction, FixedOp, Overflow, Quantization, evaluate_batch};
use std::time::Instant;

/// splitmix64, the generator of the C++ side.
fn next(s: &mut u64) -> u64 {
    *s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn inputs(n: usize, seed: u64, mask: u32, set: u32) -> Vec<u64> {
    let mut s = seed;
    (0..n)
        .map(|_| (((next(&mut s) as u32) & mask) | set) as u64)
        .collect()
}

fn op(function: FixedFunction, signed: bool, i: i32, ri: i32) -> FixedOp {
    FixedOp {
        function,
        signed,
        input_width: 32,
        input_int_bits: i,
        result_width: 32,
        result_int_bits: ri,
        quantization: Quantization::RndConv,
        overflow: Overflow::Sat,
    }
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let n: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(200_000);
    let reps: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(3);
    // (name, operation, seed, mask, set): the driver's formats and inputs.
    let cases = [
        ("sqrt", op(FixedFunction::Sqrt, false, 4, 4), 1, u32::MAX, 0),
        (
            "sincos",
            op(FixedFunction::SinCosPi, true, 2, 2),
            2,
            u32::MAX,
            0,
        ),
        ("log", op(FixedFunction::Log, true, 4, 4), 3, 0x7fff_ffff, 1),
        ("exp", op(FixedFunction::Exp, true, 4, 13), 4, u32::MAX, 0),
        (
            "sincos-radians",
            op(FixedFunction::SinCos, true, 2, 2),
            2,
            u32::MAX,
            0,
        ),
    ];
    for (name, op, seed, mask, set) in cases {
        let xs = inputs(n, seed, mask, set);
        let mut out = vec![0u64; n * op.function.components()];
        let mut best = f64::INFINITY;
        let mut slow = 0;
        for _ in 0..reps {
            let t0 = Instant::now();
            match evaluate_batch(&op, &xs, &mut out) {
                Ok(stats) => slow = stats.slow_path,
                Err(e) => {
                    eprintln!("{name}: {e}");
                    std::process::exit(1);
                }
            }
            best = best.min(t0.elapsed().as_secs_f64());
        }
        std::hint::black_box(&out);
        println!(
            "{name} {:.3} {:.6}",
            n as f64 / best / 1e6,
            slow as f64 / n as f64
        );
    }
}
