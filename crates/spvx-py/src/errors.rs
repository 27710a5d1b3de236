//! The package's exceptions, raised from Rust: the classes are defined in Python
//! (`spvx/_errors.py`, so that `ArgumentError` can also be a `ValueError`) and looked up here
//! by name. The message is the text the command line prints for the same error, `error: `
//! included.

use pyo3::prelude::*;
use spvx_run::diagnostic::{Diagnostic, ToDiagnostics, render_all};

/// Which exception class.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// An argument that is not one (an unknown name, a malformed value).
    Argument,
    /// Text that does not assemble.
    Assemble,
    /// A binary that does not decode.
    Disassemble,
    /// A module that is not valid.
    Validation,
    /// A run that cannot be made (module, bindings, data, engine).
    Run,
    /// A Vulkan device that cannot be opened or run on.
    Device,
    /// A DPAS multiplication that cannot be made.
    Dpas,
    /// A fixed-point or mixed-dot case that cannot be computed.
    Calc,
}

impl Kind {
    fn class(self) -> &'static str {
        match self {
            Kind::Argument => "ArgumentError",
            Kind::Assemble => "AssembleError",
            Kind::Disassemble => "DisassembleError",
            Kind::Validation => "ValidationError",
            Kind::Run => "RunError",
            Kind::Device => "DeviceError",
            Kind::Dpas => "DpasError",
            Kind::Calc => "CalcError",
        }
    }
}

/// The exception `kind` with `message`.
pub fn raise(kind: Kind, message: impl Into<String>) -> PyErr {
    let message = message.into();
    Python::attach(|py| {
        let made = py
            .import("spvx._errors")
            .and_then(|m| m.getattr(kind.class()))
            .and_then(|class| class.call1((message.clone(),)));
        match made {
            Ok(instance) => PyErr::from_value(instance),
            Err(e) => e,
        }
    })
}

/// A library error as the command line prints it: `error: MESSAGE`.
pub fn plain(kind: Kind, e: impl std::fmt::Display) -> PyErr {
    raise(kind, format!("error: {e}"))
}

/// A library error that knows its places, rendered as the command line renders it.
pub fn placed(kind: Kind, e: impl ToDiagnostics) -> PyErr {
    diagnostics(kind, &e.diagnostics())
}

/// Diagnostics rendered one after the other, as the command line prints them.
pub fn diagnostics(kind: Kind, d: &[Diagnostic]) -> PyErr {
    raise(kind, render_all(d))
}
