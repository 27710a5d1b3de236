//! `spvx conform` end to end on the engine: the table, the report files (the same bytes for
//! the same seed, whatever --jobs), the exit status, --shard with `conform merge` giving the
//! whole sweep's verdicts, the exported modules valid for spirv-val (SPIRV-Tools 2025.5,
//! Vulkan 1.3), the exported Amber scripts passing in `spvx amber`, and refused arguments.

use spvx_testtools::temp_dir;
use std::path::Path;
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

fn s(p: &Path) -> String {
    p.display().to_string()
}

fn json(p: &Path) -> serde_json::Value {
    let t = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    serde_json::from_str(&t).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn a_sweep_prints_the_table_writes_reports_and_is_deterministic() {
    let scratch = temp_dir("cli-conform");
    let (a, b) = (scratch.path().join("det-a"), scratch.path().join("det-b"));
    let only = "OpSUDotAccSat/s8x";
    let o = spvx(&[
        "conform",
        "intdot",
        "--only",
        only,
        "--cases",
        "300",
        "--seed",
        "5",
        "--jobs",
        "1",
        "--out",
        &s(&a),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let out = text(&o);
    assert!(out.contains("target: engine"), "{out}");
    assert!(
        out.contains("seed 5, 320 cases per form, shard 1/1"),
        "{out}"
    );
    // OpSUDotAccSat with a signed 8-bit Vector 1: 3 lengths × 4 result widths × 2 result
    // signedness = 24 forms.
    assert!(out.contains("24 forms: 24 PASS, 0 FAIL"), "{out}");
    let o = spvx(&[
        "conform",
        "intdot",
        "--only",
        only,
        "--cases",
        "300",
        "--seed",
        "5",
        "--jobs",
        "2",
        "--out",
        &s(&b),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    for f in ["report.json", "report.md"] {
        let (x, y) = (std::fs::read(a.join(f)), std::fs::read(b.join(f)));
        assert!(
            x.is_ok() && x.ok() == y.ok(),
            "{f} differs between --jobs 1 and 2"
        );
    }
    let r = json(&a.join("report.json"));
    assert_eq!(r["seed"], 5);
    assert_eq!(r["forms"].as_array().map(Vec::len), Some(24));
    assert_eq!(r["forms"][0]["verdict"]["status"], "PASS");
    let md = std::fs::read_to_string(a.join("report.md")).unwrap_or_default();
    assert!(
        md.contains("| `intdot/OpSUDotAccSat/s8x2/u8x2/u8` | PASS | "),
        "{md}"
    );
    // --json prints the same document.
    let o = spvx(&[
        "conform", "intdot", "--only", only, "--cases", "300", "--seed", "5", "--json",
    ]);
    let printed: serde_json::Value =
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&o)));
    assert_eq!(printed, r);
}

#[test]
fn shards_merge_into_the_whole_sweep() {
    let scratch = temp_dir("cli-conform");
    let dir = scratch.path().join("shards");
    let common = [
        "conform", "intdot", "--only", "/u16x4/", "--cases", "4200", "--seed", "3",
    ];
    let whole = dir.join("whole");
    let o = spvx(&[&common[..], &["--out", &s(&whole)]].concat());
    assert!(o.status.success(), "{}", text(&o));
    let mut reports = Vec::new();
    for k in 1..=3 {
        let d = dir.join(format!("s{k}"));
        let shard = format!("{k}/3");
        let o = spvx(&[&common[..], &["--shard", &shard, "--out", &s(&d)]].concat());
        assert!(o.status.success(), "{}", text(&o));
        reports.push(s(&d.join("report.json")));
    }
    let merged = dir.join("merged");
    let m = s(&merged);
    let mut args = vec!["conform", "merge"];
    args.extend(reports.iter().map(String::as_str));
    args.extend(["--out", &m]);
    let o = spvx(&args);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("shards 1/3, 2/3, 3/3"), "{}", text(&o));
    let (w, m) = (
        json(&whole.join("report.json")),
        json(&merged.join("report.json")),
    );
    assert_eq!(w["forms"], m["forms"]);
    assert!(w["forms"].as_array().is_some_and(|f| f.len() > 4));
    // Two shards only: the report says which is missing.
    let o = spvx(&["conform", "merge", &reports[0], &reports[2]]);
    assert!(
        text(&o).contains("incomplete: shards 2/3 not merged"),
        "{}",
        text(&o)
    );
    // A FAIL in a shard makes the merge exit 1.
    let mut bad = json(Path::new(&reports[1]));
    bad["forms"][0]["verdict"] = serde_json::json!({
        "status": "FAIL", "case": 7, "chunk": 0, "invocation": [7, 0, 0],
        "inputs": ["a = [1]"], "expected": "1", "got": "2", "mismatches": 1
    });
    let badp = dir.join("bad.json");
    std::fs::write(&badp, bad.to_string()).unwrap_or_else(|e| panic!("{e}"));
    let o = spvx(&["conform", "merge", &reports[0], &s(&badp), &reports[2]]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("FAIL "), "{}", text(&o));
}

#[test]
fn exported_cases_are_valid_modules_and_pass_in_spvx_amber_and_spvx_run() {
    let scratch = temp_dir("cli-conform");
    let dir = scratch.path().join("export");
    let am = dir.join("amber");
    let o = spvx(&[
        "conform",
        "intdot",
        "--only",
        "/s64x3/",
        "--cases",
        "64",
        "--amber",
        &s(&am),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let mut scripts: Vec<String> = std::fs::read_dir(&am)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "amber"))
                .map(|p| s(&p))
                .collect()
        })
        .unwrap_or_default();
    scripts.sort();
    // OpSDot, OpSUDot and their AccSat forms × 2 result signedness (OpUDot has no signed
    // 64-bit vectors).
    assert_eq!(scripts.len(), 8, "{scripts:?}");
    let mut args = vec!["amber".to_string()];
    args.extend(scripts.iter().cloned());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = spvx(&args);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("8 scripts: 8 passed"), "{}", text(&o));
    // The run file of a case passes in spvx run.
    let toml = scripts[0].replace(".amber", ".toml");
    let o = spvx(&["run", &toml]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("PASS: 1 of 1"), "{}", text(&o));
    // Each module is valid SPIR-V for Vulkan 1.3 according to SPIRV-Tools.
    if let (Some(asm), Some(val)) = (
        spvx_testtools::tool("spirv-as"),
        spvx_testtools::tool("spirv-val"),
    ) {
        for m in std::fs::read_dir(&am).into_iter().flatten().flatten() {
            let p = m.path();
            if p.extension().is_none_or(|e| e != "spvasm") {
                continue;
            }
            let bin = p.with_extension("spv");
            let a = Command::new(&asm)
                .args(["--target-env", "spv1.6", "-o"])
                .arg(&bin)
                .arg(&p)
                .output()
                .unwrap_or_else(|e| panic!("{e}"));
            assert!(a.status.success(), "{}: {}", p.display(), text(&a));
            let v = Command::new(&val)
                .args(["--target-env", "vulkan1.3"])
                .arg(&bin)
                .output()
                .unwrap_or_else(|e| panic!("{e}"));
            assert!(v.status.success(), "{}: {}", p.display(), text(&v));
        }
    }
}

/// The VALVE mixed dot forms' exported scripts run on the engine, which has the VALVE,
/// bfloat16 and float8 extensions they name (DEVICE_EXTENSION), and pass there.
#[test]
fn exported_mixdot_scripts_pass_on_the_engine() {
    let scratch = temp_dir("cli-conform");
    let dir = scratch.path().join("export_mixdot");
    let am = dir.join("amber");
    let o = spvx(&["conform", "mixdot", "--cases", "32", "--amber", &s(&am)]);
    assert!(o.status.success(), "{}", text(&o));
    let mut scripts: Vec<String> = std::fs::read_dir(&am)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "amber"))
                .map(|p| s(&p))
                .collect()
        })
        .unwrap_or_default();
    scripts.sort();
    assert_eq!(scripts.len(), 8, "{scripts:?}");
    let mut args = vec!["amber".to_string()];
    args.extend(scripts.iter().cloned());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = spvx(&args);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("8 scripts: 8 passed"), "{}", text(&o));
}

#[test]
fn bad_arguments_are_refused_by_name() {
    let o = spvx(&["conform", "intdot", "--shard", "4/3"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o).contains("--shard '4/3': expected K/N with 1 <= K <= N"),
        "{}",
        text(&o)
    );
    let o = spvx(&["conform", "intdot", "--shard", "0/3"]);
    assert!(text(&o).contains("--shard '0/3'"), "{}", text(&o));
    let o = spvx(&["conform", "floats"]);
    assert!(
        text(&o).contains("unknown extension 'floats'"),
        "{}",
        text(&o)
    );
    let o = spvx(&["conform", "intdot", "--only", "OpNoSuchDot"]);
    assert!(
        text(&o).contains("--only 'OpNoSuchDot': no form's id contains it"),
        "{}",
        text(&o)
    );
    let o = spvx(&["conform", "merge", "/nonexistent/report.json"]);
    assert!(
        text(&o).contains("cannot read /nonexistent/report.json"),
        "{}",
        text(&o)
    );
}

/// Assembles and validates (SPIRV-Tools 2025.5, SPIR-V 1.6 universal environment) every
/// exported module of `dir`; the only error allowed is 2025.5's "Invalid number of bits" for
/// integer widths other than 8/16/32/64 (docs/semantics/fixed-point.md); returns how many
/// modules validated.
fn spirv_val_all(dir: &Path) -> usize {
    let (Some(asm), Some(val)) = (
        spvx_testtools::tool("spirv-as"),
        spvx_testtools::tool("spirv-val"),
    ) else {
        return 0;
    };
    let mut valid = 0;
    for m in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = m.path();
        if p.extension().is_none_or(|e| e != "spvasm") {
            continue;
        }
        let bin = p.with_extension("spv");
        let a = Command::new(&asm)
            .args(["--target-env", "spv1.6", "-o"])
            .arg(&bin)
            .arg(&p)
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(a.status.success(), "{}: {}", p.display(), text(&a));
        let v = Command::new(&val)
            .args(["--target-env", "spv1.6"])
            .arg(&bin)
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        if v.status.success() {
            valid += 1;
        } else {
            assert!(
                text(&v).contains("Invalid number of bits"),
                "{}: {}",
                p.display(),
                text(&v)
            );
        }
    }
    valid
}

fn amber_scripts(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "amber"))
                .map(|p| s(&p))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// Every fixed-point form passes on the engine (the default engine against the interpreter)
/// at 64 cases; a filtered export's Amber scripts pass in `spvx amber` on the engine and its
/// run files in `spvx run`.
#[test]
fn fixed_point_forms_pass_and_their_scripts_run_back() {
    let o = spvx(&["conform", "fixed", "--cases", "64"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("4032 forms: 4032 PASS, 0 FAIL, 0 UNSUPPORTED"),
        "{}",
        text(&o)
    );
    let scratch = temp_dir("cli-conform");
    let dir = scratch.path().join("fixed");
    let am = dir.join("amber");
    let o = spvx(&[
        "conform",
        "fixed",
        "--only",
        "q6o1",
        "--cases",
        "64",
        "--amber",
        &s(&am),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let scripts = amber_scripts(&am);
    // 5 shapes × (9 + 2 vector pairs) + 4 packed-pair shapes × 2, × 2 S.
    assert_eq!(scripts.len(), 126);
    let mut args = vec!["amber".to_string()];
    args.extend(scripts.iter().cloned());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = spvx(&args);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("126 scripts: 126 passed"), "{}", text(&o));
    // The 8-, 32→16- and 64-bit shapes' modules (13, 13 and 11 layouts) are valid for spirv-val.
    if spvx_testtools::tool("spirv-val").is_some() {
        assert_eq!(spirv_val_all(&am), (13 + 13 + 11) * 2);
    }
    // A run file of a form with masked (undefined) invocations passes in spvx run.
    let toml = am.join("fixed_OpFixedRsqrtINTEL_s13i3_s13i9_q6o1.c0.toml");
    let o = spvx(&["run", &s(&toml)]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("PASS: 1 of 1"), "{}", text(&o));
}

/// Every subgroup matrix multiply-accumulate form passes on the engine at the default 1024
/// cases; the exported Amber scripts require the subgroup size (SUBGROUP … REQUIRED_SIZE),
/// which `spvx amber` refuses by name (SKIP), and the run files (`[run] subgroup_size`) pass.
#[test]
fn smma_forms_pass_and_their_exports_require_the_subgroup_size() {
    let o = spvx(&["conform", "smma"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("365 forms: 365 PASS, 0 FAIL, 0 UNSUPPORTED"),
        "{}",
        text(&o)
    );
    let scratch = temp_dir("cli-conform");
    let dir = scratch.path().join("smma");
    let am = dir.join("amber");
    let o = spvx(&[
        "conform",
        "smma",
        "--only",
        "/m4/s8-u4/",
        "--cases",
        "64",
        "--amber",
        &s(&am),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let scripts = amber_scripts(&am);
    assert_eq!(scripts.len(), 3, "{scripts:?}");
    if spvx_testtools::tool("spirv-val").is_some() {
        assert_eq!(spirv_val_all(&am), 3);
    }
    let script = std::fs::read_to_string(&scripts[0]).unwrap_or_default();
    assert!(script.contains("REQUIRED_SIZE 16"), "{script}"); // sg16 sorts first
    let mut args = vec!["amber".to_string()];
    args.extend(scripts.iter().cloned());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = spvx(&args);
    assert!(text(&o).contains("unsupported: SUBGROUP"), "{}", text(&o));
    assert!(
        text(&o).contains("3 scripts: 0 passed, 0 failed, 3 skipped"),
        "{}",
        text(&o)
    );
    for sc in &scripts {
        let o = spvx(&["run", &sc.replace(".amber", ".toml")]);
        assert!(o.status.success(), "{sc}: {}", text(&o));
        assert!(text(&o).contains("PASS: 1 of 1"), "{}", text(&o));
    }
}

/// Every SPV_ARM_tensors form passes on the engine (the default engine against the
/// interpreter); `--amber` writes a tensor form's run file (its tensors as .bin files) and no
/// Amber script, and the run file passes in `spvx run`.
#[test]
fn every_tensor_form_passes_on_the_engine_and_exports_run_files_only() {
    let o = spvx(&["conform", "tensors", "--cases", "64"]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    let line = t
        .lines()
        .find(|l| l.contains(" forms: "))
        .unwrap_or_else(|| panic!("{t}"));
    let n: u64 = line
        .split(' ')
        .next()
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("{line}"));
    assert!(n > 2000, "{line}");
    assert!(
        line.contains(&format!(
            "{n} forms: {n} PASS, 0 FAIL, 0 UNSUPPORTED, 0 ALLOWED DIFFERENCE, 0 ERROR"
        )),
        "{line}"
    );
    let scratch = temp_dir("cli-conform");
    let dir = scratch.path().join("export_tensors");
    let am = dir.join("amber");
    let o = spvx(&[
        "conform",
        "tensors",
        "--only",
        "tensors/write/array/f16/r2/",
        "--cases",
        "64",
        "--amber",
        &s(&am),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let files: Vec<String> = std::fs::read_dir(&am)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
                .collect()
        })
        .unwrap_or_default();
    assert!(!files.iter().any(|f| f.ends_with(".amber")), "{files:?}");
    let runs: Vec<&String> = files.iter().filter(|f| f.ends_with(".toml")).collect();
    assert_eq!(runs.len(), 2, "{files:?}");
    // Three tensors (an array of 3) per case.
    assert_eq!(
        files.iter().filter(|f| f.contains(".tensor")).count(),
        6,
        "{files:?}"
    );
    for r in runs {
        let o = spvx(&["run", &s(&am.join(r))]);
        assert!(o.status.success(), "{}", text(&o));
        assert!(text(&o).contains("PASS: 1 of 1"), "{}", text(&o));
    }
}
