//! Stores each vendored grammar file (`grammar/*.json`) in the binary form the grammar table is
//! built from at run time (`src/grammar/source.rs` says why): `$OUT_DIR/<file>.postcard`.
//!
//! A grammar file that does not read is a build defect, so it fails the build with the file's
//! name and serde's message.

#[path = "src/grammar/source.rs"]
mod source;

use serde::Deserialize;
use std::path::Path;

fn main() {
    let dir = Path::new("grammar");
    println!("cargo::rerun-if-changed=grammar");
    println!("cargo::rerun-if-changed=src/grammar/source.rs");
    let out = std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR for build scripts");
    let entries = std::fs::read_dir(dir).expect("the grammar directory reads");
    for entry in entries {
        let path = entry.expect("the grammar directory lists").path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let name = path.file_name().expect("a file name").to_string_lossy();
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        // Through a `Value`, whose strings are unescaped, so the types can borrow every one (an
        // operand name of the core grammar has `\n` escapes).
        let malformed =
            |e: serde_json::Error| -> ! { panic!("vendored grammar {name} is malformed: {e}") };
        let value: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|e| malformed(e));
        let grammar = source::GrammarSource::deserialize(&value).unwrap_or_else(|e| malformed(e));
        let bytes = postcard::to_allocvec(&grammar)
            .unwrap_or_else(|e| panic!("vendored grammar {name} does not store: {e}"));
        let target = Path::new(&out).join(format!("{name}.postcard"));
        std::fs::write(&target, bytes).unwrap_or_else(|e| panic!("{}: {e}", target.display()));
    }
}
