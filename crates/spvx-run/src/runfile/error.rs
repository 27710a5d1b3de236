//! What can be wrong with a run file, each problem with the place of the offending value.

use crate::ElemType;
use crate::data::RandomError;
use crate::diagnostic::{Diagnostic, Place, TextPlace, ToDiagnostics};
use crate::options::OptionsError;
use crate::parse::{GroupsError, SpecValueError};
use spvx_num::element::ElemError;

/// Why a run file cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum RunFileError {
    /// The file cannot be read.
    #[error("cannot read {name}: {source}")]
    Read {
        name: String,
        #[source]
        source: std::io::Error,
    },
    /// A TOML error without a place.
    #[error("{name}: {message}")]
    Toml { name: String, message: String },
    /// A problem at a place of the file.
    #[error("{}", at(.problem, .place).render_body())]
    At {
        problem: Box<Problem>,
        place: Box<TextPlace>,
    },
    /// The `[run]` options (with the command line's over them) are not valid.
    #[error(transparent)]
    Options(#[from] OptionsError),
}

/// `problem` at `place`.
fn at(problem: &Problem, place: &TextPlace) -> Diagnostic {
    Diagnostic::error(problem.to_string()).at(Place::Text(place.clone()))
}

impl ToDiagnostics for RunFileError {
    fn diagnostics(&self) -> Vec<Diagnostic> {
        vec![match self {
            RunFileError::At { problem, place } => at(problem, place),
            other => Diagnostic::error(other.to_string()),
        }]
    }
}

/// A problem with one value of a run file.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Problem {
    /// The TOML parser's message (syntax, unknown keys, wrong types).
    #[error("{0}")]
    Toml(String),
    #[error("local is a byte count: a number or a string such as \"4K\"")]
    LocalBytes,
    #[error(
        "an [[arg]] has exactly one of `data = {{...}}` (buffers and values) or `local = BYTES`"
    )]
    ArgSource,
    #[error("spec key '{0}' is not a SpecId (a 32-bit number)")]
    SpecId(String),
    #[error(transparent)]
    SpecValue(#[from] SpecValueError),
    #[error("a float spec constant needs its type: write a string such as \"f32:1.5\"")]
    FloatSpec,
    #[error("format is \"bin\" (the buffer's bytes) or \"npy\" (an array of its element type)")]
    Format,
    #[error("a spec constant is an integer, true/false, or a string such as \"f32:1.5\"")]
    SpecType,
    #[error("{strides} strides for a shape of {dims} dimensions")]
    Strides { strides: usize, dims: usize },
    #[error("groups are integers")]
    GroupsNotIntegers,
    #[error("groups is a number or a list of one to three numbers")]
    GroupsType,
    #[error("groups: {0}")]
    Groups(#[source] GroupsError),
    #[error("unknown element type '{0}' ({names})", names = ElemType::names())]
    UnknownType(String),
    #[error(
        "{0} data sources here; give exactly one of: file, zeros, random, or a typed list ({names})",
        names = ElemType::names()
    )]
    Sources(usize),
    #[error("count, min, max and seed belong to a random fill (random = \"TYPE\")")]
    RandomKeys,
    #[error("type = \"...\" is for file and zeros data (lists and random fills are typed already)")]
    TypeOfTyped,
    #[error("type = \"...\" only matters in expect tables (how to compare and print)")]
    TypeOutsideExpect,
    #[error("raw = true is for file data (raw = true takes a file's bytes as they are)")]
    RawWithoutFile,
    #[error("zeros is a byte count (an integer, or a string like \"4K\")")]
    ZerosCount,
    #[error("expected data cannot be random")]
    RandomExpect,
    #[error(transparent)]
    Value(#[from] ElemError),
    #[error("{value} is not an integer ({elem} holds integers)")]
    FloatForInteger { value: f64, elem: ElemType },
    #[error("a {found} is not a {elem} value")]
    ValueType { found: &'static str, elem: ElemType },
    #[error("a random fill needs count = N (elements)")]
    RandomCount,
    #[error("a bound is a number")]
    BoundNotNumber,
    #[error("{0} bounds are integers")]
    IntegerBounds(ElemType),
    #[error("a random {0} fill needs min and max (floats are drawn from [min, max))")]
    FloatBounds(ElemType),
    #[error(transparent)]
    Random(#[from] RandomError),
}
