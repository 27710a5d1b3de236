//! Control flow under divergence: loops with lane-dependent trip counts, if/else inside loops,
//! phis (including a swap, which needs a parallel copy), switches, function calls with early
//! returns, and reconvergence after a divergent loop (a workgroup barrier after it must see
//! every lane together). References are computed in the tests from the programs' meaning.

mod support;
use spvx_exec::RunConfig;
use support::{compile, eval, kernel, run_words};

const LOOP: &str = r#"
OpBranch %header
%header = OpLabel
%k = OpPhi %uint %u0 %entry %k1 %cont
%s = OpPhi %uint %u0 %entry %s1 %cont
%c = OpULessThan %bool %k %x
OpLoopMerge %merge %cont None
OpBranchConditional %c %body %merge
%body = OpLabel
%odd = OpBitwiseAnd %uint %k %u1
%isodd = OpIEqual %bool %odd %u1
OpSelectionMerge %join None
OpBranchConditional %isodd %then %else
%then = OpLabel
%t = OpIMul %uint %k %u3
OpBranch %join
%else = OpLabel
%e = OpIAdd %uint %k %u1
OpBranch %join
%join = OpLabel
%v = OpPhi %uint %t %then %e %else
OpBranch %cont
%cont = OpLabel
%s1 = OpIAdd %uint %s %v
%k1 = OpIAdd %uint %k %u1
OpBranch %header
%merge = OpLabel
%r = OpCopyObject %uint %s
"#;

fn loop_reference(x: u32) -> u32 {
    (0..x).map(|k| if k % 2 == 1 { k * 3 } else { k + 1 }).sum()
}

#[test]
fn divergent_loop_with_if_else() {
    let input: Vec<u32> = (0..70).map(|i| (i * 7 + 3) % 23).collect();
    let out = eval("", LOOP, &input);
    for (k, &x) in input.iter().enumerate() {
        assert_eq!(out[k], loop_reference(x), "trip count {x}");
    }
}

#[test]
fn phi_swap_is_a_parallel_copy() {
    // (a, b) = (b, a) x times starting from (5, 9): a = 9 when x is odd.
    let body = r#"
%u5 = OpCopyObject %uint %u4
OpBranch %header
%header = OpLabel
%k = OpPhi %uint %u0 %entry %k1 %header_cont
%a = OpPhi %uint %five %entry %b %header_cont
%b = OpPhi %uint %nine %entry %a %header_cont
%c = OpULessThan %bool %k %x
OpLoopMerge %merge %header_cont None
OpBranchConditional %c %header_cont %merge
%header_cont = OpLabel
%k1 = OpIAdd %uint %k %u1
OpBranch %header
%merge = OpLabel
%r = OpCopyObject %uint %a
"#;
    let decls = "%five = OpConstant %uint 5\n%nine = OpConstant %uint 9\n";
    let input: Vec<u32> = (0..20).collect();
    let out = eval(decls, body, &input);
    for (k, &x) in input.iter().enumerate() {
        assert_eq!(out[k], if x % 2 == 1 { 9 } else { 5 }, "x = {x}");
    }
}

#[test]
fn switch_with_default() {
    let body = r#"
%m = OpUMod %uint %x %five
OpSelectionMerge %done None
OpSwitch %m %def 0 %c0 1 %c1 3 %c3
%c0 = OpLabel
OpBranch %done
%c1 = OpLabel
OpBranch %done
%c3 = OpLabel
OpBranch %done
%def = OpLabel
OpBranch %done
%done = OpLabel
%r = OpPhi %uint %ten %c0 %twenty %c1 %forty %c3 %nn %def
"#;
    let decls = "%five = OpConstant %uint 5\n%ten = OpConstant %uint 10\n%twenty = OpConstant %uint 20\n%forty = OpConstant %uint 40\n%nn = OpConstant %uint 99\n";
    let input: Vec<u32> = (0..40).map(|i| i * 3 + 1).collect();
    let out = eval(decls, body, &input);
    for (k, &x) in input.iter().enumerate() {
        let want = match x % 5 {
            0 => 10,
            1 => 20,
            3 => 40,
            _ => 99,
        };
        assert_eq!(out[k], want);
    }
}

#[test]
fn function_calls_with_early_return_in_divergent_branches() {
    // f(a, b) = a > b ? a - b : a * b + 1; called only for odd x, with (x, 10).
    let text = kernel(
        16,
        "%fab = OpTypeFunction %uint %uint %uint\n%ten = OpConstant %uint 10\n%u77 = OpConstant %uint 77\n",
        r#"
%odd = OpBitwiseAnd %uint %x %u1
%isodd = OpIEqual %bool %odd %u1
OpSelectionMerge %join None
OpBranchConditional %isodd %call %join
%call = OpLabel
%fx = OpFunctionCall %uint %f %x %ten
OpBranch %join
%join = OpLabel
%r = OpPhi %uint %fx %call %u77 %entry
"#,
    ) + r#"
%f = OpFunction %uint None %fab
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%fe = OpLabel
%gt = OpUGreaterThan %bool %a %b
OpSelectionMerge %fm None
OpBranchConditional %gt %early %late
%early = OpLabel
%d = OpISub %uint %a %b
OpReturnValue %d
%late = OpLabel
%p = OpIMul %uint %a %b
%q = OpIAdd %uint %p %u1
OpReturnValue %q
%fm = OpLabel
OpUnreachable
OpFunctionEnd
"#;
    let m = compile(&text).unwrap_or_else(|e| panic!("{e}"));
    let input: Vec<u32> = (0..32).collect();
    let (out, report) =
        run_words(&m, &input, 32, 2, &RunConfig::default()).unwrap_or_else(|e| panic!("{e}"));
    for (k, &x) in input.iter().enumerate() {
        let want = if x % 2 == 0 {
            77
        } else if x > 10 {
            x - 10
        } else {
            x * 10 + 1
        };
        assert_eq!(out[k], want, "x = {x}");
    }
    assert_eq!(report.total_events, 0);
}

#[test]
fn lanes_reconverge_after_a_divergent_loop() {
    // A workgroup barrier right after the loop: every lane of the subgroup must reach it
    // together (no NonUniformBarrier event, no deadlock), and the loop results are right.
    let body = format!("{LOOP}%wg = OpConstant %uint 2\n");
    let body = body.replace(
        "%r = OpCopyObject %uint %s\n%wg = OpConstant %uint 2\n",
        "OpControlBarrier %u2 %u2 %sem\n%r = OpCopyObject %uint %s\n",
    );
    let decls = "%sem = OpConstant %uint 264\n";
    let text = kernel(32, decls, &body);
    let m = compile(&text).unwrap_or_else(|e| panic!("{e}"));
    let input: Vec<u32> = (0..64).map(|i| (i * 5) % 17).collect();
    let cfg = RunConfig {
        subgroup_size: 8,
        ..RunConfig::default()
    };
    let (out, report) = run_words(&m, &input, 64, 2, &cfg).unwrap_or_else(|e| panic!("{e}"));
    for (k, &x) in input.iter().enumerate() {
        assert_eq!(out[k], loop_reference(x));
    }
    assert_eq!(report.total_events, 0, "{:?}", report.events);
}
