//! A buffer binding as a NumPy array: the shape and dtype its block type gives
//! ([`crate::layout`]), and the `.npy` file of its bytes in that form.
//!
//! - A block of one member is that member (`{ float data[]; }` is a 1-D float array).
//! - A runtime array of T is a 1-D array of T, as long as the buffer holds whole elements
//!   (Vulkan's OpArrayLength: (bytes − offset) / stride).
//! - An array of arrays is n-D (outermost first); a vector of n is a last dimension of n; a
//!   column-major matrix is `[column][row]` (SPIR-V's indexing), a row-major one `[row][column]`
//!   (its memory order).
//! - A struct is a structured dtype with the member names (`m0`, `m1`, ... where OpMemberName
//!   gives none), each field at its Offset, padding as NumPy's unnamed `|V` fields (which
//!   `numpy.load` turns into gaps): the block itself, with its runtime array at the length the
//!   buffer gives, is one 0-d record.
//! - An array whose stride exceeds its element (std140's 16-byte stride of a float array) is
//!   a 1-D array of records with one field `value` and the padding.
//! - bf16 and fp8 elements are their bits (`<u2`, `|u1`), as everywhere in spvx.
//!
//! What has no NumPy form is refused by name (a boolean member, a 48-bit integer, a missing
//! Offset or ArrayStride, members that overlap): `--format bin` writes such a buffer.

use super::NpyError;
use crate::ElemType;
use crate::element::numpy_dtype;
use crate::layout::{LayoutKind, TypeLayout, matrix_lines};
use npyz::{DType, Field, TypeStr, WriterBuilder};

/// The base of a view: one element of its last dimension.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Base {
    /// A plain number.
    Plain(ElemType),
    /// A record: the dtype (with padding fields) and its size in bytes.
    Record { dtype: DType, itemsize: u64 },
}

impl Base {
    /// Bytes per element.
    pub fn size(&self) -> u64 {
        match self {
            Base::Plain(e) => e.size() as u64,
            Base::Record { itemsize, .. } => *itemsize,
        }
    }

    /// The dtype of one element.
    fn dtype(&self) -> DType {
        match self {
            Base::Plain(e) => plain(numpy_dtype(*e)),
            Base::Record { dtype, .. } => dtype.clone(),
        }
    }
}

/// A binding's bytes as an array: `shape` of `base`, covering the first
/// `product(shape) · base.size()` bytes of the buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    pub shape: Vec<u64>,
    pub base: Base,
}

/// Why a binding has no NumPy form.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ViewError {
    #[error("{what} ({type_name}) has no NumPy dtype")]
    NoDtype { what: String, type_name: String },
    #[error("{type_name} has no {decoration} decoration, so its bytes have no declared layout")]
    Undecorated {
        type_name: String,
        decoration: &'static str,
    },
    #[error("{type_name}: stride {stride} is smaller than its element's {size} bytes")]
    Overlap {
        type_name: String,
        stride: u64,
        size: u64,
    },
    #[error("member {member} of {type_name} overlaps the member before it")]
    MemberOverlap { type_name: String, member: String },
    #[error(
        "the buffer holds {bytes} bytes; its runtime array of {stride}-byte elements starts at byte {offset}, so the bytes are not whole elements"
    )]
    Ragged {
        bytes: u64,
        offset: u64,
        stride: u64,
    },
    #[error("the buffer holds {bytes} bytes, but its type ({type_name}) takes {size}")]
    Short {
        bytes: u64,
        type_name: String,
        size: u64,
    },
    #[error("{type_name} nests more than {MAX_FIELDS} fields")]
    TooLarge { type_name: String },
}

/// How many fields (including padding) a record may have: a bound on hostile types.
const MAX_FIELDS: usize = 65_536;

/// An intermediate piece: dimensions over a base.
struct Piece {
    dims: Vec<u64>,
    base: Base,
}

impl Piece {
    fn size(&self) -> u64 {
        self.dims.iter().product::<u64>() * self.base.size()
    }

    /// The dtype of the whole piece (sub-array dtypes for the dimensions).
    fn dtype(&self) -> DType {
        self.dims
            .iter()
            .rev()
            .fold(self.base.dtype(), |d, &n| DType::Array(n, Box::new(d)))
    }
}

fn plain(s: &str) -> DType {
    // The strings of `numpy_dtype` and `|V<n>` always parse.
    DType::Plain(
        s.parse::<TypeStr>()
            .unwrap_or_else(|_| unreachable!("dtype {s}")),
    )
}

fn padding(bytes: u64) -> Field {
    Field {
        name: String::new(),
        dtype: plain(&format!("|V{bytes}")),
    }
}

impl View {
    /// The view of a buffer of `bytes` bytes whose block type is `layout`.
    pub fn of(layout: &TypeLayout, bytes: u64) -> Result<View, ViewError> {
        // A block of one member at offset 0 is that member.
        let layout = match &layout.kind {
            LayoutKind::Struct { members }
                if members.len() == 1 && members[0].offset == Some(0) =>
            {
                &members[0].layout
            }
            _ => layout,
        };
        let runtime = match layout.runtime_tail() {
            Some((element, offset, stride)) => {
                let stride = stride.ok_or_else(|| ViewError::Undecorated {
                    type_name: element.type_name.clone(),
                    decoration: "ArrayStride (on its runtime array)",
                })?;
                let held = bytes.saturating_sub(offset);
                if stride == 0 || held % stride != 0 {
                    return Err(ViewError::Ragged {
                        bytes,
                        offset,
                        stride,
                    });
                }
                Some(held / stride)
            }
            None => None,
        };
        let piece = piece(layout, runtime, "the block")?;
        let view = match (&layout.kind, piece) {
            // A struct block is one record.
            (LayoutKind::Struct { .. }, p) => View {
                shape: Vec::new(),
                base: Base::Record {
                    dtype: p.dtype(),
                    itemsize: p.size(),
                },
            },
            (_, p) => View {
                shape: p.dims,
                base: p.base,
            },
        };
        let size = view.size();
        if bytes < size {
            return Err(ViewError::Short {
                bytes,
                type_name: layout.type_name.clone(),
                size,
            });
        }
        Ok(view)
    }

    /// The bytes the view covers.
    pub fn size(&self) -> u64 {
        self.shape.iter().product::<u64>() * self.base.size()
    }

    /// The `.npy` file of the first [`View::size`] bytes of `bytes`.
    pub fn write(&self, bytes: &[u8]) -> Result<Vec<u8>, NpyError> {
        let bytes = &bytes[..(self.size() as usize).min(bytes.len())];
        match &self.base {
            Base::Plain(e) => super::write_npy(*e, &self.shape, bytes),
            Base::Record { dtype, itemsize } => {
                let mut out = Vec::new();
                let mut w = npyz::WriteOptions::<RawRecord>::new()
                    .dtype(dtype.clone())
                    .shape(&self.shape)
                    .writer(&mut out)
                    .begin_nd()
                    .map_err(NpyError::Write)?;
                for record in bytes.chunks_exact(*itemsize as usize) {
                    w.push(&RawRecord(record)).map_err(NpyError::Write)?;
                }
                w.finish().map_err(NpyError::Write)?;
                Ok(out)
            }
        }
    }
}

/// The piece of `layout`; `runtime` is the length of the runtime array that ends it.
fn piece(layout: &TypeLayout, runtime: Option<u64>, what: &str) -> Result<Piece, ViewError> {
    let no_dtype = || ViewError::NoDtype {
        what: what.to_string(),
        type_name: layout.type_name.clone(),
    };
    match &layout.kind {
        LayoutKind::Scalar { elem: Some(e), .. } => Ok(Piece {
            dims: Vec::new(),
            base: Base::Plain(*e),
        }),
        LayoutKind::Scalar { elem: None, .. } | LayoutKind::Bool | LayoutKind::Other => {
            Err(no_dtype())
        }
        LayoutKind::Vector { component, count } => {
            let mut p = piece(component, None, what)?;
            p.dims.insert(0, u64::from(*count));
            Ok(p)
        }
        LayoutKind::Matrix {
            component,
            columns,
            rows,
            stride,
            row_major,
        } => {
            let (lines, per_line) = matrix_lines(*columns, *rows, *row_major);
            let mut line = piece(component, None, what)?;
            line.dims.insert(0, u64::from(per_line));
            let stride = stride.ok_or_else(|| ViewError::Undecorated {
                type_name: layout.type_name.clone(),
                decoration: "MatrixStride",
            })?;
            Ok(repeat(line, u64::from(lines), stride, &layout.type_name)?)
        }
        LayoutKind::Array {
            element,
            length,
            stride,
        } => {
            let n = length.or(runtime).ok_or_else(no_dtype)?;
            let stride = stride.ok_or_else(|| ViewError::Undecorated {
                type_name: layout.type_name.clone(),
                decoration: "ArrayStride",
            })?;
            let e = piece(element, None, what)?;
            repeat(e, n, stride, &layout.type_name)
        }
        LayoutKind::Struct { members } => {
            let mut order: Vec<usize> = (0..members.len()).collect();
            order.sort_by_key(|&i| members[i].offset);
            let mut fields = Vec::new();
            let mut end = 0u64;
            let mut names: Vec<String> = Vec::new();
            for (k, &i) in order.iter().enumerate() {
                let m = &members[i];
                let mut name = m.name.clone().unwrap_or_else(|| format!("m{i}"));
                if names.contains(&name) {
                    name = format!("{name}_{i}");
                }
                let offset = m.offset.ok_or_else(|| ViewError::Undecorated {
                    type_name: format!("member {name} of {}", layout.type_name),
                    decoration: "Offset",
                })?;
                if offset < end {
                    return Err(ViewError::MemberOverlap {
                        type_name: layout.type_name.clone(),
                        member: name,
                    });
                }
                if offset > end {
                    fields.push(padding(offset - end));
                }
                let last = k + 1 == order.len();
                let p = piece(
                    &m.layout,
                    if last { runtime } else { None },
                    &format!("member {name} of {}", layout.type_name),
                )?;
                end = offset + p.size();
                fields.push(Field {
                    name: name.clone(),
                    dtype: p.dtype(),
                });
                names.push(name);
                if fields.len() > MAX_FIELDS {
                    return Err(ViewError::TooLarge {
                        type_name: layout.type_name.clone(),
                    });
                }
            }
            Ok(Piece {
                dims: Vec::new(),
                base: Base::Record {
                    dtype: DType::Record(fields),
                    itemsize: end,
                },
            })
        }
    }
}

/// `n` copies of `e`, `stride` bytes apart: a new outer dimension when they are packed, else
/// records of one field `value` and the padding.
fn repeat(e: Piece, n: u64, stride: u64, type_name: &str) -> Result<Piece, ViewError> {
    let size = e.size();
    if stride < size {
        return Err(ViewError::Overlap {
            type_name: type_name.to_string(),
            stride,
            size,
        });
    }
    if stride == size {
        let mut dims = vec![n];
        dims.extend(e.dims);
        return Ok(Piece { dims, base: e.base });
    }
    let fields = vec![
        Field {
            name: "value".to_string(),
            dtype: e.dtype(),
        },
        padding(stride - size),
    ];
    Ok(Piece {
        dims: vec![n],
        base: Base::Record {
            dtype: DType::Record(fields),
            itemsize: stride,
        },
    })
}

/// One record's bytes, written as they are under any dtype of their size.
struct RawRecord<'a>(&'a [u8]);

struct RawWriter<'a> {
    size: usize,
    record: std::marker::PhantomData<RawRecord<'a>>,
}

impl<'a> npyz::TypeWrite for RawWriter<'a> {
    type Value = RawRecord<'a>;

    fn write_one<W: std::io::Write>(&self, mut w: W, value: &RawRecord<'a>) -> std::io::Result<()> {
        if value.0.len() != self.size {
            return Err(std::io::Error::other(format!(
                "a record of {} bytes for a dtype of {}",
                value.0.len(),
                self.size
            )));
        }
        w.write_all(value.0)
    }
}

impl<'a> npyz::Serialize for RawRecord<'a> {
    type TypeWriter = RawWriter<'a>;

    fn writer(dtype: &DType) -> Result<RawWriter<'a>, npyz::DTypeError> {
        let size = dtype
            .num_bytes()
            .ok_or_else(|| npyz::DTypeError::custom("a dtype without a fixed size"))?;
        Ok(RawWriter {
            size,
            record: std::marker::PhantomData,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::MemberLayout;

    fn ty(name: &str, kind: LayoutKind) -> TypeLayout {
        TypeLayout {
            type_name: name.to_string(),
            kind,
        }
    }

    fn f32() -> TypeLayout {
        ty(
            "%float",
            LayoutKind::Scalar {
                elem: Some(ElemType::F32),
                bytes: 4,
            },
        )
    }

    fn member(name: &str, offset: Option<u64>, layout: TypeLayout) -> MemberLayout {
        MemberLayout {
            name: Some(name.to_string()),
            offset,
            layout,
        }
    }

    fn block(members: Vec<MemberLayout>) -> TypeLayout {
        ty("%Block", LayoutKind::Struct { members })
    }

    #[test]
    fn what_has_no_numpy_form_is_named() {
        let b = block(vec![
            member("x", Some(0), f32()),
            member("flag", Some(4), ty("%bool", LayoutKind::Bool)),
        ]);
        assert_eq!(
            View::of(&b, 8).unwrap_err().to_string(),
            "member flag of %Block (%bool) has no NumPy dtype"
        );
        let b = block(vec![member("x", Some(0), f32()), member("y", None, f32())]);
        assert_eq!(
            View::of(&b, 8).unwrap_err().to_string(),
            "member y of %Block has no Offset decoration, so its bytes have no declared layout"
        );
        let b = block(vec![
            member("x", Some(0), f32()),
            member("y", Some(2), f32()),
        ]);
        assert_eq!(
            View::of(&b, 8).unwrap_err().to_string(),
            "member y of %Block overlaps the member before it"
        );
        let arr = ty(
            "%arr",
            LayoutKind::Array {
                element: Box::new(f32()),
                length: Some(4),
                stride: Some(2),
            },
        );
        assert_eq!(
            View::of(&block(vec![member("a", Some(0), arr)]), 16)
                .unwrap_err()
                .to_string(),
            "%arr: stride 2 is smaller than its element's 4 bytes"
        );
        let b = block(vec![
            member("x", Some(0), f32()),
            member("y", Some(8), f32()),
        ]);
        assert_eq!(
            View::of(&b, 11).unwrap_err().to_string(),
            "the buffer holds 11 bytes, but its type (%Block) takes 12"
        );
    }

    #[test]
    fn members_out_of_order_and_bytes_past_the_block() {
        // Members declared in another order than their offsets: fields in offset order.
        let b = block(vec![
            member("hi", Some(4), f32()),
            member("lo", Some(0), f32()),
        ]);
        let v = View::of(&b, 12).unwrap();
        assert!(v.shape.is_empty());
        let Base::Record { dtype, itemsize } = &v.base else {
            panic!("{v:?}")
        };
        assert_eq!(*itemsize, 8);
        assert_eq!(dtype.descr(), "[('lo', '<f4'), ('hi', '<f4'), ]");
        // Bytes past the block are not the block's: the view covers 8 of the 12.
        assert_eq!(v.size(), 8);
    }
}
