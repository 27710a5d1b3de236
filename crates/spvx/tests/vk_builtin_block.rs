//! An Input Block struct of built-ins (crates/spvx-exec/tests/builtin_block.spvasm: the whole
//! block loaded, an access chain to a member, to a vector component of a member) through
//! `spvx run` on the engine and on the Vulkan device (lavapipe): both must write the
//! hand-computed words, so the driver agrees with the engine's reading of such blocks.

mod vk_common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn module() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../spvx-exec/tests/builtin_block.spvasm")
}

/// The words the module must write for 2 × 1 × 1 workgroups of 2 × 2 × 1, by hand: per
/// invocation LocalInvocationId.x, .y, WorkgroupId.x, LocalInvocationIndex,
/// GlobalInvocationId.x (= WorkgroupId.x × 2 + LocalInvocationId.x), GlobalInvocationId.y,
/// NumWorkgroups.x, WorkgroupId.y.
fn expected() -> Vec<u32> {
    let mut out = Vec::new();
    for wx in 0..2u32 {
        for ly in 0..2u32 {
            for lx in 0..2u32 {
                out.extend([lx, ly, wx, lx + 2 * ly, wx * 2 + lx, ly, 2, 0]);
            }
        }
    }
    out
}

/// Runs the module with `spvx run` (`device`: extra arguments) and returns binding 0.0.
fn run(dir: &Path, device: &[&str]) -> Vec<u32> {
    let _ = std::fs::create_dir_all(dir);
    let out_dir = dir.to_string_lossy().to_string();
    let module = module().to_string_lossy().to_string();
    let mut args = vec![
        "run",
        &module,
        "--groups",
        "2",
        "--buffer",
        "0.0=zeros:256",
        "--out",
        &out_dir,
    ];
    args.extend_from_slice(device);
    let o = Command::new(env!("CARGO_BIN_EXE_spvx"))
        .args(&args)
        .output()
        .expect("spawn spvx");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(o.status.success(), "{device:?}: {text}");
    let bytes = std::fs::read(dir.join("0.0.bin")).expect("output written");
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

#[test]
fn builtin_block_agrees_on_engine_and_device() {
    let scratch = spvx_testtools::temp_dir("vk-bblock");
    let dir = scratch.path();
    assert_eq!(run(&dir.join("engine"), &[]), expected(), "engine");
    if vk_common::device().is_some() {
        assert_eq!(
            run(&dir.join("device"), &["--device", "vulkan"]),
            expected(),
            "device"
        );
    }
}
