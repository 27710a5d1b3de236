//! Shared helpers of the assembler tests: finding and running SPIRV-Tools' spirv-as (the
//! oracle), and comparing its words with spvx's.
#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// The spirv-as executable (see `spvx_testtools::tools_dir`), or `None` when missing and not
/// required.
pub fn spirv_as() -> Option<PathBuf> {
    spvx_testtools::tool("spirv-as")
}

/// Assembles `text` with spirv-as; the words, or its error message.
pub fn run_spirv_as(tool: &PathBuf, text: &str, env: Option<&str>) -> Result<Vec<u32>, String> {
    let mut cmd = Command::new(tool);
    if let Some(env) = env {
        cmd.arg("--target-env").arg(env);
    }
    let mut child = cmd
        .args(["-", "-o", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn spirv-as");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = text.as_bytes().to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("run spirv-as");
    let _ = writer.join();
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    Ok(out
        .stdout
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

/// Assembles `text` with spvx; the words or the error as text.
pub fn run_spvx(text: &str) -> Result<Vec<u32>, String> {
    spvx_spirv::asm::assemble(text, &Default::default())
        .map(|m| m.words())
        .map_err(|e| e.to_string())
}

/// Asserts that spvx and spirv-as give the same words for `text`, the generator word aside.
pub fn assert_same(tool: &PathBuf, name: &str, text: &str) {
    let expected = run_spirv_as(tool, text, None)
        .unwrap_or_else(|e| panic!("{name}: spirv-as rejected the text: {e}"));
    let got = run_spvx(text).unwrap_or_else(|e| panic!("{name}: spvx rejected the text: {e}"));
    compare(name, text, &expected, &got);
}

/// Compares two modules' words, ignoring the generator word; on a difference, names the first
/// differing instruction.
pub fn compare(name: &str, text: &str, expected: &[u32], got: &[u32]) {
    let mut e = expected.to_vec();
    let mut g = got.to_vec();
    if e.len() > 2 && g.len() > 2 {
        e[2] = 0;
        g[2] = 0;
    }
    if e == g {
        return;
    }
    let at = e
        .iter()
        .zip(&g)
        .position(|(a, b)| a != b)
        .unwrap_or(e.len().min(g.len()));
    // Find the instruction containing word `at` in the expected module.
    let (mut i, mut n) = (5, 0);
    while i < e.len() {
        let count = (e[i] >> 16).max(1) as usize;
        if at < i + count {
            break;
        }
        i += count;
        n += 1;
    }
    let line = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with(';'))
        .nth(n)
        .unwrap_or("?");
    panic!(
        "{name}: words differ at word {at} (instruction {n}: `{line}`)\n spirv-as: {:08x?}\n spvx:     {:08x?}",
        &e[at.saturating_sub(2)..(at + 6).min(e.len())],
        &g[at.saturating_sub(2)..(at + 6).min(g.len())]
    );
}
