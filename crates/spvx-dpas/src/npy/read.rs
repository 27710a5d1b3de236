//! Reading `.npy` arrays into [`ElementMatrix`] / [`AccMatrix`] (conventions in [`super`]).

use npyz::{DType, NpyFile, Order};
use spvx_num::dpas::Precision;

use crate::matrix::{AccMatrix, ElementMatrix, int_range};
use crate::{DataType, MatrixError};

/// Why an array cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NpyError {
    /// Not a readable `.npy` file.
    #[error("{name}: not a valid .npy file: {message}")]
    Format {
        /// The array's role (A, B, C).
        name: &'static str,
        /// The reader's message.
        message: String,
    },
    /// A dtype that does not match the element type.
    #[error("{name}: dtype {found} cannot hold {what}; expected {expected}")]
    Dtype {
        /// The array's role.
        name: &'static str,
        /// The dtype found (numpy type string).
        found: String,
        /// What it should hold.
        what: String,
        /// The dtypes accepted.
        expected: &'static str,
    },
    /// Not a 2-D array.
    #[error("{name}: array of shape {shape:?}; a matrix must be 2-D")]
    Shape {
        /// The array's role.
        name: &'static str,
        /// The shape found.
        shape: Vec<u64>,
    },
    /// The values do not form a valid matrix.
    #[error(transparent)]
    Matrix(#[from] MatrixError),
}

/// The numpy type string without its byte-order character, e.g. `i1`, `f2`.
fn kind(dtype: &DType) -> Option<String> {
    match dtype {
        DType::Plain(t) => Some(
            t.to_string()
                .trim_start_matches(['<', '>', '|', '='])
                .to_string(),
        ),
        _ => None,
    }
}

/// A 2-D array's shape, order, dtype kind and file.
struct Array<'a> {
    rows: usize,
    cols: usize,
    order: Order,
    kind: String,
    display: String,
    file: NpyFile<&'a [u8]>,
}

fn open<'a>(name: &'static str, bytes: &'a [u8]) -> Result<Array<'a>, NpyError> {
    let file = NpyFile::new(bytes).map_err(|e| NpyError::Format {
        name,
        message: e.to_string(),
    })?;
    let shape = file.shape().to_vec();
    let &[rows, cols] = shape.as_slice() else {
        return Err(NpyError::Shape { name, shape });
    };
    let dims = usize::try_from(rows).ok().zip(usize::try_from(cols).ok());
    let Some((rows, cols)) = dims else {
        return Err(NpyError::Shape { name, shape });
    };
    let dtype = file.dtype();
    Ok(Array {
        rows,
        cols,
        order: file.order(),
        kind: kind(&dtype).unwrap_or_default(),
        display: match &dtype {
            DType::Plain(t) => t.to_string(),
            other => other.descr(),
        },
        file,
    })
}

impl Array<'_> {
    /// The elements in row-major order.
    fn values<T: npyz::Deserialize + Copy>(self, name: &'static str) -> Result<Vec<T>, NpyError> {
        let (rows, cols, order) = (self.rows, self.cols, self.order);
        let flat: Vec<T> = self.file.into_vec().map_err(|e| NpyError::Format {
            name,
            message: e.to_string(),
        })?;
        // rows · cols may overflow (npyz's own count wraps): then no file can match.
        if rows.checked_mul(cols) != Some(flat.len()) {
            return Err(NpyError::Format {
                name,
                message: format!(
                    "the file holds {} elements but its shape ({rows}, {cols}) says {}",
                    flat.len(),
                    (rows as u128) * (cols as u128)
                ),
            });
        }
        Ok(match order {
            Order::C => flat,
            Order::Fortran => (0..rows * cols)
                .map(|i| flat[(i % cols) * rows + i / cols])
                .collect(),
        })
    }

    fn dtype_error(&self, name: &'static str, what: String, expected: &'static str) -> NpyError {
        NpyError::Dtype {
            name,
            found: self.display.clone(),
            what,
            expected,
        }
    }
}

/// Reads A or B of precision `precision`.
pub fn element_matrix_from_npy(
    name: &'static str,
    bytes: &[u8],
    precision: Precision,
) -> Result<ElementMatrix, NpyError> {
    let arr = open(name, bytes)?;
    let (rows, cols) = (arr.rows, arr.cols);
    let what = format!("{precision} elements");
    if precision.is_integer() {
        let values: Vec<i32> = match arr.kind.as_str() {
            "i1" => arr.values::<i8>(name)?.into_iter().map(i32::from).collect(),
            "u1" => arr.values::<u8>(name)?.into_iter().map(i32::from).collect(),
            _ => return Err(arr.dtype_error(name, what, "int8 or uint8")),
        };
        let (min, max) = int_range(precision);
        if let Some(j) = values
            .iter()
            .position(|&v| i64::from(v) < min || i64::from(v) > max)
        {
            return Err(MatrixError::ElementRange {
                name,
                row: j / cols,
                col: j % cols,
                value: i64::from(values[j]),
                precision,
                min,
                max,
            }
            .into());
        }
        return Ok(ElementMatrix::from_ints(
            name, rows, cols, precision, &values,
        )?);
    }
    let bits: Vec<u32> = match (precision, arr.kind.as_str()) {
        (Precision::Fp16, "f2") => arr
            .values::<half::f16>(name)?
            .into_iter()
            .map(|v| u32::from(v.to_bits()))
            .collect(),
        (Precision::Bf16, "u2") => arr
            .values::<u16>(name)?
            .into_iter()
            .map(u32::from)
            .collect(),
        (Precision::Bf8 | Precision::Hf8, "u1") => {
            arr.values::<u8>(name)?.into_iter().map(u32::from).collect()
        }
        (Precision::Tf32, "f4") => arr
            .values::<f32>(name)?
            .into_iter()
            .map(f32::to_bits)
            .collect(),
        _ => {
            let expected = match precision {
                Precision::Fp16 => "float16",
                Precision::Bf16 => "uint16 (raw bf16 bits)",
                Precision::Tf32 => "float32",
                _ => "uint8 (raw fp8 bits)",
            };
            return Err(arr.dtype_error(name, what, expected));
        }
    };
    Ok(ElementMatrix::from_bits(name, rows, cols, precision, bits)?)
}

/// Reads C: int32 → D, uint32 → UD, float32 → F, uint16 → `half_type` (BF or HF, the 16-bit
/// accumulator of the multiplication), float16 → HF.
pub fn acc_matrix_from_npy(
    name: &'static str,
    bytes: &[u8],
    half_type: DataType,
) -> Result<AccMatrix, NpyError> {
    let arr = open(name, bytes)?;
    let (rows, cols) = (arr.rows, arr.cols);
    let (ty, bits): (DataType, Vec<u32>) = match arr.kind.as_str() {
        "i4" => (
            DataType::D,
            arr.values::<i32>(name)?
                .into_iter()
                .map(|v| v as u32)
                .collect(),
        ),
        "u4" => (DataType::Ud, arr.values::<u32>(name)?),
        "f4" => (
            DataType::F,
            arr.values::<f32>(name)?
                .into_iter()
                .map(f32::to_bits)
                .collect(),
        ),
        "u2" => (
            half_type,
            arr.values::<u16>(name)?
                .into_iter()
                .map(u32::from)
                .collect(),
        ),
        "f2" => (
            DataType::Hf,
            arr.values::<half::f16>(name)?
                .into_iter()
                .map(|v| u32::from(v.to_bits()))
                .collect(),
        ),
        _ => {
            return Err(arr.dtype_error(
                name,
                "accumulator elements".into(),
                "int32, uint32, float32, uint16 (BF/HF bits) or float16",
            ));
        }
    };
    Ok(AccMatrix::from_bits(name, rows, cols, ty, bits)?)
}
