//! `spvx amber` end to end on the engine: every script under tests/amber/ (each with
//! hand-computed expectations) passes; the scripts under fail/ fail at the right line:column
//! with the value, expected, got and writer; unsupported/ scripts are skipped with the reason;
//! error/ scripts are errors naming file:line:column; subgroup8/ needs --subgroup-size 8;
//! engine_only/ passes on the engine (a device cannot run it through spvx-vk); target_env/
//! needs --target-env; the summary line, exit codes and --json.

use spvx_testtools::temp_dir;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/amber")
}

fn scripts(sub: &str) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir().join(sub))
        .unwrap_or_else(|e| panic!("tests/amber/{sub}: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension()
                .is_some_and(|e| e == "amber" || e == "vkscript")
        })
        .map(|p| p.display().to_string())
        .collect();
    v.sort();
    v
}

fn amber(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_spvx"))
        .arg("amber")
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run spvx: {e}"))
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
}

#[test]
fn every_passing_script_passes_on_the_engine() {
    let all = scripts(".");
    assert!(all.len() >= 9, "{all:?}");
    let refs: Vec<&str> = all.iter().map(String::as_str).collect();
    let mut args = vec!["--jobs", "2"];
    args.extend(&refs);
    let o = amber(&args);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    for s in &all {
        assert!(
            out.contains(&format!("PASS  {s}")),
            "{s} did not pass:\n{out}"
        );
    }
    assert!(
        out.contains(&format!(
            "{} scripts: {} passed, 0 failed, 0 skipped, 0 errors",
            all.len(),
            all.len()
        )),
        "{out}"
    );
}

/// Constructs of Khronos' own scripts (google/amber tests/cases, the CTS amber files), each
/// in a script of ours that failed before it was handled.
#[test]
fn khronos_script_constructs_pass() {
    let cases = [
        // `#version 310 es` first although the inline source starts on a later line.
        "glsl_es_version.amber",
        // `FILL 0.0` / `7.00` for integers; 218 for int8 and -1 for uint16 (the bits).
        "int_value_forms.amber",
        // DEVICE_EXTENSION VK_KHR_spirv_1_4: SPIR-V assembly built for spv1.4.
        "spirv14_by_requirement.amber",
        // VkScript [comment] sections.
        "vk_comment.vkscript",
        // A buffer bound where the shader declares none (compute_workgroup_init does so;
        // on a device, vk_amber.rs runs it too).
        "extra_binding.amber",
        // DEVICE_PROPERTY FloatControlsProperties.* (spvx-vk cannot query a device's).
        "engine_only/float_controls.amber",
        // The engine has variable pointers now.
        "variable_pointers.amber",
        // ...and workgroup blocks (spvx-vk cannot enable them on a device).
        "engine_only/workgroup_blocks.amber",
        // ...and long vectors (SPV_EXT_long_vector; spvx-vk knows no such feature).
        "engine_only/long_vector.amber",
        // ...of a specialization-constant length too, specialised by SPECIALIZE.
        "engine_only/long_vector_spec.amber",
        // VK_KHR_workgroup_memory_explicit_layout: SPIR-V 1.4 assembly, and the capability
        // without Workgroup blocks leaves a Workgroup pointer's ArrayStride ignored.
        "engine_only/wmel_spirv14_by_requirement.vkscript",
    ];
    for name in cases {
        let f = dir().join(name).display().to_string();
        let o = amber(&[&f]);
        let out = text(&o);
        assert!(o.status.success(), "{name}:\n{out}");
        assert!(out.contains(&format!("PASS  {f}")), "{name}:\n{out}");
    }
}

#[test]
fn target_env_option_sets_the_default_spirv_version() {
    let f = dir()
        .join("target_env/needs_spv14.vkscript")
        .display()
        .to_string();
    let out = text(&amber(&[&f]));
    assert!(
        out.contains("OpEntryPoint interfaces must be OpVariables with Storage Class of Input or Output before SPIR-V 1.4"),
        "{out}"
    );
    for flag in ["--target-env", "-t"] {
        let o = amber(&[flag, "spv1.4", &f]);
        assert!(o.status.success(), "{}", text(&o));
        assert!(text(&o).contains(&format!("PASS  {f}")));
    }
    // vulkan1.1 is SPIR-V 1.3: still too old.
    assert_eq!(amber(&["-t", "vulkan1.1", &f]).status.code(), Some(1));
    let o = amber(&["-t", "spv9", &f]);
    assert!(!o.status.success());
    assert!(
        text(&o).contains("--target-env: unknown target environment 'spv9'"),
        "{}",
        text(&o)
    );
}

#[test]
fn subgroup_size_option_reaches_the_engine() {
    let f = dir()
        .join("subgroup8/subgroup_size.amber")
        .display()
        .to_string();
    let o = amber(&["--subgroup-size", "8", &f]);
    assert!(o.status.success(), "{}", text(&o));
    let o = amber(&[&f]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("expected 8 (0x00000008), got 32 (0x00000020)"),
        "{out}"
    );
    let out = text(&amber(&["--subgroup-size", "65", &f]));
    assert!(out.contains("subgroup size 65 is not in 1..=64"), "{out}");
}

#[test]
fn failing_scripts_fail_at_their_expects() {
    let d = dir().join("fail");
    let f = d.join("expect_fail.amber").display().to_string();
    let o = amber(&[&f]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains(&format!("FAIL  {f}")), "{out}");
    // Line 24 passes; 25 (indented: column 3), 26 and 27 fail.
    assert!(!out.contains(&format!("{f}:24:")), "{out}");
    assert!(out.contains(&format!(
        "{f}:25:3: EXPECT out: value 0 at byte 8 (element 2, component 0): expected 7 (0x00000007), got 3 (0x00000003); written by invocation (2, 0, 0) of workgroup (0, 0, 0)"
    )), "{out}");
    assert!(
        out.contains(&format!(
            "{f}:26:1: EXPECT out: value 0 at byte 0 (element 0, component 0): expected GT 1"
        )),
        "{out}"
    );
    assert!(out.contains(&format!("{f}:27:1: EXPECT out: EQ_BUFFER other: element 3 (byte 12): expected 5 (0x00000005), got 4 (0x00000004)")), "{out}");
    let t = d.join("tolerance_fail.amber").display().to_string();
    let out = text(&amber(&[&t]));
    assert!(out.contains(&format!("{t}:28:1: EXPECT output: value 0 at byte 12 (element 3, component 0): expected 3 (0x40400000) within 0.2, got 3.25")), "{out}");
    assert!(out.contains(&format!("{t}:30:1: EXPECT output: value 0 at byte 4 (element 1, component 0): expected 1 (0x3f800000) within 20%, got 1.25")), "{out}");
    assert!(
        out.contains(&format!(
            "{t}:32:1: EXPECT output: RMSE_BUFFER near: root mean square difference 0.0707"
        )),
        "{out}"
    );
    assert!(
        out.contains("1 script: 0 passed, 1 failed, 0 skipped, 0 errors"),
        "{out}"
    );
}

#[test]
fn unsupported_scripts_are_skipped_with_the_reason() {
    let d = dir().join("unsupported");
    let cases = [
        (
            "graphics.amber",
            "4:8: unsupported: vertex shaders (graphics pipelines)",
        ),
        ("image.amber", "9:1: unsupported: IMAGE (images)"),
        ("sampler.amber", "10:8: unsupported: samplers"),
        (
            "lacks_feature.amber",
            "4:1: the engine lacks feature Features.geometryShader",
        ),
        (
            "lacks_property.amber",
            "4:1: the engine lacks property FloatControlsProperties.shaderRoundingModeRTZFloat32",
        ),
        (
            "lacks_extension.amber",
            "4:1: the engine lacks extension VK_NV_no_such_extension",
        ),
    ];
    for (name, why) in cases {
        let f = d.join(name).display().to_string();
        let o = amber(&[&f]);
        let out = text(&o);
        assert!(o.status.success(), "a skip is not a failure:\n{out}");
        assert!(out.contains(&format!("SKIP  {f}: {f}:{why}")), "{out}");
        assert!(
            out.contains("0 passed, 0 failed, 1 skipped, 0 errors"),
            "{out}"
        );
    }
}

#[test]
fn errors_name_file_line_and_column() {
    let d = dir().join("error");
    let cases = [
        ("parse_error.amber", ":5:22: unknown data type 'uint33'"),
        (
            "bad_value.amber",
            ":6:3: 300 is outside the range of u8 (0..=255)",
        ),
        ("asm_error.amber", ".amber:8:16"),
        ("too_large.amber", ":4:39: buffer too large"),
        (
            "unbound.amber",
            ":16:1: RUN p: the shader uses a buffer at DESCRIPTOR_SET 0 BINDING 1 ('named_b'), which the pipeline does not bind",
        ),
        (
            "glsl_error.amber",
            "glsl_error.amber:8: 'undeclared_thing' : undeclared identifier",
        ),
    ];
    for (name, what) in cases {
        let f = d.join(name).display().to_string();
        let o = amber(&[&f]);
        let out = text(&o);
        assert_eq!(o.status.code(), Some(1), "{out}");
        assert!(out.contains(&format!("ERROR {f}: ")), "{out}");
        assert!(out.contains(what), "{name}: {out}");
    }
}

#[test]
fn json_output_and_mixed_summary() {
    let pass = dir().join("glsl_float.amber").display().to_string();
    let fail = dir().join("fail/expect_fail.amber").display().to_string();
    let skip = dir().join("unsupported/image.amber").display().to_string();
    let o = amber(&["--json", &pass, &fail, &skip]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value =
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("not JSON: {e}: {}", text(&o)));
    assert_eq!(v["summary"]["passed"], 1);
    assert_eq!(v["summary"]["failed"], 1);
    assert_eq!(v["summary"]["skipped"], 1);
    assert_eq!(v["scripts"][0]["status"], "pass");
    assert_eq!(v["scripts"][1]["failures"][0]["line"], 25);
    assert_eq!(v["scripts"][1]["failures"][0]["column"], 3);
    assert_eq!(v["scripts"][2]["status"], "skip");
}

#[test]
fn not_a_script_and_help() {
    let scratch = temp_dir("amber");
    let d = scratch.path();
    let f = d.join("x.amber");
    std::fs::write(&f, "BUFFER b DATA_TYPE uint32 SIZE 1 FILL 0\n")
        .unwrap_or_else(|e| panic!("{e}"));
    let out = text(&amber(&[&f.display().to_string()]));
    assert!(out.contains(":1:1: not an Amber script"), "{out}");
    let help = text(&amber(&["--help"]));
    for w in [
        "SPIRV-ASM",
        "STD140",
        "EQ_BUFFER",
        "RMSE_BUFFER",
        "UNSUPPORTED",
        "[require]",
    ] {
        assert!(help.contains(w), "--help lacks {w}:\n{help}");
    }
}

/// Every prefix of every script, and every script with one line removed, parses or is
/// refused with an error: never a panic.
#[test]
fn cut_scripts_never_panic() {
    use spvx_run::amber::{parse::parse_amber, vkscript::parse_vkscript};
    let mut files = Vec::new();
    for sub in [
        ".",
        "fail",
        "error",
        "unsupported",
        "engine_only",
        "target_env",
    ] {
        files.extend(scripts(sub));
    }
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap_or_else(|e| panic!("{f}: {e}"));
        let lines: Vec<&str> = text.lines().collect();
        let base = dir();
        for i in 0..=lines.len() {
            let prefix = lines[..i].join("\n");
            let dropped = [&lines[..i], &lines[(i + 1).min(lines.len())..]]
                .concat()
                .join("\n");
            for t in [prefix, dropped] {
                let _ = parse_amber(&f, &t, &base);
                let _ = parse_vkscript(&f, &t, &base);
            }
        }
    }
}

#[test]
fn undefined_behaviour_is_noted_under_the_verdict() {
    let f = dir()
        .join("notes/out_of_bounds.amber")
        .display()
        .to_string();
    let o = amber(&[&f]);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(out.contains(&format!("PASS  {f} (1 EXPECT)\n  note: {f}:17:1: RUN p: 2 undefined-behaviour events (the documented result was used); the first: out-of-bounds write of 4 bytes at offset 8")), "{out}");
}

/// The `.npy` header's dictionary and the data after it (NumPy's format.py layout, v1.0).
fn npy_parts(file: &[u8]) -> (String, Vec<u8>) {
    assert_eq!(&file[..8], b"\x93NUMPY\x01\x00");
    let n = u16::from_le_bytes([file[8], file[9]]) as usize;
    let header = std::str::from_utf8(&file[10..10 + n])
        .unwrap()
        .trim()
        .to_string();
    (header, file[10 + n..].to_vec())
}

/// `--out DIR` writes every buffer of a script that ran into DIR/STEM: `--format bin` their
/// bytes, `--format npy` arrays of the data type with Amber's padding as NumPy padding
/// fields (layouts.amber: `f` is float STD140, 16-byte elements; `m` mat2x2<float> std430,
/// packed columns; `v` vec3<float> STD140, 16-byte elements). Two scripts of one stem are
/// refused before anything runs.
#[test]
fn out_writes_the_buffers_after_the_script() {
    let scratch = temp_dir("cli-amber-out");
    let out = scratch.path().join("out");
    let script = dir().join("layouts.amber").display().to_string();
    let o = amber(&[
        &script,
        "--out",
        &out.display().to_string(),
        "--format",
        "npy",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let d = out.join("layouts");
    assert!(
        text(&o).contains(&format!(
            "  wrote f.npy g.npy m.npy r.npy um.npy v.npy w.npy in {}",
            d.display()
        )),
        "{}",
        text(&o)
    );
    let f32s = |v: &[f32]| -> Vec<u8> { v.iter().flat_map(|x| x.to_le_bytes()).collect() };
    let (h, data) = npy_parts(&std::fs::read(d.join("f.npy")).unwrap());
    assert_eq!(
        h,
        "{'descr': [('value', '<f4'), ('', '|V12'), ], 'fortran_order': False, 'shape': (2, ), }"
    );
    let mut want = f32s(&[10.0]);
    want.resize(16, 0);
    want.extend(f32s(&[20.0]));
    want.resize(32, 0);
    assert_eq!(data, want);
    let (h, _) = npy_parts(&std::fs::read(d.join("m.npy")).unwrap());
    assert_eq!(
        h,
        "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2, 2, ), }"
    );
    let (h, _) = npy_parts(&std::fs::read(d.join("v.npy")).unwrap());
    assert_eq!(
        h,
        "{'descr': [('value', '<f4', (3,)), ('', '|V4'), ], 'fortran_order': False, 'shape': (2, ), }"
    );
    // --format bin: the bytes as they are (the same data section).
    let o = amber(&[&script, "--out", &out.join("bin").display().to_string()]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(std::fs::read(out.join("bin/layouts/f.bin")).unwrap(), want);
    // Two scripts of one stem.
    let o = amber(&[&script, &script, "--out", &out.display().to_string()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).contains("would both write into"), "{}", text(&o));
}
