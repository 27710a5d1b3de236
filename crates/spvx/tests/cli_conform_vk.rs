//! `spvx conform intdot --device vulkan` on the Vulkan device (lavapipe in CI): every integer
//! dot product form, the 64-bit ones included, is PASS — lavapipe computes them exactly — and
//! the sweep's exported Amber scripts run back on the device through `spvx amber` with the
//! same verdicts. Without a device the test is skipped (failed when SPVX_REQUIRE_VULKAN=1).

use spvx_testtools::temp_dir;
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
    let scratch = temp_dir("cli-conform-vk");
    let dir = scratch.path().join("intdot");
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
    let scratch = temp_dir("cli-conform-vk");
    let dir = scratch.path().join("fixed");
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
}

fn spvx_env(args: &[&str], layer: Option<&std::path::Path>) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_spvx"));
    c.args(args).env_remove("VK_INSTANCE_LAYERS");
    if let Some(l) = layer {
        c.env("LD_LIBRARY_PATH", l.join("lib"))
            .env("VK_LAYER_PATH", l.join("share/vulkan/explicit_layer.d"))
            .env("VK_INSTANCE_LAYERS", "VK_LAYER_ML_Tensor_Emulation");
    }
    c.output()
        .unwrap_or_else(|e| panic!("cannot run spvx: {e}"))
}

/// The `N forms: …` line's counts: (forms, PASS, UNSUPPORTED).
fn tally(t: &str) -> (u64, u64, u64) {
    let line = t
        .lines()
        .find(|l| l.contains(" forms: "))
        .unwrap_or_default();
    let num = |word: &str| -> u64 {
        let words: Vec<&str> = line.split([' ', ',']).filter(|w| !w.is_empty()).collect();
        words
            .windows(2)
            .find(|w| w[1] == word)
            .and_then(|w| w[0].parse().ok())
            .unwrap_or(u64::MAX)
    };
    (num("forms:"), num("PASS"), num("UNSUPPORTED"))
}

/// SPV_ARM_tensors forms on the device. Without VK_ARM_tensors (plain lavapipe) every form is
/// UNSUPPORTED naming it. Through Arm's emulation layer (SPVX_EMULATION_LAYER, as vk_cli.rs):
/// reads with and without OutOfBoundsValueARM and Nontemporal, writes read back, strided and
/// packed tensors, every element type, unsigned coordinates at ranks 1, 3 and 5 — all PASS;
/// arrays of tensors (indexed non-uniformly), shaped types and ranks above the device's
/// maxTensorDimensionCount are UNSUPPORTED with the feature the layer lacks, Vulkan's and the
/// limit's reasons.
/// (Forms the layer 0.11.0 gets wrong or crashes on are listed in docs/semantics/conform.md.)
#[test]
fn tensor_forms_on_the_device_with_and_without_the_emulation_layer() {
    if !have_device() {
        return;
    }
    let native = spvx_vk::VkRunner::new(&spvx_vk::DeviceChoice::First)
        .map(|r| r.features().tensors)
        .unwrap_or(false);
    if !native {
        let o = spvx_env(
            &[
                "conform",
                "tensors",
                "--device",
                "vulkan",
                "--only",
                "/r3/cu32/x3/",
                "--cases",
                "64",
            ],
            None,
        );
        let t = text(&o);
        assert!(o.status.success(), "{t}");
        let (n, pass, unsupported) = tally(&t);
        assert!(n >= 12 && pass == 0 && unsupported == n, "{t}");
        assert_eq!(
            t.lines().filter(|l| l.starts_with("UNSUPPORTED")).count() as u64,
            n,
            "{t}"
        );
        assert!(
            t.lines()
                .filter(|l| l.starts_with("UNSUPPORTED"))
                .all(|l| l.contains("missing: tensors (VK_ARM_tensors)")),
            "{t}"
        );
    }
    let Ok(layer) = std::env::var("SPVX_EMULATION_LAYER") else {
        if std::env::var("SPVX_REQUIRE_VULKAN").is_ok_and(|v| v == "1") {
            panic!("SPVX_REQUIRE_VULKAN=1 but SPVX_EMULATION_LAYER is not set");
        }
        eprintln!("skipped: SPVX_EMULATION_LAYER not set");
        return;
    };
    let layer = PathBuf::from(layer);
    for (only, forms) in [
        ("/r3/cu32/x3/oob/", 12),
        ("/r5/cu32/x3/none/", 24),
        ("/r1/cu32/x1/nt/", 24),
    ] {
        let o = spvx_env(
            &[
                "conform", "tensors", "--device", "vulkan", "--only", only, "--cases", "256",
            ],
            Some(&layer),
        );
        let t = text(&o);
        assert!(o.status.success(), "{only}: {t}");
        let (n, pass, unsupported) = tally(&t);
        assert!(n >= forms && pass == n && unsupported == 0, "{only}: {t}");
    }
    for (only, reason) in [
        (
            "tensors/read/array/i32/r2/",
            "shaderStorageTensorArrayNonUniformIndexing (VK_ARM_tensors)",
        ),
        (
            "tensors/size/shaped/",
            "VUID-RuntimeSpirv-OpTypeTensorARM-09902",
        ),
        // Ranks above the device's maxTensorDimensionCount (6 on the layer): refused before
        // vkCreateTensorARM, where the layer throws a C++ exception that aborts the process.
        ("/r7/cu32/x3/nt/", "maxTensorDimensionCount >= 7"),
        (
            "tensors/size/single/f64/r8/",
            "maxTensorDimensionCount >= 8",
        ),
    ] {
        let o = spvx_env(
            &[
                "conform", "tensors", "--device", "vulkan", "--only", only, "--cases", "64",
            ],
            Some(&layer),
        );
        let t = text(&o);
        assert!(o.status.success(), "{only}: {t}");
        let (n, _, unsupported) = tally(&t);
        assert!(n > 0 && unsupported == n, "{only}: {t}");
        assert!(
            t.lines()
                .filter(|l| l.starts_with("UNSUPPORTED"))
                .all(|l| l.contains(reason)),
            "{only}: {t}"
        );
    }
}

/// `--isolate`: each form in a process of its own. On Arm's emulation layer a write with
/// MakeElementAvailableARM aborts the process (layer finding 4 in docs/semantics/conform.md):
/// under --isolate those forms are ERROR naming the crash, the other forms of the sweep still
/// PASS, the report is written, and the exit status is 1. Without --device it is refused.
#[test]
fn isolate_survives_a_crashing_layer() {
    let o = spvx_env(&["conform", "intdot", "--isolate"], None);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o).contains("--isolate runs a device's forms"),
        "{}",
        text(&o)
    );
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
    let scratch = temp_dir("cli-conform-vk");
    let dir = scratch.path().join("isolate");
    let out = dir.join("out");
    let o = spvx_env(
        &[
            "conform",
            "tensors",
            "--device",
            "vulkan",
            "--isolate",
            "--only",
            "tensors/write/single/i32/r1/cu32/x1/",
            "--cases",
            "64",
            "--out",
            &out.display().to_string(),
        ],
        Some(&PathBuf::from(layer)),
    );
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert!(
        t.contains("4 forms: 2 PASS, 0 FAIL, 0 UNSUPPORTED, 0 ALLOWED DIFFERENCE, 2 ERROR"),
        "{t}"
    );
    for id in ["x1/np+avail/packed", "x1/nt+np+avail/packed"] {
        assert!(
            t.lines().any(|l| l.starts_with("ERROR")
                && l.contains(id)
                && l.contains("the device run's process was killed")
                && l.contains("the driver or a layer crashed")),
            "{id}: {t}"
        );
    }
    // The report: the four forms, the target as the children named the device.
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap_or_default())
            .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report["forms"].as_array().map(Vec::len), Some(4));
    assert!(
        report["target"]
            .as_str()
            .is_some_and(|t| t.contains("driver")),
        "{report}"
    );
}
