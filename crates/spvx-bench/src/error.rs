//! Errors of the benchmark runner.

use thiserror::Error;

/// What can go wrong while reading a benchmark set or running a case.
#[derive(Debug, Error)]
pub enum BenchError {
    /// The set file could not be read.
    #[error("cannot read {path}: {message}")]
    Read { path: String, message: String },
    /// The set file is not a valid benchmark set.
    #[error("{path}: {message}")]
    Manifest { path: String, message: String },
    /// The engine failed on a case.
    #[error("{case}: the engine failed: {source}")]
    Engine {
        case: String,
        #[source]
        source: spvx_exec::ExecError,
    },
    /// A run file of the set cannot be read or its data loaded.
    #[error(transparent)]
    Plan(Box<spvx_run::RunError>),
    /// The options make no sense (e.g. zero rounds).
    #[error("{0}")]
    Options(String),
}

impl From<spvx_run::RunError> for BenchError {
    fn from(e: spvx_run::RunError) -> Self {
        BenchError::Plan(Box::new(e))
    }
}
