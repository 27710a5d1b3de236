//! Packed 4×8 dot products with saturating accumulation: every backend the CPU has (portable,
//! AVX2, AVX-512 VNNI) side by side, for each signedness, over 1M-word slices (16 MiB of
//! operands: memory-bound) and over 16K-word slices (256 KiB: cache-resident, compute-bound).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use spvx_num::intdot::{Backend, DotKind, packed4x8_acc_sat_slice, packed4x8_slice};
use std::hint::black_box;

const WORDS: usize = 1 << 20;
const SMALL_WORDS: usize = 1 << 14;

fn words(seed: u64) -> Vec<u32> {
    let mut x = seed;
    (0..WORDS)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u32
        })
        .collect()
}

fn bench_acc_sat(c: &mut Criterion) {
    acc_sat_group(c, WORDS, "1M");
    acc_sat_group(c, SMALL_WORDS, "16K");
}

fn acc_sat_group(c: &mut Criterion, len: usize, label: &str) {
    let (a, b, acc) = (words(1), words(2), words(3));
    let (a, b, acc) = (&a[..len], &b[..len], &acc[..len]);
    let mut out = vec![0u32; len];
    for kind in [DotKind::Signed, DotKind::Unsigned, DotKind::Mixed] {
        let mut group = c.benchmark_group(format!("dot4x8_acc_sat_{label}/{kind:?}"));
        group.throughput(Throughput::Elements(len as u64));
        for backend in Backend::ALL.into_iter().filter(|b| b.is_available()) {
            group.bench_function(backend.to_string(), |bench| {
                bench.iter(|| {
                    packed4x8_acc_sat_slice(
                        backend,
                        kind,
                        black_box(a),
                        black_box(b),
                        black_box(acc),
                        &mut out,
                    )
                    .map_err(|e| e.to_string())
                })
            });
        }
        group.finish();
    }
}

fn bench_plain(c: &mut Criterion) {
    let (a, b) = (words(4), words(5));
    let mut out = vec![0u32; WORDS];
    let mut group = c.benchmark_group("dot4x8_plain_1M/Signed");
    group.throughput(Throughput::Elements(WORDS as u64));
    for backend in Backend::ALL.into_iter().filter(|b| b.is_available()) {
        group.bench_function(backend.to_string(), |bench| {
            bench.iter(|| {
                packed4x8_slice(
                    backend,
                    DotKind::Signed,
                    black_box(&a),
                    black_box(&b),
                    &mut out,
                )
                .map_err(|e| e.to_string())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_acc_sat, bench_plain);
criterion_main!(benches);
