//! Fingerprints what the module generators make of saved inputs, so that a change to the
//! generators can be shown not to change any corpus: `cargo run --release --example
//! gen_fingerprint -- DIR... > fp.txt` from `fuzz/`, before and after the change, then `diff`.
//!
//! For every file below the directories (sorted by path) and every generator entry, one line:
//! `path entry words-hash interface-hash`, each hash an FNV-1a of the module's bytes and of
//! the interface the generator returns (`Debug` of its shape), or `none` when the generator
//! gives no module (`short` when the input is too short for the target). The entries: the
//! four the fuzz targets use, on the bytes they give the generator (`val_gen`, `exec`,
//! `exec_kernel`, `exec_tensor`), then each generator in each of its modes on the whole file
//! (`typed`, `chaos`, `racefree`, `kernel`, `tensor`, `tensor_racefree`).

use spvx_fuzz::generator::{Mode, generate, generate_mode};
use spvx_fuzz::{gen_kernel, gen_tensor};
use spvx_spirv::module::Module;
use std::fmt::Debug;
use std::path::{Path, PathBuf};

/// FNV-1a over `bytes`.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

/// The two hashes of a generator's result.
fn fingerprint(r: Option<(Module, impl Debug)>) -> String {
    match r {
        Some((m, shape)) => {
            let bytes = spvx_spirv::binary::to_bytes(&m.header, &m.to_instructions());
            let shape = format!("{shape:?}");
            format!("{:016x} {:016x}", fnv(&bytes), fnv(shape.as_bytes()))
        }
        None => "none".to_string(),
    }
}

/// Every file below `dir`.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else if p.is_file() {
            out.push(p);
        }
    }
}

/// The entries and their fingerprints for one input, in the order printed.
fn entries(data: &[u8]) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    // The fuzz targets' entries (see checks/val.rs and checks/exec*.rs).
    out.push((
        "val_gen",
        match data.split_first() {
            Some((&mode, rest)) => fingerprint(generate(rest, mode & 1 == 1)),
            None => "short".to_string(),
        },
    ));
    let engine = |f: &dyn Fn(&[u8]) -> String| match data.len() {
        0..8 => "short".to_string(),
        _ => f(data),
    };
    out.push((
        "exec",
        engine(&|d| {
            let mode = if d[7] & 3 != 0 {
                Mode::RaceFree
            } else {
                Mode::Typed
            };
            fingerprint(generate_mode(&d[8..], mode))
        }),
    ));
    out.push((
        "exec_kernel",
        engine(&|d| fingerprint(gen_kernel::generate(&d[8..]))),
    ));
    out.push((
        "exec_tensor",
        engine(&|d| fingerprint(gen_tensor::generate(&d[8..], (d[1] >> 2) & 3 != 0))),
    ));
    // Every generator in every mode on the whole input.
    for (name, mode) in [
        ("typed", Mode::Typed),
        ("chaos", Mode::Chaos),
        ("racefree", Mode::RaceFree),
    ] {
        out.push((name, fingerprint(generate_mode(data, mode))));
    }
    out.push(("kernel", fingerprint(gen_kernel::generate(data))));
    out.push(("tensor", fingerprint(gen_tensor::generate(data, false))));
    let racefree = gen_tensor::generate(data, true);
    out.push(("tensor_racefree", fingerprint(racefree)));
    out
}

fn main() {
    let mut all = Vec::new();
    for dir in std::env::args().skip(1) {
        files(Path::new(&dir), &mut all);
    }
    all.sort();
    for path in &all {
        let Ok(data) = std::fs::read(path) else {
            continue;
        };
        for (entry, fp) in entries(&data) {
            println!("{} {entry} {fp}", path.display());
        }
    }
}
