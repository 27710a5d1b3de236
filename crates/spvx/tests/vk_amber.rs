//! `spvx amber --device vulkan`: every passing script under tests/amber/ passes on the device
//! too (lavapipe supports all of them), the failing ones fail at the same EXPECTs, the
//! unsupported ones are skipped, and an unbound buffer is an error as on the engine. Without a device the tests are skipped (printed), unless
//! SPVX_REQUIRE_VULKAN=1.

mod vk_common;

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

fn amber_on_device(scripts: &[String]) -> (Output, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_spvx"))
        .args(["amber", "--device", "vulkan"])
        .args(scripts)
        .output()
        .unwrap_or_else(|e| panic!("cannot run spvx: {e}"));
    let t = String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    (o, t)
}

#[test]
fn passing_scripts_pass_on_the_device() {
    if vk_common::device().is_none() {
        return;
    }
    let all = scripts(".");
    let (o, out) = amber_on_device(&all);
    assert!(o.status.success(), "{out}");
    for s in &all {
        assert!(out.contains(&format!("PASS  {s}")), "{s}:\n{out}");
    }
}

#[test]
fn failing_scripts_fail_at_the_same_expects_on_the_device() {
    if vk_common::device().is_none() {
        return;
    }
    let f = dir().join("fail/expect_fail.amber").display().to_string();
    let v = dir().join("fail/vk_fail.vkscript").display().to_string();
    let g = dir()
        .join("unsupported/graphics.amber")
        .display()
        .to_string();
    let (o, out) = amber_on_device(&[f.clone(), v.clone(), g.clone()]);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains(&format!("{f}:25:3: EXPECT out: value 0 at byte 8 (element 2, component 0): expected 7 (0x00000007), got 3 (0x00000003)")), "{out}");
    assert!(
        out.contains(&format!("{v}:18:1: EXPECT ssbo 0:0: value 0 at byte 8")),
        "{out}"
    );
    assert!(
        out.contains(&format!("SKIP  {g}: {g}:4:8: unsupported: vertex shaders")),
        "{out}"
    );
    assert!(
        out.contains("3 scripts: 0 passed, 2 failed, 1 skipped, 0 errors"),
        "{out}"
    );
}

/// The specification's freedoms on a device: lavapipe's exp is 1–3 ULP from the correctly
/// rounded values the script expects (computed apart with Python), within Vulkan's bound for
/// GLSL.std.450 Exp: the EXPECT is listed as allowed, naming the instruction and the bound,
/// and the script passes; `--literal` fails it as Amber does; a value beyond any freedom fails
/// either way. On the engine the script passes with nothing allowed.
#[test]
fn an_expect_held_by_the_precision_table_is_allowed_on_the_device() {
    if vk_common::device().is_none() {
        return;
    }
    let ok = dir()
        .join("device_freedom/exp_precision.amber")
        .display()
        .to_string();
    let beyond = dir()
        .join("device_freedom/exp_beyond_bound.amber")
        .display()
        .to_string();
    let (o, out) = amber_on_device(&[ok.clone(), beyond.clone()]);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains(&format!("PASS  {ok} (1 EXPECT)")), "{out}");
    assert!(
        out.contains(&format!(
            "  allowed: {ok}:24:1: EXPECT out: value 0 at byte 4"
        )),
        "{out}"
    );
    assert!(
        out.contains("from the correctly rounded %")
            && out.contains("OpExtInst GLSL.std.450 Exp, within Vulkan's bound (3 + 2·|x| ULP)"),
        "{out}"
    );
    assert!(out.contains(&format!("FAIL  {beyond}")), "{out}");
    let o = Command::new(env!("CARGO_BIN_EXE_spvx"))
        .args(["amber", "--device", "vulkan", "--literal", &ok])
        .output()
        .unwrap_or_else(|e| panic!("cannot run spvx: {e}"));
    let lit = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{lit}");
    assert!(
        lit.contains(&format!("FAIL  {ok}")) && !lit.contains("allowed:"),
        "{lit}"
    );
    let o = Command::new(env!("CARGO_BIN_EXE_spvx"))
        .args(["amber", &ok])
        .output()
        .unwrap_or_else(|e| panic!("cannot run spvx: {e}"));
    let eng = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{eng}");
    assert!(!eng.contains("allowed:"), "{eng}");
}
