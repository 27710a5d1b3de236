//! Case constructs of an `OpSwitch` (SPIR-V §2.11, Shader capability): a case construct (the
//! blocks its target structurally dominates, up to the switch's merge block) may branch to at
//! most one other case construct (fall-through); no case construct is the fall-through target
//! of two others; and when Target T1 falls through to T2, T1 immediately precedes T2 in the
//! `OpSwitch` target list (§2.11: "... then T1 must immediately precede T2 in the list of
//! OpSwitch Target operands"). spirv-val: validate_cfg.cpp, `FindCaseFallThrough` and
//! `StructuredSwitchChecks`, with the same messages.
//!
//! The ordering rule is checked for case targets other than the default target (the default's
//! place in the order is not an operand position); a target listed more than once passes when
//! any of its positions is followed by the fall-through target.

use super::CfgError;
use super::constructs::HeaderInfo;
use super::graph::Cfg;
use crate::error::ValError;
use rustc_hash::FxHashMap as HashMap;
use spvx_spirv::index::{FunctionInfo, ModuleIndex};
use spvx_spirv::op::Op;

/// Checks every switch header of `f` (`cfg` is the structural graph: header edges to merge
/// blocks and continue targets added).
pub(super) fn check(
    ix: &ModuleIndex,
    f: &FunctionInfo,
    cfg: &Cfg,
    headers: &[HeaderInfo],
    out: &mut Vec<ValError>,
) {
    for h in headers.iter().filter(|h| h.cont.is_none()) {
        let term = &ix.insts[f.blocks[h.block].terminator];
        if term.opcode != Op::Switch || !cfg.reachable[h.block] {
            continue;
        }
        // Targets in operand order: the default, then each case's label.
        let targets: Vec<usize> = term
            .operands
            .iter()
            .skip(1)
            .filter_map(|o| o.id())
            .filter_map(|id| cfg.block_of_label.get(&id).copied())
            .collect();
        switch(ix, f, cfg, h, &targets, out);
    }
}

fn switch(
    ix: &ModuleIndex,
    f: &FunctionInfo,
    cfg: &Cfg,
    h: &HeaderInfo,
    targets: &[usize],
    out: &mut Vec<ValError>,
) {
    let at = f.blocks[h.block].terminator;
    let label = |b: usize| ix.name(f.blocks[b].label);
    let mut err = |rule: String| out.push(ValError::at(at, CfgError::Structured { rule }));
    let is_target = |b: usize| b != h.merge && targets.contains(&b);
    let merge_dominates = |b: usize| cfg.reachable[h.merge] && cfg.dominates(h.merge, b);
    let mut fall_into: HashMap<usize, usize> = HashMap::default();
    let mut fall_of: HashMap<usize, usize> = HashMap::default();
    let mut done = Vec::new();
    for &t in targets {
        if t == h.merge || done.contains(&t) || !cfg.reachable[t] {
            continue;
        }
        done.push(t);
        // Other case targets the construct of t branches to.
        let mut falls: Vec<usize> = Vec::new();
        for &b in &cfg.rpo {
            if !cfg.dominates(t, b) || merge_dominates(b) {
                continue;
            }
            for &s in &cfg.succs[b] {
                if s != t && is_target(s) && !falls.contains(&s) {
                    falls.push(s);
                }
            }
        }
        if falls.len() > 1 {
            err(format!(
                "Case construct that targets {} has branches to multiple other case construct targets",
                label(t)
            ));
            return;
        }
        if let Some(&s) = falls.first() {
            *fall_into.entry(s).or_default() += 1;
            fall_of.insert(t, s);
        }
    }
    if let Some((&s, _)) = fall_into.iter().find(|&(_, &n)| n > 1) {
        err(format!(
            "Multiple case constructs have branches to the case construct that targets {}",
            label(s)
        ));
        return;
    }
    let default = targets.first().copied();
    for (&t, &s) in &fall_of {
        if Some(t) == default || Some(s) == default {
            continue;
        }
        let precedes = targets.windows(2).skip(1).any(|w| w[0] == t && w[1] == s);
        if !precedes {
            err(format!(
                "Case construct that targets {} has branches to the case construct that targets {}, but does not immediately precede it in the OpSwitch's target list",
                label(t),
                label(s)
            ));
            return;
        }
    }
}
