//! Rules of environment rules of --target-env vulkan*: tensor types in shaders, storage classes, Kernel-only capabilities.
//!
//! (Being written: this check reports nothing yet.)

use crate::Options;
use crate::error::ValError;
use crate::index::ModuleIndex;
use thiserror::Error;

/// A broken rule of this concern.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EnvError {}

/// Appends every error of this concern to `out`.
pub fn check(_ix: &ModuleIndex, _opts: &Options, _out: &mut Vec<ValError>) {}
