//! `spvx run --device` and `spvx diff` on a Kernel (OpenCL) module: Vulkan consumes only
//! Shader-capability modules, so both end in an error saying so before any device is opened
//! (the test needs no Vulkan device). The kernel is the clang-15 + llvm-spirv-15 module
//! crates/spvx-exec/tests/corpus/opencl/saxpy.spv.

use std::path::Path;

fn saxpy() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../spvx-exec/tests/corpus/opencl/saxpy.spv")
        .display()
        .to_string()
}

fn assert_kernel_refused(args: &[&str]) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_spvx"))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run spvx: {e}"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
    for needle in [
        "'saxpy' is a Kernel (OpenCL) entry point",
        "cannot run on a Vulkan device",
        "Shader-capability modules",
    ] {
        assert!(
            stderr.contains(needle),
            "{args:?}: missing {needle:?} in {stderr}"
        );
    }
    assert!(
        out.stdout.is_empty(),
        "nothing runs: {}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn run_device_refuses_a_kernel_module() {
    let m = saxpy();
    assert_kernel_refused(&[
        "run",
        &m,
        "--device",
        "vulkan",
        "--groups",
        "1",
        "--local",
        "4",
        "--arg",
        "0=f32:2.5",
        "--arg",
        "1=f32:1,2,3,4",
        "--arg",
        "2=f32:0.5,0.5,0.5,0.5",
    ]);
}

#[test]
fn run_device_with_a_named_device_refuses_a_kernel_module() {
    let m = saxpy();
    assert_kernel_refused(&[
        "run",
        &m,
        "--device",
        "vulkan:no-such-device",
        "--groups",
        "1",
    ]);
}

#[test]
fn diff_refuses_a_kernel_module() {
    let m = saxpy();
    assert_kernel_refused(&[
        "diff",
        &m,
        "--groups",
        "1",
        "--local",
        "4",
        "--arg",
        "0=f32:2.5",
        "--arg",
        "1=f32:1,2,3,4",
        "--arg",
        "2=f32:0.5,0.5,0.5,0.5",
    ]);
}
