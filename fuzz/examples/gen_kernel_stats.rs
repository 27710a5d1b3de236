//! How well the Kernel-model generator (`checks/gen_kernel.rs`) does: generates N modules from
//! pseudo-random bytes and prints how many build, validate, compile and run (Ok, or which
//! typed error), with the most common validation and compile errors and how the JIT took
//! each run. `cargo run --release --example gen_kernel_stats -- [N] [DUMP_DIR [all]]` from
//! `fuzz/` (DUMP_DIR: write the modules that fail to validate or compile there, as `.spv`;
//! `all`: every module). `... -- N check DIR`: run the `exec_kernel` check itself on N
//! pseudo-random inputs instead, and write those it fails on to DIR. `... -- N seeds DIR`:
//! write those of N inputs whose module compiles and runs to the end (at subgroup size 1) to
//! DIR as `seed-<hash>` (a starting corpus, or regression seeds).

mod common;

use common::{Lcg, Tally, count_arg, jit_use, stats_config, validates};
use spvx_exec::resources::KernelArg;
use spvx_exec::{CompileOptions, CompiledModule, ExecError, Resources, RunConfig, RunReport};
use spvx_fuzz::exec_kernel::exec_kernel;
use spvx_fuzz::gen_kernel::{Param, Shape, generate};

fn main() {
    let n = count_arg();
    let dump = std::env::args().nth(2);
    if dump.as_deref() == Some("check") {
        let dir = std::env::args().nth(3).unwrap_or_else(|| ".".into());
        return check(n, &dir);
    }
    if dump.as_deref() == Some("seeds") {
        let dir = std::env::args().nth(3).unwrap_or_else(|| ".".into());
        return seeds(n, &dir);
    }
    let mut inputs = Lcg(0x1234_5678_9abc_def0);
    let (mut built, mut valid, mut compiled, mut ran) = (0, 0, 0, 0);
    let mut errors = Tally::default();
    let mut outcomes = Tally::default();
    let mut jit = Tally::default();
    for k in 0..n {
        let data = inputs.input(64);
        let Some((m, shape)) = generate(&data) else {
            continue;
        };
        built += 1;
        let save = |what: &str| {
            if let Some(d) = &dump {
                let words = m.to_bytes();
                let _ = std::fs::write(format!("{d}/{what}-{k}.spv"), words);
            }
        };
        if std::env::args().nth(3).as_deref() == Some("all") {
            save("module");
        }
        if !validates(&m, &mut errors) {
            save("invalid");
            continue;
        }
        valid += 1;
        let c = match CompiledModule::from_module(&m, "main", &CompileOptions::default()) {
            Ok(c) => c,
            Err(e) => {
                errors.add(&format!("compile: {e}"));
                save("compile");
                continue;
            }
        };
        compiled += 1;
        match run(&c, &shape, shape.declared) {
            Ok(r) => {
                ran += 1;
                outcomes.add("ok");
                jit.add(&jit_use(&r.jit));
            }
            Err(e) => outcomes.add(&format!("error: {e}")),
        }
    }
    println!("{n} tried, {built} built, {valid} valid, {compiled} compiled, {ran} ran to the end");
    errors.print("validation and compile errors");
    outcomes.print("run outcomes");
    jit.print("JIT");
}

/// Runs the module on fixed arguments (buffers of 64 bytes, `n` = 5, 64 bytes of `__local`)
/// at subgroup size 1, two workgroups, giving the local size unless `declared` leaves it to
/// the module.
fn run(c: &CompiledModule, shape: &Shape, declared: bool) -> Result<RunReport, ExecError> {
    let mut res = Resources::new();
    for (i, p) in shape.args.iter().enumerate() {
        let arg = match p {
            Param::A | Param::B | Param::Constant => KernelArg::Buffer(vec![7; 64]),
            Param::N => KernelArg::Scalar(vec![5, 0, 0, 0]),
            Param::Local => KernelArg::Local(64),
        };
        res.set_arg(i as u32, arg);
    }
    if !declared {
        res.set_local_size(shape.local);
    }
    let cfg = RunConfig {
        subgroup_size: 1,
        ..stats_config()
    };
    c.run(&mut res, [2, 1, 1], &cfg)
}

/// Pseudo-random input `k` (8 bytes of run settings, then the generator's bytes).
fn input(k: u64) -> Vec<u8> {
    Lcg(k.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x1234_5678).input(72)
}

/// Runs the `exec_kernel` check on `n` inputs; writes the failing ones to `dir`.
fn check(n: u64, dir: &str) {
    let mut failed = 0;
    for k in 0..n {
        let data = input(k);
        if std::panic::catch_unwind(|| exec_kernel(&data)).is_err() {
            failed += 1;
            let _ = std::fs::write(format!("{dir}/fail-{k}"), &data);
        }
    }
    println!("{n} inputs, {failed} failed");
}

/// Writes the inputs among the first `n` whose module compiles and runs to the end.
fn seeds(n: u64, dir: &str) {
    let mut kept = 0;
    for k in 0..n {
        let mut data = input(k);
        data[0] = 0; // subgroup size 1: the engines are compared
        data[1] = 0; // not strict
        let Some((m, shape)) = generate(&data[8..]) else {
            continue;
        };
        let Ok(c) = CompiledModule::from_module(&m, "main", &CompileOptions::default()) else {
            continue;
        };
        if run(&c, &shape, false).is_ok() {
            // FNV-1a, as a short stable name.
            let hash = data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
                (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
            });
            let _ = std::fs::write(format!("{dir}/seed-{hash:016x}"), &data);
            kept += 1;
        }
    }
    println!("{kept} of {n} inputs kept");
}
