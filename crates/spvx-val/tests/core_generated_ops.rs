//! Generated combinations for the GLSL.std.450, atomic and bit-field rules: common
//! GLSL.std.450 instructions × every (Result Type, operand type) from 7 scalar and vector
//! types (all operands of one type), the read-modify-write atomics × (Result Type, pointee,
//! Value type), and the bit-field extracts × (Result Type, Base, Offset) types. spvx's verdict
//! is checked against an independent statement of each rule written below from the
//! GLSL.std.450 specification and SPIR-V §3.52.14/§3.52.18 (not from spvx's code), and every
//! generated module is compared with spirv-val 2025.5 when it is available (~960 modules,
//! ~10 ms each).

mod support;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Ty {
    name: &'static str,
    kind: char, // 'i' signed, 'u' unsigned, 'f' float
    width: u32,
    count: u32,
}

const fn ty(name: &'static str, kind: char, width: u32, count: u32) -> Ty {
    Ty {
        name,
        kind,
        width,
        count,
    }
}

const TYPES: [Ty; 7] = [
    ty("int", 'i', 32, 1),
    ty("uint", 'u', 32, 1),
    ty("float", 'f', 32, 1),
    ty("double", 'f', 64, 1),
    ty("v2int", 'i', 32, 2),
    ty("v2uint", 'u', 32, 2),
    ty("v2float", 'f', 32, 2),
];

const PRE: &str = "OpCapability Shader
OpCapability Float64
%glsl = OpExtInstImport \"GLSL.std.450\"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main \"main\" %w_int %w_uint %w_float
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%double = OpTypeFloat 64
%v2int = OpTypeVector %int 2
%v2uint = OpTypeVector %uint 2
%v2float = OpTypeVector %float 2
%c_int = OpConstant %int 1
%c_uint = OpConstant %uint 1
%c_float = OpConstant %float 1
%c_double = OpConstant %double 1
%c_v2int = OpConstantComposite %v2int %c_int %c_int
%c_v2uint = OpConstantComposite %v2uint %c_uint %c_uint
%c_v2float = OpConstantComposite %v2float %c_float %c_float
%p_int = OpTypePointer Workgroup %int
%p_uint = OpTypePointer Workgroup %uint
%p_float = OpTypePointer Workgroup %float
%w_int = OpVariable %p_int Workgroup
%w_uint = OpVariable %p_uint Workgroup
%w_float = OpVariable %p_float Workgroup
%uint_2 = OpConstant %uint 2
%uint_0 = OpConstant %uint 0
%main = OpFunction %void None %fn
%entry = OpLabel
";

fn module(line: &str) -> String {
    format!("{PRE}{line}\nOpReturn\nOpFunctionEnd\n")
}

/// (name, operand count, rule): 'f' float, same type; 't' float 16/32-bit only; 'n' int, same
/// count and width (signedness free).
const GLSL: [(&str, usize, char); 12] = [
    ("FAbs", 1, 'f'),
    ("Floor", 1, 'f'),
    ("Sqrt", 1, 'f'),
    ("FMin", 2, 'f'),
    ("FClamp", 3, 'f'),
    ("Fma", 3, 'f'),
    ("Sin", 1, 't'),
    ("Exp", 1, 't'),
    ("Pow", 2, 't'),
    ("SAbs", 1, 'n'),
    ("UMin", 2, 'n'),
    ("SClamp", 3, 'n'),
];

/// The GLSL.std.450 rule, stated independently: float functions take and return one float
/// scalar/vector type (16/32-bit for the transcendental ones); integer functions take int
/// scalars/vectors with the Result Type's component count and width.
fn glsl_valid(rule: char, r: Ty, x: Ty) -> bool {
    match rule {
        'f' => r.kind == 'f' && x == r,
        't' => r.kind == 'f' && x == r && r.width <= 32,
        _ => r.kind != 'f' && x.kind != 'f' && x.count == r.count && x.width == r.width,
    }
}

/// The atomic rule: int scalar result; Pointer to the Result Type; Value of the Result Type.
fn atomic_valid(r: Ty, pointee: Ty, value: Ty) -> bool {
    r.kind != 'f' && r.count == 1 && pointee == r && value == r
}

/// The bit-field extract rule: int scalar/vector result; Base of the Result Type; Offset an int
/// scalar.
fn extract_valid(r: Ty, base: Ty, offset: Ty) -> bool {
    r.kind != 'f' && base == r && offset.kind != 'f' && offset.count == 1
}

struct Case {
    text: String,
    valid: bool,
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for (name, n, rule) in GLSL {
        for r in TYPES {
            for x in TYPES {
                let args: Vec<String> = (0..n).map(|_| format!("%c_{}", x.name)).collect();
                out.push(Case {
                    text: module(&format!(
                        "%a = OpExtInst %{} %glsl {name} {}",
                        r.name,
                        args.join(" ")
                    )),
                    valid: glsl_valid(rule, r, x),
                });
            }
        }
    }
    let scalars = [TYPES[0], TYPES[1], TYPES[2]];
    for op in ["OpAtomicIAdd", "OpAtomicUMax", "OpAtomicAnd"] {
        for r in scalars {
            for p in scalars {
                for v in scalars {
                    out.push(Case {
                        text: module(&format!(
                            "%a = {op} %{} %w_{} %uint_2 %uint_0 %c_{}",
                            r.name, p.name, v.name
                        )),
                        valid: atomic_valid(r, p, v),
                    });
                }
            }
        }
    }
    for r in TYPES {
        for b in TYPES {
            for o in TYPES {
                if o.kind == 'f' && o.width == 64 {
                    continue;
                }
                out.push(Case {
                    text: module(&format!(
                        "%a = OpBitFieldSExtract %{} %c_{} %c_{} %c_uint",
                        r.name, b.name, o.name
                    )),
                    valid: extract_valid(r, b, o),
                });
            }
        }
    }
    out
}

#[test]
fn verdicts_follow_the_rules() {
    let mut failures = Vec::new();
    let all = cases();
    assert!(all.iter().any(|c| c.valid) && all.iter().any(|c| !c.valid));
    for c in &all {
        let errors = support::validate_text(&c.text, "spv1.6");
        if errors.is_empty() != c.valid {
            let line = c.text.lines().rev().nth(2).unwrap_or("");
            failures.push(format!(
                "{line}: expected valid={}, got {errors:?}",
                c.valid
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn verdicts_agree_with_spirv_val() {
    let Some(dir) = support::tools_dir() else {
        eprintln!("spirv-val not found: comparison skipped");
        return;
    };
    let mut failures = Vec::new();
    for c in cases() {
        match support::spirv_val(&dir, &c.text, "spv1.6") {
            Some((ok, _)) if ok == c.valid => {}
            other => {
                let line = c.text.lines().rev().nth(2).unwrap_or("");
                failures.push(format!(
                    "{line}: rule says {}, spirv-val {other:?}",
                    c.valid
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
