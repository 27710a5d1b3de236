//! Rules of control flow (SPIR-V §2.2.5 "Control Flow", §2.11 "Structured Control Flow",
//! §2.16.1 "Universal Validation Rules"):
//!
//! - [`blocks`]: branch targets are labels of the same function, the entry block has no
//!   predecessor, blocks appear after their dominators, every use of an id is dominated by its
//!   definition, `OpPhi` sits at the top of a block with one (value, parent) pair per
//!   predecessor, function variables come first in the entry block;
//! - [`structured`]: merge instructions placed right before the branch, and for Shader modules
//!   the merge and continue constructs (one header per merge block, headers dominating their
//!   merge blocks, back-edges only to loop headers, one back-edge per loop, conditional
//!   branches without a merge instruction only toward merge or continue blocks).
//!
//! [`graph`] builds each function's CFG and dominator tree once.

mod blocks;
mod constructs;
pub mod graph;
mod structured;
mod switch;

use crate::Options;
use crate::error::ValError;
use spvx_spirv::index::ModuleIndex;
use thiserror::Error;

/// A broken control-flow rule.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CfgError {
    /// A branch, merge or `OpPhi` parent operand must be the label of a block of the same
    /// function.
    #[error("{opcode}: {operand} {id} is not the label of a block in function {function}")]
    NotALabel {
        opcode: String,
        operand: String,
        id: String,
        function: String,
    },
    /// §2.16.1: the entry block of a function may not be the target of a branch.
    #[error("First block {block} of function {function} is targeted by block {from}")]
    EntryTargeted {
        block: String,
        function: String,
        from: String,
    },
    /// §2.16.1: "The order of blocks in a function must satisfy the rule that blocks appear
    /// before all blocks they dominate."
    #[error("Block {block} appears in the binary before its dominator {dominator}")]
    BeforeDominator { block: String, dominator: String },
    /// §2.16.1: each use of an id must be dominated by its definition.
    #[error("ID {id} defined in block {def_block} does not dominate its use in block {use_block}")]
    NotDominated {
        id: String,
        def_block: String,
        use_block: String,
    },
    /// §3.52.17 `OpPhi`: parent and placement rules.
    #[error("OpPhi {phi}: {rule}")]
    Phi { phi: String, rule: String },
    /// §2.4 item 11 / §3.52.8: function-storage `OpVariable`s are the first instructions of
    /// the first block.
    #[error(
        "All OpVariable instructions in a function must be the first instructions in the first block"
    )]
    VariableNotFirst,
    /// §2.11: merge instruction placement.
    #[error(
        "{opcode} must immediately precede {allowed} (it must be the second-to-last instruction of its block)"
    )]
    MergePlacement { opcode: String, allowed: String },
    /// §2.11: the structured control flow rules for Shader modules.
    #[error("{rule}")]
    Structured { rule: String },
}

/// Appends every control-flow error to `out`.
pub fn check(ix: &ModuleIndex, _opts: &Options, out: &mut Vec<ValError>) {
    let shader = ix.has_capability("Shader");
    structured::placement(ix, out);
    for f in &ix.functions {
        if f.blocks.is_empty() {
            continue;
        }
        let cfg = graph::Cfg::build(ix, f);
        blocks::check(ix, f, &cfg, out);
        if shader {
            structured::check(ix, f, &cfg, out);
        }
    }
}
