//! Errors of the module [`Builder`](super::Builder), each naming the instruction it was building.

use thiserror::Error;

/// Why the builder refused a request.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BuildError {
    #[error("unknown instruction name {0:?}")]
    UnknownInstruction(String),
    #[error("{instruction}: unknown {kind} enumerant {name:?}")]
    UnknownEnumerant {
        instruction: String,
        kind: String,
        name: String,
    },
    #[error("{instruction}: {value} is not a valid {kind}")]
    UnknownEnumValue {
        instruction: String,
        kind: String,
        value: u32,
    },
    #[error("{instruction}: mask {value:#x} has bits unknown to {kind}")]
    UnknownMaskBits {
        instruction: String,
        kind: String,
        value: u32,
    },
    #[error("{instruction}: unknown extended instruction {name} in set {set}")]
    UnknownExtInst {
        instruction: String,
        set: String,
        name: String,
    },
    #[error(
        "{instruction}: argument {index} should be {expected} (operand kind {kind}), got {got}"
    )]
    ArgMismatch {
        instruction: String,
        index: usize,
        kind: String,
        expected: &'static str,
        got: String,
    },
    #[error("{instruction}: the number has {got} word(s), but its type takes {expected}")]
    NumberWidth {
        instruction: String,
        expected: usize,
        got: usize,
    },
    #[error("{instruction}: the literal's type is not a declared scalar integer or float type")]
    UnknownLiteralType { instruction: String },
    #[error("{instruction}: {extra} argument(s) left over after the last operand")]
    ExtraArgs { instruction: String, extra: usize },
    #[error("{instruction}: {message}")]
    Operands {
        instruction: String,
        message: String,
    },
    #[error("{instruction}: this instruction needs a result type")]
    MissingResultType { instruction: String },
    #[error("{instruction}: this instruction has no result type, but one was given")]
    UnexpectedResultType { instruction: String },
    #[error("{0} belongs inside a block of a function, not at module level")]
    NotModuleLevel(String),
    #[error("{0} is a module-level instruction; it cannot go in a block")]
    NotInBlock(String),
    #[error("{0} is structural; use begin_function/function_parameter/begin_block/end_function")]
    Structural(String),
    #[error("{0} needs an open block (call begin_block first)")]
    NoOpenBlock(String),
    #[error("{0} needs an open function (call begin_function first)")]
    NoOpenFunction(String),
    #[error("a function is already open; end it first")]
    FunctionOpen,
    #[error("function parameters must come before the first block")]
    ParameterAfterBlock,
    #[error("the block %{0} is still open: it needs a termination instruction")]
    BlockOpen(u32),
}
