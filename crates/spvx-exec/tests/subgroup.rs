//! Subgroup operations on subgroups of 8: reductions and scans (over all lanes and over the
//! lanes of a divergent branch), elect, broadcast, shuffles, ballot. Expected values are
//! computed in the test from the instructions' definitions.

mod support;
use spvx_exec::RunConfig;
use support::{compile, run_words};

const CAPS: &str = "OpCapability Shader\nOpCapability GroupNonUniform\nOpCapability GroupNonUniformArithmetic\nOpCapability GroupNonUniformBallot\nOpCapability GroupNonUniformShuffle\nOpCapability GroupNonUniformVote\nOpCapability GroupNonUniformShuffleRelative\n";

fn run(body: &str, input: &[u32]) -> Vec<u32> {
    let decls = "%sg = OpConstant %uint 3\n%v4uint = OpTypeVector %uint 4\n";
    let text = support::kernel(16, decls, body).replacen("OpCapability Shader\n", CAPS, 1);
    let m = compile(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let cfg = RunConfig {
        subgroup_size: 8,
        ..RunConfig::default()
    };
    let (out, report) = run_words(&m, input, input.len(), (input.len() / 16) as u32, &cfg)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.total_events, 0);
    out
}

fn input() -> Vec<u32> {
    (0..32u32).map(|i| (i * 37 + 11) % 50).collect()
}

#[test]
fn reductions_and_scans() {
    let x = input();
    let sum = run("%r = OpGroupNonUniformIAdd %uint %sg Reduce %x", &x);
    let inc = run("%r = OpGroupNonUniformIAdd %uint %sg InclusiveScan %x", &x);
    let exc = run("%r = OpGroupNonUniformUMax %uint %sg ExclusiveScan %x", &x);
    for i in 0..32 {
        let s = i / 8 * 8;
        assert_eq!(sum[i], x[s..s + 8].iter().sum::<u32>());
        assert_eq!(inc[i], x[s..=i].iter().sum::<u32>());
        assert_eq!(exc[i], x[s..i].iter().copied().max().unwrap_or(0));
    }
}

#[test]
fn reduction_in_a_divergent_branch_covers_the_branch_lanes() {
    let x = input();
    let body = r#"
%odd = OpBitwiseAnd %uint %x %u1
%isodd = OpIEqual %bool %odd %u1
OpSelectionMerge %j None
OpBranchConditional %isodd %t %j
%t = OpLabel
%s = OpGroupNonUniformIAdd %uint %sg Reduce %x
OpBranch %j
%j = OpLabel
%r = OpPhi %uint %s %t %u0 %entry
"#;
    let out = run(body, &x);
    for i in 0..32 {
        let s = i / 8 * 8;
        let want = if x[i] % 2 == 1 {
            x[s..s + 8].iter().filter(|v| *v % 2 == 1).sum()
        } else {
            0
        };
        assert_eq!(out[i], want, "lane {i}");
    }
}

#[test]
fn elect_broadcast_shuffle_ballot() {
    let x = input();
    let elect = run(
        "%e = OpGroupNonUniformElect %bool %sg\n%r = OpSelect %uint %e %u1 %u0",
        &x,
    );
    let first = run("%r = OpGroupNonUniformBroadcastFirst %uint %sg %x", &x);
    let bc = run("%r = OpGroupNonUniformBroadcast %uint %sg %x %u3", &x);
    let xor = run("%r = OpGroupNonUniformShuffleXor %uint %sg %x %u1", &x);
    let down = run("%r = OpGroupNonUniformShuffleDown %uint %sg %x %u2", &x);
    let ballot = run(
        "%odd = OpBitwiseAnd %uint %x %u1\n%p = OpIEqual %bool %odd %u1\n%b = OpGroupNonUniformBallot %v4uint %sg %p\n%r = OpCompositeExtract %uint %b 0",
        &x,
    );
    for i in 0..32 {
        let s = i / 8 * 8;
        assert_eq!(elect[i], (i % 8 == 0) as u32);
        assert_eq!(first[i], x[s]);
        assert_eq!(bc[i], x[s + 3]);
        assert_eq!(xor[i], x[s + ((i % 8) ^ 1)]);
        assert_eq!(down[i], if i % 8 + 2 < 8 { x[i + 2] } else { 0 });
        let bits: u32 = (0..8).filter(|k| x[s + k] % 2 == 1).map(|k| 1 << k).sum();
        assert_eq!(ballot[i], bits);
    }
}
