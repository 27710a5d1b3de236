//! Known answers: the words of small modules, written by hand from the SPIR-V specification's
//! encoding rules (section 2.3 "Physical Layout": word count in the high 16 bits of the first
//! word, opcode in the low 16; strings nul-terminated and zero-padded, little-endian inside a
//! word; literal numbers of more than 32 bits low word first, narrower signed ones
//! sign-extended), with opcode and enumerant numbers taken from the specification's tables.
//! None of these words was produced by running the code under test.

use spvx_spirv::asm::{AsmOptions, assemble};
use spvx_spirv::binary::SPVX_GENERATOR;
use spvx_spirv::grammar::Version;

const MAGIC: u32 = 0x0723_0203;

fn words(text: &str) -> Vec<u32> {
    assemble(text, &AsmOptions::default())
        .unwrap_or_else(|e| panic!("assembling {text:?}: {e}"))
        .words()
}

fn module(bound: u32, body: &[u32]) -> Vec<u32> {
    let mut w = vec![MAGIC, 0x0001_0600, SPVX_GENERATOR, bound, 0];
    w.extend_from_slice(body);
    w
}

#[test]
fn capability_and_memory_model() {
    // OpCapability (17) Shader (1); OpMemoryModel (14) Logical (0) GLSL450 (1).
    assert_eq!(
        words("OpCapability Shader\nOpMemoryModel Logical GLSL450\n"),
        module(1, &[0x0002_0011, 1, 0x0003_000e, 0, 1])
    );
}

#[test]
fn strings_are_packed_and_terminated() {
    // OpName (5): "abcd" needs a whole extra word for the nul; "abc" fits in one; "" is one
    // zero word; escapes drop the backslash.
    let got = words("OpName %x \"abcd\"\nOpName %x \"abc\"\nOpName %y \"\"\nOpName %y \"a\\\"\"\n");
    let expected = module(
        3,
        &[
            0x0004_0005,
            1,
            0x6463_6261,
            0, //
            0x0003_0005,
            1,
            0x0063_6261, //
            0x0003_0005,
            2,
            0, //
            0x0003_0005,
            2,
            0x0000_2261,
        ],
    );
    assert_eq!(got, expected);
}

#[test]
fn ids_are_numbered_by_first_appearance_result_type_first() {
    // %a = OpIAdd (128) %int %b %c: %int is seen first (1), then %a (2), %b (3), %c (4).
    // Numeric names are names: %5 gets the next free number (5 here by coincidence), %9 gets 1.
    let got = words("%a = OpIAdd %int %b %c\n%5 = OpTypeVoid\n");
    assert_eq!(got, module(6, &[0x0005_0080, 1, 2, 3, 4, 0x0002_0013, 5]));
    let got = words("%9 = OpTypeVoid\n%1 = OpTypeBool\n");
    assert_eq!(got, module(3, &[0x0002_0013, 1, 0x0002_0014, 2]));
}

#[test]
fn integer_constants_are_sized_by_their_type() {
    // OpTypeInt (21), OpConstant (43).
    let text = "%u64 = OpTypeInt 64 0\n%c = OpConstant %u64 0x100000002\n\
                %i8 = OpTypeInt 8 1\n%d = OpConstant %i8 -2\n%e = OpConstant %i8 0x80\n\
                %i13 = OpTypeInt 13 1\n%f = OpConstant %i13 -1\n\
                %u16 = OpTypeInt 16 0\n%g = OpConstant %u16 0xffff\n";
    let expected = module(
        10,
        &[
            0x0004_0015,
            1,
            64,
            0, //
            0x0005_002b,
            1,
            2,
            0x0000_0002,
            0x0000_0001, //
            0x0004_0015,
            3,
            8,
            1, //
            0x0004_002b,
            3,
            4,
            0xffff_fffe, //
            0x0004_002b,
            3,
            5,
            0xffff_ff80, //
            0x0004_0015,
            6,
            13,
            1, //
            0x0004_002b,
            6,
            7,
            0xffff_ffff, //
            0x0004_0015,
            8,
            16,
            0, //
            0x0004_002b,
            8,
            9,
            0x0000_ffff,
        ],
    );
    assert_eq!(words(text), expected);
}

#[test]
fn integers_wider_than_64_bits_are_multi_word_low_first() {
    // spvx extension (SPV_INTEL_arbitrary_precision_integers): ceil(w/32) words.
    let text = "%i128 = OpTypeInt 128 1\n%a = OpConstant %i128 -2\n\
                %u96 = OpTypeInt 96 0\n%b = OpConstant %u96 0xa0000000b0000000c\n\
                %c = OpConstant %u96 79228162514264337593543950335\n";
    let expected = module(
        6,
        &[
            0x0004_0015,
            1,
            128,
            1, //
            0x0007_002b,
            1,
            2,
            0xffff_fffe,
            0xffff_ffff,
            0xffff_ffff,
            0xffff_ffff, //
            0x0004_0015,
            3,
            96,
            0, //
            0x0006_002b,
            3,
            4,
            0xc,
            0xb,
            0xa, //
            0x0006_002b,
            3,
            5,
            0xffff_ffff,
            0xffff_ffff,
            0xffff_ffff,
        ],
    );
    assert_eq!(words(text), expected);
}

#[test]
fn float_constants_of_every_format() {
    // OpTypeFloat (22) with FPEncoding BFloat16KHR (0), Float8E4M3EXT (4214), Float8E5M2EXT
    // (4215). 1.0: f16 0x3c00, bf16 0x3f80, E4M3 (bias 7) 0x38, E5M2 (bias 15) 0x3c,
    // f64 0x3ff00000_00000000; -2.5 f32 = 0xc0200000.
    let text = "%h = OpTypeFloat 16\n%a = OpConstant %h 1.0\n\
                %b = OpTypeFloat 16 BFloat16KHR\n%c = OpConstant %b 1.0\n\
                %e = OpTypeFloat 8 Float8E4M3EXT\n%f = OpConstant %e 1.0\n\
                %g = OpTypeFloat 8 Float8E5M2EXT\n%i = OpConstant %g 1.0\n\
                %d = OpTypeFloat 64\n%j = OpConstant %d 1.0\n\
                %s = OpTypeFloat 32\n%k = OpConstant %s -2.5\n";
    let expected = module(
        13,
        &[
            0x0003_0016,
            1,
            16,
            0x0004_002b,
            1,
            2,
            0x3c00, //
            0x0004_0016,
            3,
            16,
            0,
            0x0004_002b,
            3,
            4,
            0x3f80, //
            0x0004_0016,
            5,
            8,
            4214,
            0x0004_002b,
            5,
            6,
            0x38, //
            0x0004_0016,
            7,
            8,
            4215,
            0x0004_002b,
            7,
            8,
            0x3c, //
            0x0003_0016,
            9,
            64,
            0x0005_002b,
            9,
            10,
            0,
            0x3ff0_0000, //
            0x0003_0016,
            11,
            32,
            0x0004_002b,
            11,
            12,
            0xc020_0000,
        ],
    );
    assert_eq!(words(text), expected);
}

#[test]
fn masks_with_parameters_and_ext_inst_by_name() {
    // OpLoad (61) with MemoryAccess Volatile (1) | Aligned (2) and Aligned's literal 4;
    // OpExtInstImport (11) "GLSL.std.450"; OpExtInst (12) Sqrt = 31.
    let text = "%v = OpLoad %t %p Aligned|Volatile 4\n\
                %s = OpExtInstImport \"GLSL.std.450\"\n%r = OpExtInst %t %s Sqrt %v\n";
    let expected = module(
        6,
        &[
            0x0006_003d,
            1,
            2,
            3,
            3,
            4, //
            0x0006_000b,
            4,
            0x4c53_4c47,
            0x6474_732e,
            0x3035_342e,
            0, //
            0x0006_000c,
            1,
            5,
            4,
            31,
            2,
        ],
    );
    assert_eq!(words(text), expected);
}

#[test]
fn aliases_and_optional_trailing_operands() {
    // OpSDotKHR = OpSDot (4450 = 0x1162); PackedVectorFormat4x8BitKHR = 0.
    // OpTensorReadARM (4164 = 0x1044) with TensorOperands OutOfBoundsValueARM (2) %v.
    let text = "%d = OpSDotKHR %t %a %b PackedVectorFormat4x8BitKHR\n%e = OpSDot %t %a %b\n\
                %r = OpTensorReadARM %t %x %c OutOfBoundsValueARM %v\n";
    let expected = module(
        10,
        &[
            0x0006_1162,
            1,
            2,
            3,
            4,
            0, //
            0x0005_1162,
            1,
            5,
            3,
            4, //
            0x0007_1044,
            1,
            6,
            7,
            8,
            2,
            9,
        ],
    );
    assert_eq!(words(text), expected);
}

#[test]
fn fixed_point_altera_with_intel_alias() {
    // OpFixedSqrtALTERA = OpFixedSqrtINTEL = 5923 (0x1723): result type, result, input, then
    // the literals S, I, rI, Q, O.
    let got = words("%r = OpFixedSqrtINTEL %t %x 1 13 5 0 0\n");
    assert_eq!(got, module(4, &[0x0009_1723, 1, 2, 3, 1, 13, 5, 0, 0]));
}

#[test]
fn valve_mixed_float_dot_products() {
    // SPV_VALVE_mixed_float_dot_product: OpFDot2MixAcc32VALVE 6916 (0x1b04),
    // OpFDot2MixAcc16VALVE 6917, OpFDot4MixAcc32VALVE 6918; capabilities 6912..6915.
    let text = "OpCapability DotProductFloat16AccFloat32VALVE\n\
                OpCapability DotProductFloat16AccFloat16VALVE\n\
                OpCapability DotProductBFloat16AccVALVE\n\
                OpCapability DotProductFloat8AccFloat32VALVE\n\
                %r = OpFDot2MixAcc32VALVE %t %a %b %c\n\
                %s = OpFDot2MixAcc16VALVE %t %a %b %c\n\
                %u = OpFDot4MixAcc32VALVE %t %a %b %c\n";
    let expected = module(
        8,
        &[
            0x0002_0011,
            6912,
            0x0002_0011,
            6913,
            0x0002_0011,
            6914,
            0x0002_0011,
            6915, //
            0x0006_1b04,
            1,
            2,
            3,
            4,
            5, //
            0x0006_1b05,
            1,
            6,
            3,
            4,
            5, //
            0x0006_1b06,
            1,
            7,
            3,
            4,
            5,
        ],
    );
    assert_eq!(words(text), expected);
}

#[test]
fn raw_words() {
    // A raw first word is written as given; a raw operand replaces one word and the word
    // count is still computed.
    let got = words("!0x00030011 1\nOpDecorate %x Location !7\n");
    assert_eq!(got, module(2, &[0x0003_0011, 1, 0x0004_0047, 1, 30, 7]));
}

#[test]
fn target_env_sets_the_version() {
    let opts = AsmOptions {
        version: spvx_spirv::asm::target_env_version("vulkan1.1").expect("known env"),
    };
    assert_eq!(opts.version, Version::new(1, 3));
    let m = assemble("OpNop\n", &opts).expect("assembles");
    assert_eq!(
        m.words(),
        vec![MAGIC, 0x0001_0300, SPVX_GENERATOR, 1, 0, 0x0001_0000]
    );
    assert_eq!(spvx_spirv::asm::target_env_version("spv1.7"), None);
}
