//! `spvx val` end to end: exit codes, the message format (rustc style: ` --> FILE:LINE:COL`,
//! the source line and carets for text; ` --> FILE: word W` and the instruction as spirv-dis
//! prints it for binaries in either byte order), standard input, target environments,
//! assembly and decoding errors; and, where SPIRV-Tools is installed, the instruction equals
//! the one spirv-val prints.
//!
//! Locations are hand-computed from the test texts; word offsets are computed by walking the
//! word counts of the raw binary, independently of spvx's reader.

use spvx_testtools::{TempDir, temp_dir};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn spvx() -> Command {
    Command::new(env!("CARGO_BIN_EXE_spvx"))
}

fn run(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut cmd = spvx();
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run spvx: {e}"));
    let mut pipe = child.stdin.take().unwrap_or_else(|| panic!("no stdin"));
    let data = stdin.unwrap_or(&[]).to_vec();
    let writer = std::thread::spawn(move || pipe.write_all(&data));
    let out = child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("spvx failed: {e}"));
    let _ = writer.join();
    out
}

/// Writes `bytes` to a new file named after `name` in `dir` (the caller's scratch directory,
/// removed when the caller drops it).
fn temp(dir: &TempDir, name: &str, bytes: &[u8]) -> PathBuf {
    let dir = dir.path();
    static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let p = dir.join(format!("{n}-{name}"));
    std::fs::write(&p, bytes).unwrap_or_else(|e| panic!("write {}: {e}", p.display()));
    p
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

/// A compute shader whose line 13 (column 4) holds an OpIAdd with a float Result Type.
const BAD: &str = "; comment
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main \"main\"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%float = OpTypeFloat 32
%c = OpConstant %int 1
%main = OpFunction %void None %fn
%l = OpLabel
   %x = OpIAdd %float %c %c
OpReturn
OpFunctionEnd
";

/// The same shader, valid.
fn good() -> String {
    BAD.replace("%x = OpIAdd %float", "%x = OpIAdd %int")
}

/// The instruction line spirv-val prints for the bad OpIAdd (spirv-dis friendly names: the
/// unnamed result is %8, the constant %int_1); spvx val prints it, unindented, as the note
/// `= instruction: ...` of a binary's error.
const BAD_LINE: &str = "  %8 = OpIAdd %float %int_1 %int_1";

/// The message of the bad OpIAdd.
const BAD_MESSAGE: &str = "error: OpIAdd: expected an int scalar or vector type as Result Type";

fn assemble(text: &str) -> Vec<u8> {
    let scratch = temp_dir("cli-val");
    let p = temp(&scratch, "in.spvasm", text.as_bytes());
    let out = temp(&scratch, "out.spv", b"");
    let o = run(
        &[
            "as",
            p.to_str().unwrap_or(""),
            "-o",
            out.to_str().unwrap_or(""),
        ],
        None,
    );
    assert!(o.status.success(), "spvx as: {}", stderr(&o));
    std::fs::read(&out).unwrap_or_else(|e| panic!("read: {e}"))
}

/// The word offset of the instruction with `opcode`, walking the word counts of a
/// little-endian binary from the end of the 5-word header.
fn word_offset_of(bin: &[u8], opcode: u16) -> usize {
    let words: Vec<u32> = bin
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let mut at = 5;
    while at < words.len() {
        if words[at] & 0xffff == opcode as u32 {
            return at;
        }
        at += (words[at] >> 16) as usize;
    }
    panic!("opcode {opcode} not found")
}

#[test]
fn valid_text_prints_nothing_and_exits_0() {
    let scratch = temp_dir("cli-val");
    let p = temp(&scratch, "good.spvasm", good().as_bytes());
    let o = run(&["val", p.to_str().unwrap_or("")], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(o.stdout.is_empty() && o.stderr.is_empty());
}

#[test]
fn valid_binary_exits_0() {
    let scratch = temp_dir("cli-val");
    let bin = assemble(&good());
    let p = temp(&scratch, "good.spv", &bin);
    let o = run(&["val", p.to_str().unwrap_or("")], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(o.stderr.is_empty());
}

#[test]
fn text_error_names_line_and_column_and_the_instruction() {
    let scratch = temp_dir("cli-val");
    let p = temp(&scratch, "bad.spvasm", BAD.as_bytes());
    let o = run(&["val", p.to_str().unwrap_or("")], None);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    let lines: Vec<&str> = e.lines().collect();
    assert_eq!(lines.len(), 5, "{e}");
    assert!(lines[0].starts_with(BAD_MESSAGE), "{e}");
    assert_eq!(lines[1], format!("  --> {}:13:4", p.display()), "{e}");
    assert_eq!(lines[2], "   |", "{e}");
    assert_eq!(lines[3], "13 |    %x = OpIAdd %float %c %c", "{e}");
    // Carets under the instruction: its 24 characters from column 4.
    assert_eq!(lines[4], format!("   |    {}", "^".repeat(24)), "{e}");
}

#[test]
fn binary_error_names_the_word_offset_in_either_byte_order() {
    let scratch = temp_dir("cli-val");
    let bin = assemble(BAD);
    let offset = word_offset_of(&bin, 128); // OpIAdd
    let le = temp(&scratch, "bad.spv", &bin);
    let be_bytes: Vec<u8> = bin
        .chunks_exact(4)
        .flat_map(|c| [c[3], c[2], c[1], c[0]])
        .collect();
    let be = temp(&scratch, "bad_be.spv", &be_bytes);
    for p in [le, be] {
        let o = run(&["val", p.to_str().unwrap_or("")], None);
        assert_eq!(o.status.code(), Some(1));
        let e = stderr(&o);
        let lines: Vec<&str> = e.lines().collect();
        assert_eq!(lines.len(), 4, "{e}");
        assert!(lines[0].starts_with(BAD_MESSAGE), "{e}");
        assert_eq!(
            lines[1],
            format!(" --> {}: word {offset}", p.display()),
            "{e}"
        );
        assert_eq!(lines[2], "  |", "{e}");
        assert_eq!(
            lines[3],
            format!("  = instruction: {}", BAD_LINE.trim_start()),
            "{e}"
        );
    }
}

#[test]
fn standard_input_text_and_binary() {
    let o = run(&["val", "-"], Some(BAD.as_bytes()));
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(e.starts_with(BAD_MESSAGE), "{e}");
    assert!(e.contains("\n  --> <stdin>:13:4\n"), "{e}");
    let o = run(&["val", "-"], Some(&assemble(&good())));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn every_error_is_printed() {
    let text = BAD.replace("OpReturn\n", "%y = OpFAdd %int %c %c\nOpReturn\n");
    let o = run(&["val", "-"], Some(text.as_bytes()));
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(
        e.contains("error: OpIAdd: expected an int scalar or vector type as Result Type, found %float\n  --> <stdin>:13:4\n"),
        "{e}"
    );
    assert!(
        e.contains("error: OpFAdd: expected a float scalar or vector type as Result Type, found %int\n  --> <stdin>:14:1\n"),
        "{e}"
    );
}

#[test]
fn target_env_applies_its_rules() {
    let text = good().replace("OpExecutionMode %main LocalSize 1 1 1\n", "");
    let o = run(&["val", "-"], Some(text.as_bytes()));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run(
        &["val", "--target-env", "vulkan1.3", "-"],
        Some(text.as_bytes()),
    );
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(e.starts_with("error: In the Vulkan environment"), "{e}");
    assert!(e.contains("\n --> <stdin>:4:1\n"), "{e}");
}

#[test]
fn header_version_newer_than_the_environment_is_a_module_error() {
    let scratch = temp_dir("cli-val");
    // spvx as writes SPIR-V 1.6 headers; vulkan1.2 allows at most 1.5.
    let p = temp(&scratch, "v16.spv", &assemble(&good()));
    let o = run(
        &["val", "--target-env", "vulkan1.2", p.to_str().unwrap_or("")],
        None,
    );
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(
        e.starts_with("error: Invalid SPIR-V binary version 1.6 for target environment vulkan1.2"),
        "{e}"
    );
    // No instruction to blame: the place is the file.
    assert!(e.ends_with(&format!("\n --> {}\n", p.display())), "{e}");
}

#[test]
fn unknown_target_env_is_refused() {
    let o = run(
        &["val", "--target-env", "vulkan9", "-"],
        Some(good().as_bytes()),
    );
    assert_ne!(o.status.code(), Some(0));
    assert!(stderr(&o).contains("unknown target environment 'vulkan9'"));
}

#[test]
fn assembly_errors_are_reported_as_spvx_as_does() {
    let text = good().replace("%x = OpIAdd %int %c %c", "%x = OpIAddd %int %c %c");
    let o = run(&["val", "-"], Some(text.as_bytes()));
    assert_ne!(o.status.code(), Some(0));
    let e = stderr(&o);
    assert!(e.starts_with("error: unknown opcode name 'OpIAddd'"), "{e}");
    assert!(e.contains("--> <stdin>:13:9"), "{e}");
}

#[test]
fn decoding_errors_name_the_word_offset() {
    let mut bin = assemble(&good());
    // The last word is OpFunctionEnd; claim it is 2 words long, past the end of the module.
    let n = bin.len();
    bin[n - 4..].copy_from_slice(&((2u32 << 16) | 56).to_le_bytes());
    let last = n / 4 - 1;
    let o = run(&["val", "-"], Some(&bin));
    assert_ne!(o.status.code(), Some(0));
    let e = stderr(&o);
    assert!(
        e.starts_with("error: instruction OpFunctionEnd has word count 2"),
        "{e}"
    );
    assert!(
        e.ends_with(&format!("\n --> <stdin>: word {last}\n")),
        "{e}"
    );
}

#[test]
fn help_shows_the_output() {
    let o = run(&["val", "--help"], None);
    assert_eq!(o.status.code(), Some(0));
    let help = String::from_utf8_lossy(&o.stdout).to_string();
    for needle in [
        " --> shader.spvasm:13:4",
        " --> shader.spv: word 44",
        "= instruction: ",
    ] {
        assert!(help.contains(needle), "--help lacks {needle}:\n{help}");
    }
}

#[test]
fn instruction_line_matches_spirv_val() {
    let scratch = temp_dir("cli-val");
    let Some(val) = spvx_testtools::tool("spirv-val") else {
        return;
    };
    let p = temp(&scratch, "bad_for_spirv_val.spv", &assemble(BAD));
    let o = Command::new(&val)
        .arg(&p)
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", val.display()));
    let theirs = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(!o.status.success());
    assert_eq!(theirs.lines().nth(1), Some(BAD_LINE), "{theirs}");
}

/// The validator's limits as options, named as spirv-val names them: the good shader has an
/// id bound of 9 (hand-counted: %void %fn %int %float %c %main %l %x, ids 1..8) and a call
/// depth of 0.
#[test]
fn limits_are_options() {
    let scratch = temp_dir("cli-val");
    let p = temp(&scratch, "good.spvasm", good().as_bytes());
    let path = p.to_string_lossy().to_string();
    let o = run(&["val", "--max-id-bound", "8", &path], None);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("max id bound 8"), "{}", stderr(&o));
    let o = run(
        &["val", "--max-id-bound", "9", "--max-call-depth", "0", &path],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run(&["val", "--max-id-bound", "x", &path], None);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--max-id-bound"), "{}", stderr(&o));
}

/// A storage block with a vec3 at offset 4: legal under relaxed (Vulkan 1.1+) and scalar
/// layout, not under Vulkan 1.0's standard layout.
const VEC3_AT_4: &str = "OpCapability Shader
OpExtension \"SPV_KHR_storage_buffer_storage_class\"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main \"main\"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %S Block
OpMemberDecorate %S 0 Offset 0
OpMemberDecorate %S 1 Offset 4
OpDecorate %v DescriptorSet 0
OpDecorate %v Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%f = OpTypeFloat 32
%v3 = OpTypeVector %f 3
%S = OpTypeStruct %f %v3
%p = OpTypePointer StorageBuffer %S
%v = OpVariable %p StorageBuffer
%main = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
";

#[test]
fn block_layout_switches() {
    let scratch = temp_dir("cli-val");
    let f = temp(&scratch, "vec3.spvasm", VEC3_AT_4.as_bytes());
    let f = f.to_str().unwrap_or_default();
    let o = run(&["val", "--target-env", "vulkan1.0", f], None);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(
        e.contains(
            "error: Structure %_struct_2 decorated as Block for variable in StorageBuffer storage class must follow standard storage buffer layout rules: member 1 at offset 4 is not aligned to 16 (this may be allowed with the VK_KHR_relaxed_block_layout extension: --relax-block-layout)"
        ),
        "{e}"
    );
    for flag in [
        "--relax-block-layout",
        "--scalar-block-layout",
        "--skip-block-layout",
    ] {
        let o = run(&["val", "--target-env", "vulkan1.0", flag, f], None);
        assert!(o.status.success(), "{flag}: {}", stderr(&o));
    }
    let o = run(&["val", "--target-env", "vulkan1.2", f], None);
    assert!(o.status.success(), "{}", stderr(&o));
    let help = String::from_utf8_lossy(&run(&["val", "--help"], None).stdout).to_string();
    for flag in [
        "--relax-block-layout",
        "--uniform-buffer-standard-layout",
        "--scalar-block-layout",
        "--workgroup-scalar-block-layout",
        "--skip-block-layout",
        "--relax-logical-pointer",
        "--before-hlsl-legalization",
        "--relax-struct-store",
        "--allow-localsizeid",
    ] {
        assert!(help.contains(flag), "{flag} missing from --help");
    }
}
