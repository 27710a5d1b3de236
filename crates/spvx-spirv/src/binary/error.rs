//! Errors of the binary reader, each naming the word offset where it was found.

use thiserror::Error;

/// What went wrong.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BinaryErrorKind {
    #[error("the file is {0} bytes long, which is not a whole number of 32-bit words")]
    NotWordAligned(usize),
    #[error("the module has {0} words, fewer than the 5 of a header")]
    TruncatedHeader(usize),
    #[error("bad magic number {0:#010x} (expected 0x07230203 in either byte order)")]
    BadMagic(u32),
    #[error("instruction has word count 0")]
    ZeroWordCount,
    #[error(
        "instruction {name} has word count {count}, but only {left} words remain in the module"
    )]
    PastEnd {
        name: String,
        count: usize,
        left: usize,
    },
    #[error("unknown opcode {0}")]
    UnknownOpcode(u16),
    #[error(
        "{name}: expected an operand of kind {kind}, but the instruction ends (word count {count} is too small)"
    )]
    MissingOperand {
        name: String,
        kind: String,
        count: usize,
    },
    #[error(
        "{name}: {extra} word(s) left over after the last operand (word count {count} is too large)"
    )]
    ExtraWords {
        name: String,
        extra: usize,
        count: usize,
    },
    #[error("{name}: literal string is not nul-terminated within the instruction")]
    UnterminatedString { name: String },
    #[error("{name}: literal string has non-zero bytes after its nul terminator")]
    NonZeroStringPadding { name: String },
    #[error("{name}: literal string is not valid UTF-8")]
    InvalidUtf8 { name: String },
    #[error("{name}: {value} is not a valid {kind}")]
    UnknownEnumValue {
        name: String,
        kind: String,
        value: u32,
    },
    #[error("{name}: mask {value:#x} has bits unknown to {kind}")]
    UnknownMaskBits {
        name: String,
        kind: String,
        value: u32,
    },
    #[error("{name}: {number} is not an instruction of extended set {set}")]
    UnknownExtInst {
        name: String,
        set: String,
        number: u32,
    },
    #[error("{name}: the literal's type is not a known scalar integer or float type")]
    UnknownLiteralType { name: String },
    #[error("{message}")]
    Other { message: String },
}

/// A reader error with the word offset (from the start of the module, header included) where
/// the offending instruction or word begins.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("word {offset}: {kind}")]
pub struct BinaryError {
    pub offset: usize,
    pub kind: BinaryErrorKind,
}
