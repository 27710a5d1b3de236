//! `.npy` arrays ↔ DPAS matrices ([`ElementMatrix`], [`AccMatrix`]), with the element
//! conventions of `spvx dpas matmul`:
//!
//! | precision / type | array dtype |
//! |---|---|
//! | u1 … s8 (A, B) | int8 or uint8; each value must lie in the precision's range |
//! | hf (fp16) | float16 (`<f2`); with `raw`, also uint16/int16 bit patterns |
//! | bf (bf16) | ml_dtypes.bfloat16, which `np.save` writes as the 2-byte void `<V2`; with `raw`, also uint16/int16 bit patterns |
//! | bf8, hf8 | uint8 (raw bits) |
//! | tf32 | float32 (the fp32 container) |
//! | D / UD (C, D) | int32 / uint32 |
//! | F (C, D) | float32 |
//! | BF / HF (C, D) | uint16 (raw bits); float16 is also read as HF, `<V2` (ml_dtypes.bfloat16) as BF |
//!
//! Arrays must be 2-D; C (row-major) and Fortran order are both read; output is C order.
//! spvx-dpas itself takes and gives plain matrices; the files are this crate's business.

use super::{NpyArray, to_c_order, write};
use npyz::{DType, Order};
use spvx_dpas::matrix::{AccMatrix, ElementMatrix, int_range};
use spvx_dpas::{DataType, MatrixError, Precision};

/// Why an array cannot be used as a matrix.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NpyMatrixError {
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

/// NumPy's name of a dtype kind (`f2` → float16), for messages.
fn numpy_name(kind: &str) -> Option<&'static str> {
    Some(match kind {
        "i1" => "int8",
        "u1" => "uint8",
        "i2" => "int16",
        "u2" => "uint16",
        "i4" => "int32",
        "u4" => "uint32",
        "i8" => "int64",
        "u8" => "uint64",
        "f2" => "float16",
        "f4" => "float32",
        "f8" => "float64",
        "V2" => "2-byte void, as np.save writes ml_dtypes.bfloat16",
        _ => return None,
    })
}

/// A 2-D array's shape, order, dtype kind and file.
struct Array<'a> {
    rows: usize,
    cols: usize,
    order: Order,
    kind: String,
    display: String,
    file: NpyArray<'a>,
}

fn open<'a>(name: &'static str, bytes: &'a [u8]) -> Result<Array<'a>, NpyMatrixError> {
    let file = NpyArray::open(bytes).map_err(|e| NpyMatrixError::Format {
        name,
        message: e.to_string(),
    })?;
    let shape = file.shape().to_vec();
    let &[rows, cols] = shape.as_slice() else {
        return Err(NpyMatrixError::Shape { name, shape });
    };
    let dims = usize::try_from(rows).ok().zip(usize::try_from(cols).ok());
    let Some((rows, cols)) = dims else {
        return Err(NpyMatrixError::Shape { name, shape });
    };
    let dtype = file.dtype();
    Ok(Array {
        rows,
        cols,
        order: file.order(),
        kind: kind(&dtype).unwrap_or_default(),
        display: match (&dtype, kind(&dtype).as_deref().and_then(numpy_name)) {
            (DType::Plain(t), Some(numpy)) => format!("{t} ({numpy})"),
            (DType::Plain(t), None) => t.to_string(),
            (other, _) => other.descr(),
        },
        file,
    })
}

impl Array<'_> {
    /// The elements in row-major order.
    fn values<T: npyz::Deserialize + Copy>(
        self,
        name: &'static str,
    ) -> Result<Vec<T>, NpyMatrixError> {
        let (rows, cols, order) = (self.rows, self.cols, self.order);
        let flat: Vec<T> = self.file.into_flat().map_err(|e| NpyMatrixError::Format {
            name,
            message: e.to_string(),
        })?;
        // rows · cols may overflow (npyz's own count wraps): then no file can match.
        if rows.checked_mul(cols) != Some(flat.len()) {
            return Err(NpyMatrixError::Format {
                name,
                message: format!(
                    "the file holds {} elements but its shape ({rows}, {cols}) says {}",
                    flat.len(),
                    (rows as u128) * (cols as u128)
                ),
            });
        }
        Ok(to_c_order(flat, &[rows as u64, cols as u64], order))
    }

    fn dtype_error(
        &self,
        name: &'static str,
        what: String,
        expected: &'static str,
    ) -> NpyMatrixError {
        NpyMatrixError::Dtype {
            name,
            found: self.display.clone(),
            what,
            expected,
        }
    }
}

/// Reads A or B of precision `precision`, hf and bf elements also as uint16/int16 bit patterns
/// (the convention spvx-py's `dpas.matmul` documents: bf as uint16 bits); the same as
/// [`element_matrix_from_npy_raw`] with `raw` set. `spvx dpas matmul` asks for raw bits only
/// with `--raw`.
pub fn element_matrix_from_npy(
    name: &'static str,
    bytes: &[u8],
    precision: Precision,
) -> Result<ElementMatrix, NpyMatrixError> {
    element_matrix_from_npy_raw(name, bytes, precision, true)
}

/// Reads A or B of precision `precision`; with `raw`, hf and bf elements may also come as
/// uint16/int16 arrays of bit patterns (the user's explicit choice: such an array is not
/// checked to hold floats of that format).
pub fn element_matrix_from_npy_raw(
    name: &'static str,
    bytes: &[u8],
    precision: Precision,
    raw: bool,
) -> Result<ElementMatrix, NpyMatrixError> {
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
        (Precision::Bf16, "V2") => arr
            .values::<npyz::FixedSizeBytes<2>>(name)?
            .into_iter()
            .map(|v| u32::from(u16::from_le_bytes(v.0)))
            .collect(),
        (Precision::Bf16 | Precision::Fp16, "u2") if raw => arr
            .values::<u16>(name)?
            .into_iter()
            .map(u32::from)
            .collect(),
        (Precision::Bf16 | Precision::Fp16, "i2") if raw => arr
            .values::<i16>(name)?
            .into_iter()
            .map(|v| u32::from(v as u16))
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
            let expected = match (precision, raw) {
                (Precision::Fp16, false) => {
                    "float16 (<f2), or uint16/int16 bit patterns when raw bits are asked for"
                }
                (Precision::Fp16, true) => "float16 (<f2) or uint16/int16 bit patterns",
                (Precision::Bf16, false) => {
                    "bfloat16 (ml_dtypes.bfloat16, saved as <V2), or uint16/int16 bit patterns when raw bits are asked for"
                }
                (Precision::Bf16, true) => {
                    "bfloat16 (ml_dtypes.bfloat16, saved as <V2) or uint16/int16 bit patterns"
                }
                (Precision::Tf32, _) => "float32",
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
) -> Result<AccMatrix, NpyMatrixError> {
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
        "V2" => (
            DataType::Bf,
            arr.values::<npyz::FixedSizeBytes<2>>(name)?
                .into_iter()
                .map(|v| u32::from(u16::from_le_bytes(v.0)))
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
                "int32, uint32, float32, uint16 (BF/HF bits), float16 or bfloat16 (<V2)",
            ));
        }
    };
    Ok(AccMatrix::from_bits(name, rows, cols, ty, bits)?)
}

/// The `.npy` bytes of D: D → int32, UD → uint32, F → float32, BF/HF → uint16 bits (C order,
/// little-endian).
pub fn acc_matrix_to_npy(d: &AccMatrix) -> std::io::Result<Vec<u8>> {
    let shape = [d.rows() as u64, d.cols() as u64];
    let mut out = Vec::new();
    match d.ty() {
        DataType::D => write(&mut out, &shape, d.bits().iter().map(|&v| v as i32))?,
        DataType::Ud => write(&mut out, &shape, d.bits().iter().copied())?,
        DataType::F => write(
            &mut out,
            &shape,
            d.bits().iter().map(|&v| f32::from_bits(v)),
        )?,
        DataType::Bf | DataType::Hf => write(&mut out, &shape, d.bits().iter().map(|&v| v as u16))?,
        DataType::Df => {
            return Err(std::io::Error::other(
                "df accumulators are not held by AccMatrix",
            ));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::npy::buffer::tests::npy;

    #[test]
    fn int8_fortran_matrix_and_messages() {
        // [[1, -2, 3], [4, 5, -6]] stored column-major: 1 4 -2 5 3 -6.
        let data: Vec<u8> = [1i8, 4, -2, 5, 3, -6].iter().map(|&v| v as u8).collect();
        let a = element_matrix_from_npy("A", &npy("|i1", true, "(2, 3)", &data), Precision::S8)
            .unwrap();
        let want =
            ElementMatrix::from_ints("A", 2, 3, Precision::S8, &[1, -2, 3, 4, 5, -6]).unwrap();
        assert_eq!(a, want);
        // -2 is outside u4's range.
        let e = element_matrix_from_npy("A", &npy("|i1", true, "(2, 3)", &data), Precision::U4)
            .unwrap_err();
        assert!(matches!(e, NpyMatrixError::Matrix(_)), "{e}");
        let e = element_matrix_from_npy("B", &npy("<i4", false, "(1, 1)", &[0; 4]), Precision::S8)
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "B: dtype <i4 (int32) cannot hold s8 elements; expected int8 or uint8"
        );
        let e = acc_matrix_from_npy("C", &npy("<i4", false, "(4,)", &[0; 16]), DataType::Bf)
            .unwrap_err();
        assert_eq!(e.to_string(), "C: array of shape [4]; a matrix must be 2-D");
    }

    #[test]
    fn d_written_then_read() {
        let d = AccMatrix::from_bits("D", 1, 2, DataType::D, vec![7, u32::MAX]).unwrap();
        let file = acc_matrix_to_npy(&d).unwrap();
        let header = String::from_utf8_lossy(&file[10..]);
        assert!(header.contains("'<i4'"), "{header}");
        assert_eq!(acc_matrix_from_npy("C", &file, DataType::Bf).unwrap(), d);
    }
}
