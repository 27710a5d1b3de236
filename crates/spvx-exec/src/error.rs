//! The engine's errors: a module that cannot be read, validated or compiled, a binding that is
//! missing, a run stopped by a limit, and (in strict mode) undefined behaviour.

use crate::report::UbEvent;
use spvx_spirv::module::ModuleError;
use spvx_val::ValError;
use thiserror::Error;

/// An error of [`crate::CompiledModule::compile`] or [`crate::CompiledModule::run`].
#[derive(Debug, Error)]
pub enum ExecError {
    #[error("cannot read the module: {0}")]
    Module(#[from] ModuleError),
    #[error("the module is invalid ({} error(s)); first: {}", .0.len(), .0.first().map(|e| e.to_string()).unwrap_or_default())]
    Invalid(Vec<ValError>),
    #[error("no entry point named '{name}' (the module has: {})", .available.join(", "))]
    NoEntryPoint {
        name: String,
        available: Vec<String>,
    },
    #[error(
        "entry point '{name}' has execution model {model}; spvx-exec runs GLCompute and Kernel entry points"
    )]
    ExecutionModel { name: String, model: u32 },
    #[error("not supported yet by spvx-exec: {what} (instruction {instruction}, {opcode})")]
    Unsupported {
        what: String,
        instruction: u32,
        opcode: String,
    },
    #[error("cannot compile instruction {instruction} ({opcode}): {message}")]
    Compile {
        message: String,
        instruction: u32,
        opcode: String,
    },
    #[error("no buffer bound at set {set}, binding {binding}")]
    MissingBinding { set: u32, binding: u32 },
    /// An element of an array of buffers has no buffer bound.
    #[error(
        "no buffer bound as element {index} of the array of buffers at set {set}, binding {binding}"
    )]
    MissingBufferElement { set: u32, binding: u32, index: u32 },
    #[error("tensor at set {set}, binding {binding}: {message}")]
    Tensor {
        set: u32,
        binding: u32,
        message: String,
    },
    #[error("bad run configuration: {0}")]
    Config(String),
    #[error("kernel argument {index}: {message}")]
    KernelArg { index: u32, message: String },
    #[error(
        "step limit of {limit} reached in workgroup ({}, {}, {}) (an infinite loop?); raise the limit with `--max-steps N` (run files and Python: `max_steps`) if the program is just long",
        .workgroup[0], .workgroup[1], .workgroup[2]
    )]
    StepLimit { limit: u64, workgroup: [u32; 3] },
    #[error("memory limit of {limit} bytes exceeded: {what} needs {needed} bytes")]
    MemoryLimit {
        what: String,
        needed: u64,
        limit: u64,
    },
    #[error("undefined behaviour (strict mode): {0}")]
    Undefined(Box<UbEvent>),
    #[error(
        "deadlock in workgroup ({}, {}, {}): some invocations wait at a barrier (instruction {instruction}) that others finished without reaching",
        .workgroup[0], .workgroup[1], .workgroup[2]
    )]
    BarrierDeadlock {
        workgroup: [u32; 3],
        instruction: u32,
    },
}

impl ExecError {
    /// A copy of a compile error (other kinds become a generic compile error with their
    /// message).
    pub(crate) fn clone_message(&self) -> ExecError {
        match self {
            ExecError::Compile {
                message,
                instruction,
                opcode,
            } => ExecError::Compile {
                message: message.clone(),
                instruction: *instruction,
                opcode: opcode.clone(),
            },
            other => ExecError::Config(other.to_string()),
        }
    }
}
