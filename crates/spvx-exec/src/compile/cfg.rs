//! The block order of a function, which is also the scheduler's reconvergence priority (see
//! `exec::control`): a reverse post-order of a depth-first search that visits, from each
//! block, its merge block first, then its continue target, then its successors last to first.
//! A block visited first finishes first and so comes last: the merge block of a structured
//! construct comes after every block of the construct, and a loop's continue target after the
//! loop body. Blocks the search does not reach come last, in module order.

use spvx_spirv::index::FunctionInfo;
use spvx_spirv::instruction::{Id, Instruction};
use spvx_spirv::module::is_line;
use spvx_spirv::op::Op;
use std::collections::HashMap;

/// Successor labels of a terminator.
pub(crate) fn successors(term: &Instruction) -> Vec<Id> {
    let ids = |from: usize, step: usize| -> Vec<Id> {
        term.operands
            .iter()
            .skip(from)
            .step_by(step)
            .filter_map(|o| o.id())
            .collect()
    };
    match term.opcode {
        Op::Branch => ids(0, 1),
        Op::BranchConditional => ids(1, 1).into_iter().take(2).collect(),
        Op::Switch => {
            // OpSwitch: selector, default, then (literal, label) pairs.
            let mut v = vec![];
            if let Some(d) = term.operands.get(1).and_then(|o| o.id()) {
                v.push(d);
            }
            v.extend(term.operands.iter().skip(2).filter_map(|o| o.id()));
            v
        }
        _ => vec![],
    }
}

/// The merge instruction of a block (OpSelectionMerge or OpLoopMerge), if any.
pub(crate) fn merge_of(
    insts: &[Instruction],
    label_index: usize,
    terminator: usize,
) -> Option<&Instruction> {
    insts[label_index + 1..terminator]
        .iter()
        .rev()
        .find(|i| !is_line(i.opcode))
        .filter(|i| i.opcode == Op::SelectionMerge || i.opcode == Op::LoopMerge)
}

/// The blocks of `f` (indices into `f.blocks`) in scheduling order.
pub(crate) fn block_order(insts: &[Instruction], f: &FunctionInfo) -> Vec<usize> {
    let by_label: HashMap<Id, usize> = f
        .blocks
        .iter()
        .enumerate()
        .map(|(i, b)| (b.label, i))
        .collect();
    let n = f.blocks.len();
    let children: Vec<Vec<usize>> = f
        .blocks
        .iter()
        .map(|b| {
            let mut c = Vec::new();
            if let Some(m) = merge_of(insts, b.label_index, b.terminator) {
                // OpLoopMerge: merge, continue; OpSelectionMerge: merge.
                let k = if m.opcode == Op::LoopMerge { 2 } else { 1 };
                c.extend(m.operands.iter().take(k).filter_map(|o| o.id()));
            }
            let mut s = successors(&insts[b.terminator]);
            s.reverse();
            c.extend(s);
            c.into_iter()
                .filter_map(|l| by_label.get(&l).copied())
                .collect()
        })
        .collect();
    let mut visited = vec![false; n];
    let mut post = Vec::with_capacity(n);
    if n > 0 {
        let mut stack = vec![(0usize, 0usize)];
        visited[0] = true;
        while let Some(&mut (b, ref mut next)) = stack.last_mut() {
            if let Some(&c) = children[b].get(*next) {
                *next += 1;
                if !visited[c] {
                    visited[c] = true;
                    stack.push((c, 0));
                }
            } else {
                post.push(b);
                stack.pop();
            }
        }
    }
    post.reverse();
    post.extend((0..n).filter(|&b| !visited[b]));
    post
}
