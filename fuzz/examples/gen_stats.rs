//! How well the module generator does: generates N modules from pseudo-random bytes and prints
//! how many build, validate, compile and run, with the most common first validation and
//! compile errors. `cargo run --release --example gen_stats -- [N] [racefree]` from `fuzz/`
//! (`racefree`: the generator's race-free mode, and how the JIT took each run).

mod common;

use common::{Lcg, Tally, count_arg, jit_use, stats_config, validates};
use spvx_exec::{CompileOptions, CompiledModule, Resources};
use spvx_fuzz::generator::{Mode, generate_mode};

fn main() {
    let n = count_arg();
    let mode = if std::env::args().nth(2).as_deref() == Some("racefree") {
        Mode::RaceFree
    } else {
        Mode::Typed
    };
    let mut inputs = Lcg(0x1234_5678_9abc_def0);
    let (mut built, mut valid, mut compiled, mut ran) = (0, 0, 0, 0);
    let (mut errors, mut jit) = (Tally::default(), Tally::default());
    for _ in 0..n {
        let data = inputs.input(64);
        let Some((m, _)) = generate_mode(&data, mode) else {
            continue;
        };
        built += 1;
        if !validates(&m, &mut errors) {
            continue;
        }
        valid += 1;
        match CompiledModule::from_module(&m, "main", &CompileOptions::default()) {
            Ok(c) => {
                compiled += 1;
                let mut res = Resources::new();
                res.set_words(0, 0, &[1, 2, 3, 4]);
                res.set_words(0, 1, &[5, 6]);
                if let Ok(r) = c.run(&mut res, [2, 1, 1], &stats_config()) {
                    ran += 1;
                    jit.add(&jit_use(&r.jit));
                }
            }
            Err(e) => errors.add(&format!("compile: {e}")),
        }
    }
    println!("{n} tried, {built} built, {valid} valid, {compiled} compiled, {ran} ran to the end");
    errors.print("validation and compile errors");
    jit.print("JIT");
}
