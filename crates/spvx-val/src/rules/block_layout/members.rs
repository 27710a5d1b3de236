//! The explicit-layout decorations of a struct's members (Offset, RowMajor/ColMajor,
//! MatrixStride) and of array types (ArrayStride), read from the module index.

use spvx_spirv::index::{ModuleIndex, Type};
use spvx_spirv::instruction::Id;
use spvx_spirv::op::Op;

pub(super) use crate::rules::decorations::dec::{
    ARRAY_STRIDE, COL_MAJOR, MATRIX_STRIDE, OFFSET, ROW_MAJOR,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Majorness {
    Column,
    Row,
}

/// How a member's matrices are laid out (inherited through arrays).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatrixLayout {
    pub majorness: Majorness,
    pub stride: u32,
}

impl Default for MatrixLayout {
    fn default() -> Self {
        MatrixLayout {
            majorness: Majorness::Column,
            stride: 0,
        }
    }
}

/// One member of a struct with its layout decorations.
#[derive(Clone, Debug)]
pub struct Member {
    pub index: u32,
    pub ty: Id,
    pub offset: Option<u32>,
    pub matrix: MatrixLayout,
    pub has_majorness: bool,
    pub has_matrix_stride: bool,
}

/// The members of struct type `s`, in declaration order.
pub fn members(ix: &ModuleIndex, s: Id) -> Vec<Member> {
    let Some(Type::Struct { members }) = ix.ty(s) else {
        return Vec::new();
    };
    let mut out: Vec<Member> = members
        .iter()
        .enumerate()
        .map(|(i, &ty)| Member {
            index: i as u32,
            ty,
            offset: None,
            matrix: MatrixLayout::default(),
            has_majorness: false,
            has_matrix_stride: false,
        })
        .collect();
    for &i in ix.decorations.get(&s).into_iter().flatten() {
        let inst = &ix.insts[i];
        if inst.opcode != Op::MemberDecorate {
            continue;
        }
        let word = |k: usize| inst.operands.get(k).and_then(|o| o.word());
        let (Some(index), Some(d)) = (word(1), word(2)) else {
            continue;
        };
        let Some(m) = out.get_mut(index as usize) else {
            continue;
        };
        match d {
            OFFSET => m.offset = word(3),
            ROW_MAJOR => {
                m.matrix.majorness = Majorness::Row;
                m.has_majorness = true;
            }
            COL_MAJOR => {
                m.matrix.majorness = Majorness::Column;
                m.has_majorness = true;
            }
            MATRIX_STRIDE => {
                m.matrix.stride = word(3).unwrap_or(0);
                m.has_matrix_stride = true;
            }
            _ => {}
        }
    }
    out
}

/// The ArrayStride of array type `t`, if decorated.
pub fn array_stride(ix: &ModuleIndex, t: Id) -> Option<u32> {
    ix.decoration_literal(t, ARRAY_STRIDE)
}
