//! Replays the saved fuzz findings and seeds of the engine fuzz target (`fuzz/`) through the
//! same check function the target calls (`fuzz/checks/exec.rs`, with the module generator
//! `fuzz/checks/gen.rs`), and of the Kernel-model and tensor targets (`fuzz/checks/exec_kernel.rs`
//! with `gen_kernel.rs`, `fuzz/checks/exec_tensor.rs` with `gen_tensor.rs`); the checks share
//! `exec_common.rs`, the generators `gen_core.rs`. Inputs:
//! `tests/regressions/exec/`, `tests/regressions/exec_kernel/`, `tests/regressions/exec_tensor/`.

#[path = "../../../fuzz/checks/exec.rs"]
mod exec;
#[path = "../../../fuzz/checks/exec_common.rs"]
mod exec_common;
#[path = "../../../fuzz/checks/exec_kernel.rs"]
mod exec_kernel;
#[path = "../../../fuzz/checks/exec_tensor.rs"]
mod exec_tensor;
#[path = "../../../fuzz/checks/gen_core.rs"]
#[allow(dead_code)]
mod gen_core;
#[path = "../../../fuzz/checks/gen_kernel.rs"]
#[allow(dead_code)]
mod gen_kernel;
#[path = "../../../fuzz/checks/gen_tensor.rs"]
#[allow(dead_code)]
mod gen_tensor;
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

#[test]
fn exec_kernel_regressions() {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/regressions"));
    replay::replay(dir, "exec_kernel", exec_kernel::exec_kernel);
}

#[test]
fn exec_tensor_regressions() {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/regressions"));
    replay::replay(dir, "exec_tensor", exec_tensor::exec_tensor);
}
