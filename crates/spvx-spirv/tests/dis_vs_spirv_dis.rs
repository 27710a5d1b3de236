//! spvx's disassembly equals spirv-dis 2025.5's, byte for byte, default and `--raw-id`, on:
//! the hand-written corpus `tests/dis_corpus/*.spvasm` (the five source documents, odd and wide
//! literals, realistic shaders), generated modules covering the whole grammar, and the real
//! modules of `tests/corpus/real/*.spv`. Binaries come from spirv-as, not from spvx.

mod dis_support;

use dis_support::{assert_same_as_spirv_dis, generate, tools};
use std::path::Path;

fn corpus_texts() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/dis_corpus");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "spvasm"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()));
            (p.display().to_string(), text)
        })
        .collect()
}

#[test]
fn hand_written_corpus_matches_spirv_dis() {
    let Some(t) = tools() else { return };
    let texts = corpus_texts();
    assert!(texts.len() >= 8, "corpus is missing");
    for (name, text) in texts {
        let binary = t
            .assemble(&text)
            .unwrap_or_else(|e| panic!("{name}: spirv-as: {e}"));
        assert_same_as_spirv_dis(&t, &name, &binary);
    }
}

#[test]
fn whole_grammar_matches_spirv_dis() {
    let Some(t) = tools() else { return };
    let modules = generate::whole_grammar_modules(100);
    assert!(modules.len() >= 5);
    if let Some(dir) = std::env::var_os("SPVX_DIS_DUMP") {
        for (i, text) in modules.iter().enumerate() {
            let _ = std::fs::write(Path::new(&dir).join(format!("generated{i}.spvasm")), text);
        }
    }
    for (i, text) in modules.iter().enumerate() {
        let binary = t
            .assemble(text)
            .unwrap_or_else(|e| panic!("generated module {i}: spirv-as: {e}"));
        assert_same_as_spirv_dis(&t, &format!("generated module {i}"), &binary);
    }
}

#[test]
fn real_modules_match_spirv_dis() {
    let Some(t) = tools() else { return };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/real");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("note: no real-module corpus at {}", dir.display());
        return;
    };
    for p in entries.filter_map(|e| e.ok().map(|e| e.path())) {
        if p.extension().is_some_and(|x| x == "spv") {
            let binary = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            if uses_valve(&binary) {
                // spirv-dis 2025.5 rejects SPV_VALVE_mixed_float_dot_product; see dis_valve.rs.
                continue;
            }
            assert_same_as_spirv_dis(&t, &p.display().to_string(), &binary);
        }
    }
}

/// True when the module uses an opcode or capability spirv-dis 2025.5 does not know.
fn uses_valve(binary: &[u8]) -> bool {
    let Ok(m) = spvx_spirv::binary::read_bytes(binary) else {
        return false;
    };
    m.instructions.iter().any(|i| {
        generate::UNKNOWN_TO_SPIRV_TOOLS.contains(&i.opcode)
            || (i.opcode == spvx_spirv::op::Op::Capability
                && i.operands
                    .first()
                    .and_then(|o| o.word())
                    .is_some_and(|c| generate::CAPABILITIES_UNKNOWN_TO_SPIRV_TOOLS.contains(&c)))
    })
}
