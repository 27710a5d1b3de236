//! Generated `OpSubgroupMatrixMultiplyAccumulateINTEL` cases
//! (SPV_INTEL_subgroup_matrix_multiply_accumulate rev 1; reference/dpas.md §5): every single
//! Matrix Multiply Accumulate Operands bit and every pair of bits × the component types of
//! Matrix A, B, C and the Result; then the usual shapes (int8, int4, fp16, bf16, tf32, plain
//! 32-bit) × M × the component counts of A, B and C around the required ones × Result = C or
//! not × K Dim kinds (32-bit constant, spec constant, 16-bit, float, run-time).
//!
//! The expected verdict comes from `rules`, a restatement of the extension text (types, K Dim,
//! the Mapping section: C has M rows, A at most M, B one 32-bit value per 32 bits of packed
//! rows or one component per row, the operand table's "only valid for integer / 32-bit float
//! operand types") and of the decisions in docs/semantics/dpas.md (one interpretation
//! per matrix, Result = C unless a bf16 result/C bit says otherwise). A scattered sample is
//! compared with spirv-val 2025.5, which checks none of these operand rules (so it must
//! accept every case whose only broken rules are these).

mod ext_common;
mod support;

use ext_common::{Rule, Sampler, check_rules, theirs_valid};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Comp {
    U8,
    U16,
    U32,
    U64,
    F16,
    F32,
    F64,
    Bool,
}

impl Comp {
    fn name(self) -> &'static str {
        match self {
            Comp::U8 => "%u8",
            Comp::U16 => "%u16",
            Comp::U32 => "%u32",
            Comp::U64 => "%u64",
            Comp::F16 => "%f16",
            Comp::F32 => "%f32",
            Comp::F64 => "%f64",
            Comp::Bool => "%bool",
        }
    }

    fn is_int(self) -> bool {
        matches!(self, Comp::U8 | Comp::U16 | Comp::U32 | Comp::U64)
    }

    fn is_float(self) -> bool {
        matches!(self, Comp::F16 | Comp::F32 | Comp::F64)
    }

    fn width(self) -> u32 {
        match self {
            Comp::U8 => 8,
            Comp::U16 | Comp::F16 => 16,
            Comp::U32 | Comp::F32 => 32,
            Comp::U64 | Comp::F64 => 64,
            Comp::Bool => 0,
        }
    }
}

/// A scalar (`n` = 1) or vector type.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Ty {
    comp: Comp,
    n: u32,
}

impl Ty {
    fn name(self) -> String {
        if self.n == 1 {
            self.comp.name().to_string()
        } else {
            format!("%v{}{}", self.n, &self.comp.name()[1..])
        }
    }
}

/// Vector sizes SPIR-V allows (8 and 16 with Vector16, declared here).
const COUNTS: [u32; 6] = [1, 2, 3, 4, 8, 16];

/// The next allowed count above `n` (or below for 16).
fn other_count(n: u32) -> u32 {
    match n {
        16 => 8,
        _ => *COUNTS.iter().find(|&&c| c > n).unwrap_or(&16),
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum KDim {
    /// `OpConstant %u32 k`.
    Const(u32),
    /// `OpSpecConstant %u32 k` (not evaluated).
    Spec(u32),
    /// A 16-bit constant.
    Narrow(u32),
    Float,
    /// Computed at run time.
    Runtime,
}

/// Interpretation bits: (A bit, B bit, element bits, needs a 32-bit float (else integer)).
const INTERP: [(u32, u32, u32, bool); 5] = [
    (0x10, 0x20, 8, false),      // packed int8
    (0x40, 0x80, 4, false),      // packed int4
    (0x100, 0x200, 32, true),    // tf32
    (0x400, 0x800, 16, false),   // packed fp16
    (0x1000, 0x2000, 16, false), // packed bf16
];

#[derive(Clone, Copy, Debug)]
struct Case {
    k: KDim,
    result: Ty,
    a: Ty,
    b: Ty,
    c: Ty,
    mask: Option<u32>,
}

/// The rules, one by one (all spvx's: spirv-val 2025.5 checks none of them).
fn rules(c: &Case) -> Vec<Rule> {
    let mut broken = Vec::new();
    let r = |v| Rule::ours("SubgroupMma", v);
    let numeric = |t: Ty| t.comp.is_int() || t.comp.is_float();
    // "It must be a scalar or vector of floating-point or integer type" (Result, A, B, C).
    if ![c.result, c.a, c.b, c.c].into_iter().all(numeric) {
        broken.push(r("NotNumeric"));
    }
    // "K Dim ... must come from a constant instruction with scalar 32-bit integer type."
    let k = match c.k {
        KDim::Const(k) => Some(k),
        KDim::Spec(_) => None,
        KDim::Narrow(_) | KDim::Float | KDim::Runtime => {
            broken.push(r("KDim"));
            None
        }
    };
    let m = c.result.n;
    let mask = c.mask.unwrap_or(0);
    // Matrix C "has M rows ... passed as a vector of values, with the lower-numbered
    // components representing lower-numbered rows".
    if c.c.n != m {
        broken.push(r("CRows"));
    }
    // Result = C (IGC; val-ext.md) unless the bf16 C/Result bits reinterpret one of them.
    if mask & 0xC == 0 && c.result != c.c {
        broken.push(r("ResultNotC"));
    }
    // "The components of matrix C are interpreted as bf16 data" / "The components of the
    // result matrix are written as bf16 data": bits carried by integer components
    // (val-ext.md).
    if mask & 0x4 != 0 && !c.c.comp.is_int() {
        broken.push(r("OperandType"));
    }
    if mask & 0x8 != 0 && !c.result.comp.is_int() {
        broken.push(r("OperandType"));
    }
    // Matrix A: one component per row (N ≤ K) or fewer (N > K).
    if c.a.n > m {
        broken.push(r("ARows"));
    }
    // "MatrixASignedComponentsINTEL / MatrixBSignedComponentsINTEL": only valid for integer
    // operand types.
    if mask & 0x1 != 0 && !c.a.comp.is_int() {
        broken.push(r("OperandType"));
    }
    if mask & 0x2 != 0 && !c.b.comp.is_int() {
        broken.push(r("OperandType"));
    }
    // Interpretations: packed int8/int4/fp16/bf16 "only valid for integer operand types",
    // TF32 "only valid for 32-bit float operand types"; one per matrix (val-ext.md).
    let mut b_bits = c.b.comp.width();
    let mut b_ambiguous = false;
    for (is_b, t) in [(false, c.a), (true, c.b)] {
        let chosen: Vec<_> = INTERP
            .iter()
            .filter(|i| mask & if is_b { i.1 } else { i.0 } != 0)
            .collect();
        if chosen.len() > 1 {
            broken.push(r("TwoInterpretations"));
            b_ambiguous |= is_b;
        }
        for &&(_, _, bits, tf32) in &chosen {
            let ok = if tf32 {
                t.comp == Comp::F32
            } else {
                t.comp.is_int()
            };
            if !ok {
                broken.push(r("OperandType"));
            }
            if is_b {
                b_bits = bits;
            }
        }
    }
    // Matrix B: "For matrix elements that are 16 bits or smaller, the column of Matrix B is
    // passed as a vector of 32-bit values" (packed rows), else one component per row.
    if !b_ambiguous && numeric(c.b) {
        if b_bits <= 16 {
            if c.b.comp.width() != 32 {
                broken.push(r("BNotPacked32"));
            }
            if let Some(k) = k
                && c.b.n * 32 != k * b_bits
            {
                broken.push(r("BLength"));
            }
        } else if let Some(k) = k
            && c.b.n != k
        {
            broken.push(r("BLength"));
        }
    }
    broken
}

fn module(c: &Case) -> String {
    let mut s = String::from(
        "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int8\nOpCapability Int16\n\
         OpCapability Int64\nOpCapability Float16\nOpCapability Float64\nOpCapability Vector16\n\
         OpCapability SubgroupMatrixMultiplyAccumulateINTEL\n\
         OpExtension \"SPV_INTEL_subgroup_matrix_multiply_accumulate\"\n\
         OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %main \"main\"\n\
         %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%bool = OpTypeBool\n\
         %u8 = OpTypeInt 8 0\n%u16 = OpTypeInt 16 0\n%u32 = OpTypeInt 32 0\n%u64 = OpTypeInt 64 0\n\
         %f16 = OpTypeFloat 16\n%f32 = OpTypeFloat 32\n%f64 = OpTypeFloat 64\n\
         %u32_0 = OpConstant %u32 0\n",
    );
    let mut vecs: Vec<Ty> = Vec::new();
    for t in [c.result, c.a, c.b, c.c] {
        if t.n > 1 && !vecs.contains(&t) {
            vecs.push(t);
            s += &format!("{} = OpTypeVector {} {}\n", t.name(), t.comp.name(), t.n);
        }
    }
    let k = match c.k {
        KDim::Const(k) => format!("%k = OpConstant %u32 {k}\n"),
        KDim::Spec(k) => format!("%k = OpSpecConstant %u32 {k}\n"),
        KDim::Narrow(k) => format!("%k = OpConstant %u16 {k}\n"),
        KDim::Float => "%k = OpConstant %f32 16\n".into(),
        KDim::Runtime => String::new(),
    };
    s += &k;
    s += &format!(
        "%a = OpUndef {}\n%b = OpUndef {}\n%c = OpUndef {}\n",
        c.a.name(),
        c.b.name(),
        c.c.name()
    );
    s += "%main = OpFunction %void None %fn\n%l = OpLabel\n";
    if c.k == KDim::Runtime {
        s += "%k = OpIAdd %u32 %u32_0 %u32_0\n";
    }
    let mask = c
        .mask
        .map(|m| format!(" {}", mask_text(m)))
        .unwrap_or_default();
    s += &format!(
        "%r = OpSubgroupMatrixMultiplyAccumulateINTEL {} %k %a %b %c{mask}\nOpReturn\nOpFunctionEnd\n",
        c.result.name()
    );
    s
}

/// The operand bits by name (spirv-as 2025.5 takes only names here).
const BIT_NAMES: [&str; 14] = [
    "MatrixASignedComponentsINTEL",
    "MatrixBSignedComponentsINTEL",
    "MatrixCBFloat16INTEL",
    "MatrixResultBFloat16INTEL",
    "MatrixAPackedInt8INTEL",
    "MatrixBPackedInt8INTEL",
    "MatrixAPackedInt4INTEL",
    "MatrixBPackedInt4INTEL",
    "MatrixATF32INTEL",
    "MatrixBTF32INTEL",
    "MatrixAPackedFloat16INTEL",
    "MatrixBPackedFloat16INTEL",
    "MatrixAPackedBFloat16INTEL",
    "MatrixBPackedBFloat16INTEL",
];

fn mask_text(mask: u32) -> String {
    let names: Vec<&str> = (0..14)
        .filter(|i| mask & (1 << i) != 0)
        .map(|i| BIT_NAMES[i])
        .collect();
    if names.is_empty() {
        "None".into()
    } else {
        names.join("|")
    }
}

/// The B count a well-formed case needs for `k` and element `bits`.
fn b_count(k: u32, bits: u32) -> u32 {
    if bits <= 16 { k * bits / 32 } else { k }
}

fn t(comp: Comp, n: u32) -> Ty {
    Ty { comp, n }
}

fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    // 1. Every single bit and every pair of bits × component types (M = 4, K = 32, B's count
    //    the one its interpretation needs).
    let bits: Vec<u32> = (0..14).map(|i| 1 << i).collect();
    let mut masks = vec![None, Some(0)];
    for (i, &x) in bits.iter().enumerate() {
        masks.push(Some(x));
        for &y in &bits[i + 1..] {
            masks.push(Some(x | y));
        }
    }
    let cr_types = [
        (t(Comp::U32, 4), t(Comp::U32, 4)),
        (t(Comp::F32, 4), t(Comp::F32, 4)),
        (t(Comp::F16, 4), t(Comp::F16, 4)),
        (t(Comp::U16, 4), t(Comp::F32, 4)),
        (t(Comp::F32, 4), t(Comp::U16, 4)),
        (t(Comp::F64, 4), t(Comp::F64, 4)),
    ];
    let mut n = 0usize;
    for mask in masks {
        let m = mask.unwrap_or(0);
        for a in [Comp::U32, Comp::U16, Comp::U8, Comp::F32, Comp::F16] {
            for b in [Comp::U32, Comp::U64, Comp::F32, Comp::F16] {
                for &(cc, res) in &cr_types {
                    n += 1;
                    // B's element bits: the single interpretation bit, else its width.
                    let interp: Vec<u32> = INTERP
                        .iter()
                        .filter(|i| m & i.1 != 0)
                        .map(|i| i.2)
                        .collect();
                    let bits = if interp.len() == 1 {
                        interp[0]
                    } else {
                        b.width()
                    };
                    let k = 32;
                    let count = b_count(k, bits).clamp(1, 16);
                    let count = if COUNTS.contains(&count) { count } else { 8 };
                    // Now and then A with fewer rows (tf32 style).
                    let a_n = if n.is_multiple_of(3) { 2 } else { 4 };
                    cases.push(Case {
                        k: KDim::Const(k),
                        result: res,
                        a: t(a, a_n),
                        b: t(b, count),
                        c: cc,
                        mask,
                    });
                }
            }
        }
    }
    // 2. The usual shapes × M × counts of A, B, C × Result = C or not × K Dim kinds.
    //    (mask, A comp, B comp, C comp, K)
    let shapes = [
        (0x30, Comp::U32, Comp::U32, Comp::U32, 32), // int8, SIMD8
        (0x33, Comp::U16, Comp::U32, Comp::U32, 32), // signed int8, SIMD16
        (0xC0, Comp::U32, Comp::U32, Comp::U32, 64), // int4
        (0xC00, Comp::U16, Comp::U32, Comp::F32, 16), // fp16
        (0x3000, Comp::U32, Comp::U32, Comp::F32, 16), // bf16
        (0x300C, Comp::U16, Comp::U32, Comp::U16, 16), // bf16 with bf16 C and Result
        (0x300, Comp::F32, Comp::F32, Comp::F32, 8), // tf32
        (0, Comp::U32, Comp::U32, Comp::U32, 8),     // plain 32-bit
        (0, Comp::F16, Comp::F16, Comp::F16, 16),    // fp16 typed, B not packed in 32 bits
    ];
    for (mask, ac, bc, cc, k) in shapes {
        for m in [1, 2, 4, 8] {
            let bits = INTERP
                .iter()
                .find(|i| mask & i.1 != 0)
                .map_or(bc.width(), |i| i.2);
            let b_need = b_count(k, bits);
            let a_counts = [(m / 2).max(1), m, other_count(m)];
            let b_counts = [b_need, other_count(b_need), k.min(16)];
            let c_counts = [m, other_count(m)];
            let k_kinds = [
                KDim::Const(k),
                KDim::Spec(k),
                KDim::Narrow(k),
                KDim::Float,
                KDim::Runtime,
            ];
            for &a_n in &a_counts {
                for &b_n in &b_counts {
                    for &c_n in &c_counts {
                        for result_is_c in [true, false] {
                            for kd in k_kinds {
                                let c_ty = t(cc, c_n);
                                let result = if result_is_c {
                                    t(cc, m)
                                } else if cc == Comp::F32 {
                                    t(Comp::U32, m)
                                } else {
                                    t(Comp::F32, m)
                                };
                                cases.push(Case {
                                    k: kd,
                                    result,
                                    a: t(ac, a_n),
                                    b: t(bc, b_n),
                                    c: c_ty,
                                    mask: Some(mask),
                                });
                            }
                        }
                    }
                }
            }
        }
    }
    // 3. Non-numeric operands.
    for which in 0..4 {
        let mut tys = [
            t(Comp::U32, 4),
            t(Comp::U32, 4),
            t(Comp::U32, 8),
            t(Comp::U32, 4),
        ];
        tys[which] = t(Comp::Bool, 4);
        cases.push(Case {
            k: KDim::Const(8),
            result: tys[0],
            a: tys[1],
            b: tys[2],
            c: tys[3],
            mask: None,
        });
    }
    cases.retain(|c| {
        [c.result, c.a, c.b, c.c]
            .iter()
            .all(|t| COUNTS.contains(&t.n))
    });
    cases
}

#[test]
fn every_combination_matches_the_rules() {
    let mut sampler = Sampler::new(50, 40);
    let (mut total, mut valid, mut failures) = (0, 0, Vec::new());
    for c in cases() {
        let text = module(&c);
        let broken = rules(&c);
        total += 1;
        valid += broken.is_empty() as usize;
        let name = format!("{c:?}");
        failures.extend(check_rules(
            &support::validate_text(&text, "spv1.6"),
            &broken,
            &name,
        ));
        sampler.offer_scattered(&text, "spv1.6", theirs_valid(&broken), &name);
    }
    assert!(
        total > 3000 && valid > 100,
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
