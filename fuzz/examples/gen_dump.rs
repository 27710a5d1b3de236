//! Writes generated modules for a differential check against spirv-val:
//! `cargo run --release --example gen_dump -- DIR N [chaos|racefree]` writes DIR/gNNNN.spv and prints,
//! per module, its name and spvx-val's verdict (`valid` or the first error).

mod common;

use common::Lcg;
use spvx_fuzz::generator::{Mode, generate_mode};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = args.get(1).cloned().unwrap_or_else(|| "gen".into());
    let n: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(100);
    let chaos = args.get(3).is_some_and(|s| s == "chaos");
    let mode = match args.get(3).map(String::as_str) {
        Some("chaos") => Mode::Chaos,
        Some("racefree") => Mode::RaceFree,
        _ => Mode::Typed,
    };
    let _ = std::fs::create_dir_all(&dir);
    let mut inputs = Lcg(0x0bad_5eed_u64 ^ (chaos as u64));
    for k in 0..n {
        let data = inputs.input(64);
        let Some((m, _)) = generate_mode(&data, mode) else {
            continue;
        };
        let insts = m.to_instructions();
        let bytes = spvx_spirv::binary::to_bytes(&m.header, &insts);
        let name = format!("{dir}/g{k:04}.spv");
        if std::fs::write(&name, bytes).is_err() {
            continue;
        }
        let errs = spvx_val::errors(&m.header, &insts, &Default::default());
        match errs.first() {
            None => println!("{name}\tvalid"),
            Some(e) => println!("{name}\t{e}"),
        }
    }
}
