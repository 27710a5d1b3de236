//! Generated SPV_INTEL_arbitrary_precision_fixed_point cases (shared/seeds/002): the eleven
//! `OpFixed*INTEL` instructions × literal values at and beyond every boundary (S ∈ {0, 1, 2,
//! 0xffffffff}, Q 0..=8, O 0..=4, I and rI at the signed 32-bit extremes) × input and result
//! widths (0, 1, 2, 4, 8, 13, 16, 32, 64, 65, 128) × result shapes (scalars, SinCos/SinCosPi
//! two-component vectors, 2·rW scalars, odd widths, three-component vectors, floats) × input
//! types × the fixed-point capability, its extension (INTEL or ALTERA name) and the
//! arbitrary-precision-integer capability × literal operands cut off in the binary.
//!
//! The expected verdict comes from `rules`, a restatement of the instruction text of seed 002
//! and of the decisions in docs/semantics/fixed-point.md (SinCos results may also be one integer
//! of even width 2·rW; the extension sets no width limit). A scattered sample of the cases
//! whose integer widths are all 8/16/32/64 (spirv-val 2025.5 rejects the others) is compared
//! with spirv-val 2025.5, which checks only the capability and extension rules here.

mod ext_common;
mod support;

use ext_common::{Rule, Sampler, check_rules, theirs_valid, validate_edited};

const OPS: [&str; 11] = [
    "OpFixedSqrtINTEL",
    "OpFixedRecipINTEL",
    "OpFixedRsqrtINTEL",
    "OpFixedSinINTEL",
    "OpFixedCosINTEL",
    "OpFixedSinCosINTEL",
    "OpFixedSinPiINTEL",
    "OpFixedCosPiINTEL",
    "OpFixedSinCosPiINTEL",
    "OpFixedLogINTEL",
    "OpFixedExpINTEL",
];

/// SinCos and SinCosPi: the result holds two values.
fn is_pair(op: usize) -> bool {
    OPS[op].contains("SinCos")
}

const WIDTHS: [u32; 11] = [0, 1, 2, 4, 8, 13, 16, 32, 64, 65, 128];

/// The standard widths spirv-val 2025.5 accepts.
fn standard(w: u32) -> bool {
    matches!(w, 8 | 16 | 32 | 64)
}

/// A Result Type or Input type.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ty {
    Int(u32),
    /// A vector of `n` integers of width `w`.
    IntVec {
        n: u32,
        w: u32,
    },
    Float,
}

impl Ty {
    fn name(self) -> String {
        match self {
            Ty::Int(w) => format!("%i{w}"),
            Ty::IntVec { n, w } => format!("%v{n}i{w}"),
            Ty::Float => "%f32".into(),
        }
    }

    fn int_widths(self) -> Vec<u32> {
        match self {
            Ty::Int(w) | Ty::IntVec { w, .. } => vec![w],
            Ty::Float => vec![],
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum ExtName {
    Intel,
    Altera,
    Absent,
}

#[derive(Clone, Copy, Debug)]
struct Case {
    op: usize,
    input: Ty,
    result: Ty,
    s: u32,
    i: i32,
    ri: i32,
    q: u32,
    o: u32,
    fixed_cap: bool,
    ext: ExtName,
    /// ArbitraryPrecisionIntegersINTEL with its extension.
    ap_ints: bool,
    /// Literal operands cut off the end in the binary (0..=5: O, Q, rI, I, S).
    cut: usize,
}

/// The rules of seed 002 and of val-ext.md, one by one. `Capability::*` stands for the core
/// rules (an instruction needs its capability, a capability its extension, a width its
/// capability), which spirv-val checks too; the rest only spvx checks (the extension says
/// "Validation Rules: None").
fn rules(c: &Case) -> Vec<Rule> {
    let mut broken = Vec::new();
    let core = Rule::both("Capability", "*");
    let fixed = |v| Rule::ours("Fixed", v);
    // "Capability: ArbitraryPrecisionFixedPointINTEL"; the capability's extension.
    if !c.fixed_cap || c.ext == ExtName::Absent {
        broken.push(core);
    }
    // Widths (core rules): 0 is no width; widths other than 8/16/32/64 need
    // ArbitraryPrecisionIntegers (Int8/Int16/Int64 are always declared here).
    for w in c
        .input
        .int_widths()
        .into_iter()
        .chain(c.result.int_widths())
    {
        if w == 0 {
            broken.push(Rule::both("Type", "*"));
        }
        if !standard(w) && !c.ap_ints {
            broken.push(core);
        }
    }
    // "Result Type must be OpTypeInt" / SinCos: "Result Type must be a two-component vector of
    // OpTypeInt", or (val-ext.md, from what producers emit) one OpTypeInt of even width 2·rW.
    if is_pair(c.op) {
        let ok = match c.result {
            Ty::IntVec { n, .. } => n == 2,
            Ty::Int(w) => w % 2 == 0,
            Ty::Float => false,
        };
        if !ok {
            broken.push(fixed("PairResult"));
        }
    } else if !matches!(c.result, Ty::Int(_)) {
        broken.push(fixed("ResultNotInt"));
    }
    // "An OpTypeInt representing an arbitrary precision fixed point number (ac_fixed) is
    // passed in as the Input".
    if !matches!(c.input, Ty::Int(_)) {
        broken.push(fixed("InputNotInt"));
    }
    // The five literals must be present (word count 9).
    if c.cut > 0 {
        broken.push(fixed("MissingLiteral"));
    }
    // Literal order S, I, rI, Q, O; `cut` removes from the end.
    let present = |k: usize| k < 5 - c.cut;
    // S from table 3.16d, Q from 3.16b, O from 3.16c; I and rI any signed 32-bit value.
    if present(0) && c.s > 1 {
        broken.push(fixed("Signedness"));
    }
    if present(3) && c.q > 7 {
        broken.push(fixed("Quantization"));
    }
    if present(4) && c.o > 3 {
        broken.push(fixed("Overflow"));
    }
    broken
}

fn module(c: &Case) -> String {
    let mut s = String::from(
        "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int8\nOpCapability Int16\n\
         OpCapability Int64\n",
    );
    let (cap, ext) = match c.ext {
        ExtName::Altera => (
            "ArbitraryPrecisionFixedPointALTERA",
            Some("SPV_ALTERA_arbitrary_precision_fixed_point"),
        ),
        ExtName::Intel => (
            "ArbitraryPrecisionFixedPointINTEL",
            Some("SPV_INTEL_arbitrary_precision_fixed_point"),
        ),
        ExtName::Absent => ("ArbitraryPrecisionFixedPointINTEL", None),
    };
    if c.fixed_cap {
        s += &format!("OpCapability {cap}\n");
    }
    if c.ap_ints {
        s += "OpCapability ArbitraryPrecisionIntegersINTEL\n";
        s += "OpExtension \"SPV_INTEL_arbitrary_precision_integers\"\n";
    }
    if let Some(e) = ext {
        s += &format!("OpExtension \"{e}\"\n");
    }
    s += "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %main \"main\"\n\
          %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%f32 = OpTypeFloat 32\n";
    let mut widths: Vec<u32> = c.input.int_widths();
    widths.extend(c.result.int_widths());
    widths.sort_unstable();
    widths.dedup();
    for w in widths {
        s += &format!("%i{w} = OpTypeInt {w} 0\n");
    }
    let mut vecs = Vec::new();
    for t in [c.input, c.result] {
        if let Ty::IntVec { n, w } = t
            && !vecs.contains(&t)
        {
            vecs.push(t);
            s += &format!("{} = OpTypeVector %i{w} {n}\n", t.name());
        }
    }
    s += &format!("%x = OpUndef {}\n", c.input.name());
    s += &format!(
        "%main = OpFunction %void None %fn\n%l = OpLabel\n%r = {} {} %x {} {} {} {} {}\n\
         OpReturn\nOpFunctionEnd\n",
        OPS[c.op],
        c.result.name(),
        c.s,
        c.i as u32,
        c.ri as u32,
        c.q,
        c.o
    );
    s
}

/// spvx's errors, with `cut` literal operands removed from the instruction.
fn spvx_errors(c: &Case, text: &str) -> Vec<spvx_val::ValError> {
    validate_edited(text, "spv1.6", |insts| {
        if let Some(inst) = insts.iter_mut().find(|i| i.opcode.is_fixed_point_math()) {
            let keep = inst.operands.len().saturating_sub(c.cut);
            inst.operands.truncate(keep);
        }
    })
}

/// The result type an op naturally has for a scalar of width `w`.
fn natural_result(op: usize, w: u32) -> Ty {
    if is_pair(op) {
        Ty::IntVec { n: 2, w }
    } else {
        Ty::Int(w)
    }
}

fn cases() -> Vec<Case> {
    let base = |op| Case {
        op,
        input: Ty::Int(16),
        result: natural_result(op, 16),
        s: 1,
        i: 3,
        ri: 2,
        q: 0,
        o: 0,
        fixed_cap: true,
        ext: ExtName::Intel,
        ap_ints: true,
        cut: 0,
    };
    let mut cases = Vec::new();
    let extremes = [i32::MIN, i32::MIN + 1, -1, 0, 1, 3, i32::MAX];
    for op in 0..OPS.len() {
        // S × Q × O, every value at and beyond its table.
        for s in [0, 1, 2, 0xffff_ffff] {
            for q in 0..=8 {
                for o in 0..=4 {
                    cases.push(Case {
                        s,
                        q,
                        o,
                        ..base(op)
                    });
                }
            }
        }
        // I × rI at the extremes.
        for i in extremes {
            for ri in extremes {
                cases.push(Case { i, ri, ..base(op) });
            }
        }
        // Input width × result shape, with and without ArbitraryPrecisionIntegers.
        let mut results: Vec<Ty> = WIDTHS.iter().map(|&w| Ty::Int(w)).collect();
        for w in [1, 8, 13, 32] {
            results.push(Ty::IntVec { n: 2, w });
        }
        results.extend([
            Ty::IntVec { n: 3, w: 16 },
            Ty::IntVec { n: 4, w: 8 },
            Ty::Float,
        ]);
        for w in WIDTHS {
            for &result in &results {
                for ap_ints in [true, false] {
                    cases.push(Case {
                        input: Ty::Int(w),
                        result,
                        ap_ints,
                        ..base(op)
                    });
                }
            }
        }
        // Input types × capability, extension name, arbitrary integers.
        for input in [
            Ty::Int(32),
            Ty::Int(13),
            Ty::IntVec { n: 2, w: 32 },
            Ty::Float,
        ] {
            for fixed_cap in [true, false] {
                for ext in [ExtName::Intel, ExtName::Altera, ExtName::Absent] {
                    for ap_ints in [true, false] {
                        cases.push(Case {
                            input,
                            result: natural_result(op, 32),
                            fixed_cap,
                            ext,
                            ap_ints,
                            ..base(op)
                        });
                    }
                }
            }
        }
        // Literals cut off, with out-of-table values left in the remaining ones.
        for cut in 1..=5 {
            for (s, q, o) in [(1, 0, 0), (2, 8, 4)] {
                cases.push(Case {
                    cut,
                    s,
                    q,
                    o,
                    ..base(op)
                });
            }
        }
    }
    cases
}

/// Cases spirv-val 2025.5 can judge: standard widths only, nothing cut.
fn comparable(c: &Case) -> bool {
    c.cut == 0
        && c.input
            .int_widths()
            .into_iter()
            .chain(c.result.int_widths())
            .all(standard)
}

#[test]
fn every_combination_matches_the_spec_rules() {
    let mut sampler = Sampler::new(60, 40);
    let (mut total, mut valid, mut failures) = (0, 0, Vec::new());
    for c in cases() {
        let text = module(&c);
        let broken = rules(&c);
        total += 1;
        valid += broken.is_empty() as usize;
        let name = format!("{c:?}");
        failures.extend(check_rules(&spvx_errors(&c, &text), &broken, &name));
        if comparable(&c) {
            sampler.offer_scattered(&text, "spv1.6", theirs_valid(&broken), &name);
        }
    }
    assert!(
        total > 5000 && valid > 300,
        "too few cases: {total} / {valid}"
    );
    assert!(
        failures.is_empty(),
        "{} of {total} cases disagree ({valid} valid):\n{}",
        failures.len(),
        failures[..failures.len().min(25)].join("\n")
    );
    assert!(
        sampler.failures.is_empty(),
        "spirv-val 2025.5 disagrees ({} runs):\n{}",
        sampler.runs,
        sampler.failures.join("\n")
    );
    eprintln!(
        "{total} cases ({valid} valid), {} spirv-val runs",
        sampler.runs
    );
}
