//! The scheduler and the integer lane loops: bench/branchy_opt.spv (bounded Collatz walks,
//! spirv-opt output: SSA values, no memory traffic but one load and one store per invocation)
//! over 4096 invocations on one thread, with divergent inputs (each lane its own trip count
//! and branch sides) and with uniform ones (every lane the same value: every branch uniform).
//! The difference between the two is the cost of divergence.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use spvx_exec::{CompileOptions, CompiledModule, Resources, RunConfig};

fn branchy(c: &mut Criterion) {
    let invocations = 4096usize;
    let module = CompiledModule::from_bytes(
        include_bytes!("../../../bench/branchy_opt.spv"),
        "main",
        &CompileOptions::default(),
    )
    .expect("branchy_opt compiles");
    let divergent: Vec<u32> = (0..invocations as u32)
        .map(|i| i.wrapping_mul(0x9e37_79b9) ^ (i >> 3))
        .collect();
    // 97 % 100000 + 1 = 98: 25 Collatz steps, the same in every lane.
    let uniform = vec![97u32; invocations];
    let cfg = RunConfig {
        threads: Some(1),
        ..RunConfig::default()
    };
    let mut g = c.benchmark_group("branchy_opt_4096");
    g.throughput(Throughput::Elements(invocations as u64));
    g.sample_size(10);
    for (name, input) in [("divergent", &divergent), ("uniform", &uniform)] {
        let mut res = Resources::new();
        res.set_words(0, 0, input);
        res.set_words(0, 1, &vec![0; invocations]);
        g.bench_function(name, |bench| {
            bench.iter(|| {
                module
                    .run(&mut res, [(invocations / 64) as u32, 1, 1], &cfg)
                    .expect("runs")
            })
        });
    }
    g.finish();
}

criterion_group!(benches, branchy);
criterion_main!(benches);
