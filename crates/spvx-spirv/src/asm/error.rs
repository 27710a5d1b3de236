//! Assembler errors: one typed error with the line, column and byte span where it was found.

use thiserror::Error;

/// What went wrong while assembling.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum AsmErrorKind {
    #[error("the assembly text is empty")]
    EmptyText,
    #[error("unexpected character '{0}' (only strings may contain it)")]
    UnexpectedCharacter(char),
    #[error("unterminated string: no closing '\"' before the end of the text")]
    UnterminatedString,
    #[error("invalid string literal {0}: a string is written \"...\"")]
    InvalidString(String),
    #[error("expected an instruction (`OpName ...` or `%id = OpName ...`), found '{0}'")]
    ExpectedInstruction(String),
    #[error("expected '=' after result id {id}, found {found}")]
    ExpectedEquals { id: String, found: String },
    #[error("expected an opcode name after '=', found {0}")]
    ExpectedOpcode(String),
    #[error("unknown opcode name '{0}'")]
    UnknownOpcode(String),
    #[error("{opcode} does not produce a result id, so '{id} =' is not allowed")]
    UnexpectedResultId { opcode: String, id: String },
    #[error("{opcode} produces a result id: write `%name = {opcode} ...`")]
    MissingResultId { opcode: String },
    #[error("{opcode}: expected an operand of kind {kind}, found {found}")]
    MissingOperand {
        opcode: String,
        kind: String,
        found: String,
    },
    #[error("expected an id (%name), found '{0}'")]
    ExpectedId(String),
    #[error("invalid id '{0}': ids are % followed by letters, digits and '_'")]
    InvalidId(String),
    #[error("id {name} is defined twice (first defined on line {first_line})")]
    IdDefinedTwice { name: String, first_line: u32 },
    #[error("unknown {kind} '{name}'")]
    UnknownEnumerant { kind: String, name: String },
    #[error("invalid {what} literal '{text}'")]
    InvalidLiteral { what: String, text: String },
    #[error("cannot put the negative number {0} in an unsigned literal")]
    NegativeUnsigned(String),
    #[error("integer {text} does not fit in a {width}-bit {signedness} integer")]
    IntegerOutOfRange {
        text: String,
        width: u32,
        signedness: &'static str,
    },
    #[error("float {text} is out of range for {format}")]
    FloatOutOfRange { text: String, format: String },
    #[error("{0}")]
    UnsupportedLiteralType(String),
    #[error("the type of this literal is not known: {0}")]
    UnknownLiteralType(String),
    #[error("{id} is not the result of an OpExtInstImport")]
    NotAnExtInstImport { id: String },
    #[error("'{name}' is not an instruction of extended instruction set {set}")]
    UnknownExtInst { set: String, name: String },
    #[error(
        "invalid OpSpecConstantOp opcode '{0}' (write the opcode name without 'Op', e.g. IAdd)"
    )]
    UnknownSpecConstantOpcode(String),
    #[error("invalid raw word '{0}': write !<integer> with an unsigned 32-bit value")]
    InvalidRawWord(String),
    #[error("invalid operand '{0}' after a raw word: expected a number, a string or an id")]
    InvalidRawOperand(String),
    #[error("instruction too long: {0} words, but at most 65535 are allowed")]
    InstructionTooLong(usize),
    #[error("{0}")]
    Other(String),
}

/// An assembler error at a place in the text. Lines and columns count from 1; the column counts
/// characters (Unicode scalar values). `start..end` is the byte span of the offending token.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{line}:{column}: {kind}")]
pub struct AsmError {
    pub line: u32,
    pub column: u32,
    pub start: usize,
    pub end: usize,
    pub kind: AsmErrorKind,
}
