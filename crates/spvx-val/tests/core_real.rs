//! The real modules of crates/spvx-spirv/tests/corpus/real/ (glslang and clang/llvm-spirv
//! outputs) validate with spvx, and spirv-val 2025.5 agrees on each verdict.
//!
//! The independent reference is the producing compilers (their output is meant to be valid)
//! and spirv-val. A module spirv-val rejects (e.g. one using the VALVE instructions it does not
//! know) is reported with its message and must be one spvx has a documented reason to accept.

mod support;

use spvx_spirv::binary::read_bytes;
use spvx_val::{Options, TargetEnv, errors};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The shared real corpus, and spvx-val's own glslang outputs in tests/corpus/core/glsl/
/// (control flow, memory, 8/16/64-bit types, subgroups, HLSL; regenerate with
/// `glslangValidator -V --target-env vulkan1.3 -o X.comp.spv X.comp`, `--target-env vulkan1.0
/// -o control.vk10.spv control.comp`, and `-D -e main -S comp --target-env vulkan1.1` for
/// loops.hlsl).
fn real_modules() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut v: Vec<PathBuf> = Vec::new();
    for dir in ["../spvx-spirv/tests/corpus/real", "tests/corpus/core/glsl"] {
        if let Ok(d) = std::fs::read_dir(root.join(dir)) {
            v.extend(
                d.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|x| x == "spv")),
            );
        }
    }
    v.sort();
    v
}

/// The environment each module was produced for: Vulkan for GLSL and HLSL (the version it was
/// compiled for), universal SPIR-V 1.6 for OpenCL C.
fn env_for(path: &Path) -> &'static str {
    let name = path.to_string_lossy();
    if name.ends_with(".cl.spv") {
        "spv1.6"
    } else if name.ends_with(".vk10.spv") {
        "vulkan1.0"
    } else if name.ends_with(".hlsl.spv") {
        "vulkan1.1"
    } else {
        "vulkan1.3"
    }
}

/// spirv-val's verdict and message on a binary file.
fn spirv_val_file(dir: &Path, path: &Path, env: &str) -> Option<(bool, String)> {
    let out = Command::new(dir.join("spirv-val"))
        .args(["--target-env", env])
        .arg(path)
        .output()
        .ok()?;
    let msg =
        String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
    Some((out.status.success(), msg))
}

/// Modules a producer got wrong, and the spvx error that must name the mistake.
/// kernel.cl.spv: llvm-spirv 15 puts `OpLoopMerge` before a comparison instead of directly
/// before the branch (SPIR-V §2.11), and lays the loop exit out before its dominator.
const KNOWN_INVALID: [(&str, &str); 1] = [(
    "kernel.cl.spv",
    "OpLoopMerge must immediately precede either an OpBranch or OpBranchConditional",
)];

/// Modules spirv-val 2025.5 cannot judge: fixed.cl.spv declares 13- and 5-bit integers, which
/// SPIRV-Tools accepts with ArbitraryPrecisionIntegersALTERA only since 2026
/// (reference/acfixed.md); mixdot.comp.spv uses the 2026 VALVE capability 6912.
const UNKNOWN_TO_SPIRV_VAL: [&str; 2] = ["fixed.cl.spv", "mixdot.comp.spv"];

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default()
}

fn spvx_errors(path: &Path) -> Vec<String> {
    let bytes = std::fs::read(path).expect("read real module");
    let m = read_bytes(&bytes).expect("real module decodes");
    let opts = Options {
        target_env: TargetEnv::parse(env_for(path)).expect("env"),
        ..Options::default()
    };
    errors(&m.header, &m.instructions, &opts)
        .iter()
        .map(|e| format!("{:?}: {e}", e.index))
        .collect()
}

#[test]
fn real_modules_validate() {
    let files = real_modules();
    assert!(files.len() >= 14, "real corpus missing: {files:?}");
    let mut failures = Vec::new();
    for path in &files {
        let errors = spvx_errors(path);
        let name = file_name(path);
        match KNOWN_INVALID.iter().find(|(n, _)| *n == name) {
            Some((_, expected)) => {
                if !errors.iter().any(|e| e.contains(expected)) {
                    failures.push(format!(
                        "{name}: expected an error {expected:?}, got {errors:#?}"
                    ));
                }
            }
            None => {
                if !errors.is_empty() {
                    failures.push(format!("{name}: {errors:#?}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn real_modules_agree_with_spirv_val() {
    let Some(dir) = support::tools_dir() else {
        eprintln!("spirv-val not found: comparison skipped");
        return;
    };
    let mut failures = Vec::new();
    for path in real_modules() {
        let name = file_name(&path);
        if UNKNOWN_TO_SPIRV_VAL.contains(&name.as_str()) {
            continue;
        }
        let Some((theirs, msg)) = spirv_val_file(&dir, &path, env_for(&path)) else {
            continue;
        };
        let ours = spvx_errors(&path).is_empty();
        if ours != theirs {
            failures.push(format!(
                "{name}: spvx valid={ours}, spirv-val valid={theirs}: {msg}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
