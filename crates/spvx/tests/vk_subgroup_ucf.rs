//! SPV_KHR_subgroup_uniform_control_flow on the Vulkan device: spvx-vk enables
//! VK_KHR_shader_subgroup_uniform_control_flow's `shaderSubgroupUniformControlFlow` when the
//! device offers it and refuses the module naming that feature when it does not (lavapipe
//! 22.3 does not offer it: before, vkCreateComputePipelines failed without saying why, the CTS
//! script small_subgroup_reconverge00 ended as an ERROR). The engine runs the module either way.
//! The same module in an Amber script without requirements (as the CTS script has none):
//! PASS on the engine, SKIP naming the feature on such a device.

mod vk_common;

use spvx_testtools::temp_dir;
use std::path::Path;
use std::process::{Command, Output};

/// out[i] = GlobalInvocationId.x + 1, under the execution mode SubgroupUniformControlFlowKHR.
const MODULE: &str = r#"
OpCapability Shader
OpExtension "SPV_KHR_subgroup_uniform_control_flow"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid %out
OpExecutionMode %main LocalSize 4 1 1
OpExecutionMode %main SubgroupUniformControlFlowKHR
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %rarr ArrayStride 4
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %Buf Block
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v3 = OpTypeVector %uint 3
%c0 = OpConstant %uint 0
%c1 = OpConstant %uint 1
%pin = OpTypePointer Input %v3
%gid = OpVariable %pin Input
%rarr = OpTypeRuntimeArray %uint
%Buf = OpTypeStruct %rarr
%pbuf = OpTypePointer StorageBuffer %Buf
%pu = OpTypePointer StorageBuffer %uint
%out = OpVariable %pbuf StorageBuffer
%main = OpFunction %void None %fn
%e = OpLabel
%g = OpLoad %v3 %gid
%x = OpCompositeExtract %uint %g 0
%y = OpIAdd %uint %x %c1
%p = OpAccessChain %pu %out %c0 %x
OpStore %p %y
OpReturn
OpFunctionEnd
"#;

fn spvx(dir: &Path, extra: &[&str]) -> Output {
    let module = dir.join("ucf.spvasm");
    let _ = std::fs::create_dir_all(dir);
    std::fs::write(&module, MODULE).expect("write module");
    let module = module.to_string_lossy().to_string();
    let out = dir.to_string_lossy().to_string();
    let mut args = vec![
        "run",
        &module,
        "--groups",
        "2",
        "--buffer",
        "0.0=zeros:32",
        "--out",
        &out,
    ];
    args.extend_from_slice(extra);
    Command::new(env!("CARGO_BIN_EXE_spvx"))
        .args(&args)
        .output()
        .expect("spawn spvx")
}

fn words(dir: &Path) -> Vec<u32> {
    let bytes = std::fs::read(dir.join("0.0.bin")).expect("output written");
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn subgroup_uniform_control_flow_is_enabled_or_refused_by_name() {
    let scratch = temp_dir("vk-ucf");
    let dir = scratch.path();
    let expected: Vec<u32> = (1..=8).collect();
    let o = spvx(&dir.join("engine"), &[]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(words(&dir.join("engine")), expected);
    let Some(dev) = vk_common::device() else {
        return;
    };
    let o = spvx(&dir.join("device"), &["--device", "vulkan"]);
    if dev.features().shader_subgroup_uniform_control_flow {
        assert!(o.status.success(), "{}", text(&o));
        assert_eq!(words(&dir.join("device")), expected);
    } else {
        let t = text(&o);
        assert!(!o.status.success(), "{t}");
        assert!(
            t.contains("shaderSubgroupUniformControlFlow")
                && t.contains("SPV_KHR_subgroup_uniform_control_flow"),
            "{t}"
        );
    }
}

#[test]
fn an_amber_script_using_it_is_skipped_by_name_on_a_device_without_it() {
    let scratch = temp_dir("vk-ucf-amber");
    let dir = scratch.path();
    let script = dir.join("ucf.amber");
    let indented: String = MODULE.lines().map(|l| format!("  {l}\n")).collect();
    std::fs::write(
        &script,
        format!(
            "#!amber\nSHADER compute ucf SPIRV-ASM TARGET_ENV spv1.4\n{indented}END\n\
             BUFFER out DATA_TYPE uint32 SIZE 8 FILL 0\n\
             PIPELINE compute p\n  ATTACH ucf\n  BIND BUFFER out AS storage DESCRIPTOR_SET 0 BINDING 0\nEND\n\
             RUN p 2 1 1\nEXPECT out IDX 0 EQ 1 2 3 4 5 6 7 8\n"
        ),
    )
    .expect("write script");
    let script = script.to_string_lossy().to_string();
    let run = |extra: &[&str]| {
        let o = Command::new(env!("CARGO_BIN_EXE_spvx"))
            .arg("amber")
            .args(extra)
            .arg(&script)
            .output()
            .expect("spawn spvx");
        (o.status.success(), text(&o))
    };
    let (ok, t) = run(&[]);
    assert!(ok && t.contains("PASS"), "{t}");
    let Some(dev) = vk_common::device() else {
        return;
    };
    let (ok, t) = run(&["--device", "vulkan"]);
    if dev.features().shader_subgroup_uniform_control_flow {
        assert!(ok && t.contains("PASS"), "{t}");
    } else {
        assert!(
            t.contains("SKIP") && t.contains("shaderSubgroupUniformControlFlow"),
            "{t}"
        );
    }
}
