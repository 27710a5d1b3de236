//! The configurable limits (`spvx_val::Limits`): for each, a module exactly at a lowered limit
//! validates and one just over it fails with a `Limit` error naming the amount; spirv-val
//! 2025.5, given the same lowered limit through its `--max-*` option, agrees on both verdicts
//! (the independent reference for how each amount is measured). The call depth, spvx's own
//! limit, is checked against hand-counted chains. Defaults: SPIR-V §2.17.

mod support;

use spvx_val::{ErrorKind, Limits, Options, TargetEnv, errors};
use std::process::Command;

const HEAD: &str = "OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main \"main\"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%true = OpConstantTrue %bool
%pfu = OpTypePointer Function %uint
%ppu = OpTypePointer Private %uint
";

/// `HEAD`, declarations, then `main` with `body` (after its first label).
fn module(decls: &str, body: &str, extra_functions: &str) -> String {
    format!(
        "{HEAD}{decls}%main = OpFunction %void None %fn\n%entry = OpLabel\n{body}OpReturn\nOpFunctionEnd\n{extra_functions}"
    )
}

fn struct_members(n: usize) -> String {
    let members = vec!["%uint"; n].join(" ");
    module(&format!("%s = OpTypeStruct {members}\n"), "", "")
}

fn struct_depth(n: usize) -> String {
    // Each structure holds the previous one (alternately with another member); an array of
    // structures in between does not count (spirv-val 2025.5), so one is added at the top.
    let mut d = String::from("%s1 = OpTypeStruct %uint\n");
    for k in 2..=n {
        if k % 2 == 0 {
            d += &format!("%s{k} = OpTypeStruct %s{}\n", k - 1);
        } else {
            d += &format!("%s{k} = OpTypeStruct %uint %s{}\n", k - 1);
        }
    }
    d += &format!("%top_arr = OpTypeArray %s{n} %u2\n%top = OpTypeStruct %top_arr\n");
    module(&d, "", "")
}

fn local_variables(n: usize) -> String {
    let body: String = (0..n)
        .map(|k| format!("%v{k} = OpVariable %pfu Function\n"))
        .collect();
    module("", &body, "")
}

fn global_variables(n: usize) -> String {
    let d: String = (0..n)
        .map(|k| format!("%g{k} = OpVariable %ppu Private\n"))
        .collect();
    module(&d, "", "")
}

fn switch_branches(n: usize) -> String {
    let cases: String = (0..n).map(|k| format!(" {} %m", k + 1)).collect();
    module(
        "",
        &format!("OpSelectionMerge %m None\nOpSwitch %u0 %m{cases}\n%m = OpLabel\n"),
        "",
    )
}

fn function_args(n: usize) -> String {
    let params = vec!["%uint"; n].join(" ");
    let ps: String = (0..n)
        .map(|k| format!("%p{k} = OpFunctionParameter %uint\n"))
        .collect();
    let args = vec!["%u1"; n].join(" ");
    module(
        &format!("%fa = OpTypeFunction %void {params}\n"),
        &format!("%c = OpFunctionCall %void %f {args}\n"),
        &format!("%f = OpFunction %void None %fa\n{ps}%fl = OpLabel\nOpReturn\nOpFunctionEnd\n"),
    )
}

fn access_chain_indexes(n: usize) -> String {
    let mut d = String::from("%t0 = OpTypeArray %uint %u2\n");
    for k in 1..n {
        d += &format!("%t{k} = OpTypeArray %t{} %u2\n", k - 1);
    }
    d += &format!("%pt = OpTypePointer Function %t{}\n", n - 1);
    let idx = vec!["%u0"; n].join(" ");
    module(
        &d,
        &format!("%var = OpVariable %pt Function\n%p = OpAccessChain %pfu %var {idx}\n"),
        "",
    )
}

fn control_flow_nesting(n: usize) -> String {
    let mut body = String::new();
    for k in 0..n {
        body += &format!(
            "OpSelectionMerge %m{k} None\nOpBranchConditional %true %t{k} %m{k}\n%t{k} = OpLabel\n"
        );
    }
    for k in (0..n).rev() {
        body += &format!("OpBranch %m{k}\n%m{k} = OpLabel\n");
    }
    // A second, sequential construct does not add to the depth.
    body += "OpSelectionMerge %z None\nOpBranchConditional %true %zt %z\n%zt = OpLabel\nOpBranch %z\n%z = OpLabel\n";
    module("", &body, "")
}

/// main → c1 → … → cn (depth n).
fn call_chain(n: usize) -> String {
    let mut funcs = String::new();
    for k in 1..=n {
        let call = if k < n {
            format!("%r{k} = OpFunctionCall %void %c{}\n", k + 1)
        } else {
            String::new()
        };
        funcs += &format!(
            "%c{k} = OpFunction %void None %fn\n%l{k} = OpLabel\n{call}OpReturn\nOpFunctionEnd\n"
        );
    }
    module("", "%r0 = OpFunctionCall %void %c1\n", &funcs)
}

fn spvx(text: &str, limits: Limits) -> Vec<spvx_val::ValError> {
    let asm = spvx_spirv::asm::assemble(text, &spvx_spirv::asm::AsmOptions::default())
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    let insts: Vec<_> = asm.instructions().cloned().collect();
    let opts = Options {
        target_env: TargetEnv::parse("spv1.6").expect("env"),
        limits,
        ..Options::default()
    };
    errors(&asm.header, &insts, &opts)
}

/// spirv-val's verdict, with `--flag limit` when a flag is given.
fn oracle(dir: &std::path::Path, text: &str, flag: Option<&str>, limit: u32, tag: &str) -> bool {
    let scratch = spvx_testtools::temp_dir(&format!("limits-{tag}"));
    let tmp = scratch.path();
    let (src, bin) = (tmp.join("m.spvasm"), tmp.join("m.spv"));
    std::fs::write(&src, text).expect("write");
    let asm = Command::new(dir.join("spirv-as"))
        .args(["--target-env", "spv1.6"])
        .arg(&src)
        .arg("-o")
        .arg(&bin)
        .output()
        .expect("spirv-as");
    assert!(asm.status.success(), "spirv-as refused");
    let mut val = Command::new(dir.join("spirv-val"));
    val.args(["--target-env", "spv1.6"]);
    if let Some(flag) = flag {
        val.args([flag, &limit.to_string()]);
    }
    val.arg(&bin).status().expect("spirv-val").success()
}

/// (what, module of size n, set the limit, the limit tested, spirv-val's option for it).
/// spirv-val 2025.5 does not honour `--max-struct-depth` ("unrecognized option", though its
/// help lists it) nor `--max-switch-branches` (ignored): those two are tested at their
/// defaults, which spirv-val applies without an option.
type Case = (
    &'static str,
    fn(usize) -> String,
    fn(&mut Limits, u32),
    u32,
    Option<&'static str>,
);

const CASES: &[Case] = &[
    (
        "struct members",
        struct_members,
        |l, v| l.max_struct_members = v,
        5,
        Some("--max-struct-members"),
    ),
    (
        "struct depth",
        struct_depth,
        |l, v| l.max_struct_depth = v,
        255,
        None,
    ),
    (
        "local variables",
        local_variables,
        |l, v| l.max_local_variables = v,
        5,
        Some("--max-local-variables"),
    ),
    (
        "global variables",
        global_variables,
        |l, v| l.max_global_variables = v,
        5,
        Some("--max-global-variables"),
    ),
    (
        "switch branches",
        switch_branches,
        |l, v| l.max_switch_branches = v,
        16_383,
        None,
    ),
    (
        "function args",
        function_args,
        |l, v| l.max_function_args = v,
        5,
        Some("--max-function-args"),
    ),
    (
        "access chain indexes",
        access_chain_indexes,
        |l, v| l.max_access_chain_indexes = v,
        5,
        Some("--max-access-chain-indexes"),
    ),
    (
        "control-flow nesting",
        control_flow_nesting,
        |l, v| l.max_control_flow_nesting_depth = v,
        5,
        Some("--max-control-flow-nesting-depth"),
    ),
];

#[test]
fn each_limit_holds_at_its_value_and_fails_just_over_it() {
    let tools = support::tools_dir();
    let mut failures = Vec::new();
    for (what, make, set, limit, flag) in CASES {
        let limit = *limit;
        let mut limits = Limits::default();
        set(&mut limits, limit);
        for (n, want_ok) in [(limit as usize, true), (limit as usize + 1, false)] {
            let text = make(n);
            let errors = spvx(&text, limits);
            let ours_ok = errors.is_empty();
            let limit_error = errors.iter().any(|e| {
                matches!(&e.kind, ErrorKind::Limit(l) if l.found == n as u64 && l.limit == limit)
            });
            if ours_ok != want_ok || (!want_ok && !limit_error) {
                failures.push(format!(
                    "{what} n={n}: {:?}",
                    errors.iter().map(|e| e.to_string()).collect::<Vec<_>>()
                ));
            }
            if flag.is_some() {
                // A lowered limit: the defaults accept both sizes.
                let default_errors = spvx(&text, Limits::default());
                if !default_errors.is_empty() {
                    failures.push(format!(
                        "{what} n={n} under the defaults: {default_errors:?}"
                    ));
                }
            }
            if let Some(dir) = &tools {
                let theirs = oracle(dir, &text, *flag, limit, &what.replace(' ', "_"));
                if theirs != want_ok {
                    failures.push(format!(
                        "{what} n={n}: spirv-val {flag:?} {limit} says {theirs}"
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn call_depth_is_counted_along_the_longest_chain() {
    let limits = Limits {
        max_call_depth: 4,
        ..Limits::default()
    };
    // main → c1 → … → c4: depth 4 (the number of calls on the chain).
    assert!(spvx(&call_chain(4), limits).is_empty());
    let errors = spvx(&call_chain(5), limits);
    assert!(
        errors.iter().any(|e| e
            .to_string()
            .contains("static call depth of the entry point is 5, more than the limit 4")),
        "{errors:?}"
    );
    // The default (1,023) accepts a chain of 1,023 and refuses 1,024, without recursion on
    // the host stack.
    assert!(spvx(&call_chain(1023), Limits::default()).is_empty());
    assert_eq!(spvx(&call_chain(1024), Limits::default()).len(), 1);
}

#[test]
fn defaults_are_the_universal_limits() {
    let l = Limits::default();
    assert_eq!(
        (
            l.max_id_bound,
            l.max_struct_members,
            l.max_struct_depth,
            l.max_control_flow_nesting_depth,
            l.max_switch_branches,
            l.max_function_args,
            l.max_access_chain_indexes,
            l.max_local_variables,
            l.max_global_variables,
            l.max_call_depth,
        ),
        (
            4_194_303, 16_383, 255, 1023, 16_383, 255, 255, 524_287, 65_535, 1023
        )
    );
}
