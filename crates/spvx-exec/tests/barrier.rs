//! Workgroup memory and OpControlBarrier: a tree reduction over 64 invocations split into 8
//! subgroups of 8 gives the exact sum only if the barrier really synchronises the subgroups
//! (the same module with a Subgroup-scope barrier, which does not, gives a wrong sum); atomics
//! on workgroup memory and buffers; parallel runs equal single-threaded runs.

mod support;
use spvx_exec::{RunConfig, UbKind};
use support::compile;

/// `out[wg] = Σ in[wg*64 .. wg*64+64]` by a shared-memory tree reduction; `SCOPE` is the
/// barrier's execution scope (2 = Workgroup, 3 = Subgroup). Also `atomicAdd(counter[0], x)`
/// on binding 2 and a workgroup-memory atomic count written to out[groups + wg].
fn reduction(scope: u32) -> String {
    format!(
        r#"
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid %lid %wid %nwg %in %out %cnt %tile %hits
OpExecutionMode %main LocalSize 64 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %lid BuiltIn LocalInvocationId
OpDecorate %wid BuiltIn WorkgroupId
OpDecorate %nwg BuiltIn NumWorkgroups
OpDecorate %arr ArrayStride 4
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %Buf Block
OpDecorate %in DescriptorSet 0
OpDecorate %in Binding 0
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 1
OpDecorate %cnt DescriptorSet 0
OpDecorate %cnt Binding 2
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%v3uint = OpTypeVector %uint 3
%ptr_in_v3 = OpTypePointer Input %v3uint
%ptr_in_uint = OpTypePointer Input %uint
%gid = OpVariable %ptr_in_v3 Input
%lid = OpVariable %ptr_in_v3 Input
%wid = OpVariable %ptr_in_v3 Input
%nwg = OpVariable %ptr_in_v3 Input
%arr = OpTypeRuntimeArray %uint
%Buf = OpTypeStruct %arr
%ptr_sb_Buf = OpTypePointer StorageBuffer %Buf
%ptr_sb_uint = OpTypePointer StorageBuffer %uint
%in = OpVariable %ptr_sb_Buf StorageBuffer
%out = OpVariable %ptr_sb_Buf StorageBuffer
%cnt = OpVariable %ptr_sb_Buf StorageBuffer
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%u32 = OpConstant %uint 32
%u64 = OpConstant %uint 64
%scope = OpConstant %uint {scope}
%sem = OpConstant %uint 264
%dev = OpConstant %uint 1
%relaxed = OpConstant %uint 0
%tile_t = OpTypeArray %uint %u64
%ptr_wg_tile = OpTypePointer Workgroup %tile_t
%ptr_wg_uint = OpTypePointer Workgroup %uint
%tile = OpVariable %ptr_wg_tile Workgroup
%hits = OpVariable %ptr_wg_uint Workgroup
%main = OpFunction %void None %fn
%entry = OpLabel
%gx = OpAccessChain %ptr_in_uint %gid %u0
%g = OpLoad %uint %gx
%lx = OpAccessChain %ptr_in_uint %lid %u0
%l = OpLoad %uint %lx
%wx = OpAccessChain %ptr_in_uint %wid %u0
%w = OpLoad %uint %wx
%nx = OpAccessChain %ptr_in_uint %nwg %u0
%n = OpLoad %uint %nx
%px = OpAccessChain %ptr_sb_uint %in %u0 %g
%x = OpLoad %uint %px
%pt = OpAccessChain %ptr_wg_uint %tile %l
OpStore %pt %x
%pc = OpAccessChain %ptr_sb_uint %cnt %u0 %u0
%old = OpAtomicIAdd %uint %pc %dev %relaxed %x
%h = OpAtomicIIncrement %uint %hits %u2 %relaxed
OpControlBarrier %scope %scope %sem
OpBranch %head
%head = OpLabel
%s = OpPhi %uint %u32 %entry %s1 %cont
%more = OpUGreaterThan %bool %s %u0
OpLoopMerge %done %cont None
OpBranchConditional %more %body %done
%body = OpLabel
%act = OpULessThan %bool %l %s
OpSelectionMerge %join None
OpBranchConditional %act %add %join
%add = OpLabel
%o = OpIAdd %uint %l %s
%po = OpAccessChain %ptr_wg_uint %tile %o
%vo = OpLoad %uint %po
%vl = OpLoad %uint %pt
%sum = OpIAdd %uint %vl %vo
OpStore %pt %sum
OpBranch %join
%join = OpLabel
OpControlBarrier %scope %scope %sem
OpBranch %cont
%cont = OpLabel
%s1 = OpShiftRightLogical %uint %s %u1
OpBranch %head
%done = OpLabel
%first = OpIEqual %bool %l %u0
OpSelectionMerge %end None
OpBranchConditional %first %write %end
%write = OpLabel
%p0 = OpAccessChain %ptr_wg_uint %tile %u0
%total = OpLoad %uint %p0
%py = OpAccessChain %ptr_sb_uint %out %u0 %w
OpStore %py %total
%hv = OpLoad %uint %hits
%wn = OpIAdd %uint %w %n
%ph = OpAccessChain %ptr_sb_uint %out %u0 %wn
OpStore %ph %hv
OpBranch %end
%end = OpLabel
OpReturn
OpFunctionEnd
"#
    )
}

fn run(scope: u32, groups: u32, cfg: &RunConfig) -> (Vec<u32>, Vec<u32>, spvx_exec::RunReport) {
    let m = compile(&reduction(scope)).unwrap_or_else(|e| panic!("{e}"));
    let input: Vec<u32> = (0..groups * 64)
        .map(|i| i.wrapping_mul(2_654_435_761) >> 7)
        .collect();
    let mut res = spvx_exec::Resources::new();
    res.set_words(0, 0, &input);
    res.set_words(0, 1, &vec![0; 2 * groups as usize]);
    res.set_words(0, 2, &[0]);
    let report = m
        .run(&mut res, [groups, 1, 1], cfg)
        .unwrap_or_else(|e| panic!("{e}"));
    let out = res.words(0, 1).unwrap_or_default();
    let cnt = res.words(0, 2).unwrap_or_default();
    (input, [out, cnt].concat(), report)
}

fn small_subgroups() -> RunConfig {
    RunConfig {
        subgroup_size: 8,
        ..RunConfig::default()
    }
}

#[test]
fn workgroup_barrier_reduction_is_exact() {
    let groups = 5;
    let (input, out, report) = run(2, groups, &small_subgroups());
    let mut total = 0u32;
    for w in 0..groups as usize {
        let want = input[w * 64..w * 64 + 64]
            .iter()
            .fold(0u32, |a, &b| a.wrapping_add(b));
        total = total.wrapping_add(want);
        assert_eq!(out[w], want, "workgroup {w}");
        assert_eq!(
            out[groups as usize + w],
            64,
            "workgroup-memory atomic count"
        );
    }
    assert_eq!(out[2 * groups as usize], total, "buffer atomic sum");
    assert_eq!(report.total_events, 0, "{:?}", report.events);
}

#[test]
fn without_synchronisation_the_reduction_is_wrong() {
    let groups = 2;
    let (input, out, _) = run(3, groups, &small_subgroups());
    let want = input[..64].iter().fold(0u32, |a, &b| a.wrapping_add(b));
    assert_ne!(
        out[0], want,
        "a subgroup-scope barrier must not synchronise subgroups"
    );
}

#[test]
fn parallel_run_equals_single_threaded_run() {
    let single = RunConfig {
        threads: Some(1),
        ..small_subgroups()
    };
    let parallel = RunConfig {
        threads: Some(4),
        ..small_subgroups()
    };
    let a = run(2, 37, &single);
    let b = run(2, 37, &parallel);
    assert_eq!(a.1, b.1);
    assert_eq!(a.2, b.2);
}

#[test]
fn barrier_in_divergent_code_is_reported() {
    // Only even invocations reach a barrier inside an if.
    let text = reduction(2).replace(
        "%h = OpAtomicIIncrement %uint %hits %u2 %relaxed\nOpControlBarrier %scope %scope %sem\nOpBranch %head",
        "%h = OpAtomicIIncrement %uint %hits %u2 %relaxed\n%lo = OpBitwiseAnd %uint %l %u1\n%ev = OpIEqual %bool %lo %u0\nOpSelectionMerge %bj None\nOpBranchConditional %ev %bb %bj\n%bb = OpLabel\nOpControlBarrier %scope %scope %sem\nOpBranch %bj\n%bj = OpLabel\nOpBranch %head",
    ).replace("%s = OpPhi %uint %u32 %entry %s1 %cont", "%s = OpPhi %uint %u32 %bj %s1 %cont");
    let m = compile(&text).unwrap_or_else(|e| panic!("{e}"));
    let mut res = spvx_exec::Resources::new();
    res.set_words(0, 0, &[1; 64]);
    res.set_words(0, 1, &[0; 2]);
    res.set_words(0, 2, &[0]);
    let report = m
        .run(&mut res, [1, 1, 1], &small_subgroups())
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        report
            .events
            .iter()
            .any(|e| e.kind == UbKind::NonUniformBarrier),
        "{:?}",
        report.events
    );
}
