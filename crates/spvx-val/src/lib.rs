//! `spvx-val`: validation of SPIR-V modules.
//!
//! It decides whether a module may be trusted by the engine: the core rules an engine needs
//! (logical layout, ids, types, capabilities, structured control flow, interfaces) and every
//! rule the five source documents state, plus the environment rules of `--target-env vulkan*`.
//! It knows the module model of `spvx-spirv` and the arithmetic facts of `spvx-num` (e.g. which
//! fixed-point parameters are legal), and nothing of execution.
//!
//! Layout: [`validate`] runs the layout check, builds the module index
//! ([`spvx_spirv::index::ModuleIndex`]: every id's definition, resolved types, evaluable
//! constants, declared capabilities with their implicit closure, function and block structure),
//! then runs one check per concern under [`rules`], and returns the index as [`Validated`].
//! Each concern has its own error enum; [`ValError`] names the instruction (by index in the flat
//! instruction list) where the rule was broken, so a caller can point at a word offset or a
//! line and column.

pub mod env;
pub mod error;
pub mod rules;
mod validated;

pub use env::TargetEnv;
pub use error::{ErrorKind, ValError};
pub use rules::limits::Limits;
pub use validated::Validated;

use rules::ids::IdError;
use spvx_spirv::binary::Header;
use spvx_spirv::index::{IndexError, ModuleIndex};
use spvx_spirv::instruction::Instruction;
use spvx_spirv::module::Module;

/// Validation options.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub target_env: TargetEnv,
    /// Size and depth limits (default: SPIR-V §2.17 universal limits, call depth 1,023).
    pub limits: Limits,
}

/// Validates a module given as its header and flat instruction list (file order). Returns the
/// module index, as [`Validated`], when every rule holds; otherwise every error found, in
/// instruction order.
///
/// A broken logical layout stops validation early (nothing else can be trusted), and so does an
/// id defined more than once.
pub fn validate(
    header: &Header,
    instructions: &[Instruction],
    opts: &Options,
) -> Result<Validated, Vec<ValError>> {
    check_layout(header, instructions)?;
    judge(build_index(header, instructions.to_vec()), opts)
}

/// Validates a module that is already indexed (the index is not built again), with the same
/// errors as [`validate`].
pub fn validate_index(index: ModuleIndex, opts: &Options) -> Result<Validated, Vec<ValError>> {
    check_layout(&index.header, &index.insts)?;
    judge(index, opts)
}

/// The errors [`validate`] finds (empty when the module is valid): for callers that report
/// rather than use the module.
pub fn errors(header: &Header, instructions: &[Instruction], opts: &Options) -> Vec<ValError> {
    validate(header, instructions, opts)
        .err()
        .unwrap_or_default()
}

/// Builds the module index without judging the module, failing only on ids defined more than
/// once. For callers that deliberately run unvalidated modules (the engine's robustness tests).
pub fn index(
    header: &Header,
    instructions: Vec<Instruction>,
) -> Result<ModuleIndex, Vec<ValError>> {
    let index = build_index(header, instructions);
    match redefinition_errors(&index) {
        errors if errors.is_empty() => Ok(index),
        errors => Err(errors),
    }
}

/// The logical layout rules (SPIR-V §2.4), checked first.
fn check_layout(header: &Header, instructions: &[Instruction]) -> Result<(), Vec<ValError>> {
    Module::from_instructions(*header, instructions.to_vec())
        .map(drop)
        .map_err(|e| vec![ValError::layout(e)])
}

/// The module index (capability implications the SPIRV-Headers grammar lacks are in the grammar
/// supplement, `spvx-spirv/grammar/supplement.json`).
fn build_index(header: &Header, instructions: Vec<Instruction>) -> ModuleIndex {
    ModuleIndex::build(header, instructions)
}

/// Every rule on an indexed module whose layout is sound.
fn judge(index: ModuleIndex, opts: &Options) -> Result<Validated, Vec<ValError>> {
    let redefined = redefinition_errors(&index);
    if !redefined.is_empty() {
        return Err(redefined);
    }
    let mut errors = Vec::new();
    rules::run_all(&index, opts, &mut errors);
    if errors.is_empty() {
        Ok(Validated::new(index))
    } else {
        errors.sort_by_key(|e| e.index);
        Err(errors)
    }
}

/// The index's redefinitions as validation errors.
fn redefinition_errors(index: &ModuleIndex) -> Vec<ValError> {
    index
        .redefinitions()
        .iter()
        .map(|&IndexError::DefinedTwice { index, id, first }| {
            ValError::at(index, IdError::DefinedTwice { id, first })
        })
        .collect()
}
