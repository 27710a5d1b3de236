//! Builds the [`Grammar`] from the vendored SPIRV-Headers grammar files and spvx's supplement,
//! in the binary form the build script stores them in ([`super::source`]).
//!
//! The grammar is compiled into the binary; it is not user input, so a malformed file is a build
//! defect and fails loudly (the build script reads every file; the grammar tests build the table
//! on every test run).

use super::ImportName::{Exact, Prefix};
use super::source::{GrammarSource, SourceInstruction, SourceKind, SourceOperand};
use super::{
    CommonKinds, Enumerant, ExtInstSet, ExtInstruction, Grammar, ImportName, Instruction, KindId,
    Operand, OperandKind, Quantifier, Shape, Version, is_non_semantic_import,
};
use crate::op::Op;
use rustc_hash::FxHashMap as HashMap;

/// The stored form of `grammar/$file` (written by the build script).
macro_rules! stored {
    ($file:literal) => {
        include_bytes!(concat!(env!("OUT_DIR"), "/", $file, ".postcard"))
    };
}

const CORE: &[u8] = stored!("spirv.core.grammar.json");
const SUPPLEMENT: &[u8] = stored!("supplement.json");

/// One vendored extended instruction set grammar and how spvx treats it.
struct ExtSetSource {
    import: ImportName,
    stored: &'static [u8],
    /// spirv-dis 2025.5 prints its instruction names.
    by_name: bool,
}

macro_rules! ext_set {
    ($import:expr, $file:literal, $by_name:expr) => {
        ExtSetSource {
            import: $import,
            stored: stored!($file),
            by_name: $by_name,
        }
    };
}

/// Every extended instruction set grammar SPIRV-Headers 1.4.335 ships, with the import names
/// SPIRV-Tools 2025.5 maps to it (`spvExtInstImportTypeGet`). spirv-as 2025.5 does not resolve
/// the names of `NonSemantic.DebugPrintf` and `NonSemantic.DebugBreak`; it reads them as unknown
/// non-semantic sets, so spirv-dis prints their instructions as numbers.
const EXT_SETS: &[ExtSetSource] = &[
    ext_set!(
        Exact("GLSL.std.450"),
        "extinst.glsl.std.450.grammar.json",
        true
    ),
    ext_set!(
        Exact("OpenCL.std"),
        "extinst.opencl.std.100.grammar.json",
        true
    ),
    ext_set!(
        Exact("SPV_AMD_shader_explicit_vertex_parameter"),
        "extinst.spv-amd-shader-explicit-vertex-parameter.grammar.json",
        true
    ),
    ext_set!(
        Exact("SPV_AMD_shader_trinary_minmax"),
        "extinst.spv-amd-shader-trinary-minmax.grammar.json",
        true
    ),
    ext_set!(
        Exact("SPV_AMD_gcn_shader"),
        "extinst.spv-amd-gcn-shader.grammar.json",
        true
    ),
    ext_set!(
        Exact("SPV_AMD_shader_ballot"),
        "extinst.spv-amd-shader-ballot.grammar.json",
        true
    ),
    ext_set!(Exact("DebugInfo"), "extinst.debuginfo.grammar.json", true),
    ext_set!(
        Exact("OpenCL.DebugInfo.100"),
        "extinst.opencl.debuginfo.100.grammar.json",
        true
    ),
    ext_set!(
        Exact("NonSemantic.Shader.DebugInfo.100"),
        "extinst.nonsemantic.shader.debuginfo.100.grammar.json",
        true
    ),
    ext_set!(
        Prefix("NonSemantic.ClspvReflection."),
        "extinst.nonsemantic.clspvreflection.grammar.json",
        true
    ),
    ext_set!(
        Prefix("NonSemantic.VkspReflection."),
        "extinst.nonsemantic.vkspreflection.grammar.json",
        true
    ),
    ext_set!(
        Exact("NonSemantic.DebugPrintf"),
        "extinst.nonsemantic.debugprintf.grammar.json",
        false
    ),
    ext_set!(
        Exact("NonSemantic.DebugBreak"),
        "extinst.nonsemantic.debugbreak.grammar.json",
        false
    ),
    ext_set!(
        Exact("TOSA.001000.1"),
        "extinst.tosa.001000.1.grammar.json",
        true
    ),
    ext_set!(
        Exact("Arm.MotionEngine.100"),
        "extinst.arm.motion-engine.100.grammar.json",
        true
    ),
];

fn read(name: &str, stored: &'static [u8]) -> GrammarSource<'static> {
    postcard::from_bytes(stored)
        .unwrap_or_else(|e| panic!("the stored grammar {name} does not read: {e}"))
}

fn parse_version(v: Option<&str>) -> Option<Version> {
    let v = v?;
    let (major, minor) = v.split_once('.')?;
    Some(Version::new(major.parse().ok()?, minor.parse().ok()?))
}

/// Operand kinds in grammar order, with supplement enumerants appended to existing kinds; a
/// supplement enumerant named like an existing one adds its capabilities, extensions and
/// aliases to it (e.g. implicit declarations the core grammar lacks). Takes both lists by value
/// and moves their vectors (building the grammar is a cost of every process).
fn merge_kinds(
    core: Vec<SourceKind<'static>>,
    supplement: Vec<SourceKind<'static>>,
) -> Vec<SourceKind<'static>> {
    let mut out: Vec<SourceKind<'static>> = Vec::with_capacity(core.len() + supplement.len());
    for k in core.into_iter().chain(supplement) {
        match out.iter_mut().find(|o| o.kind == k.kind) {
            Some(o) => {
                for e in k.enumerants {
                    match o.enumerants.iter_mut().find(|x| x.enumerant == e.enumerant) {
                        Some(x) => {
                            add_missing(&mut x.capabilities, e.capabilities);
                            add_missing(&mut x.extensions, e.extensions);
                            add_missing(&mut x.aliases, e.aliases);
                        }
                        None => o.enumerants.push(e),
                    }
                }
            }
            None => out.push(k),
        }
    }
    out
}

/// Appends the names of `from` that `to` lacks, in order (a supplement entry's aliases,
/// capabilities or extensions added to the core grammar's entry of the same name).
fn add_missing(to: &mut Vec<&'static str>, from: Vec<&'static str>) {
    for item in from {
        if !to.contains(&item) {
            to.push(item);
        }
    }
}

/// Looks a kind name up: the grammar's own kinds first (an extended set's), then the core's.
fn resolve(local: &HashMap<&str, KindId>, core: &HashMap<String, KindId>, name: &str) -> KindId {
    local
        .get(name)
        .or_else(|| core.get(name))
        .copied()
        .unwrap_or_else(|| panic!("vendored grammar names unknown operand kind {name}"))
}

fn operand(o: &SourceOperand<'static>, kind_id: &dyn Fn(&str) -> KindId) -> Operand {
    Operand {
        kind: kind_id(o.kind),
        quantifier: match o.quantifier {
            Some("?") => Quantifier::Optional,
            Some("*") => Quantifier::Variadic,
            _ => Quantifier::One,
        },
        name: o.name,
    }
}

/// One operand kind; `name` is the name spvx keys it by (set-qualified for an extended set),
/// `k` the grammar's, whose enumerants it takes.
fn operand_kind(
    name: String,
    k: SourceKind<'static>,
    kind_id: &dyn Fn(&str) -> KindId,
) -> OperandKind {
    let shape = match (k.category, k.kind) {
        ("Id", "IdResultType") => Shape::IdResultType,
        ("Id", "IdResult") => Shape::IdResult,
        ("Id", _) => Shape::IdRef,
        ("Literal", "LiteralString") => Shape::LiteralString,
        ("Literal", "LiteralFloat") => Shape::LiteralFloat,
        ("Literal", "LiteralContextDependentNumber") => Shape::LiteralContextDependentNumber,
        ("Literal", "LiteralExtInstInteger") => Shape::LiteralExtInstInteger,
        ("Literal", "LiteralSpecConstantOpInteger") => Shape::LiteralSpecConstantOpInteger,
        ("Literal", _) => Shape::LiteralInteger,
        ("ValueEnum", _) => Shape::ValueEnum,
        ("BitEnum", _) => Shape::BitEnum,
        ("Composite", _) if k.bases.len() == 2 => {
            Shape::Pair(kind_id(k.bases[0]), kind_id(k.bases[1]))
        }
        (category, _) => {
            panic!("vendored grammar has an unknown operand kind category {category}")
        }
    };
    let enumerants: Vec<Enumerant> = k
        .enumerants
        .into_iter()
        .map(|e| Enumerant {
            value: e.value,
            parameters: e.parameters.iter().map(|o| operand(o, kind_id)).collect(),
            version: parse_version(e.version),
            last_version: parse_version(e.last_version),
            name: e.enumerant,
            aliases: e.aliases,
            capabilities: e.capabilities,
            extensions: e.extensions,
        })
        .collect();
    let mut by_value = HashMap::with_capacity_and_hasher(enumerants.len(), Default::default());
    let mut by_name = HashMap::with_capacity_and_hasher(enumerants.len(), Default::default());
    for (i, e) in enumerants.iter().enumerate() {
        by_value.entry(e.value).or_insert(i);
        by_name.entry(e.name).or_insert(i);
        for a in &e.aliases {
            by_name.entry(*a).or_insert(i);
        }
    }
    OperandKind {
        name,
        shape,
        enumerants,
        by_value,
        by_name,
    }
}

/// An extended instruction set: its own operand kinds are appended to `kinds` under
/// set-qualified names (also entered in `kind_by_name`).
fn ext_inst_set(
    source: &ExtSetSource,
    kinds: &mut Vec<OperandKind>,
    kind_by_name: &mut HashMap<String, KindId>,
) -> ExtInstSet {
    let import = source.import.text();
    let g = read(import, source.stored);
    let mut local: HashMap<&str, KindId> = HashMap::default();
    for (i, k) in g.operand_kinds.iter().enumerate() {
        local.insert(k.kind, KindId((kinds.len() + i) as u16));
    }
    let core: &HashMap<String, KindId> = kind_by_name;
    let kind_id = |name: &str| resolve(&local, core, name);
    let new_kinds: Vec<OperandKind> = g
        .operand_kinds
        .into_iter()
        .map(|k| operand_kind(format!("{import} {}", k.kind), k, &kind_id))
        .collect();
    let instructions: Vec<ExtInstruction> = g
        .instructions
        .into_iter()
        .map(|i| ExtInstruction {
            operands: i.operands.iter().map(|o| operand(o, &kind_id)).collect(),
            name: i.opname,
            number: i.opcode,
            capabilities: i.capabilities,
        })
        .collect();
    for k in new_kinds {
        kind_by_name.insert(k.name.clone(), KindId(kinds.len() as u16));
        kinds.push(k);
    }
    let by_number = instructions
        .iter()
        .enumerate()
        .map(|(i, x)| (x.number, i))
        .collect();
    let by_name = instructions
        .iter()
        .enumerate()
        .map(|(i, x)| (x.name, i))
        .collect();
    ExtInstSet {
        name: import,
        import: source.import,
        non_semantic: is_non_semantic_import(import),
        disassembled_by_name: source.by_name,
        instructions,
        by_number,
        by_name,
    }
}

pub(super) fn build() -> Grammar {
    let core = read("spirv.core.grammar.json", CORE);
    let supplement = read("supplement.json", SUPPLEMENT);
    let version = Version::new(
        core.major_version.unwrap_or(1),
        core.minor_version.unwrap_or(6),
    );
    let merged = merge_kinds(core.operand_kinds, supplement.operand_kinds);

    let mut kind_by_name: HashMap<String, KindId> = merged
        .iter()
        .enumerate()
        .map(|(i, k)| (k.kind.to_string(), KindId(i as u16)))
        .collect();
    let no_local = HashMap::default();
    let core_names = kind_by_name.clone();
    let kind_id = |name: &str| resolve(&no_local, &core_names, name);

    let mut kinds: Vec<OperandKind> = merged
        .into_iter()
        .map(|k| operand_kind(k.kind.to_string(), k, &kind_id))
        .collect();

    // A supplement instruction named like a core one adds its aliases, capabilities and
    // extensions to it (names SPIRV-Headers gave later, e.g. OpTypeVectorIdEXT).
    let mut merged_insts: Vec<SourceInstruction<'static>> = core.instructions;
    for i in supplement.instructions {
        match merged_insts
            .iter_mut()
            .find(|c| c.opcode == i.opcode && c.opname == i.opname)
        {
            Some(c) => {
                add_missing(&mut c.aliases, i.aliases);
                add_missing(&mut c.capabilities, i.capabilities);
                add_missing(&mut c.extensions, i.extensions);
            }
            None => merged_insts.push(i),
        }
    }
    let instructions: Vec<Instruction> = merged_insts
        .into_iter()
        .map(|i| Instruction {
            opcode: u16::try_from(i.opcode)
                .ok()
                .and_then(Op::from_number)
                .unwrap_or_else(|| panic!("vendored grammar opcode {} has no Op", i.opcode)),
            operands: i.operands.iter().map(|o| operand(o, &kind_id)).collect(),
            version: parse_version(i.version),
            last_version: parse_version(i.last_version),
            name: i.opname,
            aliases: i.aliases,
            class: i.class,
            capabilities: i.capabilities,
            extensions: i.extensions,
        })
        .collect();
    let max_opcode = instructions
        .iter()
        .map(|i| i.opcode.number())
        .max()
        .unwrap_or(0);
    let mut by_opcode = vec![u32::MAX; max_opcode as usize + 1];
    let mut by_name = HashMap::default();
    for (i, inst) in instructions.iter().enumerate() {
        let slot = &mut by_opcode[inst.opcode.number() as usize];
        if *slot == u32::MAX {
            *slot = i as u32;
        }
        by_name.entry(inst.name).or_insert(i);
        for a in &inst.aliases {
            by_name.entry(*a).or_insert(i);
        }
    }

    let ext_inst_sets = EXT_SETS
        .iter()
        .map(|source| ext_inst_set(source, &mut kinds, &mut kind_by_name))
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
        version,
        instructions,
        kinds,
        ext_inst_sets,
        common,
        by_opcode,
        by_name,
        kind_by_name,
    }
}
