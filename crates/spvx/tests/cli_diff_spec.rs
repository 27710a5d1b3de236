//! `spvx diff` judges differences by the specification: on a module computing
//! `out[i] = a[i]·b[i] + c[i]` (OpFMul then OpFAdd, no NoContraction), a device result that is
//! the fused multiply-add is ALLOWED with the contraction named, a wrong one is a VIOLATION
//! (exit 1); with NoContraction the fused result is a violation; --bitwise keeps the bit
//! comparison. The device results are injected (the hidden --set-device-word) into lavapipe's
//! outputs, which do not contract.
//!
//! Values (hand-computed, f32): a = b = 1 + 2^-12 (0x3f800800), c = −1 (0xbf800000):
//! a·b = 1 + 2^-11 + 2^-24 exactly, rounded 1 + 2^-11 (a tie, to even); unfused result 2^-11
//! (0x3a000000), fused 2^-11 + 2^-24 (0x3a000400).

mod vk_common;

use spvx_testtools::{TempDir, temp_dir};
use std::path::PathBuf;
use std::process::{Command, Output};

const MODULE: &str = r#"
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %gid %A %B %C %Out
               OpExecutionMode %main LocalSize 4 1 1
               OpName %Out "Out"
               OpName %sum "sum"
               OpName %prod "prod"
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %arr ArrayStride 4
               OpMemberDecorate %Buf 0 Offset 0
               OpDecorate %Buf Block
               OpDecorate %A DescriptorSet 0
               OpDecorate %A Binding 0
               OpDecorate %B DescriptorSet 0
               OpDecorate %B Binding 1
               OpDecorate %C DescriptorSet 0
               OpDecorate %C Binding 2
               OpDecorate %Out DescriptorSet 0
               OpDecorate %Out Binding 3
               ${DECORATION}
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
     %v3uint = OpTypeVector %uint 3
        %arr = OpTypeRuntimeArray %float
        %Buf = OpTypeStruct %arr
    %ptr_buf = OpTypePointer StorageBuffer %Buf
      %ptr_f = OpTypePointer StorageBuffer %float
    %ptr_gid = OpTypePointer Input %v3uint
        %gid = OpVariable %ptr_gid Input
          %A = OpVariable %ptr_buf StorageBuffer
          %B = OpVariable %ptr_buf StorageBuffer
          %C = OpVariable %ptr_buf StorageBuffer
        %Out = OpVariable %ptr_buf StorageBuffer
     %uint_0 = OpConstant %uint 0
       %main = OpFunction %void None %fn
      %entry = OpLabel
         %id = OpLoad %v3uint %gid
          %i = OpCompositeExtract %uint %id 0
         %pa = OpAccessChain %ptr_f %A %uint_0 %i
         %pb = OpAccessChain %ptr_f %B %uint_0 %i
         %pc = OpAccessChain %ptr_f %C %uint_0 %i
         %va = OpLoad %float %pa
         %vb = OpLoad %float %pb
         %vc = OpLoad %float %pc
       %prod = OpFMul %float %va %vb
        %sum = OpFAdd %float %prod %vc
         %po = OpAccessChain %ptr_f %Out %uint_0 %i
               OpStore %po %sum
               OpReturn
               OpFunctionEnd
"#;

const RUN: &str = r#"module = "m.spvasm"
groups = [1]
[[buffer]]
binding = 0
data = { f32 = ["0x3f800800", "0x3f800800", "0x3f800800", "0x3f800800"] }
[[buffer]]
binding = 1
data = { f32 = ["0x3f800800", "0x3f800800", "0x3f800800", "0x3f800800"] }
[[buffer]]
binding = 2
data = { f32 = [-1, -1, -1, -1] }
[[buffer]]
binding = 3
data = { zeros = 16 }
"#;

/// A scratch directory (removed when dropped) holding the module and its run file.
fn setup(name: &str, decoration: &str) -> TempDir {
    let dir = temp_dir(&format!("cli-diff-{name}"));
    let d = dir.path();
    std::fs::write(
        d.join("m.spvasm"),
        MODULE.replace("${DECORATION}", decoration),
    )
    .unwrap();
    std::fs::write(d.join("run.toml"), RUN).unwrap();
    dir
}

fn spvx(dir: &PathBuf, args: &[&str]) -> (Option<i32>, String) {
    let o: Output = Command::new(env!("CARGO_BIN_EXE_spvx"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("spawn spvx");
    let text =
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    (o.status.code(), text)
}

#[test]
fn a_fused_device_result_is_allowed_not_a_mismatch() {
    if vk_common::device().is_none() {
        return;
    }
    let scratch = setup("fused", "");
    let d = scratch.path().to_path_buf();
    // lavapipe's own result is the unfused one: the same as the engine's.
    let (code, out) = spvx(&d, &["diff", "run.toml"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("SAME 0.3 (Out): 4 f32 elements"), "{out}");
    // The fused result in element 0.
    let (code, out) = spvx(
        &d,
        &["diff", "run.toml", "--set-device-word", "0.3:0=0x3a000400"],
    );
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("ALLOWED 0.3 (Out): 1 element(s) differ as the specification allows"),
        "{out}"
    );
    let line = out
        .lines()
        .find(|l| l.contains("element 0 (byte 0)"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        line.contains("allowed: contraction of %prod = OpFMul into %sum = OpFAdd"),
        "{line}"
    );
    assert!(!out.contains("mismatch"), "{out}");
    // A wrong result (0x3a000800: 2^-11 + 2^-23, 2048 ULPs from the unfused result) next to
    // the fused one: a violation, exit status 1.
    let (code, out) = spvx(
        &d,
        &[
            "diff",
            "run.toml",
            "--set-device-word",
            "0.3:0=0x3a000400",
            "--set-device-word",
            "0.3:1=0x3a000800",
        ],
    );
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains(
            "DIFF 0.3 (Out): 1 of 4 f32 elements differ beyond what the specification allows"
        ),
        "{out}"
    );
    let line = out
        .lines()
        .find(|l| l.contains("element 1 (byte 4)"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(line.contains("mismatch; VIOLATION: "), "{line}");
    // --bitwise: the old comparison calls both mismatches.
    let (code, out) = spvx(
        &d,
        &[
            "diff",
            "run.toml",
            "--bitwise",
            "--set-device-word",
            "0.3:0=0x3a000400",
        ],
    );
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("DIFF 0.3 (Out): 1 of 4 f32 elements differ"),
        "{out}"
    );
}

#[test]
fn with_no_contraction_the_fused_result_is_a_violation() {
    if vk_common::device().is_none() {
        return;
    }
    let scratch = setup("nocontract", "OpDecorate %sum NoContraction");
    let d = scratch.path().to_path_buf();
    let (code, out) = spvx(
        &d,
        &["diff", "run.toml", "--set-device-word", "0.3:0=0x3a000400"],
    );
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("mismatch; VIOLATION: "), "{out}");
}

#[test]
fn device_selection_by_index_and_name() {
    if vk_common::device().is_none() {
        return;
    }
    let scratch = setup("select", "");
    let d = scratch.path().to_path_buf();
    let (code, out) = spvx(&d, &["diff", "run.toml", "--device-index", "0"]);
    assert_eq!(code, Some(0), "{out}");
    let (code, out) = spvx(&d, &["run", "run.toml", "--device-name", "LLVMPIPE"]);
    assert_eq!(code, Some(0), "{out}");
    let (code, out) = spvx(&d, &["run", "run.toml", "--device-index", "7"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("with index 7") && out.contains("0: llvmpipe"),
        "{out}"
    );
}
