//! The module model's logical-layout check (SPIR-V 1.6 §2.4): valid modules split into the
//! expected sections and flatten back exactly; each broken rule is reported with the index of
//! the instruction that broke it. The instruction lists come from hand-written words.

mod common;

use common::{header, minimal, switch64};
use proptest::prelude::*;
use spvx_spirv::binary::{Header, read_words};
use spvx_spirv::grammar::grammar;
use spvx_spirv::instruction::Instruction;
use spvx_spirv::module::{LayoutRule, Module, Placement, Section, TERMINATORS, is_line, placement};
use spvx_spirv::op::Op;

/// The instructions of hand-written words (header added).
fn insts(body: &[u32]) -> Vec<Instruction> {
    let mut w = header(100);
    w.extend_from_slice(body);
    read_words(&w)
        .expect("hand-written words read")
        .instructions
}

fn minimal_insts() -> Vec<Instruction> {
    read_words(&minimal()).expect("reads").instructions
}

fn hdr() -> Header {
    Header {
        version: 0x0001_0600,
        generator: 0,
        bound: 100,
        schema: 0,
    }
}

/// The rule broken by `list` and the index where it was found.
fn broken(list: Vec<Instruction>) -> (usize, LayoutRule) {
    match Module::from_instructions(hdr(), list) {
        Ok(_) => panic!("layout accepted"),
        Err(e) => (e.index, e.rule),
    }
}

const NOP: [u32; 1] = [0x0001_0000];
const RETURN: [u32; 1] = [0x0001_00FD];
const FUNCTION_END: [u32; 1] = [0x0001_0038];
const LABEL_9: [u32; 2] = [0x0002_00F8, 9];
const LINE: [u32; 4] = [0x0004_0008, 1, 10, 0]; // OpLine %1 10 0
const NO_LINE: [u32; 1] = [0x0001_013D]; // OpNoLine
const NAME_1: [u32; 4] = [0x0004_0005, 1, 0x6E69_616D, 0]; // OpName %1 "main"
const STRING_9: [u32; 3] = [0x0003_0007, 9, 0x0000_0061]; // %9 = OpString "a"
const TYPE_INT: [u32; 4] = [0x0004_0015, 9, 32, 0]; // %9 = OpTypeInt 32 0
const PARAM: [u32; 3] = [0x0003_0037, 2, 9]; // %9 = OpFunctionParameter %2
/// `%10 = OpFunction %2 None %3` (a second function).
const FUNCTION_10: [u32; 5] = [0x0005_0036, 2, 10, 0, 3];

fn one(words: &[u32]) -> Instruction {
    insts(words).remove(0)
}

#[test]
fn minimal_module_splits_into_sections() {
    let list = minimal_insts();
    let m = Module::from_instructions(hdr(), list.clone()).expect("valid layout");
    assert_eq!(m.capabilities.len(), 1);
    assert_eq!(m.extensions.len(), 0);
    assert_eq!(
        m.memory_model.as_ref().map(|i| i.opcode),
        Some(Op::MemoryModel)
    );
    assert_eq!(m.entry_points.len(), 1);
    assert_eq!(m.execution_modes.len(), 1);
    assert_eq!(m.types_globals.len(), 2);
    assert_eq!(m.functions.len(), 1);
    let f = &m.functions[0];
    assert_eq!(f.id(), Some(1));
    assert_eq!(f.blocks.len(), 1);
    assert_eq!(f.blocks[0].id(), Some(4));
    assert_eq!(f.blocks[0].terminator().map(|t| t.opcode), Some(Op::Return));
    assert_eq!(m.instruction_count(), list.len());
    assert_eq!(m.to_instructions(), list);
    assert!(m.iter().eq(list.iter()));
    assert_eq!(m.to_words()[5..], minimal()[5..]);
}

#[test]
fn switch_module_has_four_blocks() {
    let list = read_words(&switch64()).expect("reads").instructions;
    let m = Module::from_instructions(hdr(), list.clone()).expect("valid layout");
    let f = &m.functions[0];
    let labels: Vec<Option<u32>> = f.blocks.iter().map(|b| b.id()).collect();
    assert_eq!(labels, [Some(6), Some(8), Some(9), Some(7)]);
    let terms: Vec<Option<Op>> = f
        .blocks
        .iter()
        .map(|b| b.terminator().map(|t| t.opcode))
        .collect();
    assert_eq!(
        terms,
        [
            Some(Op::Switch),
            Some(Op::Branch),
            Some(Op::Branch),
            Some(Op::Return)
        ]
    );
    assert_eq!(m.to_instructions(), list);
}

#[test]
fn sections_out_of_order() {
    let mut l = minimal_insts();
    l.swap(0, 1); // OpMemoryModel before OpCapability
    assert_eq!(
        broken(l),
        (
            1,
            LayoutRule::OutOfOrder {
                section: Section::Capabilities,
                after: Section::MemoryModel
            }
        )
    );
    // OpName (7b) then OpString (7a), both after the execution mode (index 3).
    let mut l = minimal_insts();
    l.insert(4, one(&NAME_1));
    l.insert(5, one(&STRING_9));
    assert_eq!(
        broken(l),
        (
            5,
            LayoutRule::OutOfOrder {
                section: Section::DebugSources,
                after: Section::DebugNames
            }
        )
    );
    // OpExecutionMode before OpEntryPoint.
    let mut l = minimal_insts();
    l.swap(2, 3);
    assert_eq!(broken(l).0, 3);
}

#[test]
fn memory_model_exactly_once() {
    let mut l = minimal_insts();
    let mm = l[1].clone();
    l.insert(2, mm);
    assert_eq!(broken(l), (2, LayoutRule::DuplicateMemoryModel));
    let mut l = minimal_insts();
    l.remove(1);
    assert_eq!(broken(l), (1, LayoutRule::MissingMemoryModel));
    let l = vec![minimal_insts().remove(0)];
    assert_eq!(broken(l), (1, LayoutRule::MissingMemoryModel));
    assert_eq!(broken(Vec::new()), (0, LayoutRule::MissingMemoryModel));
}

#[test]
fn only_functions_after_the_first_function() {
    let mut l = minimal_insts();
    l.push(one(&TYPE_INT));
    assert_eq!(broken(l), (10, LayoutRule::OutsideFunction));
    let mut l = minimal_insts();
    l.push(one(&RETURN));
    assert_eq!(broken(l), (10, LayoutRule::OutsideFunction));
}

#[test]
fn body_instruction_at_module_level() {
    let mut l = minimal_insts();
    l.insert(5, one(&RETURN));
    assert_eq!(broken(l), (5, LayoutRule::BodyInstructionAtModuleLevel));
    let mut l = minimal_insts();
    l.insert(5, one(&LABEL_9));
    assert_eq!(broken(l), (5, LayoutRule::BodyInstructionAtModuleLevel));
}

#[test]
fn module_level_instruction_in_a_function() {
    let mut l = minimal_insts();
    l.insert(8, one(&TYPE_INT)); // inside the block, before OpReturn
    assert_eq!(
        broken(l),
        (8, LayoutRule::ModuleLevelInFunction(Section::TypesGlobals))
    );
    let mut l = minimal_insts();
    l.insert(8, one(&NAME_1));
    assert_eq!(
        broken(l),
        (8, LayoutRule::ModuleLevelInFunction(Section::DebugNames))
    );
}

#[test]
fn function_structure() {
    // OpFunction inside a function.
    let mut l = minimal_insts();
    l.insert(7, one(&FUNCTION_10));
    assert_eq!(broken(l), (7, LayoutRule::NestedFunction));
    // OpFunctionEnd with no function.
    let mut l = minimal_insts();
    l.push(one(&FUNCTION_END));
    assert_eq!(broken(l), (10, LayoutRule::EndWithoutFunction));
    // No OpFunctionEnd.
    let mut l = minimal_insts();
    l.pop();
    assert_eq!(
        broken(l),
        (9, LayoutRule::UnterminatedFunction { start: 6 })
    );
    // A parameter after the first label.
    let mut l = minimal_insts();
    l.insert(8, one(&PARAM));
    assert_eq!(broken(l), (8, LayoutRule::ParameterAfterBlock));
    // A body instruction before the first label.
    let mut l = minimal_insts();
    l.insert(7, one(&NOP));
    assert_eq!(broken(l), (7, LayoutRule::BeforeFirstLabel));
}

#[test]
fn blocks_end_with_a_terminator() {
    // Remove OpReturn: the block at index 7 has no terminator, found at OpFunctionEnd.
    let mut l = minimal_insts();
    l.remove(8);
    assert_eq!(broken(l), (8, LayoutRule::MissingTerminator { label: 7 }));
    // A new label before the first block ended.
    let mut l = minimal_insts();
    l.insert(8, one(&LABEL_9));
    assert_eq!(broken(l), (8, LayoutRule::MissingTerminator { label: 7 }));
    // A body instruction after the terminator.
    let mut l = minimal_insts();
    l.insert(9, one(&NOP));
    assert_eq!(broken(l), (9, LayoutRule::AfterTerminator));
}

#[test]
fn line_instructions_where_spirv_producers_put_them() {
    // OpLine before the first label and after a terminator stay in the function; OpNoLine
    // between functions goes with the next function.
    let mut l = minimal_insts();
    l.insert(9, one(&LINE)); // after OpReturn
    l.insert(7, one(&LINE)); // before the label
    l.push(one(&NO_LINE));
    l.push(one(&FUNCTION_10));
    l.extend(insts(&[0x0002_00F8, 11, 0x0001_00FD, 0x0001_0038]));
    let m = Module::from_instructions(hdr(), l.clone()).expect("valid layout");
    assert_eq!(m.functions[0].parameters.len(), 1);
    assert!(is_line(m.functions[0].parameters[0].opcode));
    assert_eq!(m.functions[0].blocks[0].instructions.len(), 2);
    assert_eq!(
        m.functions[0].blocks[0].terminator().map(|t| t.opcode),
        Some(Op::Return)
    );
    assert_eq!(m.functions[1].leading_lines.len(), 1);
    assert_eq!(m.to_instructions(), l);
    // Lines after the last function have nowhere to go.
    let mut l = minimal_insts();
    l.push(one(&LINE));
    assert_eq!(broken(l), (10, LayoutRule::LinesAfterLastFunction));
}

#[test]
fn declarations_before_definitions() {
    // A declaration (%10, no blocks) after the definition of %1.
    let mut l = minimal_insts();
    l.push(one(&FUNCTION_10));
    l.push(one(&FUNCTION_END));
    assert_eq!(broken(l), (10, LayoutRule::DeclarationAfterDefinition));
    // The same declaration before the definition is fine.
    let mut l = minimal_insts();
    l.insert(6, one(&FUNCTION_END));
    l.insert(6, one(&FUNCTION_10));
    let m = Module::from_instructions(hdr(), l.clone()).expect("valid");
    assert!(m.functions[0].is_declaration());
    assert!(!m.functions[1].is_declaration());
    assert_eq!(m.to_instructions(), l);
}

#[test]
fn placement_of_named_opcodes() {
    let g = grammar();
    let at = |name: &str| {
        let op = g.instruction_by_name(name).expect(name).opcode;
        placement(op)
    };
    use Placement::*;
    let cases = [
        ("OpCapability", Module(Section::Capabilities)),
        ("OpExtension", Module(Section::Extensions)),
        ("OpExtInstImport", Module(Section::ExtInstImports)),
        ("OpMemoryModel", Module(Section::MemoryModel)),
        ("OpEntryPoint", Module(Section::EntryPoints)),
        ("OpExecutionMode", Module(Section::ExecutionModes)),
        ("OpExecutionModeId", Module(Section::ExecutionModes)),
        ("OpString", Module(Section::DebugSources)),
        ("OpSource", Module(Section::DebugSources)),
        ("OpSourceContinued", Module(Section::DebugSources)),
        ("OpSourceExtension", Module(Section::DebugSources)),
        ("OpName", Module(Section::DebugNames)),
        ("OpMemberName", Module(Section::DebugNames)),
        ("OpModuleProcessed", Module(Section::DebugModuleProcessed)),
        ("OpDecorate", Module(Section::Annotations)),
        ("OpMemberDecorate", Module(Section::Annotations)),
        ("OpDecorateId", Module(Section::Annotations)),
        ("OpDecorateString", Module(Section::Annotations)),
        ("OpMemberDecorateString", Module(Section::Annotations)),
        ("OpDecorationGroup", Module(Section::Annotations)),
        ("OpGroupDecorate", Module(Section::Annotations)),
        ("OpGroupMemberDecorate", Module(Section::Annotations)),
        ("OpTypeInt", Module(Section::TypesGlobals)),
        ("OpTypeTensorARM", Module(Section::TypesGlobals)),
        ("OpTypeForwardPointer", Module(Section::TypesGlobals)),
        ("OpConstant", Module(Section::TypesGlobals)),
        ("OpSpecConstantOp", Module(Section::TypesGlobals)),
        (
            "OpConstantFunctionPointerINTEL",
            Module(Section::TypesGlobals),
        ),
        ("OpUndef", GlobalOrBody),
        ("OpLine", GlobalOrBody),
        ("OpNoLine", GlobalOrBody),
        ("OpExtInst", GlobalOrBody),
        ("OpExtInstWithForwardRefsKHR", GlobalOrBody),
        ("OpVariable", GlobalOrBody),
        ("OpUntypedVariableKHR", GlobalOrBody),
        ("OpFunction", FunctionStructure),
        ("OpFunctionParameter", FunctionStructure),
        ("OpLabel", FunctionStructure),
        ("OpFunctionEnd", FunctionStructure),
        ("OpIAdd", Body),
        ("OpSDot", Body),
        ("OpTensorReadARM", Body),
        ("OpReturn", Body),
    ];
    for (name, want) in cases {
        assert_eq!(at(name), want, "{name}");
    }
    let names: Vec<&str> = TERMINATORS
        .iter()
        .map(|&op| g.instruction(op).map_or("?", |i| i.name))
        .collect();
    assert_eq!(
        names,
        [
            "OpBranch",
            "OpBranchConditional",
            "OpSwitch",
            "OpKill",
            "OpReturn",
            "OpReturnValue",
            "OpUnreachable",
            "OpTerminateInvocation",
            "OpIgnoreIntersectionKHR",
            "OpTerminateRayKHR",
            "OpEmitMeshTasksEXT",
        ]
    );
}

/// A random module in logical layout, assembled from hand-written instruction words: some
/// names, decorations and types, then functions with random block counts, parameters and lines.
fn random_layout() -> impl Strategy<Value = Vec<Instruction>> {
    (
        0usize..3,
        0usize..3,
        0usize..4,
        prop::collection::vec((0usize..3, 0usize..3, any::<bool>()), 0..4),
    )
        .prop_map(|(names, decorations, types, functions)| {
            let mut w: Vec<u32> = vec![0x0002_0011, 1, 0x0003_000E, 0, 1];
            for _ in 0..names {
                w.extend_from_slice(&NAME_1);
            }
            for _ in 0..decorations {
                w.extend_from_slice(&[0x0004_0047, 1, 33, 3]);
            }
            w.extend_from_slice(&[0x0002_0013, 2, 0x0003_0021, 3, 2]);
            for _ in 0..types {
                w.extend_from_slice(&TYPE_INT);
                w.extend_from_slice(&LINE);
            }
            // Declarations (no blocks) first, as §2.4 items 10-11 require.
            let mut functions = functions;
            functions.sort_by_key(|f| f.0 != 0);
            for (blocks, params, line) in functions {
                if line {
                    w.extend_from_slice(&NO_LINE);
                }
                w.extend_from_slice(&FUNCTION_10);
                for _ in 0..params {
                    w.extend_from_slice(&PARAM);
                }
                for b in 0..blocks {
                    w.extend_from_slice(&LABEL_9);
                    w.extend_from_slice(&NOP);
                    if line && b == 0 {
                        w.extend_from_slice(&LINE);
                    }
                    w.extend_from_slice(&RETURN);
                }
                w.extend_from_slice(&FUNCTION_END);
            }
            // A first function preceded by lines would put them in the types section instead:
            // still a valid list.
            insts(&w)
        })
}

proptest! {
    /// Splitting then flattening gives back exactly the same list, and the counts agree.
    #[test]
    fn split_then_flatten_is_the_identity(list in random_layout()) {
        let m = Module::from_instructions(hdr(), list.clone());
        prop_assert!(m.is_ok(), "{:?}", m.err());
        let m = m.unwrap_or_else(|_| Module::new(hdr()));
        prop_assert_eq!(m.instruction_count(), list.len());
        prop_assert_eq!(m.to_instructions(), list);
    }

    /// Any permutation of a valid module either keeps a valid layout (and then flattens to the
    /// permuted list) or is rejected; it never panics.
    #[test]
    fn shuffled_modules_are_split_or_rejected(
        list in random_layout(),
        swaps in prop::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>()), 1..4),
    ) {
        let mut list = list;
        for (a, b) in swaps {
            let (a, b) = (a.index(list.len()), b.index(list.len()));
            list.swap(a, b);
        }
        if let Ok(m) = Module::from_instructions(hdr(), list.clone()) {
            prop_assert_eq!(m.to_instructions(), list);
        }
    }
}
