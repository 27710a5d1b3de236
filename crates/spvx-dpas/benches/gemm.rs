//! GEMM benchmarks (throughput in MACs, so criterion's "elem/s" reads as MAC/s):
//!
//! - `vnni_peak`: the machine's int8 peak, measured with a register-only `vpdpbusd` loop
//!   (20 independent zmm accumulators, 64 MACs per instruction), on one thread and on every
//!   rayon thread at once.
//! - `gemm_s8_1024`: the fast GEMM path, s8 × s8 → D, 1024 × 1024 × 1024.
//! - `s8_128`: fast path vs the instruction-by-instruction path at 128 × 128 × 128.
//! - `bf16_256`: fast float path (bf16 × bf16 → F, default model) at 256³.
//! - `side_by_side` (printed, not a criterion measurement): the `vpdpbusd` and fp32 FMA peak
//!   loops on one thread and on every rayon thread; then each GEMM (s8×s8 at 1024³ and 4096³,
//!   u8×s8, the int4 forms, s4×s8 against the `vpdpbusd` loop; bf16 and fp16 → f under the
//!   default model against the FMA loop) alternating with its peak loop on the same threads:
//!   best wall-clock rates and their ratio; and the GEMM's MACs per CPU-second of all its
//!   threads (`clock_gettime`) against the loop's on one thread, and that ratio, which depends
//!   less on how much of the machine other processes leave free. The peak loops keep 20
//!   independent zmm accumulators per thread (throughput-bound: `vpdpbusd` and `vfmadd` have
//!   latencies of a few cycles) with every operand in registers, and run at least ≈ 22 ms per
//!   call (about as long as the GEMM they are compared with).

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

/// Iterations of a peak loop per timed call in `side_by_side` at least (≈ 22 ms of
/// `vpdpbusd` on one thread): short calls on pool threads measured up to 40% slow on the shared
/// VM, from waking the threads, not from the loop.
const SIDE_ITERS: u64 = 1 << 16;

/// fp32 FMA peak loop: CHAINS independent zmm accumulators, 16 multiply-adds per instruction.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn fma_loop(iters: u64) -> f32 {
    use std::arch::x86_64::*;
    let a = black_box(_mm512_set1_ps(0.999));
    let b = black_box(_mm512_set1_ps(1e-3));
    let mut acc = [_mm512_setzero_ps(); CHAINS as usize];
    for _ in 0..iters {
        for v in acc.iter_mut() {
            *v = _mm512_fmadd_ps(*v, a, b);
        }
    }
    let mut s = _mm512_setzero_ps();
    for v in acc {
        s = _mm512_add_ps(s, v);
    }
    _mm512_reduce_add_ps(s)
}

/// Which peak loop a GEMM is compared with.
#[derive(Clone, Copy)]
enum PeakLoop {
    /// `vpdpbusd` (64 u8 × s8 MACs per instruction).
    Vnni,
    /// `vfmadd` on fp32 (16 MACs per instruction).
    Fma,
}

impl PeakLoop {
    fn name(self) -> &'static str {
        match self {
            PeakLoop::Vnni => "vpdpbusd",
            PeakLoop::Fma => "fp32 FMA",
        }
    }

    /// Runs `iters` iterations on every rayon thread at once (`all`) or on the calling thread;
    /// returns the MACs done.
    fn run(self, iters: u64, all: bool) -> f64 {
        let one = move || {
            // SAFETY: `side_by_side` runs only when AVX-512F and VNNI were detected.
            match self {
                PeakLoop::Vnni => {
                    black_box(unsafe { vpdpbusd_loop(black_box(iters)) });
                }
                PeakLoop::Fma => {
                    black_box(unsafe { fma_loop(black_box(iters)) });
                }
            }
        };
        let per_thread = (iters * CHAINS) as f64
            * match self {
                PeakLoop::Vnni => 64.0,
                PeakLoop::Fma => 16.0,
            };
        if all {
            rayon::broadcast(|_| one());
            per_thread * rayon::current_num_threads() as f64
        } else {
            one();
            per_thread
        }
    }
}

/// Best wall-clock rate (GMAC/s) of `f` (returning the MACs it did) over `reps` runs, and the
/// rate per CPU-second of all of them (CPU time of every thread of the process; `None` where
/// that is not readable).
fn rates(reps: usize, f: &mut dyn FnMut() -> f64) -> (f64, Option<f64>) {
    let cpu0 = process_cpu_ns();
    let (mut best, mut macs) = (0f64, 0f64);
    for _ in 0..reps {
        let t = std::time::Instant::now();
        let done = f();
        best = best.max(done / t.elapsed().as_secs_f64() / 1e9);
        macs += done;
    }
    let cpu = match (cpu0, process_cpu_ns()) {
        (Some(a), Some(b)) if b > a => Some(macs / (b - a) as f64),
        _ => None,
    };
    (best, cpu)
}

/// The peak of one loop: wall-clock on all rayon threads, and per CPU-second on one thread.
#[derive(Clone, Copy)]
struct Peak {
    kind: PeakLoop,
    /// GMAC per CPU-second of the loop on one thread (`None`: no CPU clock).
    per_cpu: Option<f64>,
}

/// The GEMM `a × b` (`spec`) against the peak loop on the same (all rayon) threads, alternating
/// `rounds` times with the loop run about as long as one GEMM; prints the best wall-clock rate
/// of each and their ratio, and the GEMM's rate per CPU-second of all its threads against the
/// loop's per CPU-second on one thread, and that ratio.
fn compare(
    label: &str,
    spec: &MatmulSpec,
    a: &ElementMatrix,
    b: &ElementMatrix,
    peak: Peak,
    rounds: usize,
) {
    let macs = (a.rows() * a.cols() * b.cols()) as f64;
    let run = || {
        black_box(matmul_fast(spec, a, b, None).unwrap());
        macs
    };
    // Warm-up, and the loop length: as long as one GEMM, at least SIDE_ITERS.
    let (first, _) = rates(1, &mut || run());
    let (probe, _) = rates(1, &mut || peak.kind.run(SIDE_ITERS, true));
    let gemm_secs = macs / first / 1e9;
    let iter_secs = peak.kind.run(1, true) / probe / 1e9;
    let iters = ((gemm_secs / iter_secs) as u64).max(SIDE_ITERS);
    let (mut gemm, mut loop_best, mut gemm_cpu) = (0f64, 0f64, (0f64, 0usize));
    for _ in 0..rounds {
        let (w, c) = rates(1, &mut || run());
        gemm = gemm.max(w);
        if let Some(c) = c {
            gemm_cpu = (gemm_cpu.0 + c, gemm_cpu.1 + 1);
        }
        let (w, _) = rates(1, &mut || peak.kind.run(iters, true));
        loop_best = loop_best.max(w);
    }
    let threads = rayon::current_num_threads();
    let per_cpu = match (peak.per_cpu, gemm_cpu.1) {
        (Some(p), n) if n > 0 => {
            let g = gemm_cpu.0 / n as f64;
            format!(
                "per CPU-second {g:.1} / {p:.1} (1 thread), ratio {:.2}",
                g / p
            )
        }
        _ => "per CPU-second: no CPU clock".into(),
    };
    eprintln!(
        "side_by_side: {label}: GEMM {gemm:.1} GMAC/s, {} peak ({threads} threads) {loop_best:.1} GMAC/s, ratio {:.2}; {per_cpu}",
        peak.kind.name(),
        gemm / loop_best,
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
        let (one, per_cpu) = rates(10, &mut || kind.run(SIDE_ITERS, false));
        let (all, _) = rates(10, &mut || kind.run(SIDE_ITERS, true));
        eprintln!(
            "side_by_side: {} peak: 1 thread {one:.1} GMAC/s, {threads} threads {all:.1} GMAC/s ({:.2}×); per CPU-second on 1 thread {:.1}",
            kind.name(),
            all / one,
            per_cpu.unwrap_or(f64::NAN),
        );
        peaks.push(Peak { kind, per_cpu });
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
    for p in [Bf16, Fp16] {
        let n = 512;
        let (a, b) = float_operands(n, p);
        let label = format!("{p}×{p}→f (default model) {n}^3");
        compare(&label, &spec(p, p, DataType::F), &a, &b, fma, 5);
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

/// CPU time of every thread of this process in ns (`clock_gettime`).
#[cfg(target_os = "linux")]
fn process_cpu_ns() -> Option<u64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec for the call to fill.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    (rc == 0).then(|| ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64)
}

#[cfg(not(target_os = "linux"))]
fn process_cpu_ns() -> Option<u64> {
    None
}

criterion_group!(benches, side_by_side, peak, gemm_s8_1024, s8_128, bf16_256);
criterion_main!(benches);
