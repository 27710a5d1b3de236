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
    /// The block-layout rules the device allows (spirv-val's layout switches).
    pub layout: LayoutFlags,
    /// spirv-val's switches that relax other rules.
    pub relax: Relaxations,
}

/// Which Vulkan block-layout rules apply, as spirv-val's switches of the same names say (all off
/// by default; relaxed block layout is implied by every Vulkan environment after 1.0).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LayoutFlags {
    /// `--relax-block-layout`: VK_KHR_relaxed_block_layout.
    pub relax_block_layout: bool,
    /// `--uniform-buffer-standard-layout`: uniform blocks use base (std430) alignment.
    pub uniform_buffer_standard_layout: bool,
    /// `--scalar-block-layout`: VK_EXT_scalar_block_layout for Uniform, StorageBuffer,
    /// PushConstant and PhysicalStorageBuffer blocks.
    pub scalar_block_layout: bool,
    /// `--workgroup-scalar-block-layout`: scalar layout for Workgroup blocks.
    pub workgroup_scalar_block_layout: bool,
    /// `--skip-block-layout`: no layout rule is checked (the decorations must still be there).
    pub skip_block_layout: bool,
}

/// spirv-val's other relaxations, by their switch names.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Relaxations {
    /// `--relax-logical-pointer`: pointer-typed variables and functions returning pointers
    /// under Logical addressing.
    pub relax_logical_pointer: bool,
    /// `--before-hlsl-legalization`: the patterns spirv-opt's legalization removes (implies
    /// `relax_logical_pointer`).
    pub before_hlsl_legalization: bool,
    /// `--relax-struct-store`: OpStore of a struct into a pointer to a different struct type
    /// with the same layout and members.
    pub relax_struct_store: bool,
    /// `--allow-localsizeid`: LocalSizeId where the target environment does not allow it.
    pub allow_localsizeid: bool,
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
