//! The vendored grammar agrees with the `rspirv` grammar tables and the `spirv` enums, which are
//! generated independently from SPIRV-Headers (SDK 1.4.341): same opcodes, names, operand kinds
//! and quantifiers for every instruction both know, and the same values for every capability.

use rspirv::grammar::{INSTRUCTION_TABLE, OperandQuantifier};
use spvx_spirv::grammar::{Quantifier, grammar};

#[test]
fn every_rspirv_instruction_matches() {
    let g = grammar();
    let mut checked = 0;
    let mut missing = Vec::new();
    let mut renamed = Vec::new();
    for inst in INSTRUCTION_TABLE.iter() {
        let opcode = inst.opcode as u32 as u16;
        let Some(ours) = g.instruction_by_number(opcode) else {
            missing.push(format!("Op{} ({opcode})", inst.opname));
            continue;
        };
        let name = format!("Op{}", inst.opname);
        if ours.name != name && !ours.aliases.contains(&name.as_str()) {
            renamed.push(format!("{opcode}: {name} vs {}", ours.name));
        }
        let theirs: Vec<(String, Quantifier)> = inst
            .operands
            .iter()
            .map(|o| {
                let q = match o.quantifier {
                    OperandQuantifier::One => Quantifier::One,
                    OperandQuantifier::ZeroOrOne => Quantifier::Optional,
                    OperandQuantifier::ZeroOrMore => Quantifier::Variadic,
                };
                (format!("{:?}", o.kind), q)
            })
            .collect();
        let mine: Vec<(String, Quantifier)> = ours
            .operands
            .iter()
            .map(|o| (g.kind(o.kind).name.clone(), o.quantifier))
            .collect();
        assert_eq!(mine, theirs, "operands of {name}");
        checked += 1;
    }
    // The canonical names that changed between SDK 1.4.335 (vendored, and what SPIRV-Tools
    // 2025.5 prints) and SDK 1.4.341 (the crates) — OpTypeVectorIdEXT (5288) and
    // OpGroupNonUniformPartitionEXT (5296) — are aliases from spvx's supplement.
    assert_eq!(renamed, Vec::<String>::new());
    assert!(checked > 700, "only {checked} instructions checked");
    // SDK 1.4.341 may know a few instructions that the vendored 1.4.335 grammar predates.
    assert!(
        missing.len() < 10,
        "instructions missing from the vendored grammar: {missing:?}"
    );
}

#[test]
fn every_spirv_capability_value_matches() {
    let g = grammar();
    let caps = g.kind(g.common.capability);
    let mut renamed = Vec::new();
    let mut checked = 0;
    for e in &caps.enumerants {
        if let Some(c) = spirv::Capability::from_u32(e.value) {
            let theirs = format!("{c:?}");
            if theirs != e.name && !e.aliases.contains(&theirs.as_str()) {
                renamed.push(format!("{}: {theirs} vs {}", e.value, e.name));
            }
            checked += 1;
        }
    }
    assert!(checked > 250, "only {checked} capabilities checked");
    // GroupNonUniformPartitionedEXT (5297, SDK 1.4.341's name) is an alias from the supplement.
    assert_eq!(renamed, Vec::<String>::new());
}

#[test]
fn supplement_adds_valve() {
    let g = grammar();
    let i = g.instruction_by_number(6916).expect("OpFDot2MixAcc32VALVE");
    assert_eq!(i.name, "OpFDot2MixAcc32VALVE");
    assert_eq!(i.operands.len(), 5);
    assert_eq!(
        g.instruction_by_name("OpFDot4MixAcc32VALVE")
            .map(|i| i.opcode.number()),
        Some(6918)
    );
    let caps = g.kind(g.common.capability);
    let e = caps.enumerant(6914).expect("DotProductBFloat16AccVALVE");
    assert_eq!(e.name, "DotProductBFloat16AccVALVE");
    assert_eq!(e.capabilities, vec!["BFloat16TypeKHR".to_string()]);
    // Unknown to the spirv crate, as reference/mixedfloat.md §3.2 records.
    assert!(spirv::Capability::from_u32(6912).is_none());
}

#[test]
fn aliases_resolve_to_canonical_names() {
    let g = grammar();
    assert_eq!(
        g.instruction_by_name("OpSDotKHR").map(|i| i.name),
        Some("OpSDot")
    );
    assert_eq!(
        g.instruction_by_name("OpFixedSqrtINTEL").map(|i| i.name),
        Some("OpFixedSqrtALTERA")
    );
    let caps = g.kind(g.common.capability);
    assert_eq!(
        caps.enumerant_by_name("DotProductInputAllKHR")
            .map(|e| e.value),
        Some(6016)
    );
    let pvf = g.kind(g.kind_by_name("PackedVectorFormat").unwrap());
    assert_eq!(
        pvf.enumerant_by_name("PackedVectorFormat4x8BitKHR")
            .map(|e| e.value),
        Some(0)
    );
    let tops = g.kind(g.kind_by_name("TensorOperands").unwrap());
    let oob = tops.enumerant_by_name("OutOfBoundsValueARM").unwrap();
    assert_eq!(oob.value, 2);
    assert_eq!(oob.parameters.len(), 1);
    assert!(
        g.ext_inst_set("GLSL.std.450")
            .unwrap()
            .instruction_by_name("FMix")
            .is_some()
    );
    assert!(
        g.ext_inst_set("OpenCL.std")
            .unwrap()
            .instruction(0)
            .is_some()
    );
    assert!(g.ext_inst_set("NonSemantic.DebugPrintf").is_some());
}
