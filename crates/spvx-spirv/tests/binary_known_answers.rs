//! Known answers for the binary reader and writer: modules written word by word from the
//! encoding rules of the SPIR-V 1.6 specification (§2.3 "Physical Layout of a SPIR-V Module and
//! Instruction": word 0 of an instruction is `word count << 16 | opcode`; §2.2.1 "Literal":
//! strings are UTF-8, nul-terminated and zero-padded to a word, numbers wider than 32 bits take
//! several words, low-order word first; narrower signed integers are sign-extended), not by
//! running the code. Each case checks the decoded operands (value and grammar kind) against a
//! hand-written rendering and that writing gives the same words back. Where SPIRV-Tools 2025.5
//! knows every instruction of a case, the case also gives its spirv-as text, and the hand-written
//! words must equal what spirv-as makes of it.

mod common;

use common::{header, le_bytes, minimal, render, spirv_as, switch64};
use spvx_spirv::binary::{Header, read_bytes, read_words, to_bytes, to_words};

/// Reads `body` (instructions after a bound-`bound` header), checks each rendered instruction
/// and the exact re-encoding. When `text` is given and SPIRV-Tools is present, the hand-written
/// words must also be what `spirv-as` makes of that text (a second, independent oracle).
fn check(bound: u32, body: &[u32], expected: &[&str], text: Option<&str>) {
    if let Some(text) = text
        && let Some(words) = spirv_as(text)
    {
        assert_eq!(
            words[5..],
            *body,
            "spirv-as disagrees with the hand-written words"
        );
    }
    let mut words = header(bound);
    words.extend_from_slice(body);
    let m = match read_words(&words) {
        Ok(m) => m,
        Err(e) => panic!("read failed: {e}"),
    };
    let got: Vec<String> = m.instructions.iter().map(render).collect();
    assert_eq!(got, expected);
    assert_eq!(
        m.header,
        Header {
            version: 0x0001_0600,
            generator: 0,
            bound,
            schema: 0
        }
    );
    assert_eq!(to_words(&m.header, &m.instructions), words);
}

#[test]
fn minimal_compute_shader() {
    let text = r#"
        OpCapability Shader
        OpMemoryModel Logical GLSL450
        OpEntryPoint GLCompute %1 "main"
        OpExecutionMode %1 LocalSize 8 1 1
        %2 = OpTypeVoid
        %3 = OpTypeFunction %2
        %1 = OpFunction %2 None %3
        %4 = OpLabel
        OpReturn
        OpFunctionEnd
    "#;
    check(
        5,
        &minimal()[5..],
        &[
            "OpCapability 1:Capability",
            "OpMemoryModel 0:AddressingModel 1:MemoryModel",
            r#"OpEntryPoint 5:ExecutionModel %1:IdRef "main":LiteralString"#,
            "OpExecutionMode %1:IdRef 17:ExecutionMode 8:LiteralInteger 1:LiteralInteger 1:LiteralInteger",
            "OpTypeVoid R%2",
            "OpTypeFunction R%3 %2:IdRef",
            "OpFunction T%2 R%1 0:FunctionControl %3:IdRef",
            "OpLabel R%4",
            "OpReturn",
            "OpFunctionEnd",
        ],
        Some(text),
    );
}

#[test]
#[rustfmt::skip]
fn strings_of_length_0_3_4_5_and_utf8() {
    let text = "
        OpName %1 \"\"
        OpName %1 \"abc\"
        OpName %1 \"abcd\"
        OpName %1 \"abcde\"
        OpName %1 \"é\"
        %2 = OpString \"abcd\"
        OpSource GLSL 450
        OpSource GLSL 450 %2
        OpSource GLSL 450 %2 \"x\n\"
    ";
    check(
        3,
        &[
            0x0003_0005, 1, 0x0000_0000, // OpName %1 ""
            0x0003_0005, 1, 0x0063_6261, // OpName %1 "abc"
            0x0004_0005, 1, 0x6463_6261, 0, // OpName %1 "abcd"
            0x0004_0005, 1, 0x6463_6261, 0x0000_0065, // OpName %1 "abcde"
            0x0003_0005, 1, 0x0000_A9C3, // OpName %1 "é" (UTF-8 C3 A9)
            0x0004_0007, 2, 0x6463_6261, 0, // %2 = OpString "abcd"
            0x0003_0003, 2, 450, // OpSource GLSL 450
            0x0004_0003, 2, 450, 2, // OpSource GLSL 450 %2
            0x0005_0003, 2, 450, 2, 0x0000_0A78, // OpSource GLSL 450 %2 "x\n"
        ],
        &[
            r#"OpName %1:IdRef "":LiteralString"#,
            r#"OpName %1:IdRef "abc":LiteralString"#,
            r#"OpName %1:IdRef "abcd":LiteralString"#,
            r#"OpName %1:IdRef "abcde":LiteralString"#,
            r#"OpName %1:IdRef "é":LiteralString"#,
            r#"OpString R%2 "abcd":LiteralString"#,
            "OpSource 2:SourceLanguage 450:LiteralInteger",
            "OpSource 2:SourceLanguage 450:LiteralInteger %2:IdRef",
            r#"OpSource 2:SourceLanguage 450:LiteralInteger %2:IdRef "x\n":LiteralString"#,
        ],
        Some(text),
    );
}

#[test]
#[rustfmt::skip]
fn constants_sized_by_their_type() {
    let text = "
        %1 = OpTypeInt 64 0
        %2 = OpConstant %1 0x0123456789ABCDEF
        %5 = OpTypeFloat 64
        %6 = OpConstant %5 0x1.921fb54442d18p+1
        %7 = OpTypeInt 16 1
        %8 = OpConstant %7 -2
        %9 = OpTypeInt 13 0
        %10 = OpConstant %9 8191
        %11 = OpTypeFloat 16 BFloat16KHR
        %12 = OpConstant %11 1
        %13 = OpTypeFloat 8 Float8E4M3EXT
        %14 = OpConstant %13 1
        %15 = OpSpecConstant %1 0xFFFFFFFF
    ";
    check(
        16,
        &[
            0x0004_0015, 1, 64, 0, // %1 = OpTypeInt 64 0
            0x0005_002B, 1, 2, 0x89AB_CDEF, 0x0123_4567, // %2 = OpConstant %1 0x0123456789ABCDEF
            0x0003_0016, 5, 64, // %5 = OpTypeFloat 64
            0x0005_002B, 5, 6, 0x5444_2D18, 0x4009_21FB, // %6 = OpConstant %5 pi
            0x0004_0015, 7, 16, 1, // %7 = OpTypeInt 16 1
            0x0004_002B, 7, 8, 0xFFFF_FFFE, // %8 = OpConstant %7 -2 (sign-extended)
            0x0004_0015, 9, 13, 0, // %9 = OpTypeInt 13 0
            0x0004_002B, 9, 10, 0x1FFF, // %10 = OpConstant %9 8191
            0x0004_0016, 11, 16, 0, // %11 = OpTypeFloat 16 BFloat16KHR
            0x0004_002B, 11, 12, 0x3F80, // %12 = OpConstant %11 1.0
            0x0004_0016, 13, 8, 4214, // %13 = OpTypeFloat 8 Float8E4M3EXT
            0x0004_002B, 13, 14, 0x38, // %14 = OpConstant %13 1.0
            0x0005_0032, 1, 15, 0xFFFF_FFFF, 0, // %15 = OpSpecConstant %1 0xFFFFFFFF
        ],
        &[
            "OpTypeInt R%1 64:LiteralInteger 0:LiteralInteger",
            "OpConstant T%1 R%2 #[0x89abcdef,0x1234567]:LiteralContextDependentNumber",
            "OpTypeFloat R%5 64:LiteralInteger",
            "OpConstant T%5 R%6 #[0x54442d18,0x400921fb]:LiteralContextDependentNumber",
            "OpTypeInt R%7 16:LiteralInteger 1:LiteralInteger",
            "OpConstant T%7 R%8 #[0xfffffffe]:LiteralContextDependentNumber",
            "OpTypeInt R%9 13:LiteralInteger 0:LiteralInteger",
            "OpConstant T%9 R%10 #[0x1fff]:LiteralContextDependentNumber",
            "OpTypeFloat R%11 16:LiteralInteger 0:FPEncoding",
            "OpConstant T%11 R%12 #[0x3f80]:LiteralContextDependentNumber",
            "OpTypeFloat R%13 8:LiteralInteger 4214:FPEncoding",
            "OpConstant T%13 R%14 #[0x38]:LiteralContextDependentNumber",
            "OpSpecConstant T%1 R%15 #[0xffffffff,0x0]:LiteralContextDependentNumber",
        ],
        Some(text),
    );
}

/// Wider than 64 bits (SPV_INTEL_arbitrary_precision_integers); spirv-as 2025.5 reports
/// "Unsupported 96-bit integer literals", so there is no tool check.
#[test]
#[rustfmt::skip]
fn constants_wider_than_64_bits() {
    check(
        5,
        &[
            0x0004_0015, 3, 96, 1, // %3 = OpTypeInt 96 1
            0x0006_002B, 3, 4, 1, 2, 10, // %4 = OpConstant %3 (10 << 64 | 2 << 32 | 1)
            0x0004_0015, 1, 65, 0, // %1 = OpTypeInt 65 0
            0x0006_002B, 1, 2, 0, 0, 1, // %2 = OpConstant %1 2^64
        ],
        &[
            "OpTypeInt R%3 96:LiteralInteger 1:LiteralInteger",
            "OpConstant T%3 R%4 #[0x1,0x2,0xa]:LiteralContextDependentNumber",
            "OpTypeInt R%1 65:LiteralInteger 0:LiteralInteger",
            "OpConstant T%1 R%2 #[0x0,0x0,0x1]:LiteralContextDependentNumber",
        ],
        None,
    );
}

#[test]
fn switch_with_64_bit_selector() {
    let text = "
        OpCapability Shader
        OpCapability Int64
        OpMemoryModel Logical GLSL450
        %1 = OpTypeInt 64 0
        %2 = OpConstant %1 7
        %3 = OpTypeVoid
        %4 = OpTypeFunction %3
        %5 = OpFunction %3 None %4
        %6 = OpLabel
        OpSelectionMerge %7 None
        OpSwitch %2 %7 0x100000000 %8 5 %9
        %8 = OpLabel
        OpBranch %7
        %9 = OpLabel
        OpBranch %7
        %7 = OpLabel
        OpReturn
        OpFunctionEnd
    ";
    if let Some(words) = spirv_as(text) {
        assert_eq!(words[3..], switch64()[3..]);
    }
    let m = read_words(&switch64()).expect("reads");
    let sw = &m.instructions[10];
    assert_eq!(
        render(sw),
        "OpSwitch %2:IdRef %7:IdRef #[0x0,0x1]:LiteralInteger %8:IdRef #[0x5,0x0]:LiteralInteger %9:IdRef"
    );
    assert_eq!(to_words(&m.header, &m.instructions), switch64());
}

#[test]
#[rustfmt::skip]
fn switch_with_32_bit_selector() {
    let text = "
        %1 = OpTypeInt 32 1
        %2 = OpConstant %1 3
        OpSwitch %2 %3 -1 %4 3 %5
    ";
    check(
        6,
        &[
            0x0004_0015, 1, 32, 1, // %1 = OpTypeInt 32 1
            0x0004_002B, 1, 2, 3, // %2 = OpConstant %1 3
            0x0007_00FB, 2, 3, 0xFFFF_FFFF, 4, 3, 5, // OpSwitch %2 %3 -1 %4 3 %5
        ],
        &[
            "OpTypeInt R%1 32:LiteralInteger 1:LiteralInteger",
            "OpConstant T%1 R%2 #[0x3]:LiteralContextDependentNumber",
            "OpSwitch %2:IdRef %3:IdRef #[0xffffffff]:LiteralInteger %4:IdRef #[0x3]:LiteralInteger %5:IdRef",
        ],
        Some(text),
    );
}

#[test]
#[rustfmt::skip]
fn extended_instructions_by_set() {
    let text = "
        %1 = OpExtInstImport \"GLSL.std.450\"
        %2 = OpTypeFloat 32
        %3 = OpConstant %2 1
        %4 = OpExtInst %2 %1 FMix %3 %3 %3
        %5 = OpExtInst %2 %1 Sqrt %3
        %6 = OpExtInstImport \"OpenCL.std\"
        %7 = OpExtInst %2 %6 fma %3 %4 %5
    ";
    check(
        8,
        &[
            // %1 = OpExtInstImport "GLSL.std.450"
            0x0006_000B, 1, 0x4C53_4C47, 0x6474_732E, 0x3035_342E, 0,
            0x0003_0016, 2, 32, // %2 = OpTypeFloat 32
            0x0004_002B, 2, 3, 0x3F80_0000, // %3 = OpConstant %2 1.0
            0x0008_000C, 2, 4, 1, 46, 3, 3, 3, // %4 = OpExtInst %2 %1 FMix %3 %3 %3
            0x0006_000C, 2, 5, 1, 31, 3, // %5 = OpExtInst %2 %1 Sqrt %3
            // %6 = OpExtInstImport "OpenCL.std"
            0x0005_000B, 6, 0x6E65_704F, 0x732E_4C43, 0x0000_6474,
            0x0008_000C, 2, 7, 6, 26, 3, 4, 5, // %7 = OpExtInst %2 %6 fma %3 %4 %5
        ],
        &[
            r#"OpExtInstImport R%1 "GLSL.std.450":LiteralString"#,
            "OpTypeFloat R%2 32:LiteralInteger",
            "OpConstant T%2 R%3 #[0x3f800000]:LiteralContextDependentNumber",
            "OpExtInst T%2 R%4 %1:IdRef 46:LiteralExtInstInteger %3:IdRef %3:IdRef %3:IdRef",
            "OpExtInst T%2 R%5 %1:IdRef 31:LiteralExtInstInteger %3:IdRef",
            r#"OpExtInstImport R%6 "OpenCL.std":LiteralString"#,
            "OpExtInst T%2 R%7 %6:IdRef 26:LiteralExtInstInteger %3:IdRef %4:IdRef %5:IdRef",
        ],
        Some(text),
    );
}

/// A set spvx does not know: the operands after the instruction number are ids. (spirv-as
/// rejects unknown import names, so there is no tool check.)
#[test]
#[rustfmt::skip]
fn extended_instruction_of_an_unknown_set() {
    check(
        10,
        &[
            0x0003_000B, 8, 0x006F_6F46, // %8 = OpExtInstImport "Foo"
            0x0007_000C, 2, 9, 8, 3, 4, 5, // %9 = OpExtInst %2 %8 3 %4 %5
        ],
        &[
            r#"OpExtInstImport R%8 "Foo":LiteralString"#,
            "OpExtInst T%2 R%9 %8:IdRef 3:LiteralExtInstInteger %4:IdRef %5:IdRef",
        ],
        None,
    );
}

#[test]
#[rustfmt::skip]
fn decorations_with_parameters() {
    let text = "
        OpDecorate %1 Binding 3
        OpDecorate %1 BuiltIn GlobalInvocationId
        OpMemberDecorate %2 1 Offset 16
        OpDecorate %3 LinkageAttributes \"ab\" Export
        OpDecorate %1 NonWritable
        OpDecorateId %1 UniformId %4
    ";
    check(
        5,
        &[
            0x0004_0047, 1, 33, 3, // OpDecorate %1 Binding 3
            0x0004_0047, 1, 11, 28, // OpDecorate %1 BuiltIn GlobalInvocationId
            0x0005_0048, 2, 1, 35, 16, // OpMemberDecorate %2 1 Offset 16
            0x0005_0047, 3, 41, 0x0000_6261, 0, // OpDecorate %3 LinkageAttributes "ab" Export
            0x0003_0047, 1, 24, // OpDecorate %1 NonWritable
            0x0004_014C, 1, 27, 4, // OpDecorateId %1 UniformId %4
        ],
        &[
            "OpDecorate %1:IdRef 33:Decoration 3:LiteralInteger",
            "OpDecorate %1:IdRef 11:Decoration 28:BuiltIn",
            "OpMemberDecorate %2:IdRef 1:LiteralInteger 35:Decoration 16:LiteralInteger",
            r#"OpDecorate %3:IdRef 41:Decoration "ab":LiteralString 0:LinkageType"#,
            "OpDecorate %1:IdRef 24:Decoration",
            "OpDecorateId %1:IdRef 27:Decoration %4:IdScope",
        ],
        Some(text),
    );
}

#[test]
#[rustfmt::skip]
fn bitmask_parameters_in_bit_order() {
    let text = "
        %2 = OpTensorReadARM %1 %3 %4 OutOfBoundsValueARM|MakeElementVisibleARM %5 %6
        %7 = OpTensorReadARM %1 %3 %4
        %8 = OpTensorReadARM %1 %3 %4 NontemporalARM
        OpTensorWriteARM %3 %4 %9 OutOfBoundsValueARM %10
        OpStore %2 %3 Aligned|MakePointerAvailable 16 %4
        OpCopyMemory %1 %2 Aligned 4 Volatile
        %2 = OpFunction %1 Inline|OptNoneEXT %3
    ";
    check(
        11,
        &[
            // %2 = OpTensorReadARM %1 %3 %4 OutOfBoundsValueARM|MakeElementVisibleARM %5 %6
            0x0008_1044, 1, 2, 3, 4, 0xA, 5, 6,
            0x0005_1044, 1, 7, 3, 4, // %7 = OpTensorReadARM %1 %3 %4
            0x0006_1044, 1, 8, 3, 4, 0x1, // %8 = OpTensorReadARM %1 %3 %4 NontemporalARM
            0x0006_1045, 3, 4, 9, 0x2, 10, // OpTensorWriteARM %3 %4 %9 OutOfBoundsValueARM %10
            0x0006_003E, 2, 3, 0xA, 16, 4, // OpStore %2 %3 Aligned|MakePointerAvailable 16 %4
            0x0006_003F, 1, 2, 2, 4, 1, // OpCopyMemory %1 %2 Aligned 4 Volatile
            0x0005_0036, 1, 2, 0x1_0001, 3, // %2 = OpFunction %1 Inline|OptNoneEXT %3
        ],
        &[
            "OpTensorReadARM T%1 R%2 %3:IdRef %4:IdRef 10:TensorOperands %5:IdRef %6:IdRef",
            "OpTensorReadARM T%1 R%7 %3:IdRef %4:IdRef",
            "OpTensorReadARM T%1 R%8 %3:IdRef %4:IdRef 1:TensorOperands",
            "OpTensorWriteARM %3:IdRef %4:IdRef %9:IdRef 2:TensorOperands %10:IdRef",
            "OpStore %2:IdRef %3:IdRef 10:MemoryAccess 16:LiteralInteger %4:IdScope",
            "OpCopyMemory %1:IdRef %2:IdRef 2:MemoryAccess 4:LiteralInteger 1:MemoryAccess",
            "OpFunction T%1 R%2 65537:FunctionControl %3:IdRef",
        ],
        Some(text),
    );
}

#[test]
#[rustfmt::skip]
fn dot_products_with_and_without_packed_format() {
    let text = "
        %2 = OpSDot %1 %3 %4 PackedVectorFormat4x8Bit
        %5 = OpSDot %1 %3 %4
        %6 = OpSUDotAccSat %1 %3 %4 %2 PackedVectorFormat4x8Bit
        %8 = OpFixedSqrtALTERA %1 %3 0 2 2 0 0
        %9 = OpSpecConstantOp %1 IAdd %2 %2
    ";
    check(
        12,
        &[
            0x0006_1162, 1, 2, 3, 4, 0, // %2 = OpSDot %1 %3 %4 PackedVectorFormat4x8Bit
            0x0005_1162, 1, 5, 3, 4, // %5 = OpSDot %1 %3 %4
            0x0007_1167, 1, 6, 3, 4, 2, 0, // %6 = OpSUDotAccSat %1 %3 %4 %2 PackedVectorFormat4x8Bit
            0x0009_1723, 1, 8, 3, 0, 2, 2, 0, 0, // %8 = OpFixedSqrtALTERA %1 %3 0 2 2 0 0
            0x0006_0034, 1, 9, 128, 2, 2, // %9 = OpSpecConstantOp %1 IAdd %2 %2
        ],
        &[
            "OpSDot T%1 R%2 %3:IdRef %4:IdRef 0:PackedVectorFormat",
            "OpSDot T%1 R%5 %3:IdRef %4:IdRef",
            "OpSUDotAccSat T%1 R%6 %3:IdRef %4:IdRef %2:IdRef 0:PackedVectorFormat",
            "OpFixedSqrtALTERA T%1 R%8 %3:IdRef 0:LiteralInteger 2:LiteralInteger 2:LiteralInteger 0:LiteralInteger 0:LiteralInteger",
            "OpSpecConstantOp T%1 R%9 128:LiteralSpecConstantOpInteger %2:IdRef %2:IdRef",
        ],
        Some(text),
    );
}

/// SPV_VALVE_mixed_float_dot_product, which SPIRV-Tools 2025.5 does not know.
#[test]
#[rustfmt::skip]
fn valve_mixed_float_dot_products() {
    check(
        12,
        &[
            0x0006_1B04, 1, 7, 3, 4, 5, // %7 = OpFDot2MixAcc32VALVE %1 %3 %4 %5
            0x0006_1B05, 1, 8, 3, 4, 5, // %8 = OpFDot2MixAcc16VALVE %1 %3 %4 %5
            0x0006_1B06, 1, 9, 3, 4, 5, // %9 = OpFDot4MixAcc32VALVE %1 %3 %4 %5
            0x0002_0011, 6912, // OpCapability DotProductFloat16AccFloat32VALVE
        ],
        &[
            "OpFDot2MixAcc32VALVE T%1 R%7 %3:IdRef %4:IdRef %5:IdRef",
            "OpFDot2MixAcc16VALVE T%1 R%8 %3:IdRef %4:IdRef %5:IdRef",
            "OpFDot4MixAcc32VALVE T%1 R%9 %3:IdRef %4:IdRef %5:IdRef",
            "OpCapability 6912:Capability",
        ],
        None,
    );
}

#[test]
#[rustfmt::skip]
fn matrix_instructions_and_id_parameters() {
    let text = "
        %2 = OpTypeCooperativeMatrixKHR %1 %3 %4 %5 %6
        %7 = OpCooperativeMatrixLoadKHR %2 %8 %9 %10 Aligned 16
        %11 = OpCooperativeMatrixMulAddKHR %2 %7 %7 %7 MatrixASignedComponentsKHR|SaturatingAccumulationKHR
        %12 = OpSubgroupMatrixMultiplyAccumulateINTEL %1 %13 %14 %15 %16 MatrixAPackedInt8INTEL|MatrixBPackedInt8INTEL
        OpDecorateString %1 UserSemantic \"ab\"
        OpExecutionModeId %1 LocalSizeId %2 %3 %4
    ";
    check(
        17,
        &[
            0x0007_1168, 2, 1, 3, 4, 5, 6, // %2 = OpTypeCooperativeMatrixKHR %1 %3 %4 %5 %6
            // %7 = OpCooperativeMatrixLoadKHR %2 %8 %9 %10 Aligned 16
            0x0008_1169, 2, 7, 8, 9, 10, 2, 16,
            // %11 = OpCooperativeMatrixMulAddKHR %2 %7 %7 %7
            //       MatrixASignedComponentsKHR|SaturatingAccumulationKHR
            0x0007_116B, 2, 11, 7, 7, 7, 0x11,
            // %12 = OpSubgroupMatrixMultiplyAccumulateINTEL %1 %13 %14 %15 %16
            //       MatrixAPackedInt8INTEL|MatrixBPackedInt8INTEL
            0x0008_185D, 1, 12, 13, 14, 15, 16, 0x30,
            0x0004_1600, 1, 5635, 0x0000_6261, // OpDecorateString %1 UserSemantic "ab"
            0x0006_014B, 1, 38, 2, 3, 4, // OpExecutionModeId %1 LocalSizeId %2 %3 %4
        ],
        &[
            "OpTypeCooperativeMatrixKHR R%2 %1:IdRef %3:IdScope %4:IdRef %5:IdRef %6:IdRef",
            "OpCooperativeMatrixLoadKHR T%2 R%7 %8:IdRef %9:IdRef %10:IdRef 2:MemoryAccess 16:LiteralInteger",
            "OpCooperativeMatrixMulAddKHR T%2 R%11 %7:IdRef %7:IdRef %7:IdRef 17:CooperativeMatrixOperands",
            "OpSubgroupMatrixMultiplyAccumulateINTEL T%1 R%12 %13:IdRef %14:IdRef %15:IdRef %16:IdRef 48:MatrixMultiplyAccumulateOperands",
            r#"OpDecorateString %1:IdRef 5635:Decoration "ab":LiteralString"#,
            "OpExecutionModeId %1:IdRef 38:ExecutionMode %2:IdRef %3:IdRef %4:IdRef",
        ],
        Some(text),
    );
}

#[test]
fn big_endian_input_reads_like_little_endian() {
    let words = minimal();
    let be: Vec<u8> = words.iter().flat_map(|w| w.to_be_bytes()).collect();
    let le = le_bytes(&words);
    assert_eq!(&be[..4], &[0x07, 0x23, 0x02, 0x03]);
    let from_be = read_bytes(&be).expect("big-endian reads");
    let from_le = read_bytes(&le).expect("little-endian reads");
    assert!(from_be.big_endian);
    assert!(!from_le.big_endian);
    assert_eq!(from_be.instructions, from_le.instructions);
    assert_eq!(from_be.header, from_le.header);
    assert_eq!(from_be.offsets, common::MINIMAL_OFFSETS);
    // The writer always writes little-endian, the byte order spirv-as writes.
    assert_eq!(to_bytes(&from_be.header, &from_be.instructions), le);
}
