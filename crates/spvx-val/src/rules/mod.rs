//! The checks, one module per concern, each with its own error enum.
//!
//! Core rules: [`ids`], [`id_operands`], [`types`], [`capabilities`], [`cfg`], [`interface`],
//! [`decorations`], [`instructions`], [`logical_pointers`], [`limits`].
//! Extension rules (the five source documents and the extensions they rely on): [`intdot`],
//! [`tensor`], [`fixed`], [`mixdot`], [`subgroup_mma`]. Environment rules: [`env`].

pub mod block_layout;
pub mod capabilities;
pub mod cfg;
pub mod decorations;
pub mod env;
pub mod fixed;
pub mod id_operands;
pub mod ids;
pub mod instructions;
pub mod intdot;
pub mod interface;
pub mod limits;
pub mod logical_pointers;
pub mod mixdot;
pub mod scope;
pub mod subgroup_mma;
pub mod tensor;
pub mod types;

use crate::Options;
use crate::error::ValError;
use spvx_spirv::index::ModuleIndex;

/// Runs every check, appending what it finds to `out`.
pub fn run_all(ix: &ModuleIndex, opts: &Options, out: &mut Vec<ValError>) {
    ids::check(ix, opts, out);
    limits::check(ix, opts, out);
    id_operands::check(ix, opts, out);
    types::check(ix, opts, out);
    capabilities::check(ix, opts, out);
    cfg::check(ix, opts, out);
    interface::check(ix, opts, out);
    decorations::check(ix, opts, out);
    block_layout::check(ix, opts, out);
    instructions::check(ix, opts, out);
    logical_pointers::check(ix, opts, out);
    intdot::check(ix, opts, out);
    tensor::check(ix, opts, out);
    fixed::check(ix, opts, out);
    mixdot::check(ix, opts, out);
    subgroup_mma::check(ix, opts, out);
    env::check(ix, opts, out);
    ids::suppress_cascades(out);
}
