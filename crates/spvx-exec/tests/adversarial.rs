//! Adversarial modules: each must end in its documented error (checked by kind and message),
//! never a panic, a hang, a host stack overflow or an unbounded allocation. Cases: an infinite
//! loop, unbounded recursion (and a very deep, non-recursive call chain), a huge dispatch, an
//! enormous array type (and one whose size overflows 64 bits), out-of-bounds pointer walks
//! (loads, stores and atomics; the neighbouring buffer stays untouched), deeply nested types and
//! constructs, a huge id bound, and word counts and strings claiming far more than the file
//! holds. Each case runs on its own thread under a generous hang guard (30 s), which fails the
//! test as hung; there are no timing assertions. Limits: docs/semantics/untrusted-input.md, "Limits and
//! untrusted input".

use spvx_exec::{CompileOptions, CompiledModule, ExecError, Resources, RunConfig};
use spvx_spirv::asm::{AsmOptions, assemble};
use std::sync::mpsc;
use std::time::Duration;

/// Runs `f` on a thread with a large stack budget taken away (the default 2 MiB test stack is
/// kept, so a recursion bug shows up), failing the test if it does not finish in 30 s.
fn guarded<T: Send + 'static>(name: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    let handle = std::thread::Builder::new()
        .name(name.to_string())
        .stack_size(2 << 20)
        .spawn(move || {
            let _ = tx.send(f());
        })
        .expect("spawn");
    match rx.recv_timeout(Duration::from_secs(30)) {
        Ok(v) => {
            let _ = handle.join();
            v
        }
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("{name}: hung (no result in 30 s)"),
        Err(mpsc::RecvTimeoutError::Disconnected) => match handle.join() {
            Err(e) => std::panic::resume_unwind(e),
            Ok(()) => panic!("{name}: the case ended without a result"),
        },
    }
}

fn words(text: &str) -> Vec<u32> {
    match assemble(text, &AsmOptions::default()) {
        Ok(a) => a.words(),
        Err(e) => panic!("assembly failed: {e}\n{text}"),
    }
}

fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn compile_words(w: &[u32], validate: bool) -> Result<CompiledModule, ExecError> {
    let opts = CompileOptions {
        validate,
        ..CompileOptions::default()
    };
    CompiledModule::from_bytes(&bytes_of(w), "main", &opts)
}

const HEAD: &str = r#"
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid %a %b
OpExecutionMode %main LocalSize 4 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %arr ArrayStride 4
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %Buf Block
OpDecorate %a DescriptorSet 0
OpDecorate %a Binding 0
OpDecorate %b DescriptorSet 0
OpDecorate %b Binding 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%v3uint = OpTypeVector %uint 3
%ptr_in_v3 = OpTypePointer Input %v3uint
%ptr_in_uint = OpTypePointer Input %uint
%gid = OpVariable %ptr_in_v3 Input
%arr = OpTypeRuntimeArray %uint
%Buf = OpTypeStruct %arr
%ptr_sb_Buf = OpTypePointer StorageBuffer %Buf
%ptr_sb_uint = OpTypePointer StorageBuffer %uint
%ptr_fn_uint = OpTypePointer Function %uint
%a = OpVariable %ptr_sb_Buf StorageBuffer
%b = OpVariable %ptr_sb_Buf StorageBuffer
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u4 = OpConstant %uint 4
%true = OpConstantTrue %bool
"#;

/// `HEAD`, extra declarations, then `main` with `body` after loading `%i` = gid.x.
fn kernel(decls: &str, body: &str) -> String {
    format!(
        "{HEAD}{decls}
%main = OpFunction %void None %fn
%entry = OpLabel
%gx = OpAccessChain %ptr_in_uint %gid %u0
%i = OpLoad %uint %gx
{body}
OpReturn
OpFunctionEnd
"
    )
}

/// Two buffers of 4 words: binding 0 (`%a`, the one the kernels write) and binding 1 (`%b`).
fn resources() -> Resources {
    let mut res = Resources::new();
    res.set_words(0, 0, &[1, 2, 3, 4]);
    res.set_words(0, 1, &[10, 20, 30, 40]);
    res
}

fn small_limits() -> RunConfig {
    RunConfig {
        step_limit: 100_000,
        threads: Some(1),
        ..RunConfig::default()
    }
}

#[test]
fn infinite_loop_ends_at_the_step_limit() {
    let text = kernel(
        "",
        "OpBranch %h
%h = OpLabel
OpLoopMerge %m %c None
OpBranch %c
%c = OpLabel
OpBranchConditional %true %h %m
%m = OpLabel",
    );
    let err = guarded("infinite loop", move || {
        let m = compile_words(&words(&text), true).unwrap_or_else(|e| panic!("{e}"));
        m.run(&mut resources(), [2, 1, 1], &small_limits())
            .expect_err("an infinite loop cannot finish")
    });
    match &err {
        ExecError::StepLimit { limit, workgroup } => {
            assert_eq!(*limit, 100_000);
            assert_eq!(*workgroup, [0, 0, 0]);
        }
        e => panic!("expected StepLimit, got {e}"),
    }
    assert!(
        err.to_string().contains("step limit of 100000 reached"),
        "{err}"
    );
}

#[test]
fn infinite_loop_ends_under_the_default_limits() {
    // The default step limit (2^25 steps per workgroup) is what makes this end in about a
    // second on a 2-core VM; the hang guard only catches a regression to minutes.
    let text = kernel(
        "",
        "OpBranch %h
%h = OpLabel
OpLoopMerge %m %c None
OpBranch %c
%c = OpLabel
OpBranchConditional %true %h %m
%m = OpLabel",
    );
    let err = guarded("infinite loop, default limits", move || {
        let m = compile_words(&words(&text), true).unwrap_or_else(|e| panic!("{e}"));
        let cfg = RunConfig {
            threads: Some(1),
            ..RunConfig::default()
        };
        m.run(&mut resources(), [1, 1, 1], &cfg)
            .expect_err("an infinite loop cannot finish")
    });
    assert!(
        matches!(err, ExecError::StepLimit { limit, .. } if limit == 1 << 25),
        "{err}"
    );
}

#[test]
fn recursion_is_refused_even_without_validation() {
    // main calls %f, %f calls itself (SPIR-V §2.16.1: "Recursion is not allowed").
    let text = kernel(
        "%fu = OpTypeFunction %uint %uint\n",
        "%r = OpFunctionCall %uint %f %i",
    ) + "%f = OpFunction %uint None %fu
%x = OpFunctionParameter %uint
%fe = OpLabel
%y = OpFunctionCall %uint %f %x
OpReturnValue %y
OpFunctionEnd
";
    let (validated, unvalidated) = guarded("recursion", move || {
        let w = words(&text);
        (
            compile_words(&w, true).err(),
            compile_words(&w, false).err(),
        )
    });
    // spirv-val 2025.5 accepts this module for the universal environments (only the Vulkan
    // environment rejects call-graph cycles, VUID-StandaloneSpirv-None-04634), and so does
    // spvx-val; the engine refuses it either way.
    match validated {
        Some(ExecError::Unsupported { what, .. }) => assert!(what.contains("recursive"), "{what}"),
        other => panic!("expected Unsupported recursion, got {other:?}"),
    }
    match unvalidated {
        Some(ExecError::Unsupported { what, .. }) => assert!(what.contains("recursive"), "{what}"),
        other => panic!("expected Unsupported recursion, got {other:?}"),
    }
}

/// `main` → f1 → f2 → … → fN, each passing its argument on: no recursion, but deep.
fn call_chain(n: usize) -> String {
    let mut text = kernel(
        "%fu = OpTypeFunction %uint %uint\n",
        "%r = OpFunctionCall %uint %f1 %i
%pa = OpAccessChain %ptr_sb_uint %a %u0 %i
OpStore %pa %r",
    );
    for k in 1..=n {
        let body = if k == n {
            format!("%y{k} = OpIAdd %uint %x{k} %u1")
        } else {
            format!("%y{k} = OpFunctionCall %uint %f{} %x{k}", k + 1)
        };
        text += &format!(
            "%f{k} = OpFunction %uint None %fu
%x{k} = OpFunctionParameter %uint
%l{k} = OpLabel
{body}
OpReturnValue %y{k}
OpFunctionEnd
"
        );
    }
    text
}

#[test]
fn a_deep_call_chain_does_not_overflow_the_host_stack() {
    // 20,000 nested calls: the engine keeps its call frames on the heap; the outcome is either
    // the right answer or a documented refusal, never a stack overflow.
    let text = call_chain(20_000);
    let out = guarded("deep call chain", move || {
        let m = compile_words(&words(&text), false)?;
        let mut res = resources();
        m.run(
            &mut res,
            [1, 1, 1],
            &RunConfig {
                threads: Some(1),
                ..RunConfig::default()
            },
        )?;
        Ok::<_, ExecError>(res.words(0, 0).unwrap_or_default())
    });
    match out {
        Ok(w) => assert_eq!(w, vec![1, 2, 3, 4], "each invocation adds 1 to its index"),
        Err(e @ ExecError::Unsupported { .. }) | Err(e @ ExecError::Compile { .. }) => {
            assert!(e.to_string().contains("call depth"), "{e}")
        }
        Err(e) => panic!("unexpected error {e}"),
    }
}

#[test]
fn a_huge_dispatch_ends_in_the_dispatch_limit_before_running() {
    let text = kernel("", "");
    let err = guarded("huge dispatch", move || {
        let m = compile_words(&words(&text), true).unwrap_or_else(|e| panic!("{e}"));
        m.run(&mut resources(), [65535, 65535, 65535], &small_limits())
            .expect_err("2.8e14 workgroups exceed the limits")
    });
    match &err {
        ExecError::Config(m) => assert!(
            m.contains("`--max-invocations N`; run files and Python: `max_invocations`"),
            "{m}"
        ),
        e => panic!("expected the dispatch limit, got {e}"),
    }
    // Just over the limit is refused too; the limit is configurable.
    let text = kernel("", "");
    let err = guarded("dispatch over the limit", move || {
        let m = compile_words(&words(&text), true).unwrap_or_else(|e| panic!("{e}"));
        let cfg = RunConfig {
            max_invocations: 4 * 1000,
            ..small_limits()
        };
        m.run(&mut resources(), [1000, 1, 1], &cfg)
            .expect("4000 invocations are within a limit of 4000");
        m.run(&mut resources(), [1001, 1, 1], &cfg)
            .expect_err("4004 invocations exceed it")
    });
    assert!(
        err.to_string()
            .contains("(4004 in all) exceeds the limit of 4000"),
        "{err}"
    );
}

#[test]
fn an_enormous_array_variable_ends_in_an_error_without_allocating() {
    // A Function variable of uint[0xffffffff] (16 GiB) and one of uint[2^31][2^31][2^31] (a
    // size beyond 64 bits): refused at compile time or by the memory limit, never allocated.
    for (decls, indices) in [
        (
            "%big = OpConstant %uint 4294967295\n%A = OpTypeArray %uint %big\n%pA = OpTypePointer Function %A\n",
            "%u1",
        ),
        (
            "%big = OpConstant %uint 2147483648\n%A1 = OpTypeArray %uint %big\n%A2 = OpTypeArray %A1 %big\n%A = OpTypeArray %A2 %big\n%pA = OpTypePointer Function %A\n",
            "%u1 %u1 %u1",
        ),
    ] {
        let var_ty = "%pA";
        let text = kernel(
            decls,
            &format!("%v = OpVariable {var_ty} Function\n%pv = OpAccessChain %ptr_fn_uint %v {indices}\n%x = OpLoad %uint %pv\n%pa = OpAccessChain %ptr_sb_uint %a %u0 %i\nOpStore %pa %x"),
        )
        // Function variables must come first in the entry block.
        .replace(
            "%entry = OpLabel\n%gx = OpAccessChain %ptr_in_uint %gid %u0\n%i = OpLoad %uint %gx\n%v = OpVariable",
            "%entry = OpLabel\n%v = OpVariable",
        )
        .replace(
            &format!("{var_ty} Function\n%pv"),
            &format!("{var_ty} Function\n%gx = OpAccessChain %ptr_in_uint %gid %u0\n%i = OpLoad %uint %gx\n%pv"),
        );
        let err = guarded("enormous array", move || {
            let m = compile_words(&words(&text), true)?;
            m.run(&mut resources(), [1, 1, 1], &small_limits())
        })
        .expect_err("a 16 GiB private array cannot run under a 4 GiB memory limit");
        assert!(
            matches!(
                err,
                ExecError::MemoryLimit { .. }
                    | ExecError::Compile { .. }
                    | ExecError::Unsupported { .. }
                    | ExecError::Invalid(_)
            ),
            "{err}"
        );
        let msg = err.to_string();
        assert!(
            msg.contains("memory limit")
                || msg.contains("too large")
                || msg.contains("beyond")
                || msg.contains("size"),
            "{msg}"
        );
    }
}

#[test]
fn out_of_bounds_pointer_walks_stay_inside_their_buffer() {
    // Each invocation walks j = 0..64 over buffer %a (4 words): it loads a[i + j], stores
    // a[i + j] = j and does an atomic add at a[i + j + 1000000]. Buffer %b must be unchanged.
    let text = kernel(
        "%u64c = OpConstant %uint 64\n%big = OpConstant %uint 1000000\n%u2 = OpConstant %uint 2\n",
        "%j = OpVariable %ptr_fn_uint Function
OpStore %j %u0
OpBranch %h
%h = OpLabel
OpLoopMerge %m %c None
OpBranch %body
%body = OpLabel
%jv = OpLoad %uint %j
%k = OpIAdd %uint %i %jv
%p = OpAccessChain %ptr_sb_uint %a %u0 %k
%old = OpLoad %uint %p
OpStore %p %jv
%far = OpIAdd %uint %k %big
%pf = OpAccessChain %ptr_sb_uint %a %u0 %far
%at = OpAtomicIAdd %uint %pf %u1 %u0 %old
OpBranch %c
%c = OpLabel
%j1 = OpIAdd %uint %jv %u1
OpStore %j %j1
%go = OpULessThan %bool %j1 %u64c
OpBranchConditional %go %h %m
%m = OpLabel",
    )
    .replace(
        "%entry = OpLabel\n%gx = OpAccessChain %ptr_in_uint %gid %u0\n%i = OpLoad %uint %gx\n%j = OpVariable %ptr_fn_uint Function",
        "%entry = OpLabel\n%j = OpVariable %ptr_fn_uint Function\n%gx = OpAccessChain %ptr_in_uint %gid %u0\n%i = OpLoad %uint %gx",
    );
    let (a, b, events) = guarded("pointer walk", move || {
        let m = compile_words(&words(&text), true).unwrap_or_else(|e| panic!("{e}"));
        let mut res = resources();
        let report = m
            .run(&mut res, [1, 1, 1], &small_limits())
            .unwrap_or_else(|e| panic!("{e}"));
        (
            res.words(0, 0).unwrap_or_default(),
            res.words(0, 1).unwrap_or_default(),
            report.total_events,
        )
    });
    assert_eq!(b, vec![10, 20, 30, 40], "the other buffer is untouched");
    assert_eq!(a.len(), 4, "the walked buffer keeps its size");
    // 4 invocations × 64 steps: every atomic is out of bounds; loads and stores are out of
    // bounds for i + j ≥ 4.
    let oob_per_inv: u64 = (0..4u64).map(|i| 64 - (4 - i)).sum();
    assert_eq!(events, 4 * 64 + 2 * oob_per_inv);
}

#[test]
fn a_deeply_nested_type_is_refused_or_handled() {
    // uint[1][1]...[1], 5,000 levels, used by a Private variable.
    let mut decls = String::from("%len = OpConstant %uint 1\n%t0 = OpTypeArray %uint %len\n");
    for k in 1..5000 {
        decls += &format!("%t{k} = OpTypeArray %t{} %len\n", k - 1);
    }
    decls += "%pt = OpTypePointer Private %t4999\n%deep = OpVariable %pt Private\n";
    let text = kernel(&decls, "").replace("%gid %a %b", "%gid %a %b %deep");
    let out = guarded("deep type", move || {
        let w = words(&text);
        let m = compile_words(&w, true)?;
        m.run(&mut resources(), [1, 1, 1], &small_limits())
            .map(|_| ())
    });
    if let Err(e) = out {
        assert!(e.to_string().contains("nest"), "{e}");
    }
}

#[test]
fn deeply_nested_constructs_are_refused_or_handled() {
    // 3,000 nested selections.
    let n = 3000;
    let mut body = String::new();
    for k in 0..n {
        body += &format!(
            "OpSelectionMerge %m{k} None\nOpBranchConditional %true %t{k} %m{k}\n%t{k} = OpLabel\n"
        );
    }
    for k in (0..n).rev() {
        body += &format!("OpBranch %m{k}\n%m{k} = OpLabel\n");
    }
    let text = kernel("", &body);
    let out = guarded("deep constructs", move || {
        let m = compile_words(&words(&text), true)?;
        m.run(&mut resources(), [1, 1, 1], &small_limits())
            .map(|_| ())
    });
    if let Err(e) = out {
        assert!(e.to_string().contains("nest"), "{e}");
    }
}

#[test]
fn a_huge_id_bound_is_invalid_and_allocates_nothing_in_proportion() {
    // The header claims bound 0xffffffff; the module itself is small. The validator refuses
    // bounds above SPIR-V §2.17's 4,194,303 (as spirv-val); unvalidated, the engine compiles
    // and runs it without allocating anything in proportion to the bound.
    let mut w = words(&kernel("", ""));
    w[3] = u32::MAX;
    let (validated, unvalidated) = guarded("huge bound", move || {
        let validated = compile_words(&w, true).err();
        let unvalidated = compile_words(&w, false).and_then(|m| {
            m.run(&mut resources(), [1, 1, 1], &small_limits())
                .map(|_| ())
        });
        (validated, unvalidated)
    });
    match validated {
        Some(ExecError::Invalid(errs)) => assert!(
            errs[0]
                .to_string()
                .contains("id bound 4294967295 is larger than the max id bound 4194303"),
            "{errs:?}"
        ),
        other => panic!("expected Invalid, got {other:?}"),
    }
    unvalidated.unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn a_module_over_the_size_limit_is_refused_before_it_is_read() {
    let w = words(&kernel("", ""));
    let n = w.len() as u64 * 4;
    let opts = |max| CompileOptions {
        max_module_bytes: max,
        ..CompileOptions::default()
    };
    let bytes = bytes_of(&w);
    assert!(CompiledModule::from_bytes(&bytes, "main", &opts(n)).is_ok());
    let Err(err) = CompiledModule::from_bytes(&bytes, "main", &opts(n - 1)) else {
        panic!("one byte over the limit must be refused");
    };
    assert_eq!(
        err.to_string(),
        format!(
            "bad run configuration: the module is {n} bytes, more than spvx's limit of {} bytes on a module",
            n - 1
        )
    );
}

#[test]
fn claimed_word_counts_and_strings_beyond_the_file_are_read_errors() {
    use spvx_spirv::binary::{BinaryErrorKind, read_bytes};
    let base = words(&kernel("", ""));
    // An instruction claiming 65535 words (the most a count can say) at the end of the file.
    let mut past = base.clone();
    past.push((65535 << 16) | 5); // OpName
    past.push(1);
    let err = read_bytes(&bytes_of(&past)).expect_err("past the end");
    assert!(
        matches!(err.kind, BinaryErrorKind::PastEnd { count: 65535, .. }),
        "{err}"
    );
    // A string that never ends within its (maximal) instruction: 65535 words of 'a'.
    let mut unterminated = base.clone();
    unterminated.push((65535 << 16) | 5);
    unterminated.push(1);
    unterminated.extend(std::iter::repeat_n(0x6161_6161, 65533));
    let err = read_bytes(&bytes_of(&unterminated)).expect_err("unterminated");
    assert!(
        matches!(err.kind, BinaryErrorKind::UnterminatedString { .. }),
        "{err}"
    );
    // A header alone claiming a billion-id bound reads fine and validates quickly.
    let header_only = bytes_of(&[0x0723_0203, 0x0001_0600, 0, 1 << 30, 0]);
    let m = read_bytes(&header_only).unwrap_or_else(|e| panic!("{e}"));
    let _ = spvx_val::validate(&m.header, &m.instructions, &Default::default());
}

/// A Kernel (OpenCL, Physical64) entry point `walk(global uint* a, global uint* b)` that stores
/// 7 and does an atomic add at `a + e` for each element offset `e` of `elements`
/// (OpPtrAccessChain, element size 4).
fn kernel_walk(elements: &[i64]) -> String {
    let mut consts = String::new();
    let mut body = String::new();
    for (k, e) in elements.iter().enumerate() {
        // Kernel integers are signless (signedness 0): the element offset as its bit pattern.
        consts += &format!("%e{k} = OpConstant %long {}\n", *e as u64);
        body += &format!(
            "%p{k} = OpPtrAccessChain %ptr %a %e{k}\nOpStore %p{k} %c7\n%x{k} = OpAtomicIAdd %uint %p{k} %dev %none %c1\n"
        );
    }
    format!(
        "OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k \"walk\"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%long = OpTypeInt 64 0
%ptr = OpTypePointer CrossWorkgroup %uint
%fn = OpTypeFunction %void %ptr %ptr
%c1 = OpConstant %uint 1
%c7 = OpConstant %uint 7
%dev = OpConstant %uint 1
%none = OpConstant %uint 0
{consts}%k = OpFunction %void None %fn
%a = OpFunctionParameter %ptr
%b = OpFunctionParameter %ptr
%entry = OpLabel
{body}OpReturn
OpFunctionEnd
"
    )
}

#[test]
fn kernel_pointer_walks_never_leave_their_buffer() {
    use spvx_exec::resources::KernelArg;
    // Element offsets: in bounds (1), far past the end, before the start, the extremes of i64
    // (whose byte offsets overflow 64 bits), and 2^46 elements = 2^48 bytes, which wraps the
    // 48-bit offset back to a[0] (docs: pointer arithmetic is modulo 2^48 within the space).
    let elements = [1, 1 << 20, -1, -(1 << 40), i64::MAX, i64::MIN, 1 << 46];
    let text = kernel_walk(&elements);
    let (a, b, events) = guarded("kernel pointer walk", move || {
        let m = CompiledModule::from_bytes(
            &bytes_of(&words(&text)),
            "walk",
            &CompileOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let mut res = Resources::new();
        res.set_arg(0, KernelArg::Buffer(bytes_of(&[0, 0, 0, 0])));
        res.set_arg(1, KernelArg::Buffer(bytes_of(&[10, 20, 30, 40])));
        res.local_size = Some([1, 1, 1]);
        let report = m
            .run(&mut res, [1, 1, 1], &small_limits())
            .unwrap_or_else(|e| panic!("{e}"));
        let buf = |i| match res.arg(i) {
            Some(KernelArg::Buffer(b)) => b.clone(),
            _ => Vec::new(),
        };
        (buf(0), buf(1), report.total_events)
    });
    assert_eq!(
        b,
        bytes_of(&[10, 20, 30, 40]),
        "the other buffer is untouched"
    );
    assert_eq!(
        a,
        bytes_of(&[8, 8, 0, 0]),
        "a[1] and a[0] (the wrapped walk): store 7, add 1"
    );
    // i64::MIN elements × 4 bytes is 0 modulo 2^48 (a[0] again); the other four walks are out
    // of bounds, each a store and an atomic.
    assert_eq!(events, 8);
}

#[test]
fn constant_access_chain_offsets_beyond_4_gib_are_out_of_bounds_at_run_time() {
    // Valid SPIR-V: constant indices into a runtime array whose byte offsets lie at 4 GiB,
    // just under 8 GiB, and (index 0xFFFFFFFF, read as signed: -1) 4 bytes before the buffer.
    // The module compiles; each load reads 0 and each store is dropped, both reported with
    // the offset (modulo 2^48, the width of a pointer's offset), and a[i] = the sum of the
    // three loads = 0. Expected offsets by hand: 0x40000000 × 4 = 2^32; 0x7FFFFFFF × 4 =
    // 2^33 − 4; −1 × 4 = −4 ≡ 2^48 − 4.
    let text = kernel(
        "%c4g = OpConstant %uint 1073741824\n%c8g = OpConstant %uint 2147483647\n%cm1 = OpConstant %uint 4294967295\n",
        "%p1 = OpAccessChain %ptr_sb_uint %a %u0 %c4g
%p2 = OpAccessChain %ptr_sb_uint %a %u0 %c8g
%p3 = OpAccessChain %ptr_sb_uint %a %u0 %cm1
%v1 = OpLoad %uint %p1
%v2 = OpLoad %uint %p2
%v3 = OpLoad %uint %p3
OpStore %p1 %u1
OpStore %p2 %u1
OpStore %p3 %u1
%s1 = OpIAdd %uint %v1 %v2
%s2 = OpIAdd %uint %s1 %v3
%pi = OpAccessChain %ptr_sb_uint %a %u0 %i
OpStore %pi %s2",
    );
    let (a, b, report) = guarded("far constant chain", move || {
        let m = compile_words(&words(&text), true)
            .unwrap_or_else(|e| panic!("a valid module must compile: {e}"));
        let mut res = resources();
        let report = m
            .run(&mut res, [1, 1, 1], &small_limits())
            .unwrap_or_else(|e| panic!("{e}"));
        (
            res.words(0, 0).unwrap_or_default(),
            res.words(0, 1).unwrap_or_default(),
            report,
        )
    });
    assert_eq!(a, vec![0, 0, 0, 0], "every far load read 0");
    assert_eq!(b, vec![10, 20, 30, 40], "the other buffer is untouched");
    assert_eq!(
        report.total_events,
        4 * 6,
        "3 loads and 3 stores per invocation"
    );
    let far = [1u64 << 32, (1u64 << 33) - 4, (1u64 << 48) - 4];
    for e in &report.events {
        let (spvx_exec::UbKind::OutOfBoundsRead { offset, bytes, .. }
        | spvx_exec::UbKind::OutOfBoundsWrite { offset, bytes, .. }) = &e.kind
        else {
            panic!("unexpected event {e}");
        };
        assert!(far.contains(offset), "offset {offset} in {e}");
        assert_eq!(*bytes, 4);
    }
}

#[test]
fn limits_of_the_validator_end_in_their_errors() {
    // Through the engine's default validation (spvx_val::Limits::default()): 300 nested
    // structures (limit 255), 1,100 nested selections (control-flow nesting limit 1,023) and
    // a 1,100-deep call chain (call depth limit 1,023) each end in the validator's limit
    // error, naming the amount and the limit.
    let mut decls = String::from("%s0 = OpTypeStruct %uint\n");
    for k in 1..300 {
        decls += &format!("%s{k} = OpTypeStruct %s{}\n", k - 1);
    }
    let deep_struct = kernel(&decls, "");
    let mut body = String::new();
    for k in 0..1100 {
        body += &format!(
            "OpSelectionMerge %m{k} None\nOpBranchConditional %true %t{k} %m{k}\n%t{k} = OpLabel\n"
        );
    }
    for k in (0..1100).rev() {
        body += &format!("OpBranch %m{k}\n%m{k} = OpLabel\n");
    }
    let deep_flow = kernel("", &body);
    let deep_calls = call_chain(1100);
    let cases = [
        (
            "structures",
            deep_struct,
            "structure nesting depth is 256, more than the limit 255",
        ),
        (
            "selections",
            deep_flow,
            "control-flow nesting depth is 1024, more than the limit 1023",
        ),
        (
            "calls",
            deep_calls,
            "static call depth of the entry point is 1100, more than the limit 1023",
        ),
    ];
    for (what, text, message) in cases {
        let err = guarded(what, move || compile_words(&words(&text), true).err());
        let msg = err.map(|e| e.to_string()).unwrap_or_default();
        assert!(msg.contains(message), "{what}: {msg}");
    }
}
