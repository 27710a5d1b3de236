//! `spvx dis` end to end: files and standard streams, `--raw-id`, `--no-header`, errors with
//! word offsets, `--help`, `--version` on every subcommand; and, where SPIRV-Tools is installed,
//! the same bytes as `spirv-dis` on corpus modules assembled by spirv-as, under each spirv-dis
//! flag (`--offsets`, `--comment`, `--no-header`, `--no-indent`, `--nested-indent`, `--color`).

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn spvx() -> Command {
    Command::new(env!("CARGO_BIN_EXE_spvx"))
}

fn run_with_stdin(mut cmd: Command, input: &[u8]) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run spvx: {e}"));
    let mut stdin = child.stdin.take().unwrap_or_else(|| panic!("no stdin"));
    let data = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&data));
    let out = child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("spvx failed: {e}"));
    let _ = writer.join();
    out
}

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// OpCapability Shader; OpMemoryModel Logical GLSL450; %1 = OpTypeInt 32 0;
/// %2 = OpConstant %1 7 — written from the spec's encoding rules.
fn small_module() -> Vec<u8> {
    bytes(&[
        0x0723_0203,
        0x0001_0500,
        0x0008_000b,
        3,
        0,
        (2 << 16) | 17,
        1,
        (3 << 16) | 14,
        0,
        1,
        (4 << 16) | 21,
        1,
        32,
        0,
        (4 << 16) | 43,
        1,
        2,
        7,
    ])
}

const SMALL_TEXT: &str = "; SPIR-V
; Version: 1.5
; Generator: Khronos Glslang Reference Front End; 11
; Bound: 3
; Schema: 0
               OpCapability Shader
               OpMemoryModel Logical GLSL450
       %uint = OpTypeInt 32 0
     %uint_7 = OpConstant %uint 7
";

#[test]
fn file_to_stdout() {
    let scratch = spvx_testtools::temp_dir("cli-dis");
    let dir = scratch.path().to_path_buf();
    let input = dir.join("small.spv");
    std::fs::write(&input, small_module()).unwrap_or_else(|e| panic!("{e}"));
    let out = spvx()
        .args(["dis"])
        .arg(&input)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), SMALL_TEXT);
}

#[test]
fn stdin_to_file_with_raw_ids() {
    let scratch = spvx_testtools::temp_dir("cli-dis");
    let dir = scratch.path().to_path_buf();
    let output = dir.join("raw.spvasm");
    let mut cmd = spvx();
    cmd.args(["dis", "--raw-id", "--no-header", "-", "-o"])
        .arg(&output);
    let out = run_with_stdin(cmd, &small_module());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.is_empty());
    let text = std::fs::read_to_string(&output).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        text,
        "               OpCapability Shader
               OpMemoryModel Logical GLSL450
          %1 = OpTypeInt 32 0
          %2 = OpConstant %1 7
"
    );
}

#[test]
fn errors_name_the_word_offset() {
    let mut module = small_module();
    module.truncate(module.len() - 4); // OpConstant now claims one word more than remains
    let mut cmd = spvx();
    cmd.args(["dis", "-"]);
    let out = run_with_stdin(cmd, &module);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("error: instruction "), "{err}");
    assert!(err.ends_with("\n --> <stdin>: word 14\n"), "{err}");
    assert!(out.stdout.is_empty());

    let out = spvx()
        .args(["dis", "/nonexistent/x.spv"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/x.spv"));

    let mut cmd = spvx();
    cmd.args(["dis", "-"]);
    let out = run_with_stdin(cmd, b"\x03\x02\x23\x07\x00");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a whole number of 32-bit words"));
}

#[test]
fn help_explains() {
    let out = spvx()
        .args(["dis", "--help"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let help = String::from_utf8_lossy(&out.stdout);
    for needle in [
        "--raw-id",
        "--offsets",
        "--comment",
        "--nested-indent",
        "--color",
        "-o",
        "spirv-dis",
        "standard input",
        "word offset",
    ] {
        assert!(help.contains(needle), "help lacks {needle}:\n{help}");
    }
}

#[test]
fn same_bytes_as_spirv_dis_on_the_corpus() {
    let Some(tools) = spvx_testtools::tools_dir() else {
        return;
    };
    let (spirv_as, spirv_dis) = (tools.join("spirv-as"), tools.join("spirv-dis"));
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spvx-spirv/tests/dis_corpus");
    let scratch = spvx_testtools::temp_dir("cli-dis");
    let dir = scratch.path().to_path_buf();
    let mut count = 0;
    for entry in std::fs::read_dir(&corpus).unwrap_or_else(|e| panic!("{e}")) {
        let src = entry.unwrap_or_else(|e| panic!("{e}")).path();
        if src.extension().is_none_or(|x| x != "spvasm") {
            continue;
        }
        let bin = dir.join("corpus.spv");
        let st = Command::new(&spirv_as)
            .args(["--target-env", "spv1.6"])
            .arg(&src)
            .arg("-o")
            .arg(&bin)
            .status()
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(st.success(), "spirv-as failed on {}", src.display());
        let flag_sets: [&[&str]; 11] = [
            &[],
            &["--raw-id"],
            &["--offsets"],
            &["--comment"],
            &["--no-header"],
            &["--no-indent"],
            &["--nested-indent"],
            &["--color"],
            &["--color", "--no-color"],
            &["--no-color", "--color"],
            &["--comment", "--nested-indent", "--offsets", "--color"],
        ];
        for flags in flag_sets {
            // spirv-dis colours only with --color and no --no-color (which here would win).
            let reference = Command::new(&spirv_dis)
                .args(flags)
                .arg(&bin)
                .output()
                .unwrap_or_else(|e| panic!("{e}"));
            let ours = spvx()
                .arg("dis")
                .args(flags)
                .arg(&bin)
                .output()
                .unwrap_or_else(|e| panic!("{e}"));
            assert!(ours.status.success());
            assert!(
                reference.stdout == ours.stdout,
                "{} {flags:?}: spvx dis differs from spirv-dis",
                src.display()
            );
        }
        count += 1;
    }
    assert!(count >= 10);
}

#[test]
fn every_subcommand_prints_its_version() {
    let expected = format!("{}\n", env!("CARGO_PKG_VERSION"));
    for sub in [
        &[][..],
        &["as"],
        &["dis"],
        &["val"],
        &["calc", "fixed"],
        &["dpas", "run"],
        &["reflect"],
        &["run"],
        &["diff"],
        &["amber"],
        &["bench"],
    ] {
        let out = spvx()
            .args(sub)
            .arg("--version")
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{sub:?} --version failed: {text}");
        assert!(
            text.starts_with("spvx") && text.ends_with(&expected),
            "{sub:?} --version printed {text:?}"
        );
    }
}
