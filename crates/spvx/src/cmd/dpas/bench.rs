//! `spvx dpas matmul --bench`: the fast GEMM on generated SIZE³ matrices side by side with the
//! machine's peak loop (`spvx_dpas::gemm::peak`), printed as rates and ratios. The rates are
//! measurements of this machine at this moment; the output's form is what the tests check.

use crate::cmd::CmdResult;
use spvx_dpas::Precision;
use spvx_dpas::gemm::peak::{CHAINS, PeakLoop, compare, measure_peak};
use spvx_dpas::matrix::{ElementMatrix, MatmulSpec};
use std::process::ExitCode;

/// Deterministic patterns for an n × n matrix of `p`: integers spread over the precision's
/// range; bf/hf/tf32 normal values of magnitude 1/4 to 4 with random mantissas.
fn operand(name: &'static str, n: usize, p: Precision, seed: u64) -> Result<ElementMatrix, String> {
    let mut x = seed | 1;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let bits: Vec<u32> = match p {
        _ if p.is_integer() => {
            let mask = (1u64 << p.bits()) - 1;
            (0..n * n).map(|_| (next() & mask) as u32).collect()
        }
        // sign | exponent (bias − 2 ..= bias + 2) | mantissa, per format.
        Precision::Bf16 => (0..n * n)
            .map(|_| {
                let r = next();
                ((r & 1) << 15 | (125 + r % 5) << 7 | (r >> 8) & 0x7f) as u32
            })
            .collect(),
        Precision::Fp16 => (0..n * n)
            .map(|_| {
                let r = next();
                ((r & 1) << 15 | (13 + r % 5) << 10 | (r >> 8) & 0x3ff) as u32
            })
            .collect(),
        Precision::Tf32 => (0..n * n)
            .map(|_| {
                let r = next();
                ((r & 1) << 31 | (125 + r % 5) << 23 | (r >> 8) & 0x7f_e000) as u32
            })
            .collect(),
        _ => {
            return Err(format!(
                "error: --bench supports integer, bf, hf and tf32 types, not {p}"
            ));
        }
    };
    ElementMatrix::from_bits(name, n, n, p, bits).map_err(|e| format!("error: {e}"))
}

pub(super) fn bench(spec: &MatmulSpec, size: usize, rounds: usize) -> CmdResult {
    if size == 0 {
        return Err("error: --size must be at least 1".into());
    }
    let a = operand("A", size, spec.a, 1)?;
    let b = operand("B", size, spec.b, 2)?;
    let kind = PeakLoop::for_spec(spec);
    if !kind.is_available() {
        return Err(format!(
            "error: --bench compares with the {} peak loop, which needs x86-64 AVX-512{}",
            kind.name(),
            if kind == PeakLoop::Vnni { " VNNI" } else { "F" }
        ));
    }
    let peak = measure_peak(kind, 10);
    let c = compare(spec, &a, &b, kind, rounds).map_err(|e| format!("error: {e}"))?;
    let what = format!(
        "{} × {} → {}, {size} × {size} × {size}, {}",
        spec.a, spec.b, spec.dst, spec.platform
    );
    println!(
        "fast GEMM ({what}), {} threads: {:.1} GMAC/s (best of {rounds})",
        c.threads, c.gemm
    );
    println!(
        "peak: {} loop ({CHAINS} independent accumulators per thread), {} threads: {:.1} GMAC/s (best of {rounds}); 1 thread: {:.1} GMAC/s",
        kind.name(),
        c.threads,
        c.peak,
        peak.one_thread
    );
    println!("ratio: {:.2}", c.ratio());
    match (c.gemm_per_cpu, peak.per_cpu) {
        (Some(g), Some(p)) => println!(
            "per CPU-second: GEMM {g:.1} GMAC/s, {} loop on 1 thread {p:.1} GMAC/s, ratio {:.2}",
            kind.name(),
            g / p
        ),
        _ => println!("per CPU-second: no CPU clock on this system"),
    }
    Ok(ExitCode::SUCCESS)
}
