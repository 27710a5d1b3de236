//! A compiled `debugPrintfEXT` (NonSemantic.DebugPrintf instruction 1): the format string
//! parsed into pieces at compile time, each directive bound to its operand's slots.

/// One piece of a format string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    /// Text printed as is (`%%` already turned into `%`, `%s` of a string operand inlined).
    Text(String),
    /// A conversion of an operand.
    Conv(Conv),
}

/// A conversion directive `%[flags][width][.precision][vN][length]conversion` bound to an
/// operand: `count` scalar components starting at `slot`, each `bits` wide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conv {
    pub left: bool,
    pub plus: bool,
    pub space: bool,
    pub zero: bool,
    pub alt: bool,
    pub width: Option<usize>,
    pub precision: Option<usize>,
    /// One of d i u x X o c f F e E g G a A.
    pub conversion: char,
    pub slot: u32,
    pub count: u32,
    pub bits: u32,
}

/// The whole print instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrintSpec {
    pub pieces: Vec<Piece>,
}
