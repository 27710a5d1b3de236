//! Memory: out-of-bounds reads give zero and writes are dropped (robust policy), each event is
//! reported with instruction, invocation and workgroup; strict mode turns the first into an
//! error; the step limit stops an infinite loop; access-chain indices outside a sized array
//! are reported; function variables and private variables work.

mod support;
use spvx_exec::{ExecError, RunConfig, UbKind};
use support::{compile, kernel, run_words};

#[test]
fn out_of_bounds_read_gives_zero_and_is_reported() {
    // Reads in[i + 8] from an 8-word input: invocations 0..8 read past the end.
    let text = kernel(
        8,
        "%u8 = OpConstant %uint 8\n",
        "%j = OpIAdd %uint %i %u8\n%pj = OpAccessChain %ptr_sb_uint %in %u0 %j\n%y = OpLoad %uint %pj\n%r = OpIAdd %uint %y %x",
    );
    let m = compile(&text).unwrap_or_else(|e| panic!("{e}"));
    let input: Vec<u32> = (100..108).collect();
    let (out, report) =
        run_words(&m, &input, 8, 1, &RunConfig::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out, input, "out-of-bounds reads are zero");
    assert_eq!(report.total_events, 8);
    let e = &report.events[3];
    assert!(
        matches!(
            e.kind,
            UbKind::OutOfBoundsRead {
                offset: 44,
                bytes: 4,
                ..
            }
        ),
        "{e:?}"
    );
    assert_eq!(e.invocation, [3, 0, 0]);
    assert_eq!(e.workgroup, [0, 0, 0]);
    assert_eq!(e.opcode, "OpLoad");
}

#[test]
fn out_of_bounds_write_is_dropped_and_strict_mode_names_the_place() {
    // Writes out[i] for 8 invocations into a 4-word output: the last 4 writes are dropped.
    let text = kernel(4, "", "%r = OpCopyObject %uint %x");
    let m = compile(&text).unwrap_or_else(|e| panic!("{e}"));
    let input: Vec<u32> = (1..=8).collect();
    let (out, report) =
        run_words(&m, &input, 4, 2, &RunConfig::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out, vec![1, 2, 3, 4]);
    assert_eq!(report.total_events, 4);
    assert!(matches!(
        report.events[0].kind,
        UbKind::OutOfBoundsWrite { offset: 16, .. }
    ));
    assert_eq!(report.events[0].workgroup, [1, 0, 0]);
    let strict = RunConfig {
        strict: true,
        ..RunConfig::default()
    };
    let err = run_words(&m, &input, 4, 2, &strict).expect_err("strict mode must fail");
    let msg = err.to_string();
    assert!(matches!(err, ExecError::Undefined(_)), "{msg}");
    assert!(msg.contains("OpStore"), "{msg}");
    assert!(msg.contains("invocation (4, 0, 0)"), "{msg}");
    assert!(msg.contains("workgroup (1, 0, 0)"), "{msg}");
    assert!(msg.contains("out-of-bounds write"), "{msg}");
}

#[test]
fn step_limit_stops_an_infinite_loop() {
    let body = r#"
OpBranch %h
%h = OpLabel
OpLoopMerge %m %h None
OpBranchConditional %true %h %m
%m = OpLabel
%r = OpCopyObject %uint %x
"#;
    let text = kernel(4, "%true = OpConstantTrue %bool\n", body);
    let m = compile(&text).unwrap_or_else(|e| panic!("{e}"));
    let cfg = RunConfig {
        step_limit: 100_000,
        ..RunConfig::default()
    };
    let err = run_words(&m, &[0; 4], 4, 1, &cfg).expect_err("must stop");
    assert!(
        matches!(
            err,
            ExecError::StepLimit {
                limit: 100_000,
                workgroup: [0, 0, 0]
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("step limit"));
}

#[test]
fn access_chain_index_outside_a_sized_array_is_reported() {
    // A function-local uint[4], written at x % 4 and read back at index x (out of range for
    // x >= 4: the address lies outside the variable → read as zero... or inside private
    // memory; either way the index event is reported).
    let decls = "%arr4 = OpTypeArray %uint %u4\n%ptr_f_arr4 = OpTypePointer Function %arr4\n%ptr_f_uint = OpTypePointer Function %uint\n";
    let body = r#"
%v = OpVariable %ptr_f_arr4 Function
%m4 = OpUMod %uint %x %u4
%p = OpAccessChain %ptr_f_uint %v %m4
OpStore %p %x
%q = OpAccessChain %ptr_f_uint %v %m4
%r = OpLoad %uint %q
"#;
    // OpVariable must be the first instruction of the entry block: rebuild the kernel.
    let text = kernel(8, decls, body).replace(
        "%entry = OpLabel\n",
        "%entry = OpLabel\n%v = OpVariable %ptr_f_arr4 Function\n",
    );
    let text = text.replacen("\n%v = OpVariable %ptr_f_arr4 Function\n%m4", "\n%m4", 1);
    let m = compile(&text).unwrap_or_else(|e| panic!("{e}"));
    let input: Vec<u32> = (0..8).map(|i| i * 3).collect();
    let (out, report) =
        run_words(&m, &input, 8, 1, &RunConfig::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out, input);
    assert_eq!(report.total_events, 0);

    let bad = text.replace(
        "%q = OpAccessChain %ptr_f_uint %v %m4",
        "%q = OpAccessChain %ptr_f_uint %v %x",
    );
    let m = compile(&bad).unwrap_or_else(|e| panic!("{e}"));
    let (_, report) =
        run_words(&m, &input, 8, 1, &RunConfig::default()).unwrap_or_else(|e| panic!("{e}"));
    // x = 0, 3 are in range; 6, 9, ... are not: 6 events.
    let index_events = report
        .events
        .iter()
        .filter(|e| matches!(e.kind, UbKind::IndexOutOfRange { length: 4, .. }))
        .count();
    assert_eq!(index_events, 6, "{:?}", report.events);
}

#[test]
fn missing_binding_is_an_error() {
    let text = kernel(4, "", "%r = OpCopyObject %uint %x");
    let m = compile(&text).unwrap_or_else(|e| panic!("{e}"));
    let mut res = spvx_exec::Resources::new();
    res.set_words(0, 0, &[1, 2, 3, 4]);
    let err = m
        .run(&mut res, [1, 1, 1], &RunConfig::default())
        .expect_err("binding 1 missing");
    assert!(matches!(
        err,
        ExecError::MissingBinding { set: 0, binding: 1 }
    ));
    let b = m.bindings();
    assert_eq!(b.len(), 2);
    assert_eq!(
        (
            b[0].set,
            b[0].binding,
            b[0].static_size,
            b[0].runtime_stride
        ),
        (0, 0, 0, Some(4))
    );
}

#[test]
fn invalid_modules_are_refused_with_the_validators_errors() {
    // %r has type %int but is stored through a uint pointer.
    let text = kernel(4, "", "%r = OpBitcast %int %x");
    let err = compile(&text).expect_err("invalid");
    assert!(matches!(err, ExecError::Invalid(_)), "{err}");
}

#[test]
fn memory_limit_stops_a_run_before_it_allocates() {
    let text = kernel(64, "", "%r = OpCopyObject %uint %x");
    let m = compile(&text).unwrap_or_else(|e| panic!("{e}"));
    let cfg = RunConfig {
        memory_limit: 4096,
        ..RunConfig::default()
    };
    let err = run_words(&m, &[0; 1024], 1024, 16, &cfg).expect_err("over the limit");
    assert!(
        matches!(err, ExecError::MemoryLimit { limit: 4096, .. }),
        "{err}"
    );
    // A huge dispatch is refused too: by the dispatch limit (RunConfig::max_invocations) under
    // the defaults, by the memory limit (one outcome record per workgroup) without it.
    let err =
        run_words(&m, &[0; 4], 4, u32::MAX, &RunConfig::default()).expect_err("huge dispatch");
    assert!(
        matches!(err, ExecError::Config(ref s) if s.contains("max_invocations")),
        "{err}"
    );
    let unlimited = RunConfig {
        max_invocations: u64::MAX,
        ..RunConfig::default()
    };
    let err = run_words(&m, &[0; 4], 4, u32::MAX, &unlimited).expect_err("huge dispatch");
    assert!(matches!(err, ExecError::MemoryLimit { .. }), "{err}");
}

#[test]
fn array_length_copy_memory_private_variables_and_compare_exchange() {
    // out[i] = arrayLength(in) * 1000 + private counter after two increments (2) * 100
    //          + (copied function array)[1] * 10 + (CAS on out[i] that fails, returning 0 + 1).
    let decls = r#"
%ptr_p_uint = OpTypePointer Private %uint
%cnt = OpVariable %ptr_p_uint Private %u0
%arr2 = OpTypeArray %uint %u2
%ptr_f_arr2 = OpTypePointer Function %arr2
%ptr_f_uint = OpTypePointer Function %uint
%c5 = OpConstant %uint 5
%c7 = OpConstant %uint 7
%init = OpConstantComposite %arr2 %c5 %c7
%k1000 = OpConstant %uint 1000
%k100 = OpConstant %uint 100
%k10 = OpConstant %uint 10
%dev = OpConstant %uint 1
%relaxed = OpConstant %uint 0
"#;
    let body = r#"
%len = OpArrayLength %uint %in 0
%c0 = OpLoad %uint %cnt
%c1 = OpIAdd %uint %c0 %u1
OpStore %cnt %c1
%c2 = OpLoad %uint %cnt
%c3 = OpIAdd %uint %c2 %u1
OpStore %cnt %c3
OpCopyMemory %dstv %srcv
%p1 = OpAccessChain %ptr_f_uint %dstv %u1
%e1 = OpLoad %uint %p1
%po = OpAccessChain %ptr_sb_uint %out %u0 %i
%old = OpAtomicCompareExchange %uint %po %dev %relaxed %relaxed %c7 %c5
%t0 = OpIMul %uint %len %k1000
%cf = OpLoad %uint %cnt
%t1 = OpIMul %uint %cf %k100
%t2 = OpIMul %uint %e1 %k10
%t3 = OpIAdd %uint %t0 %t1
%t4 = OpIAdd %uint %t3 %t2
%t5 = OpIAdd %uint %t4 %old
%r = OpIAdd %uint %t5 %u1
"#;
    let text = kernel(4, decls, body)
        .replace("OpEntryPoint GLCompute %main \"main\" %gid %in %out", "OpEntryPoint GLCompute %main \"main\" %gid %in %out %cnt")
        .replace(
            "%entry = OpLabel\n",
            "%entry = OpLabel\n%srcv = OpVariable %ptr_f_arr2 Function %init\n%dstv = OpVariable %ptr_f_arr2 Function\n",
        );
    let m = compile(&text).unwrap_or_else(|e| panic!("{e}"));
    // in has 6 words → arrayLength 6; out starts as zeros, CAS compares with 5: fails, old 0.
    let (out, report) =
        run_words(&m, &[0; 6], 4, 1, &RunConfig::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out, vec![6000 + 200 + 70 + 1; 4]);
    assert_eq!(report.total_events, 0);
}

#[test]
fn uniform_buffers_are_read_only() {
    // Binding 1 as a Uniform (Block) buffer: the store is dropped and reported.
    let text = kernel(4, "", "%r = OpCopyObject %uint %x")
        .replace("%out = OpVariable %ptr_sb_Buf StorageBuffer", "%out = OpVariable %ptr_u_Buf Uniform")
        .replace("%ptr_sb_uint = OpTypePointer StorageBuffer %uint\n", "%ptr_sb_uint = OpTypePointer StorageBuffer %uint\n%ptr_u_Buf = OpTypePointer Uniform %Buf\n%ptr_u_uint = OpTypePointer Uniform %uint\n")
        .replace("%py = OpAccessChain %ptr_sb_uint %out %u0 %i", "%py = OpAccessChain %ptr_u_uint %out %u0 %i")
        .replace("OpDecorate %arr ArrayStride 4\nOpMemberDecorate %Buf 0 Offset 0", "OpDecorate %arr ArrayStride 16\nOpMemberDecorate %Buf 0 Offset 0");
    let m = compile(&text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(m.bindings()[1].kind, spvx_exec::BindingKind::UniformBuffer);
    let (out, report) =
        run_words(&m, &[1; 16], 16, 1, &RunConfig::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out, vec![0; 16]);
    assert_eq!(report.total_events, 4);
    assert!(
        report
            .events
            .iter()
            .all(|e| e.kind == UbKind::WriteToReadOnly)
    );
}
