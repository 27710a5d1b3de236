//! The prepared form: device objects created once, dispatched many times with fresh inputs.
//! Expected outputs are computed on the host with exact u64 arithmetic reduced mod 2^32
//! (independent of the device and of spvx's engine), and a dispatch must equal a fresh run.

mod common;

use common::{asm, le32, runner, words32};
use spvx_vk::{BufferData, BufferInput, VkError, VkInputs, VkRun};
use std::collections::BTreeMap;

/// acc[i] = acc[i] + a[i] * push.k + b[i] (u32, wrapping), 32 invocations per group. `acc` is
/// read and written, so a dispatch that did not upload fresh bytes would accumulate.
const MULADD: &str = r#"
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid %a %b %acc %pc
OpExecutionMode %main LocalSize 32 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %arr ArrayStride 4
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %Buf Block
OpMemberDecorate %Push 0 Offset 0
OpDecorate %Push Block
OpDecorate %a DescriptorSet 0
OpDecorate %a Binding 0
OpDecorate %b DescriptorSet 0
OpDecorate %b Binding 1
OpDecorate %acc DescriptorSet 0
OpDecorate %acc Binding 2
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
%a = OpVariable %pbuf StorageBuffer
%b = OpVariable %pbuf StorageBuffer
%acc = OpVariable %pbuf StorageBuffer
%pc = OpVariable %ppush PushConstant
%c0 = OpConstant %uint 0
%main = OpFunction %void None %fn
%l = OpLabel
%g = OpLoad %v3 %gid
%i = OpCompositeExtract %uint %g 0
%pa = OpAccessChain %pu %a %c0 %i
%pb = OpAccessChain %pu %b %c0 %i
%pacc = OpAccessChain %pu %acc %c0 %i
%x = OpLoad %uint %pa
%y = OpLoad %uint %pb
%z = OpLoad %uint %pacc
%pk = OpAccessChain %ppu %pc %c0
%k = OpLoad %uint %pk
%m = OpIMul %uint %x %k
%s = OpIAdd %uint %m %y
%r = OpIAdd %uint %s %z
OpStore %pacc %r
OpReturn
OpFunctionEnd
"#;

const N: usize = 128;

/// Deterministic inputs covering the u32 range (SplitMix-style mixing of the seed).
fn fill(seed: u64) -> Vec<u32> {
    (0..N as u64)
        .map(|i| {
            let mut z = seed.wrapping_add(i.wrapping_mul(0x9e37_79b9_7f4a_7c15));
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            (z ^ (z >> 31)) as u32
        })
        .collect()
}

/// The expected acc: exact in u64, reduced mod 2^32.
fn expected(a: &[u32], b: &[u32], acc: &[u32], k: u32) -> Vec<u32> {
    (0..N)
        .map(|i| {
            let exact = u64::from(acc[i]) + u64::from(a[i]) * u64::from(k) + u64::from(b[i]);
            (exact % (1u64 << 32)) as u32
        })
        .collect()
}

fn run_of(a: &[u32], b: &[u32], acc: &[u32], k: u32) -> VkRun {
    VkRun {
        words: asm(MULADD),
        entry: None,
        groups: [(N / 32) as u32, 1, 1],
        buffers: [a, b, acc]
            .iter()
            .enumerate()
            .map(|(i, v)| BufferData {
                set: 0,
                binding: i as u32,
                bytes: le32(v),
            })
            .collect(),
        elements: Vec::new(),
        push: Some(le32(&[k])),
        spec: BTreeMap::new(),
        subgroup_size: None,
    }
}

#[test]
fn two_dispatches_with_different_inputs_give_the_exact_results_and_equal_run() {
    let Some(r) = runner() else { return };
    let (a1, b1, acc1) = (fill(1), fill(2), fill(3));
    let (a2, b2, acc2) = (fill(4), fill(5), fill(6));
    let first = run_of(&a1, &b1, &acc1, 0x0101_0101);
    let second = run_of(&a2, &b2, &acc2, 0xffff_fffd);
    let mut p = r.prepare(&first).expect("prepare");
    assert_eq!(p.groups(), [4, 1, 1]);
    for _ in 0..2 {
        let out = p
            .dispatch(&VkInputs::of_run(&first, &[]))
            .expect("dispatch 1");
        assert_eq!(
            words32(&out.buffers[2].bytes),
            expected(&a1, &b1, &acc1, 0x0101_0101)
        );
        assert_eq!(
            words32(&out.buffers[0].bytes),
            a1,
            "inputs come back as given"
        );
        assert_eq!(out, r.run(&first).expect("run 1"));
    }
    // Fresh bytes and another push constant through the same pipeline.
    let out = p
        .dispatch(&VkInputs::of_run(&second, &[]))
        .expect("dispatch 2");
    assert_eq!(
        words32(&out.buffers[2].bytes),
        expected(&a2, &b2, &acc2, 0xffff_fffd)
    );
    assert_eq!(out, r.run(&second).expect("run 2"));
    // Hand-checked corner: a = 0xffffffff, k = 0xfffffffd, b = 0, acc = 0 gives 3
    // ((2^32 - 1)(2^32 - 3) = 2^64 - 4·2^32 + 3 ≡ 3 mod 2^32).
    let ones = vec![u32::MAX; N];
    let zeros = vec![0u32; N];
    let corner = run_of(&ones, &zeros, &zeros, 0);
    let inputs = VkInputs {
        push: Some(&[0xfd, 0xff, 0xff, 0xff]),
        ..VkInputs::of_run(&corner, &[])
    };
    let out = p.dispatch(&inputs).expect("dispatch 3");
    assert_eq!(words32(&out.buffers[2].bytes), vec![3; N]);
}

#[test]
fn dispatch_inputs_must_match_the_prepared_run() {
    let Some(r) = runner() else { return };
    let (a, b, acc) = (fill(7), fill(8), fill(9));
    let run = run_of(&a, &b, &acc, 1);
    let mut p = r.prepare(&run).expect("prepare");
    let good = VkInputs::of_run(&run, &[]);
    let short = le32(&a[..N - 1]);
    let mut bad = good.clone();
    bad.buffers[0].bytes = &short;
    let e = p.dispatch(&bad).expect_err("shorter buffer");
    assert!(e.to_string().contains("prepared for 512"), "{e}");
    let mut missing = good.clone();
    missing.buffers.pop();
    let e = p.dispatch(&missing).expect_err("missing buffer");
    assert!(
        matches!(
            e,
            VkError::Binding {
                set: 0,
                binding: 2,
                ..
            }
        ),
        "{e}"
    );
    let mut twice = good.clone();
    twice.buffers.push(twice.buffers[0]);
    assert!(p.dispatch(&twice).is_err());
    let mut extra = good.clone();
    extra.buffers.push(BufferInput {
        set: 0,
        binding: 3,
        index: 0,
        bytes: &[],
    });
    assert!(p.dispatch(&extra).is_err());
    let long_push = [0u8; 132];
    let e = p
        .dispatch(&VkInputs {
            push: Some(&long_push),
            ..good.clone()
        })
        .expect_err("push longer than the prepared range");
    assert!(matches!(e, VkError::Limit(_)), "{e}");
    // After the refused dispatches the prepared run still works.
    let out = p.dispatch(&good).expect("dispatch");
    assert_eq!(words32(&out.buffers[2].bytes), expected(&a, &b, &acc, 1));
}
