//! spirv-val's relaxation switches other than block layout (`--relax-struct-store`,
//! `--allow-localsizeid`): each verdict asserted on its own, then compared with spirv-val
//! 2025.5 given the same switch.

mod support;

use spvx_spirv::asm::{AsmOptions, assemble};
use spvx_val::{Options, Relaxations, TargetEnv, errors};
use std::process::Command;

fn spvx(text: &str, env: &str, relax: Relaxations) -> Vec<String> {
    let target = TargetEnv::parse(env).expect("env");
    let asm = assemble(
        text,
        &AsmOptions {
            version: target.max_version,
        },
    )
    .unwrap_or_else(|e| panic!("{e}\n{text}"));
    let insts: Vec<_> = asm.instructions().cloned().collect();
    let opts = Options {
        target_env: target,
        relax,
        ..Options::default()
    };
    errors(&asm.header, &insts, &opts)
        .iter()
        .map(ToString::to_string)
        .collect()
}

fn spirv_val(text: &str, env: &str, flag: Option<&str>, tag: &str) -> Option<bool> {
    let dir = support::tools_dir()?;
    // A fresh directory per call (removed on return): the tests of this file run in parallel.
    let scratch = spvx_testtools::temp_dir(&format!("switch-{tag}"));
    let tmp = scratch.path();
    let (src, bin) = (tmp.join("m.spvasm"), tmp.join("m.spv"));
    std::fs::write(&src, text).expect("write");
    let asm = Command::new(dir.join("spirv-as"))
        .args(["--target-env", env])
        .arg(&src)
        .arg("-o")
        .arg(&bin)
        .output()
        .expect("spirv-as");
    assert!(
        asm.status.success(),
        "{}",
        String::from_utf8_lossy(&asm.stderr)
    );
    let val = Command::new(dir.join("spirv-val"))
        .args(["--target-env", env])
        .args(flag)
        .arg(&bin)
        .output()
        .expect("spirv-val");
    Some(val.status.success())
}

/// Checks spvx without and with the switch, and spirv-val the same way.
fn judge(
    text: &str,
    env: &str,
    flag: &str,
    relax: Relaxations,
    without: bool,
    with: bool,
    expect: &str,
) {
    let plain = spvx(text, env, Relaxations::default());
    assert_eq!(
        plain.is_empty(),
        without,
        "{env} without {flag}: {plain:#?}"
    );
    if !without {
        assert!(plain.iter().any(|e| e.contains(expect)), "{plain:#?}");
    }
    let relaxed = spvx(text, env, relax);
    assert_eq!(relaxed.is_empty(), with, "{env} with {flag}: {relaxed:#?}");
    if let Some(ok) = spirv_val(text, env, None, "plain") {
        assert_eq!(ok, without, "spirv-val {env} without {flag}");
    }
    if let Some(ok) = spirv_val(text, env, Some(flag), "flag") {
        assert_eq!(ok, with, "spirv-val {env} {flag}");
    }
}

const LOCAL_SIZE_ID: &str = "OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main \"main\"
OpExecutionModeId %main LocalSizeId %c1 %c1 %c1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%u32 = OpTypeInt 32 0
%c1 = OpConstant %u32 1
%main = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
";

#[test]
fn local_size_id_needs_vulkan_1_3_or_the_switch() {
    let allow = Relaxations {
        allow_localsizeid: true,
        ..Relaxations::default()
    };
    judge(
        LOCAL_SIZE_ID,
        "vulkan1.2",
        "--allow-localsizeid",
        allow.clone(),
        false,
        true,
        "LocalSizeId mode is not allowed",
    );
    judge(
        LOCAL_SIZE_ID,
        "vulkan1.3",
        "--allow-localsizeid",
        allow.clone(),
        true,
        true,
        "",
    );
    judge(
        LOCAL_SIZE_ID,
        "spv1.5",
        "--allow-localsizeid",
        allow,
        true,
        true,
        "",
    );
}

/// Stores a value of struct %A through a pointer to struct %B; `b_offset` is the Offset of
/// %B's second member (%A's is 4).
fn struct_store(b_offset: u32) -> String {
    format!(
        "OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main \"main\"
OpExecutionMode %main LocalSize 1 1 1
OpMemberDecorate %A 0 Offset 0
OpMemberDecorate %A 1 Offset 4
OpMemberDecorate %B 0 Offset 0
OpMemberDecorate %B 1 Offset {b_offset}
%void = OpTypeVoid
%fn = OpTypeFunction %void
%f32 = OpTypeFloat 32
%A = OpTypeStruct %f32 %f32
%B = OpTypeStruct %f32 %f32
%pa = OpTypePointer Function %A
%pb = OpTypePointer Function %B
%main = OpFunction %void None %fn
%l = OpLabel
%va = OpVariable %pa Function
%vb = OpVariable %pb Function
%x = OpLoad %A %va
OpStore %vb %x
OpReturn
OpFunctionEnd
"
    )
}

#[test]
fn relax_struct_store_accepts_layout_compatible_structs_only() {
    let relax = Relaxations {
        relax_struct_store: true,
        ..Relaxations::default()
    };
    judge(
        &struct_store(4),
        "spv1.5",
        "--relax-struct-store",
        relax.clone(),
        false,
        true,
        "Object",
    );
    judge(
        &struct_store(8),
        "spv1.5",
        "--relax-struct-store",
        relax,
        false,
        false,
        "Object",
    );
}

/// A Function variable holding a Function pointer (`holds`), or a function returning one.
fn logical_pointer_module(returns: bool, caps: &str) -> String {
    let body = if returns {
        "%fret = OpTypeFunction %pf %pf
%g = OpFunction %pf None %fret
%a = OpFunctionParameter %pf
%gl = OpLabel
OpReturnValue %a
OpFunctionEnd
%main = OpFunction %void None %fn
%l = OpLabel
%x = OpVariable %pf Function
%r = OpFunctionCall %pf %g %x"
    } else {
        "%ppf = OpTypePointer Function %pf
%main = OpFunction %void None %fn
%l = OpLabel
%x = OpVariable %pf Function
%px = OpVariable %ppf Function
OpStore %px %x"
    };
    format!(
        "OpCapability Shader
{caps}
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main \"main\"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%f32 = OpTypeFloat 32
%pf = OpTypePointer Function %f32
{body}
OpReturn
OpFunctionEnd
"
    )
}

#[test]
fn relax_logical_pointer_and_hlsl_legalization() {
    let relax = Relaxations {
        relax_logical_pointer: true,
        ..Relaxations::default()
    };
    let hlsl = Relaxations {
        before_hlsl_legalization: true,
        ..Relaxations::default()
    };
    let holds = logical_pointer_module(false, "");
    let returns = logical_pointer_module(true, "");
    let returns_vp = logical_pointer_module(true, "OpCapability VariablePointers");
    for (flag, r) in [
        ("--relax-logical-pointer", relax),
        ("--before-hlsl-legalization", hlsl),
    ] {
        judge(
            &holds,
            "spv1.5",
            flag,
            r.clone(),
            false,
            true,
            "variables can only allocate a pointer to the StorageBuffer or Workgroup storage classes",
        );
        judge(
            &returns,
            "spv1.5",
            flag,
            r.clone(),
            false,
            true,
            "is a pointer, which is invalid in the Logical addressing model",
        );
        judge(
            &returns_vp,
            "spv1.5",
            flag,
            r,
            false,
            true,
            "functions may not return a pointer in this storage class",
        );
    }
}
