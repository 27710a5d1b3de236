//! How well the Kernel-model generator (`checks/gen_kernel.rs`) does: generates N modules from
//! pseudo-random bytes and prints how many build, validate, compile and run (Ok, or which
//! typed error), with the most common validation and compile errors and how the JIT took
//! each run. `cargo run --release --example gen_kernel_stats -- [N] [DUMP_DIR [all]]` from
//! `fuzz/` (DUMP_DIR: write the modules that fail to validate or compile there, as `.spv`;
//! `all`: every module). `... -- N check DIR`: run the `exec_kernel` check itself on N
//! pseudo-random inputs instead, and write those it fails on to DIR. `... -- N seeds DIR`:
//! write those of N inputs whose module compiles and runs to the end (at subgroup size 1) to
//! DIR as `seed-<hash>` (a starting corpus, or regression seeds).

use spvx_exec::resources::KernelArg;
use spvx_exec::{CompileOptions, CompiledModule, JitUse, Resources, RunConfig};
use spvx_fuzz::exec_kernel::exec_kernel;
use spvx_fuzz::gen_kernel::{Param, generate};
use std::collections::BTreeMap;

/// Counts `s` (digits dropped, so that alike messages add up) in `m`.
fn count(m: &mut BTreeMap<String, u32>, s: &str) {
    let s: String = s
        .chars()
        .filter(|c| !c.is_ascii_digit())
        .take(120)
        .collect();
    *m.entry(s).or_default() += 1;
}

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(300);
    let dump = std::env::args().nth(2);
    if dump.as_deref() == Some("check") {
        let dir = std::env::args().nth(3).unwrap_or_else(|| ".".into());
        return check(n, &dir);
    }
    if dump.as_deref() == Some("seeds") {
        let dir = std::env::args().nth(3).unwrap_or_else(|| ".".into());
        return seeds(n, &dir);
    }
    let mut state = 0x1234_5678_9abc_def0u64;
    let mut next = || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as u8
    };
    let (mut built, mut valid, mut compiled, mut ran) = (0, 0, 0, 0);
    let mut errors: BTreeMap<String, u32> = BTreeMap::new();
    let mut outcomes: BTreeMap<String, u32> = BTreeMap::new();
    let mut jit: BTreeMap<String, u32> = BTreeMap::new();
    for k in 0..n {
        let len = 64 + next() as usize * 4;
        let data: Vec<u8> = (0..len).map(|_| next()).collect();
        let Some((m, shape)) = generate(&data) else {
            continue;
        };
        built += 1;
        let insts = m.to_instructions();
        let save = |what: &str| {
            if let Some(d) = &dump {
                let words = m.to_bytes();
                let _ = std::fs::write(format!("{d}/{what}-{k}.spv"), words);
            }
        };
        if std::env::args().nth(3).as_deref() == Some("all") {
            save("module");
        }
        let errs = spvx_val::validate(&m.header, &insts, &Default::default());
        if let Some(e) = errs.first() {
            count(&mut errors, &e.to_string());
            save("invalid");
            continue;
        }
        valid += 1;
        let c = match CompiledModule::from_module(&m, "main", &CompileOptions::default()) {
            Ok(c) => c,
            Err(e) => {
                count(&mut errors, &format!("compile: {e}"));
                save("compile");
                continue;
            }
        };
        compiled += 1;
        let mut res = Resources::new();
        for (i, p) in shape.args.iter().enumerate() {
            let arg = match p {
                Param::A | Param::B | Param::Constant => KernelArg::Buffer(vec![7; 64]),
                Param::N => KernelArg::Scalar(vec![5, 0, 0, 0]),
                Param::Local => KernelArg::Local(64),
            };
            res.set_arg(i as u32, arg);
        }
        if !shape.declared {
            res.set_local_size(shape.local);
        }
        let cfg = RunConfig {
            step_limit: 20_000,
            memory_limit: 1 << 20,
            threads: Some(1),
            subgroup_size: 1,
            ..RunConfig::default()
        };
        match c.run(&mut res, [2, 1, 1], &cfg) {
            Ok(r) => {
                ran += 1;
                count(&mut outcomes, "ok");
                let why = match r.jit {
                    JitUse::Off => "off".to_string(),
                    JitUse::Ran => "ran".to_string(),
                    JitUse::Unsupported(w) => format!("unsupported: {w}"),
                    JitUse::FellBack(w) => format!("fell back: {w}"),
                };
                count(&mut jit, &why);
            }
            Err(e) => count(&mut outcomes, &format!("error: {e}")),
        }
    }
    println!("{n} tried, {built} built, {valid} valid, {compiled} compiled, {ran} ran to the end");
    let show = |title: &str, m: BTreeMap<String, u32>| {
        println!("{title}:");
        let mut v: Vec<_> = m.into_iter().collect();
        v.sort_by_key(|e| std::cmp::Reverse(e.1));
        for (e, c) in v.iter().take(15) {
            println!("{c:5}  {e}");
        }
    };
    show("validation and compile errors", errors);
    show("run outcomes", outcomes);
    show("JIT", jit);
}

/// Pseudo-random input `k` (8 bytes of run settings, then the generator's bytes).
fn input(k: u64) -> Vec<u8> {
    let mut state = k.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x1234_5678;
    let mut next = || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as u8
    };
    let len = 72 + next() as usize * 4;
    (0..len).map(|_| next()).collect()
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
        let mut res = Resources::new();
        for (i, p) in shape.args.iter().enumerate() {
            let arg = match p {
                Param::A | Param::B | Param::Constant => KernelArg::Buffer(vec![7; 64]),
                Param::N => KernelArg::Scalar(vec![5, 0, 0, 0]),
                Param::Local => KernelArg::Local(64),
            };
            res.set_arg(i as u32, arg);
        }
        res.set_local_size(shape.local);
        let cfg = RunConfig {
            step_limit: 20_000,
            memory_limit: 1 << 20,
            threads: Some(1),
            subgroup_size: 1,
            ..RunConfig::default()
        };
        if c.run(&mut res, [2, 1, 1], &cfg).is_ok() {
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
