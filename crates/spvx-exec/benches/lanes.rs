//! The JIT's vector lanes (`CompiledModule::with_jit_vector_lanes`: four invocations per
//! `i32x4`, masks for divergent control flow) against the scalar JIT (one invocation at a
//! time), side by side on one thread: bench/branchy.spv and bench/branchy_opt.spv (divergent
//! Collatz walks, glslang and spirv-opt output) and bench/vadd.spv (a straight-line load, add
//! and store). The vector lanes are opt-in because they measured no faster; this is the
//! measurement to repeat when they change.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use spvx_exec::{CompileOptions, CompiledModule, JitUse, Resources, RunConfig};

fn compile(bytes: &[u8], what: &str) -> CompiledModule {
    CompiledModule::from_bytes(bytes, "main", &CompileOptions::default())
        .unwrap_or_else(|e| panic!("{what} compiles: {e}"))
}

fn lanes(c: &mut Criterion) {
    let invocations = 16384usize;
    let cfg = RunConfig {
        threads: Some(1),
        ..RunConfig::default()
    };
    let divergent: Vec<u32> = (0..invocations as u32)
        .map(|i| i.wrapping_mul(0x9e37_79b9) ^ (i >> 3))
        .collect();
    // (name, module, buffers, workgroup size)
    let kernels: [(&str, &[u8], u32, usize); 3] = [
        (
            "branchy",
            include_bytes!("../../../bench/branchy.spv"),
            2,
            64,
        ),
        (
            "branchy_opt",
            include_bytes!("../../../bench/branchy_opt.spv"),
            2,
            64,
        ),
        ("vadd", include_bytes!("../../../bench/vadd.spv"), 3, 256),
    ];
    for (name, bytes, buffers, local) in kernels {
        let scalar = compile(bytes, name);
        let vector = scalar.with_jit_vector_lanes();
        let mut g = c.benchmark_group(format!("lanes_{name}_{invocations}"));
        g.throughput(Throughput::Elements(invocations as u64));
        g.sample_size(20);
        for (engine, module) in [("scalar_jit", &scalar), ("vector_lanes", &vector)] {
            let mut res = Resources::new();
            for binding in 0..buffers {
                res.set_words(0, binding, &divergent);
            }
            let groups = [(invocations / local) as u32, 1, 1];
            // A bench of a path that did not run would measure something else.
            let report = module.run(&mut res, groups, &cfg).expect("runs");
            assert_eq!(report.jit, JitUse::Ran, "{name} on the {engine}");
            g.bench_function(engine, |bench| {
                bench.iter(|| module.run(&mut res, groups, &cfg).expect("runs"))
            });
        }
        g.finish();
    }
}

criterion_group!(benches, lanes);
criterion_main!(benches);
