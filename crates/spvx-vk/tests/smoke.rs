//! The runner end to end on small hand-written modules: buffers in and out, push constants,
//! specialisation constants, the device report, and the errors a user can cause.

mod common;

use common::{asm, le32, runner, words32};
use spvx_vk::{BufferData, VkError, VkRun};
use std::collections::BTreeMap;

/// out[i] = in[i] * push.k + SPEC(id 3, default 7), 64 invocations per group.
const SCALE: &str = r#"
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid %in %out %pc
OpExecutionMode %main LocalSize 64 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %arr ArrayStride 4
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %Buf Block
OpMemberDecorate %Push 0 Offset 0
OpDecorate %Push Block
OpDecorate %in DescriptorSet 0
OpDecorate %in Binding 0
OpDecorate %out DescriptorSet 1
OpDecorate %out Binding 2
OpDecorate %add SpecId 3
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v3 = OpTypeVector %uint 3
%arr = OpTypeRuntimeArray %uint
%Buf = OpTypeStruct %arr
%Push = OpTypeStruct %uint
%pbuf = OpTypePointer StorageBuffer %Buf
%ppush = OpTypePointer PushConstant %Push
%pu = OpTypePointer StorageBuffer %uint
%ppu = OpTypePointer PushConstant %uint
%pgid = OpTypePointer Input %v3
%gid = OpVariable %pgid Input
%in = OpVariable %pbuf StorageBuffer
%out = OpVariable %pbuf StorageBuffer
%pc = OpVariable %ppush PushConstant
%c0 = OpConstant %uint 0
%add = OpSpecConstant %uint 7
%main = OpFunction %void None %fn
%l = OpLabel
%g = OpLoad %v3 %gid
%i = OpCompositeExtract %uint %g 0
%pi = OpAccessChain %pu %in %c0 %i
%x = OpLoad %uint %pi
%pk = OpAccessChain %ppu %pc %c0
%k = OpLoad %uint %pk
%m = OpIMul %uint %x %k
%r = OpIAdd %uint %m %add
%po = OpAccessChain %pu %out %c0 %i
OpStore %po %r
OpReturn
OpFunctionEnd
"#;

fn scale_run(n: u32, push: Option<Vec<u8>>, spec: BTreeMap<u32, u64>) -> VkRun {
    VkRun {
        words: asm(SCALE),
        entry: None,
        groups: [n.div_ceil(64), 1, 1],
        buffers: vec![
            BufferData {
                set: 0,
                binding: 0,
                bytes: le32(&(0..n).collect::<Vec<_>>()),
            },
            BufferData {
                set: 1,
                binding: 2,
                bytes: vec![0; 4 * n as usize],
            },
        ],
        elements: Vec::new(),
        push,
        spec,
        subgroup_size: None,
    }
}

#[test]
fn buffers_push_constants_and_spec_constants_reach_the_shader() {
    let Some(r) = runner() else { return };
    let rep = r.report();
    assert!(!rep.name.is_empty() && rep.subgroup_size >= 1, "{rep}");
    eprintln!("device: {rep}");
    let out = r
        .run(&scale_run(256, Some(le32(&[3])), BTreeMap::new()))
        .expect("run");
    let got = words32(&out.buffers[1].bytes);
    let want: Vec<u32> = (0..256).map(|i| i * 3 + 7).collect();
    assert_eq!(got, want);
    assert_eq!(out.buffers[0].bytes, le32(&(0..256).collect::<Vec<_>>()));
    // Spec constant 3 = 1000; no push data: the block reads as zero.
    let out = r
        .run(&scale_run(64, None, BTreeMap::from([(3, 1000)])))
        .expect("run");
    assert_eq!(words32(&out.buffers[1].bytes), vec![1000; 64]);
}

#[test]
fn user_errors_are_typed_and_name_the_place() {
    let Some(r) = runner() else { return };
    let mut run = scale_run(64, None, BTreeMap::from([(9, 1)]));
    let e = r.run(&run).unwrap_err();
    assert!(matches!(e, VkError::Spec { id: 9, .. }), "{e}");
    run.spec.clear();
    run.buffers.push(BufferData {
        set: 0,
        binding: 5,
        bytes: vec![0; 4],
    });
    let e = r.run(&run).unwrap_err();
    assert!(
        matches!(
            e,
            VkError::Binding {
                set: 0,
                binding: 5,
                ..
            }
        ),
        "{e}"
    );
    run.buffers.pop();
    run.groups = [0, 1, 1];
    assert!(matches!(r.run(&run).unwrap_err(), VkError::Limit(_)));
    run.groups = [1, 1, 1];
    run.entry = Some("nope".into());
    let e = r.run(&run).unwrap_err().to_string();
    assert!(e.contains("nope") && e.contains("main"), "{e}");
    run.entry = None;
    run.words = vec![0x07230203, 1, 2];
    assert!(matches!(r.run(&run).unwrap_err(), VkError::Module(_)));
}

#[test]
fn a_device_name_that_matches_nothing_is_an_error_listing_the_devices() {
    let Some(r) = runner() else { return };
    let name = r.report().name.clone();
    drop(r);
    let e = match spvx_vk::VkRunner::new(&spvx_vk::DeviceChoice::Named("no-such-gpu".into())) {
        Ok(_) => panic!("a device named no-such-gpu"),
        Err(e) => e.to_string(),
    };
    assert!(e.contains("'no-such-gpu'") && e.contains(&name), "{e}");
    assert!("vulkan:LLVMPIPE".parse::<spvx_vk::DeviceChoice>().is_ok());
    assert!("vulkan:".parse::<spvx_vk::DeviceChoice>().is_err());
    assert!("gpu".parse::<spvx_vk::DeviceChoice>().is_err());
}
