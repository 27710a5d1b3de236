//! Block nesting levels for `--nested-indent`, as spirv-dis 2025.5 computes them.
//!
//! Blocks run from an `OpLabel` to the next `OpLabel` or `OpFunctionEnd`; the blocks gathered
//! up to an `OpFunctionEnd` form one control-flow graph. The first block has level 0; walking
//! the graph depth first from it (successors pushed true, false, body, next, cases, continue,
//! merge), each block not yet given a level gives its merge block its own level, its continue
//! block one more, and its branch targets, loop body and cases two more; the `OpBranch` target
//! of a block without merge instruction keeps its level. Blocks the walk does not reach get 0.
//! The successors come from the block's last instruction and, when the block has at least three
//! instructions, the merge instruction before it. A target that is not a block of the function
//! is ignored (spirv-dis aborts on it).

use crate::instruction::{Id, Instruction, Operand};
use crate::op::Op;
use std::collections::{HashMap, HashSet};

/// For each instruction, the nesting level of the block it belongs to, or `None` outside
/// blocks (module-level instructions, `OpFunction`, parameters, `OpFunctionEnd`).
pub fn block_levels(instructions: &[Instruction]) -> Vec<Option<u32>> {
    let mut levels = vec![None; instructions.len()];
    // Start index of each block of the function being gathered.
    let mut starts: Vec<usize> = Vec::new();
    for (i, inst) in instructions.iter().enumerate() {
        match inst.opcode {
            Op::Label => starts.push(i),
            Op::FunctionEnd if !starts.is_empty() => {
                let blocks: Vec<(usize, usize)> = starts
                    .iter()
                    .enumerate()
                    .map(|(k, &s)| (s, starts.get(k + 1).copied().unwrap_or(i)))
                    .collect();
                let nest = nest_levels(instructions, &blocks);
                for (&(s, e), level) in blocks.iter().zip(nest) {
                    levels[s..e].fill(Some(level));
                }
                starts.clear();
            }
            _ => {}
        }
    }
    // Blocks never closed by OpFunctionEnd (a truncated module): spirv-dis never prints them;
    // spvx prints them, at level 0, rather than drop instructions.
    if let Some(&s) = starts.first() {
        levels[s..].fill(Some(0));
    }
    levels
}

/// The successors of one block.
#[derive(Default)]
struct Successors {
    merge: Option<Id>,
    continue_: Option<Id>,
    true_: Option<Id>,
    false_: Option<Id>,
    body: Option<Id>,
    next: Option<Id>,
    cases: Vec<Id>,
}

fn id_at(inst: &Instruction, i: usize) -> Option<Id> {
    inst.operands
        .get(i)
        .and_then(Operand::id)
        .filter(|&id| id != 0)
}

fn successors(block: &[Instruction]) -> Successors {
    let mut s = Successors::default();
    if block.len() >= 3 {
        let m = &block[block.len() - 2];
        match m.opcode {
            Op::LoopMerge => {
                s.merge = id_at(m, 0);
                s.continue_ = id_at(m, 1);
            }
            Op::SelectionMerge => s.merge = id_at(m, 0),
            _ => {}
        }
    }
    let Some(branch) = block.last() else { return s };
    match branch.opcode {
        Op::Branch => {
            if s.merge.is_some() {
                s.body = id_at(branch, 0);
            } else {
                s.next = id_at(branch, 0);
            }
        }
        Op::BranchConditional => {
            s.true_ = id_at(branch, 1);
            s.false_ = id_at(branch, 2);
        }
        Op::Switch => {
            s.cases = (1..branch.operands.len())
                .step_by(2)
                .filter_map(|i| id_at(branch, i))
                .collect();
        }
        _ => {}
    }
    s
}

/// The level of each block (`blocks` are instruction ranges, each starting at its `OpLabel`).
fn nest_levels(instructions: &[Instruction], blocks: &[(usize, usize)]) -> Vec<u32> {
    let succ: Vec<Successors> = blocks
        .iter()
        .map(|&(s, e)| successors(&instructions[s..e]))
        .collect();
    let mut index: HashMap<Id, usize> = HashMap::new();
    for (k, &(s, _)) in blocks.iter().enumerate() {
        if let Some(label) = instructions[s].result {
            index.insert(label, k);
        }
    }
    let mut level: Vec<Option<u32>> = vec![None; blocks.len()];
    level[0] = Some(0);
    let mut visited = HashSet::new();
    let mut stack = vec![0usize];
    while let Some(k) = stack.pop() {
        if !visited.insert(k) {
            continue;
        }
        let l = level[k].unwrap_or(0);
        let s = &succ[k];
        let mut nest = |id: Option<Id>, to: u32| {
            if let Some(&t) = id.and_then(|id| index.get(&id))
                && level[t].is_none()
            {
                level[t] = Some(to);
            }
        };
        nest(s.merge, l);
        nest(s.continue_, l + 1);
        nest(s.true_, l + 2);
        nest(s.false_, l + 2);
        nest(s.body, l + 2);
        nest(s.next, l);
        for &c in &s.cases {
            nest(Some(c), l + 2);
        }
        let order = [s.true_, s.false_, s.body, s.next]
            .into_iter()
            .chain(s.cases.iter().map(|&c| Some(c)))
            .chain([s.continue_, s.merge]);
        for id in order.flatten() {
            if let Some(&t) = index.get(&id) {
                stack.push(t);
            }
        }
    }
    (0..blocks.len())
        .map(|k| {
            if visited.contains(&k) {
                level[k].unwrap_or(0)
            } else {
                0
            }
        })
        .collect()
}
