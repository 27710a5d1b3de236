//! Prints the Cranelift IR and machine code the JIT makes of a module (its functions and the
//! workgroup or round loop):
//! `cargo run --release -p spvx-exec --example jit_dump -- MODULE.spv [ENTRY] [ID=VALUE ...]`
//! (specialisation constants as integers).

use spvx_exec::{CompileOptions, CompiledModule};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: jit_dump MODULE.spv [ENTRY] [ID=VALUE ...]");
        std::process::exit(2);
    };
    let entry = args
        .get(1)
        .filter(|a| !a.contains('='))
        .map_or("main", String::as_str);
    let mut opts = CompileOptions::default();
    for a in args.iter().skip(1).filter(|a| a.contains('=')) {
        let (id, v) = a.split_once('=').unwrap_or_default();
        match (id.parse(), v.parse()) {
            (Ok(id), Ok(v)) => {
                opts.spec_constants.insert(id, v);
            }
            _ => {
                eprintln!("not ID=VALUE: {a}");
                std::process::exit(2);
            }
        }
    }
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    match CompiledModule::from_bytes(&bytes, entry, &opts)
        .map_err(|e| e.to_string())
        .and_then(|m| spvx_exec::jit::dump(m.program()))
    {
        Ok(text) => {
            use std::io::Write;
            // (A closed pipe, e.g. `| head`, is not an error here.)
            let _ = std::io::stdout().lock().write_all(text.as_bytes());
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
