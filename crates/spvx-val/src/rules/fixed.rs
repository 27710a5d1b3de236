//! Rules of SPV_INTEL_arbitrary_precision_fixed_point: types, literal operands (S, I, rI, Q, O) and result types of the eleven OpFixed* instructions.
//!
//! (Being written: this check reports nothing yet.)

use crate::Options;
use crate::error::ValError;
use crate::index::ModuleIndex;
use thiserror::Error;

/// A broken rule of this concern.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum FixedError {}

/// Appends every error of this concern to `out`.
pub fn check(_ix: &ModuleIndex, _opts: &Options, _out: &mut Vec<ValError>) {}
