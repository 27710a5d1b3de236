//! Mixed float dot products: cases per second of each model on random inputs, and the cost of a
//! plain format conversion, to see what the exact default costs against the rounded-step models.

use criterion::{Criterion, Throughput, black_box, criterion_group, criterion_main};
use spvx_num::float::{Format, RoundingMode, convert};
use spvx_num::mixdot::{
    Fp8Encoding, Half16Encoding, Model, ModelConfig, dot2_acc32, dot4_acc32, exact_dot2_acc32, fast,
};

/// Deterministic pseudo-random words (xorshift), finite-biased: exponent fields kept moderate.
fn words(n: usize, seed: u32) -> Vec<u32> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x & 0xbfff_bfff
        })
        .collect()
}

fn bench_mixdot(c: &mut Criterion) {
    const N: usize = 4096;
    let a = words(N, 1);
    let b = words(N, 2);
    let acc = words(N, 3);
    let mut g = c.benchmark_group("mixdot");
    g.throughput(Throughput::Elements(N as u64));
    for model in [Model::Exact, Model::Sequential, Model::FmaChain] {
        let cfg = ModelConfig::new(model);
        g.bench_function(format!("dot2acc32_f16_{model}"), |bench| {
            bench.iter(|| {
                let mut s = 0u32;
                for i in 0..N {
                    let (x, y) = (a[i], b[i]);
                    let r = dot2_acc32(
                        Half16Encoding::F16,
                        [x as u16, (x >> 16) as u16],
                        [y as u16, (y >> 16) as u16],
                        acc[i] & 0x3fff_ffff,
                        &cfg,
                    );
                    s = s.wrapping_add(r);
                }
                black_box(s)
            })
        });
        g.bench_function(format!("dot2acc32_bf16_{model}"), |bench| {
            bench.iter(|| {
                let mut s = 0u32;
                for i in 0..N {
                    let (x, y) = (a[i], b[i]);
                    let r = dot2_acc32(
                        Half16Encoding::Bf16,
                        [x as u16, (x >> 16) as u16],
                        [y as u16, (y >> 16) as u16],
                        acc[i],
                        &cfg,
                    );
                    s = s.wrapping_add(r);
                }
                black_box(s)
            })
        });
        g.bench_function(format!("dot4acc32_e4m3xe5m2_{model}"), |bench| {
            bench.iter(|| {
                let mut s = 0u32;
                for i in 0..N {
                    let r = dot4_acc32(
                        Fp8Encoding::E4m3,
                        Fp8Encoding::E5m2,
                        a[i].to_le_bytes(),
                        b[i].to_le_bytes(),
                        acc[i],
                        &cfg,
                    );
                    s = s.wrapping_add(r);
                }
                black_box(s)
            })
        });
    }
    // Batches over slices (one core): the exact model's native path, exact-path fallbacks
    // included; the exact path alone for comparison.
    let exact = ModelConfig::new(Model::Exact);
    let mut out = vec![0u32; N];
    for enc in [Half16Encoding::F16, Half16Encoding::Bf16] {
        let acc: Vec<u32> = acc.iter().map(|w| w & 0x3fff_ffff).collect();
        g.bench_function(format!("batch_dot2acc32_{enc:?}_exact"), |bench| {
            bench.iter(|| {
                let slow = fast::dot2_acc32_batch(enc, &a, &b, &acc, &exact, &mut out);
                black_box((slow, out[N - 1]))
            })
        });
        g.bench_function(format!("exact_path_dot2acc32_{enc:?}"), |bench| {
            bench.iter(|| {
                let mut s = 0u32;
                for i in 0..N {
                    let (x, y) = (a[i], b[i]);
                    s = s.wrapping_add(exact_dot2_acc32(
                        enc,
                        [x as u16, (x >> 16) as u16],
                        [y as u16, (y >> 16) as u16],
                        acc[i],
                        &exact,
                    ));
                }
                black_box(s)
            })
        });
    }
    // Values of ordinary sizes (exponents within ±8 of 1, both signs): the data of a real
    // kernel, where sums stay inside a double-double.
    let moderate = |w: &[u32], bias: u32, frac: u32, width: u32| -> Vec<u32> {
        w.iter()
            .map(|&x| {
                let lane = |h: u32| {
                    let e = bias - 8 + (h >> frac) % 17;
                    (h & (1 << (width - 1))) | (e << frac) | (h & ((1 << frac) - 1))
                };
                if width == 16 {
                    lane(x & 0xffff) | (lane(x >> 16) << 16)
                } else {
                    lane(x)
                }
            })
            .collect()
    };
    for (enc, bias, frac) in [
        (Half16Encoding::F16, 15, 10),
        (Half16Encoding::Bf16, 127, 7),
    ] {
        let (a, b) = (moderate(&a, bias, frac, 16), moderate(&b, bias, frac, 16));
        let acc = moderate(&acc, 127, 23, 32);
        g.bench_function(format!("batch_dot2acc32_{enc:?}_exact_moderate"), |bench| {
            bench.iter(|| {
                let slow = fast::dot2_acc32_batch(enc, &a, &b, &acc, &exact, &mut out);
                black_box((slow, out[N - 1]))
            })
        });
    }
    // fp8 vectors against an accumulator of ordinary size (exponent within ±8 of 1).
    let acc_moderate = moderate(&acc, 127, 23, 32);
    g.bench_function("batch_dot4acc32_e4m3xe5m2_exact_moderate_acc", |bench| {
        bench.iter(|| {
            let slow = fast::dot4_acc32_batch(
                Fp8Encoding::E4m3,
                Fp8Encoding::E5m2,
                &a,
                &b,
                &acc_moderate,
                &exact,
                &mut out,
            );
            black_box((slow, out[N - 1]))
        })
    });
    g.bench_function("batch_dot4acc32_e4m3xe5m2_exact", |bench| {
        bench.iter(|| {
            let slow = fast::dot4_acc32_batch(
                Fp8Encoding::E4m3,
                Fp8Encoding::E5m2,
                &a,
                &b,
                &acc,
                &exact,
                &mut out,
            );
            black_box((slow, out[N - 1]))
        })
    });
    g.bench_function("convert_f32_to_e4m3_rne", |bench| {
        bench.iter(|| {
            let mut s = 0u64;
            for &w in &a {
                s = s.wrapping_add(convert(
                    Format::F32,
                    w as u64,
                    Format::E4M3,
                    RoundingMode::NearestEven,
                    false,
                ));
            }
            black_box(s)
        })
    });
    g.finish();
}

criterion_group!(benches, bench_mixdot);
criterion_main!(benches);
