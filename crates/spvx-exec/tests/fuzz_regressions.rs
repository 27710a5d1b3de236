//! Replays the saved fuzz findings and seeds of the engine fuzz target (`fuzz/`) through the
//! same check function the target calls (`fuzz/checks/exec.rs`, with the module generator
//! `fuzz/checks/gen.rs`). Inputs: `tests/regressions/exec/`.

#[path = "../../../fuzz/checks/exec.rs"]
mod exec;
#[path = "../../../fuzz/checks/gen.rs"]
#[allow(dead_code)]
mod generator;
#[path = "../../../fuzz/checks/replay.rs"]
mod replay;

use std::path::Path;

#[test]
fn exec_regressions() {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/regressions"));
    replay::replay(dir, "exec", exec::exec);
}
