//! The vector-add case the tests time: a small SPIR-V module, inputs, and its expected output
//! computed on the host with wrapping u32 additions (independently of the engine).

#![allow(dead_code)]

use spvx_bench::{BenchCase, DeviceSupport, Work};
use spvx_exec::{CompileOptions, CompiledModule, Resources, RunConfig};
use spvx_spirv::asm::{AsmOptions, assemble};
use std::collections::BTreeMap;

pub const VADD: &str = r#"
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
     %v3uint = OpTypeVector %uint 3
    %ptr_gid = OpTypePointer Input %v3uint
        %gid = OpVariable %ptr_gid Input
        %arr = OpTypeRuntimeArray %uint
        %Buf = OpTypeStruct %arr
    %ptr_buf = OpTypePointer StorageBuffer %Buf
   %ptr_uint = OpTypePointer StorageBuffer %uint
          %a = OpVariable %ptr_buf StorageBuffer
          %b = OpVariable %ptr_buf StorageBuffer
          %c = OpVariable %ptr_buf StorageBuffer
         %u0 = OpConstant %uint 0
       %main = OpFunction %void None %fn
      %entry = OpLabel
         %id = OpLoad %v3uint %gid
          %i = OpCompositeExtract %uint %id 0
         %pa = OpAccessChain %ptr_uint %a %u0 %i
         %pb = OpAccessChain %ptr_uint %b %u0 %i
         %pc = OpAccessChain %ptr_uint %c %u0 %i
         %va = OpLoad %uint %pa
         %vb = OpLoad %uint %pb
         %vc = OpIAdd %uint %va %vb
               OpStore %pc %vc
               OpReturn
               OpFunctionEnd
"#;

pub const N: usize = 4096;

pub fn inputs() -> (Vec<u32>, Vec<u32>) {
    let a = (0..N as u32).map(|i| i.wrapping_mul(0x9e37_79b9)).collect();
    let b = (0..N as u32)
        .map(|i| u32::MAX - i.wrapping_mul(7))
        .collect();
    (a, b)
}

pub fn le(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

pub fn case(expected_c: Vec<u32>) -> BenchCase {
    let asm = assemble(VADD, &AsmOptions::default()).expect("assembles");
    let module = CompiledModule::from_bytes(&asm.bytes(), "main", &CompileOptions::default())
        .expect("compiles");
    let (a, b) = inputs();
    let mut resources = Resources::new();
    resources.set_words(0, 0, &a);
    resources.set_words(0, 1, &b);
    resources.set_words(0, 2, &vec![0; N]);
    BenchCase {
        name: "vadd".into(),
        module,
        compile_time: None,
        spirv: asm.words(),
        entry: "main".into(),
        spec: BTreeMap::new(),
        groups: [(N / 64) as u32, 1, 1],
        resources,
        config: RunConfig::default(),
        subgroup_size_from_device: false,
        work: Work {
            macs: None,
            bytes: Some(12 * N as u64),
        },
        device: DeviceSupport::Supported,
        expected: vec![((0, 2), le(&expected_c))],
    }
}

/// Wrapping sums, computed on the host.
pub fn host_sum() -> Vec<u32> {
    let (a, b) = inputs();
    a.iter().zip(&b).map(|(x, y)| x.wrapping_add(*y)).collect()
}
