//! Bindings a module never writes (`BindingInfo::written`, from
//! `ModuleIndex::written_variables`) on the benchmark modules, whose sources say which buffers
//! each one writes; and a run leaves such a binding's bytes as they went in while the written
//! ones come back (also with `RunConfig::copy_back_unwritten`, which copies them back
//! anyway).

use spvx_exec::{CompileOptions, CompiledModule, Resources, RunConfig};
use std::path::PathBuf;

mod support;

/// A module of `bench/`: text through spvx's assembler, else binary.
fn module(rel: &str) -> CompiledModule {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../bench")
        .join(rel);
    let m = if rel.ends_with(".spvasm") {
        let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{rel}: {e}"));
        support::compile(&text)
    } else {
        let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{rel}: {e}"));
        CompiledModule::from_bytes(&bytes, "main", &CompileOptions::default())
    };
    m.unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The bindings of `rel` that may be written, in binding order.
fn written(rel: &str) -> Vec<(u32, bool)> {
    let m = module(rel);
    let mut w: Vec<(u32, bool)> = m
        .bindings()
        .iter()
        .map(|b| (b.binding, b.written))
        .collect();
    w.sort_unstable();
    w
}

#[test]
fn the_benchmarks_inputs_are_never_written() {
    // vadd.comp: c[i] = a[i] + b[i].
    assert_eq!(written("vadd.spv"), [(0, false), (1, false), (2, true)]);
    // histogram.comp: atomicAdd into hist, data read.
    assert_eq!(written("histogram.spv"), [(0, false), (1, true)]);
    // D[i] = the dot of row i of A with B.
    assert_eq!(
        written("mixdot_reduce.spvasm"),
        [(0, false), (1, false), (2, true)]
    );
    // U[c][r] = T[r][c] + 1, through loaded tensor handles.
    assert_eq!(written("tensor_transpose.spvasm"), [(0, false), (1, true)]);
}

#[test]
fn a_run_returns_the_written_buffer_and_leaves_the_inputs() {
    let m = module("vadd.spv");
    let n = 256;
    let words =
        |f: &dyn Fn(u32) -> u32| -> Vec<u8> { (0..n).flat_map(|i| f(i).to_le_bytes()).collect() };
    let mut before = Resources::new();
    before.set_buffer(0, 0, words(&|i| i));
    before.set_buffer(0, 1, words(&|i| 1000 * i));
    before.set_buffer(0, 2, vec![0xee; 4 * n as usize]);
    for (jit, copy_back_unwritten) in [(false, false), (true, false), (true, true)] {
        let mut r = before.clone();
        let cfg = RunConfig {
            jit,
            copy_back_unwritten,
            ..RunConfig::default()
        };
        m.run(&mut r, [1, 1, 1], &cfg).expect("runs");
        assert_eq!(r.buffer(0, 0), before.buffer(0, 0));
        assert_eq!(r.buffer(0, 1), before.buffer(0, 1));
        assert_eq!(r.buffer(0, 2), Some(&words(&|i| 1001 * i)[..]), "jit {jit}");
    }
}
