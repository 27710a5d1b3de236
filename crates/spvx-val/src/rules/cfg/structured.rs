//! Merge instructions and structured control flow (SPIR-V §2.11, §2.16.1 for the Shader
//! capability).
//!
//! Checked: placement of `OpSelectionMerge`/`OpLoopMerge` (all modules); for Shader modules:
//! a block is the merge block of at most one header; a header dominates its merge block; a
//! back-edge (an edge to a block that structurally dominates its source, found in the
//! structural graph so that an unreachable continue construct still has its back-edge)
//! targets a loop header, each loop
//! header has exactly one back-edge block, and that block is dominated by the continue
//! target and post-dominates it within the continue construct; `OpSwitch` has an
//! `OpSelectionMerge`; and a conditional branch without a selection merge must have a target
//! that is already a merge block, continue target or earlier branch target (spirv-val's
//! "Selection must be structured", same reverse-post-order walk).
//! Exits from constructs are checked in [`super::constructs`], the case constructs of a switch
//! in [`super::switch`].

use super::CfgError;
use super::graph::Cfg;
use crate::error::ValError;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use spvx_spirv::index::{FunctionInfo, ModuleIndex};
use spvx_spirv::op::Op;

/// Merge instructions must immediately precede the branch they describe.
pub(super) fn placement(ix: &ModuleIndex, out: &mut Vec<ValError>) {
    for (index, inst) in ix.insts.iter().enumerate() {
        let next = ix.insts.get(index + 1).map(|i| i.opcode);
        let (ok, allowed) = match inst.opcode {
            Op::SelectionMerge => (
                matches!(next, Some(Op::BranchConditional | Op::Switch)),
                "either an OpBranchConditional or OpSwitch instruction",
            ),
            Op::LoopMerge => (
                matches!(next, Some(Op::Branch | Op::BranchConditional)),
                "either an OpBranch or OpBranchConditional instruction",
            ),
            _ => continue,
        };
        if !ok {
            out.push(ValError::at(
                index,
                CfgError::MergePlacement {
                    opcode: inst.opcode.name().to_string(),
                    allowed: allowed.to_string(),
                },
            ));
        }
    }
}

use super::constructs::{HeaderInfo as Header, exits};

pub(super) fn check(ix: &ModuleIndex, f: &FunctionInfo, cfg: &Cfg, out: &mut Vec<ValError>) {
    let mut err = |index: usize, rule: String| {
        out.push(ValError::at(index, CfgError::Structured { rule }));
    };
    let label = |b: usize| ix.name(f.blocks[b].label);
    let mut headers = Vec::new();
    let mut merge_inst: Vec<Option<usize>> = vec![None; f.blocks.len()];
    for (b, block) in f.blocks.iter().enumerate() {
        let m = block.terminator - 1;
        if m <= block.label_index {
            continue;
        }
        let inst = &ix.insts[m];
        if !matches!(inst.opcode, Op::SelectionMerge | Op::LoopMerge) {
            continue;
        }
        merge_inst[b] = Some(m);
        let block_of = |i: usize| {
            inst.operands
                .get(i)
                .and_then(|o| o.id())
                .and_then(|id| cfg.block_of_label.get(&id).copied())
        };
        let Some(merge) = block_of(0) else { continue };
        let cont = if inst.opcode == Op::LoopMerge {
            block_of(1)
        } else {
            None
        };
        headers.push(Header {
            block: b,
            at: m,
            merge,
            cont,
        });
    }
    // One header per merge block; headers dominate their merge blocks.
    let mut merge_owner: HashMap<usize, usize> = HashMap::default();
    for h in &headers {
        if let Some(&other) = merge_owner.get(&h.merge) {
            err(
                h.at,
                format!(
                    "Block {} is already a merge block for another header ({})",
                    label(h.merge),
                    label(other)
                ),
            );
        } else {
            merge_owner.insert(h.merge, h.block);
        }
        if cfg.reachable[h.block] && cfg.reachable[h.merge] && !cfg.dominates(h.block, h.merge) {
            err(
                h.at,
                format!(
                    "Header block {} doesn't dominate its merge block {}",
                    label(h.block),
                    label(h.merge)
                ),
            );
        }
    }
    // The structural graph (§2.11: each header also reaches its merge block and continue
    // target), as spirv-val 2025.5 finds back-edges: a continue construct the body never
    // reaches (a loop whose body always breaks or returns) is still structurally reachable,
    // and its branch to the header is the loop's back-edge.
    let mut extra = Vec::new();
    for h in &headers {
        extra.push((h.block, h.merge));
        if let Some(c) = h.cont {
            extra.push((h.block, c));
        }
    }
    let structural = Cfg::build_with(ix, f, &extra);
    // Back-edges: real edges (not the added ones) to a block that structurally dominates
    // their source, from structurally reachable blocks.
    let loops: HashMap<usize, &Header> = headers
        .iter()
        .filter(|h| h.cont.is_some())
        .map(|h| (h.block, h))
        .collect();
    let mut back_edges: HashMap<usize, Vec<usize>> = HashMap::default();
    for &a in &structural.rpo {
        for &b in &cfg.succs[a] {
            if structural.dominates(b, a) {
                if loops.contains_key(&b) {
                    let sources = back_edges.entry(b).or_default();
                    if !sources.contains(&a) {
                        sources.push(a);
                    }
                } else {
                    err(
                        f.blocks[a].terminator,
                        format!(
                            "Back-edges ({} -> {}) can only be formed between a block and a loop header",
                            label(a),
                            label(b)
                        ),
                    );
                }
            }
        }
    }
    let mut loop_headers: Vec<(&usize, &&Header)> = loops.iter().collect();
    loop_headers.sort_by_key(|(b, _)| **b);
    for (&hb, h) in loop_headers {
        if !structural.reachable[hb] {
            continue;
        }
        let edges = back_edges.get(&hb).map_or(&[][..], |v| v.as_slice());
        if edges.len() != 1 {
            err(
                h.at,
                format!(
                    "Loop header {} is targeted by {} back-edge blocks but the standard requires exactly one",
                    label(hb),
                    edges.len()
                ),
            );
        } else if let Some(c) = h.cont
            && cfg.reachable[c]
            && cfg.reachable[edges[0]]
            && !cfg.dominates(c, edges[0])
        {
            err(
                h.at,
                format!(
                    "The back-edge block {} of loop header {} is not dominated by its continue target {}",
                    label(edges[0]),
                    label(hb),
                    label(c)
                ),
            );
        } else if let Some(c) = h.cont
            && cfg.reachable[c]
            && cfg.reachable[edges[0]]
            && !post_dominates_continue(cfg, c, edges[0])
        {
            err(
                h.at,
                format!(
                    "The continue construct with the continue target {} is not structurally post dominated by the back-edge block {}",
                    label(c),
                    label(edges[0])
                ),
            );
        }
    }
    selections(ix, f, cfg, &merge_inst, &mut err);
    exits(ix, f, &structural, &headers, out);
    super::switch::check(ix, f, &structural, &headers, out);
}

/// spirv-val's `ValidateStructuredSelections`: in reverse post-order, merge blocks, continue
/// targets and branch targets become "seen"; a conditional branch without an
/// `OpSelectionMerge` whose two targets are both unseen is an unstructured selection.
fn selections(
    ix: &ModuleIndex,
    f: &FunctionInfo,
    cfg: &Cfg,
    merge_inst: &[Option<usize>],
    err: &mut impl FnMut(usize, String),
) {
    let mut seen: HashSet<u32> = HashSet::default();
    for &b in &cfg.rpo {
        let term = &ix.insts[f.blocks[b].terminator];
        let merge = merge_inst[b].map(|m| &ix.insts[m]);
        if let Some(m) = merge {
            for o in m
                .operands
                .iter()
                .take(if m.opcode == Op::LoopMerge { 2 } else { 1 })
            {
                if let Some(id) = o.id() {
                    seen.insert(id);
                }
            }
        }
        match term.opcode {
            Op::BranchConditional => {
                let t = term.operands.get(1).and_then(|o| o.id()).unwrap_or(0);
                let e = term.operands.get(2).and_then(|o| o.id()).unwrap_or(0);
                let t_new = seen.insert(t);
                let e_new = seen.insert(e);
                let selection_merge = merge.is_some_and(|m| m.opcode == Op::SelectionMerge);
                if !selection_merge && t_new && e_new {
                    err(
                        f.blocks[b].terminator,
                        format!(
                            "Selection must be structured: the conditional branch of block {} needs an OpSelectionMerge",
                            ix.name(f.blocks[b].label)
                        ),
                    );
                }
            }
            Op::Switch => {
                if merge.is_none() {
                    err(
                        f.blocks[b].terminator,
                        "OpSwitch must be preceded by an OpSelectionMerge instruction".into(),
                    );
                }
                for id in term.operands.iter().skip(1).filter_map(|o| o.id()) {
                    seen.insert(id);
                }
            }
            _ => {}
        }
    }
}

/// §2.11: "the back-edge block must structurally post dominate the continue target". True when
/// every path from the continue target `c` reaches the back-edge block `b` before it leaves
/// the continue construct (the blocks `c` dominates) or ends the function.
fn post_dominates_continue(cfg: &Cfg, c: usize, b: usize) -> bool {
    if c == b {
        return true;
    }
    let mut seen: HashSet<usize> = HashSet::default();
    let mut work = vec![c];
    seen.insert(c);
    while let Some(n) = work.pop() {
        if cfg.succs[n].is_empty() {
            return false; // a return, kill or unreachable inside the continue construct
        }
        for &s in &cfg.succs[n] {
            if s == b {
                continue;
            }
            if !cfg.dominates(c, s) {
                return false;
            }
            if seen.insert(s) {
                work.push(s);
            }
        }
    }
    true
}
