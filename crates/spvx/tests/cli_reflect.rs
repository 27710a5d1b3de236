//! `spvx reflect`: the declarations of a module, each expected value read off the test
//! module's own text by hand (tests/reflect/resources.spvasm, examples/opencl_rowdot.spv's
//! OpenCL C source), never from another spvx command.

use std::path::Path;
use std::process::{Command, Output};

fn spvx(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_spvx"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .output()
        .expect("spvx runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn a_shader_module_is_described_section_by_section() {
    let o = spvx(&["reflect", "tests/reflect/resources.spvasm"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "module tests/reflect/resources.spvasm (SPIR-V 1.6)"
    );
    assert_eq!(lines[1], "entry points:");
    assert_eq!(lines[2], "  GLCompute main  local size 8x2x1");
    assert_eq!(lines[3], "bindings:");
    // OpDecorate %bufs DescriptorSet 1 / Binding 3; OpTypeArray %Blk %uint_3 of a block
    // holding a runtime array of uchar.
    assert!(
        lines[4].starts_with("  1.3  StorageBuffer %bufs 'bufs'  type "),
        "{}",
        lines[4]
    );
    assert!(
        lines[4].ends_with("  element u8  array of 3"),
        "{}",
        lines[4]
    );
    assert!(
        lines[5].starts_with("push constants: %pc type "),
        "{}",
        lines[5]
    );
    assert_eq!(lines[6], "spec constants:");
    assert!(lines[7].starts_with("  SpecId 7  ") && lines[7].ends_with("type %bool  default true"));
    // 1.5f = 0x3fc00000.
    assert!(
        lines[8].starts_with("  SpecId 2  ")
            && lines[8].ends_with("type %float  default 1069547520")
    );
    assert_eq!(lines[9], "capabilities: Shader, Int8");
    assert_eq!(lines[10], "extensions: none");
    assert_eq!(lines[11], "vulkan features: shaderInt8");
}

#[test]
fn json_has_the_same_facts() {
    let o = spvx(&["reflect", "--json", "tests/reflect/resources.spvasm"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(
        v["entry_points"][0]["local_size"],
        serde_json::json!([8, 2, 1])
    );
    let b = &v["bindings"][0];
    assert_eq!(
        (b["set"].as_u64(), b["binding"].as_u64()),
        (Some(1), Some(3))
    );
    assert_eq!(b["storage_class"], "StorageBuffer");
    assert_eq!(b["count"], 3);
    assert_eq!(b["element"], "u8");
    assert_eq!(v["spec_constants"][1]["spec_id"], 2);
    assert_eq!(v["spec_constants"][1]["default"], "1069547520");
    assert_eq!(v["vulkan_features"], serde_json::json!(["shaderInt8"]));
}

#[test]
fn a_kernel_is_described_and_named_unrunnable_on_vulkan() {
    // __kernel void rowdot(...) with reqd_work_group_size(16, 1, 1), Physical64 (Addresses).
    let o = spvx(&["reflect", "../../examples/opencl_rowdot.spv"]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(
        text.contains("  Kernel rowdot  local size 16x1x1\n"),
        "{text}"
    );
    assert!(text.contains("bindings: none\n"), "{text}");
    assert!(
        text.contains("vulkan: not runnable (capability Addresses"),
        "{text}"
    );
}

/// A glslang module (bench/vadd.comp, `layout(local_size_x = 256)`): the local size through
/// OpExecutionModeId LocalSizeId, bindings in set.binding order, glslang's empty OpName of an
/// anonymous block instance printed as no name.
#[test]
fn a_glslang_module_with_local_size_id() {
    let o = spvx(&["reflect", "../../bench/vadd.spv"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = stdout(&o);
    assert!(
        text.contains("  GLCompute main  local size 256x1x1\n"),
        "{text}"
    );
    let bindings: Vec<&str> = text.lines().filter(|l| l.starts_with("  0.")).collect();
    assert_eq!(bindings.len(), 3, "{text}");
    assert!(bindings[0].starts_with("  0.0  StorageBuffer "), "{text}");
    assert!(bindings[2].starts_with("  0.2  StorageBuffer "), "{text}");
    assert!(!text.contains("''"), "{text}");
}

#[test]
fn a_missing_file_is_an_error() {
    let o = spvx(&["reflect", "tests/reflect/no-such.spv"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read tests/reflect/no-such.spv"));
}
