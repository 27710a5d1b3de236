//! Replays the saved fuzz findings and seeds of the spvx-num fuzz targets (`fuzz/`) through the
//! same check functions the targets call (`fuzz/checks/num.rs`), which compare the library with
//! the independent references `float_ref` and `fixed_ref` (rug). Inputs:
//! `tests/regressions/<target>/`.

mod fixed_ref;
mod float_ref;
#[path = "../../../fuzz/checks/num.rs"]
mod num;
#[path = "../../../fuzz/checks/replay.rs"]
mod replay;

use std::path::Path;

fn dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/regressions"))
}

#[test]
fn num_float_regressions() {
    replay::replay(dir(), "num_float", num::num_float);
}

#[test]
fn num_fixed_regressions() {
    replay::replay(dir(), "num_fixed", num::num_fixed);
}
