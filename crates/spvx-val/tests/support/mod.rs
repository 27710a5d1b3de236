//! Shared test support: assemble a text module and validate it with spvx; run spirv-val 2025.5
//! on the same text for comparison.

#![allow(dead_code)]

use spvx_spirv::asm::{AsmOptions, assemble};
use spvx_val::{Options, TargetEnv, ValError, errors};
use std::path::PathBuf;
use std::process::Command;

/// Assembles `text` (spirv-as syntax) for `env` and validates it.
pub fn validate_text(text: &str, env: &str) -> Vec<ValError> {
    let target = TargetEnv::parse(env).unwrap_or_else(|| panic!("bad target env {env}"));
    let opts = AsmOptions {
        version: target.max_version,
    };
    let asm = assemble(text, &opts)
        .unwrap_or_else(|e| panic!("test module does not assemble: {e}\n{text}"));
    let insts: Vec<_> = asm.instructions().cloned().collect();
    errors(
        &asm.header,
        &insts,
        &Options {
            target_env: target,
            ..Options::default()
        },
    )
}

/// The directory of SPIRV-Tools binaries (see `spvx_testtools::tools_dir`), or `None` (then a
/// test returns early unless `SPVX_REQUIRE_TOOLS=1`, in which case it fails).
pub fn tools_dir() -> Option<PathBuf> {
    spvx_testtools::tools_dir()
}

/// spirv-val's verdict (true = valid) on `text` for `env`, with its message; `None` when
/// spirv-as (2025.5) cannot assemble the text (e.g. instructions it does not know).
pub fn spirv_val(dir: &std::path::Path, text: &str, env: &str) -> Option<(bool, String)> {
    let scratch = spvx_testtools::temp_dir("val");
    let tmp = scratch.path();
    let src = tmp.join("m.spvasm");
    let bin = tmp.join("m.spv");
    std::fs::write(&src, text).ok()?;
    let asm = Command::new(dir.join("spirv-as"))
        .args(["--target-env", env])
        .arg(&src)
        .arg("-o")
        .arg(&bin)
        .output()
        .ok()?;
    if !asm.status.success() {
        return None;
    }
    let val = Command::new(dir.join("spirv-val"))
        .args(["--target-env", env])
        .arg(&bin)
        .output()
        .ok()?;
    let msg =
        String::from_utf8_lossy(&val.stderr).to_string() + &String::from_utf8_lossy(&val.stdout);
    Some((val.status.success(), msg))
}

/// Asserts spvx-val's verdict on `text` for `env`: valid when `expect` is `None`, otherwise an
/// error whose message contains `expect`.
pub fn assert_spvx(text: &str, env: &str, expect: Option<&str>) {
    let errors = validate_text(text, env);
    let shown: Vec<String> = errors.iter().map(ToString::to_string).collect();
    match expect {
        None => assert!(shown.is_empty(), "expected valid, got {shown:#?}\n{text}"),
        Some(m) => assert!(
            shown.iter().any(|e| e.contains(m)),
            "expected an error containing {m:?}, got {shown:#?}\n{text}"
        ),
    }
}

/// spirv-val's verdict on `text` for `env` (`(valid, message)`), or `None` when SPIRV-Tools is
/// not installed; a module spirv-as cannot assemble fails the test.
pub fn spirv_val_verdict(text: &str, env: &str) -> Option<(bool, String)> {
    let dir = tools_dir()?;
    Some(
        spirv_val(&dir, text, env)
            .unwrap_or_else(|| panic!("spirv-as 2025.5 cannot assemble the module\n{text}")),
    )
}

/// [`assert_spvx`], then spirv-val must give the same verdict.
pub fn judge(text: &str, env: &str, expect: Option<&str>) {
    assert_spvx(text, env, expect);
    if let Some((ok, msg)) = spirv_val_verdict(text, env) {
        assert_eq!(ok, expect.is_none(), "spirv-val disagrees: {msg}\n{text}");
    }
}
