//! Register promotion (`compile/promote.rs`): Function variables and built-ins in registers.
//!
//! Each test checks results against values computed here from the shader's formulas (plain
//! integer arithmetic), and the promotion counts of the program, so that a lost promotion
//! shows: divergent stores, loop-carried variables, a function with a promoted local called
//! from two places, variables whose pointers escape (kept in memory, still right), structs,
//! arrays and vectors through constant access chains, 8/16/64-bit scalars, a load whose
//! variable is stored to before the load's value is used (must not read the new value), every
//! compute built-in with a partly filled subgroup, and runs on 1 and 2 threads and without
//! validation (registers reset per subgroup) giving the same bytes.

mod glsl_corpus;
mod support;

use glsl_corpus::{le32, module, words};
use spvx_exec::{CompileOptions, CompiledModule, Resources, RunConfig, UbKind};

/// The ten results promote_vars.comp writes for input `v` at invocation `i`.
fn promote_vars_expected(i: u32, v: u32) -> [u32; 10] {
    let d = if v & 1 == 1 {
        v.wrapping_mul(3)
    } else {
        v.wrapping_add(100)
    };
    let s = (0..v % 7).fold(0u32, |s, k| s.wrapping_add(k * k).wrapping_add(v));
    let twice_plus = |a: u32| a.wrapping_mul(2).wrapping_add(if a > 5 { 7 } else { 0 });
    let r2 = twice_plus(v).wrapping_add(twice_plus(v.wrapping_add(3)).wrapping_mul(1000));
    let e = v.wrapping_add(22);
    // st.b = (v + 1, v + 2 + v); st.c[2] = 2 (v mod 2^23) = 2 v; st.c[1] * 4 = 2 (v < 2^23:
    // floats exact).
    let r4 = (v + 1)
        .wrapping_add((2 * v + 2).wrapping_mul(16))
        .wrapping_add((2 * v).wrapping_mul(256))
        .wrapping_add(2 * 65536);
    let b8 = (v as u8).wrapping_add(250) as u32;
    let h16 = (v as u16).wrapping_mul(4099) as u32;
    let w64 = (v as i64) * -3_000_000_000 + i as i64;
    let (qx, qy, qz) = (v, v ^ 5, v);
    let qw = v.wrapping_add(qy);
    let big = if qw > 20 { 1_000_000 } else { 0 };
    let r7 = qx
        .wrapping_add(qy.wrapping_mul(3))
        .wrapping_add(qz.wrapping_mul(5))
        .wrapping_add(qw.wrapping_mul(7))
        .wrapping_add(big);
    let r8 = v.wrapping_mul(10).wrapping_add(v & 3);
    [
        d,
        s,
        r2,
        e,
        r4,
        b8 | (h16 << 8),
        (w64 >> 20) as u32,
        r7,
        r8,
        w64 as u32,
    ]
}

/// Inputs of promote_vars.comp: small values (both branches, short and long loops) and large
/// ones (wrap-around of 8/16/32-bit arithmetic), all below 2^23 (exact as floats).
fn promote_vars_inputs(n: usize) -> Vec<u32> {
    (0..n as u32)
        .map(|i| match i % 4 {
            0 | 1 => i,
            2 => (i * 7919 + 255) % (1 << 23),
            _ => (1 << 23) - 1 - i,
        })
        .collect()
}

fn run_promote_vars(m: &CompiledModule, input: &[u32], cfg: &RunConfig) -> Vec<u32> {
    let mut res = Resources::new();
    res.set_buffer(0, 0, le32(input));
    res.set_buffer(0, 1, vec![0; input.len() * 40]);
    let groups = (input.len() / 8) as u32;
    m.run(&mut res, [groups, 1, 1], cfg)
        .unwrap_or_else(|e| panic!("{e}"));
    words(res.buffer(0, 1).expect("output"))
}

fn check_promote_vars(out: &[u32], input: &[u32], what: &str) {
    for (i, &v) in input.iter().enumerate() {
        let want = promote_vars_expected(i as u32, v);
        assert_eq!(
            &out[i * 10..i * 10 + 10],
            &want,
            "{what}: invocation {i}, input {v}"
        );
    }
}

#[test]
fn glslang_function_variables_in_registers() {
    let m = module("promote_vars.comp");
    let p = m.program().promotion;
    // 20 Function variables: the 4 `param` copies glslang passes by pointer to twice_plus and
    // bump escape, `arr` has a dynamic index; the other 15 (incl. twice_plus's `t`) promoted.
    assert_eq!(p.variables, 15, "{p:?}");
    assert_eq!(p.kept_in_memory, 5, "{p:?}");
    assert_eq!(p.builtins, 1, "{p:?}");
    assert_eq!(p.aliased_loads, 70, "{p:?}");
    let input = promote_vars_inputs(64);
    let cfg = RunConfig {
        threads: Some(2),
        ..RunConfig::default()
    };
    check_promote_vars(&run_promote_vars(&m, &input, &cfg), &input, "2 threads");
}

#[test]
fn promoted_registers_need_no_reset_between_workgroups() {
    // Subgroups of 4 lanes reuse their registers from workgroup to workgroup (no template
    // copy): results on one and two threads, and with a reset per subgroup (a module compiled
    // without validation), must all be the formulas' values.
    let m = module("promote_vars.comp");
    assert!(!m.program().reset_registers);
    let unvalidated = glsl_corpus::try_module(
        "promote_vars.comp",
        &CompileOptions {
            validate: false,
            ..CompileOptions::default()
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(unvalidated.program().reset_registers);
    let input = promote_vars_inputs(256);
    for threads in [1, 2] {
        let cfg = RunConfig {
            threads: Some(threads),
            subgroup_size: 4,
            ..RunConfig::default()
        };
        check_promote_vars(
            &run_promote_vars(&m, &input, &cfg),
            &input,
            &format!("{threads} thread(s)"),
        );
        check_promote_vars(
            &run_promote_vars(&unvalidated, &input, &cfg),
            &input,
            &format!("unvalidated, {threads} thread(s)"),
        );
    }
}

#[test]
fn every_builtin_from_registers_with_a_partial_subgroup() {
    let m = module("promote_builtins.comp");
    let p = m.program();
    assert_eq!(p.promotion.builtins, 9, "{:?}", p.promotion);
    assert!(p.builtins.iter().all(|b| b.reg.is_some()));
    assert_eq!(p.private_bytes, 0, "nothing left in private memory");
    let groups = [2u32, 3, 2];
    let (nx, ny, nz) = (groups[0], groups[1], groups[2]);
    let total = (nx * ny * nz * 15) as usize;
    for (subgroup, threads) in [(4u32, 2usize), (4, 1), (32, 2), (1, 1)] {
        let mut res = Resources::new();
        res.set_buffer(0, 0, vec![0; total * 17 * 4]);
        let cfg = RunConfig {
            threads: Some(threads),
            subgroup_size: subgroup,
            ..RunConfig::default()
        };
        m.run(&mut res, groups, &cfg)
            .unwrap_or_else(|e| panic!("{e}"));
        let out = words(res.buffer(0, 0).expect("output"));
        let mut seen = 0;
        for wz in 0..nz {
            for wy in 0..ny {
                for wx in 0..nx {
                    for index in 0..15u32 {
                        let (lx, ly) = (index % 5, index / 5);
                        let g = index + 15 * (wx + nx * (wy + ny * wz));
                        let want = [
                            wx * 5 + lx,
                            wy * 3 + ly,
                            wz,
                            lx,
                            ly,
                            0,
                            wx,
                            wy,
                            wz,
                            nx,
                            ny,
                            nz,
                            index,
                            subgroup,
                            index % subgroup,
                            index / subgroup,
                            15u32.div_ceil(subgroup),
                        ];
                        let at = g as usize * 17;
                        assert_eq!(
                            &out[at..at + 17],
                            &want,
                            "subgroup size {subgroup}, workgroup ({wx}, {wy}, {wz}), index {index}"
                        );
                        seen += 1;
                    }
                }
            }
        }
        assert_eq!(seen, total);
    }
}

/// A module of hand-written SPIR-V: `%x` = in[i], `%r` stored to out[i]; `vars` are the
/// Function variables of main, `pre` runs before the load of `%x`.
fn module_text(decls: &str, vars: &str, body: &str) -> String {
    format!(
        "{}{decls}
%main = OpFunction %void None %fn
%entry = OpLabel
{vars}
%gx = OpAccessChain %ptr_in_uint %gid %u0
%i = OpLoad %uint %gx
%px = OpAccessChain %ptr_sb_uint %in %u0 %i
%x = OpLoad %uint %px
{body}
%py = OpAccessChain %ptr_sb_uint %out %u0 %i
OpStore %py %r
OpReturn
OpFunctionEnd
",
        support::HEAD.replace("LOCAL", "8")
    )
}

const DECLS: &str = "
%ptr_f_uint = OpTypePointer Function %uint
%v2uint = OpTypeVector %uint 2
%ptr_f_v2 = OpTypePointer Function %v2uint
%St = OpTypeStruct %uint %v2uint
%ptr_f_St = OpTypePointer Function %St
%arr4 = OpTypeArray %uint %u4
%ptr_f_arr4 = OpTypePointer Function %arr4
%u5 = OpConstant %uint 5
%u7 = OpConstant %uint 7
%u8 = OpConstant %uint 8
%u9 = OpConstant %uint 9
%u100 = OpConstant %uint 100
%b_init = OpConstantComposite %v2uint %u8 %u9
%st_init = OpConstantComposite %St %u7 %b_init
";

fn run_hand(text: &str, input: &[u32]) -> (CompiledModule, Vec<u32>, spvx_exec::RunReport) {
    let m = support::compile(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let (out, report) = support::run_words(
        &m,
        input,
        input.len(),
        input.len() as u32 / 8,
        &RunConfig::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    (m, out, report)
}

#[test]
fn initialisers_partial_stores_and_a_store_between_load_and_use() {
    // %old is loaded from %a (initialiser 100), then %a is stored to before %old is used: the
    // load must not read the new value. st (initialiser (7, (8, 9))): the whole member b is
    // loaded, then replaced, then its component y read, then the whole struct loaded.
    let vars =
        "%a = OpVariable %ptr_f_uint Function %u100\n%st = OpVariable %ptr_f_St Function %st_init";
    let body = "
%old = OpLoad %uint %a
OpStore %a %x
%new = OpLoad %uint %a
%s1 = OpIAdd %uint %old %new
%pb = OpAccessChain %ptr_f_v2 %st %u1
%bold = OpLoad %v2uint %pb
%bv = OpCompositeConstruct %v2uint %x %s1
OpStore %pb %bv
%pby = OpAccessChain %ptr_f_uint %st %u1 %u1
%by = OpLoad %uint %pby
%bold1 = OpCompositeExtract %uint %bold 1
%whole = OpLoad %St %st
%wa = OpCompositeExtract %uint %whole 0
%wbx = OpCompositeExtract %uint %whole 1 0
%t1 = OpIMul %uint %by %u3
%t2 = OpIMul %uint %bold1 %u5
%t3 = OpIMul %uint %wa %u7
%t4 = OpIMul %uint %wbx %u9
%t5 = OpIAdd %uint %s1 %t1
%t6 = OpIAdd %uint %t5 %t2
%t7 = OpIAdd %uint %t6 %t3
%r = OpIAdd %uint %t7 %t4
";
    let input: Vec<u32> = (0..16).map(|i| i * 1000 + 3).collect();
    let (m, out, _) = run_hand(&module_text(DECLS, vars, body), &input);
    let p = m.program().promotion;
    assert_eq!((p.variables, p.kept_in_memory), (2, 0), "{p:?}");
    for (x, got) in input.iter().zip(&out) {
        let s1 = 100 + x;
        assert_eq!(*got, s1 + s1 * 3 + 9 * 5 + 7 * 7 + x * 9, "input {x}");
    }
}

#[test]
fn escaping_pointers_stay_in_memory() {
    // %a and %b meet in OpCopyMemory (both escape); %c is indexed by a constant outside its
    // bounds (reported; not promoted); %d is indexed dynamically (not promoted).
    let vars = "%a = OpVariable %ptr_f_uint Function
%b = OpVariable %ptr_f_uint Function
%c = OpVariable %ptr_f_arr4 Function
%d = OpVariable %ptr_f_arr4 Function";
    let body = "
OpStore %a %x
OpCopyMemory %b %a
%bv = OpLoad %uint %b
%c5 = OpAccessChain %ptr_f_uint %c %u5
%cv = OpLoad %uint %c5
%k = OpBitwiseAnd %uint %x %u3
%dk = OpAccessChain %ptr_f_uint %d %k
OpStore %dk %x
%d0p = OpAccessChain %ptr_f_uint %d %u0
%d0 = OpLoad %uint %d0p
%t = OpIAdd %uint %bv %d0
%r = OpIAdd %uint %t %bv
";
    let input: Vec<u32> = (0..16).map(|i| i * 12 + 1).collect();
    let (m, out, report) = run_hand(&module_text(DECLS, vars, body), &input);
    let p = m.program().promotion;
    assert_eq!((p.variables, p.kept_in_memory), (0, 4), "{p:?}");
    for (x, got) in input.iter().zip(&out) {
        let d0 = if x & 3 == 0 { *x } else { 0 };
        assert_eq!(*got, 2 * x + d0, "input {x}");
    }
    let out_of_range = report
        .events
        .iter()
        .filter(|e| {
            matches!(
                e.kind,
                UbKind::IndexOutOfRange {
                    index: 5,
                    length: 4
                }
            )
        })
        .count();
    assert_eq!(out_of_range, 16, "{:?}", report.events);
}

#[test]
fn bench_gemm_variables_are_promoted() {
    // The int8 GEMM of `spvx bench` (glslang output): its six Function variables (col, row,
    // abase, bbase, acc, k) and gl_GlobalInvocationID must be registers, with nothing left in
    // private memory, or the benchmark loses its speed-up.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../bench/gemm_i8.spv");
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let m = CompiledModule::from_bytes(&bytes, "main", &CompileOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let p = m.program();
    assert_eq!(p.promotion.variables, 6, "{:?}", p.promotion);
    assert_eq!(p.promotion.kept_in_memory, 0, "{:?}", p.promotion);
    assert_eq!(p.promotion.builtins, 1, "{:?}", p.promotion);
    assert_eq!(p.private_bytes, 0);
    // Every load of a variable is used in its own block before any store to it.
    assert_eq!(p.promotion.aliased_loads, 14, "{:?}", p.promotion);
}
