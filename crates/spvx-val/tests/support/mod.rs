//! Shared test support: assemble a text module and validate it with spvx; run spirv-val 2025.5
//! on the same text for comparison.

#![allow(dead_code)]

use spvx_spirv::asm::{AsmOptions, assemble};
use spvx_val::{Options, TargetEnv, ValError, validate};
use std::path::{Path, PathBuf};
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
    validate(&asm.header, &insts, &Options { target_env: target })
}

/// The directory of SPIRV-Tools binaries (holding spirv-as and spirv-val), or `None` (then a
/// test returns early unless `SPVX_REQUIRE_TOOLS=1`, in which case it fails).
///
/// `$SPVX_SPIRV_TOOLS` first, else the `spirv-val` found on PATH. A wrapper such as a pyenv
/// shim costs ~0.5 s per call, so the real executable is resolved once: spirv-val prints its
/// own path first in `--help` (the approach of spvx-spirv's `tests/asm_tools`). Resolved once
/// per test process.
pub fn tools_dir() -> Option<PathBuf> {
    static DIR: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    let dir = DIR.get_or_init(find_tools).clone();
    if dir.is_none() && std::env::var("SPVX_REQUIRE_TOOLS").as_deref() == Ok("1") {
        panic!("SPIRV-Tools (spirv-as, spirv-val) not found but SPVX_REQUIRE_TOOLS=1");
    }
    dir
}

fn find_tools() -> Option<PathBuf> {
    let has_tools = |d: &Path| d.join("spirv-val").is_file() && d.join("spirv-as").is_file();
    if let Some(d) = std::env::var_os("SPVX_SPIRV_TOOLS").map(PathBuf::from)
        && has_tools(&d)
    {
        return Some(d);
    }
    let out = Command::new("spirv-val").arg("--help").output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let real = PathBuf::from(text.split_whitespace().next()?);
    let dir = real.parent()?.to_path_buf();
    if real.is_absolute() && has_tools(&dir) {
        return Some(dir);
    }
    // No path in --help: take the first PATH directory holding both tools.
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).find(|d| has_tools(d))
}

/// spirv-val's verdict (true = valid) on `text` for `env`, with its message; `None` when
/// spirv-as (2025.5) cannot assemble the text (e.g. instructions it does not know).
pub fn spirv_val(dir: &std::path::Path, text: &str, env: &str) -> Option<(bool, String)> {
    let tmp = std::env::temp_dir().join(format!(
        "spvx-val-{}-{}",
        std::process::id(),
        std::thread::current()
            .name()
            .unwrap_or("t")
            .replace("::", "_")
    ));
    std::fs::create_dir_all(&tmp).ok()?;
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
