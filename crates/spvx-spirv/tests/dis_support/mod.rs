//! Shared helpers of the disassembler tests: finding and running SPIRV-Tools' spirv-as and
//! spirv-dis (the reference), and comparing spvx's output with theirs.
//!
//! The tools are looked up in `$SPVX_SPIRV_TOOLS` (a bin directory), then on `PATH`. When they
//! are missing, tests print a note and pass, unless `SPVX_REQUIRE_TOOLS=1`, which makes them fail.

#![allow(dead_code)]

pub mod generate;

use spvx_spirv::dis::{DisOptions, disassemble_bytes};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Paths of the reference tools.
pub struct Tools {
    pub spirv_as: PathBuf,
    pub spirv_dis: PathBuf,
}

/// The tools, or `None` (after a note) when they are missing and not required (see
/// `spvx_testtools::tools_dir`).
pub fn tools() -> Option<Tools> {
    let dir = spvx_testtools::tools_dir()?;
    Some(Tools {
        spirv_as: dir.join("spirv-as"),
        spirv_dis: dir.join("spirv-dis"),
    })
}

fn run(tool: &Path, args: &[&str], input: &[u8]) -> Result<Vec<u8>, String> {
    let mut child = Command::new(tool)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", tool.display()))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let data = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&data));
    let out = child
        .wait_with_output()
        .map_err(|e| format!("{} failed: {e}", tool.display()))?;
    let _ = writer.join();
    if !out.status.success() {
        return Err(format!(
            "{} {:?} failed: {}",
            tool.display(),
            args,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(out.stdout)
}

impl Tools {
    /// Assembles text with spirv-as (SPIR-V 1.6).
    pub fn assemble(&self, text: &str) -> Result<Vec<u8>, String> {
        run(
            &self.spirv_as,
            &["--target-env", "spv1.6", "-o", "-", "-"],
            text.as_bytes(),
        )
    }

    /// Disassembles with spirv-dis, with `--raw-id` when asked.
    pub fn disassemble(&self, binary: &[u8], raw_id: bool) -> Result<String, String> {
        let mut args = vec!["--no-color"];
        if raw_id {
            args.push("--raw-id");
        }
        args.extend(["-o", "-", "-"]);
        let out = run(&self.spirv_dis, &args, binary)?;
        String::from_utf8(out).map_err(|e| e.to_string())
    }
}

/// spvx's and spirv-dis's options for one spirv-dis flag (`--raw-id`, `--no-header`,
/// `--no-indent`, `--nested-indent`, `--offsets`, `--comment`, `--color`).
pub fn apply_flag(opts: &mut DisOptions, flag: &str) {
    match flag {
        "--raw-id" => opts.raw_id = true,
        "--no-header" => opts.header = false,
        "--no-indent" => opts.indent = false,
        "--nested-indent" => opts.nested_indent = true,
        "--offsets" => opts.offsets = true,
        "--comment" => opts.comment = true,
        "--color" => opts.color = true,
        other => panic!("no such spirv-dis flag in the tests: {other}"),
    }
}

impl Tools {
    /// Disassembles with spirv-dis under `flags` (colour off unless `--color` is among them).
    pub fn disassemble_with(&self, binary: &[u8], flags: &[&str]) -> Result<String, String> {
        let mut args: Vec<&str> = if flags.contains(&"--color") {
            Vec::new()
        } else {
            vec!["--no-color"]
        };
        args.extend(flags);
        args.extend(["-o", "-", "-"]);
        let out = run(&self.spirv_dis, &args, binary)?;
        String::from_utf8(out).map_err(|e| e.to_string())
    }
}

/// Asserts that spvx and spirv-dis print `binary` identically under `flags`.
pub fn assert_same_under_flags(t: &Tools, what: &str, binary: &[u8], flags: &[&str]) {
    let expected = t
        .disassemble_with(binary, flags)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let mut opts = DisOptions::default();
    for f in flags {
        apply_flag(&mut opts, f);
    }
    let actual = disassemble_bytes(binary, &opts)
        .unwrap_or_else(|e| panic!("{what}: spvx cannot read the binary: {e}"));
    if let Some(d) = first_difference(&expected, &actual) {
        panic!("{what} {flags:?}: spvx differs from spirv-dis at {d}");
    }
}

/// spvx's disassembly of `binary`, default or raw ids.
pub fn spvx_dis(binary: &[u8], raw_id: bool) -> String {
    let opts = DisOptions {
        raw_id,
        ..DisOptions::default()
    };
    match disassemble_bytes(binary, &opts) {
        Ok(s) => s,
        Err(e) => panic!("spvx cannot read the binary: {e}"),
    }
}

/// The first differing line of two texts, for a readable failure.
pub fn first_difference(expected: &str, actual: &str) -> Option<String> {
    let (e, a): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    for i in 0..e.len().max(a.len()) {
        let (x, y) = (e.get(i), a.get(i));
        if x != y {
            return Some(format!(
                "line {}:\n  spirv-dis: {:?}\n  spvx:      {:?}",
                i + 1,
                x,
                y
            ));
        }
    }
    (expected != actual).then(|| "texts differ in line endings".to_string())
}

/// Asserts that spvx and spirv-dis print `binary` identically, default and with raw ids.
pub fn assert_same_as_spirv_dis(t: &Tools, what: &str, binary: &[u8]) {
    for raw_id in [false, true] {
        let expected = match t.disassemble(binary, raw_id) {
            Ok(s) => s,
            Err(e) => panic!("{what}: {e}"),
        };
        let actual = spvx_dis(binary, raw_id);
        if let Some(d) = first_difference(&expected, &actual) {
            panic!("{what} (raw_id={raw_id}): spvx differs from spirv-dis at {d}");
        }
    }
}

/// The words of a little-endian binary.
pub fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}
