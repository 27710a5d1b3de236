//! `.npy` arrays as buffer bytes: the elements in C (row-major) order, each little-endian,
//! whatever the file's byte order and memory order. Plain dtypes only: `b1` (as one byte 0/1),
//! `i1`…`i8`, `u1`…`u8`, `f2`, `f4`, `f8`. Writing: tensors after a run, with the dtype of
//! their element type (bf16 as `<u2` bits, e4m3/e5m2 as `|u1` bits: numpy has no such dtypes).

use super::{NpyArray, to_c_order, write};
use crate::ElemType;
use npyz::{DType, TypeChar};

/// The bytes of an array and the element type they hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NpyBytes {
    pub bytes: Vec<u8>,
    pub elem: ElemType,
    pub shape: Vec<u64>,
}

/// Why a `.npy` file cannot be read as buffer data, or written.
#[derive(Debug, thiserror::Error)]
pub enum NpyError {
    /// The header cannot be read.
    #[error("not a valid .npy file: {0}")]
    Invalid(#[source] std::io::Error),
    /// The product of the dimensions overflows.
    #[error("shape {0:?} has more than 2^64 elements (the product of its dimensions overflows)")]
    TooManyElements(Vec<u64>),
    /// A dtype that is not a plain number.
    #[error("dtype {0} is not supported (plain numbers only: b1, i1-i8, u1-u8, f2, f4, f8)")]
    Unsupported(String),
    /// The data cannot be read.
    #[error("cannot read the array data: {0}")]
    Data(#[source] std::io::Error),
    /// The data holds another number of elements than the shape says.
    #[error("the file holds {held} elements but its shape {shape:?} says {count}")]
    Count {
        held: usize,
        shape: Vec<u64>,
        count: u64,
    },
    /// Writing failed.
    #[error("cannot write .npy: {0}")]
    Write(#[source] std::io::Error),
}

/// The number of elements of a shape (`None` on overflow).
pub fn element_count(shape: &[u64]) -> Option<u64> {
    shape.iter().try_fold(1u64, |a, &d| a.checked_mul(d))
}

/// Reads a `.npy` file's elements as little-endian bytes in C order.
pub fn read_npy(file: &[u8]) -> Result<NpyBytes, NpyError> {
    let npy = NpyArray::open(file).map_err(NpyError::Invalid)?;
    let shape = npy.shape().to_vec();
    // Checked before reading: npyz multiplies the dimensions without overflow checks.
    let Some(count) = element_count(&shape) else {
        return Err(NpyError::TooManyElements(shape));
    };
    let order = npy.order();
    let dtype = npy.dtype();
    let DType::Plain(ts) = &dtype else {
        return Err(NpyError::Unsupported(dtype.descr()));
    };
    let io = NpyError::Data;
    let (elem, elements): (ElemType, Vec<u64>) = match (ts.type_char(), ts.size_field()) {
        (TypeChar::Bool, 1) => (ElemType::U8, widen(npy.into_flat::<bool>().map_err(io)?)),
        (TypeChar::Int, 1) => (ElemType::I8, widen(npy.into_flat::<i8>().map_err(io)?)),
        (TypeChar::Int, 2) => (ElemType::I16, widen(npy.into_flat::<i16>().map_err(io)?)),
        (TypeChar::Int, 4) => (ElemType::I32, widen(npy.into_flat::<i32>().map_err(io)?)),
        (TypeChar::Int, 8) => (ElemType::I64, widen(npy.into_flat::<i64>().map_err(io)?)),
        (TypeChar::Uint, 1) => (ElemType::U8, widen(npy.into_flat::<u8>().map_err(io)?)),
        (TypeChar::Uint, 2) => (ElemType::U16, widen(npy.into_flat::<u16>().map_err(io)?)),
        (TypeChar::Uint, 4) => (ElemType::U32, widen(npy.into_flat::<u32>().map_err(io)?)),
        (TypeChar::Uint, 8) => (ElemType::U64, widen(npy.into_flat::<u64>().map_err(io)?)),
        (TypeChar::Float, 2) => (
            ElemType::F16,
            widen(npy.into_flat::<half::f16>().map_err(io)?),
        ),
        (TypeChar::Float, 4) => (ElemType::F32, widen(npy.into_flat::<f32>().map_err(io)?)),
        (TypeChar::Float, 8) => (ElemType::F64, widen(npy.into_flat::<f64>().map_err(io)?)),
        _ => return Err(NpyError::Unsupported(ts.to_string())),
    };
    if count != elements.len() as u64 {
        return Err(NpyError::Count {
            held: elements.len(),
            shape,
            count,
        });
    }
    let elements = to_c_order(elements, &shape, order);
    let mut bytes = Vec::with_capacity(elements.len() * elem.size());
    for e in elements {
        elem.push_bytes(e, &mut bytes);
    }
    Ok(NpyBytes { bytes, elem, shape })
}

/// The `.npy` file of `bytes` (little-endian elements of `elem`, C order) with `shape`.
pub fn write_npy(elem: ElemType, shape: &[u64], bytes: &[u8]) -> Result<Vec<u8>, NpyError> {
    let size = elem.size();
    let n = bytes.len() / size;
    let bits = (0..n).map(|i| {
        let mut w = [0u8; 8];
        w[..size].copy_from_slice(&bytes[i * size..(i + 1) * size]);
        u64::from_le_bytes(w)
    });
    let mut out = Vec::new();
    let r = match elem {
        ElemType::U8 | ElemType::E4m3 | ElemType::E5m2 => {
            write(&mut out, shape, bits.map(|b| b as u8))
        }
        ElemType::I8 => write(&mut out, shape, bits.map(|b| b as u8 as i8)),
        ElemType::U16 | ElemType::Bf16 => write(&mut out, shape, bits.map(|b| b as u16)),
        ElemType::I16 => write(&mut out, shape, bits.map(|b| b as u16 as i16)),
        ElemType::U32 => write(&mut out, shape, bits.map(|b| b as u32)),
        ElemType::I32 => write(&mut out, shape, bits.map(|b| b as u32 as i32)),
        ElemType::U64 => write(&mut out, shape, bits),
        ElemType::I64 => write(&mut out, shape, bits.map(|b| b as i64)),
        ElemType::F16 => write(
            &mut out,
            shape,
            bits.map(|b| half::f16::from_bits(b as u16)),
        ),
        ElemType::F32 => write(&mut out, shape, bits.map(|b| f32::from_bits(b as u32))),
        ElemType::F64 => write(&mut out, shape, bits.map(f64::from_bits)),
    };
    r.map_err(NpyError::Write)?;
    Ok(out)
}

/// Element bits as u64 (the low bits of the element's width).
trait Bits: Copy {
    fn bits(self) -> u64;
}
macro_rules! bits_int {
    ($($t:ty => $u:ty),*) => {$(impl Bits for $t { fn bits(self) -> u64 { self as $u as u64 } })*};
}
bits_int!(i8 => u8, i16 => u16, i32 => u32, i64 => u64, u8 => u8, u16 => u16, u32 => u32, u64 => u64);
impl Bits for bool {
    fn bits(self) -> u64 {
        u64::from(self)
    }
}
impl Bits for half::f16 {
    fn bits(self) -> u64 {
        u64::from(self.to_bits())
    }
}
impl Bits for f32 {
    fn bits(self) -> u64 {
        u64::from(self.to_bits())
    }
}
impl Bits for f64 {
    fn bits(self) -> u64 {
        self.to_bits()
    }
}

fn widen<T: Bits>(v: Vec<T>) -> Vec<u64> {
    v.into_iter().map(Bits::bits).collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A version-1 .npy file written by hand (the format of numpy's `format.py`).
    pub(crate) fn npy(descr: &str, fortran: bool, shape: &str, data: &[u8]) -> Vec<u8> {
        let mut header = format!(
            "{{'descr': '{descr}', 'fortran_order': {}, 'shape': {shape}, }}",
            if fortran { "True" } else { "False" }
        );
        while (10 + header.len() + 1) % 64 != 0 {
            header.push(' ');
        }
        header.push('\n');
        let mut out = b"\x93NUMPY\x01\x00".to_vec();
        out.extend_from_slice(&(header.len() as u16).to_le_bytes());
        out.extend_from_slice(header.as_bytes());
        out.extend_from_slice(data);
        out
    }

    #[test]
    fn big_endian_fortran_int16() {
        // [[1, 2, 3], [4, 5, 6]] stored column-major, big-endian: 1 4 2 5 3 6.
        let data: Vec<u8> = [1i16, 4, 2, 5, 3, 6]
            .iter()
            .flat_map(|v| v.to_be_bytes())
            .collect();
        let got = read_npy(&npy(">i2", true, "(2, 3)", &data)).unwrap();
        assert_eq!(got.elem, ElemType::I16);
        assert_eq!(got.bytes, [1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0]);
        assert_eq!(got.shape, [2, 3]);
    }

    #[test]
    fn write_then_read() {
        let bytes = [1u8, 0, 0xff, 0xff, 3, 0];
        let file = write_npy(ElemType::I16, &[3], &bytes).unwrap();
        // The header says little-endian int16 of shape (3,).
        let header = String::from_utf8_lossy(&file[10..]);
        assert!(
            header.contains("'<i2'") && header.contains("'shape': (3, )"),
            "{header}"
        );
        assert_eq!(&file[file.len() - 6..], &bytes);
        let back = read_npy(&file).unwrap();
        assert_eq!(
            (back.elem, back.bytes, back.shape),
            (ElemType::I16, bytes.to_vec(), vec![3])
        );
    }

    #[test]
    fn f16_and_errors() {
        let got = read_npy(&npy("<f2", false, "(2,)", &[0x00, 0x3c, 0x00, 0xc0])).unwrap();
        assert_eq!(got.elem, ElemType::F16);
        assert_eq!(got.bytes, [0x00, 0x3c, 0x00, 0xc0]);
        assert!(read_npy(b"not npy").is_err());
        let e = read_npy(&npy("<c8", false, "(1,)", &[0; 8])).unwrap_err();
        assert_eq!(
            e.to_string(),
            "dtype <c8 is not supported (plain numbers only: b1, i1-i8, u1-u8, f2, f4, f8)"
        );
        let e = read_npy(&npy("<i4", false, "(3,)", &[0; 8])).unwrap_err();
        assert!(
            e.to_string().starts_with("cannot read the array data"),
            "{e}"
        );
        // 2^32 · 2^32 · 2^32 elements: the shape's product overflows u64.
        let huge = "(4294967296, 4294967296, 4294967296)";
        let e = read_npy(&npy("<i4", false, huge, &[0; 8])).unwrap_err();
        assert!(e.to_string().contains("more than 2^64 elements"), "{e}");
    }
}
