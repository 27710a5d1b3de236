//! The validator's error type: which rule was broken, and at which instruction.

use crate::rules::{
    block_layout::BlockLayoutError, capabilities::CapabilityError, cfg::CfgError,
    decorations::DecorationError, env::EnvError, fixed::FixedError, ids::IdError,
    instructions::InstructionError, intdot::IntDotError, interface::InterfaceError,
    limits::LimitError, logical_pointers::LogicalPointerError, mixdot::MixedDotError,
    subgroup_mma::SubgroupMmaError, tensor::TensorError, types::TypeError,
};
use spvx_spirv::module::LayoutError;
use thiserror::Error;

/// The broken rule, by concern.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ErrorKind {
    #[error("{}", .0.rule)]
    Layout(LayoutError),
    #[error(transparent)]
    Id(#[from] IdError),
    #[error(transparent)]
    Type(#[from] TypeError),
    #[error(transparent)]
    Capability(#[from] CapabilityError),
    #[error(transparent)]
    Cfg(#[from] CfgError),
    #[error(transparent)]
    Interface(#[from] InterfaceError),
    #[error(transparent)]
    Decoration(#[from] DecorationError),
    #[error(transparent)]
    BlockLayout(#[from] BlockLayoutError),
    #[error(transparent)]
    Instruction(#[from] InstructionError),
    #[error(transparent)]
    Limit(#[from] LimitError),
    #[error(transparent)]
    LogicalPointer(#[from] LogicalPointerError),
    #[error(transparent)]
    IntDot(#[from] IntDotError),
    #[error(transparent)]
    Tensor(#[from] TensorError),
    #[error(transparent)]
    Fixed(#[from] FixedError),
    #[error(transparent)]
    MixedDot(#[from] MixedDotError),
    #[error(transparent)]
    SubgroupMma(#[from] SubgroupMmaError),
    #[error(transparent)]
    Env(#[from] EnvError),
}

/// One validation error: the rule broken and the instruction (index in the flat instruction
/// list, file order) where it was found. `index` is `None` for module-wide rules with no single
/// instruction to blame (e.g. a missing `OpMemoryModel`).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{kind}")]
pub struct ValError {
    pub index: Option<usize>,
    pub kind: ErrorKind,
}

impl ValError {
    /// An error at instruction `index`.
    pub fn at(index: usize, kind: impl Into<ErrorKind>) -> Self {
        ValError {
            index: Some(index),
            kind: kind.into(),
        }
    }

    /// An error with no single instruction to blame.
    pub fn module(kind: impl Into<ErrorKind>) -> Self {
        ValError {
            index: None,
            kind: kind.into(),
        }
    }

    /// A logical-layout error from the module model.
    pub fn layout(e: LayoutError) -> Self {
        ValError {
            index: Some(e.index),
            kind: ErrorKind::Layout(e),
        }
    }
}
