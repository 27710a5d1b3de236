//! GEMM benchmarks (throughput in MACs, so criterion's "elem/s" reads as MAC/s):
//!
//! - `vnni_peak`: the machine's int8 peak, measured with a register-only `vpdpbusd` loop
//!   (20 independent zmm accumulators, 64 MACs per instruction), on one thread and on every
//!   rayon thread at once.
//! - `gemm_s8_1024`: the fast GEMM path, s8 × s8 → D, 1024 × 1024 × 1024.
//! - `s8_128`: fast path vs the instruction-by-instruction path at 128 × 128 × 128.
//! - `bf16_256`: fast float path (bf16 × bf16 → F, default model) at 256³.
//! - `side_by_side` (printed, not a criterion measurement): the best of 15 alternating runs of
//!   the all-thread peak loop and the 1024³ s8 GEMM, and their ratio; and the same ratio per
//!   CPU-second (process CPU time from /proc/self/stat, 100 ticks/s, over ~1 s of each), which
//!   does not depend on how many cores other processes leave free on a shared machine.

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

fn side_by_side(_c: &mut Criterion) {
    if !vnni_available() {
        return;
    }
    let n = 1024;
    let (a, b) = s8_operands(n, n, n);
    let s = spec(Precision::S8, Precision::S8, DataType::D);
    let threads = rayon::current_num_threads() as f64;
    let iters = 1 << 18;
    let peak_macs = (iters * CHAINS * 64) as f64 * threads;
    let gemm_macs = (n * n * n) as f64;
    let (mut best_peak, mut best_gemm) = (f64::MAX, f64::MAX);
    for _ in 0..15 {
        let t = std::time::Instant::now();
        rayon::broadcast(|_| {
            // SAFETY: AVX-512F and VNNI were detected above.
            unsafe { vpdpbusd_loop(black_box(iters)) }
        });
        best_peak = best_peak.min(t.elapsed().as_secs_f64());
        let t = std::time::Instant::now();
        black_box(matmul_fast(&s, &a, &b, None).unwrap());
        best_gemm = best_gemm.min(t.elapsed().as_secs_f64());
    }
    let peak = peak_macs / best_peak / 1e9;
    let gemm = gemm_macs / best_gemm / 1e9;
    eprintln!(
        "side_by_side: vpdpbusd peak ({threads} threads) {peak:.1} GMAC/s, s8 GEMM 1024^3 {gemm:.1} GMAC/s, ratio {:.2}",
        gemm / peak
    );
    // Per CPU-second: MACs divided by the process CPU time they took.
    let cpu = |f: &mut dyn FnMut()| -> Option<f64> {
        let start = process_cpu_seconds()?;
        f();
        Some(process_cpu_seconds()? - start)
    };
    let reps = 100;
    let peak_cpu = cpu(&mut || {
        for _ in 0..reps / 10 {
            rayon::broadcast(|_| {
                // SAFETY: AVX-512F and VNNI were detected above.
                unsafe { vpdpbusd_loop(black_box(iters * 4)) }
            });
        }
    });
    let gemm_cpu = cpu(&mut || {
        for _ in 0..reps {
            black_box(matmul_fast(&s, &a, &b, None).unwrap());
        }
    });
    if let (Some(p), Some(g)) = (peak_cpu, gemm_cpu) {
        let peak = peak_macs * 4.0 * (reps / 10) as f64 / p / 1e9;
        let gemm = gemm_macs * reps as f64 / g / 1e9;
        eprintln!(
            "side_by_side: per CPU-second: peak {peak:.1} GMAC/s, s8 GEMM 1024^3 {gemm:.1} GMAC/s, ratio {:.2}",
            gemm / peak
        );
    }
    let m = 128;
    let (a, b) = s8_operands(m, m, m);
    let (mut best_fast, mut best_slow) = (f64::MAX, f64::MAX);
    for _ in 0..3 {
        let t = std::time::Instant::now();
        black_box(matmul_fast(&s, &a, &b, None).unwrap());
        best_fast = best_fast.min(t.elapsed().as_secs_f64());
        let t = std::time::Instant::now();
        black_box(matmul_instructions(&s, &a, &b, None).unwrap());
        best_slow = best_slow.min(t.elapsed().as_secs_f64());
    }
    eprintln!(
        "side_by_side: s8 128^3 fast {:.1} us, instruction path {:.1} ms, ratio {:.0}",
        best_fast * 1e6,
        best_slow * 1e3,
        best_slow / best_fast
    );
}

/// User + system CPU time of this process in seconds (Linux /proc, 100 ticks per second).
fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let after = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = after.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}

criterion_group!(benches, side_by_side, peak, gemm_s8_1024, s8_128, bf16_256);
criterion_main!(benches);
