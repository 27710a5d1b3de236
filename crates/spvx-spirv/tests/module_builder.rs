//! The module builder: modules built in code give the words written by hand from the spec's
//! encoding rules; deduplication, section placement and every kind of refusal are checked.

mod common;

use spvx_spirv::binary::{SPVX_GENERATOR, read_words};
use spvx_spirv::grammar::Version;
use spvx_spirv::module::{Arg, BuildError, Builder, Module};
use spvx_spirv::op::Op;

type R = Result<(), BuildError>;

const V16: Version = Version::new(1, 6);

/// Reads the built module's words back and splits them: the result must equal the built module
/// (the builder's instructions are the reader's, operand kinds included).
fn reread(m: &Module) -> Module {
    let parsed = read_words(&m.to_words()).expect("built module reads");
    Module::from_instructions(parsed.header, parsed.instructions).expect("built module is laid out")
}

#[test]
fn minimal_compute_shader_words() -> R {
    let mut b = Builder::new(V16);
    b.capability("Shader")?;
    b.memory_model("Logical", "GLSL450")?;
    let void = b.type_void()?;
    let fnty = b.type_function(void, &[])?;
    let main = b.begin_function(void, "None", fnty)?;
    b.begin_block()?;
    b.inst(Op::Return, None, &[])?;
    b.end_function()?;
    b.entry_point("GLCompute", main, "main", &[])?;
    b.execution_mode(main, "LocalSize", &[8, 1, 1])?;
    let m = b.finish()?;
    #[rustfmt::skip]
    let want = vec![
        0x0723_0203, 0x0001_0600, SPVX_GENERATOR, 5, 0,
        0x0002_0011, 1, // OpCapability Shader
        0x0003_000E, 0, 1, // OpMemoryModel Logical GLSL450
        0x0005_000F, 5, 3, 0x6E69_616D, 0, // OpEntryPoint GLCompute %3 "main"
        0x0006_0010, 3, 17, 8, 1, 1, // OpExecutionMode %3 LocalSize 8 1 1
        0x0002_0013, 1, // %1 = OpTypeVoid
        0x0003_0021, 2, 1, // %2 = OpTypeFunction %1
        0x0005_0036, 1, 3, 0, 2, // %3 = OpFunction %1 None %2
        0x0002_00F8, 4, // %4 = OpLabel
        0x0001_00FD, // OpReturn
        0x0001_0038, // OpFunctionEnd
    ];
    assert_eq!(m.to_words(), want);
    assert_eq!(reread(&m), m);
    Ok(())
}

#[test]
fn dot_product_module_with_aliases_and_dedup() -> R {
    let mut b = Builder::new(V16);
    b.capability("Shader")?;
    b.capability("DotProductKHR")?; // alias of DotProduct (6019)
    b.capability("DotProductInput4x8BitPackedKHR")?; // 6018
    b.capability("Shader")?; // declared once
    b.extension("SPV_KHR_integer_dot_product")?;
    let glsl = b.ext_inst_import("GLSL.std.450")?;
    assert_eq!(b.ext_inst_import("GLSL.std.450")?, glsl);
    b.memory_model("Logical", "GLSL450")?;
    let void = b.type_void()?;
    let fnty = b.type_function(void, &[])?;
    let u32t = b.type_int(32, false)?;
    let i32t = b.type_int(32, true)?;
    let c7 = b.constant_u32(7)?;
    assert_eq!(b.constant_u32(7)?, c7);
    assert_eq!(b.type_int(32, false)?, u32t);
    let main = b.begin_function(void, "None", fnty)?;
    b.begin_block()?;
    let d = b.inst(
        Op::SDotKHR,
        Some(i32t),
        &[
            Arg::Id(c7),
            Arg::Id(c7),
            Arg::name("PackedVectorFormat4x8BitKHR"),
        ],
    )?;
    assert_eq!(d, Some(9));
    b.inst(Op::Return, None, &[])?;
    b.end_function()?;
    b.entry_point("GLCompute", main, "main", &[])?;
    b.execution_mode(main, "LocalSize", &[1, 1, 1])?;
    b.name(main, "main")?;
    let m = b.finish()?;
    #[rustfmt::skip]
    let want = vec![
        0x0723_0203, 0x0001_0600, SPVX_GENERATOR, 10, 0,
        0x0002_0011, 1, // OpCapability Shader
        0x0002_0011, 6019, // OpCapability DotProduct
        0x0002_0011, 6018, // OpCapability DotProductInput4x8BitPacked
        // OpExtension "SPV_KHR_integer_dot_product" (27 bytes + nul = 7 words)
        0x0008_000A, 0x5F56_5053, 0x5F52_484B, 0x6574_6E69, 0x5F72_6567, 0x5F74_6F64,
        0x646F_7270, 0x0074_6375,
        0x0006_000B, 1, 0x4C53_4C47, 0x6474_732E, 0x3035_342E, 0, // %1 = "GLSL.std.450"
        0x0003_000E, 0, 1, // OpMemoryModel Logical GLSL450
        0x0005_000F, 5, 7, 0x6E69_616D, 0, // OpEntryPoint GLCompute %7 "main"
        0x0006_0010, 7, 17, 1, 1, 1, // OpExecutionMode %7 LocalSize 1 1 1
        0x0004_0005, 7, 0x6E69_616D, 0, // OpName %7 "main"
        0x0002_0013, 2, // %2 = OpTypeVoid
        0x0003_0021, 3, 2, // %3 = OpTypeFunction %2
        0x0004_0015, 4, 32, 0, // %4 = OpTypeInt 32 0
        0x0004_0015, 5, 32, 1, // %5 = OpTypeInt 32 1
        0x0004_002B, 4, 6, 7, // %6 = OpConstant %4 7
        0x0005_0036, 2, 7, 0, 3, // %7 = OpFunction %2 None %3
        0x0002_00F8, 8, // %8 = OpLabel
        0x0006_1162, 5, 9, 6, 6, 0, // %9 = OpSDot %5 %6 %6 PackedVectorFormat4x8Bit
        0x0001_00FD, // OpReturn
        0x0001_0038, // OpFunctionEnd
    ];
    assert_eq!(m.to_words(), want);
    assert_eq!(reread(&m), m);
    Ok(())
}

#[test]
fn typed_helpers_give_hand_written_words() -> R {
    let mut b = Builder::new(V16);
    b.memory_model("Logical", "GLSL450")?;
    let f32t = b.type_float(32, None)?; // 1
    let bf16 = b.type_float(16, Some("BFloat16KHR"))?; // 2
    let e4m3 = b.type_float(8, Some("Float8E4M3EXT"))?; // 3
    let u64t = b.type_int(64, false)?; // 4
    let u96 = b.type_int(96, false)?; // 5
    let big = b.constant_words(u96, &[1, 2, 3])?; // 6
    let c64 = b.constant(u64t, Arg::Words(vec![0x89AB_CDEF, 0x0123_4567]))?; // 7
    let one = b.constant_f32(1.0)?; // 8
    let v4 = b.type_vector(f32t, 4)?; // 9
    let rank = b.constant_u32(2)?; // 10 (type %11 first) -> OpTypeInt 32 0 is 10, constant 11
    let tensor = b.type_tensor_arm(e4m3, Some(rank), None)?; // 12
    let s1 = b.type_struct(&[f32t])?; // 13
    let s2 = b.type_struct(&[f32t])?; // 14: structs are never shared
    let ptr = b.type_pointer("StorageBuffer", s1)?; // 15
    let var = b.global_variable(ptr, "StorageBuffer", None)?; // 16
    b.decorate(var, "Binding", &[Arg::Int(3)])?;
    b.decorate(var, "BuiltIn", &[Arg::name("GlobalInvocationId")])?;
    b.member_decorate(s1, 0, "Offset", &[Arg::Int(16)])?;
    b.member_name(s1, 0, "abc")?;
    let _ = (bf16, big, c64, one, v4, tensor, s2);
    let m = b.finish()?;
    #[rustfmt::skip]
    let want = vec![
        0x0723_0203, 0x0001_0600, SPVX_GENERATOR, 17, 0,
        0x0003_000E, 0, 1,
        0x0004_0006, 13, 0, 0x0063_6261, // OpMemberName %13 0 "abc"
        0x0004_0047, 16, 33, 3, // OpDecorate %16 Binding 3
        0x0004_0047, 16, 11, 28, // OpDecorate %16 BuiltIn GlobalInvocationId
        0x0005_0048, 13, 0, 35, 16, // OpMemberDecorate %13 0 Offset 16
        0x0003_0016, 1, 32, // %1 = OpTypeFloat 32
        0x0004_0016, 2, 16, 0, // %2 = OpTypeFloat 16 BFloat16KHR
        0x0004_0016, 3, 8, 4214, // %3 = OpTypeFloat 8 Float8E4M3EXT
        0x0004_0015, 4, 64, 0, // %4 = OpTypeInt 64 0
        0x0004_0015, 5, 96, 0, // %5 = OpTypeInt 96 0
        0x0006_002B, 5, 6, 1, 2, 3, // %6 = OpConstant %5 (3 << 64 | 2 << 32 | 1)
        0x0005_002B, 4, 7, 0x89AB_CDEF, 0x0123_4567, // %7 = OpConstant %4 0x0123456789ABCDEF
        0x0004_002B, 1, 8, 0x3F80_0000, // %8 = OpConstant %1 1.0
        0x0004_0017, 9, 1, 4, // %9 = OpTypeVector %1 4
        0x0004_0015, 10, 32, 0, // %10 = OpTypeInt 32 0
        0x0004_002B, 10, 11, 2, // %11 = OpConstant %10 2
        0x0004_1043, 12, 3, 11, // %12 = OpTypeTensorARM %3 %11
        0x0003_001E, 13, 1, // %13 = OpTypeStruct %1
        0x0003_001E, 14, 1, // %14 = OpTypeStruct %1
        0x0004_0020, 15, 12, 13, // %15 = OpTypePointer StorageBuffer %13
        0x0004_003B, 15, 16, 12, // %16 = OpVariable %15 StorageBuffer
    ];
    assert_eq!(m.to_words(), want);
    assert_eq!(reread(&m), m);
    Ok(())
}

#[test]
fn debug_groups_stay_in_order() -> R {
    let mut b = Builder::new(V16);
    b.memory_model("Logical", "GLSL450")?;
    b.global(Op::ModuleProcessed, None, &[Arg::str("p")])?;
    b.name(1, "n")?;
    let s = b.declare(Op::String, None, &[Arg::str("file")])?;
    b.global(
        Op::Source,
        None,
        &[Arg::name("GLSL"), Arg::Int(450), Arg::Id(s)],
    )?;
    let m = b.finish()?;
    let ops: Vec<Op> = m.debug.iter().map(|i| i.opcode).collect();
    // OpString, OpSource (7a), OpName (7b), OpModuleProcessed (7c).
    assert_eq!(ops, [Op::String, Op::Source, Op::Name, Op::ModuleProcessed]);
    assert_eq!(reread(&m), m);
    Ok(())
}

#[test]
fn extended_instructions_and_control_flow() -> R {
    let mut b = Builder::new(V16);
    b.capability("Shader")?;
    let glsl = b.ext_inst_import("GLSL.std.450")?; // 1
    b.memory_model("Logical", "GLSL450")?;
    let f32t = b.type_float(32, None)?; // 2
    let fnty = b.type_function(f32t, &[f32t])?; // 3
    let f = b.begin_function(f32t, "Inline|Pure", fnty)?; // 4
    let x = b.function_parameter(f32t)?; // 5
    let entry = b.begin_block()?; // 6
    let exit = b.fresh_id(); // 7
    let y = b.inst(
        Op::ExtInst,
        Some(f32t),
        &[
            Arg::Id(glsl),
            Arg::name("FMix"),
            Arg::Id(x),
            Arg::Id(x),
            Arg::Id(x),
        ],
    )?; // 8
    b.inst(Op::Branch, None, &[Arg::Id(exit)])?;
    b.begin_block_with(exit)?;
    b.inst(Op::ReturnValue, None, &[Arg::Id(y.unwrap_or(0))])?;
    b.end_function()?;
    let m = b.finish()?;
    assert_eq!(m.functions[0].id(), Some(f));
    assert_eq!(m.functions[0].blocks[0].id(), Some(entry));
    #[rustfmt::skip]
    let want_fn = vec![
        0x0005_0036, 2, 4, 5, 3, // %4 = OpFunction %2 Inline|Pure %3
        0x0003_0037, 2, 5, // %5 = OpFunctionParameter %2
        0x0002_00F8, 6, // %6 = OpLabel
        0x0008_000C, 2, 8, 1, 46, 5, 5, 5, // %8 = OpExtInst %2 %1 FMix %5 %5 %5
        0x0002_00F9, 7, // OpBranch %7
        0x0002_00F8, 7, // %7 = OpLabel
        0x0002_00FE, 8, // OpReturnValue %8
        0x0001_0038,
    ];
    let words = m.to_words();
    assert_eq!(words[words.len() - want_fn.len()..], want_fn);
    assert_eq!(reread(&m), m);
    Ok(())
}

#[test]
fn declarations_are_placed_before_definitions() -> R {
    let mut b = Builder::new(V16);
    b.memory_model("Logical", "GLSL450")?;
    let void = b.type_void()?;
    let fnty = b.type_function(void, &[])?;
    b.begin_function(void, "None", fnty)?;
    b.begin_block()?;
    b.inst(Op::Return, None, &[])?;
    let def = b.end_function()?;
    b.begin_function(void, "None", fnty)?;
    let decl = b.end_function()?;
    let m = b.finish()?;
    let ids: Vec<Option<u32>> = m.functions.iter().map(|f| f.id()).collect();
    assert_eq!(ids, [Some(decl), Some(def)]);
    assert_eq!(reread(&m), m);
    Ok(())
}

#[test]
fn refusals_are_typed() -> R {
    let mut b = Builder::new(V16);
    b.memory_model("Logical", "GLSL450")?;
    let void = b.type_void()?;
    let u32t = b.type_int(32, false)?;
    let u64t = b.type_int(64, false)?;
    let before = b.bound();

    // An unknown instruction name cannot be spelled: `Op` has no such variant.
    assert!(matches!(
        b.capability("Telepathy"),
        Err(BuildError::UnknownEnumerant { ref name, .. }) if name == "Telepathy"
    ));
    assert!(matches!(
        b.type_pointer("Nowhere", u32t),
        Err(BuildError::UnknownEnumerant { .. })
    ));
    assert!(matches!(
        b.global(Op::Function, Some(void), &[]),
        Err(BuildError::Structural(_))
    ));
    assert!(matches!(
        b.global(Op::IAdd, Some(u32t), &[]),
        Err(BuildError::NotModuleLevel(_))
    ));
    assert!(matches!(
        b.constant(void, Arg::Int(1)),
        Err(BuildError::UnknownLiteralType { .. })
    ));
    assert_eq!(
        b.constant(u64t, Arg::Int(1)),
        Err(BuildError::NumberWidth {
            instruction: "OpConstant".into(),
            expected: 2,
            got: 1
        })
    );
    assert!(matches!(
        b.global(Op::TypeVector, None, &[Arg::str("x"), Arg::Int(4)]),
        Err(BuildError::ArgMismatch { index: 0, .. })
    ));
    assert!(matches!(
        b.global(
            Op::TypeVector,
            None,
            &[Arg::Id(u32t), Arg::Int(4), Arg::Int(5)]
        ),
        Err(BuildError::ExtraArgs { extra: 1, .. })
    ));
    assert!(matches!(
        b.global(Op::TypeVector, None, &[Arg::Id(u32t)]),
        Err(BuildError::Operands { .. })
    ));
    assert!(matches!(
        b.global(Op::Constant, None, &[Arg::Int(1)]),
        Err(BuildError::MissingResultType { .. })
    ));
    assert!(matches!(
        b.global(Op::TypeBool, Some(u32t), &[]),
        Err(BuildError::UnexpectedResultType { .. })
    ));
    assert!(matches!(
        b.global(Op::Decorate, None, &[Arg::Id(1), Arg::Int(9999)]),
        Err(BuildError::UnknownEnumValue { value: 9999, .. })
    ));
    let fnty = b.type_function(void, &[])?;
    let before_fn = b.bound();
    assert!(matches!(
        b.begin_function(void, "Inline|Sometimes", fnty),
        Err(BuildError::UnknownEnumerant { .. })
    ));
    assert!(matches!(
        b.inst(Op::Return, None, &[]),
        Err(BuildError::NoOpenFunction(_))
    ));
    b.begin_function(void, "None", fnty)?;
    assert_eq!(
        b.begin_function(void, "None", fnty),
        Err(BuildError::FunctionOpen)
    );
    assert!(matches!(
        b.inst(Op::Return, None, &[]),
        Err(BuildError::NoOpenBlock(_))
    ));
    let label = b.begin_block()?;
    assert_eq!(b.begin_block(), Err(BuildError::BlockOpen(label)));
    assert_eq!(
        b.function_parameter(u32t),
        Err(BuildError::ParameterAfterBlock)
    );
    assert!(matches!(
        b.inst(Op::TypeInt, None, &[Arg::Int(8), Arg::Int(0)]),
        Err(BuildError::NotInBlock(_))
    ));
    assert!(matches!(
        b.inst(Op::ExtInst, Some(u32t), &[Arg::Id(u32t), Arg::name("FMix")]),
        Err(BuildError::ArgMismatch { .. })
    ));
    assert_eq!(b.end_function(), Err(BuildError::BlockOpen(label)));
    assert_eq!(
        b.inst(Op::Return, None, &[]).map(|_| ()),
        Ok(()),
        "the block can still be finished"
    );
    // Failed requests used no ids: the function took one, its label one.
    assert_eq!(before_fn, before + 1);
    assert_eq!(b.bound(), before_fn + 2);
    b.end_function()?;
    let m = b.finish()?;
    assert_eq!(reread(&m), m);
    Ok(())
}

#[test]
fn finish_refuses_an_open_function() -> R {
    let mut b = Builder::new(V16);
    let void = b.type_void()?;
    let fnty = b.type_function(void, &[])?;
    b.begin_function(void, "None", fnty)?;
    assert!(matches!(b.finish(), Err(BuildError::FunctionOpen)));
    Ok(())
}

mod widths {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// An `OpConstant` of an integer type of width w takes exactly ceil(w / 32) literal
        /// words (one for w <= 32; SPIR-V 1.6 §2.2.1), low word first; any other count is
        /// refused with the expected count.
        #[test]
        fn constant_literal_words_follow_the_width(
            width in 1u32..300,
            signed in any::<bool>(),
            words in prop::collection::vec(any::<u32>(), 1..12),
        ) {
            let expected = width.div_ceil(32) as usize;
            let mut b = Builder::new(V16);
            let ty = b.type_int(width, signed).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let got = b.constant_words(ty, &words);
            if words.len() == expected {
                let id = got.map_err(|e| TestCaseError::fail(e.to_string()))?;
                let m = b.finish().map_err(|e| TestCaseError::fail(e.to_string()))?;
                let all = m.to_words();
                // Header 5, OpTypeInt 4, then OpConstant: count, type, id, literal words.
                let c = &all[9..];
                prop_assert_eq!(c[0], ((3 + expected as u32) << 16) | 43);
                prop_assert_eq!(c[1], ty);
                prop_assert_eq!(c[2], id);
                prop_assert_eq!(&c[3..], &words[..]);
            } else {
                prop_assert_eq!(got, Err(BuildError::NumberWidth {
                    instruction: "OpConstant".into(),
                    expected,
                    got: words.len(),
                }));
            }
        }
    }
}

/// The hand-written 64-bit `OpSwitch` module of `common`, rebuilt in code: case literals are
/// given as two words each, low word first.
#[test]
fn switch_on_a_64_bit_selector() -> R {
    let mut b = Builder::new(V16);
    b.capability("Shader")?;
    b.capability("Int64")?;
    b.memory_model("Logical", "GLSL450")?;
    let u64t = b.type_int(64, false)?;
    let seven = b.constant_words(u64t, &[7, 0])?;
    let void = b.type_void()?;
    let fnty = b.type_function(void, &[])?;
    b.begin_function(void, "None", fnty)?;
    b.begin_block()?;
    let (merge, a, c) = (b.fresh_id(), b.fresh_id(), b.fresh_id());
    b.inst(
        Op::SelectionMerge,
        None,
        &[Arg::Id(merge), Arg::name("None")],
    )?;
    let cases = [
        Arg::Id(seven),
        Arg::Id(merge),
        Arg::Words(vec![0, 1]),
        Arg::Id(a),
        Arg::Words(vec![5, 0]),
        Arg::Id(c),
    ];
    b.inst(Op::Switch, None, &cases)?;
    for label in [a, c] {
        b.begin_block_with(label)?;
        b.inst(Op::Branch, None, &[Arg::Id(merge)])?;
    }
    b.begin_block_with(merge)?;
    b.inst(Op::Return, None, &[])?;
    b.end_function()?;
    let words = b.finish()?.to_words();
    let want = common::switch64();
    assert_eq!(words[..2], want[..2]);
    assert_eq!(words[2], SPVX_GENERATOR);
    assert_eq!(words[3..], want[3..]);
    Ok(())
}
