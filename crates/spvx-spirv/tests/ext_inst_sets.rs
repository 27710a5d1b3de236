//! Every extended instruction set SPIRV-Headers 1.4.335 ships, against spirv-as and spirv-dis
//! 2025.5 (the oracle), byte for byte:
//!
//! - one generated module per set with every instruction of its grammar, operands filled by
//!   kind (the set's own enumerants, with their parameters, for its enum and mask operands);
//! - the import-name rules (exact names, versioned prefixes, unknown `NonSemantic.*` sets read as
//!   ids, numbers a non-semantic set does not define);
//! - masks of the debug-info sets, whose `FlagIsPublic` is two bits (spirv-dis prints the bits).
//!
//! The hand-written modules (a TOSA graph with CONV2D, NonSemantic.Shader.DebugInfo.100 …) are
//! in `tests/asm_corpus` and `tests/dis_corpus`, checked by `asm_vs_spirv_as.rs` and
//! `dis_vs_spirv_dis.rs`.

mod asm_tools;
mod dis_support;

use spvx_spirv::grammar::grammar;
use spvx_spirv::grammar::{ExtInstSet, Grammar, ImportName, KindId, Operand, Quantifier, Shape};
use std::fmt::Write;

/// Operand text for an extended instruction's operands.
struct Filler<'g> {
    g: &'g Grammar,
}

impl Filler<'_> {
    fn operands(&self, ops: &[Operand], out: &mut String) {
        for o in ops {
            let n = match o.quantifier {
                Quantifier::One => 1,
                // An optional operand at the end is written, a variadic one twice.
                Quantifier::Optional => 1,
                Quantifier::Variadic => 2,
            };
            for _ in 0..n {
                self.operand(o.kind, out);
            }
        }
    }

    fn operand(&self, kind: KindId, out: &mut String) {
        let k = self.g.kind(kind);
        match k.shape {
            Shape::IdRef | Shape::IdResult | Shape::IdResultType => out.push_str(" %ref"),
            Shape::LiteralInteger | Shape::LiteralExtInstInteger => out.push_str(" 7"),
            Shape::LiteralString => out.push_str(" \"s\""),
            Shape::LiteralFloat => out.push_str(" 1.5"),
            Shape::LiteralContextDependentNumber => out.push_str(" 42"),
            Shape::LiteralSpecConstantOpInteger => out.push_str(" IAdd %ref %ref"),
            Shape::Pair(a, b) => {
                self.operand(a, out);
                self.operand(b, out);
            }
            Shape::ValueEnum | Shape::BitEnum => {
                // The last enumerant: for the debug-info sets one with parameters or several bits.
                let Some(e) = k.enumerants.last() else { return };
                let _ = write!(out, " {}", e.name);
                self.operands(&e.parameters, out);
            }
        }
    }
}

/// An import name that selects `set`.
fn import_name(set: &ExtInstSet) -> String {
    match set.import {
        ImportName::Exact(n) => n.to_string(),
        ImportName::Prefix(p) => format!("{p}6"),
    }
}

/// A module with every instruction of `set`; by name when spirv-as resolves the set's names,
/// else by number.
fn every_instruction_module(g: &Grammar, set: &ExtInstSet) -> String {
    let f = Filler { g };
    let mut text = format!(
        "OpCapability Shader\n%set = OpExtInstImport \"{}\"\nOpMemoryModel Logical GLSL450\n\
         %int = OpTypeInt 32 1\n%ref = OpUndef %int\n",
        import_name(set)
    );
    for (n, ei) in set.instructions.iter().enumerate() {
        let name = if set.disassembled_by_name {
            ei.name.to_string()
        } else {
            ei.number.to_string()
        };
        let mut l = format!("%r{n} = OpExtInst %int %set {name}");
        f.operands(&ei.operands, &mut l);
        text.push_str(&l);
        text.push('\n');
    }
    text
}

#[test]
fn the_grammar_has_every_set_of_spirv_headers() {
    let g = grammar();
    let names: Vec<&str> = g.ext_inst_sets.iter().map(|s| s.name).collect();
    for expected in [
        "GLSL.std.450",
        "OpenCL.std",
        "SPV_AMD_shader_explicit_vertex_parameter",
        "SPV_AMD_shader_trinary_minmax",
        "SPV_AMD_gcn_shader",
        "SPV_AMD_shader_ballot",
        "DebugInfo",
        "OpenCL.DebugInfo.100",
        "NonSemantic.Shader.DebugInfo.100",
        "NonSemantic.ClspvReflection.",
        "NonSemantic.VkspReflection.",
        "NonSemantic.DebugPrintf",
        "NonSemantic.DebugBreak",
        "TOSA.001000.1",
        "Arm.MotionEngine.100",
    ] {
        assert!(
            names.contains(&expected),
            "{expected} missing from {names:?}"
        );
    }
    // Set-qualified kinds: the three DebugInfoFlags differ (OpenCL.DebugInfo.100 adds
    // FlagIsOptimized and later bits; DebugInfo stops at 0x2000).
    let di = g
        .kind_by_name("DebugInfo DebugInfoFlags")
        .expect("DebugInfo kind");
    let ocl = g
        .kind_by_name("OpenCL.DebugInfo.100 DebugInfoFlags")
        .expect("OpenCL.DebugInfo.100 kind");
    assert_ne!(di, ocl);
    assert!(
        g.kind(di)
            .enumerant_by_name("FlagTypePassByValue")
            .is_none()
    );
    assert_eq!(
        g.kind(ocl)
            .enumerant_by_name("FlagTypePassByValue")
            .map(|e| e.value),
        Some(0x8000)
    );
    // The TOSA set: CONV2D is instruction 2 with ten id operands (TOSA 1.0 grammar).
    let tosa = g.ext_inst_set("TOSA.001000.1").expect("TOSA");
    let conv = tosa.instruction_by_name("CONV2D").expect("CONV2D");
    assert_eq!((conv.number, conv.operands.len()), (2, 10));
    // Import names: versioned reflection sets by prefix; others exactly.
    assert!(g.ext_inst_set("NonSemantic.ClspvReflection.5").is_some());
    assert!(g.ext_inst_set("NonSemantic.ClspvReflection").is_none());
    assert!(g.ext_inst_set("NonSemantic.Shader.DebugInfo.101").is_none());
    assert!(g.ext_inst_set("TOSA.001000.2").is_none());
}

#[test]
fn every_instruction_of_every_set_matches_spirv_as_and_spirv_dis() {
    let Some(t) = dis_support::tools() else {
        return;
    };
    let g = grammar();
    for set in &g.ext_inst_sets {
        let text = every_instruction_module(g, set);
        let what = format!("every instruction of {}", set.name);
        asm_tools::assert_same(&t.spirv_as, &what, &text);
        let binary = t
            .assemble(&text)
            .unwrap_or_else(|e| panic!("{what}: spirv-as: {e}"));
        dis_support::assert_same_as_spirv_dis(&t, &what, &binary);
    }
}

/// A module importing `import` and using instruction `inst` (text after the set id).
fn import_module(import: &str, inst: &str) -> String {
    format!(
        "OpCapability Shader\n%set = OpExtInstImport \"{import}\"\nOpMemoryModel Logical GLSL450\n\
         %int = OpTypeInt 32 1\n%ref = OpUndef %int\n%x = OpExtInst %int %set {inst}\n"
    )
}

#[test]
fn import_names_and_unknown_instructions_match_spirv_as_and_spirv_dis() {
    let Some(t) = dis_support::tools() else {
        return;
    };
    let cases = [
        // Versioned reflection sets: any suffix after the prefix.
        ("NonSemantic.ClspvReflection.6", "Kernel %ref %ref"),
        ("NonSemantic.ClspvReflection.abc", "Kernel %ref %ref"),
        ("NonSemantic.VkspReflection.1", "StopCounter %ref"),
        // Without the version: an unknown non-semantic set, read as ids.
        ("NonSemantic.ClspvReflection", "1 %ref %ref"),
        ("NonSemantic.VkspReflection", "1"),
        // Another version of an exact name: unknown non-semantic set.
        ("NonSemantic.Shader.DebugInfo.101", "2 %ref %ref %ref"),
        ("NonSemantic.Graph.DebugInfo.100", "1 %ref"),
        ("NonSemantic.Anything", "77 %ref %ref %ref"),
        // Sets spirv-as 2025.5 reads as unknown non-semantic ones, by number.
        ("NonSemantic.DebugPrintf", "1 %ref %ref"),
        ("NonSemantic.DebugBreak", "1"),
        // A number a known non-semantic set does not define: ids.
        ("NonSemantic.Shader.DebugInfo.100", "999 %ref"),
        // AMD sets by their extension names.
        ("SPV_AMD_shader_ballot", "SwizzleInvocationsAMD %ref %ref"),
        (
            "Arm.MotionEngine.100",
            "RAW_SAD %ref %ref %ref %ref %ref %ref %ref %ref",
        ),
    ];
    for (import, inst) in cases {
        let text = import_module(import, inst);
        let what = format!("{import} {inst}");
        asm_tools::assert_same(&t.spirv_as, &what, &text);
        let binary = t
            .assemble(&text)
            .unwrap_or_else(|e| panic!("{what}: spirv-as: {e}"));
        dis_support::assert_same_as_spirv_dis(&t, &what, &binary);
    }
}

#[test]
fn debug_info_masks_match_spirv_as_and_spirv_dis() {
    let Some(t) = dis_support::tools() else {
        return;
    };
    for (import, flags) in [
        ("DebugInfo", "FlagIsPublic|FlagIsLocal"),
        ("DebugInfo", "None"),
        (
            "OpenCL.DebugInfo.100",
            "FlagIsPublic|FlagIsOptimized|FlagTypePassByReference",
        ),
        ("OpenCL.DebugInfo.100", "FlagIsProtected|FlagIsPrivate"),
    ] {
        let text = import_module(import, &format!("DebugTypePointer %ref Function {flags}"));
        let what = format!("{import} {flags}");
        asm_tools::assert_same(&t.spirv_as, &what, &text);
        let binary = t
            .assemble(&text)
            .unwrap_or_else(|e| panic!("{what}: spirv-as: {e}"));
        dis_support::assert_same_as_spirv_dis(&t, &what, &binary);
    }
}

#[test]
fn a_known_set_refuses_a_number_it_does_not_define() {
    // Not non-semantic: the operands of an undefined instruction cannot be laid out.
    for import in ["GLSL.std.450", "TOSA.001000.1", "DebugInfo"] {
        let text = import_module(import, "999 %ref");
        let e = asm_tools::run_spvx(&text).expect_err("an undefined instruction is refused");
        assert!(e.contains("999"), "{import}: {e}");
    }
}
