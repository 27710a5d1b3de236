//! Every kernel of the benchmark set (`bench/set.toml`), loaded as `spvx bench` loads it, on a
//! few of its workgroups: the JIT must run it (no kernel of the set is left to the interpreter
//! for lack of JIT support; `with_jit_always`, as the engine may prefer the interpreter where
//! that runs a kernel faster, but for no other reason), and its outputs must equal a
//! single-threaded interpreter run's byte for byte, on one thread and on two.

use spvx_bench::{Manifest, load_case};
use spvx_exec::{CompiledModule, JitUse, RunConfig};
use spvx_run::RunOptions;
use std::path::Path;

#[test]
fn every_kernel_of_the_set_runs_on_the_jit_with_the_interpreters_bytes() {
    let set = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../bench/set.toml"));
    let manifest = Manifest::read(set).unwrap_or_else(|e| panic!("{e}"));
    let mut names = Vec::new();
    for entry in manifest.filtered(None) {
        let case = load_case(entry, &RunOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        // A corner of the dispatch: at most 2 x 2 x 1 workgroups.
        let groups = [case.groups[0].min(2), case.groups[1].min(2), 1];
        let run = |module: &CompiledModule, jit: bool, threads: usize| {
            let mut res = case.resources.clone();
            let cfg = RunConfig {
                jit,
                threads: Some(threads),
                ..case.config.clone()
            };
            let report = module
                .run(&mut res, groups, &cfg)
                .unwrap_or_else(|e| panic!("{}: {e}", case.name));
            (res, report)
        };
        let (reference, r) = run(&case.module, false, 1);
        assert_eq!(r.total_events, 0, "{}: the reference reports", case.name);
        // The engine's own choice: the JIT, or the interpreter where it runs the kernel faster.
        let (_, chosen) = run(&case.module, true, 1);
        match &chosen.jit {
            JitUse::Ran => {}
            JitUse::Unsupported(why) if why.contains("the interpreter runs it faster") => {}
            other => panic!("{}: {other:?}", case.name),
        }
        let jit = case.module.with_jit_always();
        for threads in [1, 2] {
            let (out, report) = run(&jit, true, threads);
            assert_eq!(report.jit, JitUse::Ran, "{} ({threads} threads)", case.name);
            assert!(
                out == reference,
                "{} ({threads} threads): {:?}",
                case.name,
                spvx_bench::runner::first_difference(&out, &reference)
            );
        }
        names.push(case.name.clone());
    }
    for k in [
        "gemm_f32_256x256x256",
        "histogram_atomics_4M",
        "mixdot_bf16_reduce_1024x512",
        "mixdot_fp8_reduce_1024x1024",
        "tensor_stencil_512x512",
        "opencl_intdot_256K",
        "fixed_sqrt_sin_4096",
        "tensor_transpose_512x512",
        "mixdot_f16_reduce_1024x512",
    ] {
        assert!(names.iter().any(|n| n == k), "{k} is in the set: {names:?}");
    }
}
