//! What the prepared form saves per dispatch on the first Vulkan device (lavapipe here): a
//! 4096-element u32 vector add run with `VkRunner::run` (buffers, pipeline and command buffer
//! created and destroyed every time) against `Prepared::dispatch` on objects created once
//! (inputs copied in, dispatch, outputs copied out). Without a device it prints why and
//! measures nothing.

use criterion::{Criterion, criterion_group, criterion_main};
use spvx_spirv::asm::{AsmOptions, assemble};
use spvx_vk::{BufferData, DeviceChoice, VkInputs, VkRun, VkRunner};
use std::collections::BTreeMap;

const VADD: &str = r#"
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid %a %b %c
OpExecutionMode %main LocalSize 64 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %arr ArrayStride 4
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %Buf Block
OpDecorate %a DescriptorSet 0
OpDecorate %a Binding 0
OpDecorate %b DescriptorSet 0
OpDecorate %b Binding 1
OpDecorate %c DescriptorSet 0
OpDecorate %c Binding 2
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v3 = OpTypeVector %uint 3
%pgid = OpTypePointer Input %v3
%gid = OpVariable %pgid Input
%arr = OpTypeRuntimeArray %uint
%Buf = OpTypeStruct %arr
%pbuf = OpTypePointer StorageBuffer %Buf
%pu = OpTypePointer StorageBuffer %uint
%a = OpVariable %pbuf StorageBuffer
%b = OpVariable %pbuf StorageBuffer
%c = OpVariable %pbuf StorageBuffer
%c0 = OpConstant %uint 0
%main = OpFunction %void None %fn
%l = OpLabel
%g = OpLoad %v3 %gid
%i = OpCompositeExtract %uint %g 0
%pa = OpAccessChain %pu %a %c0 %i
%pb = OpAccessChain %pu %b %c0 %i
%pc = OpAccessChain %pu %c %c0 %i
%x = OpLoad %uint %pa
%y = OpLoad %uint %pb
%z = OpIAdd %uint %x %y
OpStore %pc %z
OpReturn
OpFunctionEnd
"#;

fn dispatch(c: &mut Criterion) {
    let runner = match VkRunner::new(&DeviceChoice::First) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("no Vulkan device, nothing measured: {e}");
            return;
        }
    };
    let n = 4096u32;
    let words = match assemble(VADD, &AsmOptions::default()) {
        Ok(a) => a.words(),
        Err(e) => panic!("the bench module does not assemble: {e}"),
    };
    let le = |v: Vec<u32>| -> Vec<u8> { v.iter().flat_map(|x| x.to_le_bytes()).collect() };
    let run = VkRun {
        words,
        entry: None,
        groups: [n / 64, 1, 1],
        buffers: vec![
            BufferData {
                set: 0,
                binding: 0,
                bytes: le((0..n).collect()),
            },
            BufferData {
                set: 0,
                binding: 1,
                bytes: le((0..n).map(|i| i * 3).collect()),
            },
            BufferData {
                set: 0,
                binding: 2,
                bytes: vec![0; 4 * n as usize],
            },
        ],
        elements: Vec::new(),
        push: None,
        spec: BTreeMap::new(),
    };
    let mut g = c.benchmark_group("vadd_u32_4096");
    g.sample_size(20);
    g.bench_function("run (prepare + dispatch)", |bench| {
        bench.iter(|| runner.run(&run).expect("run"))
    });
    let mut prepared = runner.prepare(&run).expect("prepare");
    let inputs = VkInputs::of_run(&run, &[]);
    g.bench_function("prepared dispatch", |bench| {
        bench.iter(|| prepared.dispatch(&inputs).expect("dispatch"))
    });
    g.finish();
}

criterion_group!(benches, dispatch);
criterion_main!(benches);
