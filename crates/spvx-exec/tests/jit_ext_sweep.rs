//! A seeded random sweep of the engine fuzz checks (`fuzz/checks/exec.rs`,
//! `exec_tensor.rs`, `exec_kernel.rs`: generated modules with VALVE dots of every encoding,
//! fixed-point functions, integer dots, tensors read and written at random coordinates, Kernel
//! modules), each run on the interpreter, the JIT and the all-call-out JIT, which must agree
//! (`exec_common::differential`). The fuzz targets do the same with coverage guidance; this
//! sweep replays a fixed set of pseudo-random inputs in `cargo test`, so that the JIT's
//! extension instructions (`jit::ext`) meet generated programs on every test run. Inputs:
//! SplitMix64 bytes, 1,000 per check, or `SPVX_EXT_SWEEP` per check from seed `SPVX_EXT_SEED`
//! (a number; each check adds its own constant to it) for longer runs on other inputs.

#[path = "../../../fuzz/checks/exec.rs"]
mod exec;
#[path = "../../../fuzz/checks/exec_common.rs"]
mod exec_common;
#[path = "../../../fuzz/checks/exec_kernel.rs"]
mod exec_kernel;
#[path = "../../../fuzz/checks/exec_tensor.rs"]
mod exec_tensor;
#[path = "../../../fuzz/checks/gen_core.rs"]
#[allow(dead_code)]
mod gen_core;
#[path = "../../../fuzz/checks/gen_kernel.rs"]
#[allow(dead_code)]
mod gen_kernel;
#[path = "../../../fuzz/checks/gen_tensor.rs"]
#[allow(dead_code)]
mod gen_tensor;
#[path = "../../../fuzz/checks/gen.rs"]
#[allow(dead_code)]
mod generator;

mod glsl_corpus;

use glsl_corpus::Rng;

/// Runs `check` on `count` inputs of 64 to 1,088 pseudo-random bytes from `seed` (or on
/// `SPVX_EXT_SWEEP` inputs from `SPVX_EXT_SEED + seed`, when set).
fn sweep(seed: u64, count: usize, check: fn(&[u8])) {
    let number = |name: &str| std::env::var(name).ok().and_then(|n| n.parse::<u64>().ok());
    let count = number("SPVX_EXT_SWEEP").map_or(count, |n| n as usize);
    let seed = number("SPVX_EXT_SEED").map_or(seed, |s| s.wrapping_add(seed));
    let mut rng = Rng(seed);
    for _ in 0..count {
        let n = 64 + (rng.next() % 1024) as usize;
        let data: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
        check(&data);
    }
}

#[test]
fn generated_modules_agree_on_the_jit() {
    sweep(0x5ee9_0001, 1000, exec::exec);
}

#[test]
fn generated_tensor_modules_agree_on_the_jit() {
    sweep(0x5ee9_0002, 1000, exec_tensor::exec_tensor);
}

#[test]
fn generated_kernel_modules_agree_on_the_jit() {
    sweep(0x5ee9_0003, 1000, exec_kernel::exec_kernel);
}
