//! SPV_ARM_graph's layout (the extension's "Logical Layout of a Module": a new section after the
//! function definitions holds graph entry points and graphs, `OpGraphARM` … `OpGraphEndARM`;
//! `OpGraphConstantARM` is a constant instruction): the TOSA graph of `asm_corpus` splits with
//! its graph instructions in `Module::graphs` and flattens back exactly; graph instructions out
//! of place are refused with the rule they break.

use spvx_spirv::asm::assemble;
use spvx_spirv::binary::read_words;
use spvx_spirv::instruction::Instruction;
use spvx_spirv::module::{LayoutRule, Module};
use spvx_spirv::op::Op;

fn graph_module() -> (spvx_spirv::binary::Header, Vec<Instruction>) {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/asm_corpus/09-tosa-graph.spvasm");
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let words = assemble(&text, &Default::default())
        .expect("assembles")
        .words();
    let m = read_words(&words).expect("reads");
    (m.header, m.instructions)
}

#[test]
fn the_tosa_graph_splits_and_flattens_back() {
    let (h, insts) = graph_module();
    let m = Module::from_instructions(h, insts.clone()).expect("graph layout accepted");
    let ops: Vec<Op> = m.graphs.iter().map(|i| i.opcode).collect();
    assert_eq!(
        ops,
        [
            Op::GraphEntryPointARM,
            Op::GraphARM,
            Op::GraphInputARM,
            Op::ExtInst,
            Op::GraphSetOutputARM,
            Op::GraphEndARM
        ]
    );
    assert!(m.functions.is_empty());
    assert!(
        m.types_globals
            .iter()
            .any(|i| i.opcode == Op::GraphConstantARM)
    );
    assert_eq!(m.to_instructions(), insts);
}

fn rule_of(insts: Vec<Instruction>) -> (usize, LayoutRule) {
    let (h, _) = graph_module();
    match Module::from_instructions(h, insts) {
        Ok(_) => panic!("layout accepted"),
        Err(e) => (e.index, e.rule),
    }
}

#[test]
fn graph_instructions_out_of_place_are_refused() {
    let (_, insts) = graph_module();
    let at = |op: Op| insts.iter().position(|i| i.opcode == op).expect("present");
    let (entry, graph, end) = (
        at(Op::GraphEntryPointARM),
        at(Op::GraphARM),
        at(Op::GraphEndARM),
    );
    // No OpGraphEndARM.
    let mut l = insts.clone();
    l.remove(end);
    assert_eq!(
        rule_of(l.clone()).1,
        LayoutRule::UnterminatedGraph { start: graph }
    );
    // A module-level instruction after the graphs.
    let mut l2 = insts.clone();
    let cap = l2[0].clone();
    l2.push(cap);
    assert_eq!(
        rule_of(l2.clone()),
        (l2.len() - 1, LayoutRule::OutsideGraph)
    );
    // An OpGraphInputARM outside a graph.
    let mut l3 = insts.clone();
    let input = l3[at(Op::GraphInputARM)].clone();
    l3.insert(entry + 1, input);
    assert_eq!(
        rule_of(l3),
        (entry + 1, LayoutRule::MisplacedGraphInstruction)
    );
    // A body instruction between graphs.
    let mut l4 = insts.clone();
    let body = l4[at(Op::ExtInst)].clone();
    l4.insert(graph, body);
    assert_eq!(rule_of(l4), (graph, LayoutRule::OutsideGraph));
    // A graph before the types: the graph section comes last.
    let mut l5 = insts.clone();
    let g = l5.remove(graph);
    let first_type = l5
        .iter()
        .position(|i| i.opcode == Op::TypeInt)
        .expect("a type");
    l5.insert(first_type, g);
    assert_eq!(rule_of(l5).0, first_type + 1);
}
