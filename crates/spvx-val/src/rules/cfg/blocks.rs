//! Block-level rules of every function (Shader or Kernel): targets, entry block, block order,
//! dominance of definitions over uses, `OpPhi`, and the place of function variables.

use super::CfgError;
use super::graph::{Cfg, targets};
use crate::error::ValError;
use spvx_spirv::index::{FunctionInfo, ModuleIndex};
use spvx_spirv::instruction::Id;
use spvx_spirv::op::Op;

pub(super) fn check(ix: &ModuleIndex, f: &FunctionInfo, cfg: &Cfg, out: &mut Vec<ValError>) {
    labels(ix, f, cfg, out);
    if let Some(&from) = cfg.preds.first().and_then(|p| p.first()) {
        out.push(ValError::at(
            f.blocks[from].terminator,
            CfgError::EntryTargeted {
                block: ix.name(f.blocks[0].label),
                function: ix.name(f.id),
                from: ix.name(f.blocks[from].label),
            },
        ));
    }
    for b in 1..f.blocks.len() {
        if let Some(d) = cfg.idom[b]
            && cfg.reachable[b]
            && d > b
        {
            out.push(ValError::at(
                f.blocks[b].label_index,
                CfgError::BeforeDominator {
                    block: ix.name(f.blocks[b].label),
                    dominator: ix.name(f.blocks[d].label),
                },
            ));
        }
    }
    uses(ix, f, cfg, out);
    phis(ix, f, cfg, out);
    variables(ix, f, out);
}

/// Every branch target, merge block and continue target is a label of `f`.
fn labels(ix: &ModuleIndex, f: &FunctionInfo, cfg: &Cfg, out: &mut Vec<ValError>) {
    let mut check = |index: usize, operand: &str, id: Id| {
        if !cfg.block_of_label.contains_key(&id) {
            out.push(ValError::at(
                index,
                CfgError::NotALabel {
                    opcode: ix.insts[index].opcode.name().to_string(),
                    operand: operand.to_string(),
                    id: ix.name(id),
                    function: ix.name(f.id),
                },
            ));
        }
    };
    for b in &f.blocks {
        for t in targets(&ix.insts[b.terminator]) {
            check(b.terminator, "target", t);
        }
        let m = b.terminator.wrapping_sub(1);
        if let Some(inst) = ix.insts.get(m).filter(|_| m > b.label_index) {
            match inst.opcode {
                Op::SelectionMerge | Op::LoopMerge => {
                    if let Some(id) = inst.operands.first().and_then(|o| o.id()) {
                        check(m, "Merge Block", id);
                    }
                    if inst.opcode == Op::LoopMerge
                        && let Some(id) = inst.operands.get(1).and_then(|o| o.id())
                    {
                        check(m, "Continue Target", id);
                    }
                }
                _ => {}
            }
        }
    }
}

/// The block (of `f`) whose instructions include the definition at `def_index`, if the
/// definition is inside one of `f`'s blocks.
fn def_block(f: &FunctionInfo, cfg: &Cfg, def_index: usize) -> Option<usize> {
    let first_label = f.blocks.first()?.label_index;
    if def_index < first_label || def_index > f.end {
        return None;
    }
    cfg.block_at(def_index)
}

/// SPIR-V §2.16.1: "The definition of an SSA id must dominate all its uses" (`OpPhi`
/// operands are checked against their parent block in [`phis`]).
fn uses(ix: &ModuleIndex, f: &FunctionInfo, cfg: &Cfg, out: &mut Vec<ValError>) {
    for (b, block) in f.blocks.iter().enumerate() {
        if !cfg.reachable[b] {
            continue;
        }
        for index in block.label_index + 1..=block.terminator {
            let inst = &ix.insts[index];
            if inst.opcode == Op::Phi {
                continue;
            }
            for id in inst.referenced_ids() {
                let Some(def) = ix.def(id) else { continue };
                if def.opcode == Op::Label {
                    continue;
                }
                let Some(db) = def_block(f, cfg, def.index) else {
                    continue;
                };
                if db != b && !cfg.dominates(db, b) {
                    out.push(ValError::at(
                        index,
                        CfgError::NotDominated {
                            id: ix.name(id),
                            def_block: ix.name(f.blocks[db].label),
                            use_block: ix.name(block.label),
                        },
                    ));
                }
            }
        }
    }
}

fn phis(ix: &ModuleIndex, f: &FunctionInfo, cfg: &Cfg, out: &mut Vec<ValError>) {
    for (b, block) in f.blocks.iter().enumerate() {
        let mut leading = true;
        for index in block.label_index + 1..block.terminator {
            let inst = &ix.insts[index];
            if inst.opcode != Op::Phi {
                if !matches!(inst.opcode, Op::Line | Op::NoLine) {
                    leading = false;
                }
                continue;
            }
            let phi = ix.name(inst.result.unwrap_or(0));
            let mut err = |rule: String| {
                out.push(ValError::at(
                    index,
                    CfgError::Phi {
                        phi: phi.clone(),
                        rule,
                    },
                ))
            };
            if b == 0 {
                err("OpPhi must appear within a non-entry block".into());
                continue;
            }
            if !leading {
                err("OpPhi must appear before all non-OpPhi instructions of its block (except OpLine and OpNoLine)".into());
                continue;
            }
            let pairs = inst.operands.len() / 2;
            if pairs != cfg.preds[b].len() {
                err(format!(
                    "OpPhi's number of incoming blocks ({pairs}) does not match block's predecessor count ({})",
                    cfg.preds[b].len()
                ));
                continue;
            }
            for k in 0..pairs {
                let (Some(value), Some(parent)) =
                    (inst.operands[2 * k].id(), inst.operands[2 * k + 1].id())
                else {
                    continue;
                };
                let Some(&p) = cfg.block_of_label.get(&parent) else {
                    err(format!(
                        "parent {} is not a block of this function",
                        ix.name(parent)
                    ));
                    continue;
                };
                if !cfg.preds[b].contains(&p) {
                    err(format!(
                        "OpPhi's incoming basic block {} is not a predecessor of {}",
                        ix.name(parent),
                        ix.name(block.label)
                    ));
                    continue;
                }
                if let Some(db) = ix.def(value).and_then(|d| def_block(f, cfg, d.index))
                    && cfg.reachable[p]
                    && !cfg.dominates(db, p)
                {
                    err(format!(
                        "ID {} definition does not dominate its parent {}",
                        ix.name(value),
                        ix.name(parent)
                    ));
                }
            }
        }
    }
}

/// Function-storage variables come first in the entry block (OpLine, OpNoLine and debug
/// extended instructions may be mixed in).
fn variables(ix: &ModuleIndex, f: &FunctionInfo, out: &mut Vec<ValError>) {
    for (b, block) in f.blocks.iter().enumerate() {
        let mut leading = b == 0;
        for index in block.label_index + 1..=block.terminator {
            match ix.insts[index].opcode {
                Op::Variable if !leading => {
                    out.push(ValError::at(index, CfgError::VariableNotFirst));
                }
                Op::Variable | Op::Line | Op::NoLine | Op::ExtInst => {}
                _ => leading = false,
            }
        }
    }
}
