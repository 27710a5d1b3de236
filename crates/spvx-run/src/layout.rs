//! The memory layout of a block type as the module declares it: member offsets (`Offset`),
//! array strides (`ArrayStride`), matrix strides and majorness (`MatrixStride`, `RowMajor`,
//! on the struct member that holds the matrix), member names (`OpMemberName`). Read by
//! `spvx reflect` (strides, sizes, push-constant members) and by the `.npy` view of a buffer
//! ([`crate::npy::view`]).
//!
//! Nothing is computed that the module does not say: a block in Vulkan's StorageBuffer,
//! Uniform and PushConstant storage classes must carry these decorations (Vulkan's
//! "Offset and Stride Assignment"), so a missing one is reported as unknown (`None`), not
//! filled in by a rule. Decoration numbers come from the grammar.

use crate::ElemType;
use serde::Serialize;
use spvx_spirv::grammar::grammar;
use spvx_spirv::index::{ModuleIndex, Type};
use spvx_spirv::instruction::Id;
use spvx_spirv::op::Op;
use std::sync::LazyLock;

/// How deep a type may nest before [`TypeLayout::of`] stops (a cycle through forward pointers
/// cannot reach here, as pointers are leaves; this bounds hostile nesting).
const MAX_DEPTH: u32 = 64;

/// A type's layout.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TypeLayout {
    /// The type as the disassembler names it (`%float`, `%_arr_uint_uint_4`).
    pub type_name: String,
    #[serde(flatten)]
    pub kind: LayoutKind,
}

/// The shape of a type.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LayoutKind {
    /// An integer or float: `elem` when spvx has an element type for it.
    Scalar {
        #[serde(serialize_with = "elem_name")]
        elem: Option<ElemType>,
        bytes: u64,
    },
    /// A boolean (no defined memory representation in an explicitly laid-out block).
    Bool,
    /// A vector: its components packed.
    Vector {
        component: Box<TypeLayout>,
        count: u32,
    },
    /// A matrix of `columns` column vectors of `rows` components; `stride` is the MatrixStride
    /// (bytes between columns, or between rows when `row_major`).
    Matrix {
        component: Box<TypeLayout>,
        columns: u32,
        rows: u32,
        stride: Option<u64>,
        row_major: bool,
    },
    /// An array; `length` is `None` for a runtime array, `stride` the ArrayStride.
    Array {
        element: Box<TypeLayout>,
        length: Option<u64>,
        stride: Option<u64>,
    },
    /// A struct.
    Struct { members: Vec<MemberLayout> },
    /// Anything else (pointers, images, tensors, opaque types, a nesting too deep).
    Other,
}

/// An element type as its name (`f32`), in JSON.
fn elem_name<S: serde::Serializer>(elem: &Option<ElemType>, s: S) -> Result<S::Ok, S::Error> {
    match elem {
        Some(e) => s.serialize_some(&e.to_string()),
        None => s.serialize_none(),
    }
}

/// One member of a struct.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MemberLayout {
    /// The OpMemberName, if any (and not empty).
    pub name: Option<String>,
    pub offset: Option<u64>,
    #[serde(flatten)]
    pub layout: TypeLayout,
}

/// Decoration numbers, looked up in the grammar by name.
struct Decorations {
    offset: u32,
    array_stride: u32,
    matrix_stride: u32,
    row_major: u32,
}

static DECORATIONS: LazyLock<Decorations> = LazyLock::new(|| {
    let g = grammar();
    let value = |name: &str| {
        g.kind_by_name("Decoration")
            .and_then(|k| g.kind(k).enumerant_by_name(name))
            .map_or(u32::MAX, |e| e.value)
    };
    Decorations {
        offset: value("Offset"),
        array_stride: value("ArrayStride"),
        matrix_stride: value("MatrixStride"),
        row_major: value("RowMajor"),
    }
});

/// The literals of the `OpMemberDecorate` of member `member` of `strukt` with `decoration`.
fn member_decoration(
    ix: &ModuleIndex,
    strukt: Id,
    member: u32,
    decoration: u32,
) -> Option<Vec<u32>> {
    ix.member_decoration(strukt, member, decoration)
        .map(|i| i.operands.iter().skip(3).filter_map(|o| o.word()).collect())
}

/// The OpMemberName of member `member` of `strukt`.
fn member_name(ix: &ModuleIndex, strukt: Id, member: u32) -> Option<String> {
    ix.insts
        .iter()
        .filter(|i| i.opcode == Op::MemberName)
        .find(|i| {
            i.operands.first().and_then(|o| o.id()) == Some(strukt)
                && i.operands.get(1).and_then(|o| o.word()) == Some(member)
        })
        .and_then(|i| i.operands.get(2)?.string())
        .filter(|n| !n.is_empty())
        .map(str::to_string)
}

/// The matrix decorations a struct member passes down (through arrays) to its matrices.
#[derive(Clone, Copy, Default)]
struct MatrixDeco {
    stride: Option<u64>,
    row_major: bool,
}

impl TypeLayout {
    /// The layout of type `t`.
    pub fn of(ix: &ModuleIndex, t: Id) -> TypeLayout {
        Self::with(ix, t, MatrixDeco::default(), 0)
    }

    fn with(ix: &ModuleIndex, t: Id, m: MatrixDeco, depth: u32) -> TypeLayout {
        let d = &*DECORATIONS;
        let type_name = ix.name(t);
        let sub = |t: Id, m: MatrixDeco| Box::new(Self::with(ix, t, m, depth + 1));
        let kind = match ix.ty(t) {
            _ if depth > MAX_DEPTH => LayoutKind::Other,
            Some(ty @ (Type::Int { width, .. } | Type::Float { width, .. })) => {
                LayoutKind::Scalar {
                    elem: spvx_vk::reflect::elem_of(ty),
                    bytes: u64::from(*width).div_ceil(8),
                }
            }
            Some(Type::Bool) => LayoutKind::Bool,
            Some(Type::Vector { component, count }) => LayoutKind::Vector {
                component: sub(*component, m),
                count: *count,
            },
            Some(Type::Matrix { column, count }) => match ix.ty(*column) {
                Some(Type::Vector {
                    component,
                    count: rows,
                }) => LayoutKind::Matrix {
                    component: sub(*component, MatrixDeco::default()),
                    columns: *count,
                    rows: *rows,
                    stride: m.stride,
                    row_major: m.row_major,
                },
                _ => LayoutKind::Other,
            },
            Some(Type::Array { element, length }) => LayoutKind::Array {
                element: sub(*element, m),
                length: ix.const_u64(*length),
                stride: ix.decoration_literal(t, d.array_stride).map(u64::from),
            },
            Some(Type::RuntimeArray { element }) => LayoutKind::Array {
                element: sub(*element, m),
                length: None,
                stride: ix.decoration_literal(t, d.array_stride).map(u64::from),
            },
            Some(Type::Struct { members }) => LayoutKind::Struct {
                members: members
                    .iter()
                    .enumerate()
                    .map(|(i, &mt)| {
                        let i = i as u32;
                        let literal = |deco| {
                            member_decoration(ix, t, i, deco).and_then(|w| w.first().copied())
                        };
                        let m = MatrixDeco {
                            stride: literal(d.matrix_stride).map(u64::from),
                            row_major: member_decoration(ix, t, i, d.row_major).is_some(),
                        };
                        MemberLayout {
                            name: member_name(ix, t, i),
                            offset: literal(d.offset).map(u64::from),
                            layout: *sub(mt, m),
                        }
                    })
                    .collect(),
            },
            _ => LayoutKind::Other,
        };
        TypeLayout { type_name, kind }
    }

    /// The bytes the type takes: for a struct, the end of its last-ending member (the
    /// smallest buffer that holds it); `None` for a runtime array (or a struct ending in
    /// one), a boolean, an opaque type, or a missing decoration.
    pub fn size(&self) -> Option<u64> {
        match &self.kind {
            LayoutKind::Scalar { bytes, .. } => Some(*bytes),
            LayoutKind::Vector { component, count } => {
                component.size()?.checked_mul(u64::from(*count))
            }
            LayoutKind::Matrix {
                component,
                columns,
                rows,
                stride,
                row_major,
            } => {
                // The last column (row) starts at stride · (n − 1) and holds its packed
                // components.
                let (lines, per_line) = matrix_lines(*columns, *rows, *row_major);
                let last = stride.unwrap_or(0).checked_mul(u64::from(lines) - 1)?;
                last.checked_add(component.size()?.checked_mul(u64::from(per_line))?)
                    .filter(|_| stride.is_some() || lines == 1)
            }
            LayoutKind::Array {
                length: Some(n),
                stride: Some(s),
                ..
            } => s.checked_mul(*n),
            LayoutKind::Array { .. } | LayoutKind::Bool | LayoutKind::Other => None,
            LayoutKind::Struct { members } => members.iter().try_fold(0u64, |end, m| {
                Some(end.max(m.offset?.checked_add(m.layout.size()?)?))
            }),
        }
    }

    /// The runtime array that ends this type, if it does: its element's layout, the offset at
    /// which it starts (within this type) and its stride.
    pub fn runtime_tail(&self) -> Option<(&TypeLayout, u64, Option<u64>)> {
        match &self.kind {
            LayoutKind::Array {
                element,
                length: None,
                stride,
            } => Some((element, 0, *stride)),
            LayoutKind::Struct { members } => {
                let last = members.last()?;
                let (e, off, stride) = last.layout.runtime_tail()?;
                Some((e, last.offset? + off, stride))
            }
            _ => None,
        }
    }
}

/// How a matrix of `columns` × `rows` is stored: as lines (its columns, or its rows when
/// row-major) MatrixStride apart, and the packed components of each line.
pub fn matrix_lines(columns: u32, rows: u32, row_major: bool) -> (u32, u32) {
    if row_major {
        (rows, columns)
    } else {
        (columns, rows)
    }
}

/// The block layout of every buffer binding (StorageBuffer and Uniform variables), by (set,
/// binding): for an array of buffers, the layout of one element's block.
pub fn buffer_layouts(ix: &ModuleIndex) -> std::collections::BTreeMap<(u32, u32), TypeLayout> {
    ix.resource_variables()
        .into_iter()
        .filter(|v| crate::element::is_buffer_class(v.storage_class))
        .filter_map(|v| {
            Some((
                (v.set, v.binding),
                TypeLayout::of(ix, block_of(ix, v.pointee?)),
            ))
        })
        .collect()
}

/// The block of a binding's pointee: the element of an array of blocks (an array of
/// buffers), else the pointee itself.
pub fn block_of(ix: &ModuleIndex, pointee: Id) -> Id {
    match ix.ty(pointee) {
        Some(Type::Array { element, .. } | Type::RuntimeArray { element })
            if matches!(ix.ty(*element), Some(Type::Struct { .. })) =>
        {
            *element
        }
        _ => pointee,
    }
}
