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
    // No instruction uses %bufs: never written.
    assert!(
        lines[4].ends_with("  element u8  array of 3  never written"),
        "{}",
        lines[4]
    );
    // Each buffer of the array: a block of one runtime array of bytes (ArrayStride 1).
    assert_eq!(
        lines[5],
        "      block: 0 bytes + a runtime array of 1-byte elements"
    );
    assert!(
        lines[6].starts_with("        +0  m0  ") && lines[6].ends_with("  runtime array, stride 1"),
        "{}",
        lines[6]
    );
    assert!(
        lines[7].starts_with("push constants: %pc type "),
        "{}",
        lines[7]
    );
    // OpMemberDecorate %PC 0 Offset 0, 1 Offset 4: uint then float, 8 bytes.
    assert_eq!(lines[8], "  block: 8 bytes");
    assert_eq!(lines[9], "    +0  m0  %uint  4 bytes");
    assert_eq!(lines[10], "    +4  m1  %float  4 bytes");
    assert_eq!(lines[11], "spec constants:");
    assert!(
        lines[12].starts_with("  SpecId 7  ") && lines[12].ends_with("type %bool  default true")
    );
    // 1.5f = 0x3fc00000.
    assert!(
        lines[13].starts_with("  SpecId 2  ")
            && lines[13].ends_with("type %float  default 1069547520")
    );
    assert_eq!(lines[14], "capabilities: Shader, Int8");
    assert_eq!(lines[15], "extensions: none");
    assert_eq!(lines[16], "vulkan features: shaderInt8");
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
    assert_eq!(b["written"], false);
    assert_eq!(v["spec_constants"][1]["spec_id"], 2);
    assert_eq!(v["spec_constants"][1]["default"], "1069547520");
    assert_eq!(v["vulkan_features"], serde_json::json!(["shaderInt8"]));
    assert_eq!(
        b["block"]["runtime_array"],
        serde_json::json!({"offset": 0, "stride": 1})
    );
    assert_eq!(b["block"]["size"], serde_json::Value::Null);
    let pc = &v["push_constants"][0]["block"];
    assert_eq!(pc["size"], 8);
    assert_eq!(pc["members"][1]["offset"], 4);
    assert_eq!(pc["members"][1]["type_name"], "%float");
    assert_eq!(pc["members"][1]["size"], 4);
}

/// Offsets, strides and sizes as the decorations of tests/run/npy_layouts.spvasm give them:
/// float[2][3] with strides 12 and 4 (24 bytes), float[4] with stride 16 (64 bytes), a
/// struct of a uint, a vec2 at 8 and a runtime float array at 16, a row-major mat2x3 with
/// MatrixStride 8 (three rows of 8 bytes: 24).
#[test]
fn block_layouts_are_the_decorations() {
    let o = spvx(&["reflect", "--json", "tests/run/npy_layouts.spvasm"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let block = |i: usize| v["bindings"][i]["block"].clone();
    let member = |i: usize, m: usize| block(i)["members"][m].clone();
    // (Each of the four buffers gets an OpStore through an access chain.)
    for i in 0..4 {
        assert_eq!(v["bindings"][i]["written"], true, "binding {i}");
    }
    assert_eq!(block(0)["size"], 24);
    assert_eq!(member(0, 0)["stride"], 12);
    assert_eq!(block(1)["size"], 64);
    assert_eq!(member(1, 0)["stride"], 16);
    assert_eq!(
        block(2)["runtime_array"],
        serde_json::json!({"offset": 16, "stride": 4})
    );
    assert_eq!(member(2, 1)["name"], "v");
    assert_eq!(member(2, 1)["offset"], 8);
    assert_eq!(member(2, 1)["size"], 8);
    assert_eq!(member(2, 2)["size"], serde_json::Value::Null);
    assert_eq!(block(3)["size"], 24);
    assert_eq!(member(3, 0)["stride"], 8);
    assert_eq!(member(3, 0)["row_major"], true);
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
