//! Builds the [`Grammar`] from the vendored SPIRV-Headers JSON files and spvx's supplement.
//!
//! The JSON is compiled into the binary; it is not user input, so a malformed file is a build
//! defect and fails loudly (the grammar tests load it on every test run).

use super::{
    CommonKinds, Enumerant, ExtInstSet, ExtInstruction, Grammar, Instruction, KindId, Operand,
    OperandKind, Quantifier, Shape, Version,
};
use crate::op::Op;
use serde::Deserialize;
use std::collections::HashMap;

const CORE: &str = include_str!("../../grammar/spirv.core.grammar.json");
const SUPPLEMENT: &str = include_str!("../../grammar/supplement.json");
const EXT_SETS: &[(&str, &str)] = &[
    (
        "GLSL.std.450",
        include_str!("../../grammar/extinst.glsl.std.450.grammar.json"),
    ),
    (
        "OpenCL.std",
        include_str!("../../grammar/extinst.opencl.std.100.grammar.json"),
    ),
    (
        "NonSemantic.DebugPrintf",
        include_str!("../../grammar/extinst.nonsemantic.debugprintf.grammar.json"),
    ),
];

#[derive(Deserialize)]
struct JsonGrammar {
    #[serde(default)]
    major_version: Option<u8>,
    #[serde(default)]
    minor_version: Option<u8>,
    #[serde(default)]
    instructions: Vec<JsonInstruction>,
    #[serde(default)]
    operand_kinds: Vec<JsonKind>,
}

#[derive(Deserialize)]
struct JsonInstruction {
    opname: String,
    #[serde(default)]
    class: String,
    opcode: u32,
    #[serde(default)]
    aliases: Vec<String>,
    #[serde(default)]
    operands: Vec<JsonOperand>,
    #[serde(default)]
    capabilities: Vec<String>,
    #[serde(default)]
    extensions: Vec<String>,
    #[serde(default)]
    version: Option<String>,
    #[serde(default, rename = "lastVersion")]
    last_version: Option<String>,
}

#[derive(Deserialize)]
struct JsonOperand {
    kind: String,
    #[serde(default)]
    quantifier: Option<String>,
    #[serde(default)]
    name: Option<String>,
}

#[derive(Deserialize)]
struct JsonKind {
    category: String,
    kind: String,
    #[serde(default)]
    enumerants: Vec<JsonEnumerant>,
    #[serde(default)]
    bases: Vec<String>,
}

#[derive(Deserialize)]
struct JsonEnumerant {
    enumerant: String,
    value: serde_json::Value,
    #[serde(default)]
    aliases: Vec<String>,
    #[serde(default)]
    parameters: Vec<JsonOperand>,
    #[serde(default)]
    capabilities: Vec<String>,
    #[serde(default)]
    extensions: Vec<String>,
    #[serde(default)]
    version: Option<String>,
    #[serde(default, rename = "lastVersion")]
    last_version: Option<String>,
}

fn parse_json(name: &str, text: &str) -> JsonGrammar {
    serde_json::from_str(text)
        .unwrap_or_else(|e| panic!("vendored grammar {name} is malformed: {e}"))
}

fn parse_version(v: &Option<String>) -> Option<Version> {
    let v = v.as_deref()?;
    let (major, minor) = v.split_once('.')?;
    Some(Version::new(major.parse().ok()?, minor.parse().ok()?))
}

fn enum_value(v: &serde_json::Value) -> u32 {
    match v {
        serde_json::Value::Number(n) => n.as_u64().and_then(|n| u32::try_from(n).ok()),
        serde_json::Value::String(s) => s
            .strip_prefix("0x")
            .and_then(|h| u32::from_str_radix(h, 16).ok())
            .or_else(|| s.parse().ok()),
        _ => None,
    }
    .unwrap_or_else(|| panic!("vendored grammar has a bad enumerant value {v}"))
}

/// An operand kind with the enumerants of the core grammar and the supplement together.
struct MergedKind<'a> {
    name: &'a str,
    category: &'a str,
    bases: &'a [String],
    enumerants: Vec<&'a JsonEnumerant>,
}

/// Operand kinds in grammar order, with supplement enumerants appended to existing kinds.
fn merge_kinds<'a>(core: &'a [JsonKind], supplement: &'a [JsonKind]) -> Vec<MergedKind<'a>> {
    let mut out: Vec<MergedKind<'a>> = Vec::new();
    for k in core.iter().chain(supplement) {
        match out.iter_mut().find(|o| o.name == k.kind) {
            Some(o) => o.enumerants.extend(k.enumerants.iter()),
            None => out.push(MergedKind {
                name: &k.kind,
                category: &k.category,
                bases: &k.bases,
                enumerants: k.enumerants.iter().collect(),
            }),
        }
    }
    out
}

pub(super) fn build() -> Grammar {
    let core = parse_json("spirv.core.grammar.json", CORE);
    let supplement = parse_json("supplement.json", SUPPLEMENT);
    let merged = merge_kinds(&core.operand_kinds, &supplement.operand_kinds);

    let kind_by_name: HashMap<String, KindId> = merged
        .iter()
        .enumerate()
        .map(|(i, k)| (k.name.to_string(), KindId(i as u16)))
        .collect();
    let kind_id = |name: &str| -> KindId {
        *kind_by_name
            .get(name)
            .unwrap_or_else(|| panic!("vendored grammar names unknown operand kind {name}"))
    };
    let operand = |o: &JsonOperand| Operand {
        kind: kind_id(&o.kind),
        quantifier: match o.quantifier.as_deref() {
            Some("?") => Quantifier::Optional,
            Some("*") => Quantifier::Variadic,
            _ => Quantifier::One,
        },
        name: o.name.clone(),
    };

    let kinds: Vec<OperandKind> = merged
        .iter()
        .map(|k| {
            let (name, category, bases) = (k.name, k.category, k.bases);
            let shape = match (category, name) {
                ("Id", "IdResultType") => Shape::IdResultType,
                ("Id", "IdResult") => Shape::IdResult,
                ("Id", _) => Shape::IdRef,
                ("Literal", "LiteralString") => Shape::LiteralString,
                ("Literal", "LiteralFloat") => Shape::LiteralFloat,
                ("Literal", "LiteralContextDependentNumber") => {
                    Shape::LiteralContextDependentNumber
                }
                ("Literal", "LiteralExtInstInteger") => Shape::LiteralExtInstInteger,
                ("Literal", "LiteralSpecConstantOpInteger") => Shape::LiteralSpecConstantOpInteger,
                ("Literal", _) => Shape::LiteralInteger,
                ("ValueEnum", _) => Shape::ValueEnum,
                ("BitEnum", _) => Shape::BitEnum,
                ("Composite", _) if bases.len() == 2 => {
                    Shape::Pair(kind_id(&bases[0]), kind_id(&bases[1]))
                }
                _ => panic!("vendored grammar has an unknown operand kind category {category}"),
            };
            let enumerants: Vec<Enumerant> = k
                .enumerants
                .iter()
                .map(|e| Enumerant {
                    name: e.enumerant.clone(),
                    aliases: e.aliases.clone(),
                    value: enum_value(&e.value),
                    parameters: e.parameters.iter().map(operand).collect(),
                    capabilities: e.capabilities.clone(),
                    extensions: e.extensions.clone(),
                    version: parse_version(&e.version),
                    last_version: parse_version(&e.last_version),
                })
                .collect();
            let mut by_value = HashMap::new();
            let mut by_name = HashMap::new();
            for (i, e) in enumerants.iter().enumerate() {
                by_value.entry(e.value).or_insert(i);
                by_name.entry(e.name.clone()).or_insert(i);
                for a in &e.aliases {
                    by_name.entry(a.clone()).or_insert(i);
                }
            }
            OperandKind {
                name: name.to_string(),
                shape,
                enumerants,
                by_value,
                by_name,
            }
        })
        .collect();

    let instructions: Vec<Instruction> = core
        .instructions
        .iter()
        .chain(supplement.instructions.iter())
        .map(|i| Instruction {
            name: i.opname.clone(),
            aliases: i.aliases.clone(),
            opcode: u16::try_from(i.opcode)
                .ok()
                .and_then(Op::from_number)
                .unwrap_or_else(|| panic!("vendored grammar opcode {} has no Op", i.opcode)),
            class: i.class.clone(),
            operands: i.operands.iter().map(operand).collect(),
            capabilities: i.capabilities.clone(),
            extensions: i.extensions.clone(),
            version: parse_version(&i.version),
            last_version: parse_version(&i.last_version),
        })
        .collect();
    let max_opcode = instructions
        .iter()
        .map(|i| i.opcode.number())
        .max()
        .unwrap_or(0);
    let mut by_opcode = vec![u32::MAX; max_opcode as usize + 1];
    let mut by_name = HashMap::new();
    for (i, inst) in instructions.iter().enumerate() {
        let slot = &mut by_opcode[inst.opcode.number() as usize];
        if *slot == u32::MAX {
            *slot = i as u32;
        }
        by_name.entry(inst.name.clone()).or_insert(i);
        for a in &inst.aliases {
            by_name.entry(a.clone()).or_insert(i);
        }
    }

    let ext_inst_sets = EXT_SETS
        .iter()
        .map(|(name, text)| {
            let g = parse_json(name, text);
            let instructions: Vec<ExtInstruction> = g
                .instructions
                .iter()
                .map(|i| ExtInstruction {
                    name: i.opname.clone(),
                    number: i.opcode,
                    operands: i.operands.iter().map(operand).collect(),
                    capabilities: i.capabilities.clone(),
                })
                .collect();
            let by_number = instructions
                .iter()
                .enumerate()
                .map(|(i, x)| (x.number, i))
                .collect();
            let by_name = instructions
                .iter()
                .enumerate()
                .map(|(i, x)| (x.name.clone(), i))
                .collect();
            ExtInstSet {
                name: name.to_string(),
                instructions,
                by_number,
                by_name,
            }
        })
        .collect();

    let common = CommonKinds {
        id_result_type: kind_id("IdResultType"),
        id_result: kind_id("IdResult"),
        id_ref: kind_id("IdRef"),
        literal_integer: kind_id("LiteralInteger"),
        literal_string: kind_id("LiteralString"),
        capability: kind_id("Capability"),
        decoration: kind_id("Decoration"),
        execution_mode: kind_id("ExecutionMode"),
        fp_encoding: kind_id("FPEncoding"),
    };

    Grammar {
        version: Version::new(
            core.major_version.unwrap_or(1),
            core.minor_version.unwrap_or(6),
        ),
        instructions,
        kinds,
        ext_inst_sets,
        common,
        by_opcode,
        by_name,
        kind_by_name,
    }
}
