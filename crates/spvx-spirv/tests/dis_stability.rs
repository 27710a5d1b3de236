//! Stability: text → (spirv-as) binary → spvx dis → (spirv-as) → the same words, for the
//! hand-written corpus and the generated whole-grammar modules. With `--raw-id` the ids are
//! kept as numbers, so the words must be identical for every module; with friendly names
//! spirv-as numbers ids by first appearance again, which gives the same words whenever the
//! original binary was numbered that way (every module here but the one with numeric OpNames).
//! `*noncanonical*` corpus files hold words spirv-dis prints in a form that does not reassemble
//! (e.g. an unextended negative 7-bit integer), so they are only compared, not round-tripped.

mod dis_support;

use dis_support::{generate, spvx_dis, tools, words};
use std::path::Path;

fn corpus() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/dis_corpus");
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(&dir) {
        for p in entries.filter_map(|e| e.ok().map(|e| e.path())) {
            if p.extension().is_some_and(|x| x == "spvasm") {
                let text = std::fs::read_to_string(&p)
                    .unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()));
                out.push((p.display().to_string(), text));
            }
        }
    }
    out.sort();
    for (i, m) in generate::whole_grammar_modules(100).into_iter().enumerate() {
        out.push((format!("generated module {i}"), m));
    }
    out
}

#[test]
fn disassembly_reassembles_to_the_same_words() {
    let Some(t) = tools() else { return };
    let modules = corpus();
    assert!(modules.len() > 10);
    for (name, text) in modules {
        if name.contains("noncanonical") {
            continue;
        }
        let binary = t
            .assemble(&text)
            .unwrap_or_else(|e| panic!("{name}: spirv-as: {e}"));
        for raw_id in [true, false] {
            // OpName "7" in the names corpus makes a friendly name look like a numeric id.
            if !raw_id && name.ends_with("09-names.spvasm") {
                continue;
            }
            let text2 = spvx_dis(&binary, raw_id);
            let binary2 = t
                .assemble(&text2)
                .unwrap_or_else(|e| panic!("{name} (raw_id={raw_id}): spvx's text: {e}"));
            let (w1, w2) = (words(&binary), words(&binary2));
            if w1 != w2 {
                let at = w1.iter().zip(&w2).position(|(a, b)| a != b);
                panic!(
                    "{name} (raw_id={raw_id}): reassembled words differ (lengths {} and {}, first difference at word {:?})",
                    w1.len(),
                    w2.len(),
                    at
                );
            }
        }
    }
}
