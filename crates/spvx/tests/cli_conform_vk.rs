//! `spvx conform intdot --device vulkan` on the Vulkan device (lavapipe in CI): every integer
//! dot product form, the 64-bit ones included, is PASS — lavapipe computes them exactly — and
//! the sweep's exported Amber scripts run back on the device through `spvx amber` with the
//! same verdicts. Without a device the test is skipped (failed when SPVX_REQUIRE_VULKAN=1).

use std::path::PathBuf;
use std::process::{Command, Output};

fn spvx(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_spvx"))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run spvx: {e}"))
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
}

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("spvx-cli-conform-vk-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn have_device() -> bool {
    match spvx_vk::VkRunner::new(&spvx_vk::DeviceChoice::First) {
        Ok(_) => true,
        Err(e) => {
            assert!(
                std::env::var("SPVX_REQUIRE_VULKAN").as_deref() != Ok("1"),
                "SPVX_REQUIRE_VULKAN=1 but no Vulkan device: {e}"
            );
            eprintln!("skipped: no Vulkan device ({e})");
            false
        }
    }
}

#[test]
fn every_integer_dot_product_form_passes_on_the_device_and_its_amber_scripts_run_back() {
    if !have_device() {
        return;
    }
    let dir = temp("intdot");
    let am = dir.join("amber");
    let out = dir.join("out");
    let o = spvx(&[
        "conform",
        "intdot",
        "--device",
        "vulkan",
        "--cases",
        "256",
        "--out",
        &out.display().to_string(),
        "--amber",
        &am.display().to_string(),
    ]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(
        t.contains("772 forms: 652 PASS, 0 FAIL, 120 UNSUPPORTED"),
        "{t}"
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap_or_default())
            .unwrap_or_else(|e| panic!("{e}"));
    let forms = report["forms"].as_array().cloned().unwrap_or_default();
    let wide = forms
        .iter()
        .filter(|f| f["id"].as_str().is_some_and(|id| id.ends_with("64")))
        .count();
    assert!(
        wide >= 100,
        "the 64-bit result forms are in the sweep ({wide})"
    );
    // Every form PASSes but the 8- and 16-component ones, which need Vector16: no Vulkan
    // feature exposes it, so they are UNSUPPORTED naming it.
    for f in &forms {
        let id = f["id"].as_str().unwrap_or_default();
        if id.contains("x8/") || id.contains("x16/") {
            assert_eq!(f["verdict"]["status"], "UNSUPPORTED", "{id}");
            assert!(
                f["verdict"]["missing"]
                    .as_str()
                    .is_some_and(|m| m.contains("capability Vector16")),
                "{f}"
            );
        } else {
            assert_eq!(f["verdict"]["status"], "PASS", "{id}");
        }
    }
    // The exported scripts: PASS on the device as in the sweep.
    let mut scripts: Vec<String> = std::fs::read_dir(&am)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "amber"))
                .map(|p| p.display().to_string())
                .collect()
        })
        .unwrap_or_default();
    scripts.sort();
    assert_eq!(scripts.len(), 772);
    let mut args = vec!["amber", "--device", "vulkan"];
    args.extend(scripts.iter().map(String::as_str));
    let o = spvx(&args);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("772 scripts: 652 passed, 0 failed, 120 skipped, 0 errors"),
        "{}",
        text(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_device_is_chosen_by_index_or_name() {
    if !have_device() {
        return;
    }
    let o = spvx(&[
        "conform",
        "intdot",
        "--device-index",
        "0",
        "--only",
        "OpUDot/u8x4",
        "--cases",
        "64",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("4 forms: 4 PASS"), "{}", text(&o));
    let o = spvx(&["conform", "intdot", "--device-index", "99", "--cases", "64"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o).contains("no Vulkan device with index 99"),
        "{}",
        text(&o)
    );
    let o = spvx(&[
        "conform",
        "intdot",
        "--device-index",
        "0",
        "--device-name",
        "x",
    ]);
    assert!(
        text(&o).contains("either --device-index or --device-name"),
        "{}",
        text(&o)
    );
}

/// Fixed point and subgroup matrix multiply-accumulate on a Vulkan device: UNSUPPORTED, naming
/// the capability no Vulkan feature exposes; a fixed-point form's exported script is skipped
/// by `spvx amber` on the device naming the same (the device lacks it, as UNSUPPORTED says).
#[test]
fn fixed_point_and_smma_forms_are_unsupported_on_the_device() {
    if !have_device() {
        return;
    }
    let dir = temp("fixed");
    let am = dir.join("amber");
    let o = spvx(&[
        "conform",
        "fixed",
        "--device",
        "vulkan",
        "--only",
        "OpFixedSqrtINTEL/s8i4/s8i7/q6",
        "--cases",
        "64",
        "--amber",
        &am.display().to_string(),
    ]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("4 forms: 0 PASS, 0 FAIL, 4 UNSUPPORTED"), "{t}");
    assert!(t.contains("ArbitraryPrecisionFixedPointINTEL"), "{t}");
    assert!(
        t.contains("SPV_INTEL_arbitrary_precision_fixed_point"),
        "{t}"
    );
    let script = am.join("fixed_OpFixedSqrtINTEL_s8i4_s8i7_q6o1.c0.amber");
    let o = spvx(&["amber", "--device", "vulkan", &script.display().to_string()]);
    assert!(
        text(&o).contains("SKIP ")
            && text(&o).contains("lacks support for SPV_INTEL_arbitrary_precision_fixed_point"),
        "{}",
        text(&o)
    );
    let o = spvx(&[
        "conform", "smma", "--device", "vulkan", "--only", "/m2/u8-", "--cases", "64",
    ]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("0 PASS, 0 FAIL, 12 UNSUPPORTED"), "{t}");
    assert!(
        t.contains("capability SubgroupMatrixMultiplyAccumulateINTEL"),
        "{t}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
