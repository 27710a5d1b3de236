//! `spvx as` end to end: files and `-`, the default output name, `--target-env`, and the
//! rustc-style error rendering.

use std::io::Write;
use std::process::{Command, Stdio};

fn spvx() -> Command {
    Command::new(env!("CARGO_BIN_EXE_spvx"))
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn run_stdin(args: &[&str], input: &str) -> std::process::Output {
    let mut child = spvx()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn spvx");
    let written = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes());
    // spvx may exit (e.g. on a bad argument) before it reads its input: a broken pipe is fine.
    if let Err(e) = written {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "write stdin: {e}");
    }
    child.wait_with_output().expect("wait")
}

#[test]
fn stdin_to_stdout_with_target_env() {
    let out = run_stdin(
        &["as", "--target-env", "vulkan1.2", "-", "-o", "-"],
        "OpCapability Shader\n",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let w = words(&out.stdout);
    // Hand-computed: header with version 1.5 (vulkan1.2), bound 1; OpCapability (17) Shader (1).
    assert_eq!(w[0], 0x0723_0203);
    assert_eq!(w[1], 0x0001_0500);
    assert_eq!(&w[3..], &[1, 0, 0x0002_0011, 1]);
}

#[test]
fn file_to_default_out_spv() {
    let scratch = spvx_testtools::temp_dir("cli-as");
    let dir = scratch.path();
    std::fs::write(dir.join("m.spvasm"), "OpNop\n").expect("write input");
    let status = spvx()
        .current_dir(dir)
        .args(["as", "m.spvasm"])
        .status()
        .expect("run");
    assert!(status.success());
    let w = words(&std::fs::read(dir.join("out.spv")).expect("out.spv written"));
    assert_eq!(
        w[1], 0x0001_0600,
        "default version is SPIR-V 1.6, as spirv-as"
    );
    assert_eq!(&w[5..], &[0x0001_0000]);
}

#[test]
fn errors_are_rendered_with_the_line_and_a_caret() {
    let out = run_stdin(
        &["as", "-", "-o", "-"],
        "OpCapability Shader\n%x = OpFrob %t\n",
    );
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    let expected = "error: unknown opcode name 'OpFrob'\n --> <stdin>:2:6\n  |\n2 | %x = OpFrob %t\n  |      ^^^^^^";
    assert!(err.contains(expected), "got:\n{err}");
}

#[test]
fn unknown_target_env_is_an_error() {
    let out = run_stdin(&["as", "--target-env", "spv1.7", "-", "-o", "-"], "OpNop\n");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown target environment 'spv1.7'"));
}

#[test]
fn help_explains() {
    let out = spvx().args(["as", "--help"]).output().expect("run");
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(
        help.contains("--target-env")
            && help.contains("vulkan1.1spv1.4")
            && help.contains("out.spv")
    );
}
