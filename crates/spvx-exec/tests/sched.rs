//! The scheduler and the lane loops under every kind of mask: uniform and divergent branches,
//! nested loops with divergent exits, switches with divergent targets and a fall-through,
//! early returns inside loops (in a callee and in the entry point), and arithmetic whose lanes
//! leave a loop one by one (full, dense and sparse masks; a lane that left must keep its
//! values). Subgroup operations (ballot, reduction) after each construct give values that are
//! only right if the lanes reconverged where the min-PC rule of `exec::control` says. Every
//! expected value is computed in the test from the program's meaning.

mod support;
use spvx_exec::{RunConfig, UbKind};
use support::{compile, run_words};

const CAPS: &str = "OpCapability Shader\nOpCapability GroupNonUniform\nOpCapability GroupNonUniformArithmetic\nOpCapability GroupNonUniformBallot\n";

/// Constants the bodies use besides those of `support::HEAD`.
const DECLS: &str = "%sg = OpConstant %uint 3
%ptr_f_uint = OpTypePointer Function %uint
%v4uint = OpTypeVector %uint 4
%true = OpConstantTrue %bool
%u5 = OpConstant %uint 5
%u7 = OpConstant %uint 7
%u8 = OpConstant %uint 8
%u16 = OpConstant %uint 16
%u24 = OpConstant %uint 24
%u100 = OpConstant %uint 100
%u1000 = OpConstant %uint 1000
%u2000 = OpConstant %uint 2000
";

/// Runs `kernel(local, DECLS + decls, body)` (plus `functions` after `main`, and a Function
/// variable `%var` of `uint` in `main`) on subgroups of `sg` lanes over `input`, with
/// `invocations` invocations (and output words).
fn run(
    local: u32,
    sg: u32,
    decls: &str,
    body: &str,
    functions: &str,
    input: &[u32],
    invocations: usize,
) -> Vec<u32> {
    let text = support::kernel(local, &format!("{DECLS}{decls}"), body)
        .replacen("OpCapability Shader\n", CAPS, 1)
        .replacen(
            "%entry = OpLabel\n",
            "%entry = OpLabel\n%var = OpVariable %ptr_f_uint Function\n",
            1,
        )
        + functions;
    let m = compile(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let cfg = RunConfig {
        subgroup_size: sg,
        ..RunConfig::default()
    };
    let groups = invocations.div_ceil(local as usize) as u32;
    let (out, report) =
        run_words(&m, input, invocations, groups, &cfg).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(report.total_events, 0, "{:?}", report.events);
    out
}

fn input(n: usize) -> Vec<u32> {
    (0..n as u32).map(|i| (i * 37 + 11) % 50).collect()
}

/// The lanes of subgroup `s` (size `sg`) for which `pred` holds, as a ballot word.
fn ballot(x: &[u32], s: usize, sg: usize, pred: impl Fn(u32) -> bool) -> u32 {
    (0..sg)
        .filter(|&k| pred(x[s * sg + k]))
        .fold(0, |b, k| b | 1 << k)
}

#[test]
fn uniform_branch_keeps_the_subgroup_together_divergent_one_splits_it() {
    // First branch: the condition is the subgroup index's parity (uniform in each subgroup of
    // 8), so a reduction inside sees all 8 lanes. Second: odd x (divergent): each side's
    // reduction sees only its lanes; after the merge, all 8 again.
    let body = r#"
%q = OpUDiv %uint %i %u8
%qo = OpBitwiseAnd %uint %q %u1
%uni = OpIEqual %bool %qo %u1
OpSelectionMerge %j1 None
OpBranchConditional %uni %t1 %e1
%t1 = OpLabel
%s1 = OpGroupNonUniformIAdd %uint %sg Reduce %x
OpBranch %j1
%e1 = OpLabel
%s2 = OpGroupNonUniformUMax %uint %sg Reduce %x
OpBranch %j1
%j1 = OpLabel
%a = OpPhi %uint %s1 %t1 %s2 %e1
%xo = OpBitwiseAnd %uint %x %u1
%div = OpIEqual %bool %xo %u1
OpSelectionMerge %j2 None
OpBranchConditional %div %t2 %e2
%t2 = OpLabel
%c1 = OpGroupNonUniformIAdd %uint %sg Reduce %u1
OpBranch %j2
%e2 = OpLabel
%c2 = OpGroupNonUniformIAdd %uint %sg Reduce %u2
OpBranch %j2
%j2 = OpLabel
%b = OpPhi %uint %c1 %t2 %c2 %e2
%all = OpGroupNonUniformIAdd %uint %sg Reduce %u1
%b16 = OpShiftLeftLogical %uint %b %u16
%all24 = OpShiftLeftLogical %uint %all %u24
%ab = OpBitwiseOr %uint %a %b16
%r = OpBitwiseOr %uint %ab %all24
"#;
    let x = input(64);
    let out = run(32, 8, "", body, "", &x, 64);
    for i in 0..64 {
        let s = i / 8 * 8;
        let sub = &x[s..s + 8];
        let a = if (i / 8) % 2 == 1 {
            sub.iter().sum::<u32>()
        } else {
            *sub.iter().max().unwrap_or(&0)
        };
        let odd = sub.iter().filter(|v| *v % 2 == 1).count() as u32;
        let b = if x[i] % 2 == 1 { odd } else { 2 * (8 - odd) };
        assert_eq!(out[i], a | b << 16 | 8 << 24, "invocation {i}");
    }
}

#[test]
fn nested_loops_with_divergent_exits_reconverge_after_the_outer_loop() {
    // for i < x % 5 { for j < (x + i) % 4 { t = i*j + x; acc += t; if t % 3 == 2 break } }
    // then a reduction of acc and a ballot of all lanes after the outer loop.
    let body = r#"
%n = OpUMod %uint %x %u5
OpBranch %oh
%oh = OpLabel
%oi = OpPhi %uint %u0 %entry %oi1 %oc
%acc = OpPhi %uint %u0 %entry %acc2 %oc
%more = OpULessThan %bool %oi %n
OpLoopMerge %om %oc None
OpBranchConditional %more %ob %om
%ob = OpLabel
%xi = OpIAdd %uint %x %oi
%m = OpUMod %uint %xi %u4
OpBranch %ih
%ih = OpLabel
%j = OpPhi %uint %u0 %ob %j1 %ic
%acc1 = OpPhi %uint %acc %ob %accn %ic
%jmore = OpULessThan %bool %j %m
OpLoopMerge %im %ic None
OpBranchConditional %jmore %ib %im
%ib = OpLabel
%ij = OpIMul %uint %oi %j
%t = OpIAdd %uint %ij %x
%tm = OpUMod %uint %t %u3
%brk = OpIEqual %bool %tm %u2
%accn = OpIAdd %uint %acc1 %t
OpBranchConditional %brk %im %ic
%ic = OpLabel
%j1 = OpIAdd %uint %j %u1
OpBranch %ih
%im = OpLabel
%acc2 = OpPhi %uint %acc1 %ih %accn %ib
OpBranch %oc
%oc = OpLabel
%oi1 = OpIAdd %uint %oi %u1
OpBranch %oh
%om = OpLabel
%bl = OpGroupNonUniformBallot %v4uint %sg %true
%bl0 = OpCompositeExtract %uint %bl 0
%sum = OpGroupNonUniformIAdd %uint %sg Reduce %acc
%bl16 = OpShiftLeftLogical %uint %bl0 %u16
%r = OpBitwiseOr %uint %sum %bl16
"#;
    let x = input(64);
    let acc = |x: u32| {
        let mut acc = 0;
        for i in 0..x % 5 {
            for j in 0..(x + i) % 4 {
                let t = i * j + x;
                acc += t;
                if t % 3 == 2 {
                    break;
                }
            }
        }
        acc
    };
    let out = run(64, 8, "", body, "", &x, 64);
    for (i, got) in out.iter().enumerate() {
        let s = i / 8 * 8;
        let sum: u32 = x[s..s + 8].iter().map(|v| acc(*v)).sum();
        assert!(sum < 1 << 16);
        assert_eq!(*got, sum | 0xff << 16, "invocation {i}");
    }
}

#[test]
fn switch_with_divergent_targets_and_a_fall_through() {
    // x % 4: 0 -> A, which falls through into B; 1, 2 -> B; 3 -> default D. B is after A in
    // the block order, so A's lanes wait there for B's own: a ballot in B sees both.
    let body = r#"
%sel = OpUMod %uint %x %u4
OpSelectionMerge %sm None
OpSwitch %sel %cd 0 %ca 1 %cb 2 %cb
%ca = OpLabel
%ba = OpGroupNonUniformBallot %v4uint %sg %true
%va = OpCompositeExtract %uint %ba 0
OpBranch %cb
%cb = OpLabel
%pv = OpPhi %uint %va %ca %u0 %entry
%bb = OpGroupNonUniformBallot %v4uint %sg %true
%vb = OpCompositeExtract %uint %bb 0
%vb8 = OpShiftLeftLogical %uint %vb %u8
%rb = OpBitwiseOr %uint %pv %vb8
OpBranch %sm
%cd = OpLabel
%bd = OpGroupNonUniformBallot %v4uint %sg %true
%vd = OpCompositeExtract %uint %bd 0
%rd = OpShiftLeftLogical %uint %vd %u16
OpBranch %sm
%sm = OpLabel
%r = OpPhi %uint %rb %cb %rd %cd
"#;
    let x: Vec<u32> = (0..64u32).map(|i| (i * 13 + i / 8) % 11).collect();
    let out = run(32, 8, "", body, "", &x, 64);
    for i in 0..64 {
        let s = i / 8;
        let a = ballot(&x, s, 8, |v| v % 4 == 0);
        let b = ballot(&x, s, 8, |v| v % 4 == 1 || v % 4 == 2);
        let d = ballot(&x, s, 8, |v| v % 4 == 3);
        let want = match x[i] % 4 {
            0 => a | (a | b) << 8,
            1 | 2 => (a | b) << 8,
            _ => d << 16,
        };
        assert_eq!(out[i], want, "invocation {i}");
    }
}

#[test]
fn early_return_inside_a_loop_of_a_callee() {
    // f(a) = the first k < 8 with k*k > a (returned from inside the loop), else 100; called
    // for odd x only. After the call, a reduction over the whole subgroup.
    let body = r#"
%xo = OpBitwiseAnd %uint %x %u1
%odd = OpIEqual %bool %xo %u1
OpSelectionMerge %j None
OpBranchConditional %odd %call %j
%call = OpLabel
%fx = OpFunctionCall %uint %f %x
OpBranch %j
%j = OpLabel
%v = OpPhi %uint %fx %call %u0 %entry
%sum = OpGroupNonUniformIAdd %uint %sg Reduce %v
%s16 = OpShiftLeftLogical %uint %sum %u16
%r = OpBitwiseOr %uint %v %s16
"#;
    let functions = r#"
%f = OpFunction %uint None %fu
%a = OpFunctionParameter %uint
%fe = OpLabel
OpBranch %fh
%fh = OpLabel
%k = OpPhi %uint %u0 %fe %k1 %fc
OpLoopMerge %fm %fc None
OpBranch %fb
%fb = OpLabel
%kk = OpIMul %uint %k %k
%gt = OpUGreaterThan %bool %kk %a
OpSelectionMerge %fs None
OpBranchConditional %gt %ret %fs
%ret = OpLabel
OpReturnValue %k
%fs = OpLabel
OpBranch %fc
%fc = OpLabel
%k1 = OpIAdd %uint %k %u1
%lt = OpULessThan %bool %k1 %u8
OpBranchConditional %lt %fh %fm
%fm = OpLabel
OpReturnValue %u100
OpFunctionEnd
"#;
    let decls = "%fu = OpTypeFunction %uint %uint\n";
    let x: Vec<u32> = (0..64u32).map(|i| (i * 29 + 3) % 60).collect();
    let f = |a: u32| (0..8).find(|k| k * k > a).unwrap_or(100);
    let v = |a: u32| if a % 2 == 1 { f(a) } else { 0 };
    let out = run(64, 16, decls, body, functions, &x, 64);
    for i in 0..64 {
        let s = i / 16 * 16;
        let sum: u32 = x[s..s + 16].iter().map(|a| v(*a)).sum();
        assert_eq!(out[i], v(x[i]) | sum << 16, "invocation {i}");
    }
}

#[test]
fn early_return_inside_a_loop_of_the_entry_point() {
    // Lanes store 1000 + k and return at the first k < 5 with (x + k) % 7 == 0; the others
    // leave the loop and store 2000 + the number of lanes of their subgroup still running.
    let body = r#"
OpBranch %h
%h = OpLabel
%k = OpPhi %uint %u0 %entry %k1 %c
%lt = OpULessThan %bool %k %u5
OpLoopMerge %m %c None
OpBranchConditional %lt %b %m
%b = OpLabel
%xk = OpIAdd %uint %x %k
%md = OpUMod %uint %xk %u7
%z = OpIEqual %bool %md %u0
OpSelectionMerge %s None
OpBranchConditional %z %early %s
%early = OpLabel
%ek = OpIAdd %uint %k %u1000
%pe = OpAccessChain %ptr_sb_uint %out %u0 %i
OpStore %pe %ek
OpReturn
%s = OpLabel
OpBranch %c
%c = OpLabel
%k1 = OpIAdd %uint %k %u1
OpBranch %h
%m = OpLabel
%alive = OpGroupNonUniformIAdd %uint %sg Reduce %u1
%r = OpIAdd %uint %alive %u2000
"#;
    let x = input(64);
    let first = |x: u32| (0..5).find(|k| (x + k).is_multiple_of(7));
    let out = run(32, 8, "", body, "", &x, 64);
    for i in 0..64 {
        let s = i / 8 * 8;
        let staying = x[s..s + 8].iter().filter(|v| first(**v).is_none()).count() as u32;
        let want = match first(x[i]) {
            Some(k) => 1000 + k,
            None => 2000 + staying,
        };
        assert_eq!(out[i], want, "invocation {i}");
    }
}

/// A 32-bit binary operation written as SPIR-V (`%v = OP %a %b` defining a `uint`, using
/// `%vb` for a `bool` result) and its meaning.
struct BinCase {
    spirv: &'static str,
    reference: fn(u32, u32) -> u32,
}

const fn case(spirv: &'static str, reference: fn(u32, u32) -> u32) -> BinCase {
    BinCase { spirv, reference }
}

fn s(v: u32) -> i32 {
    v as i32
}

const BIN_CASES: &[BinCase] = &[
    case("%v = OpIAdd %uint %a %b", |a, b| a.wrapping_add(b)),
    case("%v = OpISub %uint %a %b", |a, b| a.wrapping_sub(b)),
    case("%v = OpIMul %uint %a %b", |a, b| a.wrapping_mul(b)),
    case("%v = OpBitwiseAnd %uint %a %b", |a, b| a & b),
    case("%v = OpBitwiseOr %uint %a %b", |a, b| a | b),
    case("%v = OpBitwiseXor %uint %a %b", |a, b| a ^ b),
    case(
        "%sh = OpBitwiseAnd %uint %b %u31\n%v = OpShiftLeftLogical %uint %a %sh",
        |a, b| a << (b & 31),
    ),
    case(
        "%sh = OpBitwiseAnd %uint %b %u31\n%v = OpShiftRightLogical %uint %a %sh",
        |a, b| a >> (b & 31),
    ),
    case(
        "%sh = OpBitwiseAnd %uint %b %u31\n%v = OpShiftRightArithmetic %uint %a %sh",
        |a, b| (s(a) >> (b & 31)) as u32,
    ),
    case("%vb = OpIEqual %bool %a %b", |a, b| (a == b) as u32),
    case("%vb = OpINotEqual %bool %a %b", |a, b| (a != b) as u32),
    case("%vb = OpULessThan %bool %a %b", |a, b| (a < b) as u32),
    case("%vb = OpULessThanEqual %bool %a %b", |a, b| (a <= b) as u32),
    case("%vb = OpUGreaterThan %bool %a %b", |a, b| (a > b) as u32),
    case("%vb = OpUGreaterThanEqual %bool %a %b", |a, b| {
        (a >= b) as u32
    }),
    case("%vb = OpSLessThan %bool %a %b", |a, b| (s(a) < s(b)) as u32),
    case("%vb = OpSLessThanEqual %bool %a %b", |a, b| {
        (s(a) <= s(b)) as u32
    }),
    case("%vb = OpSGreaterThan %bool %a %b", |a, b| {
        (s(a) > s(b)) as u32
    }),
    case("%vb = OpSGreaterThanEqual %bool %a %b", |a, b| {
        (s(a) >= s(b)) as u32
    }),
    case("%v = OpSNegate %uint %a", |a, _| a.wrapping_neg()),
    case("%v = OpNot %uint %a", |a, _| !a),
    case(
        "%p = OpULessThan %bool %a %b\n%v = OpSelect %uint %p %b %a",
        |a, b| if a < b { b } else { a },
    ),
    case(
        "%p = OpULessThan %bool %a %b\n%q = OpSLessThan %bool %a %b\n%vb = OpLogicalAnd %bool %p %q",
        |a, b| (a < b && s(a) < s(b)) as u32,
    ),
    case(
        "%p = OpULessThan %bool %a %b\n%q = OpSLessThan %bool %a %b\n%vb = OpLogicalNotEqual %bool %p %q",
        |a, b| ((a < b) != (s(a) < s(b))) as u32,
    ),
    case(
        "%p = OpULessThan %bool %a %b\n%vb = OpLogicalNot %bool %p",
        |a, b| (a >= b) as u32,
    ),
];

#[test]
fn arithmetic_while_lanes_leave_a_loop_one_by_one() {
    // The loop header computes v = OP(a, b) with a = x * (k + 1), b = y ^ (k * 0x9e3779b9)
    // for k = 0, 1, ...; lane i leaves after n_i = i % 37 iterations (so the header runs
    // under full, dense, then sparse masks) and stores the v of its last header: lanes that
    // left must keep theirs while the others go on.
    let x: Vec<u32> = (0..64u32)
        .map(|i| i.wrapping_mul(0x01000193) ^ (i << 27) ^ 0x8000_0005)
        .collect();
    let y: Vec<u32> = (0..64u32)
        .map(|i| i.wrapping_mul(0x2545_f491).rotate_left(i))
        .collect();
    let mut data = x.clone();
    data.extend(&y);
    let decls = "%u31 = OpConstant %uint 31\n%u37 = OpConstant %uint 37\n%u64 = OpConstant %uint 64\n%golden = OpConstant %uint 0x9e3779b9\n";
    for c in BIN_CASES {
        let result = if c.spirv.contains("%vb =") {
            "%v = OpSelect %uint %vb %u1 %u0"
        } else {
            ""
        };
        let body = format!(
            r#"
%iy = OpIAdd %uint %i %u64
%pyin = OpAccessChain %ptr_sb_uint %in %u0 %iy
%y = OpLoad %uint %pyin
%n = OpUMod %uint %i %u37
OpBranch %h
%h = OpLabel
%k = OpPhi %uint %u0 %entry %k1 %c
%k1 = OpIAdd %uint %k %u1
%a = OpIMul %uint %x %k1
%kg = OpIMul %uint %k %golden
%b = OpBitwiseXor %uint %y %kg
{}
{result}
%more = OpULessThan %bool %k %n
OpLoopMerge %m %c None
OpBranchConditional %more %c %m
%c = OpLabel
OpBranch %h
%m = OpLabel
%r = OpCopyObject %uint %v
"#,
            c.spirv
        );
        let out = run(64, 32, decls, &body, "", &data, 64);
        for i in 0..64usize {
            let k = i as u32 % 37;
            let a = x[i].wrapping_mul(k + 1);
            let b = y[i] ^ k.wrapping_mul(0x9e37_79b9);
            assert_eq!(out[i], (c.reference)(a, b), "{} at invocation {i}", c.spirv);
        }
    }
}

#[test]
fn stores_to_a_function_variable_while_lanes_leave_a_loop() {
    // for k in 0..=n (n = i % 37): var = k even ? x * (k + 1) : y ^ k. A Function variable
    // (promoted to registers by the compiler, where its stores are masked copies) is not in
    // SSA form: a lane that left after an odd k must keep y ^ k although its register for
    // the even side still holds an older value.
    let x: Vec<u32> = (0..64u32)
        .map(|i| i.wrapping_mul(0x9e37_79b9) | 1)
        .collect();
    let y: Vec<u32> = (0..64u32)
        .map(|i| i.wrapping_mul(0x85eb_ca6b) ^ 0x5555)
        .collect();
    let mut data = x.clone();
    data.extend(&y);
    let decls = "%u37 = OpConstant %uint 37\n%u64 = OpConstant %uint 64\n";
    let body = r#"
%iy = OpIAdd %uint %i %u64
%pyin = OpAccessChain %ptr_sb_uint %in %u0 %iy
%y = OpLoad %uint %pyin
%n = OpUMod %uint %i %u37
OpStore %var %u0
OpBranch %h
%h = OpLabel
%k = OpPhi %uint %u0 %entry %k1 %c
%k1 = OpIAdd %uint %k %u1
%ko = OpBitwiseAnd %uint %k %u1
%even = OpIEqual %bool %ko %u0
OpLoopMerge %m %c None
OpBranch %body
%body = OpLabel
OpSelectionMerge %j None
OpBranchConditional %even %te %to
%te = OpLabel
%a = OpIMul %uint %x %k1
OpStore %var %a
OpBranch %j
%to = OpLabel
%b = OpBitwiseXor %uint %y %k
OpStore %var %b
OpBranch %j
%j = OpLabel
%more = OpULessThan %bool %k %n
OpBranchConditional %more %c %m
%c = OpLabel
OpBranch %h
%m = OpLabel
%r = OpLoad %uint %var
"#;
    let out = run(64, 32, decls, body, "", &data, 64);
    for i in 0..64usize {
        let k = i as u32 % 37;
        let want = if k.is_multiple_of(2) {
            x[i].wrapping_mul(k + 1)
        } else {
            y[i] ^ k
        };
        assert_eq!(out[i], want, "invocation {i}");
    }
}

#[test]
fn shifts_past_the_width_under_divergent_masks() {
    // Odd x only: a << s, a >> s (logical and arithmetic) with s = x % 40, so some active
    // lanes shift by 32..39: the documented values (0; copies of the sign bit) and one
    // ShiftOutOfRange event per such lane and shift, naming the lane's invocation.
    let body = r#"
%s = OpUMod %uint %x %u40
%a = OpBitwiseXor %uint %x %sign
%xo = OpBitwiseAnd %uint %x %u1
%odd = OpIEqual %bool %xo %u1
OpSelectionMerge %j None
OpBranchConditional %odd %t %j
%t = OpLabel
%l = OpShiftLeftLogical %uint %a %s
%rl = OpShiftRightLogical %uint %a %s
%ra = OpShiftRightArithmetic %uint %a %s
%lr = OpBitwiseXor %uint %l %rl
%v = OpBitwiseXor %uint %lr %ra
OpBranch %j
%j = OpLabel
%r = OpPhi %uint %v %t %u7 %entry
"#;
    let decls = format!("{DECLS}%u40 = OpConstant %uint 40\n%sign = OpConstant %uint 0x80000000\n");
    let text = support::kernel(32, &decls, body).replacen("OpCapability Shader\n", CAPS, 1);
    let m = compile(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let x: Vec<u32> = (0..64u32).map(|i| i * 7 + i / 3).collect();
    let cfg = RunConfig {
        max_events: 1000,
        ..RunConfig::default()
    };
    let (out, report) = run_words(&m, &x, 64, 2, &cfg).unwrap_or_else(|e| panic!("{e}"));
    let mut far = Vec::new();
    for (i, &v) in x.iter().enumerate() {
        let want = if v % 2 == 1 {
            let (a, s) = (v ^ 0x8000_0000, v % 40);
            if s >= 32 {
                far.push(i as u32);
                if a >> 31 == 1 { u32::MAX } else { 0 }
            } else {
                (a << s) ^ (a >> s) ^ ((a as i32) >> s) as u32
            }
        } else {
            7
        };
        assert_eq!(out[i], want, "invocation {i}");
    }
    assert!(!far.is_empty());
    assert_eq!(report.total_events, 3 * far.len() as u64);
    let mut reported: Vec<u32> = report
        .events
        .iter()
        .filter(|e| matches!(e.kind, UbKind::ShiftOutOfRange { bits: 32, .. }))
        .map(|e| e.invocation[0])
        .collect();
    reported.sort();
    let mut expected: Vec<u32> = far.iter().flat_map(|i| [*i; 3]).collect();
    expected.sort();
    assert_eq!(reported, expected);
}

#[test]
fn undefined_shuffle_component_is_zero_under_a_divergent_mask() {
    // OpVectorShuffle component 0xFFFFFFFF (undefined in SPIR-V; spvx gives 0), odd x only.
    let body = r#"
%x1 = OpIAdd %uint %x %u1
%a = OpCompositeConstruct %v2uint %x %x1
%xo = OpBitwiseAnd %uint %x %u1
%odd = OpIEqual %bool %xo %u1
OpSelectionMerge %j None
OpBranchConditional %odd %t %j
%t = OpLabel
%v = OpVectorShuffle %v2uint %a %a 1 0xFFFFFFFF
%v0 = OpCompositeExtract %uint %v 0
%v1 = OpCompositeExtract %uint %v 1
%s = OpIAdd %uint %v0 %v1
OpBranch %j
%j = OpLabel
%r = OpPhi %uint %s %t %u7 %entry
"#;
    let x: Vec<u32> = (0..64u32).map(|i| i * 5 + 0x1000).collect();
    let out = run(32, 32, "%v2uint = OpTypeVector %uint 2\n", body, "", &x, 64);
    for (i, got) in out.iter().enumerate() {
        let want = if x[i] % 2 == 1 { x[i] + 1 } else { 7 };
        assert_eq!(*got, want, "invocation {i}");
    }
}
