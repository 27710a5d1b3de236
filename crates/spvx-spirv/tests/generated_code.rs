//! The checked-in generated code matches what the generator makes of the vendored grammar, and
//! the typed opcodes agree with the runtime grammar table number by number.
//!
//! `SPVX_REGENERATE=1 cargo test -p spvx-spirv --test generated_code` rewrites the generated file.

#[path = "../codegen/opcodes.rs"]
mod opcodes;

use spvx_spirv::grammar::grammar;
use spvx_spirv::op::{DebugPrintf, GlslStd450, Op, OpenClStd};
use std::path::Path;

fn read(rel: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn generated_opcodes_are_up_to_date() {
    let ext: Vec<(&opcodes::ExtSet, String)> = opcodes::EXT_SETS
        .iter()
        .map(|s| (s, read(&format!("grammar/{}", s.file))))
        .collect();
    let ext_refs: Vec<(&opcodes::ExtSet, &str)> =
        ext.iter().map(|(s, t)| (*s, t.as_str())).collect();
    let fresh = opcodes::generate(
        &read("grammar/spirv.core.grammar.json"),
        &read("grammar/supplement.json"),
        &ext_refs,
    )
    .expect("the grammar generates");
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/op/generated.rs");
    if std::env::var_os("SPVX_REGENERATE").is_some() {
        std::fs::write(&path, &fresh).expect("write the generated file");
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        checked_in == fresh,
        "src/op/generated.rs is stale: run `SPVX_REGENERATE=1 cargo test -p spvx-spirv --test generated_code`"
    );
}

#[test]
fn every_core_opcode_of_the_grammar_table_has_its_enum_value() {
    let g = grammar();
    assert_eq!(g.instructions.len(), Op::ALL.len());
    for inst in &g.instructions {
        let op = inst.opcode;
        assert_eq!(op.name(), inst.name);
        assert_eq!(Op::from_number(op.number()), Some(op));
        assert_eq!(
            g.instruction_by_number(op.number()).map(|i| &i.name),
            Some(&inst.name)
        );
        for alias in &inst.aliases {
            assert_eq!(g.instruction_by_name(alias).map(|i| i.opcode), Some(op));
        }
    }
    // Spot checks against the specification's numbers (SPIR-V 1.6 §3.52, the extension texts).
    assert_eq!(Op::TypeStruct.number(), 30);
    assert_eq!(Op::SDot.number(), 4450);
    assert_eq!(Op::SDotKHR, Op::SDot);
    assert_eq!(Op::FDot2MixAcc32VALVE.number(), 6916);
    assert_eq!(Op::Undef.number(), 1);
    assert_eq!(Op::from_number(13), None); // 13 is unassigned
}

#[test]
fn every_extended_instruction_has_its_enum_value() {
    let g = grammar();
    let check = |import: &str, all: Vec<(u32, &str)>| {
        let set = g
            .ext_inst_set(import)
            .unwrap_or_else(|| panic!("{import} missing"));
        assert_eq!(set.instructions.len(), all.len(), "{import}");
        for (n, name) in all {
            assert_eq!(
                set.instruction(n).map(|i| i.name),
                Some(name),
                "{import} {n}"
            );
        }
    };
    check(
        GlslStd450::IMPORT,
        GlslStd450::ALL
            .iter()
            .map(|o| (o.number(), o.name()))
            .collect(),
    );
    check(
        OpenClStd::IMPORT,
        OpenClStd::ALL
            .iter()
            .map(|o| (o.number(), o.name()))
            .collect(),
    );
    check(
        DebugPrintf::IMPORT,
        DebugPrintf::ALL
            .iter()
            .map(|o| (o.number(), o.name()))
            .collect(),
    );
    assert_eq!(GlslStd450::FMix.number(), 46);
    assert_eq!(OpenClStd::sqrt.number(), 61);
}
