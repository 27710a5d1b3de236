//! Rules of SPV_VALVE_mixed_float_dot_product (and the SPV_KHR_bfloat16 / SPV_EXT_float8 rules it relies on).
//!
//! (Being written: this check reports nothing yet.)

use crate::Options;
use crate::error::ValError;
use crate::index::ModuleIndex;
use thiserror::Error;

/// A broken rule of this concern.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MixedDotError {}

/// Appends every error of this concern to `out`.
pub fn check(_ix: &ModuleIndex, _opts: &Options, _out: &mut Vec<ValError>) {}
