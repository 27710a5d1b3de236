//! [`RunError`]: any error of carrying a plan out, each concern's own error inside.

use crate::bindings::BindingError;
use crate::device::DeviceError;
use crate::expect::ExpectError;
use crate::inputs::InputError;
use crate::kernel::KernelError;
use crate::module::{ModuleError, PlacedExecError};
use crate::options::OptionsError;
use crate::outputs::OutputError;
use crate::runfile::RunFileError;

/// Why a plan cannot be read or carried out. Each variant's message is its concern's; none
/// starts with `error: ` (the caller adds it).
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    RunFile(#[from] RunFileError),
    #[error(transparent)]
    Options(#[from] OptionsError),
    #[error(transparent)]
    Module(#[from] ModuleError),
    #[error(transparent)]
    Engine(#[from] PlacedExecError),
    #[error(transparent)]
    Bindings(#[from] BindingError),
    #[error(transparent)]
    Input(#[from] InputError),
    #[error(transparent)]
    Kernel(#[from] KernelError),
    #[error(transparent)]
    Expect(#[from] ExpectError),
    #[error(transparent)]
    Output(#[from] OutputError),
    #[error(transparent)]
    Device(#[from] DeviceError),
}
