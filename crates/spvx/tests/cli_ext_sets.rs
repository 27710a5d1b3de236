//! The engine and extended instruction sets, end to end through `spvx run`: every
//! non-semantic instruction is ignored (NonSemantic.Shader.DebugInfo.100 at module level and in
//! a function, an unknown `NonSemantic.*` set), and a set the engine does not implement is
//! refused by its name and the instruction's name, never skipped.

use spvx_testtools::{TempDir, temp_dir};
use std::process::Command;

fn spvx() -> Command {
    Command::new(env!("CARGO_BIN_EXE_spvx"))
}

/// Writes `text` to `name` in `dir` (the test's scratch directory, removed when dropped).
fn write(dir: &TempDir, name: &str, text: &str) -> std::path::PathBuf {
    let p = dir.path().join(name);
    std::fs::write(&p, text).unwrap_or_else(|e| panic!("{e}"));
    p
}

/// Writes 7 + 35 = 42 to the buffer, with debug information and vendor reflection around it.
const NON_SEMANTIC: &str = r#"OpCapability Shader
OpExtension "SPV_KHR_non_semantic_info"
%dbg = OpExtInstImport "NonSemantic.Shader.DebugInfo.100"
%vendor = OpExtInstImport "NonSemantic.Vendor.Private.3"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %buf
OpExecutionMode %main LocalSize 1 1 1
%file = OpString "k.comp"
OpDecorate %rt ArrayStride 4
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %Buf Block
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%rt = OpTypeRuntimeArray %uint
%Buf = OpTypeStruct %rt
%pBuf = OpTypePointer StorageBuffer %Buf
%pu = OpTypePointer StorageBuffer %uint
%buf = OpVariable %pBuf StorageBuffer
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u7 = OpConstant %uint 7
%u35 = OpConstant %uint 35
%src = OpExtInst %void %dbg DebugSource %file
%cu = OpExtInst %void %dbg DebugCompilationUnit %u1 %u1 %src %u1
%r = OpExtInst %void %vendor 9 %u7 %cu
%main = OpFunction %void None %fn
%entry = OpLabel
%l = OpExtInst %void %dbg DebugLine %src %u1 %u1 %u1 %u1
%sum = OpIAdd %uint %u7 %u35
%v = OpExtInst %void %vendor 12 %sum
%p = OpAccessChain %pu %buf %u0 %u0
OpStore %p %sum
OpReturn
OpFunctionEnd
"#;

#[test]
fn non_semantic_instructions_are_ignored() {
    let scratch = temp_dir("cli-ext");
    let m = write(&scratch, "nonsemantic.spvasm", NON_SEMANTIC);
    let out_dir = m.parent().unwrap_or_else(|| panic!("no dir")).join("out");
    let out = spvx()
        .args(["run", "--groups", "1", "--buffer", "0.0=zeros:4", "--out"])
        .arg(&out_dir)
        .arg(&m)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "spvx run failed: {stderr}");
    let written: Vec<_> = std::fs::read_dir(&out_dir)
        .unwrap_or_else(|e| panic!("{}: {e}", out_dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    let bytes = written
        .iter()
        .find_map(|p| std::fs::read(p).ok().filter(|b| b.len() == 4))
        .unwrap_or_else(|| panic!("no 4-byte output among {written:?}"));
    assert_eq!(
        u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
        42
    );
}

#[test]
fn an_unimplemented_set_is_refused_by_name() {
    let scratch = temp_dir("cli-ext");
    let text = r#"OpCapability Shader
OpCapability Int64
OpExtension "SPV_AMD_gcn_shader"
%gcn = OpExtInstImport "SPV_AMD_gcn_shader"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%ulong = OpTypeInt 64 0
%main = OpFunction %void None %fn
%entry = OpLabel
%t = OpExtInst %ulong %gcn TimeAMD
OpReturn
OpFunctionEnd
"#;
    let m = write(&scratch, "amd.spvasm", text);
    let out = spvx()
        .args(["run", "--groups", "1"])
        .arg(&m)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("SPV_AMD_gcn_shader (TimeAMD)"),
        "the refusal does not name the set and instruction: {stderr}"
    );
}

#[test]
fn the_tosa_graph_module_validates_like_spirv_val() {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../spvx-spirv/tests/asm_corpus/09-tosa-graph.spvasm");
    let out = spvx()
        .args(["val", "--target-env", "vulkan1.3"])
        .arg(&p)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "spvx val refused the graph: {stderr}");
    // spirv-val 2025.5 accepts it too (when installed).
    if let Some(tools) = spvx_testtools::tools_dir() {
        let scratch = temp_dir("cli-ext");
        let bin = p.with_extension("oracle.spv");
        let bin = scratch.path().join(bin.file_name().unwrap_or_default());
        let st = Command::new(tools.join("spirv-as"))
            .args(["--target-env", "vulkan1.3"])
            .arg(&p)
            .arg("-o")
            .arg(&bin)
            .status()
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(st.success());
        let st = Command::new(tools.join("spirv-val"))
            .args(["--target-env", "vulkan1.3"])
            .arg(&bin)
            .status()
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(st.success(), "spirv-val refuses the graph module");
    }
}
