//! Rules of ids: every id defined exactly once, every referenced id defined, and defined before
//! use where SPIR-V requires it.
//!
//! (Being written: only "defined exactly once" is checked, by the index builder.)

use crate::Options;
use crate::error::ValError;
use crate::index::ModuleIndex;
use spvx_spirv::instruction::Id;
use thiserror::Error;

/// A broken id rule.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum IdError {
    /// SPIR-V §2.2.1: an id is defined by exactly one instruction.
    #[error("id {id} is defined more than once (first by instruction {first})")]
    DefinedTwice { id: Id, first: usize },
}

/// Appends every id error to `out`.
pub fn check(_ix: &ModuleIndex, _opts: &Options, _out: &mut Vec<ValError>) {}
