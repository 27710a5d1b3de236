//! `spvx-val`: validation of SPIR-V modules.
//!
//! It decides whether a module may be trusted by the engine: the core rules an engine needs
//! (logical layout, ids, types, capabilities, structured control flow, interfaces) and every
//! rule the five source documents state, plus the environment rules of `--target-env vulkan*`.
//! It knows the module model of `spvx-spirv` and the arithmetic facts of `spvx-num` (e.g. which
//! fixed-point parameters are legal), and nothing of execution.
//!
//! Layout: [`validate`] runs the layout check, builds the [`index::ModuleIndex`] (every id's
//! definition, resolved types, evaluable constants, declared capabilities with their implicit
//! closure, function and block structure), then runs one check per concern under [`rules`].
//! Each concern has its own error enum; [`ValError`] names the instruction (by index in the flat
//! instruction list) where the rule was broken, so a caller can point at a word offset or a
//! line and column.

pub mod env;
pub mod error;
pub mod index;
pub mod rules;

pub use env::TargetEnv;
pub use error::{ErrorKind, ValError};
pub use rules::limits::Limits;

use spvx_spirv::binary::Header;
use spvx_spirv::instruction::Instruction;
use spvx_spirv::module::Module;

/// Validation options.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub target_env: TargetEnv,
    /// Size and depth limits (default: SPIR-V §2.17 universal limits, call depth 1,023).
    pub limits: Limits,
}

/// Validates a module given as its header and flat instruction list (file order). Returns every
/// error found, in instruction order; an empty list means the module is valid.
///
/// A broken logical layout stops validation early (nothing else can be trusted), and so does a
/// failure to build the index (ids defined twice, or used but never defined).
pub fn validate(header: &Header, instructions: &[Instruction], opts: &Options) -> Vec<ValError> {
    if let Err(e) = Module::from_instructions(*header, instructions.to_vec()) {
        return vec![ValError::layout(e)];
    }
    let index = match index::ModuleIndex::build(header, instructions) {
        Ok(i) => i,
        Err(errors) => return errors,
    };
    let mut errors = Vec::new();
    rules::run_all(&index, opts, &mut errors);
    errors.sort_by_key(|e| e.index);
    errors
}
