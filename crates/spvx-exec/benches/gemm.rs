//! int8 GEMM with OpSDotAccSat on packed words (benches/gemm.spvasm), M×N×K = 128×128×256 on
//! the engine: throughput in MACs (divide by K for invocations). Both the parallel dispatch and
//! a single-threaded one are measured.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use spvx_exec::{CompileOptions, CompiledModule, Resources, RunConfig};
use spvx_spirv::asm::{AsmOptions, assemble};

fn gemm(c: &mut Criterion) {
    let (m, n, k) = (128usize, 128usize, 256usize);
    let k4 = k / 4;
    let asm = assemble(include_str!("gemm.spvasm"), &AsmOptions::default())
        .expect("gemm.spvasm assembles");
    let module = CompiledModule::from_bytes(&asm.bytes(), "main", &CompileOptions::default())
        .expect("gemm compiles");
    let a: Vec<u32> = (0..m * k4)
        .map(|i| (i as u32).wrapping_mul(0x9e37_79b9))
        .collect();
    let b: Vec<u32> = (0..n * k4)
        .map(|i| (i as u32).wrapping_mul(0x85eb_ca6b))
        .collect();
    let mut res = Resources::new();
    res.set_words(0, 0, &a);
    res.set_words(0, 1, &b);
    res.set_words(0, 2, &vec![0; m * n]);
    res.push_constants = [n as u32, k4 as u32]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let mut g = c.benchmark_group("gemm_int8_128x128x256");
    g.throughput(Throughput::Elements((m * n * k) as u64));
    g.sample_size(10);
    for (name, threads) in [("parallel", None), ("single_thread", Some(1))] {
        let cfg = RunConfig {
            threads,
            ..RunConfig::default()
        };
        g.bench_function(name, |bench| {
            bench.iter(|| {
                module
                    .run(&mut res, [(n / 64) as u32, m as u32, 1], &cfg)
                    .expect("runs")
            })
        });
    }
    g.finish();
}

criterion_group!(benches, gemm);
criterion_main!(benches);
