//! How well the module generator does: generates N modules from pseudo-random bytes and prints
//! how many build, validate, compile and run, with the most common first validation and
//! compile errors. `cargo run --release --example gen_stats -- [N] [racefree]` from `fuzz/`
//! (`racefree`: the generator's race-free mode, and how the JIT took each run).

use spvx_exec::{CompileOptions, CompiledModule, JitUse, Resources, RunConfig};
use spvx_fuzz::generator::{Mode, generate_mode};
use std::collections::BTreeMap;

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(300);
    let mode = if std::env::args().nth(2).as_deref() == Some("racefree") {
        Mode::RaceFree
    } else {
        Mode::Typed
    };
    let mut jit: BTreeMap<String, u32> = BTreeMap::new();
    let mut state = 0x1234_5678_9abc_def0u64;
    let mut next = || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as u8
    };
    let (mut built, mut valid, mut compiled, mut ran) = (0, 0, 0, 0);
    let mut errors: BTreeMap<String, u32> = BTreeMap::new();
    for _ in 0..n {
        let len = 64 + next() as usize * 4;
        let data: Vec<u8> = (0..len).map(|_| next()).collect();
        let Some((m, _)) = generate_mode(&data, mode) else {
            continue;
        };
        built += 1;
        let insts = m.to_instructions();
        let errs = spvx_val::validate(&m.header, &insts, &Default::default());
        if let Some(e) = errs.first() {
            let s = e.to_string();
            *errors.entry(s.chars().take(110).collect()).or_default() += 1;
            continue;
        }
        valid += 1;
        match CompiledModule::from_module(&m, "main", &CompileOptions::default()) {
            Ok(c) => {
                compiled += 1;
                let mut res = Resources::new();
                res.set_words(0, 0, &[1, 2, 3, 4]);
                res.set_words(0, 1, &[5, 6]);
                let cfg = RunConfig {
                    step_limit: 20_000,
                    memory_limit: 1 << 20,
                    threads: Some(1),
                    ..RunConfig::default()
                };
                if let Ok(r) = c.run(&mut res, [2, 1, 1], &cfg) {
                    ran += 1;
                    let why = match r.jit {
                        JitUse::Off => "off".to_string(),
                        JitUse::Ran => "ran".to_string(),
                        JitUse::Unsupported(w) => format!("unsupported: {w}"),
                        JitUse::FellBack(w) => format!("fell back: {w}"),
                    };
                    // (Without the counts a reason may name, so that alike reasons add up.)
                    let why: String = why.chars().filter(|c| !c.is_ascii_digit()).collect();
                    *jit.entry(why.chars().take(100).collect()).or_default() += 1;
                }
            }
            Err(e) => {
                let s = format!("compile: {e}");
                let s: String = s.chars().filter(|c| !c.is_ascii_digit()).collect();
                *errors.entry(s.chars().take(110).collect()).or_default() += 1;
            }
        }
    }
    println!("{n} tried, {built} built, {valid} valid, {compiled} compiled, {ran} ran to the end");
    let mut v: Vec<_> = errors.into_iter().collect();
    v.sort_by_key(|e| std::cmp::Reverse(e.1));
    for (e, c) in v.iter().take(15) {
        println!("{c:5}  {e}");
    }
    println!("JIT:");
    for (e, c) in &jit {
        println!("{c:5}  {e}");
    }
}
