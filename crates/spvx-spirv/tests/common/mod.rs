//! Helpers shared by the binary and module tests: rendering decoded instructions in a compact
//! form that hand-written expectations can be compared with, and the corpus files.
#![allow(dead_code)]

use spvx_spirv::grammar::grammar;
use spvx_spirv::instruction::{Instruction, OperandValue};
use std::path::PathBuf;

/// `OpName R- T- %1:IdRef "abc":LiteralString`: the name, result type and result, then each
/// operand as value:kind. Numbers print as `#[0xw0,0xw1]` (hex, low word first).
pub fn render(inst: &Instruction) -> String {
    let g = grammar();
    let name = g
        .instruction(inst.opcode)
        .map_or_else(|| format!("op{}", inst.opcode), |i| i.name.to_string());
    let mut s = name;
    if let Some(t) = inst.result_type {
        s += &format!(" T%{t}");
    }
    if let Some(r) = inst.result {
        s += &format!(" R%{r}");
    }
    for o in &inst.operands {
        let v = match &o.value {
            OperandValue::Id(i) => format!("%{i}"),
            OperandValue::Word(w) => format!("{w}"),
            OperandValue::Number(ws) => {
                let hex: Vec<String> = ws.iter().map(|w| format!("{w:#x}")).collect();
                format!("#[{}]", hex.join(","))
            }
            OperandValue::String(st) => format!("{st:?}"),
        };
        s += &format!(" {v}:{}", g.kind(o.kind).name);
    }
    s
}

/// The header of a SPIR-V 1.6 module with generator 0 and the given bound, as words.
pub fn header(bound: u32) -> Vec<u32> {
    vec![0x0723_0203, 0x0001_0600, 0, bound, 0]
}

/// Words as little-endian bytes.
pub fn le_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The directory of the committed corpus.
pub fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/corpus")
}

/// Every `.spv` file under the corpus directory (recursively), sorted.
pub fn corpus_files() -> Vec<PathBuf> {
    fn walk(dir: &std::path::Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "spv") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(&corpus_dir(), &mut out);
    out.sort();
    out
}

/// A whole compute shader, written by hand from the spec's encoding rules (§2.3):
/// `OpCapability Shader`, `OpMemoryModel Logical GLSL450`, an entry point named "main",
/// `LocalSize 8 1 1`, and an empty `void main()`. Instructions start at words
/// 5, 7, 10, 15, 21, 23, 26, 31, 33, 34.
#[rustfmt::skip]
pub fn minimal() -> Vec<u32> {
    vec![
        0x0723_0203, 0x0001_0600, 0, 5, 0, // header, bound 5
        0x0002_0011, 1, // OpCapability Shader
        0x0003_000E, 0, 1, // OpMemoryModel Logical GLSL450
        0x0005_000F, 5, 1, 0x6E69_616D, 0, // OpEntryPoint GLCompute %1 "main"
        0x0006_0010, 1, 17, 8, 1, 1, // OpExecutionMode %1 LocalSize 8 1 1
        0x0002_0013, 2, // %2 = OpTypeVoid
        0x0003_0021, 3, 2, // %3 = OpTypeFunction %2
        0x0005_0036, 2, 1, 0, 3, // %1 = OpFunction %2 None %3
        0x0002_00F8, 4, // %4 = OpLabel
        0x0001_00FD, // OpReturn
        0x0001_0038, // OpFunctionEnd
    ]
}

/// Instruction start offsets of [`minimal`].
pub const MINIMAL_OFFSETS: [usize; 10] = [5, 7, 10, 15, 21, 23, 26, 31, 33, 34];

/// A shader with an `OpSwitch` on a 64-bit selector (case literals two words each, low word
/// first, spec 3.52.26 OpSwitch), written by hand. The switch is instruction 10.
#[rustfmt::skip]
pub fn switch64() -> Vec<u32> {
    vec![
        0x0723_0203, 0x0001_0600, 0, 10, 0, // header, bound 10
        0x0002_0011, 1, // OpCapability Shader
        0x0002_0011, 11, // OpCapability Int64
        0x0003_000E, 0, 1, // OpMemoryModel Logical GLSL450
        0x0004_0015, 1, 64, 0, // %1 = OpTypeInt 64 0
        0x0005_002B, 1, 2, 7, 0, // %2 = OpConstant %1 7
        0x0002_0013, 3, // %3 = OpTypeVoid
        0x0003_0021, 4, 3, // %4 = OpTypeFunction %3
        0x0005_0036, 3, 5, 0, 4, // %5 = OpFunction %3 None %4
        0x0002_00F8, 6, // %6 = OpLabel
        0x0003_00F7, 7, 0, // OpSelectionMerge %7 None
        0x0009_00FB, 2, 7, 0, 1, 8, 5, 0, 9, // OpSwitch %2 %7 0x100000000 %8 5 %9
        0x0002_00F8, 8, // %8 = OpLabel
        0x0002_00F9, 7, // OpBranch %7
        0x0002_00F8, 9, // %9 = OpLabel
        0x0002_00F9, 7, // OpBranch %7
        0x0002_00F8, 7, // %7 = OpLabel
        0x0001_00FD, // OpReturn
        0x0001_0038, // OpFunctionEnd
    ]
}

/// The directory holding SPIRV-Tools (see `spvx_testtools::tools_dir`).
pub fn tools_dir() -> Option<PathBuf> {
    spvx_testtools::tools_dir()
}

/// Runs a command, failing the test with its stderr if it fails.
pub fn run(cmd: &mut std::process::Command) -> Vec<u8> {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Assembles `text` with `spirv-as --preserve-numeric-ids --target-env spv1.6` and returns the
/// words, or `None` when the tools are missing (see [`tools_dir`]).
pub fn spirv_as(text: &str) -> Option<Vec<u32>> {
    let dir = tools_dir()?;
    let tmp = spvx_testtools::temp_dir("ka");
    let (src, out) = (tmp.path().join("m.spvasm"), tmp.path().join("m.spv"));
    std::fs::write(&src, text).expect("write temp text");
    run(std::process::Command::new(dir.join("spirv-as"))
        .args(["--preserve-numeric-ids", "--target-env", "spv1.6"])
        .arg(&src)
        .arg("-o")
        .arg(&out));
    let bytes = std::fs::read(&out).expect("spirv-as output");
    Some(
        bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect(),
    )
}
