//! Exits from structured constructs (SPIR-V §2.11, Shader capability): a branch that leaves
//! the construct of a selection or loop header must go to a merge block or continue target of
//! a header that structurally dominates the branching block — the construct's own merge
//! block, or a break or continue of an enclosing construct. Constructs and dominance are the
//! structural ones of §2.11: the graph given here has each header's edges to its merge block
//! and continue target added.
//!
//! This is the dominance reading of §2.11's "structured exits": break to an enclosing loop's
//! or switch's merge block, continue to an enclosing loop's continue target, or the
//! construct's own merge block. A branch from inside a nested construct straight to the merge
//! block of an enclosing selection that is not a switch is not a structured exit (§2.11 allows
//! no "break" out of an if), as spirv-val ("... exits the selection headed by ..., but not via
//! a structured exit").

use super::CfgError;
use super::graph::Cfg;
use crate::error::ValError;
use rustc_hash::FxHashMap as HashMap;
use spvx_spirv::index::{FunctionInfo, ModuleIndex};
use spvx_spirv::op::Op;

/// A header as [`super::structured`] found it.
pub(super) struct HeaderInfo {
    pub block: usize,
    pub at: usize,
    pub merge: usize,
    pub cont: Option<usize>,
}

pub(super) fn exits(
    ix: &ModuleIndex,
    f: &FunctionInfo,
    cfg: &Cfg,
    headers: &[HeaderInfo],
    out: &mut Vec<ValError>,
) {
    if headers.is_empty() {
        return;
    }
    let by_block: HashMap<usize, &HeaderInfo> = headers.iter().map(|h| (h.block, h)).collect();
    // Loop and switch headers having each block as merge block (a break) or continue target.
    // Merge blocks of other selections are exits only of their own construct.
    let is_switch = |h: &HeaderInfo| ix.insts[f.blocks[h.block].terminator].opcode == Op::Switch;
    let mut exit_of: HashMap<usize, Vec<usize>> = HashMap::default();
    for h in headers {
        if h.cont.is_some() || is_switch(h) {
            exit_of.entry(h.merge).or_default().push(h.block);
        }
        if let Some(c) = h.cont {
            exit_of.entry(c).or_default().push(h.block);
        }
    }
    let inside = |h: &HeaderInfo, t: usize| {
        cfg.dominates(h.block, t) && !(cfg.reachable[h.merge] && cfg.dominates(h.merge, t))
    };
    for &b in &cfg.rpo {
        for &t in &cfg.succs[b] {
            let structured_exit = exit_of
                .get(&t)
                .is_some_and(|hs| hs.iter().any(|&g| cfg.dominates(g, b)));
            if structured_exit {
                continue;
            }
            // Every construct containing b (headers dominating b) must contain t.
            let mut a = b;
            loop {
                if let Some(h) = by_block.get(&a)
                    && !(cfg.reachable[h.merge] && cfg.dominates(h.merge, b))
                    && t != h.merge
                    && !inside(h, t)
                {
                    let kind = if h.cont.is_some() {
                        "loop"
                    } else {
                        "selection"
                    };
                    out.push(ValError::at(
                        f.blocks[b].terminator,
                        CfgError::Structured {
                            rule: format!(
                                "block {} exits the {kind} headed by {}, but not via a structured exit (the merge block, or a break or continue of an enclosing construct)",
                                ix.name(f.blocks[b].label),
                                ix.name(f.blocks[h.block].label)
                            ),
                        },
                    ));
                    break;
                }
                match cfg.idom[a] {
                    Some(d) if d != a => a = d,
                    _ => break,
                }
            }
        }
    }
}
