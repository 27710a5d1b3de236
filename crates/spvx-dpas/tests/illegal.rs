//! Every legality rule: an instruction breaking it is rejected with an error that names the
//! rule (both as `SimError::rule()` and in the message), and a neighbouring legal instruction
//! is accepted. The expectations come from DPAS.md and IGC's verifier as summarised in
//! reference/dpas.md §1 and §4.

use spvx_dpas::isa::{ExecOptions, check, execute, parse_instruction};
use spvx_dpas::{Platform, RegisterFile, Rule, SimError};

fn verdict(text: &str, platform: Platform) -> Result<(), SimError> {
    let instr = parse_instruction(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    check(&instr, platform)?;
    let mut regs = RegisterFile::new(platform, 128).unwrap();
    execute(&instr, platform, &mut regs, &ExecOptions::default())
}

fn illegal(text: &str, platform: Platform, rule: Rule) {
    let err = verdict(text, platform).expect_err(text);
    assert_eq!(err.rule(), Some(rule), "{text} on {platform}: {err}");
    let msg = err.to_string();
    assert!(msg.contains(&format!("rule {}", rule.name())), "{msg}");
    assert!(msg.contains(platform.name()), "{msg}");
}

fn legal(text: &str, platform: Platform) {
    verdict(text, platform).unwrap_or_else(|e| panic!("{text} on {platform}: {e}"));
}

#[test]
fn exec_size() {
    illegal(
        "dpas.s8.s8.8.8 (8) r40 r32 r8 r0",
        Platform::Pvc,
        Rule::ExecSize,
    );
    illegal(
        "dpas.s8.s8.8.8 (16) r40 r32 r8 r0",
        Platform::Dg2,
        Rule::ExecSize,
    );
    illegal(
        "dpas.s8.s8.8.8 (16) r40 r32 r8 r0",
        Platform::XeHp,
        Rule::ExecSize,
    );
    illegal(
        "dpas.s8.s8.8.8 (8) r40 r32 r8 r0",
        Platform::Xe2,
        Rule::ExecSize,
    );
    legal("dpas.s8.s8.8.8 (8) r40 r32 r8 r0", Platform::Dg2);
    legal("dpas.s8.s8.8.8 (16) r40 r32 r8 r0", Platform::Xe2);
}

#[test]
fn systolic_depth() {
    for sd in [0, 3, 5, 16] {
        illegal(
            &format!("dpas.s8.s8.{sd}.8 (16) r40 r32 r8 r0"),
            Platform::Pvc,
            Rule::SystolicDepth,
        );
    }
    // Encodable but not supported from XeHP on.
    for sd in [1, 2, 4] {
        for p in Platform::ALL {
            let n = p.exec_size();
            illegal(
                &format!("dpas.s8.s8.{sd}.8 ({n}) r40 r32 r8 r0"),
                p,
                Rule::SystolicDepth,
            );
        }
    }
}

#[test]
fn repeat_count() {
    illegal(
        "dpas.s8.s8.8.0 (16) r40 r32 r8 r0",
        Platform::Pvc,
        Rule::RepeatCount,
    );
    illegal(
        "dpas.s8.s8.8.9 (16) r40 r32 r8 r0",
        Platform::Pvc,
        Rule::RepeatCount,
    );
    for rc in 1..=8 {
        legal(
            &format!("dpas.s8.s8.8.{rc} (16) r40 r32 r8 r0"),
            Platform::Pvc,
        );
    }
}

#[test]
fn precision_combination() {
    for (w, a) in [
        ("s8", "bf"),
        ("bf", "hf"),
        ("hf", "bf"),
        ("tf32", "bf"),
        ("bf8", "s8"),
        ("hf", "tf32"),
        ("u4", "hf8"),
    ] {
        illegal(
            &format!("dpas.{w}.{a}.8.8 (16) r40 r32 r8 r0"),
            Platform::Xe3p,
            Rule::PrecisionCombination,
        );
    }
}

#[test]
fn platform_precision() {
    illegal(
        "dpas.tf32.tf32.8.8 (8) r40 r32 r8 r0",
        Platform::Dg2,
        Rule::PlatformPrecision,
    );
    legal("dpas.tf32.tf32.8.8 (16) r40 r32 r8 r0", Platform::Pvc);
    for p in [Platform::Pvc, Platform::Xe2, Platform::Xe3] {
        illegal(
            "dpas.bf8.hf8.8.8 (16) r40 r32 r8 r0",
            p,
            Rule::PlatformPrecision,
        );
    }
    legal("dpas.bf8.hf8.8.8 (16) r40 r32 r8 r0", Platform::Xe3p);
    for (w, a) in [("u2", "u2"), ("s2", "s8"), ("u4", "s8"), ("u1", "u1")] {
        illegal(
            &format!("dpas.{w}.{a}.8.8 (16) r40 r32 r8 r0"),
            Platform::Xe3p,
            Rule::PlatformPrecision,
        );
        legal(
            &format!("dpas.{w}.{a}.8.8 (16) r40 r32 r8 r0"),
            Platform::Pvc,
        );
    }
    legal("dpas.u4.s4.8.8 (16) r40 r32 r8 r0", Platform::Xe3p);
}

#[test]
fn source_type() {
    illegal(
        "dpas.s8.s8.8.8 (16) r40 r32 r8:f r0",
        Platform::Pvc,
        Rule::SourceType,
    );
    illegal(
        "dpas.s8.s8.8.8 (16) r40 r32 r8 r0:hf",
        Platform::Pvc,
        Rule::SourceType,
    );
    legal("dpas.s8.s8.8.8 (16) r40 r32 r8:d r0:d", Platform::Pvc);
}

#[test]
fn dst_and_src0_types() {
    // Integer DPAS takes D/UD only.
    illegal(
        "dpas.s8.s8.8.8 (16) r40:f r32 r8 r0",
        Platform::Pvc,
        Rule::DstType,
    );
    illegal(
        "dpas.s8.s8.8.8 (16) r40 r32:f r8 r0",
        Platform::Pvc,
        Rule::Src0Type,
    );
    illegal(
        "dpas.s8.s8.8.8 (16) r40 null:f r8 r0",
        Platform::Pvc,
        Rule::Src0Type,
    );
    legal("dpas.s8.s8.8.8 (16) r40:ud r32:d r8 r0", Platform::Pvc);
    // Float DPAS takes F, plus BF (bf) / HF (hf) from PVC on; never mixed bf/hf.
    illegal(
        "dpas.bf.bf.8.8 (8) r40:bf r32 r8 r0",
        Platform::Dg2,
        Rule::DstType,
    );
    illegal(
        "dpas.hf.hf.8.8 (8) r40 r32:hf r8 r0",
        Platform::Dg2,
        Rule::Src0Type,
    );
    illegal(
        "dpas.bf.bf.8.8 (16) r40:hf r32 r8 r0",
        Platform::Pvc,
        Rule::DstType,
    );
    illegal(
        "dpas.hf.hf.8.8 (16) r40 r32:bf r8 r0",
        Platform::Pvc,
        Rule::Src0Type,
    );
    illegal(
        "dpas.bf.bf.8.8 (16) r40:d r32 r8 r0",
        Platform::Pvc,
        Rule::DstType,
    );
    legal("dpas.bf.bf.8.8 (16) r40:bf r32:f r8 r0", Platform::Pvc);
    legal("dpas.hf.hf.8.8 (16) r40:f r32:hf r8 r0", Platform::Xe2);
    // tf32: F only.
    illegal(
        "dpas.tf32.tf32.8.8 (16) r40:bf r32 r8 r0",
        Platform::Pvc,
        Rule::DstType,
    );
    // fp8 on Xe3P: F or BF, not HF.
    illegal(
        "dpas.hf8.hf8.8.8 (16) r40:hf r32 r8 r0",
        Platform::Xe3p,
        Rule::DstType,
    );
    legal("dpas.hf8.bf8.8.8 (16) r40:bf r32:bf r8 r0", Platform::Xe3p);
}

#[test]
fn alignment() {
    illegal(
        "dpas.s8.s8.8.8 (16) r40.4:d r32 r8 r0",
        Platform::Pvc,
        Rule::DstAlignment,
    );
    illegal(
        "dpas.s8.s8.8.8 (16) r40 r32.1:d r8 r0",
        Platform::Pvc,
        Rule::Src0Alignment,
    );
    illegal(
        "dpas.s8.s8.8.8 (16) r40 r32 r8.8 r0",
        Platform::Pvc,
        Rule::Src1Alignment,
    );
    illegal(
        "dpas.s8.s8.8.8 (8) r40 r32 r8.4 r0",
        Platform::Dg2,
        Rule::Src1Alignment,
    );
    // s8 A rows are 32 bytes: r0.8:ud (byte 32) is aligned, r0.4 (byte 16) is not.
    legal("dpas.s8.s8.8.8 (16) r40 r32 r8 r0.8", Platform::Pvc);
    illegal(
        "dpas.s8.s8.8.8 (16) r40 r32 r8 r0.4",
        Platform::Pvc,
        Rule::Src2Alignment,
    );
    // u4 × u4 (OPS 8): rows of 32 bytes; u4 B × s8 A: A rows 32 bytes; u2 × u2: 16 bytes;
    // u2 B × u8... A = u2 with B = u8 (OPS 4): A rows 8 bytes.
    legal("dpas.u2.u2.8.8 (16) r40 r32 r8 r0.4", Platform::Pvc);
    illegal(
        "dpas.u2.u2.8.8 (16) r40 r32 r8 r0.2",
        Platform::Pvc,
        Rule::Src2Alignment,
    );
    legal("dpas.u8.u2.8.8 (16) r40 r32 r8 r0.2", Platform::Pvc);
    illegal(
        "dpas.u8.u2.8.8 (16) r40 r32 r8 r0.1",
        Platform::Pvc,
        Rule::Src2Alignment,
    );
    // BF/HF Dst rows are ExecSize × 2 bytes = half a GRF on PVC.
    legal("dpas.bf.bf.8.8 (16) r40.16:bf r32 r8 r0", Platform::Pvc);
    illegal(
        "dpas.bf.bf.8.8 (16) r40.8:bf r32 r8 r0",
        Platform::Pvc,
        Rule::DstAlignment,
    );
    illegal(
        "dpas.hf.hf.8.8 (16) r40 r32.4:hf r8 r0",
        Platform::Pvc,
        Rule::Src0Alignment,
    );
}

#[test]
fn register_bounds() {
    illegal(
        "dpas.s8.s8.8.8 (16) r121 r32 r8 r0",
        Platform::Pvc,
        Rule::RegisterBounds,
    );
    legal("dpas.s8.s8.8.8 (16) r120 r32 r8 r0", Platform::Pvc);
    illegal(
        "dpas.s8.s8.8.8 (16) r40 r32 r121 r0",
        Platform::Pvc,
        Rule::RegisterBounds,
    );
    illegal(
        "dpas.s8.s8.8.8 (16) r40 r32 r8 r125",
        Platform::Pvc,
        Rule::RegisterBounds,
    );
    illegal(
        "dpas.s8.s8.8.8 (16) r40 r4000000000 r8 r0",
        Platform::Pvc,
        Rule::RegisterBounds,
    );
}

#[test]
fn program_errors_name_the_instruction() {
    let text =
        "dpas.s8.s8.8.8 (16) r40 r32 r8 r0\n\n// ok above\ndpas.s8.s8.8.8 (8) r40 r32 r8 r0\n";
    let program = spvx_dpas::isa::parse_program(text).unwrap();
    let mut regs = RegisterFile::new(Platform::Pvc, 128).unwrap();
    let err = program
        .run(Platform::Pvc, &mut regs, &ExecOptions::default())
        .unwrap_err();
    assert_eq!(err.rule(), Some(Rule::ExecSize));
    assert!(
        err.to_string().starts_with("instruction 1 (line 4):"),
        "{err}"
    );
}
