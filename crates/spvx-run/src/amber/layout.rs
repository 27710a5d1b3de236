//! Amber data types (AmberScript names, Vulkan format names, VkScript names) and their bytes
//! in a buffer: a scalar element type ([`ElemType`]) with
//! `rows` components per column and `cols` columns; the buffer is an array of them, laid out
//! by Amber's rules (std430 by default, std140 on request, packed for `FORMAT` texel formats):
//!
//! - a column of 1 component takes its size (std140: 16 bytes);
//! - a column of 2 components takes 2 sizes; of 3 or 4, 4 sizes (a vec3 has one padding
//!   component); std140 rounds a column up to 16 bytes;
//! - a matrix is `cols` columns, each at that column stride (column-major);
//! - packed (`FORMAT`): components one after another, no padding.
//!
//! Values are given for the components only, never for padding (which is zero).

use crate::ElemType;
use crate::layout::{LayoutKind, TypeLayout};
use spvx_num::element::ElemError;

/// How a buffer's elements are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    Std430,
    Std140,
    Packed,
}

/// An Amber data type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataType {
    pub elem: ElemType,
    /// Components per column (vector size; 1 for scalars).
    pub rows: u32,
    /// Columns (1 unless a matrix).
    pub cols: u32,
}

impl DataType {
    /// An AmberScript `DATA_TYPE` name: `int8`…`uint64`, `float16`, `float`, `double`,
    /// `vecN<T>`, `matCxR<T>`.
    pub fn amber(name: &str) -> Option<DataType> {
        if let Some(rest) = name.strip_prefix("vec") {
            let (n, inner) = rest.split_once('<')?;
            let inner = inner.strip_suffix('>')?;
            let rows: u32 = n.parse().ok().filter(|n| (2..=4).contains(n))?;
            let s = DataType::amber(inner).filter(|t| t.rows == 1 && t.cols == 1)?;
            return Some(DataType { rows, ..s });
        }
        if let Some(rest) = name.strip_prefix("mat") {
            let (n, inner) = rest.split_once('<')?;
            let inner = inner.strip_suffix('>')?;
            let (c, r) = n.split_once('x')?;
            let cols: u32 = c.parse().ok().filter(|n| (2..=4).contains(n))?;
            let rows: u32 = r.parse().ok().filter(|n| (2..=4).contains(n))?;
            let s = DataType::amber(inner).filter(|t| t.rows == 1 && t.cols == 1)?;
            return Some(DataType { rows, cols, ..s });
        }
        let elem = match name {
            "int8" => ElemType::I8,
            "int16" => ElemType::I16,
            "int32" => ElemType::I32,
            "int64" => ElemType::I64,
            "uint8" => ElemType::U8,
            "uint16" => ElemType::U16,
            "uint32" => ElemType::U32,
            "uint64" => ElemType::U64,
            "float16" => ElemType::F16,
            "float" => ElemType::F32,
            "double" => ElemType::F64,
            _ => return None,
        };
        Some(DataType {
            elem,
            rows: 1,
            cols: 1,
        })
    }

    /// A Vulkan format name whose components are all `_UINT`, `_SINT` or `_SFLOAT` of one
    /// width (`R32_SFLOAT`, `R8G8B8A8_UINT`, `R32G32B32A32_SINT`); None for any other.
    pub fn format(name: &str) -> Option<DataType> {
        let (comps, kind) = name.split_once('_')?;
        let mut rows = 0;
        let mut width = None;
        let mut rest = comps;
        for ch in ['R', 'G', 'B', 'A'] {
            let Some(r) = rest.strip_prefix(ch) else {
                break;
            };
            let digits: String = r.chars().take_while(char::is_ascii_digit).collect();
            let w: u32 = digits.parse().ok()?;
            if width.is_some_and(|x| x != w) {
                return None;
            }
            width = Some(w);
            rows += 1;
            rest = &r[digits.len()..];
        }
        if !rest.is_empty() || rows == 0 {
            return None;
        }
        let elem = match (kind, width?) {
            ("UINT", 8) => ElemType::U8,
            ("UINT", 16) => ElemType::U16,
            ("UINT", 32) => ElemType::U32,
            ("UINT", 64) => ElemType::U64,
            ("SINT", 8) => ElemType::I8,
            ("SINT", 16) => ElemType::I16,
            ("SINT", 32) => ElemType::I32,
            ("SINT", 64) => ElemType::I64,
            ("SFLOAT", 16) => ElemType::F16,
            ("SFLOAT", 32) => ElemType::F32,
            ("SFLOAT", 64) => ElemType::F64,
            _ => return None,
        };
        Some(DataType {
            elem,
            rows,
            cols: 1,
        })
    }

    /// A VkScript data type name (`int`, `uint8_t`, `vec3`, `i16vec2`, `dmat2x3`, …).
    pub fn vkscript(name: &str) -> Option<DataType> {
        let scalar = |elem| DataType {
            elem,
            rows: 1,
            cols: 1,
        };
        let base = |prefix: &str| -> Option<ElemType> {
            Some(match prefix {
                "" => ElemType::F32,
                "d" => ElemType::F64,
                "i" => ElemType::I32,
                "u" => ElemType::U32,
                "i8" => ElemType::I8,
                "u8" => ElemType::U8,
                "i16" => ElemType::I16,
                "u16" => ElemType::U16,
                "i64" => ElemType::I64,
                "u64" => ElemType::U64,
                "f16" => ElemType::F16,
                _ => return None,
            })
        };
        let t = match name {
            "int" => scalar(ElemType::I32),
            "uint" => scalar(ElemType::U32),
            "int8_t" => scalar(ElemType::I8),
            "uint8_t" => scalar(ElemType::U8),
            "int16_t" => scalar(ElemType::I16),
            "uint16_t" => scalar(ElemType::U16),
            "int64_t" => scalar(ElemType::I64),
            "uint64_t" => scalar(ElemType::U64),
            "float16_t" => scalar(ElemType::F16),
            "float" => scalar(ElemType::F32),
            "double" => scalar(ElemType::F64),
            _ => {
                if let Some(i) = name.find("vec") {
                    let elem = base(&name[..i])?;
                    let rows: u32 = name[i + 3..].parse().ok().filter(|n| (2..=4).contains(n))?;
                    return Some(DataType {
                        elem,
                        rows,
                        cols: 1,
                    });
                }
                let i = name.find("mat")?;
                let elem =
                    base(&name[..i]).filter(|e| matches!(e, ElemType::F32 | ElemType::F64))?;
                let dims = &name[i + 3..];
                let (cols, rows) = match dims.split_once('x') {
                    Some((c, r)) => (c.parse().ok()?, r.parse().ok()?),
                    None => {
                        let n: u32 = dims.parse().ok()?;
                        (n, n)
                    }
                };
                if !(2..=4).contains(&cols) || !(2..=4).contains(&rows) {
                    return None;
                }
                return Some(DataType { elem, rows, cols });
            }
        };
        Some(t)
    }

    /// Components with values per element.
    pub fn components(&self) -> usize {
        (self.rows * self.cols) as usize
    }

    /// Bytes from one column to the next.
    pub fn column_stride(&self, layout: Layout) -> usize {
        let s = self.elem.size();
        let r = self.rows as usize;
        match layout {
            Layout::Packed => r * s,
            Layout::Std430 | Layout::Std140 => {
                let base = if r == 1 {
                    s
                } else if r == 2 {
                    2 * s
                } else {
                    4 * s
                };
                if layout == Layout::Std140 {
                    base.div_ceil(16) * 16
                } else {
                    base
                }
            }
        }
    }

    /// The buffer as a type: a runtime array of this type at its stride (a column a vector,
    /// a matrix column-major at the column stride) — the form `spvx amber --out --format npy`
    /// writes through [`crate::npy::view`].
    pub fn type_layout(&self, layout: Layout) -> TypeLayout {
        let scalar = TypeLayout {
            type_name: self.elem.to_string(),
            kind: LayoutKind::Scalar {
                elem: Some(self.elem),
                bytes: self.elem.size() as u64,
            },
        };
        let element = match (self.rows, self.cols) {
            (1, 1) => scalar,
            (rows, 1) => TypeLayout {
                type_name: format!("vec{rows}<{}>", self.elem),
                kind: LayoutKind::Vector {
                    component: Box::new(scalar),
                    count: rows,
                },
            },
            (rows, cols) => TypeLayout {
                type_name: format!("mat{cols}x{rows}<{}>", self.elem),
                kind: LayoutKind::Matrix {
                    component: Box::new(scalar),
                    columns: cols,
                    rows,
                    stride: Some(self.column_stride(layout) as u64),
                    row_major: false,
                },
            },
        };
        TypeLayout {
            type_name: format!("{}[]", element.type_name),
            kind: LayoutKind::Array {
                element: Box::new(element),
                length: None,
                stride: Some(self.stride(layout) as u64),
            },
        }
    }

    /// Bytes from one element of the buffer to the next.
    pub fn stride(&self, layout: Layout) -> usize {
        self.column_stride(layout) * self.cols as usize
    }

    /// The byte offset of component `k` (counted over the whole buffer, padding skipped).
    pub fn component_offset(&self, layout: Layout, k: usize) -> usize {
        let n = self.components();
        let (element, c) = (k / n, k % n);
        let (col, row) = (c / self.rows as usize, c % self.rows as usize);
        element * self.stride(layout) + col * self.column_stride(layout) + row * self.elem.size()
    }

    /// The bytes of `bits` (one per component), a whole number of elements.
    pub fn encode(&self, layout: Layout, bits: &[u64]) -> Vec<u8> {
        let elements = bits.len().div_ceil(self.components());
        let mut out = vec![0u8; elements * self.stride(layout)];
        let size = self.elem.size();
        for (k, b) in bits.iter().enumerate() {
            let at = self.component_offset(layout, k);
            out[at..at + size].copy_from_slice(&b.to_le_bytes()[..size]);
        }
        out
    }

    /// The bits of one value written as text. An integer type also takes a decimal whose
    /// fraction is all zeros (`0.0`, `-3.00`: Amber's own scripts `FILL` integer buffers so);
    /// any other fraction stays an error.
    ///
    /// An integer value may also lie in the range of the other signedness of the same width
    /// (`218` or `-1` for an 8-bit type: -128..=255): its two's-complement bits are meant,
    /// as Amber writes them (the CTS writes int8 results as 0..255); one outside both ranges
    /// stays an error.
    pub fn value(&self, text: &str) -> Result<u64, ElemError> {
        if self.elem.float_format().is_some() {
            return self.elem.encode_text(text);
        }
        let text = integral_decimal(text).unwrap_or(text);
        self.elem.encode_text(text).or_else(|e| {
            let width = self.elem.bits();
            let v: i128 = text.trim().parse().map_err(|_| e.clone())?;
            let lo = -(1i128 << (width - 1));
            let hi = (1i128 << width) - 1;
            if (lo..=hi).contains(&v) {
                Ok((v as u128 & ((1u128 << width) - 1)) as u64)
            } else {
                Err(e)
            }
        })
    }
}

/// The integer part of `[+-]digits.zeros` (at least one digit before the point), if `text` is
/// one.
fn integral_decimal(text: &str) -> Option<&str> {
    let (whole, frac) = text.split_once('.')?;
    let digits = whole.strip_prefix(['-', '+']).unwrap_or(whole);
    let ok = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && frac.bytes().all(|b| b == b'0');
    ok.then_some(whole)
}

/// A number read from a buffer or a script, for the ordered comparisons.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    Int(i128),
    Float(f64),
}

/// The number the bits of one `elem` element hold.
pub fn number(elem: ElemType, bits: u64) -> Number {
    match elem.float_format() {
        Some(f) => Number::Float(f.to_f64(bits)),
        None if elem.is_signed_int() => {
            let shift = 64 - elem.bits();
            Number::Int(i128::from(((bits << shift) as i64) >> shift))
        }
        None => Number::Int(i128::from(bits)),
    }
}

impl Number {
    pub fn as_f64(self) -> f64 {
        match self {
            Number::Int(i) => i as f64,
            Number::Float(f) => f,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_types_take_zero_fractions_only() {
        let i8t = DataType::amber("int8").expect("type");
        assert_eq!(i8t.value("0.0").ok(), Some(0));
        assert_eq!(i8t.value("-3.00").ok(), Some(0xfd));
        assert_eq!(i8t.value("+7.").ok(), Some(7));
        assert!(i8t.value("0.5").is_err());
        assert!(i8t.value(".0").is_err());
        assert!(i8t.value("300.0").is_err());
        // Either signedness of the width: the two's-complement bits.
        assert_eq!(i8t.value("218").ok(), Some(0xda));
        assert_eq!(i8t.value("255").ok(), Some(0xff));
        assert!(i8t.value("256").is_err());
        assert!(i8t.value("-129").is_err());
        let u16t = DataType::amber("uint16").expect("type");
        assert_eq!(u16t.value("-1").ok(), Some(0xffff));
        assert!(u16t.value("-32769").is_err());
        let u64t = DataType::amber("uint64").expect("type");
        assert_eq!(u64t.value("-1").ok(), Some(u64::MAX));
        let f = DataType::amber("float").expect("type");
        assert_eq!(f.value("0.5").ok(), Some(0x3f00_0000));
    }

    #[test]
    fn std430_pads_vec3_and_std140_rounds_to_16() {
        let v3 = DataType::amber("vec3<float>").expect("type");
        assert_eq!(v3.stride(Layout::Std430), 16);
        assert_eq!(v3.stride(Layout::Packed), 12);
        let f = DataType::amber("float").expect("type");
        assert_eq!(f.stride(Layout::Std430), 4);
        assert_eq!(f.stride(Layout::Std140), 16);
        let m = DataType::amber("mat2x3<float>").expect("type");
        assert_eq!((m.cols, m.rows), (2, 3));
        assert_eq!(m.stride(Layout::Std430), 32);
        let m2 = DataType::amber("mat2x2<float>").expect("type");
        assert_eq!(m2.stride(Layout::Std430), 16);
        assert_eq!(m2.stride(Layout::Std140), 32);
        // Component 3 of vec3<float> std430 is element 1's x, at byte 16; component 4 its y.
        assert_eq!(v3.component_offset(Layout::Std430, 3), 16);
        assert_eq!(v3.component_offset(Layout::Std430, 4), 20);
        let bytes = v3.encode(Layout::Std430, &[1, 2, 3]);
        assert_eq!(bytes.len(), 16);
        assert_eq!(bytes[8], 3);
    }

    #[test]
    fn formats_of_one_component_type() {
        let t = DataType::format("R32G32B32A32_SFLOAT").expect("format");
        assert_eq!((t.elem, t.rows), (ElemType::F32, 4));
        assert_eq!(
            DataType::format("R8_SINT").map(|t| t.elem),
            Some(ElemType::I8)
        );
        assert!(DataType::format("R8G8B8A8_UNORM").is_none());
        assert!(DataType::format("R16G8_UINT").is_none());
    }

    #[test]
    fn vkscript_type_names() {
        let t = |n| DataType::vkscript(n).map(|t| (t.elem, t.rows, t.cols));
        assert_eq!(t("uint"), Some((ElemType::U32, 1, 1)));
        assert_eq!(t("int16_t"), Some((ElemType::I16, 1, 1)));
        assert_eq!(t("vec3"), Some((ElemType::F32, 3, 1)));
        assert_eq!(t("i8vec2"), Some((ElemType::I8, 2, 1)));
        assert_eq!(t("u64vec4"), Some((ElemType::U64, 4, 1)));
        assert_eq!(t("mat3"), Some((ElemType::F32, 3, 3)));
        assert_eq!(t("dmat2x3"), Some((ElemType::F64, 3, 2)));
        assert_eq!(t("vec"), None);
        assert_eq!(t("vec5"), None);
        assert_eq!(t("imat2"), None);
    }
}
