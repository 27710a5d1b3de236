//! Integers wider than 64 bits on the engine: a loop of 16 multiply-adds (`acc = acc·x + y`)
//! then one unsigned division per invocation, 4096 invocations, at 64 bits (the narrow
//! instructions, for comparison), 128 and 256 bits (`exec::wide`). Throughput in multiply-adds.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use spvx_exec::{CompileOptions, CompiledModule, Resources, RunConfig};
use spvx_spirv::asm::{AsmOptions, assemble};

const INVOCATIONS: u32 = 4096;
const STEPS: u32 = 16;

fn kernel(bits: u32) -> String {
    let stride = 8 * bits.div_ceil(64);
    format!(
        r#"OpCapability Shader
OpCapability Int64
OpCapability ArbitraryPrecisionIntegersINTEL
OpExtension "SPV_INTEL_arbitrary_precision_integers"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid %buf
OpExecutionMode %main LocalSize 64 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %arr ArrayStride {stride}
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %Buf Block
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%u32 = OpTypeInt 32 0
%w = OpTypeInt {bits} 0
%v3 = OpTypeVector %u32 3
%pv3 = OpTypePointer Input %v3
%pu32 = OpTypePointer Input %u32
%gid = OpVariable %pv3 Input
%c0 = OpConstant %u32 0
%c1 = OpConstant %u32 1
%steps = OpConstant %u32 {STEPS}
%k7 = OpConstant %w 7
%arr = OpTypeRuntimeArray %w
%Buf = OpTypeStruct %arr
%pbuf = OpTypePointer StorageBuffer %Buf
%pw = OpTypePointer StorageBuffer %w
%buf = OpVariable %pbuf StorageBuffer
%main = OpFunction %void None %fn
%entry = OpLabel
%gx = OpAccessChain %pu32 %gid %c0
%i = OpLoad %u32 %gx
%p = OpAccessChain %pw %buf %c0 %i
%x = OpLoad %w %p
%y = OpIAdd %w %x %k7
OpBranch %head
%head = OpLabel
%acc = OpPhi %w %x %entry %next %body
%j = OpPhi %u32 %c0 %entry %j1 %body
%more = OpULessThan %bool %j %steps
OpLoopMerge %exit %body None
OpBranchConditional %more %body %exit
%body = OpLabel
%m = OpIMul %w %acc %x
%next = OpIAdd %w %m %y
%j1 = OpIAdd %u32 %j %c1
OpBranch %head
%exit = OpLabel
%q = OpUDiv %w %acc %y
OpStore %p %q
OpReturn
OpFunctionEnd
"#
    )
}

fn wide(c: &mut Criterion) {
    let mut g = c.benchmark_group("wide_int_mul_add");
    g.throughput(Throughput::Elements((INVOCATIONS * STEPS) as u64));
    g.sample_size(10);
    for bits in [64u32, 128, 256] {
        let asm = assemble(&kernel(bits), &AsmOptions::default()).expect("assembles");
        let module = CompiledModule::from_bytes(&asm.bytes(), "main", &CompileOptions::default())
            .expect("compiles");
        let bytes = 8 * bits.div_ceil(64) as usize;
        let data: Vec<u8> = (0..INVOCATIONS as usize * bytes)
            .map(|i| (i as u8).wrapping_mul(151).wrapping_add(3))
            .collect();
        let cfg = RunConfig {
            threads: Some(1),
            ..RunConfig::default()
        };
        g.bench_function(format!("{bits}_bit_single_thread"), |bench| {
            bench.iter(|| {
                let mut res = Resources::new();
                res.set_buffer(0, 0, data.clone());
                module
                    .run(&mut res, [INVOCATIONS / 64, 1, 1], &cfg)
                    .expect("runs")
            })
        });
    }
    g.finish();
}

criterion_group!(benches, wide);
criterion_main!(benches);
