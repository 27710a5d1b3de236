//! The JIT against the interpreter, its reference: every module of the engine's corpora
//! (glslang shaders, clang + llvm-spirv kernels, the benchmark kernels, the examples) on
//! seeded random inputs, once with the JIT and once without, and once more with a JIT that
//! runs every instruction through the interpreter (native control flow and register handling
//! only). The buffers, arguments, events, prints and errors must be identical, and the JIT must
//! have run (not fallen back) exactly when the interpreter reports nothing. Expected answers of
//! the individual instructions are checked by the other test files against hand-computed and
//! high-precision values; this file checks that the JIT reproduces them.

use spvx_exec::resources::KernelArg;
use spvx_exec::{
    BindingKind, CompileOptions, CompiledModule, JitUse, KernelArgKind, Resources, RunConfig,
    RunReport, Tensor,
};
use spvx_spirv::op::Op;
use std::path::{Path, PathBuf};

mod glsl_corpus;

use glsl_corpus::Rng;

/// `n` pseudo-random bytes.
fn random_bytes(rng: &mut Rng, n: usize) -> Vec<u8> {
    (0..n).map(|_| rng.next() as u8).collect()
}

fn dir(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(sub)
}

/// The `.spv` files of a directory, sorted.
fn modules(sub: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir(sub))
        .unwrap_or_else(|e| panic!("{sub}: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "spv"))
        .collect();
    v.sort();
    v
}

/// The names of the module's entry points (OpEntryPoint's name operand).
fn entry_points(bytes: &[u8]) -> Vec<String> {
    let parsed = spvx_spirv::binary::read_bytes(bytes).expect("a readable module");
    parsed
        .instructions
        .iter()
        .filter(|i| i.opcode == Op::EntryPoint)
        .filter_map(|i| {
            i.operands
                .iter()
                .find_map(|o| o.string().map(str::to_string))
        })
        .collect()
}

/// Random resources for every binding and argument of `m` (buffers of `bytes` bytes, small
/// scalar arguments so that loops stay short, 2 elements for runtime arrays).
fn resources(m: &CompiledModule, rng: &mut Rng, bytes: usize) -> Resources {
    let mut res = Resources::new();
    for b in m.bindings() {
        match b.kind {
            BindingKind::PushConstant => res.push_constants = random_bytes(rng, 256),
            BindingKind::Tensor => {
                let info = b.tensor.expect("tensor info");
                let shape = vec![4u64; info.rank as usize];
                let n: u64 = shape.iter().product::<u64>() * info.element_bytes as u64;
                let t = Tensor {
                    shape,
                    strides: None,
                    data: random_bytes(rng, n as usize),
                };
                match b.element {
                    Some(i) => res.set_tensor_element(b.set, b.binding, i, t),
                    None => res.set_tensor(b.set, b.binding, t),
                }
            }
            _ if b.count == 0 => {
                for i in 0..2 {
                    res.set_buffer_element(b.set, b.binding, i, random_bytes(rng, bytes));
                }
            }
            _ => match b.element {
                Some(i) => res.set_buffer_element(b.set, b.binding, i, random_bytes(rng, bytes)),
                None => res.set_buffer(b.set, b.binding, random_bytes(rng, bytes)),
            },
        }
    }
    for a in m.kernel_args() {
        let arg = match a.kind {
            KernelArgKind::Buffer | KernelArgKind::ConstantBuffer => {
                KernelArg::Buffer(random_bytes(rng, bytes))
            }
            KernelArgKind::Local => KernelArg::Local(1024),
            KernelArgKind::Scalar | KernelArgKind::ByValue => {
                // Small values: integer arguments are often counts or indices.
                let mut v = vec![0u8; a.size as usize];
                if let Some(b) = v.first_mut() {
                    *b = (rng.next() % 16) as u8;
                }
                KernelArg::Scalar(v)
            }
        };
        res.set_arg(a.index, arg);
    }
    if !m.kernel_args().is_empty() && m.local_size() == [1, 1, 1] {
        res.local_size = Some([8, 1, 1]);
    }
    res
}

/// What a run gave: the resources afterwards and the report, or the error.
type Outcome = Result<(Resources, RunReport), String>;

fn run(m: &CompiledModule, res: &Resources, groups: [u32; 3], jit: bool) -> Outcome {
    run_at(m, res, groups, jit, 8)
}

/// [`run`] at subgroup size `width`.
fn run_at(m: &CompiledModule, res: &Resources, groups: [u32; 3], jit: bool, width: u32) -> Outcome {
    let mut res = res.clone();
    // (Every binding copied back: a stray store into one the module never writes shows.)
    let cfg = RunConfig {
        jit,
        threads: Some(1),
        step_limit: 1 << 22,
        subgroup_size: width,
        copy_back_unwritten: true,
        ..RunConfig::default()
    };
    m.run(&mut res, groups, &cfg)
        .map(|r| (res, r))
        .map_err(|e| e.to_string())
}

/// What must agree: resources, events, event count, prints (steps differ by design).
fn same(name: &str, jit: &Outcome, interp: &Outcome) {
    match (jit, interp) {
        (Ok((rj, j)), Ok((ri, i))) => {
            assert!(rj == ri, "{name}: the resources differ after the run");
            assert_eq!(j.events, i.events, "{name}: events");
            assert_eq!(j.total_events, i.total_events, "{name}: event count");
            assert_eq!(j.prints, i.prints, "{name}: printed lines");
        }
        (Err(a), Err(b)) => assert_eq!(a, b, "{name}: errors"),
        (a, b) => panic!(
            "{name}: JIT {:?} vs interpreter {:?}",
            a.as_ref().map(|_| "ok"),
            b.as_ref().map(|_| "ok")
        ),
    }
}

/// Tallies of a corpus run.
#[derive(Default, Debug)]
struct Tally {
    ran: Vec<String>,
    fell_back: Vec<String>,
    unsupported: Vec<String>,
}

/// Runs `m` both ways (and with call-outs only) and checks agreement; records how the JIT
/// took it.
fn check(name: &str, m: &CompiledModule, res: &Resources, groups: [u32; 3], t: &mut Tally) {
    let interp = run(m, res, groups, false);
    // (Also the programs the interpreter would take for speed: the JIT is tested on them.)
    let jit = run(&m.with_jit_always(), res, groups, true);
    same(name, &jit, &interp);
    let callouts = run(&m.with_jit_callouts_only(), res, groups, true);
    same(&format!("{name} (call-outs only)"), &callouts, &interp);
    // (Where the default is the vector lanes, the one-invocation lowering is tested too.)
    let scalar = run(&m.with_scalar_jit(), res, groups, true);
    same(&format!("{name} (scalar JIT)"), &scalar, &interp);
    let (Ok((_, j)), Ok((_, i)), Ok((_, c)), Ok((_, sc))) = (&jit, &interp, &callouts, &scalar)
    else {
        return;
    };
    // The JITs run or fall back alike (the reasons may name different first causes: a native
    // check or a call-out's event).
    assert_eq!(
        kind(&j.jit),
        kind(&c.jit),
        "{name}: native and call-out JIT"
    );
    assert_eq!(
        kind(&j.jit),
        kind(&sc.jit),
        "{name}: default and scalar JIT"
    );
    match &j.jit {
        JitUse::Ran => {
            assert_eq!(i.total_events, 0, "{name}: the JIT ran a run with events");
            t.ran.push(name.to_string());
        }
        JitUse::FellBack(why) => {
            // A fallback is for a run the interpreter reports on (or the step budget, or a
            // barrier reached non-uniformly, which the interpreter need not report).
            assert!(
                i.total_events > 0
                    || why.contains("step")
                    || why.contains("barrier")
                    || why.contains("subgroup instruction"),
                "{name}: fell back without a reason the interpreter shows: {why}"
            );
            t.fell_back.push(format!("{name}: {why}"));
        }
        JitUse::Unsupported(why) => t.unsupported.push(format!("{name}: {why}")),
        JitUse::Off => panic!("{name}: the JIT was not asked"),
    }
}

/// The kind of a JIT use, without its reason.
fn kind(u: &JitUse) -> &'static str {
    match u {
        JitUse::Off => "off",
        JitUse::Ran => "ran",
        JitUse::Unsupported(_) => "unsupported",
        JitUse::FellBack(_) => "fell back",
    }
}

#[test]
fn glslang_corpus_agrees_with_the_interpreter() {
    let mut t = Tally::default();
    for path in modules("tests/corpus/glsl") {
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let m = CompiledModule::from_bytes(&bytes, "main", &CompileOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        for (k, groups) in [[1, 1, 1], [3, 1, 1]].into_iter().enumerate() {
            let mut rng = Rng(0x5eed ^ name.len() as u64 ^ k as u64);
            let res = resources(&m, &mut rng, 4096);
            check(&format!("{name} {groups:?}"), &m, &res, groups, &mut t);
        }
    }
    eprintln!("{t:#?}");
    assert!(
        t.ran.len() >= 20,
        "the JIT ran only {} glslang runs",
        t.ran.len()
    );
}

#[test]
fn opencl_corpus_agrees_with_the_interpreter() {
    let mut t = Tally::default();
    for path in modules("tests/corpus/opencl") {
        let file = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
        for entry in entry_points(&bytes) {
            let name = format!("{file}:{entry}");
            let m = match CompiledModule::from_bytes(&bytes, &entry, &CompileOptions::default()) {
                Ok(m) => m,
                Err(e) => panic!("{name}: {e}"),
            };
            let mut rng = Rng(0xc1 ^ name.len() as u64);
            let res = resources(&m, &mut rng, 4096);
            check(&name, &m, &res, [2, 1, 1], &mut t);
        }
    }
    eprintln!("{t:#?}");
    assert!(
        t.ran.len() >= 20,
        "the JIT ran only {} kernels",
        t.ran.len()
    );
}

/// The benchmark kernels and the examples, at small sizes, with their own kinds of inputs.
#[test]
fn bench_kernels_and_examples_agree_with_the_interpreter() {
    let mut t = Tally::default();
    let cases: [(&str, [u32; 3]); 6] = [
        ("../../bench/gemm_i8.spv", [2, 2, 1]),
        ("../../bench/gemm_i8_opt.spv", [2, 2, 1]),
        ("../../bench/branchy.spv", [4, 1, 1]),
        ("../../bench/branchy_opt.spv", [4, 1, 1]),
        ("../../bench/vadd.spv", [4, 1, 1]),
        ("../../bench/wg_reduce.spv", [4, 1, 1]),
    ];
    for (file, groups) in cases {
        let bytes = std::fs::read(dir(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        let mut opts = CompileOptions::default();
        // gemm: N = 32 columns, KW = 8 packed words per row.
        opts.spec_constants.insert(0, 32);
        opts.spec_constants.insert(1, 8);
        let m = CompiledModule::from_bytes(&bytes, "main", &opts)
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        let mut rng = Rng(0xbe4c);
        let res = resources(&m, &mut rng, 64 << 10);
        check(file, &m, &res, groups, &mut t);
    }
    eprintln!("{t:#?}");
    assert_eq!(
        t.ran.len(),
        6,
        "every benchmark kernel runs on the JIT: {t:#?}"
    );
}

/// A module of the JIT's own corpus (tests/corpus/jit).
fn jit_corpus(name: &str) -> CompiledModule {
    let bytes = std::fs::read(dir(&format!("tests/corpus/jit/{name}.spv")))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    CompiledModule::from_bytes(&bytes, "main", &CompileOptions::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Runs `m` both ways on `res` and returns how the JIT took it.
fn jit_use(name: &str, m: &CompiledModule, res: &Resources, groups: [u32; 3]) -> JitUse {
    let mut t = Tally::default();
    check(name, m, res, groups, &mut t);
    let jit = run(&m.with_jit_always(), res, groups, true).expect("the run succeeds");
    jit.1.jit
}

/// Barriers reached by only some invocations of a subgroup (in a branch; in a loop whose trip
/// count differs; in a branch after a subgroup instruction, in the lanes function) are the
/// interpreter's to report: the JIT gives such runs to it, and the
/// results and reports are the interpreter's.
#[test]
fn non_uniform_barriers_go_to_the_interpreter() {
    // (The last one has a subgroup instruction: the lanes function runs it at size 8.)
    let names = [
        "barrier_divergent.comp",
        "barrier_trips.comp",
        "subgroup_barrier_divergent.comp",
    ];
    for name in names {
        let m = jit_corpus(name);
        let mut res = Resources::new();
        res.set_words(0, 0, &(0..16u32).map(|i| i * 5 + 1).collect::<Vec<_>>());
        let interp = run(&m, &res, [2, 1, 1], false).expect("the interpreter runs it");
        assert!(
            interp.1.total_events > 0,
            "{name}: the interpreter reports the barrier"
        );
        match jit_use(name, &m, &res, [2, 1, 1]) {
            JitUse::FellBack(why) => assert!(why.contains("barrier"), "{name}: {why}"),
            other => panic!("{name}: {other:?}"),
        }
    }
}

/// Uniform barriers in nested loops and under a workgroup-uniform branch run on the JIT, with
/// the interpreter's bytes.
#[test]
fn uniform_nested_barriers_run_on_the_jit() {
    let m = jit_corpus("barrier_nested.comp");
    let mut rng = Rng(0xba5);
    let mut res = Resources::new();
    res.set_buffer(0, 0, random_bytes(&mut rng, 4 * 32 * 3));
    res.set_buffer(0, 1, vec![0; 4 * 32 * 3]);
    for width in [4, 8, 32] {
        let cfg = RunConfig {
            subgroup_size: width,
            threads: Some(1),
            ..RunConfig::default()
        };
        let mut a = res.clone();
        let mut b = res.clone();
        let rj = m.run(&mut a, [3, 1, 1], &cfg).expect("JIT run");
        let ri = m
            .run(
                &mut b,
                [3, 1, 1],
                &RunConfig {
                    jit: false,
                    ..cfg.clone()
                },
            )
            .expect("interpreter run");
        assert_eq!(rj.jit, JitUse::Ran, "subgroup size {width}");
        assert_eq!(ri.total_events, 0);
        assert!(a == b, "subgroup size {width}: outputs differ");
    }
}

/// Branches with arms the JIT may turn into selects and arms it must not (a division by a
/// value that is zero on the untaken side, a shift by a variable amount): the JIT runs the
/// module (no spurious fallback from an untaken arm) and gives the interpreter's bytes.
#[test]
fn converted_branches_give_the_interpreters_bytes() {
    let m = jit_corpus("select_arms.comp");
    let mut rng = Rng(0x5e1);
    let mut res = Resources::new();
    let v: Vec<u32> = (0..256).map(|_| (rng.next() % 5000) as u32).collect();
    res.set_words(0, 0, &v);
    res.set_buffer(0, 1, vec![0; 4 * 17 * 128]);
    assert_eq!(jit_use("select_arms", &m, &res, [2, 1, 1]), JitUse::Ran);
}

/// The step limit: whatever the limit, the JIT's outcome is the interpreter's (both finish
/// with the same bytes, or both end in the step-limit error): a workgroup within the JIT's
/// budget is within the interpreter's limit, and past it the interpreter decides. On the
/// default JIT (vector lanes for this kernel) and the one-invocation JIT.
#[test]
fn step_limits_end_the_same_way() {
    let bytes = std::fs::read(dir("../../bench/branchy.spv")).expect("branchy.spv");
    let m =
        CompiledModule::from_bytes(&bytes, "main", &CompileOptions::default()).expect("compiles");
    let mut rng = Rng(0x57e9);
    let mut res = Resources::new();
    res.set_buffer(0, 0, random_bytes(&mut rng, 4 * 256));
    res.set_buffer(0, 1, vec![0; 4 * 256]);
    let mut kinds = Vec::new();
    // (The default runs branchy in vector lanes: the one-invocation JIT too.)
    let scalar = m.with_scalar_jit();
    for (m, limit) in [&m, &scalar]
        .into_iter()
        .flat_map(|m| [500u64, 5_000, 20_000, 60_000, 200_000, 2_000_000].map(|l| (m, l)))
    {
        let outcome = |jit| {
            let mut r = res.clone();
            let cfg = RunConfig {
                jit,
                step_limit: limit,
                threads: Some(1),
                ..RunConfig::default()
            };
            m.run(&mut r, [4, 1, 1], &cfg)
                .map(|rep| (r, rep.jit))
                .map_err(|e| e.to_string())
        };
        match (outcome(true), outcome(false)) {
            (Ok((a, how)), Ok((b, _))) => {
                assert!(a == b, "limit {limit}: outputs differ");
                kinds.push(how);
            }
            (Err(a), Err(b)) => {
                assert_eq!(a, b, "limit {limit}");
                kinds.push(JitUse::Off);
            }
            (a, b) => panic!(
                "limit {limit}: JIT {:?}, interpreter {:?}",
                a.is_ok(),
                b.is_ok()
            ),
        }
    }
    // For each JIT, the smallest limit stops both; the largest lets the JIT run it itself.
    for k in kinds.chunks(6) {
        assert_eq!(k.first(), Some(&JitUse::Off), "{kinds:?}");
        assert_eq!(k.last(), Some(&JitUse::Ran), "{kinds:?}");
    }
}

/// Float ↔ integer conversions the JIT compiles natively, on the edge values of every range
/// (±0, subnormals, ±∞, NaNs, halves around every integer limit, huge values): the JIT runs the
/// module and gives the interpreter's bits.
#[test]
fn native_conversions_give_the_interpreters_bits() {
    let m = jit_corpus("conversions.comp");
    let mut f: Vec<f32> = vec![
        0.0,
        -0.0,
        0.5,
        -0.5,
        1.5,
        -1.5,
        127.5,
        128.0,
        -128.5,
        -129.0,
        255.5,
        256.0,
        32767.5,
        32768.0,
        -32768.5,
        65535.9,
        65536.0,
        2147483520.0,
        2147483648.0,
        -2147483648.0,
        -2147483904.0,
        4294967040.0,
        4294967296.0,
        9.2e18,
        9.3e18,
        -9.3e18,
        1.8e19,
        1.9e19,
        1e-45,
        -1e-45,
        3.4e38,
        -3.4e38,
    ];
    f.extend([f32::INFINITY, f32::NEG_INFINITY, f32::NAN, -f32::NAN]);
    f.push(f32::from_bits(0x7fa0_0001)); // a signalling NaN
    let mut d: Vec<f64> = vec![
        0.0,
        -0.0,
        0.49999999999999994,
        -0.5,
        127.99999999999999,
        -128.00000000000003,
        255.99999999999997,
        2147483647.9999998,
        2147483648.0,
        -2147483648.9999998,
        -2147483649.0,
        4294967295.9999995,
        4294967296.0,
        9223372036854774784.0,
        9223372036854775808.0,
        -9223372036854775808.0,
        -9223372036854777856.0,
        18446744073709549568.0,
        18446744073709551616.0,
        5e-324,
        1.7976931348623157e308,
    ];
    d.extend([f64::INFINITY, f64::NEG_INFINITY, f64::NAN]);
    let mut q: Vec<i64> = vec![
        0,
        1,
        -1,
        127,
        128,
        255,
        256,
        16777217,
        -16777217,
        16777219,
        2147483647,
        -2147483648,
        4294967295,
        4294967296,
        9007199254740993,
        -9007199254740993,
        i64::MAX,
        i64::MIN,
        0x7fff_ff80_0000_0000,
        0x1234_5678_9abc_def1,
    ];
    let mut rng = Rng(0xc0);
    let n = 64usize;
    while f.len() < n {
        f.push(f32::from_bits(rng.next_u32()));
    }
    while d.len() < n {
        d.push(f64::from_bits(rng.next()));
    }
    while q.len() < n {
        q.push(rng.next() as i64 >> (rng.next() % 64));
    }
    let mut res = Resources::new();
    res.set_buffer(0, 0, f.iter().flat_map(|x| x.to_le_bytes()).collect());
    res.set_buffer(0, 1, d.iter().flat_map(|x| x.to_le_bytes()).collect());
    res.set_buffer(0, 2, q.iter().flat_map(|x| x.to_le_bytes()).collect());
    res.set_buffer(0, 3, vec![0; 8 * 24 * n]);
    assert_eq!(jit_use("conversions", &m, &res, [2, 1, 1]), JitUse::Ran);
}

/// The packed 4×8-bit dot products the JIT compiles natively (OpSDot, OpUDot, OpSUDot with 32-
/// and 16-bit results; their AccSat forms with 32-bit results), on bytes at every sign and
/// magnitude edge and accumulators at and near the 32-bit limits: the JIT runs the module and
/// gives the exact values computed here from the definitions (and the interpreter's bits).
#[test]
fn native_packed_dots_are_exact() {
    let m = jit_corpus("packed_dots.comp");
    let n = 128usize;
    let edge_bytes = [0x00u8, 0x01, 0x7f, 0x80, 0x81, 0xff, 0xfe, 0x40];
    let edge_acc: [u32; 10] = [
        i32::MAX as u32,
        (i32::MAX - 100_000) as u32,
        (i32::MAX - 300_000) as u32,
        i32::MIN as u32,
        (i32::MIN + 100_000) as u32,
        (i32::MIN + 300_000) as u32,
        u32::MAX,
        u32::MAX - 100_000,
        0,
        1,
    ];
    let mut rng = Rng(0xd07);
    let mut words = Vec::new();
    for i in 0..n {
        let pick = |rng: &mut Rng| -> u32 {
            if i % 2 == 0 {
                u32::from_le_bytes([0; 4].map(|_| edge_bytes[rng.next() as usize % 8]))
            } else {
                rng.next_u32()
            }
        };
        let (a, b) = (pick(&mut rng), pick(&mut rng));
        let acc = if i % 3 == 0 {
            rng.next_u32()
        } else {
            edge_acc[rng.next() as usize % edge_acc.len()]
        };
        words.extend([a, b, acc]);
    }
    let mut res = Resources::new();
    res.set_words(0, 0, &words);
    res.set_buffer(0, 1, vec![0; 4 * 9 * n]);
    assert_eq!(jit_use("packed_dots", &m, &res, [2, 1, 1]), JitUse::Ran);

    let (out, _) = run(&m, &res, [2, 1, 1], true).expect("the run succeeds");
    let got: Vec<u32> = out
        .buffer(0, 1)
        .expect("the output")
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    for i in 0..n {
        let [a, b, acc] = [words[3 * i], words[3 * i + 1], words[3 * i + 2]];
        let (ab, bb) = (a.to_le_bytes(), b.to_le_bytes());
        let dot = |sa: bool, sb: bool| -> i64 {
            (0..4)
                .map(|k| {
                    let x = if sa { ab[k] as i8 as i64 } else { ab[k] as i64 };
                    let y = if sb { bb[k] as i8 as i64 } else { bb[k] as i64 };
                    x * y
                })
                .sum()
        };
        let (s, u, su) = (dot(true, true), dot(false, false), dot(true, false));
        let sat_s = |v: i64| v.clamp(i32::MIN as i64, i32::MAX as i64) as i32 as u32;
        let want = [
            s as u32,
            u as u32,
            su as u32,
            // 16-bit results: the low 16 bits, widened by the shader (signed: SConvert).
            s as i16 as i32 as u32,
            u as u16 as u32,
            su as i16 as i32 as u32,
            sat_s(s + acc as i32 as i64),
            (u + acc as i64).clamp(0, u32::MAX as i64) as u32,
            sat_s(su + acc as i32 as i64),
        ];
        assert_eq!(
            &got[9 * i..9 * i + 9],
            &want,
            "invocation {i}: a {a:#010x}, b {b:#010x}, acc {acc:#010x}"
        );
    }
}

/// Programs with 10 % or more call-outs run on the interpreter (faster there, as measured in
/// `jit::analysis::prefers_interpreter`), with the reason; `with_jit_always` runs them on the
/// JIT, with the same bytes. select_arms.comp has 3 call-outs in 71 instructions (4 %),
/// functions.comp 13 in about 120 (11 %), math.comp 30 in 79.
#[test]
fn call_out_heavy_programs_run_on_the_interpreter() {
    let glsl = |name: &str| {
        let bytes = std::fs::read(dir(&format!("tests/corpus/glsl/{name}.spv")))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        CompiledModule::from_bytes(&bytes, "main", &CompileOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"))
    };
    for (name, m, interpreter) in [
        ("select_arms", jit_corpus("select_arms.comp"), false),
        ("functions", glsl("functions.comp"), true),
        ("math", glsl("math.comp"), true),
    ] {
        let (native, called) = m
            .with_jit_always()
            .jit_code()
            .expect("compiles")
            .instruction_counts();
        assert_eq!(
            called * 100 >= 10 * (native + called),
            interpreter,
            "{name}: {called} call-outs of {}",
            native + called
        );
        let mut rng = Rng(0xca11);
        let res = resources(&m, &mut rng, 4096);
        let (out, report) = run(&m, &res, [2, 1, 1], true).expect("the run succeeds");
        match (&report.jit, interpreter) {
            (JitUse::Unsupported(why), true) => assert!(
                why.contains(&format!("{called} of its "))
                    && why.contains("interpreter runs it faster"),
                "{name}: {why}"
            ),
            // (Random inputs may meet undefined behaviour: then the JIT falls back.)
            (JitUse::Ran | JitUse::FellBack(_), false) => {}
            (other, _) => panic!("{name}: {other:?}"),
        }
        let (forced, forced_report) =
            run(&m.with_jit_always(), &res, [2, 1, 1], true).expect("the run succeeds");
        assert!(
            matches!(forced_report.jit, JitUse::Ran | JitUse::FellBack(_)),
            "{name}: {:?}",
            forced_report.jit
        );
        assert!(forced == out, "{name}: the JIT's outputs differ");
    }
}

/// Calls between the JIT's functions go through absolute addresses: Cranelift's JIT may place
/// two functions more than 2 GiB apart, beyond a direct call's 32-bit displacement, and then
/// panicked while linking (found by the `exec` fuzz target; bytecodealliance/wasmtime#4000).
/// In the IR, a function reference declared `colocated` would be called directly.
#[test]
fn calls_between_jit_functions_are_absolute() {
    let bytes = std::fs::read(dir("tests/corpus/glsl/functions.comp.spv")).expect("the module");
    let m =
        CompiledModule::from_bytes(&bytes, "main", &CompileOptions::default()).expect("compiles");
    let ir = spvx_exec::jit::dump(m.program()).expect("the JIT takes it");
    let refs: Vec<&str> = ir
        .lines()
        .filter(|l| l.trim_start().starts_with("fn") && l.contains(" = "))
        .collect();
    // The call-out and the calls of sort3, swap_if_greater, clamp_add and poly.
    assert!(refs.len() >= 4, "{refs:?}");
    for r in refs {
        assert!(!r.contains("colocated"), "a direct call: {r}");
    }
}

/// Subgroup instructions run on the JIT at a rendezvous of each subgroup's invocations, with the
/// lanes the interpreter runs them with: in a loop whose trip count differs between
/// invocations, on both sides of a divergent branch, after some invocations returned, between
/// barriers, in uniform code; at every subgroup size (1, a width that does not divide the
/// workgroup, powers of two up to the whole workgroup), with the interpreter's bytes. The
/// glslang corpus's subgroup modules too.
#[test]
fn subgroup_instructions_run_on_the_jit_with_the_interpreters_lanes() {
    let flow = jit_corpus("subgroup_flow.comp");
    let corpus = |name: &str| {
        let bytes = std::fs::read(dir(&format!("tests/corpus/glsl/{name}.spv")))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        CompiledModule::from_bytes(&bytes, "main", &CompileOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"))
    };
    let modules = [
        ("subgroup_flow.comp", flow),
        ("subgroup.comp", corpus("subgroup.comp")),
        ("ballot.comp", corpus("ballot.comp")),
        ("submasks.comp", corpus("submasks.comp")),
    ];
    let mut ran = 0;
    for (name, m) in &modules {
        for width in [1, 3, 4, 8, 16, 32, 64] {
            let mut rng = Rng(0x5b ^ width as u64);
            let res = resources(m, &mut rng, 4096);
            let label = format!("{name} at subgroup size {width}");
            let interp = run_at(m, &res, [2, 1, 1], false, width);
            let jit = run_at(m, &res, [2, 1, 1], true, width);
            same(&label, &jit, &interp);
            let callouts = run_at(&m.with_jit_callouts_only(), &res, [2, 1, 1], true, width);
            same(&format!("{label} (call-outs only)"), &callouts, &interp);
            let (Ok((_, j)), Ok((_, i))) = (&jit, &interp) else {
                panic!("{label}: the runs fail");
            };
            match &j.jit {
                JitUse::Ran => ran += 1,
                // Only where the interpreter reports something (the corpus modules read past
                // their buffers at some sizes).
                JitUse::FellBack(_) => assert!(i.total_events > 0, "{label}: {:?}", j.jit),
                other => panic!("{label}: {other:?}"),
            }
        }
    }
    // subgroup_flow reports nothing: it runs on the JIT at every size.
    assert!(ran >= 7, "the JIT ran {ran} of the runs");
}

/// At subgroup sizes above 8 (where the lanes function does not run), where the rendezvous
/// finds the invocations of a subgroup at the same subgroup instruction in different loop
/// iterations (some skipped it with `continue`), the JIT gives the run to the interpreter; at
/// sizes up to 8 the lanes function runs it with the interpreter's bytes. A subgroup
/// instruction in a called function keeps the program off the JIT.
#[test]
fn subgroup_instructions_it_cannot_place_go_to_the_interpreter() {
    let m = jit_corpus("subgroup_continue.comp");
    let mut res = Resources::new();
    res.set_words(0, 0, &(0..32u32).map(|i| i * 7 + 3).collect::<Vec<_>>());
    for width in [4, 8, 16] {
        let label = format!("subgroup_continue.comp at subgroup size {width}");
        let interp = run_at(&m, &res, [2, 1, 1], false, width);
        let jit = run_at(&m.with_jit_always(), &res, [2, 1, 1], true, width);
        same(&label, &jit, &interp);
        match (&jit.expect("the run succeeds").1.jit, width) {
            (JitUse::Ran, ..=8) => {}
            (JitUse::FellBack(why), 16) => {
                assert!(why.contains("different loop iterations"), "{label}: {why}")
            }
            (other, _) => panic!("{label}: {other:?}"),
        }
    }
    // Lanes one iteration of the outer loop behind the lane that went round to its
    // subgroupElect() (subgroup_behind.comp): at sizes above 8 the rendezvous leaves the run to
    // the interpreter (it had elected the lane ahead alone, then each of the others); every
    // lane elected at the outer instruction is lane 0, as on the interpreter.
    let m = jit_corpus("subgroup_behind.comp");
    let mut res = Resources::new();
    res.set_words(0, 0, &(0..60u32).map(|i| 1000 + i).collect::<Vec<_>>());
    for width in [8, 16, 32] {
        let label = format!("subgroup_behind.comp at subgroup size {width}");
        let interp = run_at(&m, &res, [3, 1, 1], false, width);
        let jit = run_at(&m.with_jit_always(), &res, [3, 1, 1], true, width);
        same(&label, &jit, &interp);
        let (out, report) = jit.expect("the run succeeds");
        let b = out.words(0, 0).expect("b");
        for gid in 0..15usize {
            let want = if gid % 5 == 0 {
                0
            } else {
                1000 + 4 * gid as u32
            };
            assert_eq!(b[4 * gid], want, "{label}: b[{}]", 4 * gid);
        }
        match (&report.jit, width) {
            (JitUse::Ran, ..=8) => {}
            (JitUse::FellBack(why), 9..) => {
                assert!(why.contains("another iteration"), "{label}: {why}")
            }
            (other, _) => panic!("{label}: {other:?}"),
        }
    }
    let m = jit_corpus("subgroup_call.comp");
    match jit_use("subgroup_call.comp", &m, &res, [2, 1, 1]) {
        JitUse::Unsupported(why) => assert!(why.contains("called function"), "{why}"),
        other => panic!("subgroup_call.comp: {other:?}"),
    }
}

/// Subgroups of up to 8 invocations run in one native call (`jit::lanes`), with the
/// interpreter's scheduler: subgroup instructions under divergent branches, in loops whose trip
/// counts differ (`continue` before, `break` after), in a switch, after early returns, every
/// integer reduction and scan it computes natively and the instructions it leaves to the
/// interpreter; at every size from 1 to 8 (3, 5, 6, 7 do not divide the workgroup of 24), on
/// the JIT, with the interpreter's bytes, natively and with call-outs only.
#[test]
fn subgroups_of_up_to_8_run_in_one_native_call() {
    let m = jit_corpus("subgroup_lanes.comp");
    let ir = spvx_exec::jit::dump(m.program()).expect("the JIT takes it");
    assert!(ir.contains("; lanes\n"), "no lanes function");
    for width in 1..=8 {
        let mut rng = Rng(0x1a9e ^ width as u64);
        let mut res = Resources::new();
        let words: Vec<u32> = (0..48).map(|_| rng.next() as u32 % 1024).collect();
        res.set_words(0, 0, &words);
        res.set_words(0, 1, &[0; 48]);
        let label = format!("subgroup_lanes.comp at subgroup size {width}");
        let interp = run_at(&m, &res, [2, 1, 1], false, width);
        let jit = run_at(&m, &res, [2, 1, 1], true, width);
        same(&label, &jit, &interp);
        let callouts = run_at(&m.with_jit_callouts_only(), &res, [2, 1, 1], true, width);
        same(&format!("{label} (call-outs only)"), &callouts, &interp);
        match (&jit, &interp) {
            (Ok((out, j)), Ok((_, i))) => {
                assert_eq!(j.jit, JitUse::Ran, "{label}");
                assert_eq!(i.total_events, 0, "{label}: the interpreter reports");
                // (Not all zero: the module wrote its outputs.)
                let o = out.words(0, 1).expect("the output buffer");
                assert!(o.iter().any(|w| *w != 0), "{label}");
            }
            _ => panic!("{label}: the runs fail"),
        }
    }
}

/// A program whose lanes function would have more Cranelift IR values than
/// `lanes::MAX_LANES_VALUES` (compile time grows with them: over a second at some 260,000) is
/// not compiled for lanes — `jit::dump` says why — and runs on the JIT with the rendezvous at
/// subgroup sizes up to 8, with the interpreter's results.
#[test]
fn a_lanes_function_too_large_to_compile_is_left_to_the_rendezvous() {
    let m = jit_corpus("subgroup_lanes_large.comp");
    let ir = spvx_exec::jit::dump(m.program()).expect("the JIT takes it");
    assert!(
        ir.contains("; lanes: not compiled: the lanes function has")
            && ir.contains("IR values, more than the 200000"),
        "the lanes function was compiled: {}",
        ir.lines().find(|l| l.starts_with("; lanes")).unwrap_or("")
    );
    let mut rng = Rng(0x5eed);
    let mut res = Resources::new();
    let words: Vec<u32> = (0..16).map(|_| rng.next() as u32).collect();
    res.set_words(0, 0, &words);
    res.set_words(0, 1, &[0; 16]);
    for width in [4, 8] {
        let label = format!("subgroup_lanes_large.comp at subgroup size {width}");
        let interp = run_at(&m, &res, [2, 1, 1], false, width);
        let jit = run_at(&m, &res, [2, 1, 1], true, width);
        same(&label, &jit, &interp);
        let Ok((out, j)) = &jit else {
            panic!("{label}: the run fails: {jit:?}")
        };
        assert_eq!(j.jit, JitUse::Ran, "{label}");
        let o = out.words(0, 1).expect("the output buffer");
        assert!(
            o.iter().all(|w| *w != 0),
            "{label}: not every output written"
        );
    }
}

/// The lanes function spends steps per segment run, as the interpreter spends them per
/// subgroup: the same count, and at a limit one below it both end in the step-limit error.
#[test]
fn the_lanes_function_counts_the_interpreters_steps() {
    let m = jit_corpus("subgroup_lanes.comp");
    let mut res = Resources::new();
    res.set_words(0, 0, &(0..24u32).map(|i| i * 37 % 1000).collect::<Vec<_>>());
    res.set_words(0, 1, &[0; 24]);
    let outcome = |jit: bool, step_limit: u64| {
        let mut r = res.clone();
        let cfg = RunConfig {
            jit,
            step_limit,
            threads: Some(1),
            subgroup_size: 8,
            ..RunConfig::default()
        };
        m.run(&mut r, [1, 1, 1], &cfg).map_err(|e| e.to_string())
    };
    let exact = outcome(false, 1 << 30)
        .expect("the interpreter runs it")
        .steps;
    let jit = outcome(true, exact).expect("the JIT runs it at the exact limit");
    assert_eq!(jit.jit, JitUse::Ran);
    assert_eq!(jit.steps, exact, "the step counts differ");
    let (a, b) = (outcome(true, exact - 1), outcome(false, exact - 1));
    assert!(a.is_err() && a == b, "one below the count: {a:?} / {b:?}");
}

/// fp32 chains the JIT keeps in float registers (`jit/floats.rs`): an accumulator carried
/// around a loop through + − × ÷, phis, comparisons and copies, over inputs with ±∞, NaNs of
/// both signs and several payloads, a signalling NaN, subnormals and ±0. The JIT runs it and
/// gives the interpreter's bits, and every stored NaN is the canonical 0x7fc00000 (spvx's rule
/// for a NaN result, docs/semantics), of which the inputs make many.
#[test]
fn float_chains_in_float_registers_give_the_interpreters_bits() {
    let m = jit_corpus("float_chains.comp");
    let mut a: Vec<f32> = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        -f32::NAN,
        f32::from_bits(0x7fa0_0001), // signalling
        f32::from_bits(0xffc0_1234),
        f32::from_bits(0x0000_0001),
        f32::from_bits(0x8000_0003),
        f32::MAX,
        f32::MIN,
        1.5e-38,
        3.0,
    ];
    let mut rng = Rng(0xf1);
    while a.len() < 64 {
        // Ordinary values mostly, so that chains also stay finite for a while.
        let x = (rng.next_u32() % 2001) as f32 / 100.0 - 10.0;
        a.push(x);
    }
    let mut res = Resources::new();
    res.set_buffer(0, 0, a.iter().flat_map(|x| x.to_le_bytes()).collect());
    res.set_buffer(0, 1, vec![0; 4 * 18 * 64]);
    assert_eq!(jit_use("float_chains", &m, &res, [2, 1, 1]), JitUse::Ran);
    // The one-invocation JIT (its float registers) and the default (vector lanes for it).
    for jit in [m.with_scalar_jit(), m.with_jit_always()] {
        let out = run(&jit, &res, [2, 1, 1], true)
            .expect("the run succeeds")
            .0;
        let words = buffer_words(&out, 1);
        let nans: Vec<u32> = (0..64)
            .flat_map(|i| words[i * 18..i * 18 + 17].to_vec())
            .filter(|w| f32::from_bits(*w).is_nan())
            .collect();
        assert!(nans.len() > 100, "the inputs make NaNs: {}", nans.len());
        assert!(nans.iter().all(|w| *w == 0x7fc0_0000), "{nans:x?}");
    }
}

/// Built-in components read singly: the workgroup loop stores only the components up to the
/// last one read (`lower_loop::trim_to_reads`), and the values read are still right — checked
/// against the definitions (GlobalInvocationID.y = WorkgroupID.y × 2 + LocalInvocationID.y)
/// and the interpreter.
#[test]
fn builtin_components_read_singly_have_their_values() {
    let m = jit_corpus("builtin_components.comp");
    let mut res = Resources::new();
    res.set_buffer(0, 0, vec![0; 4 * 192]);
    assert_eq!(
        jit_use("builtin_components", &m, &res, [2, 3, 1]),
        JitUse::Ran
    );
    let out = run(&m.with_jit_always(), &res, [2, 3, 1], true)
        .expect("the run succeeds")
        .0;
    let words = buffer_words(&out, 0);
    for (gx, gy) in (0..3).flat_map(|gy| (0..2).map(move |gx| (gx, gy))) {
        for (lx, ly, lz) in
            (0..2).flat_map(|z| (0..2).flat_map(move |y| (0..4).map(move |x| (x, y, z))))
        {
            let i = lx + 4 * ly + 8 * lz + 16 * (gx + 2 * gy);
            assert_eq!(words[2 * i], (gy * 2 + ly) as u32, "invocation {i}");
            assert_eq!(words[2 * i + 1], (lz * 100) as u32, "invocation {i}");
        }
    }
}

/// Every built-in the native workgroup loop computes (`tests/corpus/jit/builtins_all.comp`),
/// over a 4 × 3 × 2 workgroup and 2 × 2 × 3 workgroups at subgroup size 16 (no lanes
/// function): the loop stores y and z once per row and the rest per invocation, and the
/// inlined entry function reads them all as values (`inline::forward_builtins`). Checked
/// against the definitions, on the interpreter, the one-invocation JIT and the default.
#[test]
fn every_loop_builtin_has_its_value_in_the_inlined_entry() {
    let m = jit_corpus("builtins_all.comp");
    let groups = [2u32, 2, 3];
    let (size, count) = ([4u32, 3, 2], 24u32);
    let total = (count * groups.iter().product::<u32>()) as usize;
    let mut res = Resources::new();
    res.set_buffer(0, 0, vec![0; 4 * 12 * total]);
    let mut want = vec![0u32; 12 * total];
    for (gz, gy, gx) in (0..groups[2])
        .flat_map(|z| (0..groups[1]).flat_map(move |y| (0..groups[0]).map(move |x| (z, y, x))))
    {
        let group = gx + groups[0] * (gy + groups[1] * gz);
        for (lz, ly, lx) in (0..size[2])
            .flat_map(|z| (0..size[1]).flat_map(move |y| (0..size[0]).map(move |x| (z, y, x))))
        {
            let index = lx + size[0] * (ly + size[1] * lz);
            let at = 12 * (index + count * group) as usize;
            want[at..at + 12].copy_from_slice(&[
                gx * size[0] + lx,
                gy * size[1] + ly,
                gz * size[2] + lz,
                lx,
                ly,
                lz,
                gx,
                gy,
                gz,
                index,
                index % 16,
                index / 16,
            ]);
        }
    }
    for (what, m, jit) in [
        ("interpreter", m.clone(), false),
        ("one-invocation JIT", m.with_scalar_jit(), true),
        ("default", m.clone(), true),
    ] {
        let (out, report) =
            run_at(&m, &res, groups, jit, 16).unwrap_or_else(|e| panic!("{what}: {e}"));
        if jit {
            assert_eq!(report.jit, JitUse::Ran, "{what}");
        }
        let words = buffer_words(&out, 0);
        if let Some(i) = (0..want.len()).find(|&i| words[i] != want[i]) {
            panic!(
                "{what}: invocation {}, word {}: {} against {}",
                i / 12,
                i % 12,
                words[i],
                want[i]
            );
        }
    }
}

/// Signed indices into runtime arrays (`tests/corpus/jit/signed_index.comp`): with every index
/// in range the JIT runs it and stores `data[k] · 3 + 1` at `k + 16` (values computed here);
/// with one negative index (−1, −16, −2^31) or one past the end, in a load or a store, the
/// interpreter reports the access and the JIT must leave the run to it (a byte offset of −4
/// plus 4 bytes is 0: only the offset's reduction modulo 2^48 makes it out of bounds; an
/// optimisation that dropped the reduction for small offsets failed here).
#[test]
fn signed_indices_out_of_bounds_leave_the_run_to_the_interpreter() {
    let m = jit_corpus("signed_index.comp");
    let data: Vec<u32> = (0..64u32).map(|i| i * 7 + 5).collect();
    let run_with = |idx: &[i32]| {
        let mut res = Resources::new();
        res.set_buffer(0, 0, idx.iter().flat_map(|x| x.to_le_bytes()).collect());
        res.set_buffer(0, 1, data.iter().flat_map(|x| x.to_le_bytes()).collect());
        res.set_buffer(0, 2, vec![0; 4 * 48]);
        res
    };
    let good: Vec<i32> = vec![0, 5, 31, 2, 17, 9, 30, 1];
    let res = run_with(&good);
    assert_eq!(jit_use("signed_index", &m, &res, [1, 1, 1]), JitUse::Ran);
    let out = run(&m.with_jit_always(), &res, [1, 1, 1], true)
        .expect("the run succeeds")
        .0;
    let words = buffer_words(&out, 2);
    for k in &good {
        assert_eq!(
            words[*k as usize + 16],
            data[*k as usize] * 3 + 1,
            "index {k}"
        );
    }
    // −16 loads outside `data` too; 40 loads inside but stores past `outp`'s 48 words at 56.
    for bad in [-1, -16, i32::MIN, 64, 40] {
        let mut idx = good.clone();
        idx[3] = bad;
        let res = run_with(&idx);
        let interp = run(&m, &res, [1, 1, 1], false).expect("the interpreter runs it");
        assert!(
            interp.1.total_events > 0,
            "index {bad}: the interpreter reports it"
        );
        match jit_use(&format!("signed_index {bad}"), &m, &res, [1, 1, 1]) {
            JitUse::FellBack(_) => {}
            other => panic!("index {bad}: the JIT must leave it to the interpreter: {other:?}"),
        }
    }
}

/// The 32-bit words of buffer (set 0, `binding`) of `res`.
fn buffer_words(res: &Resources, binding: u32) -> Vec<u32> {
    res.buffer(0, binding)
        .expect("the buffer")
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Multiplications by constants (`lower_ops::mul_by`: 2^k ± 1 as a shift and an add or
/// subtract) at every width, with the constants 2^32 − 1, 2^64 − 1, 2^63 ± 1: the JIT runs
/// them and gives the products modulo 2^width computed here, and the interpreter's bytes.
#[test]
fn constant_multiplications_wrap_at_their_width() {
    let m = jit_corpus("const_mul.comp");
    let mut x: Vec<u64> = vec![
        0,
        1,
        2,
        3,
        u64::MAX,
        1 << 63,
        0x8000_0000,
        0xffff_ffff,
        0x1234_5678_9abc_def0,
    ];
    let mut rng = Rng(0x3c);
    while x.len() < 32 {
        x.push(rng.next());
    }
    let mut res = Resources::new();
    res.set_buffer(0, 0, x.iter().flat_map(|v| v.to_le_bytes()).collect());
    res.set_buffer(0, 1, vec![0; 8 * 16 * 32]);
    assert_eq!(jit_use("const_mul", &m, &res, [2, 1, 1]), JitUse::Ran);
    let out = run(&m.with_jit_always(), &res, [2, 1, 1], true)
        .expect("the run succeeds")
        .0;
    let o: Vec<u64> = out
        .buffer(0, 1)
        .expect("the output buffer")
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect();
    for (i, &v) in x.iter().enumerate() {
        let w = v as u32;
        let want: [u64; 16] = [
            w.wrapping_mul(3) as u64,
            w.wrapping_mul(5) as u64,
            w.wrapping_mul(9) as u64,
            w.wrapping_mul(7) as u64,
            w.wrapping_mul(31) as u64,
            w.wrapping_mul(33) as u64,
            w.wrapping_mul(0xffff_ffff) as u64,
            w.wrapping_mul(0x8000_0001) as u64,
            (w as i32).wrapping_mul(-1) as u32 as u64,
            v.wrapping_mul(u64::MAX),
            v.wrapping_mul(0x8000_0000_0000_0001),
            v.wrapping_mul(0x1_0000_0001),
            (w as u16).wrapping_mul(255) as u64,
            (w as u8).wrapping_mul(17) as u64,
            w.wrapping_mul(6) as u64,
            v.wrapping_mul(0x7fff_ffff_ffff_ffff),
        ];
        assert_eq!(o[i * 16..i * 16 + 16], want, "input {v:#x}");
    }
}

/// LocalInvocationId over a 3-D workgroup whose subgroups straddle its rows, in a program with
/// a subgroup instruction (the lanes function): at subgroup sizes 4 and 8, the JIT runs it and
/// every invocation's ids and its subgroup's sum of LocalInvocationIndex are the values
/// computed here from the definitions (and the interpreter's).
#[test]
fn local_ids_of_subgroups_straddling_rows_are_right() {
    let m = jit_corpus("subgroup_local3d.comp");
    for width in [4u32, 8] {
        let mut res = Resources::new();
        res.set_buffer(0, 0, vec![0; 4 * 5 * 24 * 3]);
        let interp = run_at(&m, &res, [3, 1, 1], false, width);
        let jit = run_at(&m.with_jit_always(), &res, [3, 1, 1], true, width);
        same(&format!("subgroup_local3d at {width}"), &jit, &interp);
        let (out, report) = jit.expect("the run succeeds");
        assert_eq!(report.jit, JitUse::Ran, "width {width}");
        let words = buffer_words(&out, 0);
        for wg in 0..3u32 {
            for index in 0..24u32 {
                let i = (index + 24 * wg) as usize;
                let first = index / width * width;
                let sum: u32 = (first..first + width).sum();
                let want = [index % 4, index / 4 % 3, index / 12, wg, sum];
                assert_eq!(
                    words[5 * i..5 * i + 5],
                    want,
                    "width {width}, invocation {i}"
                );
            }
        }
    }
}

/// Atomic additions into a worker's own copy of a buffer (`JitCode::private_sums`,
/// private_sums.comp): `hist`, which only atomic additions touch (IAdd, one wrapping, ISub,
/// IIncrement, IDecrement), is added into per worker without a lock and the copies summed at
/// the end; `mixed`, also loaded, keeps locked additions. On 1 and 2 threads and the
/// interpreter, against exact wrapping sums computed here from the same inputs; one addition
/// out of bounds goes to the interpreter, which reports it.
#[test]
fn atomic_additions_into_private_copies_sum_exactly() {
    let m = jit_corpus("private_sums.comp");
    let code = m.jit_code().expect("the JIT compiles it");
    assert_eq!(code.private_sums().len(), 1, "hist only");
    let mut rng = Rng(0x5ab5);
    let n = 64 * 64;
    let data: Vec<u32> = (0..n).map(|_| rng.next() as u32).collect();
    let hist: Vec<u32> = (0..48).map(|_| rng.next() as u32).collect();
    let mixed: Vec<u32> = (0..9).map(|_| rng.next() as u32).collect();
    let words = |v: &[u32]| -> Vec<u8> { v.iter().flat_map(|w| w.to_le_bytes()).collect() };
    let set = |pick: u32, extra: u32| {
        let mut res = Resources::new();
        res.set_buffer(0, 0, words(&data));
        res.set_buffer(0, 1, words(&hist));
        res.set_buffer(0, 2, words(&mixed));
        res.set_buffer(0, 3, vec![0; 4 * n]);
        res.set_buffer(0, 4, words(&[pick, extra]));
        res
    };
    let (mut want_hist, mut want_mixed) = (hist.clone(), mixed.clone());
    for &v in &data {
        let add = |h: &mut Vec<u32>, i: u32, x: u32| {
            h[i as usize] = h[i as usize].wrapping_add(x);
        };
        add(&mut want_hist, v & 31, 1);
        add(&mut want_hist, 32 + ((v >> 5) & 7), 0xffff_fff0);
        add(
            &mut want_hist,
            40 + ((v >> 8) & 3),
            (v >> 28).wrapping_neg(),
        );
        add(&mut want_hist, 44 + ((v >> 10) & 1), 1);
        add(&mut want_hist, 46, u32::MAX);
        add(&mut want_mixed, v & 7, 1);
    }
    let read = |out: &Resources, b: u32| -> Vec<u32> {
        out.buffer(0, b)
            .expect("bound")
            .chunks(4)
            .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect()
    };
    let res = set(u32::MAX, 0);
    for (jit, threads) in [(false, 1), (true, 1), (true, 2)] {
        let mut out = res.clone();
        let cfg = RunConfig {
            jit,
            threads: Some(threads),
            ..RunConfig::default()
        };
        let r = m.run(&mut out, [64, 1, 1], &cfg).expect("runs");
        let what = format!("JIT {jit}, {threads} thread(s)");
        if jit {
            assert_eq!(r.jit, JitUse::Ran, "{what}");
        }
        assert_eq!(read(&out, 1), want_hist, "{what}: hist");
        assert_eq!(read(&out, 2), want_mixed, "{what}: mixed");
        let o = read(&out, 3);
        for (i, &v) in data.iter().enumerate() {
            assert_eq!(o[i], mixed[8].wrapping_add(v), "{what}: out[{i}]");
        }
    }
    // Out of bounds in one invocation's addition into `hist`.
    let res = set(1000, 1 << 20);
    let interp = run(&m, &res, [64, 1, 1], false);
    let jit = run(&m, &res, [64, 1, 1], true);
    same("private sums, out of bounds", &jit, &interp);
    let (_, report) = jit.as_ref().expect("runs");
    assert!(report.total_events > 0, "the interpreter reports it");
    assert!(
        matches!(report.jit, JitUse::FellBack(_)),
        "{:?}",
        report.jit
    );
}
