//! Types as the engine sees them: the scalar leaves of a value (its registers) and its memory
//! layout (byte offsets of the leaves), with the explicit-layout decorations (Offset,
//! ArrayStride, MatrixStride, RowMajor) where the module gives them.
//!
//! Layout rule: a type uses its decorations when it has them (the explicit layout of
//! StorageBuffer/Uniform/PushConstant blocks and of explicitly laid-out Workgroup blocks);
//! otherwise a natural layout: scalars aligned to their size (booleans as 4-byte words), vector
//! and matrix components packed, arrays with stride = element size rounded up to its alignment,
//! struct members at the next aligned offset. Only the program itself can observe the natural
//! layout (Function, Private and plain Workgroup memory).

use super::{Compiler, MAX_VALUE_SLOTS};
use crate::error::ExecError;
use crate::program::{FloatFmt, Leaf, Scalar};
use spvx_spirv::index::Type;
use spvx_spirv::instruction::{Id, Instruction, OperandValue};
use spvx_spirv::op::Op;

/// Decoration numbers (SPIR-V 1.6 §3.20).
pub mod deco {
    pub const SPEC_ID: u32 = 1;
    pub const BLOCK: u32 = 2;
    pub const BUFFER_BLOCK: u32 = 3;
    pub const ROW_MAJOR: u32 = 4;
    pub const ARRAY_STRIDE: u32 = 6;
    pub const SATURATED_CONVERSION: u32 = 28;
    pub const MATRIX_STRIDE: u32 = 7;
    pub const BUILTIN: u32 = 11;
    pub const FP_ROUNDING_MODE: u32 = 39;
    pub const BINDING: u32 = 33;
    pub const DESCRIPTOR_SET: u32 = 34;
    pub const OFFSET: u32 = 35;
}

/// FPEncoding values.
const ENC_BF16: u32 = 0;
const ENC_E4M3: u32 = 4214;
const ENC_E5M2: u32 = 4215;

/// How a matrix member is laid out (MatrixStride, RowMajor), inherited through arrays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct MatrixDeco {
    pub stride: Option<u32>,
    pub row_major: bool,
    /// Set on a pointer to a column of a row-major matrix (an access chain's result): the
    /// column's components are this many bytes (the MatrixStride) apart, not packed.
    pub column_stride: Option<u32>,
}

fn words(inst: &Instruction, from: usize) -> Vec<u32> {
    inst.operands[from.min(inst.operands.len())..]
        .iter()
        .filter_map(|o| match &o.value {
            OperandValue::Word(w) => Some(*w),
            OperandValue::Id(id) => Some(*id),
            _ => None,
        })
        .collect()
}

impl Compiler<'_> {
    /// The extra operands of decoration `d` on `id` (OpDecorate), if present.
    pub fn deco(&self, id: Id, d: u32) -> Option<Vec<u32>> {
        self.ix
            .decorations_of(id, d)
            .next()
            .map(|inst| words(inst, 2))
    }

    /// The extra operands of member decoration `d` on member `m` of struct `id`.
    pub fn member_deco(&self, id: Id, m: u32, d: u32) -> Option<Vec<u32>> {
        self.ix
            .member_decoration(id, m, d)
            .map(|inst| words(inst, 3))
    }

    /// The type declared by `ty`, with the component count of an `OpTypeVectorIdEXT` whose
    /// count is a specialization constant resolved (`None` before its count is evaluated).
    pub fn resolved_ty(&self, ty: Id) -> Option<&Type> {
        match self.ix.ty(ty) {
            Some(Type::Other(Op::TypeVectorIdEXT)) => self.spec_vectors.get(&ty),
            t => t,
        }
    }

    /// The type declared by `ty`.
    pub fn ty(&self, index: usize, ty: Id) -> Result<&Type, ExecError> {
        match self.resolved_ty(ty) {
            Some(t) => Ok(t),
            // The index resolves OpTypeVectorIdEXT with a constant count to a vector, and
            // `globals` one with a specialization-constant count when it reaches it.
            None if self.ix.ty(ty).is_some() => Err(self.err(
                index,
                format!(
                    "{}: OpTypeVectorIdEXT used before its component count is known",
                    self.ix.name(ty)
                ),
            )),
            None => Err(self.err(index, format!("{} is not a type", self.ix.name(ty)))),
        }
    }

    /// The scalar kind of a scalar or pointer type.
    pub fn scalar(&self, index: usize, ty: Id) -> Result<Scalar, ExecError> {
        Ok(match self.ty(index, ty)? {
            Type::Bool => Scalar::Bool,
            Type::Int { width, .. } => match width {
                1..=64 => Scalar::Int(*width as u8),
                w => {
                    return Err(self.unsupported(
                        index,
                        format!(
                            "{w}-bit integers here (wider than 64 bits: see docs/semantics/wide-integers.md)"
                        ),
                    ));
                }
            },
            Type::Float { width, encoding } => Scalar::Float(match (width, encoding) {
                (16, None) => FloatFmt::F16,
                (32, None) => FloatFmt::F32,
                (64, None) => FloatFmt::F64,
                (16, Some(ENC_BF16)) => FloatFmt::BF16,
                (8, Some(ENC_E4M3)) => FloatFmt::E4M3,
                (8, Some(ENC_E5M2)) => FloatFmt::E5M2,
                _ => {
                    return Err(self.unsupported(index, format!("float type {}", self.ix.name(ty))));
                }
            }),
            Type::Pointer { .. } => Scalar::Ptr,
            _ => return Err(self.err(index, format!("{} is not a scalar type", self.ix.name(ty)))),
        })
    }

    /// The component type and count of a scalar (count 1) or vector type.
    pub fn components(&self, index: usize, ty: Id) -> Result<(Id, u32), ExecError> {
        Ok(match self.ty(index, ty)? {
            Type::Vector { component, count } => (*component, *count),
            _ => (ty, 1),
        })
    }

    /// The scalar kind and count of a scalar or vector type.
    pub fn scalar_components(&self, index: usize, ty: Id) -> Result<(Scalar, u32), ExecError> {
        let (c, n) = self.components(index, ty)?;
        Ok((self.scalar(index, c)?, n))
    }

    /// The length of an array type, from its (possibly specialised) length constant.
    pub fn array_length(&self, index: usize, length: Id) -> Result<u32, ExecError> {
        let v = self.value(index, length)?;
        let n = self.eval[v.slot as usize];
        u32::try_from(n).map_err(|_| self.err(index, format!("array length {n} is too large")))
    }

    /// Appends the scalar leaves of a value of type `ty`, in order (vector components,
    /// matrix columns, array elements, struct members).
    pub fn leaves(&self, index: usize, ty: Id, out: &mut Vec<Scalar>) -> Result<(), ExecError> {
        if out.len() > MAX_VALUE_SLOTS as usize {
            return Err(self.unsupported(
                index,
                format!("values of more than {MAX_VALUE_SLOTS} scalars"),
            ));
        }
        match self.ty(index, ty)? {
            Type::Int { width, .. } if *width > 64 => self.wide_leaves(index, *width, out)?,
            Type::Vector { component, count } if self.is_wide_type(Some(*component)) => {
                for _ in 0..*count {
                    self.leaves(index, *component, out)?;
                }
            }
            Type::Vector { component, count } => {
                let s = self.scalar(index, *component)?;
                out.extend(std::iter::repeat_n(s, *count as usize));
            }
            Type::Matrix { column, count } => {
                for _ in 0..*count {
                    self.leaves(index, *column, out)?;
                }
            }
            Type::Array { element, length } => {
                let n = self.array_length(index, *length)?;
                if n > MAX_VALUE_SLOTS {
                    return Err(self.unsupported(index, format!("array values of {n} elements")));
                }
                for _ in 0..n {
                    self.leaves(index, *element, out)?;
                }
            }
            Type::Struct { members } => {
                for m in members {
                    self.leaves(index, *m, out)?;
                }
            }
            Type::Void => {}
            // A tensor value is its binding (a pointer to the tensor's memory space).
            Type::Tensor { .. } => out.push(Scalar::Ptr),
            _ => out.push(self.scalar(index, ty)?),
        }
        Ok(())
    }

    /// The number of slots a value of type `ty` takes.
    pub fn slot_count(&self, index: usize, ty: Id) -> Result<u32, ExecError> {
        let mut v = Vec::new();
        self.leaves(index, ty, &mut v)?;
        Ok(v.len() as u32)
    }

    /// Size and alignment in memory.
    pub fn size_align(&self, index: usize, ty: Id, m: MatrixDeco) -> Result<(u64, u64), ExecError> {
        Ok(match self.ty(index, ty)? {
            Type::Vector { component, count } => {
                let (s, a) = self.size_align(index, *component, m)?;
                if self.pointer_bits.is_some() {
                    // OpenCL C 6.3.5: a vector of 3 takes the size and alignment of 4, and a
                    // vector is aligned to its size.
                    let n = if *count == 3 { 4 } else { *count as u64 };
                    (s * n, s * n)
                } else {
                    (s * *count as u64, a)
                }
            }
            Type::Matrix { column, count } => {
                let (cs, a) = self.size_align(index, *column, MatrixDeco::default())?;
                let (comp, rows) = self.components(index, *column)?;
                let (es, _) = self.size_align(index, comp, MatrixDeco::default())?;
                let n = *count as u64;
                match m.stride {
                    Some(st) if m.row_major => (st as u64 * rows as u64, a),
                    Some(st) => (st as u64 * n, a),
                    None => (cs.max(es) * n, a),
                }
            }
            Type::Array { element, length } => {
                let n = self.array_length(index, *length)? as u64;
                let stride = self.array_stride(index, ty, *element, m)? as u64;
                let (_, a) = self.size_align(index, *element, m)?;
                (stride * n, a)
            }
            Type::RuntimeArray { .. } => (0, 1),
            Type::Int { width, .. } if *width > 64 => self.wide_size_align(index, *width)?,
            Type::Struct { members } => {
                let mut size = 0u64;
                let mut align = 1u64;
                for (i, mt) in members.iter().enumerate() {
                    let md = self.member_matrix(ty, i as u32);
                    let (s, a) = self.size_align(index, *mt, md)?;
                    let off = self.member_offset_with(index, ty, i as u32, size, a)?;
                    size = size.max(off + s);
                    align = align.max(a);
                }
                (size.next_multiple_of(align), align)
            }
            Type::Pointer { .. } if self.pointer_bits.is_some() => {
                // Physical addressing: a pointer in memory is its address (pointer_bits wide).
                let s = self.pointer_bits.unwrap_or(64) as u64 / 8;
                (s, s)
            }
            _ => {
                let s = self.scalar(index, ty)?.mem_bytes() as u64;
                (s, s)
            }
        })
    }

    /// The matrix decorations of member `m` of struct `ty`.
    pub fn member_matrix(&self, ty: Id, m: u32) -> MatrixDeco {
        MatrixDeco {
            stride: self
                .member_deco(ty, m, deco::MATRIX_STRIDE)
                .and_then(|w| w.first().copied()),
            row_major: self.member_deco(ty, m, deco::ROW_MAJOR).is_some(),
            column_stride: None,
        }
    }

    fn member_offset_with(
        &self,
        index: usize,
        ty: Id,
        m: u32,
        natural_from: u64,
        align: u64,
    ) -> Result<u64, ExecError> {
        Ok(
            match self
                .member_deco(ty, m, deco::OFFSET)
                .and_then(|w| w.first().copied())
            {
                Some(o) => o as u64,
                None => natural_from.next_multiple_of(align.max(1)),
            },
        )
        .inspect(|_| {
            let _ = index;
        })
    }

    /// The byte offset of member `m` of struct `ty`.
    pub fn member_offset(&self, index: usize, ty: Id, m: u32) -> Result<u64, ExecError> {
        if let Some(o) = self
            .member_deco(ty, m, deco::OFFSET)
            .and_then(|w| w.first().copied())
        {
            return Ok(o as u64);
        }
        let Type::Struct { members } = self.ty(index, ty)?.clone() else {
            return Err(self.err(index, "member offset of a non-struct"));
        };
        let mut size = 0u64;
        for (i, mt) in members.iter().enumerate() {
            let (s, a) = self.size_align(index, *mt, self.member_matrix(ty, i as u32))?;
            let off = size.next_multiple_of(a.max(1));
            if i as u32 == m {
                return Ok(off);
            }
            size = off + s;
        }
        Err(self.err(
            index,
            format!("struct {} has no member {m}", self.ix.name(ty)),
        ))
    }

    /// The stride of an array type (ArrayStride, or the natural one).
    pub fn array_stride(
        &self,
        index: usize,
        ty: Id,
        element: Id,
        m: MatrixDeco,
    ) -> Result<u32, ExecError> {
        if let Some(s) = self
            .deco(ty, deco::ARRAY_STRIDE)
            .and_then(|w| w.first().copied())
        {
            return Ok(s);
        }
        let (s, a) = self.size_align(index, element, m)?;
        u32::try_from(s.next_multiple_of(a.max(1)))
            .map_err(|_| self.err(index, "array element too large"))
    }

    /// The stride between matrix columns (or rows, when row-major) and the component size.
    pub fn matrix_strides(
        &self,
        index: usize,
        column: Id,
        m: MatrixDeco,
    ) -> Result<(u64, u64), ExecError> {
        let (comp, rows) = self.components(index, column)?;
        let (es, _) = self.size_align(index, comp, MatrixDeco::default())?;
        let natural = if m.row_major { es } else { es * rows as u64 };
        Ok((m.stride.map_or(natural, u64::from), es))
    }

    /// Appends the memory leaves of a value of type `ty` stored at `base`: for each register
    /// leaf (numbered from `*slot`), its byte offset.
    pub fn mem_leaves(
        &self,
        index: usize,
        ty: Id,
        base: u64,
        m: MatrixDeco,
        slot: &mut u32,
        out: &mut Vec<Leaf>,
    ) -> Result<(), ExecError> {
        if out.len() > MAX_VALUE_SLOTS as usize {
            return Err(self.unsupported(
                index,
                format!("values of more than {MAX_VALUE_SLOTS} scalars"),
            ));
        }
        let mut push = |s: Scalar, off: u64, slot: &mut u32| -> Result<(), ExecError> {
            let offset = u32::try_from(off).map_err(|_| self.err(index, "offset beyond 4 GiB"))?;
            out.push(Leaf {
                slot: *slot,
                offset,
                scalar: s,
            });
            *slot += 1;
            Ok(())
        };
        match self.ty(index, ty)?.clone() {
            Type::Int { width, .. } if width > 64 => {
                self.wide_mem_leaves(index, width, base, slot, out)?;
            }
            Type::Vector { component, count } if self.is_wide_type(Some(component)) => {
                let (size, _) = self.size_align(index, component, MatrixDeco::default())?;
                for i in 0..count as u64 {
                    self.mem_leaves(index, component, base + i * size, m, slot, out)?;
                }
            }
            Type::Vector { component, count } => {
                let s = self.scalar(index, component)?;
                let step = m.column_stride.unwrap_or(s.mem_bytes()) as u64;
                for i in 0..count as u64 {
                    push(s, base + i * step, slot)?;
                }
            }
            Type::Matrix { column, count } => {
                let (stride, es) = self.matrix_strides(index, column, m)?;
                let (comp, rows) = self.components(index, column)?;
                let s = self.scalar(index, comp)?;
                for c in 0..count as u64 {
                    for r in 0..rows as u64 {
                        let off = if m.row_major {
                            r * stride + c * es
                        } else {
                            c * stride + r * es
                        };
                        push(s, base + off, slot)?;
                    }
                }
            }
            Type::Array { element, length } => {
                let n = self.array_length(index, length)?;
                let stride = self.array_stride(index, ty, element, m)? as u64;
                for i in 0..n as u64 {
                    self.mem_leaves(index, element, base + i * stride, m, slot, out)?;
                }
            }
            Type::Struct { members } => {
                for (i, mt) in members.iter().enumerate() {
                    let off = self.member_offset(index, ty, i as u32)?;
                    let md = self.member_matrix(ty, i as u32);
                    self.mem_leaves(index, *mt, base + off, md, slot, out)?;
                }
            }
            Type::RuntimeArray { .. } => {
                return Err(self.err(index, "a runtime array cannot be loaded or stored whole"));
            }
            _ => {
                // (A logical pointer in memory is its `memory::Ptr` bits; loads and stores
                // allow that only in Function and Private memory, `Compiler::access_leaves`.)
                let s = self.scalar(index, ty)?;
                push(s, base, slot)?;
            }
        }
        Ok(())
    }

    /// The memory leaves of a whole value of type `ty` (from slot 0, at offset 0).
    pub fn value_leaves(&self, index: usize, ty: Id) -> Result<Vec<Leaf>, ExecError> {
        let mut out = Vec::new();
        let mut slot = 0;
        self.mem_leaves(index, ty, 0, MatrixDeco::default(), &mut slot, &mut out)?;
        Ok(out)
    }
}
