//! Ballot bit queries (BitCount Reduce/InclusiveScan/ExclusiveScan, BitExtract, FindLSB,
//! FindMSB), InverseBallot, the quad operations (QuadBroadcast, QuadSwap, QuadAll/AnyKHR),
//! RotateKHR and AllEqual on vectors and floats, in hand-written SPIR-V: full, partial and
//! divergent subgroups. Expected values are computed here from the masks each lane's subgroup
//! forms (popcounts and bit positions of known masks), never by the engine.

mod support;
use spvx_exec::RunConfig;
use support::{compile, run_words};

const CAPS: &str = "OpCapability Shader\nOpCapability GroupNonUniform\nOpCapability GroupNonUniformBallot\nOpCapability GroupNonUniformVote\nOpCapability GroupNonUniformQuad\n";

const DECLS: &str = "%sg = OpConstant %uint 3
%v4uint = OpTypeVector %uint 4
%u8 = OpConstant %uint 8
%u7 = OpConstant %uint 7
%u40 = OpConstant %uint 40
%u200 = OpConstant %uint 200
%c0 = OpConstant %uint 0xffff0f4c
%c1 = OpConstant %uint 0xffffffff
%c2 = OpConstant %uint 1
%c3 = OpConstant %uint 0x80000000
%wide = OpConstantComposite %v4uint %c0 %c1 %c2 %c3
%zero4 = OpConstantComposite %v4uint %u0 %u0 %u0 %u0
";

/// Runs `body` (defining `%r`) with workgroups of `local` invocations, subgroups of `sub`,
/// over `input` (one invocation per word; a multiple of `local`).
fn run_with(local: u32, sub: u32, caps: &str, body: &str, input: &[u32]) -> Vec<u32> {
    let text = support::kernel(local, DECLS, body).replacen("OpCapability Shader\n", caps, 1);
    let m = compile(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let cfg = RunConfig {
        subgroup_size: sub,
        ..RunConfig::default()
    };
    let groups = input.len() as u32 / local;
    let (out, report) =
        run_words(&m, input, input.len(), groups, &cfg).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.total_events, 0, "{:?}", report.events);
    out
}

fn run(body: &str, input: &[u32]) -> Vec<u32> {
    run_with(16, 8, CAPS, body, input)
}

fn input() -> Vec<u32> {
    (0..32u32).map(|i| (i * 37 + 11) % 50).collect()
}

/// For invocation `g` with workgroups of `local` and subgroups of `sub`: (its lane, the
/// global indices of its subgroup's invocations).
fn subgroup_of(g: usize, local: usize, sub: usize) -> (usize, Vec<usize>) {
    let wg = g / local * local;
    let li = g % local;
    let start = wg + li / sub * sub;
    let end = (start + sub).min(wg + local);
    (li % sub, (start..end).collect())
}

/// The ballot (as u64, lanes < 64) of `pred` over the subgroup of `g`.
fn ballot_of(g: usize, local: usize, sub: usize, pred: impl Fn(usize) -> bool) -> u64 {
    let (_, members) = subgroup_of(g, local, sub);
    members
        .iter()
        .enumerate()
        .filter(|(_, m)| pred(**m))
        .map(|(k, _)| 1u64 << k)
        .sum()
}

const BALLOT_ODD: &str = "%odd = OpBitwiseAnd %uint %x %u1
%p = OpIEqual %bool %odd %u1
%b = OpGroupNonUniformBallot %v4uint %sg %p
";

#[test]
fn ballot_bit_count_reduce_and_scans() {
    let x = input();
    let reduce = run(
        &format!("{BALLOT_ODD}%r = OpGroupNonUniformBallotBitCount %uint %sg Reduce %b"),
        &x,
    );
    let inc = run(
        &format!("{BALLOT_ODD}%r = OpGroupNonUniformBallotBitCount %uint %sg InclusiveScan %b"),
        &x,
    );
    let exc = run(
        &format!("{BALLOT_ODD}%r = OpGroupNonUniformBallotBitCount %uint %sg ExclusiveScan %b"),
        &x,
    );
    for g in 0..32 {
        let mask = ballot_of(g, 16, 8, |m| x[m] % 2 == 1);
        let lane = g % 8;
        assert_eq!(reduce[g], mask.count_ones(), "reduce {g}");
        let upto = (1u64 << (lane + 1)) - 1;
        assert_eq!(inc[g], (mask & upto).count_ones(), "inclusive {g}");
        assert_eq!(exc[g], (mask & (upto >> 1)).count_ones(), "exclusive {g}");
    }
}

#[test]
fn ballot_find_lsb_msb_and_bit_extract() {
    let x = input();
    let lsb = run(
        &format!("{BALLOT_ODD}%r = OpGroupNonUniformBallotFindLSB %uint %sg %b"),
        &x,
    );
    let msb = run(
        &format!("{BALLOT_ODD}%r = OpGroupNonUniformBallotFindMSB %uint %sg %b"),
        &x,
    );
    // Bit (x mod 8) of the ballot: another lane's vote.
    let extract = run(
        &format!(
            "{BALLOT_ODD}%k = OpBitwiseAnd %uint %x %u7\n%e = OpGroupNonUniformBallotBitExtract %bool %sg %b %k\n%r = OpSelect %uint %e %u1 %u0"
        ),
        &x,
    );
    for g in 0..32 {
        let mask = ballot_of(g, 16, 8, |m| x[m] % 2 == 1);
        assert_ne!(mask, 0, "the input gives every subgroup an odd value");
        assert_eq!(lsb[g], mask.trailing_zeros(), "lsb {g}");
        assert_eq!(msb[g], 63 - mask.leading_zeros(), "msb {g}");
        assert_eq!(extract[g] as u64, mask >> (x[g] % 8) & 1, "extract {g}");
    }
}

/// A constant ballot with bits beyond the subgroup size: BitCount, FindLSB and FindMSB
/// consider only the low `sub` bits; BitExtract reads any bit below 128, and none at 200.
#[test]
fn bits_beyond_the_subgroup_size() {
    let x = input();
    let c: u128 = 0xffff_0f4c | 0xffff_ffffu128 << 32 | 1u128 << 64 | 0x8000_0000u128 << 96;
    for sub in [4u32, 8] {
        let q = |body: &str| run_with(16, sub, CAPS, body, &x);
        let count = q("%r = OpGroupNonUniformBallotBitCount %uint %sg Reduce %wide");
        let inc = q("%r = OpGroupNonUniformBallotBitCount %uint %sg InclusiveScan %wide");
        let lsb = q("%r = OpGroupNonUniformBallotFindLSB %uint %sg %wide");
        let msb = q("%r = OpGroupNonUniformBallotFindMSB %uint %sg %wide");
        let e40 = q(
            "%e = OpGroupNonUniformBallotBitExtract %bool %sg %wide %u40\n%r = OpSelect %uint %e %u1 %u0",
        );
        let e200 = q(
            "%e = OpGroupNonUniformBallotBitExtract %bool %sg %wide %u200\n%r = OpSelect %uint %e %u1 %u0",
        );
        let considered = c & ((1u128 << sub) - 1);
        for g in 0..32 {
            let lane = g % sub as usize;
            assert_eq!(count[g], considered.count_ones(), "sub {sub} count");
            let upto = (1u128 << (lane + 1)) - 1;
            assert_eq!(
                inc[g],
                (considered & upto).count_ones(),
                "sub {sub} inc {g}"
            );
            assert_eq!(lsb[g], considered.trailing_zeros(), "sub {sub} lsb");
            assert_eq!(msb[g], 127 - considered.leading_zeros(), "sub {sub} msb");
            assert_eq!(e40[g] as u128, c >> 40 & 1);
            assert_eq!(e200[g], 0);
        }
    }
}

/// FindLSB/FindMSB of a ballot with no considered bit set: spvx gives all ones.
#[test]
fn find_of_an_empty_ballot_is_all_ones() {
    let x = input();
    let lsb = run("%r = OpGroupNonUniformBallotFindLSB %uint %sg %zero4", &x);
    let msb = run("%r = OpGroupNonUniformBallotFindMSB %uint %sg %zero4", &x);
    assert!(lsb.iter().chain(&msb).all(|&v| v == u32::MAX));
}

#[test]
fn inverse_ballot_gives_each_lane_its_bit() {
    let x = input();
    let inv = run(
        "%e = OpGroupNonUniformInverseBallot %bool %sg %wide\n%r = OpSelect %uint %e %u1 %u0",
        &x,
    );
    for (g, v) in inv.iter().enumerate() {
        assert_eq!(*v, 0xffff_0f4cu32 >> (g % 8) & 1, "lane {g}");
    }
}

/// A partial last subgroup (workgroups of 12, subgroups of 8: lanes 0–3 of the second) and a
/// divergent branch (only lanes with odd x vote and count).
#[test]
fn partial_and_divergent_subgroups() {
    let x: Vec<u32> = (0..36u32).map(|i| (i * 29 + 5) % 23).collect();
    let body = "%odd = OpBitwiseAnd %uint %x %u1
%isodd = OpIEqual %bool %odd %u1
OpSelectionMerge %j None
OpBranchConditional %isodd %t %j
%t = OpLabel
%b = OpGroupNonUniformBallot %v4uint %sg %true
%n = OpGroupNonUniformBallotBitCount %uint %sg ExclusiveScan %b
%all = OpGroupNonUniformBallotBitCount %uint %sg Reduce %b
%m = OpGroupNonUniformBallotFindMSB %uint %sg %b
%s1 = OpIMul %uint %all %u8
%s2 = OpIMul %uint %s1 %u8
%s3 = OpIAdd %uint %s2 %m
%s4 = OpIMul %uint %s3 %u8
%v = OpIAdd %uint %s4 %n
OpBranch %j
%j = OpLabel
%r = OpPhi %uint %v %t %c1 %entry
";
    let decls = "%true = OpConstantTrue %bool\n";
    let text = support::kernel(12, &format!("{DECLS}{decls}"), body).replacen(
        "OpCapability Shader\n",
        CAPS,
        1,
    );
    let m = compile(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let cfg = RunConfig {
        subgroup_size: 8,
        ..RunConfig::default()
    };
    let (out, report) = run_words(&m, &x, 36, 3, &cfg).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.total_events, 0);
    for (g, &xg) in x.iter().enumerate() {
        if xg.is_multiple_of(2) {
            assert_eq!(out[g], u32::MAX, "{g} took no part");
            continue;
        }
        let (lane, _) = subgroup_of(g, 12, 8);
        let mask = ballot_of(g, 12, 8, |m| x[m] % 2 == 1);
        let n = (mask & ((1u64 << lane) - 1)).count_ones();
        let msb = 63 - mask.leading_zeros();
        let want = ((mask.count_ones() * 64) + msb) * 8 + n;
        assert_eq!(out[g], want, "invocation {g}");
    }
}

#[test]
fn quad_broadcast_and_swaps() {
    let x = input();
    let bc = run("%r = OpGroupNonUniformQuadBroadcast %uint %sg %x %u2", &x);
    let h = run("%r = OpGroupNonUniformQuadSwap %uint %sg %x %u0", &x);
    let v = run("%r = OpGroupNonUniformQuadSwap %uint %sg %x %u1", &x);
    let d = run("%r = OpGroupNonUniformQuadSwap %uint %sg %x %u2", &x);
    for g in 0..32 {
        let quad = g & !3;
        assert_eq!(bc[g], x[quad + 2], "broadcast {g}");
        assert_eq!(h[g], x[g ^ 1], "horizontal {g}");
        assert_eq!(v[g], x[g ^ 2], "vertical {g}");
        assert_eq!(d[g], x[g ^ 3], "diagonal {g}");
    }
}

/// Subgroups of 6 in workgroups of 12: the second quad of each subgroup has lanes 4 and 5
/// only; reading lanes 6 and 7 (which do not exist) gives 0.
#[test]
fn quads_of_a_subgroup_size_not_a_multiple_of_four() {
    let x: Vec<u32> = (1..=24u32).collect();
    let v = run_with(
        12,
        6,
        CAPS,
        "%r = OpGroupNonUniformQuadSwap %uint %sg %x %u1",
        &x,
    );
    assert_eq!(v.len(), 24);
    for (g, &got) in v.iter().enumerate() {
        let (lane, members) = subgroup_of(g, 12, 6);
        let src = lane ^ 2;
        let want = members.get(src).map_or(0, |&m| x[m]);
        assert_eq!(got, want, "invocation {g}");
    }
}

#[test]
fn quad_all_and_any_khr() {
    let caps = format!("{CAPS}OpCapability QuadControlKHR\nOpExtension \"SPV_KHR_quad_control\"\n");
    let x: Vec<u32> = (0..32u32)
        .map(|i| [1, 1, 1, 1, 0, 1, 0, 0, 0, 0, 0, 0][i as usize % 12])
        .collect();
    let body = |op: &str| {
        format!("%p = OpINotEqual %bool %x %u0\n%q = {op} %bool %p\n%r = OpSelect %uint %q %u1 %u0")
    };
    let all = run_with(16, 8, &caps, &body("OpGroupNonUniformQuadAllKHR"), &x);
    let any = run_with(16, 8, &caps, &body("OpGroupNonUniformQuadAnyKHR"), &x);
    for g in 0..32 {
        let quad = &x[g & !3..(g & !3) + 4];
        assert_eq!(all[g], quad.iter().all(|&v| v != 0) as u32, "all {g}");
        assert_eq!(any[g], quad.iter().any(|&v| v != 0) as u32, "any {g}");
    }
}

#[test]
fn rotate_khr_whole_subgroup_and_clusters() {
    let caps = format!(
        "{CAPS}OpCapability GroupNonUniformRotateKHR\nOpExtension \"SPV_KHR_subgroup_rotate\"\n"
    );
    let x = input();
    // Delta 3 over the subgroup of 8; delta 5 within clusters of 4 (5 mod 4 = 1).
    let whole = run_with(
        16,
        8,
        &caps,
        "%r = OpGroupNonUniformRotateKHR %uint %sg %x %u3",
        &x,
    );
    let d5 = "%d5 = OpIAdd %uint %u4 %u1\n";
    let clustered = run_with(
        16,
        8,
        &caps,
        &format!("{d5}%r = OpGroupNonUniformRotateKHR %uint %sg %x %d5 %u4"),
        &x,
    );
    for g in 0..32 {
        let s = g / 8 * 8;
        assert_eq!(whole[g], x[s + (g % 8 + 3) % 8], "whole {g}");
        let c = g / 4 * 4;
        assert_eq!(clustered[g], x[c + (g % 4 + 5) % 4], "cluster {g}");
    }
}

/// AllEqual compares floats ordered-equal (−0 = +0, NaN equals nothing) and whole vectors.
#[test]
fn all_equal_on_floats_and_vectors() {
    let cases: [(&str, [u32; 2], u32); 4] = [
        ("zeros of both signs", [0x0000_0000, 0x8000_0000], 1),
        ("NaN", [0x7fc0_0000, 0x7fc0_0000], 0),
        ("equal", [0x3f80_0000, 0x3f80_0000], 1),
        ("different", [0x3f80_0000, 0x4000_0000], 0),
    ];
    for (what, vals, want) in cases {
        // Lanes alternate between the two values.
        let x: Vec<u32> = (0..16).map(|i| vals[i % 2]).collect();
        let out = run_with(
            16,
            8,
            CAPS,
            "%f = OpBitcast %float %x\n%e = OpGroupNonUniformAllEqual %bool %sg %f\n%r = OpSelect %uint %e %u1 %u0",
            &x,
        );
        assert!(out.iter().all(|&v| v == want), "{what}: {out:?}");
    }
    // A vector (x, lane-invariant 7): equal only where x is equal in every lane.
    let body = "%v = OpCompositeConstruct %v4uint %x %u7 %u7 %u7\n%e = OpGroupNonUniformAllEqual %bool %sg %v\n%r = OpSelect %uint %e %u1 %u0";
    let mut x = vec![5u32; 16];
    x[11] = 6; // second subgroup differs in component 0
    let out = run_with(16, 8, CAPS, body, &x);
    assert_eq!(out.len(), 16);
    for (g, &got) in out.iter().enumerate() {
        assert_eq!(got, (g < 8) as u32, "vector {g}");
    }
}
