//! Alignments and sizes of explicitly laid-out types (Vulkan "Offset and Stride Assignment"):
//! scalar, base and extended alignment, and the size of a member as the layout rules count it
//! (no padding at the end of a struct or array).

use super::members::{Majorness, MatrixLayout, members};
use spvx_spirv::index::{ModuleIndex, Type};
use spvx_spirv::instruction::Id;

/// Which alignment rule applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// scalarBlockLayout (or workgroupMemoryExplicitLayoutScalarBlockLayout): scalar alignment.
    Scalar,
    /// Base alignment (std430).
    Standard,
    /// Extended alignment: arrays and structs rounded up to 16 (std140, Uniform Block without
    /// uniformBufferStandardLayout).
    Extended,
}

fn round_up(x: u64, to: u64) -> u64 {
    if to == 0 { x } else { x.div_ceil(to) * to }
}

/// The scalar alignment of `t`: the largest scalar (or pointer) it contains.
pub fn scalar_alignment(ix: &ModuleIndex, t: Id, pointer_size: u64) -> u64 {
    match ix.ty(t) {
        Some(Type::Int { width, .. } | Type::Float { width, .. }) => u64::from(*width / 8).max(1),
        Some(Type::Vector { component, .. }) => scalar_alignment(ix, *component, pointer_size),
        Some(Type::Matrix { column, .. }) => scalar_alignment(ix, *column, pointer_size),
        Some(Type::Array { element, .. } | Type::RuntimeArray { element }) => {
            scalar_alignment(ix, *element, pointer_size)
        }
        Some(Type::Struct { members }) => members
            .iter()
            .map(|&m| scalar_alignment(ix, m, pointer_size))
            .max()
            .unwrap_or(1),
        Some(Type::Pointer { .. }) => pointer_size,
        _ => 1,
    }
}

/// The alignment of `t` under `mode`, as a member whose matrices are laid out by `matrix`.
/// With `vector_relaxed`, a vector needs only its component's alignment (relaxed block layout,
/// which applies to vectors that are members of a struct themselves).
pub fn alignment(
    ix: &ModuleIndex,
    t: Id,
    mode: Mode,
    matrix: MatrixLayout,
    vector_relaxed: bool,
    pointer_size: u64,
) -> u64 {
    if mode == Mode::Scalar {
        return scalar_alignment(ix, t, pointer_size);
    }
    let extend = |a: u64| {
        if mode == Mode::Extended {
            round_up(a, 16)
        } else {
            a
        }
    };
    match ix.ty(t) {
        Some(Type::Int { width, .. } | Type::Float { width, .. }) => u64::from(*width / 8).max(1),
        Some(Type::Vector { component, count }) => {
            let c = alignment(ix, *component, mode, matrix, false, pointer_size);
            if vector_relaxed {
                c
            } else {
                c * if *count == 3 { 4 } else { u64::from(*count) }
            }
        }
        // spirv-val 2025.5 rounds matrices up to 16 under extended (std140) rules, as GLSL
        // does (a matrix is an array of its columns there).
        Some(Type::Matrix { column, count }) => extend(match matrix.majorness {
            Majorness::Column => alignment(ix, *column, mode, matrix, false, pointer_size),
            Majorness::Row => {
                // A row-major matrix of C columns aligns as a vector of C components.
                let component = match ix.ty(*column) {
                    Some(Type::Vector { component, .. }) => *component,
                    _ => *column,
                };
                let c = alignment(ix, component, mode, matrix, false, pointer_size);
                c * if *count == 3 { 4 } else { u64::from(*count) }
            }
        }),
        Some(Type::Array { element, .. } | Type::RuntimeArray { element }) => {
            extend(alignment(ix, *element, mode, matrix, false, pointer_size))
        }
        Some(Type::Struct { .. }) => {
            let a = members(ix, t)
                .iter()
                .map(|m| alignment(ix, m.ty, mode, m.matrix, false, pointer_size))
                .max()
                .unwrap_or(1);
            extend(a)
        }
        Some(Type::Pointer { .. }) => pointer_size,
        _ => 1,
    }
}

/// The size of `t` as a member (the last element or member ends it: no tail padding); 0 for a
/// runtime array and for an array whose length is a specialisation constant.
pub fn size(ix: &ModuleIndex, t: Id, matrix: MatrixLayout, pointer_size: u64) -> u64 {
    match ix.ty(t) {
        Some(Type::Int { width, .. } | Type::Float { width, .. }) => u64::from(*width / 8).max(1),
        Some(Type::Vector { component, count }) => {
            size(ix, *component, matrix, pointer_size) * u64::from(*count)
        }
        Some(Type::Matrix { column, count }) => match matrix.majorness {
            Majorness::Column => u64::from(*count) * u64::from(matrix.stride),
            Majorness::Row => match ix.ty(*column) {
                Some(Type::Vector {
                    component,
                    count: rows,
                }) => {
                    u64::from(rows.saturating_sub(1)) * u64::from(matrix.stride)
                        + u64::from(*count) * size(ix, *component, matrix, pointer_size)
                }
                _ => 0,
            },
        },
        Some(Type::Array { element, length }) => {
            let Some(n) = ix.const_u64(*length).filter(|_| !is_spec(ix, *length)) else {
                return 0;
            };
            if n == 0 {
                return 0;
            }
            let stride = u64::from(super::members::array_stride(ix, t).unwrap_or(0));
            (n - 1) * stride + size(ix, *element, matrix, pointer_size)
        }
        Some(Type::RuntimeArray { .. }) => 0,
        Some(Type::Struct { .. }) => {
            // The member declared last, at its offset (what spirv-val measures).
            let ms = members(ix, t);
            match ms.last() {
                Some(last) => {
                    u64::from(last.offset.unwrap_or(0))
                        + size(ix, last.ty, last.matrix, pointer_size)
                }
                None => 0,
            }
        }
        Some(Type::Pointer { .. }) => pointer_size,
        _ => 0,
    }
}

fn is_spec(ix: &ModuleIndex, id: Id) -> bool {
    use spvx_spirv::op::Op;
    ix.def_inst(id).is_some_and(|i| {
        matches!(
            i.opcode,
            Op::SpecConstant | Op::SpecConstantOp | Op::SpecConstantTrue | Op::SpecConstantFalse
        )
    })
}
