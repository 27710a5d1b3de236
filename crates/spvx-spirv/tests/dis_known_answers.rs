//! Known answers: modules written word by word from the SPIR-V specification's encoding rules
//! (section 2.3: word count in the high half of the first word, opcode in the low half, strings
//! nul-terminated little-endian), with the expected disassembly written out by hand.
//! These cover what spirv-dis cannot be asked about: SPV_VALVE_mixed_float_dot_product (which
//! SPIRV-Tools 2025.5 does not know) and integer constants wider than 64 bits (which it prints
//! blank); plus a few naming and number cases, and big-endian input.

use spvx_spirv::dis::{DisOptions, disassemble_words};

/// First word of an instruction.
fn op(word_count: u32, opcode: u32) -> u32 {
    (word_count << 16) | opcode
}

/// A literal string as words: UTF-8 bytes, nul-terminated, zero-padded, little-endian.
fn string(s: &str) -> Vec<u32> {
    let mut bytes = s.as_bytes().to_vec();
    bytes.push(0);
    while !bytes.len().is_multiple_of(4) {
        bytes.push(0);
    }
    bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn module(bound: u32, body: &[u32]) -> Vec<u32> {
    // SPIR-V 1.6, generator: Khronos SPIR-V Tools Assembler (tool 7), version 0.
    let mut w = vec![0x0723_0203, 0x0001_0600, 0x0007_0000, bound, 0];
    w.extend_from_slice(body);
    w
}

fn dis(words: &[u32], opts: DisOptions) -> String {
    disassemble_words(words, &opts).unwrap_or_else(|e| panic!("cannot read module: {e}"))
}

fn valve_module() -> Vec<u32> {
    let ext = string("SPV_VALVE_mixed_float_dot_product");
    let mut b = vec![
        op(2, 17),
        1, // OpCapability Shader
        op(2, 17),
        9, // OpCapability Float16
        op(2, 17),
        6912,
        op(2, 17),
        6913,
        op(2, 17),
        6914,
        op(2, 17),
        6915,
        op(1 + ext.len() as u32, 10),
    ];
    b.extend(ext);
    b.extend([
        op(3, 14),
        0,
        1, // OpMemoryModel Logical GLSL450
        op(3, 22),
        1,
        16, // %1 = OpTypeFloat 16
        op(3, 22),
        2,
        32, // %2 = OpTypeFloat 32
        op(4, 23),
        3,
        1,
        2, // %3 = OpTypeVector %1 2
        op(3, 1),
        3,
        4, // %4 = OpUndef %3
        op(3, 1),
        2,
        5, // %5 = OpUndef %2
        op(6, 6916),
        2,
        6,
        4,
        4,
        5, // %6 = OpFDot2MixAcc32VALVE %2 %4 %4 %5
        op(3, 1),
        1,
        7, // %7 = OpUndef %1
        op(6, 6917),
        1,
        8,
        4,
        4,
        7, // %8 = OpFDot2MixAcc16VALVE %1 %4 %4 %7
        op(4, 22),
        9,
        8,
        4214, // %9 = OpTypeFloat 8 Float8E4M3EXT
        op(4, 23),
        10,
        9,
        4, // %10 = OpTypeVector %9 4
        op(3, 1),
        10,
        11, // %11 = OpUndef %10
        op(6, 6918),
        2,
        12,
        11,
        11,
        5, // %12 = OpFDot4MixAcc32VALVE %2 %11 %11 %5
    ]);
    module(13, &b)
}

#[test]
fn valve_mixed_float_dot_products() {
    let expected = "\
; SPIR-V
; Version: 1.6
; Generator: Khronos SPIR-V Tools Assembler; 0
; Bound: 13
; Schema: 0
               OpCapability Shader
               OpCapability Float16
               OpCapability DotProductFloat16AccFloat32VALVE
               OpCapability DotProductFloat16AccFloat16VALVE
               OpCapability DotProductBFloat16AccVALVE
               OpCapability DotProductFloat8AccFloat32VALVE
               OpExtension \"SPV_VALVE_mixed_float_dot_product\"
               OpMemoryModel Logical GLSL450
       %half = OpTypeFloat 16
      %float = OpTypeFloat 32
     %v2half = OpTypeVector %half 2
          %4 = OpUndef %v2half
          %5 = OpUndef %float
          %6 = OpFDot2MixAcc32VALVE %float %4 %4 %5
          %7 = OpUndef %half
          %8 = OpFDot2MixAcc16VALVE %half %4 %4 %7
    %fp8e4m3 = OpTypeFloat 8 Float8E4M3EXT
  %v4fp8e4m3 = OpTypeVector %fp8e4m3 4
         %11 = OpUndef %v4fp8e4m3
         %12 = OpFDot4MixAcc32VALVE %float %11 %11 %5
";
    assert_eq!(dis(&valve_module(), DisOptions::default()), expected);
}

#[test]
fn valve_raw_ids_without_header_or_indent() {
    let opts = DisOptions {
        raw_id: true,
        header: false,
        indent: false,
        ..DisOptions::default()
    };
    let text = dis(&valve_module(), opts);
    let expected_tail = "\
%9 = OpTypeFloat 8 Float8E4M3EXT
%10 = OpTypeVector %9 4
%11 = OpUndef %10
%12 = OpFDot4MixAcc32VALVE %2 %11 %11 %5
";
    assert!(
        text.starts_with("OpCapability Shader\nOpCapability Float16\n"),
        "{text}"
    );
    assert!(
        text.contains("\n%6 = OpFDot2MixAcc32VALVE %2 %4 %4 %5\n"),
        "{text}"
    );
    assert!(text.ends_with(expected_tail), "{text}");
}

#[test]
fn integer_constants_wider_than_64_bits() {
    let b = [
        op(2, 17),
        6, // OpCapability Kernel
        op(2, 17),
        5844, // OpCapability ArbitraryPrecisionIntegersALTERA
        op(3, 14),
        0,
        2, // OpMemoryModel Logical OpenCL
        op(4, 21),
        1,
        96,
        1, // %1 = OpTypeInt 96 1
        op(6, 43),
        1,
        2,
        0xffff_fffb,
        0xffff_ffff,
        0xffff_ffff, // -5
        op(4, 21),
        3,
        128,
        0, // %3 = OpTypeInt 128 0
        op(7, 43),
        3,
        4,
        1,
        2,
        3,
        4, // 1 + 2*2^32 + 3*2^64 + 4*2^96
        op(6, 43),
        1,
        5,
        0,
        0,
        0x8000_0000, // -(2^95)
    ];
    // Names as spirv-dis gives them (the value is left out of names of wide constants); the
    // values, which spirv-dis leaves blank, in decimal (computed by hand with Python's integers).
    let expected = "               OpCapability Kernel
               OpCapability ArbitraryPrecisionIntegersALTERA
               OpMemoryModel Logical OpenCL
        %i96 = OpTypeInt 96 1
       %i96_ = OpConstant %i96 -5
       %u128 = OpTypeInt 128 0
      %u128_ = OpConstant %u128 316912650112397582603894390785
     %i96__0 = OpConstant %i96 -39614081257132168796771975168
";
    let opts = DisOptions {
        header: false,
        ..DisOptions::default()
    };
    assert_eq!(dis(&module(6, &b), opts), expected);
}

#[test]
fn names_and_numbers() {
    let name = string("x.y");
    let mut b = vec![
        op(2, 17),
        1, // OpCapability Shader
        op(2, 17),
        11, // OpCapability Int64
        op(3, 14),
        0,
        1, // OpMemoryModel Logical GLSL450
        op(2 + name.len() as u32, 5),
        20,
    ];
    b.extend(name);
    b.extend([
        op(4, 71),
        7,
        11,
        28, // OpDecorate %7 BuiltIn GlobalInvocationId
        op(4, 21),
        1,
        32,
        0, // %1 = OpTypeInt 32 0
        op(4, 21),
        2,
        64,
        1, // %2 = OpTypeInt 64 1
        op(3, 22),
        3,
        32, // %3 = OpTypeFloat 32
        op(4, 23),
        4,
        1,
        3, // %4 = OpTypeVector %1 3
        op(4, 32),
        5,
        1,
        4, // %5 = OpTypePointer Input %4
        op(4, 59),
        5,
        7,
        1, // %7 = OpVariable %5 Input
        op(4, 43),
        1,
        8,
        0x0102_0304, // %8 = OpConstant %1 16909060
        op(5, 43),
        2,
        9,
        0xffff_fffb,
        0xffff_ffff, // %9 = OpConstant %2 -5
        op(4, 43),
        3,
        10,
        0x3fc0_0000, // 1.5
        op(4, 43),
        3,
        11,
        0xbdcc_cccd, // -0.1f
        op(4, 43),
        3,
        12,
        0x7fc0_0000, // NaN
        op(4, 43),
        3,
        13,
        0x0000_0001, // smallest subnormal
        op(4, 28),
        14,
        3,
        8, // %14 = OpTypeArray %3 %8
        op(3, 29),
        15,
        14, // %15 = OpTypeRuntimeArray %14
        op(3, 30),
        16,
        15, // %16 = OpTypeStruct %15
        op(2, 20),
        17, // %17 = OpTypeBool
        op(3, 41),
        17,
        18, // OpConstantTrue
        op(3, 42),
        17,
        19, // OpConstantFalse
        op(3, 1),
        1,
        20, // %20 = OpUndef %1 (named "x.y")
        op(3, 1),
        1,
        21, // %21 = OpUndef %1
    ]);
    let expected = "               OpCapability Shader
               OpCapability Int64
               OpMemoryModel Logical GLSL450
               OpName %x_y \"x.y\"
               OpDecorate %gl_GlobalInvocationID BuiltIn GlobalInvocationId
       %uint = OpTypeInt 32 0
       %long = OpTypeInt 64 1
      %float = OpTypeFloat 32
     %v3uint = OpTypeVector %uint 3
%_ptr_Input_v3uint = OpTypePointer Input %v3uint
%gl_GlobalInvocationID = OpVariable %_ptr_Input_v3uint Input
%uint_16909060 = OpConstant %uint 16909060
    %long_n5 = OpConstant %long -5
  %float_1_5 = OpConstant %float 1.5
%float_n0_100000001 = OpConstant %float -0.100000001
%float_0x1_8p_128 = OpConstant %float 0x1.8p+128
%float_0x1pn149 = OpConstant %float 0x1p-149
%_arr_float_uint_16909060 = OpTypeArray %float %uint_16909060
%_runtimearr__arr_float_uint_16909060 = OpTypeRuntimeArray %_arr_float_uint_16909060
 %_struct_16 = OpTypeStruct %_runtimearr__arr_float_uint_16909060
       %bool = OpTypeBool
       %true = OpConstantTrue %bool
      %false = OpConstantFalse %bool
        %x_y = OpUndef %uint
         %21 = OpUndef %uint
";
    let opts = DisOptions {
        header: false,
        ..DisOptions::default()
    };
    let words = module(22, &b);
    assert_eq!(dis(&words, opts), expected);

    // The same module in big-endian byte order reads the same.
    let be: Vec<u8> = words.iter().flat_map(|w| w.to_be_bytes()).collect();
    let text = spvx_spirv::dis::disassemble_bytes(&be, &opts)
        .unwrap_or_else(|e| panic!("big-endian module: {e}"));
    assert_eq!(text, expected);
}

#[test]
fn malformed_binary_reports_word_offset() {
    // OpTypeInt with word count 4 but only 3 words left.
    let words = module(2, &[op(2, 17), 1, op(4, 21), 1, 32]);
    let err = disassemble_words(&words, &DisOptions::default())
        .err()
        .unwrap_or_else(|| panic!("truncated module was accepted"));
    assert_eq!(err.offset, 7);
    assert!(err.to_string().starts_with("word 7: "), "{err}");
}
