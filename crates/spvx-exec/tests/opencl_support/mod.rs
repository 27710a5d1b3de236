//! Helpers of the OpenCL kernel tests: load a committed clang + llvm-spirv module from
//! `tests/corpus/opencl/`, bind arguments, run, read results.
#![allow(dead_code)]

use spvx_exec::resources::KernelArg;
use spvx_exec::{CompileOptions, CompiledModule, Resources, RunConfig, RunReport};

/// Compiles kernel `entry` of `tests/corpus/opencl/{file}`.
pub fn kernel(file: &str, entry: &str) -> CompiledModule {
    let path = format!("{}/tests/corpus/opencl/{file}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    CompiledModule::from_bytes(&bytes, entry, &CompileOptions::default())
        .unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// Runs `m` over `groups` with `args` (argument i = args[i]) and an optional local size.
pub fn run(
    m: &CompiledModule,
    groups: [u32; 3],
    local: Option<[u32; 3]>,
    args: Vec<KernelArg>,
) -> (Resources, RunReport) {
    let mut res = Resources::new();
    for (i, a) in args.into_iter().enumerate() {
        res.set_arg(i as u32, a);
    }
    res.local_size = local;
    let before = res.clone();
    let cfg = RunConfig {
        strict: true,
        ..RunConfig::default()
    };
    let report = m
        .run(&mut res, groups, &cfg)
        .unwrap_or_else(|e| panic!("run failed: {e}"));
    // The same run without strict mode, on the JIT where the kernel allows it: the same
    // bytes (a strict run that succeeded met no event, so the JIT must not fall back).
    let mut again = before;
    let jit = m
        .with_jit_always()
        .run(&mut again, groups, &RunConfig::default())
        .unwrap_or_else(|e| panic!("JIT run failed: {e}"));
    assert!(
        again == res,
        "the JIT's outputs differ from the interpreter's"
    );
    assert!(
        !matches!(jit.jit, spvx_exec::JitUse::FellBack(_)),
        "the JIT fell back: {:?}",
        jit.jit
    );
    (res, report)
}

pub fn bytes_i32(v: &[i32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
pub fn bytes_u32(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
pub fn bytes_f32(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
pub fn i32s(b: &[u8]) -> Vec<i32> {
    b.chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}
pub fn u32s(b: &[u8]) -> Vec<u32> {
    i32s(b).into_iter().map(|x| x as u32).collect()
}
pub fn u64s(b: &[u8]) -> Vec<u64> {
    b.chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap_or([0; 8])))
        .collect()
}
pub fn f32s(b: &[u8]) -> Vec<f32> {
    u32s(b).into_iter().map(f32::from_bits).collect()
}
/// Buffer argument `i` after a run.
pub fn out(res: &Resources, i: u32) -> &[u8] {
    res.arg_buffer(i).unwrap_or(&[])
}
/// A deterministic pseudo-random sequence (SplitMix64) for test inputs.
pub fn splitmix(seed: u64, n: usize) -> Vec<u64> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        })
        .collect()
}
