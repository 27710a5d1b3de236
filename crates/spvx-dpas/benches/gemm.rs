//! GEMM benchmarks (throughput in MACs, so criterion's "elem/s" reads as MAC/s):
//!
//! - `vnni_peak`: the machine's int8 peak, measured with a register-only `vpdpbusd` loop
//!   (20 independent zmm accumulators, 64 MACs per instruction), on one thread and on every
//!   rayon thread at once.
//! - `gemm_s8_1024`: the fast GEMM path, s8 × s8 → D, 1024 × 1024 × 1024.
//! - `s8_128`: fast path vs the instruction-by-instruction path at 128 × 128 × 128.
//! - `bf16_256`: fast float path (bf16 × bf16 → F, default model) at 256³.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use spvx_dpas::gemm::matmul_fast;
use spvx_dpas::isa::ExecOptions;
use spvx_dpas::matrix::{ElementMatrix, MatmulSpec, matmul_instructions};
use spvx_dpas::{DataType, Platform, Precision};
use std::hint::black_box;

/// Deterministic pseudo-random values in -128..=127 (xorshift).
fn values(n: usize, seed: u64) -> Vec<i32> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % 256) as i32 - 128
        })
        .collect()
}

fn s8_operands(m: usize, k: usize, n: usize) -> (ElementMatrix, ElementMatrix) {
    let a = ElementMatrix::from_ints("A", m, k, Precision::S8, &values(m * k, 1)).unwrap();
    let b = ElementMatrix::from_ints("B", k, n, Precision::S8, &values(k * n, 2)).unwrap();
    (a, b)
}

fn spec(a: Precision, b: Precision, dst: DataType) -> MatmulSpec {
    MatmulSpec {
        platform: Platform::Pvc,
        a,
        b,
        dst,
        options: ExecOptions::default(),
    }
}

/// Iterations of the peak loop per call.
const PEAK_ITERS: u64 = 1 << 20;
/// Independent accumulators in the peak loop.
const CHAINS: u64 = 20;

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vnni")]
fn vpdpbusd_loop(iters: u64) -> i32 {
    use std::arch::x86_64::*;
    let a = black_box(_mm512_set1_epi32(0x0102_0304));
    let b = black_box(_mm512_set1_epi32(0x0101_0101));
    let mut acc = [_mm512_setzero_si512(); CHAINS as usize];
    for _ in 0..iters {
        for v in acc.iter_mut() {
            *v = _mm512_dpbusd_epi32(*v, a, b);
        }
    }
    let mut s = _mm512_setzero_si512();
    for v in acc {
        s = _mm512_add_epi32(s, v);
    }
    _mm512_reduce_add_epi32(s)
}

fn vnni_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512vnni")
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

fn peak(c: &mut Criterion) {
    if !vnni_available() {
        eprintln!("vnni_peak: AVX-512 VNNI not available; skipped");
        return;
    }
    let macs = PEAK_ITERS * CHAINS * 64;
    let threads = rayon::current_num_threads() as u64;
    let mut g = c.benchmark_group("vnni_peak");
    g.sample_size(20);
    g.throughput(Throughput::Elements(macs));
    g.bench_function("one_thread", |bench| {
        // SAFETY: AVX-512F and VNNI were detected above.
        bench.iter(|| unsafe { vpdpbusd_loop(black_box(PEAK_ITERS)) })
    });
    g.throughput(Throughput::Elements(macs * threads));
    g.bench_function(format!("all_{threads}_threads"), |bench| {
        bench.iter(|| {
            rayon::broadcast(|_| {
                // SAFETY: AVX-512F and VNNI were detected above.
                unsafe { vpdpbusd_loop(black_box(PEAK_ITERS)) }
            })
        })
    });
    g.finish();
}

fn gemm_s8_1024(c: &mut Criterion) {
    let n = 1024;
    let (a, b) = s8_operands(n, n, n);
    let s = spec(Precision::S8, Precision::S8, DataType::D);
    let mut g = c.benchmark_group("gemm_s8_1024");
    g.sample_size(10);
    g.throughput(Throughput::Elements((n * n * n) as u64));
    g.bench_function("fast", |bench| {
        bench.iter(|| matmul_fast(&s, &a, &b, None).unwrap())
    });
    g.finish();
}

fn s8_128(c: &mut Criterion) {
    let n = 128;
    let (a, b) = s8_operands(n, n, n);
    let s = spec(Precision::S8, Precision::S8, DataType::D);
    let mut g = c.benchmark_group("s8_128");
    g.sample_size(10);
    g.throughput(Throughput::Elements((n * n * n) as u64));
    g.bench_function("fast", |bench| {
        bench.iter(|| matmul_fast(&s, &a, &b, None).unwrap())
    });
    g.bench_function("instructions", |bench| {
        bench.iter(|| matmul_instructions(&s, &a, &b, None).unwrap())
    });
    g.finish();
}

fn bf16_256(c: &mut Criterion) {
    let n = 256;
    let bits = |seed| -> Vec<u32> {
        values(n * n, seed)
            .into_iter()
            .map(|v| u32::from(half::bf16::from_f32(v as f32 / 16.0).to_bits()))
            .collect()
    };
    let a = ElementMatrix::from_bits("A", n, n, Precision::Bf16, bits(3)).unwrap();
    let b = ElementMatrix::from_bits("B", n, n, Precision::Bf16, bits(4)).unwrap();
    let s = spec(Precision::Bf16, Precision::Bf16, DataType::F);
    let mut g = c.benchmark_group("bf16_256");
    g.sample_size(10);
    g.throughput(Throughput::Elements((n * n * n) as u64));
    g.bench_function("fast", |bench| {
        bench.iter(|| matmul_fast(&s, &a, &b, None).unwrap())
    });
    g.finish();
}

criterion_group!(benches, peak, gemm_s8_1024, s8_128, bf16_256);
criterion_main!(benches);
