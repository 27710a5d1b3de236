//! The error types of the simulator: illegal instructions (each naming the rule it breaks),
//! text syntax errors (with line and column), register-file errors and matrix-shape errors.

use spvx_num::dpas::{DpasError, Precision};

use crate::Platform;

/// A rule of the DPAS instruction that an instruction breaks. The `Display` text is the rule's
/// short name as used in messages and in `docs/semantics/dpas.md` ("DPAS simulator").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Exec size must be the platform's (8 on XeHP/DG2, 16 on PVC and later).
    ExecSize,
    /// SD must be encodable (1, 2, 4, 8) and is 8 on every XeHP+ platform.
    SystolicDepth,
    /// RC must be 1..=8.
    RepeatCount,
    /// Src1/Src2 precisions must form a legal pair (int×int, bf×bf, hf×hf, tf32×tf32, fp8×fp8).
    PrecisionCombination,
    /// The platform must support the precisions (tf32 from PVC, fp8 only Xe3P, …).
    PlatformPrecision,
    /// Dst type must fit the precisions and platform.
    DstType,
    /// Src0 type must fit the precisions and platform.
    Src0Type,
    /// Src1 and Src2 must be D or UD.
    SourceType,
    /// Dst must be aligned to ExecSize × element size.
    DstAlignment,
    /// Src0 must be aligned to ExecSize × element size.
    Src0Alignment,
    /// Src1 must be GRF-aligned.
    Src1Alignment,
    /// Src2 must be aligned to one row of A (SD × OPS_PER_CHAN × bits(A) / 8 bytes).
    Src2Alignment,
    /// Every operand must lie inside the register file.
    RegisterBounds,
}

impl Rule {
    /// The rule's short name.
    pub const fn name(self) -> &'static str {
        match self {
            Rule::ExecSize => "exec-size",
            Rule::SystolicDepth => "systolic-depth",
            Rule::RepeatCount => "repeat-count",
            Rule::PrecisionCombination => "precision-combination",
            Rule::PlatformPrecision => "platform-precision",
            Rule::DstType => "dst-type",
            Rule::Src0Type => "src0-type",
            Rule::SourceType => "source-type",
            Rule::DstAlignment => "dst-alignment",
            Rule::Src0Alignment => "src0-alignment",
            Rule::Src1Alignment => "src1-alignment",
            Rule::Src2Alignment => "src2-alignment",
            Rule::RegisterBounds => "register-bounds",
        }
    }
}

impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// An instruction that breaks a rule of the DPAS instruction on a platform.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("illegal DPAS on {platform} (rule {rule}): {detail}")]
pub struct Illegal {
    /// The rule broken.
    pub rule: Rule,
    /// The platform checked against.
    pub platform: Platform,
    /// What exactly is wrong, with the values involved.
    pub detail: String,
}

/// A syntax error in DPAS program text, at a 1-based line and column.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: {message}")]
pub struct ParseError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// What was expected or found.
    pub message: String,
}

/// A register file that cannot be built, read or written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RegFileError {
    /// A GRF count outside 1..=[`crate::MAX_GRFS`].
    #[error("register file: {0} GRFs requested; the count must be 1 to 256")]
    BadCount(usize),
    /// Raw image whose length is not a whole number of GRFs or is too long.
    #[error(
        "register file: raw image of {len} bytes is not a whole number of {grf_bytes}-byte GRFs, or holds more than {max} GRFs"
    )]
    BadRawLength {
        /// Image length in bytes.
        len: usize,
        /// GRF size in bytes.
        grf_bytes: usize,
        /// Largest GRF count.
        max: usize,
    },
    /// A malformed line of a hex text image.
    #[error("register file: line {line}: {message}")]
    BadHexLine {
        /// 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// An access past the end of the register file.
    #[error(
        "register file: bytes {start}..{end} are outside the register file ({size} bytes, {grfs} GRFs)"
    )]
    OutOfBounds {
        /// First byte accessed.
        start: usize,
        /// One past the last byte accessed.
        end: usize,
        /// Register file size in bytes.
        size: usize,
        /// GRF count.
        grfs: usize,
    },
}

/// Matrices that do not fit the requested multiplication.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MatrixError {
    /// Two dimensions that must agree do not.
    #[error("matrix: {what}: {left} vs {right}")]
    ShapeMismatch {
        /// Which dimensions.
        what: &'static str,
        /// First value.
        left: usize,
        /// Second value.
        right: usize,
    },
    /// Element data of the wrong length.
    #[error("matrix {name}: {rows}x{cols} needs {expected} elements, got {len}")]
    DataLength {
        /// The matrix.
        name: &'static str,
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
        /// rows × cols.
        expected: usize,
        /// Elements given.
        len: usize,
    },
    /// An element value that does not fit its precision.
    #[error(
        "matrix {name}: element [{row}][{col}] = {value} is outside the range of {precision} ([{min}, {max}])"
    )]
    ElementRange {
        /// The matrix.
        name: &'static str,
        /// Row.
        row: usize,
        /// Column.
        col: usize,
        /// The value.
        value: i64,
        /// Precision.
        precision: Precision,
        /// Smallest value of the precision.
        min: i64,
        /// Largest value of the precision.
        max: i64,
    },
    /// A matrix whose element type is not what the operation needs.
    #[error("matrix {name}: element type {found} cannot be used here ({expected})")]
    WrongType {
        /// The matrix.
        name: &'static str,
        /// What was found.
        found: String,
        /// What is needed.
        expected: String,
    },
    /// A dimension of zero or one too large to address.
    #[error("matrix: dimension {what} = {value} is not supported (must be 1 to {max})")]
    BadDimension {
        /// Which dimension.
        what: &'static str,
        /// Its value.
        value: usize,
        /// Largest value.
        max: usize,
    },
}

/// Any error of the simulator.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SimError {
    /// An illegal instruction.
    #[error(transparent)]
    Illegal(#[from] Illegal),
    /// A syntax error in program text.
    #[error("dpas syntax: {0}")]
    Parse(#[from] ParseError),
    /// A register-file error.
    #[error(transparent)]
    RegFile(#[from] RegFileError),
    /// A matrix error.
    #[error(transparent)]
    Matrix(#[from] MatrixError),
    /// An element-arithmetic error from `spvx_num::dpas` (cannot happen for legal instructions).
    #[error(transparent)]
    Element(#[from] DpasError),
    /// An instruction of a program failed; `index` is 0-based, `line` 1-based.
    #[error("instruction {index} (line {line}): {source}")]
    InProgram {
        /// Index of the instruction.
        index: usize,
        /// Its source line.
        line: usize,
        /// The error.
        source: Box<SimError>,
    },
    /// A type used where it cannot be (for example a BF accumulator matrix for integer DPAS).
    #[error("dpas: {0}")]
    Unsupported(String),
}

impl SimError {
    /// The rule broken, when this is (or wraps) an illegal instruction.
    pub fn rule(&self) -> Option<Rule> {
        match self {
            SimError::Illegal(i) => Some(i.rule),
            SimError::InProgram { source, .. } => source.rule(),
            _ => None,
        }
    }
}

/// Helper for building [`Illegal`] errors.
pub(crate) fn illegal(rule: Rule, platform: Platform, detail: String) -> Illegal {
    Illegal {
        rule,
        platform,
        detail,
    }
}
