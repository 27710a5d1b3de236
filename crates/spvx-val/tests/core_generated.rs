//! Generated combinations for the instruction-type rules: 13 arithmetic, bitwise, comparison
//! and logical opcodes × every (Result Type, Operand 1, Operand 2), and 8 conversion and 7
//! unary opcodes × every (Result Type, Operand), drawn from 9 scalar and vector types. spvx's
//! verdict is checked against an independent statement of each rule written below from SPIR-V
//! §3.52 (not from spvx's code), and a fixed sample of the combinations is compared with
//! spirv-val 2025.5.

mod support;

/// A scalar or vector type of the generated modules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Ty {
    name: &'static str,
    kind: char, // 'i' signed int, 'u' unsigned int, 'f' float, 'b' bool
    width: u32,
    count: u32,
}

const TYPES: [Ty; 9] = [
    Ty {
        name: "int",
        kind: 'i',
        width: 32,
        count: 1,
    },
    Ty {
        name: "uint",
        kind: 'u',
        width: 32,
        count: 1,
    },
    Ty {
        name: "long",
        kind: 'i',
        width: 64,
        count: 1,
    },
    Ty {
        name: "float",
        kind: 'f',
        width: 32,
        count: 1,
    },
    Ty {
        name: "double",
        kind: 'f',
        width: 64,
        count: 1,
    },
    Ty {
        name: "bool",
        kind: 'b',
        width: 1,
        count: 1,
    },
    Ty {
        name: "v2int",
        kind: 'i',
        width: 32,
        count: 2,
    },
    Ty {
        name: "v2uint",
        kind: 'u',
        width: 32,
        count: 2,
    },
    Ty {
        name: "v2float",
        kind: 'f',
        width: 32,
        count: 2,
    },
];

fn is_int(t: Ty) -> bool {
    t.kind == 'i' || t.kind == 'u'
}

/// The rule of each opcode, stated from the specification (§3.52.13-15) as spirv-val reads
/// it: true when (r, a, b) is a valid choice of Result Type and operand types.
fn rule(op: &str, r: Ty, a: Ty, b: Ty) -> bool {
    let int_like = |x: Ty| is_int(x) && x.count == r.count && x.width == r.width;
    match op {
        // Integer arithmetic and bitwise: signedness may differ (§2.16.1).
        "OpIAdd" | "OpISub" | "OpIMul" | "OpSDiv" | "OpBitwiseXor" => {
            is_int(r) && int_like(a) && int_like(b)
        }
        "OpUDiv" => r.kind == 'u' && a == r && b == r,
        "OpFAdd" | "OpFMul" => r.kind == 'f' && a == r && b == r,
        "OpShiftLeftLogical" => is_int(r) && int_like(a) && is_int(b) && b.count == r.count,
        "OpIEqual" | "OpULessThan" => {
            r.kind == 'b'
                && is_int(a)
                && is_int(b)
                && a.count == r.count
                && b.count == r.count
                && a.width == b.width
        }
        "OpFOrdEqual" => r.kind == 'b' && a.kind == 'f' && a.count == r.count && a == b,
        "OpLogicalAnd" => r.kind == 'b' && a == r && b == r,
        _ => unreachable!("no rule for {op}"),
    }
}

const OPS: [&str; 13] = [
    "OpIAdd",
    "OpISub",
    "OpIMul",
    "OpSDiv",
    "OpUDiv",
    "OpFAdd",
    "OpFMul",
    "OpBitwiseXor",
    "OpShiftLeftLogical",
    "OpIEqual",
    "OpULessThan",
    "OpFOrdEqual",
    "OpLogicalAnd",
];

const PRELUDE: &str = "OpCapability Shader
OpCapability Int64
OpCapability Float64
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main \"main\"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%long = OpTypeInt 64 1
%float = OpTypeFloat 32
%double = OpTypeFloat 64
%v2int = OpTypeVector %int 2
%v2uint = OpTypeVector %uint 2
%v2float = OpTypeVector %float 2
%c_int = OpConstant %int 1
%c_uint = OpConstant %uint 1
%c_long = OpConstant %long 1
%c_float = OpConstant %float 1
%c_double = OpConstant %double 1
%c_bool = OpConstantTrue %bool
%c_v2int = OpConstantComposite %v2int %c_int %c_int
%c_v2uint = OpConstantComposite %v2uint %c_uint %c_uint
%c_v2float = OpConstantComposite %v2float %c_float %c_float
%main = OpFunction %void None %fn
%entry = OpLabel
";

fn module(op: &str, r: Ty, a: Ty, b: Ty) -> String {
    format!(
        "{PRELUDE}%x = {op} %{} %c_{} %c_{}\nOpReturn\nOpFunctionEnd\n",
        r.name, a.name, b.name
    )
}

fn combinations() -> Vec<(&'static str, Ty, Ty, Ty)> {
    let mut v = Vec::new();
    for op in OPS {
        for r in TYPES {
            for a in TYPES {
                for b in TYPES {
                    v.push((op, r, a, b));
                }
            }
        }
    }
    v
}

#[test]
fn verdicts_follow_the_rules() {
    let mut failures = Vec::new();
    let mut valid = 0;
    for (op, r, a, b) in combinations() {
        let expected = rule(op, r, a, b);
        valid += expected as usize;
        let errors = support::validate_text(&module(op, r, a, b), "spv1.6");
        if errors.is_empty() != expected {
            failures.push(format!(
                "{op} {} {} {}: rule says {expected}, spvx says {:?}",
                r.name,
                a.name,
                b.name,
                errors.iter().map(|e| e.to_string()).collect::<Vec<_>>()
            ));
        }
    }
    assert!(valid > 100, "too few valid combinations: {valid}");
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}

#[test]
fn sample_agrees_with_spirv_val() {
    let Some(dir) = support::tools_dir() else {
        eprintln!("spirv-val not found: comparison skipped");
        return;
    };
    let all = combinations();
    // A fixed stride through the valid and through the invalid combinations (about 60
    // modules: spirv-as and spirv-val run once each per module).
    type Combo = (&'static str, Ty, Ty, Ty);
    let (valid, invalid): (Vec<&Combo>, Vec<&Combo>) =
        all.iter().partition(|(op, r, a, b)| rule(op, *r, *a, *b));
    let sample: Vec<_> = valid
        .iter()
        .step_by(11)
        .chain(invalid.iter().step_by(307))
        .map(|c| **c)
        .collect();
    assert!(sample.len() >= 40, "sample too small: {}", sample.len());
    let mut failures = Vec::new();
    for (op, r, a, b) in sample {
        let text = module(op, r, a, b);
        let ours = support::validate_text(&text, "spv1.6").is_empty();
        if let Some((theirs, msg)) = support::spirv_val(&dir, &text, "spv1.6")
            && theirs != ours
        {
            failures.push(format!(
                "{op} {} {} {}: spvx {ours}, spirv-val {theirs}: {msg}",
                r.name, a.name, b.name
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The unary arithmetic, bitwise and logical rules (§3.52.13-15), stated independently.
fn unary_rule(op: &str, r: Ty, a: Ty) -> bool {
    match op {
        "OpSNegate" | "OpNot" => is_int(r) && is_int(a) && a.count == r.count && a.width == r.width,
        "OpFNegate" => r.kind == 'f' && a == r,
        "OpBitCount" => is_int(r) && is_int(a) && a.count == r.count,
        "OpIsNan" | "OpIsInf" => r.kind == 'b' && a.kind == 'f' && a.count == r.count,
        "OpLogicalNot" => r.kind == 'b' && a == r,
        _ => unreachable!("no rule for {op}"),
    }
}

const UNARY: [&str; 7] = [
    "OpSNegate",
    "OpNot",
    "OpFNegate",
    "OpBitCount",
    "OpIsNan",
    "OpIsInf",
    "OpLogicalNot",
];

/// The conversion rules (§3.52.11), stated independently: true when (r, a) is valid.
fn conversion_rule(op: &str, r: Ty, a: Ty) -> bool {
    let same_count = r.count == a.count;
    match op {
        // "Result Type must be a scalar or vector of integer type, whose Signedness operand
        // is 0" (OpConvertFToU); any integer for OpConvertFToS.
        "OpConvertFToU" => r.kind == 'u' && a.kind == 'f' && same_count,
        "OpConvertFToS" => is_int(r) && a.kind == 'f' && same_count,
        "OpConvertSToF" | "OpConvertUToF" => r.kind == 'f' && is_int(a) && same_count,
        "OpUConvert" => r.kind == 'u' && is_int(a) && same_count && r.width != a.width,
        "OpSConvert" => is_int(r) && is_int(a) && same_count && r.width != a.width,
        "OpFConvert" => r.kind == 'f' && a.kind == 'f' && same_count && r.width != a.width,
        "OpBitcast" => r.kind != 'b' && a.kind != 'b' && r.width * r.count == a.width * a.count,
        _ => unreachable!("no rule for {op}"),
    }
}

const CONVERSIONS: [&str; 8] = [
    "OpConvertFToU",
    "OpConvertFToS",
    "OpConvertSToF",
    "OpConvertUToF",
    "OpUConvert",
    "OpSConvert",
    "OpFConvert",
    "OpBitcast",
];

fn conversion_module(op: &str, r: Ty, a: Ty) -> String {
    format!(
        "{PRELUDE}%x = {op} %{} %c_{}\nOpReturn\nOpFunctionEnd\n",
        r.name, a.name
    )
}

/// The rule of a unary opcode (conversion or not).
fn one_operand_rule(op: &str, r: Ty, a: Ty) -> bool {
    if CONVERSIONS.contains(&op) {
        conversion_rule(op, r, a)
    } else {
        unary_rule(op, r, a)
    }
}

fn one_operand_ops() -> impl Iterator<Item = &'static str> {
    CONVERSIONS.iter().chain(UNARY.iter()).copied()
}

#[test]
fn one_operand_verdicts_follow_the_rules() {
    let mut failures = Vec::new();
    let mut valid = 0;
    for op in one_operand_ops() {
        for r in TYPES {
            for a in TYPES {
                let expected = one_operand_rule(op, r, a);
                valid += expected as usize;
                let errors = support::validate_text(&conversion_module(op, r, a), "spv1.6");
                if errors.is_empty() != expected {
                    failures.push(format!(
                        "{op} {} {}: rule says {expected}, spvx says {:?}",
                        r.name,
                        a.name,
                        errors.iter().map(|e| e.to_string()).collect::<Vec<_>>()
                    ));
                }
            }
        }
    }
    assert!(valid > 30, "too few valid combinations: {valid}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn one_operand_ops_agree_with_spirv_val() {
    let Some(dir) = support::tools_dir() else {
        eprintln!("spirv-val not found: comparison skipped");
        return;
    };
    let mut failures = Vec::new();
    let mut k = 0usize;
    for op in one_operand_ops() {
        for r in TYPES {
            for a in TYPES {
                k += 1;
                // Every valid combination and one in 9 of the others.
                if !one_operand_rule(op, r, a) && !k.is_multiple_of(9) {
                    continue;
                }
                let text = conversion_module(op, r, a);
                let ours = support::validate_text(&text, "spv1.6").is_empty();
                if let Some((theirs, msg)) = support::spirv_val(&dir, &text, "spv1.6")
                    && theirs != ours
                {
                    failures.push(format!(
                        "{op} {} {}: spvx {ours}, spirv-val {theirs}: {msg}",
                        r.name, a.name
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
