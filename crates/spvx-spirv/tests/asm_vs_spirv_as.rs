//! spvx's assembler against SPIRV-Tools' spirv-as 2025.5 (the oracle): the same text must give
//! the same words, the generator word aside.
//!
//! - the hand-written corpus `tests/asm_corpus/*.spvasm` (every instruction and operand form of
//!   the five source documents, literal spellings, raw words, syntax corners);
//! - a generated module with one line per instruction of the grammar (canonical name and every
//!   alias), operands filled with dummy ids and literals of the right kinds;
//! - a generated module with one line per enumerant (and alias) of every enum and mask kind,
//!   reached through an instruction that takes that kind, with the enumerant's parameters;
//! - every extended instruction of GLSL.std.450 and OpenCL.std.
//!
//! spvx's supplement (SPV_VALVE_mixed_float_dot_product, the microscaling and long-vector
//! enumerants) is unknown to spirv-as 2025.5 and is left out here; `asm_known_answers.rs` and
//! `grammar_supplement.rs` check it against hand-computed words.

mod asm_tools;

use asm_tools::{assert_same, spirv_as};
use spvx_spirv::grammar::{Grammar, KindId, Operand, Quantifier, Shape, grammar};
use std::collections::HashSet;
use std::fmt::Write;

#[test]
fn hand_written_corpus_matches_spirv_as() {
    let Some(tool) = spirv_as() else { return };
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/asm_corpus");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("corpus dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "spvasm"))
        .collect();
    files.sort();
    assert!(files.len() >= 8, "corpus missing: {files:?}");
    for f in files {
        let text = std::fs::read_to_string(&f).expect("read corpus file");
        assert_same(&tool, &f.display().to_string(), &text);
    }
}

/// Names from spvx's supplement, unknown to spirv-as 2025.5 (SPV_VALVE_mixed_float_dot_product,
/// SPV_EXT_ocp_microscaling_types, SPV_EXT_long_vector, the SDK 1.4.341 aliases;
/// `grammar_supplement.rs` checks them against hand-computed words).
fn is_supplement(name: &str) -> bool {
    const NEWER: [&str; 12] = [
        "OpTypeVectorIdEXT",
        "OpGroupNonUniformPartitionEXT",
        "GroupNonUniformPartitionedEXT",
        "Float6EXT",
        "Float4EXT",
        "Float8UnsignedE8M0EXT",
        "MXInt8EXT",
        "BitcastExtractEXT",
        "LongVectorEXT",
        "Float6E2M3EXT",
        "Float6E3M2EXT",
        "Float4E2M1EXT",
    ];
    name.contains("VALVE") || NEWER.contains(&name)
}

/// Builds operand text for a grammar operand list.
struct Gen<'g> {
    g: &'g Grammar,
    next: u32,
    /// When set, this kind gets this enumerant (by name) instead of the default one.
    target: Option<(KindId, String)>,
}

impl Gen<'_> {
    fn fresh(&mut self) -> String {
        self.next += 1;
        format!("%v{}", self.next)
    }

    fn operands(&mut self, ops: &[Operand], out: &mut String) {
        for o in ops {
            let n = match o.quantifier {
                Quantifier::One | Quantifier::Optional => 1,
                Quantifier::Variadic => 2,
            };
            for _ in 0..n {
                self.operand(o.kind, out);
            }
        }
    }

    fn operand(&mut self, kind: KindId, out: &mut String) {
        let g = self.g;
        let k = g.kind(kind);
        match k.shape {
            Shape::IdResultType | Shape::IdResult => unreachable!("handled by the caller"),
            Shape::IdRef => {
                let _ = write!(out, " %ref");
            }
            Shape::LiteralInteger => out.push_str(" 7"),
            Shape::LiteralString => out.push_str(" \"s\""),
            Shape::LiteralFloat => out.push_str(" 1.5"),
            Shape::LiteralContextDependentNumber => out.push_str(" 42"),
            Shape::LiteralExtInstInteger => out.push_str(" Sqrt %ref"),
            Shape::LiteralSpecConstantOpInteger => out.push_str(" IAdd %ref %ref"),
            Shape::Pair(a, b) => {
                self.operand(a, out);
                self.operand(b, out);
            }
            Shape::ValueEnum | Shape::BitEnum => {
                let e = match &self.target {
                    Some((t, name)) if *t == kind => k.enumerant_by_name(name).cloned(),
                    _ => self.route(kind),
                };
                let Some(e) = e else { return };
                let _ = write!(out, " {}", self.target_name(kind, e.name));
                let params = e.parameters.clone();
                self.operands(&params, out);
            }
        }
    }

    fn target_name(&self, kind: KindId, canonical: &str) -> String {
        match &self.target {
            Some((t, name)) if *t == kind => name.clone(),
            _ => canonical.to_string(),
        }
    }

    /// The enumerant of `kind` to use: one whose parameters lead to the target kind, else the
    /// first non-supplement one.
    fn route(&self, kind: KindId) -> Option<spvx_spirv::grammar::Enumerant> {
        let k = self.g.kind(kind);
        let usable = |e: &&spvx_spirv::grammar::Enumerant| !is_supplement(e.name);
        if let Some((t, _)) = &self.target
            && let Some(e) = k
                .enumerants
                .iter()
                .filter(usable)
                .find(|e| e.parameters.iter().any(|p| reaches(self.g, p.kind, *t)))
        {
            return Some(e.clone());
        }
        k.enumerants.iter().find(usable).cloned()
    }
}

/// True when operands of `from` can contain kind `to` (through pairs and parameters).
fn reaches(g: &Grammar, from: KindId, to: KindId) -> bool {
    let mut seen = HashSet::new();
    let mut stack = vec![from];
    while let Some(k) = stack.pop() {
        if k == to {
            return true;
        }
        if !seen.insert(k.0) {
            continue;
        }
        let kind = g.kind(k);
        if let Shape::Pair(a, b) = kind.shape {
            stack.push(a);
            stack.push(b);
        }
        for e in &kind.enumerants {
            stack.extend(e.parameters.iter().map(|p| p.kind));
        }
    }
    false
}

/// The module prologue: the types and values the generated lines refer to.
const PROLOGUE: &str = "%glsl = OpExtInstImport \"GLSL.std.450\"\n\
    %ocl = OpExtInstImport \"OpenCL.std\"\n\
    %int = OpTypeInt 32 1\n\
    %ref = OpUndef %int\n";

/// One instruction line with the given name, filling operands; `target` picks one enumerant.
fn line(g: &Grammar, inst: &spvx_spirv::grammar::Instruction, name: &str, gn: &mut Gen) -> String {
    let mut out = String::new();
    let mut ops = inst.operands.as_slice();
    let has_type = inst.has_result_type(g);
    let has_result = inst.has_result(g);
    if has_result {
        let r = gn.fresh();
        let _ = write!(out, "{r} = ");
    }
    out.push_str(name);
    if has_type {
        out.push_str(" %int");
        ops = &ops[1..];
    }
    if has_result {
        ops = &ops[1..];
    }
    match inst.name {
        // The set operand decides the instruction name that follows.
        "OpExtInst" | "OpExtInstWithForwardRefsKHR" => out.push_str(" %glsl Sqrt %ref"),
        // The selector must have a known integer type.
        "OpSwitch" => out.push_str(" %ref %ref 1 %ref -2 %ref"),
        // The import name must be a set spirv-as knows.
        "OpExtInstImport" => out.push_str(" \"GLSL.std.450\""),
        _ => gn.operands(ops, &mut out),
    }
    out.push('\n');
    out
}

#[test]
fn every_instruction_of_the_grammar_matches_spirv_as() {
    let Some(tool) = spirv_as() else { return };
    let g = grammar();
    let mut gn = Gen {
        g,
        next: 0,
        target: None,
    };
    let mut text = String::from(PROLOGUE);
    let mut count = 0;
    for inst in &g.instructions {
        if is_supplement(inst.name) || inst.name == "OpExtInstWithForwardRefsKHR" {
            continue;
        }
        for name in std::iter::once(&inst.name).chain(&inst.aliases) {
            if is_supplement(name) {
                continue;
            }
            text.push_str(&line(g, inst, name, &mut gn));
            count += 1;
        }
    }
    assert!(count > 700, "only {count} instruction lines");
    assert_same(&tool, "every instruction", &text);
}

#[test]
fn every_enumerant_of_every_kind_matches_spirv_as() {
    let Some(tool) = spirv_as() else { return };
    let g = grammar();
    let mut text = String::from(PROLOGUE);
    let mut count = 0;
    let mut next = 0;
    let mut unreachable_kinds = Vec::new();
    for (i, kind) in g.kinds.iter().enumerate() {
        let kid = KindId(i as u16);
        if !matches!(kind.shape, Shape::ValueEnum | Shape::BitEnum) {
            continue;
        }
        // An instruction whose operands reach this kind.
        let Some(inst) = g.instructions.iter().find(|inst| {
            !is_supplement(inst.name)
                && !matches!(inst.name, "OpExtInst" | "OpSwitch")
                && inst.operands.iter().any(|o| reaches(g, o.kind, kid))
        }) else {
            unreachable_kinds.push(kind.name.clone());
            continue;
        };
        for e in &kind.enumerants {
            if is_supplement(e.name) {
                continue;
            }
            for name in std::iter::once(&e.name).chain(&e.aliases) {
                if is_supplement(name) {
                    continue;
                }
                let mut gn = Gen {
                    g,
                    next,
                    target: Some((kid, name.to_string())),
                };
                text.push_str(&line(g, inst, inst.name, &mut gn));
                next = gn.next;
                count += 1;
            }
        }
    }
    eprintln!("{count} enumerant lines; kinds no instruction takes: {unreachable_kinds:?}");
    assert!(count > 1000, "only {count} enumerant lines");
    assert_same(&tool, "every enumerant", &text);
}

#[test]
fn every_extended_instruction_matches_spirv_as() {
    let Some(tool) = spirv_as() else { return };
    let g = grammar();
    let mut text = String::from(PROLOGUE);
    let mut next = 0;
    for (set_id, set) in [("%glsl", "GLSL.std.450"), ("%ocl", "OpenCL.std")] {
        let set = g.ext_inst_set(set).expect("known set");
        for ei in &set.instructions {
            let mut gn = Gen {
                g,
                next,
                target: None,
            };
            let r = gn.fresh();
            let mut l = format!("{r} = OpExtInst %int {set_id} {}", ei.name);
            gn.operands(&ei.operands, &mut l);
            next = gn.next;
            text.push_str(&l);
            text.push('\n');
        }
    }
    assert_same(&tool, "every extended instruction", &text);
}
