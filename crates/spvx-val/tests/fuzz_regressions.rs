//! Replays the saved fuzz findings and seeds of the validator fuzz targets (`fuzz/`) through the
//! same check functions the targets call (`fuzz/checks/val.rs`, with the module generator
//! `fuzz/checks/gen.rs`). Inputs: `tests/regressions/<target>/`.

#[path = "../../../fuzz/checks/gen.rs"]
#[allow(dead_code)]
mod generator;
#[path = "../../../fuzz/checks/replay.rs"]
mod replay;
#[path = "../../../fuzz/checks/val.rs"]
mod val;

use std::path::Path;

fn dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/regressions"))
}

#[test]
fn val_raw_regressions() {
    replay::replay(dir(), "val_raw", val::val_raw);
}

#[test]
fn val_gen_regressions() {
    replay::replay(dir(), "val_gen", val::val_gen);
}
