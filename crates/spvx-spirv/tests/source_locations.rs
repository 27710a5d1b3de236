//! `ModuleIndex::source_location`: the `OpLine` / `DebugLine` in force at an instruction, with
//! the scope rules of SPIR-V 1.6 (§3.49.2) and NonSemantic.Shader.DebugInfo.100 (`DebugLine`):
//! up to the next line instruction, `OpNoLine`/`DebugNoLine`, or the end of the block. Expected
//! locations are read off the hand-written text.

use spvx_spirv::asm::assemble;
use spvx_spirv::binary::read_words;
use spvx_spirv::index::ModuleIndex;
use spvx_spirv::op::Op;

const TEXT: &str = r#"OpCapability Shader
OpExtension "SPV_KHR_non_semantic_info"
%dbg = OpExtInstImport "NonSemantic.Shader.DebugInfo.100"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%file = OpString "k.comp"
%file2 = OpString "inc.h"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%u1 = OpConstant %uint 1
%u7 = OpConstant %uint 7
%u9 = OpConstant %uint 9
%u12 = OpConstant %uint 12
%src = OpExtInst %void %dbg DebugSource %file2
%main = OpFunction %void None %fn
%entry = OpLabel
%a = OpIAdd %uint %u1 %u1
OpLine %file 3 5
%b = OpIAdd %uint %a %u1
%c = OpIAdd %uint %b %u1
OpNoLine
%d = OpIAdd %uint %c %u1
%l = OpExtInst %void %dbg DebugLine %src %u7 %u9 %u1 %u12
%e = OpIAdd %uint %d %u1
OpLine %file 4 1
OpBranch %next
%next = OpLabel
%f = OpIAdd %uint %e %u1
%l2 = OpExtInst %void %dbg DebugLine %src %u9 %u9 %u7 %u7
%g = OpIAdd %uint %f %u1
%nl = OpExtInst %void %dbg DebugNoLine
%h = OpIAdd %uint %g %u1
OpReturn
OpFunctionEnd
"#;

/// The index and, for each result name in order, its instruction index.
fn index() -> ModuleIndex {
    let m = assemble(TEXT, &Default::default()).expect("assembles");
    let parsed = read_words(&m.words()).expect("reads");
    ModuleIndex::build(&parsed.header, parsed.instructions)
}

/// Index of the n-th `OpIAdd` (a, b, c, …) and of the branch.
fn iadds(ix: &ModuleIndex) -> Vec<usize> {
    ix.insts
        .iter()
        .enumerate()
        .filter(|(_, i)| i.opcode == Op::IAdd)
        .map(|(k, _)| k)
        .collect()
}

#[test]
fn op_line_and_debug_line_scopes() {
    let ix = index();
    let adds = iadds(&ix);
    assert_eq!(adds.len(), 8);
    let at = |k: usize| ix.source_location(adds[k]).map(|l| l.to_string());
    // %a: before any line instruction.
    assert_eq!(at(0), None);
    // %b, %c: OpLine %file 3 5.
    assert_eq!(at(1).as_deref(), Some("k.comp:3:5"));
    assert_eq!(at(2).as_deref(), Some("k.comp:3:5"));
    // %d: after OpNoLine.
    assert_eq!(at(3), None);
    // %e: DebugLine %src 7..9, columns 1..12; the file is the DebugSource's OpString.
    let e = ix.source_location(adds[4]).expect("a location");
    assert_eq!(e.to_string(), "inc.h:7:1");
    assert_eq!((e.line_end, e.column_end), (9, 12));
    // OpLine 4 1 before the branch applies to the branch, not to the next block.
    let branch = ix
        .insts
        .iter()
        .position(|i| i.opcode == Op::Branch)
        .expect("branch");
    assert_eq!(
        ix.source_location(branch).map(|l| l.to_string()).as_deref(),
        Some("k.comp:4:1")
    );
    // %f: a new block starts without a location.
    assert_eq!(at(5), None);
    // %g: DebugLine 9:7; %h after DebugNoLine: none.
    assert_eq!(at(6).as_deref(), Some("inc.h:9:7"));
    assert_eq!(at(7), None);
    // Out of range: none, no panic.
    assert_eq!(ix.source_location(usize::MAX), None);
}
