//! Replays the saved fuzz findings and seeds of the validator fuzz targets (`fuzz/`) through the
//! same check functions the targets call (`fuzz/checks/val.rs`, with the module generators
//! `fuzz/checks/gen.rs`, `gen_kernel.rs`, `gen_tensor.rs` and `gen_core.rs`). Inputs:
//! `tests/regressions/<target>/`.

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

/// Modules spvx-val once accepted and spirv-val 2025.5 rejects (found by differential runs of
/// the generator, `fuzz/README.md`), in `tests/regressions/rejected/`, each with a piece of the
/// message spvx-val must now give. spirv-val must reject each too.
const REJECTED: &[(&str, &str)] = &[
    (
        "group-op-value-is-pointer.spv",
        "OpGroupNonUniformIAdd: The type of Value must match the Result type",
    ),
    (
        "composite-insert-type-as-composite.spv",
        "OpCompositeInsert: operand %_struct_16 cannot be a type",
    ),
    // Found by the Kernel-model generator (fuzz/checks/gen_kernel.rs), 2026-11: spvx-val had
    // no rule for OpCopyMemorySized.
    (
        "copy-memory-sized-constant-zero.spv",
        "OpCopyMemorySized: Size cannot be a constant zero",
    ),
];

#[test]
fn once_accepted_modules_are_rejected() {
    let rejected = dir().join("rejected");
    let listed: Vec<&str> = REJECTED.iter().map(|(f, _)| *f).collect();
    let mut on_disk: Vec<String> = std::fs::read_dir(&rejected)
        .expect("tests/regressions/rejected")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    on_disk.sort();
    let mut expected: Vec<String> = listed.iter().map(|s| s.to_string()).collect();
    expected.sort();
    assert_eq!(on_disk, expected, "every file in rejected/ is listed once");
    let tools = spvx_testtools::tools_dir();
    for (file, message) in REJECTED {
        let path = rejected.join(file);
        let bytes = std::fs::read(&path).expect("read a regression module");
        let m = spvx_spirv::binary::read_bytes(&bytes).expect("the module reads");
        let errors = spvx_val::errors(&m.header, &m.instructions, &spvx_val::Options::default());
        assert!(
            errors.iter().any(|e| e.to_string().contains(message)),
            "{file}: expected an error containing {message:?}, got {:?}",
            errors.iter().map(|e| e.to_string()).collect::<Vec<_>>()
        );
        if let Some(tools) = &tools {
            let out = std::process::Command::new(tools.join("spirv-val"))
                .arg(&path)
                .output()
                .expect("run spirv-val");
            assert!(!out.status.success(), "{file}: spirv-val accepts it");
        }
    }
}
