//! A script's shader as a module the engine and spvx-vk take: SPIRV-ASM through spvx's
//! assembler (header version from `TARGET_ENV`, else the script's default: spv1.0 as Amber
//! assembles, spv1.4 when it requires VK_KHR_spirv_1_4), SPIRV-HEX
//! and SPIRV-BIN as binaries, GLSL through `glslangValidator` (`-V`, `--target-env` from
//! `TARGET_ENV`, default vulkan1.0) when it is on PATH.

use super::error::AmberError;
use super::model::{Shader, ShaderSource};
use crate::module::LoadedModule;
use spvx_spirv::asm::{AsmOptions, target_env_version};
use std::process::Command;

/// Whether `env` names a target environment a shader may be built for (spv1.0 … spv1.6,
/// vulkan1.0 … vulkan1.3, as spirv-as names them).
pub fn known_env(env: &str) -> bool {
    target_env_version(env).is_some() && (env.starts_with("spv1.") || env.starts_with("vulkan1."))
}

/// The shader `name`, read (and assembled or compiled). `asm_env` is the target environment of
/// SPIRV-ASM without `TARGET_ENV` (`Script::default_asm_env`); `glsl_env` that of GLSL without
/// it (None: vulkan1.0).
pub fn load(
    sh: &Shader,
    asm_env: &str,
    glsl_env: Option<&str>,
) -> Result<LoadedModule, AmberError> {
    let bad_env = |env: &str| {
        AmberError::parse(
            sh.at.clone(),
            format!("unknown TARGET_ENV '{env}' (spv1.0 … spv1.6, vulkan1.0 … vulkan1.3)"),
        )
    };
    // Text keeps the script's (or FILE's) name, its lines being that file's; a binary is
    // named after the SHADER that gave it, its places being word offsets.
    let binary_name = format!("the SPIR-V of the shader at {}", sh.at);
    let module = |bytes: &[u8], asm: &AsmOptions| {
        let name = if matches!(sh.source, ShaderSource::Asm(_)) {
            sh.origin.clone()
        } else {
            binary_name.clone()
        };
        LoadedModule::from_bytes(name, bytes, asm)
            .map_err(|e| AmberError::run(sh.at.clone(), e.to_string()))
    };
    match &sh.source {
        ShaderSource::Asm(text) => {
            let env = sh.target_env.as_deref().unwrap_or(asm_env);
            let version = target_env_version(env).ok_or_else(|| bad_env(env))?;
            module(text.as_bytes(), &AsmOptions { version })
        }
        ShaderSource::Binary(bytes) => module(bytes, &AsmOptions::default()),
        ShaderSource::Glsl(text) => {
            let env = sh.target_env.as_deref().or(glsl_env).unwrap_or("vulkan1.0");
            let glslang_env = match env {
                e if e.starts_with("vulkan1.") => e.to_string(),
                e if e.starts_with("spv1.") => format!("spirv{}", &e[3..]),
                e => return Err(bad_env(e)),
            };
            let words = glslang(sh, text, &glslang_env)?;
            module(&words, &AsmOptions::default())
        }
    }
}

/// Compiles GLSL compute source with glslangValidator; messages name the script's lines. The
/// source and the module go through a private temporary directory (a fresh name, created with
/// owner-only permissions: another user cannot plant a link at a predictable path), removed
/// with both files on every path.
fn glslang(sh: &Shader, text: &str, env: &str) -> Result<Vec<u8>, AmberError> {
    let fail = |msg: String| AmberError::run(sh.at.clone(), msg);
    let dir = tempfile::Builder::new()
        .prefix("spvx-amber-")
        .tempdir()
        .map_err(|e| fail(format!("cannot create a temporary directory: {e}")))?;
    let src = dir.path().join("shader.comp");
    let out = dir.path().join("shader.spv");
    let text = version_first(text);
    std::fs::write(&src, text.as_ref())
        .map_err(|e| fail(format!("cannot write {}: {e}", src.display())))?;
    let run = Command::new("glslangValidator")
        .arg("-V")
        .arg("--target-env")
        .arg(env)
        .arg("-S")
        .arg("comp")
        .arg("-o")
        .arg(&out)
        .arg(&src)
        .output();
    let run = match run {
        Ok(r) => r,
        Err(e) => {
            return Err(fail(format!(
                "GLSL shaders need glslangValidator on PATH (from glslang), which cannot be run: {e}"
            )));
        }
    };
    let words = std::fs::read(&out);
    if !run.status.success() {
        let log = String::from_utf8_lossy(&run.stdout).to_string()
            + &String::from_utf8_lossy(&run.stderr);
        let log = log.replace(&src.display().to_string(), &sh.origin);
        let lines: Vec<&str> = log
            .lines()
            .filter(|l| !l.trim().is_empty() && l.trim() != sh.origin)
            .collect();
        return Err(fail(format!(
            "glslangValidator rejects the shader:\n{}",
            lines.join("\n")
        )));
    }
    words.map_err(|e| fail(format!("glslangValidator wrote no module: {e}")))
}

/// `text` with its `#version` line moved to the first line when only blank lines (the padding
/// that keeps the script's line numbers) precede it: an ES profile wants `#version` before any
/// newline. The lines after it keep their numbers.
fn version_first(text: &str) -> std::borrow::Cow<'_, str> {
    let lines: Vec<&str> = text.split('\n').collect();
    let Some(i) = lines.iter().position(|l| !l.trim().is_empty()) else {
        return text.into();
    };
    if i == 0 || !lines[i].trim_start().starts_with("#version") {
        return text.into();
    }
    let mut out = String::with_capacity(text.len());
    out.push_str(lines[i]);
    out.push_str(&"\n".repeat(i + 1));
    out.push_str(&lines[i + 1..].join("\n"));
    out.into()
}

#[cfg(test)]
mod tests {
    use super::version_first;

    #[test]
    fn version_moves_to_line_one_and_later_lines_keep_their_numbers() {
        let text = "\n\n#version 310 es\nvoid main() {}\n";
        let moved = version_first(text);
        assert_eq!(moved, "#version 310 es\n\n\nvoid main() {}\n");
        assert_eq!(moved.lines().nth(3), text.lines().nth(3));
        assert_eq!(version_first("#version 450\n"), "#version 450\n");
        assert_eq!(
            version_first("\n// c\n#version 450\n"),
            "\n// c\n#version 450\n"
        );
    }
}
