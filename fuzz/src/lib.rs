//! The checks the fuzz targets run, one module per crate under test (the files in `checks/`).
//! The same files are included by path into each crate's `tests/fuzz_regressions.rs`, which
//! replays the saved findings under `cargo test`.

#[path = "../checks/spirv.rs"]
pub mod spirv;

#[path = "../checks/dpas.rs"]
pub mod dpas;

#[path = "../checks/num.rs"]
pub mod num;

#[path = "../../crates/spvx-num/tests/float_ref/mod.rs"]
pub mod float_ref;

#[path = "../../crates/spvx-num/tests/fixed_ref/mod.rs"]
pub mod fixed_ref;

#[path = "../checks/gen_core.rs"]
pub mod gen_core;

#[path = "../checks/gen.rs"]
pub mod generator;

#[path = "../checks/val.rs"]
pub mod val;

#[path = "../checks/exec_common.rs"]
pub mod exec_common;

#[path = "../checks/exec.rs"]
pub mod exec;

#[path = "../checks/gen_kernel.rs"]
pub mod gen_kernel;

#[path = "../checks/exec_kernel.rs"]
pub mod exec_kernel;

#[path = "../checks/gen_tensor.rs"]
pub mod gen_tensor;

#[path = "../checks/exec_tensor.rs"]
pub mod exec_tensor;
