//! Replays the saved fuzz findings and seeds of the DPAS text fuzz target (`fuzz/`) through the
//! same check function the target calls (`fuzz/checks/dpas.rs`). Inputs:
//! `tests/regressions/dpas_parse/`.

#[path = "../../../fuzz/checks/dpas.rs"]
mod dpas;
#[path = "../../../fuzz/checks/replay.rs"]
mod replay;

use std::path::Path;

#[test]
fn dpas_parse_regressions() {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/regressions"));
    replay::replay(dir, "dpas_parse", dpas::dpas_parse);
}
