//! [`RunError`]: any error of carrying a plan out, each concern's own error inside.

use crate::bindings::BindingError;
use crate::device::DeviceError;
use crate::diagnostic::{Diagnostic, ToDiagnostics};
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

/// Errors with places (run files, the module's text or binary, the engine) as their own
/// diagnostics; the others as one diagnostic of their message.
impl ToDiagnostics for RunError {
    fn diagnostics(&self) -> Vec<Diagnostic> {
        match self {
            RunError::RunFile(e) => e.diagnostics(),
            RunError::Module(e) => e.diagnostics(),
            RunError::Engine(e) => e.diagnostics(),
            other => vec![Diagnostic::error(other.to_string())],
        }
    }
}
