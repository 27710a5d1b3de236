//! Mixed float dot products: cases per second of each model on random inputs, and the cost of a
//! plain format conversion, to see what the exact default costs against the rounded-step models;
//! the batch API (`batch_*`) over every form and model, on random words and ordinary values.

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

/// Uniformly random words (xorshift): every exponent, NaNs and infinities included.
fn random_words(n: usize, seed: u32) -> Vec<u32> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        })
        .collect()
}

/// Values of ordinary sizes (exponents within ±8 of 1, both signs, any fraction): the data
/// of a real kernel. Lanes of `width` bits with `frac` fraction bits and exponent `bias`.
fn ordinary(w: &[u32], bias: u32, frac: u32, width: u32) -> Vec<u32> {
    w.iter()
        .map(|&x| {
            (0..32 / width).fold(0, |out, k| {
                let h = (x >> (k * width)) & (u32::MAX >> (32 - width));
                let e = bias - 8 + (h >> frac) % 17;
                let lane = (h & (1 << (width - 1))) | (e << frac) | (h & ((1 << frac) - 1));
                out | (lane << (k * width))
            })
        })
        .collect()
}

/// The batch API over 4,096 cases on one core, every form and model (all native with nearest
/// even and no flushing), random words and ordinary values; the exact path alone for
/// comparison.
fn bench_batches(c: &mut Criterion) {
    const N: usize = 4096;
    let mut g = c.benchmark_group("mixdot");
    g.throughput(Throughput::Elements(N as u64));
    let (a, b, acc) = (random_words(N, 1), random_words(N, 2), random_words(N, 3));
    let acc16: Vec<u16> = acc.iter().map(|&w| w as u16).collect();
    let ord_acc = ordinary(&acc, 127, 23, 32);
    let mut out = vec![0u32; N];
    let mut out16 = vec![0u16; N];
    for model in Model::ALL {
        let cfg = ModelConfig::new(model);
        for d in ["random", "ordinary"] {
            for (enc, bias, frac) in [
                (Half16Encoding::F16, 15, 10),
                (Half16Encoding::Bf16, 127, 7),
            ] {
                let (a, b, acc, acc16) = if d == "random" {
                    (a.clone(), b.clone(), acc.clone(), acc16.clone())
                } else {
                    let acc16 = ordinary(&acc, bias, frac, 16);
                    (
                        ordinary(&a, bias, frac, 16),
                        ordinary(&b, bias, frac, 16),
                        ord_acc.clone(),
                        acc16.iter().map(|&w| w as u16).collect(),
                    )
                };
                if model == Model::Exact {
                    let slow = fast::dot2_acc32_batch(enc, &a, &b, &acc, &cfg, &mut out);
                    let slow16 = fast::dot2_acc16_batch(enc, &a, &b, &acc16, &cfg, &mut out16);
                    eprintln!(
                        "exact-path cases of {N}, {enc:?} {d}: {slow:?} (acc32), {slow16:?} (acc16)"
                    );
                }
                g.bench_function(format!("batch_dot2acc32_{enc:?}_{d}_{model}"), |bench| {
                    bench.iter(|| {
                        let slow = fast::dot2_acc32_batch(enc, &a, &b, &acc, &cfg, &mut out);
                        black_box((slow, out[N - 1]))
                    })
                });
                g.bench_function(format!("batch_dot2acc16_{enc:?}_{d}_{model}"), |bench| {
                    bench.iter(|| {
                        let slow = fast::dot2_acc16_batch(enc, &a, &b, &acc16, &cfg, &mut out16);
                        black_box((slow, out16[N - 1]))
                    })
                });
            }
            for (ea, eb) in [
                (Fp8Encoding::E4m3, Fp8Encoding::E4m3),
                (Fp8Encoding::E4m3, Fp8Encoding::E5m2),
                (Fp8Encoding::E5m2, Fp8Encoding::E5m2),
            ] {
                let (a, b, acc) = if d == "random" {
                    (a.clone(), b.clone(), acc.clone())
                } else {
                    let lanes = |w: &[u32], e: Fp8Encoding| match e {
                        Fp8Encoding::E4m3 => ordinary(w, 7, 3, 8),
                        Fp8Encoding::E5m2 => ordinary(w, 15, 2, 8),
                    };
                    (lanes(&a, ea), lanes(&b, eb), ord_acc.clone())
                };
                let name = format!("batch_dot4acc32_{ea:?}x{eb:?}_{d}_{model}");
                if model == Model::Exact {
                    let slow = fast::dot4_acc32_batch(ea, eb, &a, &b, &acc, &cfg, &mut out);
                    eprintln!("exact-path cases of {N}, {ea:?}x{eb:?} {d}: {slow:?}");
                }
                g.bench_function(name, |bench| {
                    bench.iter(|| {
                        let slow = fast::dot4_acc32_batch(ea, eb, &a, &b, &acc, &cfg, &mut out);
                        black_box((slow, out[N - 1]))
                    })
                });
            }
        }
    }
    // The data and names of the batch benchmarks before issue 23 item 3 was finished
    // (finite-biased words: each lane's top exponent bit clear), for side-by-side ratios with
    // a build of that version.
    let exact = ModelConfig::new(Model::Exact);
    let (fa, fb, facc) = (words(N, 1), words(N, 2), words(N, 3));
    let facc_ord = ordinary(&facc, 127, 23, 32);
    for (enc, bias, frac) in [
        (Half16Encoding::F16, 15, 10),
        (Half16Encoding::Bf16, 127, 7),
    ] {
        let acc: Vec<u32> = facc.iter().map(|w| w & 0x3fff_ffff).collect();
        g.bench_function(format!("batch_dot2acc32_{enc:?}_exact"), |bench| {
            bench.iter(|| {
                let slow = fast::dot2_acc32_batch(enc, &fa, &fb, &acc, &exact, &mut out);
                black_box((slow, out[N - 1]))
            })
        });
        let (a, b) = (ordinary(&fa, bias, frac, 16), ordinary(&fb, bias, frac, 16));
        g.bench_function(format!("batch_dot2acc32_{enc:?}_exact_moderate"), |bench| {
            bench.iter(|| {
                let slow = fast::dot2_acc32_batch(enc, &a, &b, &facc_ord, &exact, &mut out);
                black_box((slow, out[N - 1]))
            })
        });
    }
    let (e4, e5) = (Fp8Encoding::E4m3, Fp8Encoding::E5m2);
    for (name, acc) in [("_moderate_acc", &facc_ord), ("", &facc)] {
        g.bench_function(format!("batch_dot4acc32_e4m3xe5m2_exact{name}"), |bench| {
            bench.iter(|| {
                let slow = fast::dot4_acc32_batch(e4, e5, &fa, &fb, acc, &exact, &mut out);
                black_box((slow, out[N - 1]))
            })
        });
    }
    // The exact path alone, for comparison.
    g.bench_function("exact_path_dot2acc32_F16_random", |bench| {
        bench.iter(|| {
            let mut s = 0u32;
            for i in 0..N {
                let (x, y) = (a[i], b[i]);
                s = s.wrapping_add(exact_dot2_acc32(
                    Half16Encoding::F16,
                    [x as u16, (x >> 16) as u16],
                    [y as u16, (y >> 16) as u16],
                    acc[i],
                    &exact,
                ));
            }
            black_box(s)
        })
    });
    g.finish();
}

criterion_group!(benches, bench_mixdot, bench_batches);
criterion_main!(benches);
