//! What spvx's grammar supplement (`grammar/supplement.json`) adds to SPIRV-Headers 1.4.335,
//! checked against hand-computed words (spirv-as 2025.5 knows none of it):
//!
//! - SPV_EXT_ocp_microscaling_types and SPV_EXT_long_vector capabilities and FP encodings
//!   (`OpCapability Float8UnsignedE8M0EXT` = 0x00020011 4230; `OpTypeFloat 8
//!   Float8UnsignedE8M0EXT` = 0x00040016 id 8 4226; `OpCapability LongVectorEXT` = 0x00020011
//!   5425), assembled and disassembled back to the same text;
//! - the SPV_ARM_tensors implicit declarations the core grammar lacks (seeds/001);
//! - the SDK 1.4.341 names accepted as aliases (`OpTypeVectorIdEXT` = opcode 5288,
//!   `OpGroupNonUniformPartitionEXT` = 5296, `GroupNonUniformPartitionedEXT` = 5297), printed
//!   with the 1.4.335 names spirv-dis 2025.5 uses.

use spvx_spirv::asm::assemble;
use spvx_spirv::dis::{DisOptions, disassemble_words};
use spvx_spirv::grammar::grammar;

const TEXT: &str = "\
OpCapability Shader
OpCapability Float8UnsignedE8M0EXT
OpCapability Float4EXT
OpCapability Float6EXT
OpCapability MXInt8EXT
OpCapability BitcastExtractEXT
OpCapability LongVectorEXT
OpExtension \"SPV_EXT_ocp_microscaling_types\"
OpExtension \"SPV_EXT_long_vector\"
OpMemoryModel Logical GLSL450
%1 = OpTypeFloat 8 Float8UnsignedE8M0EXT
%2 = OpTypeFloat 4 Float4E2M1EXT
%3 = OpTypeFloat 6 Float6E2M3EXT
%4 = OpTypeFloat 6 Float6E3M2EXT
%5 = OpTypeFloat 8 MXInt8EXT
%6 = OpTypeVector %1 8
";

#[test]
fn microscaling_and_long_vector_enumerants_assemble_to_their_numbers() {
    let words = assemble(TEXT, &Default::default())
        .expect("assembles")
        .words();
    let body = &words[5..];
    let expected: Vec<u32> = [
        vec![0x0002_0011, 1],
        vec![0x0002_0011, 4230],
        vec![0x0002_0011, 4229],
        vec![0x0002_0011, 4228],
        vec![0x0002_0011, 4231],
        vec![0x0002_0011, 4232],
        vec![0x0002_0011, 5425],
    ]
    .concat();
    assert_eq!(&body[..expected.len()], &expected[..]);
    let rest = &body[expected.len()..];
    // Two OpExtension (the strings are 8 and 5 words), OpMemoryModel, then the types.
    let types_at = (1 + 8) + (1 + 5) + 3;
    assert_eq!(
        &rest[types_at..],
        &[
            0x0004_0016,
            1,
            8,
            4226,
            0x0004_0016,
            2,
            4,
            4225,
            0x0004_0016,
            3,
            6,
            4223,
            0x0004_0016,
            4,
            6,
            4224,
            0x0004_0016,
            5,
            8,
            4227,
            0x0004_0017,
            6,
            1,
            8
        ]
    );
    // Back to text: the same names.
    let opts = DisOptions {
        raw_id: true,
        header: false,
        indent: false,
        ..DisOptions::default()
    };
    let text = disassemble_words(&words, &opts).expect("disassembles");
    for line in TEXT.lines() {
        assert!(text.contains(line), "{line:?} missing from\n{text}");
    }
}

#[test]
fn tensor_array_capabilities_declare_tensors() {
    let g = grammar();
    let caps = g.kind(g.common.capability);
    let implied = |name: &str| {
        caps.enumerant_by_name(name)
            .map(|e| e.capabilities.clone())
            .unwrap_or_default()
    };
    assert_eq!(
        implied("StorageTensorArrayDynamicIndexingARM"),
        ["TensorsARM", "Shader"]
    );
    assert_eq!(
        implied("StorageTensorArrayNonUniformIndexingARM"),
        ["TensorsARM", "ShaderNonUniform"]
    );
    // Merged into the core enumerant, not added as a second one.
    let count = caps.enumerants.iter().filter(|e| e.value == 4175).count();
    assert_eq!(count, 1);
    // The encodings need their capabilities.
    let enc = g.kind(g.common.fp_encoding);
    assert_eq!(
        enc.enumerant_by_name("Float8UnsignedE8M0EXT")
            .map(|e| (e.value, e.capabilities.clone())),
        Some((4226, vec!["Float8UnsignedE8M0EXT"]))
    );
}

#[test]
fn sdk_1_4_341_names_are_aliases() {
    let text = "\
OpCapability GroupNonUniformPartitionedEXT
%1 = OpTypeInt 32 0
%2 = OpConstant %1 5
%3 = OpTypeVectorIdEXT %1 %2
%4 = OpGroupNonUniformPartitionEXT %3 %2
";
    let words = assemble(text, &Default::default())
        .expect("assembles")
        .words();
    assert_eq!(
        &words[5..],
        &[
            0x0002_0011,
            5297,
            0x0004_0015,
            1,
            32,
            0,
            0x0004_002b,
            1,
            2,
            5,
            0x0004_0000 | 5288,
            3,
            1,
            2,
            0x0004_0000 | 5296,
            3,
            4,
            2
        ]
    );
    let opts = DisOptions {
        raw_id: true,
        header: false,
        indent: false,
        ..DisOptions::default()
    };
    let back = disassemble_words(&words, &opts).expect("disassembles");
    assert!(
        back.contains("OpCapability GroupNonUniformPartitionedNV"),
        "{back}"
    );
    assert!(
        back.contains("%3 = OpTypeCooperativeVectorNV %1 %2"),
        "{back}"
    );
    assert!(
        back.contains("%4 = OpGroupNonUniformPartitionNV %3 %2"),
        "{back}"
    );
    // OpTypeVectorIdEXT is enabled by LongVectorEXT as well.
    let caps = &spvx_spirv::op::Op::TypeVectorIdEXT.desc().capabilities;
    assert!(caps.contains(&"LongVectorEXT"), "{caps:?}");
}
