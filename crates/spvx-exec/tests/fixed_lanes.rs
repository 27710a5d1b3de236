//! A vector fixed-point instruction in divergent control flow: only the lanes with an odd
//! invocation index run it, one of them meets a special input. The outputs of the lanes that
//! ran are spvx-num's exact path (`evaluate_exact`, big-integer and ball arithmetic, one input
//! at a time) or values computed by hand, the others keep the value of the other branch, and
//! exactly the special lanes that ran are reported — in the interpreter (all active lanes of the subgroup
//! in one batch) and in the JIT (one invocation at a time).

mod support;
use num_bigint::BigUint;
use spvx_exec::{RunConfig, UbKind};
use spvx_num::fixed::{FixedFunction, FixedOp, FixedValue, Overflow, Quantization, evaluate_exact};
use support::{compile, run_words};

const CAPS: &str = "OpCapability Shader\nOpCapability ArbitraryPrecisionFixedPointINTEL\nOpExtension \"SPV_INTEL_arbitrary_precision_fixed_point\"\n";

/// What the lanes that do not run the instruction store.
const OTHER: u32 = 0xdead_beef;

/// Runs `%f = {inst} %{rty} %x {lits}` (x the uint input, result `rty`) on the odd invocations
/// of a 32-invocation workgroup, `tail` making `%fr` (uint) of `%f`; the even ones store
/// [`OTHER`].
fn run(
    inst: &str,
    rty: &str,
    lits: &str,
    tail: &str,
    inputs: &[u32],
    jit: bool,
) -> (Vec<u32>, spvx_exec::RunReport) {
    let decls = format!("%v2uint = OpTypeVector %uint 2\n%other = OpConstant %uint {OTHER}\n");
    let body = format!(
        "%odd = OpBitwiseAnd %uint %i %u1\n%c = OpIEqual %bool %odd %u1\n\
         OpSelectionMerge %m None\nOpBranchConditional %c %t %m\n\
         %t = OpLabel\n%f = {inst} %{rty} %x {lits}\n{tail}\nOpBranch %m\n\
         %m = OpLabel\n%r = OpPhi %uint %fr %t %other %entry"
    );
    let text = support::kernel(32, &decls, &body).replacen("OpCapability Shader\n", CAPS, 1);
    let m = compile(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let cfg = RunConfig {
        jit,
        ..RunConfig::default()
    };
    let (out, report) =
        run_words(&m, inputs, inputs.len(), 1, &cfg).unwrap_or_else(|e| panic!("{e}"));
    (out, report)
}

/// Signed <32, 4> in, signed <32, 2> out, nearest even (Q = 6), saturating (O = 1).
fn op(function: FixedFunction) -> FixedOp {
    FixedOp {
        function,
        signed: true,
        input_width: 32,
        input_int_bits: 4,
        result_width: 32,
        result_int_bits: 2,
        quantization: Quantization::parse("6").expect("RND_CONV"),
        overflow: Overflow::parse("1").expect("SAT"),
    }
}

/// The exact path's (value, cos) of one input.
fn exact(op: &FixedOp, x: u32) -> (u32, u32) {
    let o = evaluate_exact(op, &BigUint::from(x)).expect("valid input");
    let low = |b: &BigUint| b.iter_u32_digits().next().unwrap_or(0);
    match &o.value {
        FixedValue::Single(v) => (low(v), 0),
        FixedValue::Pair { sin, cos } => (low(sin), low(cos)),
    }
}

/// 32 inputs: random patterns with special ones among them (0, ±1.0, the extremes, −2^−28),
/// negative inputs on lanes 5 and 11 (odd: they run) and 6 (even: it does not).
fn inputs() -> Vec<u32> {
    let mut s = 0x0123_4567_89ab_cdefu64;
    let mut xs: Vec<u32> = (0..32)
        .map(|_| {
            s = s
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (s >> 33) as u32 & 0x7fff_ffff
        })
        .collect();
    xs[1] = 0;
    xs[3] = 1 << 28; // 1.0
    xs[6] = 0xf000_0000; // −1.0 (a lane that does not run)
    xs[7] = 0x7fff_ffff;
    xs[9] = 1;
    xs[5] = 0xffff_fff0; // −2^−24: sqrt of a negative value (a lane that runs)
    xs[11] = 0x8000_0000; // −8.0
    xs
}

#[test]
fn sqrt_with_divergent_lanes_reports_the_negative_lanes_that_run() {
    let xs = inputs();
    let f = op(FixedFunction::Sqrt);
    for jit in [false, true] {
        let (out, report) = run(
            "OpFixedSqrtINTEL",
            "uint",
            "1 4 2 6 1",
            "%fr = OpCopyObject %uint %f",
            &xs,
            jit,
        );
        for (k, &x) in xs.iter().enumerate() {
            let want = if k % 2 == 0 { OTHER } else { exact(&f, x).0 };
            assert_eq!(out[k], want, "lane {k} (jit {jit})");
        }
        // By hand: sqrt 0 = 0; sqrt 1.0 = 1.0 = 2^30 in <32, 2>; the negative input gives 0.
        assert_eq!((out[1], out[3], out[5]), (0, 1 << 30, 0), "jit {jit}");
        // Reported: the odd lanes with a negative input (5 and 11), in lane order; not lane 6.
        let lanes: Vec<u32> = report.events.iter().map(|e| e.invocation[0]).collect();
        assert_eq!(lanes, vec![5, 11], "jit {jit}");
        assert_eq!(report.total_events, 2, "jit {jit}");
        for e in &report.events {
            assert!(
                matches!(&e.kind, UbKind::FixedPoint(s) if s.contains("sqrt of a negative")),
                "{:?}",
                e.kind
            );
        }
    }
}

#[test]
fn transcendental_and_pair_functions_with_divergent_lanes() {
    let xs = inputs();
    for (inst, function) in [
        ("OpFixedSinINTEL", FixedFunction::Sin),
        ("OpFixedExpINTEL", FixedFunction::Exp),
        ("OpFixedLogINTEL", FixedFunction::Log),
    ] {
        let f = op(function);
        for jit in [false, true] {
            let (out, report) = run(
                inst,
                "uint",
                "1 4 2 6 1",
                "%fr = OpCopyObject %uint %f",
                &xs,
                jit,
            );
            for (k, &x) in xs.iter().enumerate() {
                let want = if k % 2 == 0 { OTHER } else { exact(&f, x).0 };
                assert_eq!(out[k], want, "{inst} lane {k} (jit {jit})");
            }
            // log reports its zero and negative inputs on odd lanes (1, 5, 11); sin and exp
            // report nothing.
            let lanes: Vec<u32> = report.events.iter().map(|e| e.invocation[0]).collect();
            let want: Vec<u32> = if function == FixedFunction::Log {
                vec![1, 5, 11]
            } else {
                vec![]
            };
            assert_eq!(lanes, want, "{inst} (jit {jit})");
        }
    }
    // sincos as a vector (sine in component 0, cosine in 1).
    let f = op(FixedFunction::SinCos);
    for (component, pick) in [(0, 0usize), (1, 1)] {
        for jit in [false, true] {
            let tail = format!("%fr = OpCompositeExtract %uint %f {component}");
            let (out, report) = run("OpFixedSinCosINTEL", "v2uint", "1 4 2 6 1", &tail, &xs, jit);
            for (k, &x) in xs.iter().enumerate() {
                let (s, c) = exact(&f, x);
                let want = if k % 2 == 0 { OTHER } else { [s, c][pick] };
                assert_eq!(out[k], want, "sincos[{component}] lane {k} (jit {jit})");
            }
            assert_eq!(report.total_events, 0);
        }
    }
    // cos(0) = 1 = 2^30 by hand.
    assert_eq!(exact(&f, 0), (0, 1 << 30));
}
