//! Matrix values for the matrix-level API and the multiplication's parameters.

use spvx_num::dpas::Precision;

use crate::isa::ExecOptions;
use crate::{DataType, MatrixError, Platform, SimError};

/// Largest matrix dimension accepted (keeps every index and byte count far inside `usize`).
pub const MAX_DIM: usize = 1 << 20;

/// Largest number of elements of D (M·N) a multiplication may produce (1 GiB of 32-bit
/// elements), so that small A and B cannot request an unbounded allocation.
pub const MAX_OUTPUT_ELEMENTS: usize = 1 << 28;

/// A row-major matrix of DPAS source elements (A or B). Each element is its bit pattern in the
/// low `bits(precision)` bits (integers in two's complement; tf32 the whole fp32 container).
/// Elements of at most 8 bits are stored one per byte, 16-bit ones in `u16`s.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ElementMatrix {
    rows: usize,
    cols: usize,
    precision: Precision,
    storage: Storage,
}

/// A run of element patterns in their storage container.
#[derive(Clone, Copy)]
pub(crate) enum Patterns<'a> {
    Bytes(&'a [u8]),
    Halves(&'a [u16]),
    Words(&'a [u32]),
}

/// Element storage by width.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Storage {
    Bytes(Vec<u8>),
    Halves(Vec<u16>),
    Words(Vec<u32>),
}

impl Storage {
    /// Patterns (already range-checked) in the narrowest container of `precision`.
    fn of(precision: Precision, bits: Vec<u32>) -> Storage {
        match precision.bits() {
            0..=8 => Storage::Bytes(bits.into_iter().map(|b| b as u8).collect()),
            9..=16 => Storage::Halves(bits.into_iter().map(|b| b as u16).collect()),
            _ => Storage::Words(bits),
        }
    }
}

fn check_shape(
    name: &'static str,
    rows: usize,
    cols: usize,
    len: usize,
) -> Result<(), MatrixError> {
    for (what, value) in [("rows", rows), ("columns", cols)] {
        if value == 0 || value > MAX_DIM {
            return Err(MatrixError::BadDimension {
                what,
                value,
                max: MAX_DIM,
            });
        }
    }
    if rows * cols != len {
        return Err(MatrixError::DataLength {
            name,
            rows,
            cols,
            expected: rows * cols,
            len,
        });
    }
    Ok(())
}

/// The inclusive value range of an integer precision (two's complement when signed).
pub fn int_range(p: Precision) -> (i64, i64) {
    let bits = p.bits();
    if p.is_signed_integer() {
        (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)
    } else {
        (0, (1i64 << bits) - 1)
    }
}

impl ElementMatrix {
    /// A matrix of integer values (each must lie in the precision's range).
    pub fn from_ints(
        name: &'static str,
        rows: usize,
        cols: usize,
        precision: Precision,
        values: &[i32],
    ) -> Result<ElementMatrix, MatrixError> {
        check_shape(name, rows, cols, values.len())?;
        if !precision.is_integer() {
            return Err(MatrixError::WrongType {
                name,
                found: precision.to_string(),
                expected: "an integer precision".into(),
            });
        }
        let (min, max) = int_range(precision);
        let mask = (1u64 << precision.bits()) - 1;
        let mut bits = Vec::with_capacity(values.len());
        for (j, &v) in values.iter().enumerate() {
            let v = i64::from(v);
            if v < min || v > max {
                return Err(MatrixError::ElementRange {
                    name,
                    row: j / cols,
                    col: j % cols,
                    value: v,
                    precision,
                    min,
                    max,
                });
            }
            bits.push((v as u64 & mask) as u32);
        }
        Ok(ElementMatrix {
            rows,
            cols,
            precision,
            storage: Storage::of(precision, bits),
        })
    }

    /// A matrix of bit patterns (each must fit in `bits(precision)` bits).
    pub fn from_bits(
        name: &'static str,
        rows: usize,
        cols: usize,
        precision: Precision,
        bits: Vec<u32>,
    ) -> Result<ElementMatrix, MatrixError> {
        check_shape(name, rows, cols, bits.len())?;
        if precision.is_df() {
            return Err(MatrixError::WrongType {
                name,
                found: precision.to_string(),
                expected: "a precision of at most 32 bits (df matrices are not supported)".into(),
            });
        }
        let width = precision.bits();
        if width < 32
            && let Some(j) = bits.iter().position(|&b| b >> width != 0)
        {
            return Err(MatrixError::ElementRange {
                name,
                row: j / cols,
                col: j % cols,
                value: i64::from(bits[j]),
                precision,
                min: 0,
                max: (1i64 << width) - 1,
            });
        }
        Ok(ElementMatrix {
            rows,
            cols,
            precision,
            storage: Storage::of(precision, bits),
        })
    }

    /// Rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The element precision.
    pub fn precision(&self) -> Precision {
        self.precision
    }

    /// The bit patterns, row-major.
    pub fn to_bits(&self) -> Vec<u32> {
        match &self.storage {
            Storage::Bytes(v) => v.iter().map(|&b| u32::from(b)).collect(),
            Storage::Halves(v) => v.iter().map(|&b| u32::from(b)).collect(),
            Storage::Words(v) => v.clone(),
        }
    }

    /// The patterns of an at-most-8-bit precision, one byte each, row-major (`None` for wider
    /// precisions).
    pub fn bytes(&self) -> Option<&[u8]> {
        match &self.storage {
            Storage::Bytes(v) => Some(v),
            _ => None,
        }
    }

    /// The patterns of row `r`, columns `cols`, in their storage container (for loops that
    /// convert whole runs of elements).
    pub(crate) fn row_patterns(&self, r: usize, cols: std::ops::Range<usize>) -> Patterns<'_> {
        let (i, j) = (r * self.cols + cols.start, r * self.cols + cols.end);
        match &self.storage {
            Storage::Bytes(v) => Patterns::Bytes(&v[i..j]),
            Storage::Halves(v) => Patterns::Halves(&v[i..j]),
            Storage::Words(v) => Patterns::Words(&v[i..j]),
        }
    }

    /// The bit pattern of element [r][c].
    pub fn get(&self, r: usize, c: usize) -> u32 {
        let i = r * self.cols + c;
        match &self.storage {
            Storage::Bytes(v) => u32::from(v[i]),
            Storage::Halves(v) => u32::from(v[i]),
            Storage::Words(v) => v[i],
        }
    }

    /// The integer value of element [r][c] (sign-extended for signed precisions); meaningful
    /// for integer precisions only.
    pub fn int_value(&self, r: usize, c: usize) -> i32 {
        sign_extend(self.get(r, c), self.precision)
    }
}

/// The value of an integer element pattern.
pub(crate) fn sign_extend(bits: u32, p: Precision) -> i32 {
    let w = p.bits();
    if p.is_signed_integer() && w < 32 {
        ((bits << (32 - w)) as i32) >> (32 - w)
    } else {
        bits as i32
    }
}

/// A row-major accumulator matrix (C or D): 32-bit patterns for D/UD/F, 16-bit patterns (in
/// the low bits) for BF/HF.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccMatrix {
    rows: usize,
    cols: usize,
    ty: DataType,
    bits: Vec<u32>,
}

impl AccMatrix {
    /// A matrix of patterns of type `ty` (16-bit types must have the high bits clear).
    pub fn from_bits(
        name: &'static str,
        rows: usize,
        cols: usize,
        ty: DataType,
        bits: Vec<u32>,
    ) -> Result<AccMatrix, MatrixError> {
        check_shape(name, rows, cols, bits.len())?;
        if ty == DataType::Df {
            return Err(MatrixError::WrongType {
                name,
                found: ty.to_string(),
                expected: "a 16- or 32-bit accumulator type (df matrices are not supported)".into(),
            });
        }
        if ty.size() == 2
            && let Some(j) = bits.iter().position(|&b| b > 0xffff)
        {
            return Err(MatrixError::WrongType {
                name,
                found: format!("pattern {:#x} at [{}][{}]", bits[j], j / cols, j % cols),
                expected: format!("16-bit {ty} patterns"),
            });
        }
        Ok(AccMatrix {
            rows,
            cols,
            ty,
            bits,
        })
    }

    /// Rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Element type.
    pub fn ty(&self) -> DataType {
        self.ty
    }

    /// The patterns, row-major.
    pub fn bits(&self) -> &[u32] {
        &self.bits
    }

    /// The pattern of element [r][c].
    pub fn get(&self, r: usize, c: usize) -> u32 {
        self.bits[r * self.cols + c]
    }
}

/// What to multiply: D = C + A × B with A of precision `a`, B of precision `b`, D of type
/// `dst`, on `platform`, under `options` (float model and BF rounding).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatmulSpec {
    /// The platform (exec size, legality).
    pub platform: Platform,
    /// Precision of A (Src2).
    pub a: Precision,
    /// Precision of B (Src1).
    pub b: Precision,
    /// Type of D.
    pub dst: DataType,
    /// Float options.
    pub options: ExecOptions,
}

/// Checks the matrices against the spec: precisions, shapes, C's type. Returns (M, K, N).
pub(crate) fn check_operands(
    spec: &MatmulSpec,
    a: &ElementMatrix,
    b: &ElementMatrix,
    c: Option<&AccMatrix>,
) -> Result<(usize, usize, usize), SimError> {
    for (name, m, p) in [("A", a, spec.a), ("B", b, spec.b)] {
        if m.precision() != p {
            return Err(MatrixError::WrongType {
                name,
                found: m.precision().to_string(),
                expected: format!("{p} as the multiplication says"),
            }
            .into());
        }
    }
    if a.cols() != b.rows() {
        return Err(MatrixError::ShapeMismatch {
            what: "columns of A vs rows of B (K)",
            left: a.cols(),
            right: b.rows(),
        }
        .into());
    }
    if let Some(c) = c {
        if c.rows() != a.rows() {
            return Err(MatrixError::ShapeMismatch {
                what: "rows of C vs rows of A (M)",
                left: c.rows(),
                right: a.rows(),
            }
            .into());
        }
        if c.cols() != b.cols() {
            return Err(MatrixError::ShapeMismatch {
                what: "columns of C vs columns of B (N)",
                left: c.cols(),
                right: b.cols(),
            }
            .into());
        }
    }
    let outputs = a.rows().saturating_mul(b.cols());
    if outputs > MAX_OUTPUT_ELEMENTS {
        return Err(MatrixError::BadDimension {
            what: "M·N (elements of D)",
            value: outputs,
            max: MAX_OUTPUT_ELEMENTS,
        }
        .into());
    }
    Ok((a.rows(), a.cols(), b.cols()))
}
