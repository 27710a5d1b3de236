//! No panic on mutated modules that use every extended instruction set: random word edits of
//! the hand-written extended-set modules (`asm_corpus/09…11`: a TOSA graph, debug info, the
//! reflection, AMD, motion-engine and unknown non-semantic sets) and of one module per set with
//! every instruction of its grammar; each edited binary goes through the reader, the
//! disassembler under every flag combination, the module index and its source-location lookup.
//! A binary that still reads must write back the same words.

use proptest::prelude::*;
use spvx_spirv::asm::assemble;
use spvx_spirv::binary::{read_bytes, read_words};
use spvx_spirv::dis::{DisOptions, disassemble};
use spvx_spirv::grammar::{ImportName, KindId, Shape, grammar};
use spvx_spirv::index::ModuleIndex;
use std::sync::LazyLock;

/// The seed modules, as words (assembled by spvx; `ext_inst_sets.rs` checks them against
/// spirv-as).
static SEEDS: LazyLock<Vec<Vec<u32>>> = LazyLock::new(|| {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/asm_corpus");
    let mut texts: Vec<String> = ["09-tosa-graph", "10-shader-debuginfo", "11-ext-sets"]
        .iter()
        .map(|n| {
            let p = dir.join(format!("{n}.spvasm"));
            std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
        })
        .collect();
    for set in &grammar().ext_inst_sets {
        let import = match set.import {
            ImportName::Exact(n) => n.to_string(),
            ImportName::Prefix(p) => format!("{p}2"),
        };
        let mut t = format!(
            "OpCapability Shader\n%s = OpExtInstImport \"{import}\"\nOpMemoryModel Logical GLSL450\n\
             %int = OpTypeInt 32 1\n%c = OpConstant %int 3\n"
        );
        for (k, i) in set.instructions.iter().enumerate() {
            let mut line = format!("%r{k} = OpExtInst %int %s {}", i.number);
            for o in &i.operands {
                fill(o.kind, &mut line);
            }
            t.push_str(&line);
            t.push('\n');
        }
        texts.push(t);
    }
    texts
        .iter()
        .map(|t| {
            assemble(t, &Default::default())
                .unwrap_or_else(|e| panic!("seed does not assemble: {e}\n{t}"))
                .words()
        })
        .collect()
});

/// Operand text of one kind: ids, literals, the first enumerant with its parameters.
fn fill(kind: KindId, out: &mut String) {
    let g = grammar();
    let k = g.kind(kind);
    match k.shape {
        Shape::LiteralInteger | Shape::LiteralExtInstInteger => out.push_str(" 7"),
        Shape::LiteralString => out.push_str(" \"s\""),
        Shape::Pair(a, b) => {
            fill(a, out);
            fill(b, out);
        }
        Shape::ValueEnum | Shape::BitEnum => {
            if let Some(e) = k.enumerants.first() {
                out.push(' ');
                out.push_str(e.name);
                for p in &e.parameters {
                    fill(p.kind, out);
                }
            }
        }
        _ => out.push_str(" %c"),
    }
}

#[derive(Clone, Debug)]
enum Edit {
    Set(usize, u32),
    SetCount(usize, u16),
    FlipBit(usize, u8),
    Insert(usize, u32),
    Remove(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), any::<u32>()).prop_map(|(i, w)| Edit::Set(i, w)),
        (any::<usize>(), 0u16..12).prop_map(|(i, c)| Edit::SetCount(i, c)),
        (any::<usize>(), 0u8..32).prop_map(|(i, b)| Edit::FlipBit(i, b)),
        (any::<usize>(), 0u32..300).prop_map(|(i, w)| Edit::Insert(i, w)),
        any::<usize>().prop_map(Edit::Remove),
    ]
}

fn apply(words: &mut Vec<u32>, e: &Edit) {
    let n = words.len().max(1);
    match *e {
        Edit::Set(i, w) if !words.is_empty() => words[i % n] = w,
        Edit::SetCount(i, c) if !words.is_empty() => {
            let i = i % n;
            words[i] = (u32::from(c) << 16) | (words[i] & 0xFFFF);
        }
        Edit::FlipBit(i, b) if !words.is_empty() => words[i % n] ^= 1 << b,
        Edit::Insert(i, w) => words.insert(i % (words.len() + 1), w),
        Edit::Remove(i) if !words.is_empty() => {
            words.remove(i % n);
        }
        _ => {}
    }
}

/// Every flag combination of the disassembler.
fn all_options() -> Vec<DisOptions> {
    (0..128u32)
        .map(|bits| DisOptions {
            raw_id: bits & 1 != 0,
            header: bits & 2 != 0,
            indent: bits & 4 != 0,
            nested_indent: bits & 8 != 0,
            offsets: bits & 16 != 0,
            comment: bits & 32 != 0,
            color: bits & 64 != 0,
        })
        .collect()
}

#[test]
fn seeds_cover_every_set() {
    assert_eq!(SEEDS.len(), 3 + grammar().ext_inst_sets.len());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn mutated_extended_set_modules_never_panic(
        seed in any::<prop::sample::Index>(),
        edits in prop::collection::vec(edit(), 1..4),
        flags in 0usize..128,
    ) {
        let all = &*SEEDS;
        let mut words = all[seed.index(all.len())].clone();
        for e in &edits {
            apply(&mut words, e);
        }
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let _ = read_bytes(&bytes);
        if let Ok(m) = read_words(&words) {
            let opts = all_options()[flags];
            let _ = disassemble(&m, &opts);
            let _ = disassemble(&m, &DisOptions { nested_indent: true, comment: true, ..opts });
            let ix = ModuleIndex::build(&m.header, m.instructions.clone());
            for i in 0..=ix.insts.len() {
                let _ = ix.source_location(i);
            }
        }
    }
}
