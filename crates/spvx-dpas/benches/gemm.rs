//! GEMM benchmarks (throughput in MACs, so criterion's "elem/s" reads as MAC/s):
//!
//! - `vnni_peak`: the machine's int8 peak, measured with the register-only `vpdpbusd` loop of
//!   `spvx_dpas::gemm::peak` (20 independent zmm accumulators, 64 MACs per instruction), on one
//!   thread and on every rayon thread at once.
//! - `gemm_s8_1024`: the fast GEMM path, s8 × s8 → D, 1024 × 1024 × 1024.
//! - `s8_128`: fast path vs the instruction-by-instruction path at 128 × 128 × 128.
//! - `bf16_256`: fast float path (bf16 × bf16 → F, default model) at 256³.
//! - `side_by_side` (printed, not a criterion measurement): the `vpdpbusd` and fp32 FMA peak
//!   loops on one thread and on every rayon thread; then each GEMM (s8×s8 at 1024³ and 4096³,
//!   u8×s8, the int4 forms, s4×s8 against the `vpdpbusd` loop; bf16 and fp16 → f under the
//!   default model at 512³ and 1024³ against the FMA loop) alternating with its peak loop on
//!   the same threads: best wall-clock rates and their ratio; and the GEMM's MACs per
//!   CPU-second of all its threads (`clock_gettime`) against the loop's on one thread, and that
//!   ratio, which depends less on how much of the machine other processes leave free. The peak loops keep 20
//!   independent zmm accumulators per thread (throughput-bound: `vpdpbusd` and `vfmadd` have
//!   latencies of a few cycles) with every operand in registers, and run at least ≈ 0.36 ms per
//!   call (about as long as the GEMM they are compared with).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use spvx_dpas::gemm::matmul_fast;
use spvx_dpas::gemm::peak::{self as gemm_peak, Peak, PeakLoop};
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

fn vnni_available() -> bool {
    PeakLoop::Vnni.is_available()
}

fn peak(c: &mut Criterion) {
    if !vnni_available() {
        eprintln!("vnni_peak: AVX-512 VNNI not available; skipped");
        return;
    }
    let macs = PeakLoop::Vnni.run(1, false) as u64 * PEAK_ITERS;
    let threads = rayon::current_num_threads() as u64;
    let mut g = c.benchmark_group("vnni_peak");
    g.sample_size(20);
    g.throughput(Throughput::Elements(macs));
    g.bench_function("one_thread", |bench| {
        bench.iter(|| PeakLoop::Vnni.run(black_box(PEAK_ITERS), false))
    });
    g.throughput(Throughput::Elements(macs * threads));
    g.bench_function(format!("all_{threads}_threads"), |bench| {
        bench.iter(|| PeakLoop::Vnni.run(black_box(PEAK_ITERS), true))
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

/// Prints one GEMM side by side with its peak loop (see `spvx_dpas::gemm::peak::compare`):
/// wall-clock rates and ratio, and the GEMM per CPU-second against the loop's on one thread.
fn compare(
    label: &str,
    spec: &MatmulSpec,
    a: &ElementMatrix,
    b: &ElementMatrix,
    peak: Peak,
    rounds: usize,
) {
    let c = match gemm_peak::compare(spec, a, b, peak.kind, rounds) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("side_by_side: {label}: {e}");
            return;
        }
    };
    let per_cpu = match (c.gemm_per_cpu, peak.per_cpu) {
        (Some(g), Some(p)) => {
            format!(
                "per CPU-second {g:.1} / {p:.1} (1 thread), ratio {:.2}",
                g / p
            )
        }
        _ => "per CPU-second: no CPU clock".into(),
    };
    eprintln!(
        "side_by_side: {label}: GEMM {:.1} GMAC/s, {} peak ({} threads) {:.1} GMAC/s, ratio {:.2}; {per_cpu}",
        c.gemm,
        peak.kind.name(),
        c.threads,
        c.peak,
        c.ratio(),
    );
}

fn int_operands(
    m: usize,
    k: usize,
    n: usize,
    pa: Precision,
    pb: Precision,
) -> (ElementMatrix, ElementMatrix) {
    // Values folded into each precision's range.
    let fold = |v: Vec<i32>, p: Precision| -> Vec<i32> {
        let bits = p.bits();
        v.into_iter()
            .map(|x| {
                let u = x & ((1 << bits) - 1);
                if p.is_signed_integer() && u >= 1 << (bits - 1) {
                    u - (1 << bits)
                } else {
                    u
                }
            })
            .collect()
    };
    let a = ElementMatrix::from_ints("A", m, k, pa, &fold(values(m * k, 1), pa)).unwrap();
    let b = ElementMatrix::from_ints("B", k, n, pb, &fold(values(k * n, 2), pb)).unwrap();
    (a, b)
}

fn float_operands(n: usize, p: Precision) -> (ElementMatrix, ElementMatrix) {
    let bits = |seed| -> Vec<u32> {
        values(n * n, seed)
            .into_iter()
            .map(|v| {
                let f = v as f32 / 16.0;
                match p {
                    Precision::Bf16 => u32::from(half::bf16::from_f32(f).to_bits()),
                    _ => u32::from(half::f16::from_f32(f).to_bits()),
                }
            })
            .collect()
    };
    let a = ElementMatrix::from_bits("A", n, n, p, bits(3)).unwrap();
    let b = ElementMatrix::from_bits("B", n, n, p, bits(4)).unwrap();
    (a, b)
}

/// Printed, not a criterion measurement: the peak loops on one and on all threads (the 2 vCPUs
/// of the VM the issue names may be SMT siblings), then each GEMM against the peak loop of its
/// kind (see [`compare`]).
fn side_by_side(_c: &mut Criterion) {
    if !vnni_available() {
        return;
    }
    let threads = rayon::current_num_threads();
    let mut peaks = Vec::new();
    for kind in [PeakLoop::Vnni, PeakLoop::Fma] {
        let p = gemm_peak::measure_peak(kind, 10);
        eprintln!(
            "side_by_side: {} peak: 1 thread {:.1} GMAC/s, {threads} threads {:.1} GMAC/s ({:.2}×); per CPU-second on 1 thread {:.1}",
            kind.name(),
            p.one_thread,
            p.all_threads,
            p.all_threads / p.one_thread,
            p.per_cpu.unwrap_or(f64::NAN),
        );
        peaks.push(p);
    }
    let (vnni, fma) = (peaks[0], peaks[1]);
    let int = |pa, pb| spec(pa, pb, DataType::D);
    use Precision::*;
    for (pa, pb, n, rounds) in [
        (S8, S8, 1024, 25),
        (S8, S8, 4096, 4),
        (U8, S8, 1024, 15),
        (U8, U8, 1024, 15),
        (S4, S4, 1024, 15),
        (U4, S4, 1024, 15),
        (S4, S8, 1024, 15),
    ] {
        let (a, b) = int_operands(n, n, n, pa, pb);
        let label = format!("{pa}×{pb} {n}^3");
        compare(&label, &int(pa, pb), &a, &b, vnni, rounds);
    }
    for (p, n, rounds) in [
        (Bf16, 512, 10),
        (Fp16, 512, 10),
        (Bf16, 1024, 6),
        (Fp16, 1024, 6),
    ] {
        let (a, b) = float_operands(n, p);
        let label = format!("{p}×{p}→f (default model) {n}^3");
        compare(&label, &spec(p, p, DataType::F), &a, &b, fma, rounds);
    }
    let s = spec(S8, S8, DataType::D);
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

criterion_group!(benches, side_by_side, peak, gemm_s8_1024, s8_128, bf16_256);
criterion_main!(benches);
