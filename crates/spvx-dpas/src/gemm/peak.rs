//! The machine's peak, measured, and the fast GEMM side by side with it: register-only
//! `vpdpbusd` and fp32 FMA loops (CHAINS independent zmm accumulators per thread, so that the
//! loop is bound by throughput, not by the instructions' latency of a few cycles), on one
//! thread or on every rayon thread, and [`compare`], which alternates a GEMM with the loop of
//! its kind on the same threads. Used by the `gemm` bench and `spvx dpas matmul --bench`.

use std::hint::black_box;

use super::matmul_fast;
use crate::SimError;
use crate::matrix::{ElementMatrix, MatmulSpec};

/// Independent accumulators per thread in the peak loops.
pub const CHAINS: usize = 20;

/// Iterations of a peak loop per timed call at least (≈ 0.36 ms of `vpdpbusd` on one thread):
/// calls of 22 µs on pool threads measured up to 40% slow on a shared VM, from waking the
/// threads, not from the loop.
pub const MIN_ITERS: u64 = 1 << 16;

/// A peak loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PeakLoop {
    /// `vpdpbusd` on zmm registers: 64 u8 × s8 multiply-adds per instruction.
    Vnni,
    /// `vfmadd` on fp32 zmm registers: 16 multiply-adds per instruction.
    Fma,
}

impl PeakLoop {
    /// The loop a GEMM of these precisions is compared with: `vpdpbusd` for integers, fp32
    /// FMA otherwise.
    pub fn for_spec(spec: &MatmulSpec) -> PeakLoop {
        if spec.b.is_integer() {
            PeakLoop::Vnni
        } else {
            PeakLoop::Fma
        }
    }

    /// A short name ("vpdpbusd", "fp32 FMA").
    pub fn name(self) -> &'static str {
        match self {
            PeakLoop::Vnni => "vpdpbusd",
            PeakLoop::Fma => "fp32 FMA",
        }
    }

    /// Whether this CPU can run the loop (x86-64 with AVX-512F, and VNNI for `vpdpbusd`).
    pub fn is_available(self) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            std::arch::is_x86_feature_detected!("avx512f")
                && (self == PeakLoop::Fma || std::arch::is_x86_feature_detected!("avx512vnni"))
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = self;
            false
        }
    }

    /// Multiply-adds of one iteration on one thread.
    fn macs_per_iter(self) -> f64 {
        CHAINS as f64
            * match self {
                PeakLoop::Vnni => 64.0,
                PeakLoop::Fma => 16.0,
            }
    }

    /// Runs `iters` iterations on every rayon thread at once (`all`) or on the calling
    /// thread; returns the multiply-adds done (0 when the loop is not available).
    pub fn run(self, iters: u64, all: bool) -> f64 {
        if !self.is_available() {
            return 0.0;
        }
        let one = move || {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `is_available` checked the target features above.
            match self {
                PeakLoop::Vnni => {
                    black_box(unsafe { vnni_loop(black_box(iters)) });
                }
                PeakLoop::Fma => {
                    black_box(unsafe { fma_loop(black_box(iters)) });
                }
            }
        };
        let per_thread = iters as f64 * self.macs_per_iter();
        if all {
            rayon::broadcast(|_| one());
            per_thread * rayon::current_num_threads() as f64
        } else {
            one();
            per_thread
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vnni")]
fn vnni_loop(iters: u64) -> i32 {
    use std::arch::x86_64::*;
    let a = black_box(_mm512_set1_epi32(0x0102_0304));
    let b = black_box(_mm512_set1_epi32(0x0101_0101));
    let mut acc = [_mm512_setzero_si512(); CHAINS];
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

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn fma_loop(iters: u64) -> f32 {
    use std::arch::x86_64::*;
    let a = black_box(_mm512_set1_ps(0.999));
    let b = black_box(_mm512_set1_ps(1e-3));
    let mut acc = [_mm512_setzero_ps(); CHAINS];
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

/// CPU time of every thread of this process in ns (`None` where it cannot be read).
pub fn process_cpu_ns() -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid timespec for the call to fill.
        let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
        (rc == 0).then(|| ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64)
    }
    #[cfg(not(target_os = "linux"))]
    None
}

/// Best wall-clock rate (G multiply-adds per second) of `f` (returning the multiply-adds it
/// did) over `reps` runs, and its rate per CPU-second of all threads over all the runs.
pub fn rates(reps: usize, f: &mut dyn FnMut() -> f64) -> (f64, Option<f64>) {
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

/// A peak loop's rates: best wall-clock on one and on all rayon threads, and per CPU-second on
/// one thread (GMAC/s).
#[derive(Debug, Clone, Copy)]
pub struct Peak {
    pub kind: PeakLoop,
    pub one_thread: f64,
    pub all_threads: f64,
    pub per_cpu: Option<f64>,
}

/// Measures `kind`'s peak (`reps` calls of [`MIN_ITERS`] iterations each way).
pub fn measure_peak(kind: PeakLoop, reps: usize) -> Peak {
    let (one_thread, per_cpu) = rates(reps, &mut || kind.run(MIN_ITERS, false));
    let (all_threads, _) = rates(reps, &mut || kind.run(MIN_ITERS, true));
    Peak {
        kind,
        one_thread,
        all_threads,
        per_cpu,
    }
}

/// A GEMM side by side with its peak loop (GMAC/s; see [`compare`]).
#[derive(Debug, Clone, Copy)]
pub struct Comparison {
    /// Best wall-clock rate of the GEMM.
    pub gemm: f64,
    /// Best wall-clock rate of the peak loop on the same (all rayon) threads.
    pub peak: f64,
    /// The GEMM's multiply-adds per CPU-second of all its threads (mean over the rounds).
    pub gemm_per_cpu: Option<f64>,
    /// Rayon threads of both.
    pub threads: usize,
}

impl Comparison {
    /// GEMM rate / peak rate, wall-clock.
    pub fn ratio(&self) -> f64 {
        self.gemm / self.peak
    }
}

/// The fast GEMM `a × b` (`spec`, null C) against `peak` on the same (all rayon) threads,
/// alternating `rounds` times after a warm-up run, the loop run about as long as one GEMM
/// (at least [`MIN_ITERS`] iterations).
pub fn compare(
    spec: &MatmulSpec,
    a: &ElementMatrix,
    b: &ElementMatrix,
    peak: PeakLoop,
    rounds: usize,
) -> Result<Comparison, SimError> {
    let macs = (a.rows() * a.cols() * b.cols()) as f64;
    let mut err = None;
    let mut run = || match matmul_fast(spec, a, b, None) {
        Ok(d) => {
            black_box(d);
            macs
        }
        Err(e) => {
            err = Some(e);
            0.0
        }
    };
    let (first, _) = rates(1, &mut run);
    let (probe, _) = rates(1, &mut || peak.run(MIN_ITERS, true));
    if first > 0.0 && probe > 0.0 {
        let gemm_secs = macs / first / 1e9;
        let iter_secs = peak.run(1, true) / probe / 1e9;
        let iters = ((gemm_secs / iter_secs) as u64).max(MIN_ITERS);
        let (mut gemm, mut best, mut cpu) = (0f64, 0f64, (0f64, 0usize));
        for _ in 0..rounds.max(1) {
            let (w, c) = rates(1, &mut run);
            gemm = gemm.max(w);
            if let Some(c) = c {
                cpu = (cpu.0 + c, cpu.1 + 1);
            }
            best = best.max(rates(1, &mut || peak.run(iters, true)).0);
        }
        if let Some(e) = err {
            return Err(e);
        }
        return Ok(Comparison {
            gemm,
            peak: best,
            gemm_per_cpu: (cpu.1 > 0).then(|| cpu.0 / cpu.1 as f64),
            threads: rayon::current_num_threads(),
        });
    }
    match err {
        Some(e) => Err(e),
        None => Err(SimError::Unsupported(format!(
            "the {} peak loop needs x86-64 AVX-512{}",
            peak.name(),
            if peak == PeakLoop::Vnni { " VNNI" } else { "F" }
        ))),
    }
}
