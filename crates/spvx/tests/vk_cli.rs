//! `spvx run --device` and `spvx diff` from the command line: the bundled examples lavapipe can
//! run agree bit for bit; the others are refused naming the missing feature; a flipped bit of
//! the engine's output is caught and reported with its place and both values; bad device
//! choices are clear errors.

mod vk_common;

use spvx_testtools::temp_dir;
use std::path::PathBuf;
use std::process::{Command, Output};

fn spvx(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_spvx"))
        .args(args)
        .current_dir(examples())
        .output()
        .expect("spawn spvx")
}

fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// True when a device exists (or panics under SPVX_REQUIRE_VULKAN=1).
fn have_device() -> bool {
    vk_common::device().is_some()
}

#[test]
fn gemm_example_runs_on_the_device_and_diffs_clean() {
    if !have_device() {
        return;
    }
    let o = spvx(&["run", "gemm_int8.toml", "--device", "vulkan"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    assert!(out.contains("PASS 0.3 (C): 64 i32 elements match"), "{out}");
    assert!(out.contains("subgroup size"), "{out}");
    let o = spvx(&["diff", "gemm_int8.toml"]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{err}");
    assert!(out.contains("SAME: 4 of 4 bindings match"), "{out}");
}

/// `spvx diff --out DIR --format npy` writes both sides' outputs, DIR/engine and DIR/device,
/// as `.npy` of the bindings' types (gemm_int8's C is a block of a runtime array of uint: 64
/// elements); the two agree byte for byte where the diff says SAME.
#[test]
fn diff_writes_both_sides_outputs() {
    if !have_device() {
        return;
    }
    let scratch = temp_dir("vk-cli-diff-out");
    let dir = scratch.path().join("out");
    let d = dir.display().to_string();
    let o = spvx(&["diff", "gemm_int8.toml", "--out", &d, "--format", "npy"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    assert!(
        out.contains(&format!(
            "wrote 0.0.npy 0.1.npy 0.2.npy 0.3.npy in {d}/engine"
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "wrote 0.0.npy 0.1.npy 0.2.npy 0.3.npy in {d}/device"
        )),
        "{out}"
    );
    let engine = std::fs::read(dir.join("engine/0.3.npy")).unwrap();
    let device = std::fs::read(dir.join("device/0.3.npy")).unwrap();
    assert_eq!(engine, device);
    let header = String::from_utf8_lossy(&engine[10..90]).into_owned();
    assert!(
        header.contains("'descr': '<u4'") && header.contains("'shape': (64, )"),
        "{header}"
    );
}

#[test]
fn command_line_form_runs_on_the_device() {
    if !have_device() {
        return;
    }
    // dot4: out[i] = sat(sdot4x8(a[i], b[i]) + acc[i]); one word per invocation, 64 per group.
    // a = 0x7f7f7f7f (127 each), b = 0x80808080 (-128 each): 4 * 127 * -128 = -65024, plus
    // acc = i32::MIN saturates to i32::MIN; invocation 1: a = 0x01020304, b = 0x01010101, acc
    // 10 gives 1 + 2 + 3 + 4 + 10 = 20.
    let mut a = vec!["0x7f7f7f7f".to_string(), "0x01020304".into()];
    let mut b = vec!["0x80808080".to_string(), "0x01010101".into()];
    let mut acc = vec!["-2147483648".to_string(), "10".into()];
    for _ in 2..64 {
        a.push("0".into());
        b.push("0".into());
        acc.push("0".into());
    }
    let scratch = temp_dir("vk-cli");
    let dir = scratch.path().join("out");
    let (ab, bb, cb) = (
        format!("0.0=u32:{}", a.join(",")),
        format!("0.1=u32:{}", b.join(",")),
        format!("0.2=i32:{}", acc.join(",")),
    );
    let out_dir = dir.to_string_lossy().to_string();
    let o = spvx(&[
        "run",
        "dot4.spvasm",
        "--groups",
        "1",
        "--buffer",
        &ab,
        "--buffer",
        &bb,
        "--buffer",
        &cb,
        "--buffer",
        "0.3=zeros:256",
        "--device",
        "vulkan:llvmpipe",
        "--out",
        &out_dir,
    ]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    let bytes = std::fs::read(dir.join("0.3.bin")).expect("output written");
    let word = |i: usize| {
        i32::from_le_bytes([
            bytes[4 * i],
            bytes[4 * i + 1],
            bytes[4 * i + 2],
            bytes[4 * i + 3],
        ])
    };
    assert_eq!(word(0), i32::MIN);
    assert_eq!(word(1), 20);
    assert_eq!(word(2), 0);
}

#[test]
fn examples_lavapipe_cannot_run_are_refused_naming_the_feature() {
    if !have_device() {
        return;
    }
    for (file, needle) in [
        ("mixdot.toml", "shaderFloat8"),
        ("fixed.toml", "SPV_INTEL_arbitrary_precision_fixed_point"),
        ("tensor.toml", "tensors"),
    ] {
        let o = spvx(&["diff", file]);
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(1), "{file}: {out}{err}");
        assert!(err.contains(needle), "{file}: {err}");
    }
}

#[test]
fn one_flipped_bit_of_the_engine_output_is_reported() {
    if !have_device() {
        return;
    }
    // Byte 4 of binding 0.3 is the low byte of C[1]; bit 0 flipped.
    let o = spvx(&[
        "diff",
        "gemm_int8.toml",
        "--flip-engine-bit",
        "0.3:4:0",
        "--as",
        "0.3=i32",
    ]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert!(
        out.contains("DIFF 0.3 (C): 1 of 64 i32 elements differ"),
        "{out}"
    );
    assert!(out.contains("DIFF: 1 of 4 bindings differ"), "{out}");
    let line = out
        .lines()
        .find(|l| l.contains("element 1 (byte 4): engine "))
        .unwrap_or_else(|| panic!("no element line: {out}"));
    // "engine V (0xBITS), device V (0xBITS): mismatch": the two bit patterns differ in bit 0.
    let hex: Vec<u64> = line
        .split("(0x")
        .skip(1)
        .filter_map(|s| s.split(')').next())
        .filter_map(|h| u64::from_str_radix(h, 16).ok())
        .collect();
    assert_eq!(hex.len(), 2, "{line}");
    assert_eq!(hex[0] ^ hex[1], 1, "{line}");
    assert!(line.contains(": mismatch;"), "{line}");
    // C[0][1] is computed by GlobalInvocationId (1, 0) (examples/gemm_int8.spvasm: invocation
    // (x, y) writes C[y][x]; LocalSize 4x4): local (1, 0, 0) of workgroup (0, 0, 0).
    assert!(
        line.ends_with("written by invocation (1, 0, 0) of workgroup (0, 0, 0)"),
        "{line}"
    );
}

#[test]
fn bad_device_choices_are_clear_errors() {
    let o = spvx(&["run", "gemm_int8.toml", "--device", "cuda"]);
    let (_, err) = text(&o);
    assert!(!o.status.success());
    assert!(err.contains("not `vulkan` or `vulkan:NAME`"), "{err}");
    if !have_device() {
        return;
    }
    let o = spvx(&["run", "gemm_int8.toml", "--device", "vulkan:no-such-gpu"]);
    let (_, err) = text(&o);
    assert!(!o.status.success());
    assert!(
        err.contains("whose name contains 'no-such-gpu'") && err.contains("llvmpipe"),
        "{err}"
    );
    // A loader without any driver.
    let o = Command::new(env!("CARGO_BIN_EXE_spvx"))
        .args(["run", "gemm_int8.toml", "--device", "vulkan"])
        .current_dir(examples())
        .env("VK_ICD_FILENAMES", "/nonexistent/icd.json")
        .env("VK_DRIVER_FILES", "/nonexistent/icd.json")
        .output()
        .expect("spawn");
    let (_, err) = text(&o);
    assert!(!o.status.success());
    assert!(err.contains("--device vulkan"), "{err}");
}

/// Tensors through VK_ARM_tensors: Arm's emulation layer over the device, found through
/// SPVX_EMULATION_LAYER (its `deploy` directory; scripts/test installs it). The example reads
/// with OutOfBoundsValueARM (elements and 2-element arrays), writes outside the tensor (dropped)
/// and queries sizes; every output, tensors included, must match bit for bit.
#[test]
fn tensor_example_agrees_through_the_emulation_layer() {
    if !have_device() {
        return;
    }
    let Ok(layer) = std::env::var("SPVX_EMULATION_LAYER") else {
        if std::env::var("SPVX_REQUIRE_VULKAN").is_ok_and(|v| v == "1") {
            panic!("SPVX_REQUIRE_VULKAN=1 but SPVX_EMULATION_LAYER is not set");
        }
        eprintln!("skipped: SPVX_EMULATION_LAYER not set");
        return;
    };
    let layer = PathBuf::from(layer);
    let o = Command::new(env!("CARGO_BIN_EXE_spvx"))
        .args(["diff", "tensor.toml"])
        .current_dir(examples())
        .env("LD_LIBRARY_PATH", layer.join("lib"))
        .env("VK_LAYER_PATH", layer.join("share/vulkan/explicit_layer.d"))
        .env("VK_INSTANCE_LAYERS", "VK_LAYER_ML_Tensor_Emulation")
        .output()
        .expect("spawn spvx");
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{err}");
    assert!(out.contains("SAME 0.0 (T): 12 i32 elements"), "{out}");
    assert!(out.contains("SAME: 5 of 5 bindings match"), "{out}");
}

/// `spvx COMMAND` on the subgroup shader (spvx-vk's tests/shaders/subgroup_ops.comp.spv) over
/// 512 words, 8 workgroups, with lavapipe's LP_NATIVE_VECTOR_WIDTH `width` and `extra`
/// arguments: the exit code and stdout + stderr.
fn subgroup_shader(command: &str, width: &str, extra: &[&str]) -> (Option<i32>, String) {
    let module = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../spvx-vk/tests/shaders/subgroup_ops.comp.spv");
    let values: Vec<String> = (0..512u32)
        .map(|i| (if i % 5 == 0 { 7 } else { i * 7919 % 1000 }).to_string())
        .collect();
    let input = format!("0.0=u32:{}", values.join(","));
    let o = Command::new(env!("CARGO_BIN_EXE_spvx"))
        .arg(command)
        .arg(&module)
        .args([
            "--groups",
            "8",
            "--buffer",
            &input,
            "--buffer",
            "0.1=zeros:16384",
        ])
        .args(extra)
        .env("LP_NATIVE_VECTOR_WIDTH", width)
        .output()
        .expect("spawn spvx");
    let (out, err) = text(&o);
    (o.status.code(), out + &err)
}

/// The subgroup shader at lavapipe's other subgroup sizes (LP_NATIVE_VECTOR_WIDTH 128 and 512
/// give 4 and 16 lanes): `spvx diff` runs the engine with the device's size, and every output
/// matches.
#[test]
fn subgroup_operations_agree_at_subgroup_sizes_4_and_16() {
    if !have_device() {
        return;
    }
    for (width, lanes) in [("128", 4), ("512", 16)] {
        let (code, out) = subgroup_shader("diff", width, &[]);
        assert_eq!(code, Some(0), "width {width}: {out}");
        assert!(
            out.contains(&format!("engine subgroup size {lanes})")),
            "width {width}: {out}"
        );
        assert!(out.contains("SAME: 2 of 2 bindings match"), "{out}");
    }
}

/// The tensor example's module with strided tensors (rows padded; padding holds 999): reads
/// and writes inside and outside the shape agree with the engine bit for bit, padding
/// included (neither side may touch it).
#[test]
fn strided_tensors_agree_through_the_emulation_layer() {
    if !have_device() {
        return;
    }
    let Ok(layer) = std::env::var("SPVX_EMULATION_LAYER") else {
        if std::env::var("SPVX_REQUIRE_VULKAN").is_ok_and(|v| v == "1") {
            panic!("SPVX_REQUIRE_VULKAN=1 but SPVX_EMULATION_LAYER is not set");
        }
        eprintln!("skipped: SPVX_EMULATION_LAYER not set");
        return;
    };
    let layer = PathBuf::from(layer);
    let scratch = temp_dir("vk-strided");
    let dir = scratch.path();
    let module = examples().join("tensor.spvasm");
    // T: 3x4 i32 with row stride 24 (2 padding elements); U: 4x3 i32 with row stride 16.
    let run = format!(
        r#"module = "{}"
groups = 1
[[tensor]]
binding = 0
shape = [3, 4]
strides = [24, 4]
data = {{ i32 = [-1, 2, 3, -4, 999, 999, 11, 12, -13, 14, 999, 999, 21, -22, 23, 24, 999, 999] }}
[[tensor]]
binding = 1
shape = [4, 3]
strides = [16, 4]
data = {{ i32 = [7, 7, 7, 999, 7, 7, 7, 999, 7, 7, 7, 999, 7, 7, 7, 999] }}
[[buffer]]
binding = 2
data = {{ zeros = 64 }}
[[buffer]]
binding = 3
data = {{ zeros = 64 }}
[[buffer]]
binding = 4
data = {{ zeros = 16 }}
"#,
        module.display()
    );
    let file = dir.join("strided.toml");
    std::fs::write(&file, run).expect("write run file");
    let o = Command::new(env!("CARGO_BIN_EXE_spvx"))
        .arg("diff")
        .arg(&file)
        .args(["--as", "0.0=i32", "--as", "0.1=i32"])
        .env("LD_LIBRARY_PATH", layer.join("lib"))
        .env("VK_LAYER_PATH", layer.join("share/vulkan/explicit_layer.d"))
        .env("VK_INSTANCE_LAYERS", "VK_LAYER_ML_Tensor_Emulation")
        .output()
        .expect("spawn spvx");
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{err}");
    assert!(out.contains("SAME 0.0 (T): 18 i32 elements"), "{out}");
    assert!(out.contains("SAME 0.1 (U): 16 i32 elements"), "{out}");
    assert!(out.contains("SAME: 5 of 5 bindings match"), "{out}");
}

/// `--subgroup-size N` with a device: the pipeline requires N (VK_EXT_subgroup_size_control's
/// requiredSubgroupSize) and the engine runs with N, so `spvx diff` compares like with like; a
/// size the device cannot give is refused naming its sizes. Lavapipe's compute subgroups are
/// 8 lanes by default and 16 with LP_NATIVE_VECTOR_WIDTH=512 (min = max both times).
#[test]
fn a_subgroup_size_given_with_a_device_is_required_of_it() {
    if !have_device() {
        return;
    }
    let diff = |size: &str, width: &str| subgroup_shader("diff", width, &["--subgroup-size", size]);
    let (code, t) = diff("8", "256");
    assert_eq!(code, Some(0), "{t}");
    assert!(t.contains("SAME: 2 of 2 bindings match"), "{t}");
    let (code, t) = diff("16", "512");
    assert_eq!(code, Some(0), "{t}");
    assert!(t.contains("SAME: 2 of 2 bindings match"), "{t}");
    let (code, t) = diff("16", "256");
    assert_ne!(code, Some(0), "{t}");
    assert!(
        t.contains("subgroup size 16 (VK_EXT_subgroup_size_control: the device's compute subgroups are 8..=8)"),
        "{t}"
    );
    // `spvx run --device` requires it too.
    let (code, t) = subgroup_shader(
        "run",
        "256",
        &["--subgroup-size", "4", "--device", "vulkan"],
    );
    assert_ne!(code, Some(0), "{t}");
    assert!(
        t.contains("subgroup size 4 (VK_EXT_subgroup_size_control"),
        "{t}"
    );
}
