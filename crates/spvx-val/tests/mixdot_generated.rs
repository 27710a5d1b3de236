//! Generated SPV_VALVE_mixed_float_dot_product cases (shared/seeds/003; reference/mixedfloat.md
//! §1.1, §3.1): the three opcodes × Vector 1 and Vector 2 of every component encoding (IEEE
//! f16/f32/f64, BFloat16KHR, Float8E4M3EXT, Float8E5M2EXT, Float8UnsignedE8M0EXT written into
//! the binary since spirv-as 2025.5 does not name it, a 16-bit integer) and length
//! (scalar, 2, 3, 4) × result and accumulator types × every subset of the four VALVE
//! capabilities, with and without the base type capabilities and the SPV_KHR_bfloat16 /
//! SPV_EXT_float8 extensions.
//!
//! The expected verdict comes from `rules`, a restatement of the extension text (including the
//! two rules SPIRV-Tools 2026 misses: both vectors of the stated length, and only E4M3/E5M2 for
//! Dot4) and of the type rules of SPV_KHR_bfloat16 / SPV_EXT_float8 it relies on. spirv-as
//! 2025.5 does not know the VALVE opcodes, so there is no spirv-val comparison.

mod ext_common;
mod support;

use ext_common::{Rule, check_rules, validate_edited};
use std::collections::HashSet;

/// `Float8UnsignedE8M0EXT` (SPIRV-Headers, SPV_EXT_ocp_microscaling_types).
const E8M0: u32 = 4226;
/// `Float8E4M3EXT`, replaced by [`E8M0`] after assembly.
const E4M3: u32 = 4214;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Enc {
    F16,
    BF16,
    E4M3,
    E5M2,
    E8M0,
    F32,
    F64,
    /// A 16-bit integer (not a float at all).
    I16,
}

const ENCS: [Enc; 8] = [
    Enc::F16,
    Enc::BF16,
    Enc::E4M3,
    Enc::E5M2,
    Enc::E8M0,
    Enc::F32,
    Enc::F64,
    Enc::I16,
];

impl Enc {
    fn name(self) -> &'static str {
        match self {
            Enc::F16 => "%f16",
            Enc::BF16 => "%bf16",
            Enc::E4M3 => "%e4m3",
            Enc::E5M2 => "%e5m2",
            Enc::E8M0 => "%e8m0",
            Enc::F32 => "%f32",
            Enc::F64 => "%f64",
            Enc::I16 => "%i16",
        }
    }

    fn decl(self) -> &'static str {
        match self {
            Enc::F16 => "OpTypeFloat 16",
            Enc::BF16 => "OpTypeFloat 16 BFloat16KHR",
            Enc::E4M3 => "OpTypeFloat 8 Float8E4M3EXT",
            Enc::E5M2 => "OpTypeFloat 8 Float8E5M2EXT",
            // Written as E4M3 and patched to E8M0 after assembly.
            Enc::E8M0 => "OpTypeFloat 8 Float8E4M3EXT",
            Enc::F32 => "OpTypeFloat 32",
            Enc::F64 => "OpTypeFloat 64",
            Enc::I16 => "OpTypeInt 16 1",
        }
    }
}

/// An input operand type: a scalar (`len` 1) or vector of `enc`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Input {
    enc: Enc,
    len: u32,
}

const OPS: [&str; 3] = [
    "OpFDot2MixAcc32VALVE",
    "OpFDot2MixAcc16VALVE",
    "OpFDot4MixAcc32VALVE",
];

/// The four VALVE capabilities, in bit order of `Case::valve`.
const VALVE_CAPS: [&str; 4] = [
    "DotProductFloat16AccFloat32VALVE",
    "DotProductFloat16AccFloat16VALVE",
    "DotProductBFloat16AccVALVE",
    "DotProductFloat8AccFloat32VALVE",
];

#[derive(Clone, Copy, Debug)]
struct Case {
    op: usize,
    a: Input,
    b: Input,
    result: Enc,
    /// The accumulator's type (a scalar).
    acc: Enc,
    /// Bit i: `VALVE_CAPS[i]` declared.
    valve: u8,
    /// Float16, BFloat16TypeKHR, Float8EXT declared explicitly (Float64 and Int16 always).
    base_caps: bool,
    ext_bf16: bool,
    ext_fp8: bool,
}

impl Case {
    fn has(&self, cap: usize) -> bool {
        self.valve & (1 << cap) != 0
    }

    /// Every type the module declares.
    fn encodings(&self) -> Vec<Enc> {
        let mut v = vec![self.a.enc, self.b.enc, self.result, self.acc];
        v.sort_by_key(|e| *e as u8);
        v.dedup();
        v
    }
}

/// The rules, one by one (names are spvx's variants; `Capability::*` stands for the core rules
/// "the instruction / enumerant / width needs a capability" and "a capability needs its
/// extension", whose variants belong to the core concern).
fn rules(c: &Case) -> Vec<Rule> {
    let mut broken = Vec::new();
    let core = Rule::both("Capability", "*");
    let mix = |v| Rule::ours("MixedDot", v);
    let op = OPS[c.op];
    let dot4 = c.op == 2;
    // Types. Implicit declarations (seed 003 table): DotProductFloat16Acc* declare Float16,
    // DotProductBFloat16AccVALVE declares BFloat16TypeKHR, DotProductFloat8AccFloat32VALVE
    // declares Float8EXT.
    let float16 = c.base_caps || c.has(0) || c.has(1);
    let bf16 = c.base_caps || c.has(2);
    let fp8 = c.base_caps || c.has(3);
    for e in c.encodings() {
        match e {
            Enc::F16 if !float16 => broken.push(core),
            // SPV_KHR_bfloat16: BFloat16KHR "requires the BFloat16TypeKHR capability"; the
            // encoding operand's grammar entry lists it too (core rule).
            Enc::BF16 if !bf16 => broken.extend([mix("EncodingCapability"), core]),
            Enc::E4M3 | Enc::E5M2 if !fp8 => broken.extend([mix("EncodingCapability"), core]),
            // Not an encoding the VALVE rules know; the grammar supplement names it
            // (SPV_EXT_ocp_microscaling_types), so its Float8UnsignedE8M0EXT capability, never
            // declared here, is missing too (core rule).
            Enc::E8M0 => broken.extend([mix("UnknownEncoding"), core]),
            _ => {}
        }
    }
    // Declared capabilities need their extensions (dependencies of seed 003; the base type
    // capabilities' own extensions are core rules).
    if !c.ext_bf16 {
        if c.has(2) {
            broken.extend([mix("CapabilityNeedsExtension"), core]);
        }
        if c.base_caps || c.encodings().contains(&Enc::BF16) {
            broken.push(core);
        }
    }
    if !c.ext_fp8 {
        if c.has(3) {
            broken.extend([mix("CapabilityNeedsExtension"), core]);
        }
        if c.base_caps
            || c.encodings()
                .iter()
                .any(|e| matches!(e, Enc::E4M3 | Enc::E5M2))
        {
            broken.push(core);
        }
    }
    // The opcode's grammar capabilities (any one of them).
    let grammar_caps: &[usize] = match c.op {
        0 => &[0, 2],
        1 => &[1, 2],
        _ => &[3],
    };
    if !grammar_caps.iter().any(|&i| c.has(i)) {
        broken.push(core);
    }
    // "Vector 1 and Vector 2 must be vectors of 2 components of floating point types using the
    // IEEE 754 encoding ... or the BFloat16KHR encoding. The component width must be 16 bits."
    // / "vectors of 4 components of floating point types using the Float8E4M3EXT or
    // Float8E5M2EXT encoding".
    let input_ok = |i: Input| {
        if dot4 {
            i.len == 4 && matches!(i.enc, Enc::E4M3 | Enc::E5M2)
        } else {
            i.len == 2 && matches!(i.enc, Enc::F16 | Enc::BF16)
        }
    };
    if !input_ok(c.a) || !input_ok(c.b) {
        broken.push(mix(if dot4 { "Dot4Vector" } else { "Dot2Vector" }));
    }
    // Dot2: "Vector 1 and Vector 2 must have the same type."
    if !dot4 && c.a != c.b {
        broken.push(mix("NotSameType"));
    }
    // Result Type.
    if op == "OpFDot2MixAcc16VALVE" {
        // "a scalar floating-point type equal to the components of Vector 1 and Vector 2".
        if c.result != c.a.enc || c.result != c.b.enc {
            broken.push(mix("ResultNotComponent"));
        }
    } else if c.result != Enc::F32 {
        // "a scalar floating-point type using the IEEE 754 encoding. The component width must
        // be 32 bits."
        broken.push(mix("ResultNotF32"));
    }
    // "The type of Accumulator must be the same as Result Type."
    if c.acc != c.result {
        broken.push(mix("AccumulatorType"));
    }
    // The capability that enables the input encoding.
    let needed = match (c.op, c.a.enc) {
        (2, _) => 3,
        (_, Enc::BF16) => 2,
        (0, _) => 0,
        _ => 1,
    };
    if !c.has(needed) {
        broken.push(mix("NeedsCapability"));
    }
    broken
}

fn module(c: &Case) -> String {
    let mut s = String::from("OpCapability Shader\nOpCapability Float64\nOpCapability Int16\n");
    if c.base_caps {
        s += "OpCapability Float16\nOpCapability BFloat16TypeKHR\nOpCapability Float8EXT\n";
    }
    for (i, cap) in VALVE_CAPS.iter().enumerate() {
        if c.has(i) {
            s += &format!("OpCapability {cap}\n");
        }
    }
    s += "OpExtension \"SPV_VALVE_mixed_float_dot_product\"\n";
    if c.ext_bf16 {
        s += "OpExtension \"SPV_KHR_bfloat16\"\n";
    }
    if c.ext_fp8 {
        s += "OpExtension \"SPV_EXT_float8\"\n";
    }
    s += "OpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\"\n\
          OpExecutionMode %main LocalSize 1 1 1\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n";
    for e in c.encodings() {
        s += &format!("{} = {}\n", e.name(), e.decl());
    }
    let mut seen = HashSet::new();
    let mut ty = |s: &mut String, i: Input| -> String {
        if i.len == 1 {
            return i.enc.name().to_string();
        }
        let name = format!("%v{}{}", i.len, &i.enc.name()[1..]);
        if seen.insert(name.clone()) {
            *s += &format!("{name} = OpTypeVector {} {}\n", i.enc.name(), i.len);
        }
        name
    };
    let (ta, tb) = (ty(&mut s, c.a), ty(&mut s, c.b));
    s += &format!(
        "%a = OpUndef {ta}\n%b = OpUndef {tb}\n%acc = OpUndef {}\n",
        c.acc.name()
    );
    s += &format!(
        "%main = OpFunction %void None %fn\n%l = OpLabel\n%r = {} {} %a %b %acc\nOpReturn\nOpFunctionEnd\n",
        OPS[c.op],
        c.result.name()
    );
    s
}

/// spvx's errors on the case, with the E8M0 type patched into the binary.
fn spvx_errors(c: &Case, text: &str) -> Vec<spvx_val::ValError> {
    let patch = c.encodings().contains(&Enc::E8M0);
    validate_edited(text, "spv1.6", |insts| {
        if !patch {
            return;
        }
        // The E8M0 type is the only E4M3-declared one when E8M0 is in the case (E4M3 itself is
        // never in the same case; see `cases`).
        for inst in insts
            .iter_mut()
            .filter(|i| i.opcode == spvx_spirv::op::Op::TypeFloat)
        {
            for o in inst.operands.iter_mut() {
                if let spvx_spirv::instruction::OperandValue::Word(w) = &mut o.value
                    && *w == E4M3
                {
                    *w = E8M0;
                }
            }
        }
    })
}

/// The well-formed inputs of each opcode (for the result/accumulator/capability products).
fn natural_inputs(op: usize) -> Vec<(Input, Input)> {
    let v = |enc, len| Input { enc, len };
    match op {
        0 | 1 => vec![
            (v(Enc::F16, 2), v(Enc::F16, 2)),
            (v(Enc::BF16, 2), v(Enc::BF16, 2)),
        ],
        _ => vec![
            (v(Enc::E4M3, 4), v(Enc::E4M3, 4)),
            (v(Enc::E5M2, 4), v(Enc::E5M2, 4)),
            (v(Enc::E4M3, 4), v(Enc::E5M2, 4)),
            (v(Enc::E5M2, 4), v(Enc::E4M3, 4)),
        ],
    }
}

/// The natural result type of a case with these inputs.
fn natural_result(op: usize, a: Input) -> Enc {
    if op == 1 { a.enc } else { Enc::F32 }
}

fn cases() -> Vec<Case> {
    let full = Case {
        op: 0,
        a: Input {
            enc: Enc::F16,
            len: 2,
        },
        b: Input {
            enc: Enc::F16,
            len: 2,
        },
        result: Enc::F32,
        acc: Enc::F32,
        valve: 0xf,
        base_caps: true,
        ext_bf16: true,
        ext_fp8: true,
    };
    let mut cases = Vec::new();
    let inputs: Vec<Input> = ENCS
        .iter()
        .flat_map(|&enc| [1, 2, 3, 4].map(|len| Input { enc, len }))
        .collect();
    for op in 0..3 {
        // Every Vector 1 against Vector 2 of the same type, of each other encoding at the same
        // length, and of each other length in the same encoding.
        for &a in &inputs {
            let mut partners = vec![a];
            partners.extend(
                ENCS.iter()
                    .filter(|&&e| e != a.enc)
                    .map(|&enc| Input { enc, ..a }),
            );
            partners.extend(
                [1, 2, 3, 4]
                    .into_iter()
                    .filter(|&l| l != a.len)
                    .map(|len| Input { len, ..a }),
            );
            for b in partners {
                let result = natural_result(op, a);
                cases.push(Case {
                    op,
                    a,
                    b,
                    result,
                    acc: result,
                    ..full
                });
            }
        }
        // Well-formed inputs × every result type × accumulator = result or not × every subset
        // of the VALVE capabilities.
        for (a, b) in natural_inputs(op) {
            for result in ENCS {
                for acc_same in [true, false] {
                    for valve in 0..16u8 {
                        let acc = if acc_same {
                            result
                        } else if result == Enc::F32 {
                            Enc::F16
                        } else {
                            Enc::F32
                        };
                        cases.push(Case {
                            op,
                            a,
                            b,
                            result,
                            acc,
                            valve,
                            ..full
                        });
                    }
                }
            }
        }
        // Implicit declarations and extensions: no base type capabilities, every VALVE subset
        // × each extension present or not.
        for (a, b) in natural_inputs(op) {
            for valve in 0..16u8 {
                for (ext_bf16, ext_fp8) in
                    [(true, true), (false, true), (true, false), (false, false)]
                {
                    let result = natural_result(op, a);
                    cases.push(Case {
                        op,
                        a,
                        b,
                        result,
                        acc: result,
                        valve,
                        base_caps: false,
                        ext_bf16,
                        ext_fp8,
                    });
                }
            }
        }
    }
    // E8M0 is written as E4M3 and patched: never with a real E4M3 in the same case.
    cases.retain(|c| !(c.encodings().contains(&Enc::E8M0) && c.encodings().contains(&Enc::E4M3)));
    cases
}

#[test]
fn every_combination_matches_the_spec_rules() {
    let (mut total, mut valid, mut failures) = (0, 0, Vec::new());
    for c in cases() {
        let text = module(&c);
        let broken = rules(&c);
        total += 1;
        valid += broken.is_empty() as usize;
        let errors = spvx_errors(&c, &text);
        failures.extend(check_rules(&errors, &broken, &format!("{c:?}")));
    }
    assert!(
        total > 1500 && valid > 50,
        "too few cases: {total} / {valid}"
    );
    assert!(
        failures.is_empty(),
        "{} of {total} cases disagree ({valid} valid):\n{}",
        failures.len(),
        failures[..failures.len().min(25)].join("\n")
    );
    eprintln!("{total} cases ({valid} valid)");
}
