//! Test helpers: assemble spirv-as text with spvx's assembler, compile, run.
#![allow(dead_code)]

use spvx_exec::{CompileOptions, CompiledModule, ExecError, Resources, RunConfig, RunReport};
use spvx_spirv::asm::{AsmOptions, assemble};

/// Assembles and compiles `text` (entry point "main").
pub fn compile(text: &str) -> Result<CompiledModule, ExecError> {
    compile_with(text, &CompileOptions::default())
}

pub fn compile_with(text: &str, opts: &CompileOptions) -> Result<CompiledModule, ExecError> {
    let a = match assemble(text, &AsmOptions::default()) {
        Ok(a) => a,
        Err(e) => panic!("assembly failed: {e}\n{text}"),
    };
    CompiledModule::from_bytes(&a.bytes(), "main", opts)
}

/// The common head of the test kernels: binding 0 is `In { uint x[]; }`, binding 1 is
/// `Out { uint y[]; }`, `%gid` is GlobalInvocationId; types and a few constants.
pub const HEAD: &str = r#"
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid %in %out
OpExecutionMode %main LocalSize LOCAL 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %arr ArrayStride 4
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %Buf Block
OpDecorate %in DescriptorSet 0
OpDecorate %in Binding 0
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%float = OpTypeFloat 32
%v3uint = OpTypeVector %uint 3
%ptr_in_v3 = OpTypePointer Input %v3uint
%ptr_in_uint = OpTypePointer Input %uint
%gid = OpVariable %ptr_in_v3 Input
%arr = OpTypeRuntimeArray %uint
%Buf = OpTypeStruct %arr
%ptr_sb_Buf = OpTypePointer StorageBuffer %Buf
%ptr_sb_uint = OpTypePointer StorageBuffer %uint
%in = OpVariable %ptr_sb_Buf StorageBuffer
%out = OpVariable %ptr_sb_Buf StorageBuffer
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%u3 = OpConstant %uint 3
%u4 = OpConstant %uint 4
%i0 = OpConstant %int 0
%i1 = OpConstant %int 1
"#;

/// A kernel: `decls` (more types/constants), then `main` loading `%x = in[i]` (uint) with
/// `%i` = GlobalInvocationId.x, running `body`, which must define `%r` (uint), stored to
/// `out[i]`.
pub fn kernel(local: u32, decls: &str, body: &str) -> String {
    format!(
        "{}{decls}
%main = OpFunction %void None %fn
%entry = OpLabel
%gx = OpAccessChain %ptr_in_uint %gid %u0
%i = OpLoad %uint %gx
%px = OpAccessChain %ptr_sb_uint %in %u0 %i
%x = OpLoad %uint %px
{body}
%py = OpAccessChain %ptr_sb_uint %out %u0 %i
OpStore %py %r
OpReturn
OpFunctionEnd
",
        HEAD.replace("LOCAL", &local.to_string())
    )
}

/// Runs a compiled kernel with `input` at binding 0 and an output of `outputs` words at
/// binding 1; returns the output words and the report.
pub fn run_words(
    m: &CompiledModule,
    input: &[u32],
    outputs: usize,
    groups: u32,
    cfg: &RunConfig,
) -> Result<(Vec<u32>, RunReport), ExecError> {
    let mut res = Resources::new();
    res.set_words(0, 0, input);
    res.set_words(0, 1, &vec![0u32; outputs]);
    let report = m.run(&mut res, [groups, 1, 1], cfg)?;
    Ok((res.words(0, 1).unwrap_or_default(), report))
}

/// Compiles `kernel(local, decls, body)` and runs it over `input` (one invocation per word),
/// returning the output words.
pub fn eval(decls: &str, body: &str, input: &[u32]) -> Vec<u32> {
    eval_caps("", decls, body, input)
}

/// [`eval`] with extra `OpCapability` lines (names, one per entry of `caps`, space-separated).
pub fn eval_caps(caps: &str, decls: &str, body: &str, input: &[u32]) -> Vec<u32> {
    let extra: String = caps
        .split_whitespace()
        .map(|c| format!("OpCapability {c}\n"))
        .collect();
    let text = kernel(16, decls, body).replacen(
        "OpCapability Shader\n",
        &format!("OpCapability Shader\n{extra}"),
        1,
    );
    let m = match compile(&text) {
        Ok(m) => m,
        Err(e) => panic!("compile failed: {e}\n{text}"),
    };
    let groups = input.len().div_ceil(16) as u32;
    let mut padded = input.to_vec();
    padded.resize(groups as usize * 16, 0);
    let (out, _) = run_words(&m, &padded, padded.len(), groups, &RunConfig::default())
        .unwrap_or_else(|e| panic!("run failed: {e}"));
    out[..input.len()].to_vec()
}
