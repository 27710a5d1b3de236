//! The real-module corpus (`tests/corpus/real`, made by `scripts/regen-corpus` with glslang and
//! clang-15 + llvm-spirv-15 from the sources beside each `.spv`): every module reads, writes back
//! byte for byte, splits into the module model and flattens back to the same instructions; each
//! contains the instructions it was written to exercise; and, as a sanity check of the corpus
//! itself, SPIRV-Tools' `spirv-dis --raw-id` followed by `spirv-as --preserve-numeric-ids` gives
//! the same words (all but the generator word).
//!
//! The compilers are not needed at test time: the `.spv` files are committed. SPIRV-Tools is
//! found through `SPVX_SPIRV_TOOLS` (a bin directory) or `PATH`; when it is missing the tool
//! check prints a note and passes, unless `SPVX_REQUIRE_TOOLS=1`, which makes it fail.

mod common;

use common::{corpus_dir, render, run, tools_dir};
use spvx_spirv::binary::{ParsedModule, read_bytes, to_bytes};
use spvx_spirv::instruction::OperandValue;
use spvx_spirv::module::Module;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The corpus files and the compiler that made each.
const FILES: [&str; 9] = [
    "debug.comp.spv",
    "fixed.cl.spv",
    "intdot.cl.spv",
    "intdot.comp.spv",
    "kernel.cl.spv",
    "matmul.comp.spv",
    "mixdot.comp.spv",
    "texture.frag.spv",
    "wide.comp.spv",
];

fn real_dir() -> PathBuf {
    corpus_dir().join("real")
}

fn load(name: &str) -> (Vec<u8>, ParsedModule) {
    let path = real_dir().join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let m = read_bytes(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    (bytes, m)
}

#[test]
fn the_corpus_is_complete() {
    let mut found: Vec<String> = std::fs::read_dir(real_dir())
        .expect("corpus directory")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".spv"))
        .collect();
    found.sort();
    assert_eq!(found, FILES);
    for f in FILES {
        let source = real_dir().join(f.trim_end_matches(".spv"));
        assert!(source.exists(), "the source of {f} is missing");
    }
}

#[test]
fn every_real_module_reads_writes_and_splits_identically() {
    for name in FILES {
        let (bytes, m) = load(name);
        assert!(!m.big_endian, "{name}");
        assert_eq!(to_bytes(&m.header, &m.instructions), bytes, "{name}: write");
        let module = Module::from_instructions(m.header, m.instructions.clone())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(module.to_instructions(), m.instructions, "{name}: flatten");
        assert_eq!(module.to_bytes(), bytes, "{name}: module bytes");
        assert!(module.memory_model.is_some(), "{name}");
        assert!(!module.functions.is_empty(), "{name}");
        for f in &module.functions {
            for b in &f.blocks {
                assert!(b.terminator().is_some(), "{name}: block without terminator");
            }
        }
    }
}

/// The rendered instructions of a corpus module (see `common::render`).
fn rendered(name: &str) -> Vec<String> {
    load(name).1.instructions.iter().map(render).collect()
}

fn has(lines: &[String], prefix: &str, contains: &str) -> bool {
    lines
        .iter()
        .any(|l| l.starts_with(prefix) && l.contains(contains))
}

#[test]
fn each_module_contains_what_it_was_written_for() {
    let intdot = rendered("intdot.comp.spv");
    assert!(
        has(&intdot, "OpSDot", "0:PackedVectorFormat"),
        "packed OpSDot"
    );
    assert!(has(&intdot, "OpSUDotAccSat", "0:PackedVectorFormat"));
    assert!(
        intdot
            .iter()
            .any(|l| l.starts_with("OpSDot") && !l.contains("PackedVectorFormat")),
        "vector OpSDot"
    );
    let intdot_cl = rendered("intdot.cl.spv");
    assert!(has(&intdot_cl, "OpSDot", "0:PackedVectorFormat"));
    assert!(has(&intdot_cl, "OpSUDotAccSat", ""));

    let (_, kernel) = load("kernel.cl.spv");
    let switch = kernel
        .instructions
        .iter()
        .find(|i| i.opcode == spvx_spirv::op::Op::Switch)
        .expect("kernel.cl has an OpSwitch");
    let literals: Vec<&Vec<u32>> = switch
        .operands
        .iter()
        .filter_map(|o| match &o.value {
            OperandValue::Number(ws) => Some(ws),
            _ => None,
        })
        .collect();
    // case 0x100000000, -5, 0x7fffffff00000001, 3 on a 64-bit selector (some order).
    for want in [
        vec![0, 1],
        vec![0xFFFF_FFFB, 0xFFFF_FFFF],
        vec![1, 0x7FFF_FFFF],
        vec![3, 0],
    ] {
        assert!(literals.contains(&&want), "case {want:x?} in {literals:x?}");
    }

    let fixed = rendered("fixed.cl.spv");
    assert!(has(
        &fixed,
        "OpTypeInt",
        "13:LiteralInteger 0:LiteralInteger"
    ));
    assert!(has(
        &fixed,
        "OpFixedSqrtALTERA",
        "0:LiteralInteger 2:LiteralInteger 2:LiteralInteger 0:LiteralInteger 0:LiteralInteger"
    ));

    let mixdot = rendered("mixdot.comp.spv");
    assert!(has(&mixdot, "OpFDot2MixAcc32VALVE", ""));
    assert!(has(&mixdot, "OpCapability", "6912:Capability"));

    let debug = rendered("debug.comp.spv");
    for op in ["OpString", "OpSource", "OpLine", "OpModuleProcessed"] {
        assert!(has(&debug, op, ""), "{op} in debug.comp");
    }

    let wide = rendered("wide.comp.spv");
    // 0x0123456789abcdef, low word first.
    assert!(has(&wide, "OpConstant", "#[0x89abcdef,0x1234567]"));
    let matmul = rendered("matmul.comp.spv");
    assert!(
        has(&matmul, "OpExtInst", "50:LiteralExtInstInteger"),
        "GLSL.std.450 Fma"
    );
    assert!(has(&matmul, "OpSwitch", ""));
}

#[test]
fn spirv_tools_reassemble_the_corpus_identically() {
    let Some(dir) = tools_dir() else {
        return;
    };
    let scratch = spvx_testtools::temp_dir("real");
    let tmp = scratch.path();
    // SPIRV-Tools 2025.5 does not know SPV_VALVE_mixed_float_dot_product (capability 6912).
    let names: Vec<&str> = FILES
        .into_iter()
        .filter(|&n| n != "mixdot.comp.spv")
        .collect();
    // The tools start slowly (Python wrappers): run the files on two threads.
    let (a, b) = names.split_at(names.len() / 2);
    std::thread::scope(|s| {
        for part in [a, b] {
            let dir = &dir;
            s.spawn(move || {
                for name in part {
                    reassemble(dir, tmp, name);
                }
            });
        }
    });
}

/// Disassembles `name` with spirv-dis and assembles the text with spirv-as; the words must be
/// the file's, generator word aside.
fn reassemble(dir: &Path, tmp: &Path, name: &str) {
    let (bytes, m) = load(name);
    let path = real_dir().join(name);
    let text = tmp.join(format!("{name}.spvasm"));
    let back = tmp.join(format!("{name}.back.spv"));
    run(Command::new(dir.join("spirv-dis"))
        .arg("--raw-id")
        .arg(&path)
        .arg("-o")
        .arg(&text));
    let env = format!("spv1.{}", m.header.version().minor);
    run(Command::new(dir.join("spirv-as"))
        .args(["--preserve-numeric-ids", "--target-env", &env])
        .arg(&text)
        .arg("-o")
        .arg(&back));
    let again = std::fs::read(&back).expect("spirv-as output");
    assert_eq!(again.len(), bytes.len(), "{name}");
    // Everything but the generator word (bytes 8..12).
    assert_eq!(again[..8], bytes[..8], "{name}");
    assert_eq!(again[12..], bytes[12..], "{name}");
}
