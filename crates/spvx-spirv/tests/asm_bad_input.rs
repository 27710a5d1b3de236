//! Bad input: each kind of mistake gives one error of the expected kind at the expected line
//! and column (1-based, in characters), never a panic.

use spvx_spirv::asm::{AsmErrorKind as K, assemble};

/// Assembles `text`, expecting an error; returns (line, column, kind).
fn err(text: &str) -> (u32, u32, K) {
    match assemble(text, &Default::default()) {
        Ok(m) => panic!("{text:?} assembled to {:08x?}", m.words()),
        Err(e) => (e.line, e.column, e.kind),
    }
}

#[test]
fn unknown_opcode() {
    let (l, c, k) = err("OpCapability Shader\n%x = OpFrobnicate %t\n");
    assert_eq!((l, c), (2, 6));
    assert_eq!(k, K::UnknownOpcode("OpFrobnicate".into()));
}

#[test]
fn unknown_enumerant() {
    let (l, c, k) = err("OpCapability Shaderr\n");
    assert_eq!((l, c), (1, 14));
    assert!(
        matches!(k, K::UnknownEnumerant { ref kind, ref name } if kind == "Capability" && name == "Shaderr")
    );
    let (l, c, k) = err("%a = OpLoad %t %p Volatile||Nontemporal\n");
    assert_eq!((l, c), (1, 19));
    assert!(matches!(k, K::UnknownEnumerant { .. }));
}

#[test]
fn literal_too_large_for_its_type() {
    let (l, c, k) = err("%u13 = OpTypeInt 13 1\n%c4 = OpConstant %u13 4096\n");
    assert_eq!((l, c), (2, 23));
    assert_eq!(
        k,
        K::IntegerOutOfRange {
            text: "4096".into(),
            width: 13,
            signedness: "signed"
        }
    );
    let (_, _, k) = err("%u = OpTypeInt 32 0\n%c = OpConstant %u 4294967296\n");
    assert!(matches!(k, K::IntegerOutOfRange { width: 32, .. }));
    let (_, _, k) = err("%u = OpTypeInt 32 0\n%c = OpConstant %u -1\n");
    assert_eq!(k, K::NegativeUnsigned("-1".into()));
    let (_, _, k) = err("%h = OpTypeFloat 16\n%c = OpConstant %h 65536\n");
    assert!(matches!(k, K::FloatOutOfRange { .. }));
    let (_, _, k) = err("%h = OpTypeFloat 8 Float8E4M3EXT\n%c = OpConstant %h 449\n");
    assert!(matches!(k, K::FloatOutOfRange { .. }));
    let (_, _, k) = err("%f = OpTypeFloat 32\n%c = OpConstant %f 1e39\n");
    assert!(matches!(k, K::FloatOutOfRange { .. }));
    let (_, _, k) = err("OpDecorate %x Location 99999999999\n");
    assert!(matches!(k, K::IntegerOutOfRange { .. }));
}

#[test]
fn malformed_literals() {
    let (l, c, k) = err("%f = OpTypeFloat 32\n%c = OpConstant %f 1.0f\n");
    assert_eq!((l, c), (2, 20));
    assert!(matches!(k, K::InvalidLiteral { .. }));
    let (_, _, k) = err("%f = OpTypeFloat 32\n%c = OpConstant %f inf\n");
    assert!(matches!(k, K::InvalidLiteral { .. }));
    let (_, _, k) = err("%i = OpTypeInt 32 1\n%c = OpConstant %i 1.5\n");
    assert!(matches!(k, K::InvalidLiteral { .. }));
    let (_, _, k) = err("%i = OpTypeInt 32 1\n%c = OpConstant %i 08\n");
    assert!(matches!(k, K::InvalidLiteral { .. }));
    let (_, _, k) = err("OpName %x abc\n");
    assert!(matches!(k, K::InvalidString(_)));
}

#[test]
fn unterminated_string() {
    let (l, c, k) = err("OpCapability Shader\nOpName %x \"abc\nOpNop\n");
    assert_eq!((l, c), (2, 11));
    assert_eq!(k, K::UnterminatedString);
}

#[test]
fn missing_operand() {
    let (l, c, k) = err("OpMemoryModel Logical\nOpNop\n");
    assert_eq!((l, c), (1, 1));
    assert!(
        matches!(k, K::MissingOperand { ref opcode, ref kind, .. } if opcode == "OpMemoryModel" && kind == "MemoryModel")
    );
    let (_, _, k) = err("%x = OpIAdd %t %a\n");
    assert!(matches!(k, K::MissingOperand { .. }));
}

#[test]
fn id_defined_twice() {
    let (l, c, k) = err("%a = OpTypeVoid\n%b = OpTypeBool\n  %a = OpTypeInt 32 0\n");
    assert_eq!((l, c), (3, 3));
    assert_eq!(
        k,
        K::IdDefinedTwice {
            name: "%a".into(),
            first_line: 1
        }
    );
}

#[test]
fn wrong_operands() {
    let (l, c, k) = err("OpEntryPoint GLCompute main \"main\"\n");
    assert_eq!((l, c), (1, 24));
    assert_eq!(k, K::ExpectedId("main".into()));
    let (_, _, k) = err("OpName %a.b \"x\"\n");
    assert_eq!(k, K::InvalidId("%a.b".into()));
    // One operand too many: the extra word cannot start an instruction.
    let (l, c, k) = err("OpCapability Shader Int64\n");
    assert_eq!((l, c), (1, 21));
    assert_eq!(k, K::ExpectedInstruction("Int64".into()));
    let (_, _, k) = err("OpCapability Shader, Int64\n");
    assert_eq!(k, K::UnexpectedCharacter(','));
}

#[test]
fn result_id_mistakes() {
    let (_, _, k) = err("%a = OpNop\n");
    assert!(matches!(k, K::UnexpectedResultId { .. }));
    let (_, _, k) = err("OpTypeVoid\n");
    assert!(matches!(k, K::MissingResultId { .. }));
    let (_, _, k) = err("%a OpTypeVoid\n");
    assert!(matches!(k, K::ExpectedEquals { .. }));
    let (_, _, k) = err("%a = TypeVoid\n");
    assert!(matches!(k, K::ExpectedOpcode(_)));
}

#[test]
fn ext_inst_and_spec_constant_op_mistakes() {
    let (_, _, k) = err("%x = OpExtInst %t %s Sqrt %a\n");
    assert_eq!(k, K::NotAnExtInstImport { id: "%s".into() });
    let (_, _, k) = err("%s = OpExtInstImport \"GLSL.std.450\"\n%x = OpExtInst %t %s Frob %a\n");
    assert!(matches!(k, K::UnknownExtInst { .. }));
    let (_, _, k) = err("%x = OpSpecConstantOp %t Frob %a %b\n");
    assert_eq!(k, K::UnknownSpecConstantOpcode("Frob".into()));
    let (_, _, k) = err("%c = OpConstant %t 1\n");
    assert!(matches!(k, K::UnknownLiteralType(_)));
}

#[test]
fn raw_word_mistakes() {
    let (_, _, k) = err("!4294967296\n");
    assert_eq!(k, K::InvalidRawWord("!4294967296".into()));
    let (_, _, k) = err("!1 Shader\n");
    assert_eq!(k, K::InvalidRawOperand("Shader".into()));
}

#[test]
fn empty_text() {
    assert_eq!(err("").2, K::EmptyText);
    // Whitespace and comments alone make an empty module, as for spirv-as.
    let m = assemble("  ; nothing\n", &Default::default()).expect("assembles");
    assert_eq!(m.words().len(), 5);
}

#[test]
fn columns_count_characters() {
    let (l, c, _) = err("OpName %x \"ééé\" Extra\n");
    assert_eq!((l, c), (1, 17));
}
