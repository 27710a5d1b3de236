//! The JIT's vector lanes (`CompiledModule::with_jit_vector_lanes`: four invocations per
//! `i32x4`, masks for divergent control flow) against the scalar JIT (one invocation at a
//! time), side by side on one thread: bench/branchy.spv and bench/branchy_opt.spv (divergent
//! Collatz walks, glslang and spirv-opt output) and bench/vadd.spv (a straight-line load, add
//! and store), and bench/mixdot_reduce.spvasm (the VALVE fp16 dot reduction, 1024 invocations
//! of 256 pair dots each; its buffers random f16 words). The vector lanes are the default only
//! for loops of arithmetic (`jit::simd::analysis::preferred`: branchy, not vadd or the
//! reduction); this is the measurement to repeat when they or that choice change.

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
        let scalar = compile(bytes, name).with_scalar_jit();
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

/// The VALVE fp16 dot reduction on both paths, one thread.
fn mixdot(c: &mut Criterion) {
    let text = include_str!("../../../bench/mixdot_reduce.spvasm");
    let bytes = spvx_spirv::asm::assemble(text, &spvx_spirv::asm::AsmOptions::default())
        .expect("the reduction assembles")
        .bytes();
    let scalar = compile(&bytes, "mixdot_reduce").with_scalar_jit();
    let vector = scalar.with_jit_vector_lanes();
    let cfg = RunConfig {
        threads: Some(1),
        ..RunConfig::default()
    };
    // Pairs of random f16 values of either sign with magnitudes in [0.25, 2) (exponent fields
    // 13–15), as the benchmark set's data in [−2, 2] mostly are: every sum exact in f64, so
    // every dot takes the inline path.
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut half = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let sign = (x >> 20) as u32 & 0x8000;
        let exponent = 13 + (x >> 32) as u32 % 3;
        sign | exponent << 10 | (x as u32 & 0x3ff)
    };
    let mut word = || half() | half() << 16;
    let a: Vec<u32> = (0..1024 * 256).map(|_| word()).collect();
    let b: Vec<u32> = (0..256).map(|_| word()).collect();
    let mut g = c.benchmark_group("lanes_mixdot_f16_reduce_1024x512");
    g.throughput(Throughput::Elements(1024 * 512));
    g.sample_size(20);
    for (engine, module) in [("scalar_jit", &scalar), ("vector_lanes", &vector)] {
        let mut res = Resources::new();
        res.set_words(0, 0, &a);
        res.set_words(0, 1, &b);
        res.set_words(0, 2, &[0; 1024]);
        let report = module.run(&mut res, [16, 1, 1], &cfg).expect("runs");
        assert_eq!(report.jit, JitUse::Ran, "mixdot_reduce on the {engine}");
        g.bench_function(engine, |bench| {
            bench.iter(|| module.run(&mut res, [16, 1, 1], &cfg).expect("runs"))
        });
    }
    g.finish();
}

criterion_group!(benches, lanes, mixdot);
criterion_main!(benches);
