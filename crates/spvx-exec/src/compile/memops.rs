//! Translation of memory instructions (function variables, loads, stores, access chains,
//! OpCopyMemory, OpArrayLength), atomics, and the integer and mixed float dot products.

use super::func::Code;
use super::globals::reserve;
use super::types::MatrixDeco;
use super::{Compiler, Value};
use crate::error::ExecError;
use crate::memory::{Ptr, SPACE_PRIVATE};
use crate::program::*;
use spvx_num::intdot::{DotKind, DotSpec};
use spvx_num::mixdot::{Fp8Encoding, Half16Encoding, MixOp};
use spvx_spirv::instruction::{Id, Instruction};
use spvx_val::index::Type;

impl Compiler<'_> {
    /// The pointee type of a pointer value.
    fn pointee(&self, index: usize, ptr: Value) -> Result<spvx_spirv::instruction::Id, ExecError> {
        match self.ty(index, ptr.ty)? {
            Type::Pointer { pointee, .. } => Ok(*pointee),
            _ => Err(self.err(index, "expected a pointer")),
        }
    }

    /// Memory leaves of a load or store through `ptr_id` of a value of type `ty`.
    fn access_leaves(&self, index: usize, ptr_id: u32, ty: u32) -> Result<Box<[Leaf]>, ExecError> {
        let m = self.ptr_matrix.get(&ptr_id).copied().unwrap_or_default();
        let mut out = Vec::new();
        let mut slot = 0;
        self.mem_leaves(index, ty, 0, m, &mut slot, &mut out)?;
        Ok(out.into())
    }

    pub(crate) fn memory_op(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        name: &str,
    ) -> Result<(), ExecError> {
        if self.promoted_op(index, inst, code)? {
            return Ok(());
        }
        match name {
            "OpVariable" => {
                let dst = self.result(index, inst)?;
                let pointee = self.pointee(index, dst)?;
                let (size, align) = self.size_align(index, pointee, MatrixDeco::default())?;
                let off = reserve(&mut self.globals.private_bytes, size, align)
                    .ok_or_else(|| self.err(index, "function variable too large"))?;
                self.globals
                    .private_init
                    .resize(self.globals.private_bytes as usize, 0);
                let init = match inst.operands.get(1).and_then(|o| o.id()) {
                    Some(id) => {
                        let v = self.value(index, id)?;
                        Some((
                            v.slot,
                            self.value_leaves(index, pointee)?.into_boxed_slice(),
                        ))
                    }
                    None => None,
                };
                let size = u32::try_from(size)
                    .map_err(|_| self.err(index, "function variable too large"))?;
                // Pointers in an initialiser are stored as addresses (physical addressing).
                let (init, store) = match init {
                    Some((v, leaves)) if self.has_address_leaves(&leaves) => {
                        (None, Some((v, leaves)))
                    }
                    i => (i, None),
                };
                code.push(
                    index,
                    Inst::VarInit {
                        dst: dst.slot,
                        ptr: Ptr::new(SPACE_PRIVATE, off as u64).0,
                        size,
                        init,
                    },
                );
                if let Some((v, leaves)) = store {
                    self.push_store(index, dst.slot, v, leaves, code)?;
                }
                Ok(())
            }
            "OpLoad" => {
                let dst = self.result(index, inst)?;
                let ptr = self.operand(index, inst, 0)?;
                if matches!(self.ty(index, dst.ty)?, Type::Tensor { .. }) {
                    code.push(
                        index,
                        Inst::Copy {
                            dst: dst.slot,
                            src: ptr.slot,
                        },
                    );
                    return Ok(());
                }
                let pid = inst.operands.first().and_then(|o| o.id()).unwrap_or(0);
                let leaves = self.access_leaves(index, pid, dst.ty)?;
                self.push_load(index, dst.slot, ptr.slot, leaves, code);
                Ok(())
            }
            "OpStore" => {
                let ptr = self.operand(index, inst, 0)?;
                let v = self.operand(index, inst, 1)?;
                let pid = inst.operands.first().and_then(|o| o.id()).unwrap_or(0);
                let leaves = self.access_leaves(index, pid, v.ty)?;
                self.push_store(index, ptr.slot, v.slot, leaves, code)
            }
            "OpAccessChain"
            | "OpInBoundsAccessChain"
            | "OpPtrAccessChain"
            | "OpInBoundsPtrAccessChain" => self.access_chain(index, inst, code, name),
            "OpCopyMemory" => {
                let (d, s) = (self.operand(index, inst, 0)?, self.operand(index, inst, 1)?);
                let pointee = self.pointee(index, d)?;
                let (size, _) = self.size_align(index, pointee, MatrixDeco::default())?;
                let size = u32::try_from(size).map_err(|_| self.err(index, "copy too large"))?;
                code.push(
                    index,
                    Inst::CopyMemory {
                        dst: d.slot,
                        src: s.slot,
                        size,
                    },
                );
                Ok(())
            }
            "OpArrayLength" => {
                let dst = self.result(index, inst)?;
                let p = self.operand(index, inst, 0)?;
                let m = inst.operands.get(1).and_then(|o| o.word()).unwrap_or(0);
                let st = self.pointee(index, p)?;
                let offset = self.member_offset(index, st, m)? as u32;
                let Type::Struct { members } = self.ty(index, st)?.clone() else {
                    return Err(self.err(index, "OpArrayLength of a non-struct"));
                };
                let arr = *members
                    .get(m as usize)
                    .ok_or_else(|| self.err(index, "no such member"))?;
                let Type::RuntimeArray { element } = self.ty(index, arr)?.clone() else {
                    return Err(self.err(
                        index,
                        "OpArrayLength of a member that is not a runtime array",
                    ));
                };
                let stride = self.array_stride(index, arr, element, MatrixDeco::default())?;
                code.push(
                    index,
                    Inst::ArrayLength {
                        dst: dst.slot,
                        ptr: p.slot,
                        offset,
                        stride,
                    },
                );
                Ok(())
            }
            _ => Err(self.unsupported(index, name.to_string())),
        }
    }

    /// OpAccessChain and OpInBoundsAccessChain; OpPtrAccessChain and OpInBoundsPtrAccessChain
    /// first step over whole pointees (`Element` × the pointer type's ArrayStride, else the
    /// pointee's size rounded to its alignment: C's pointer arithmetic).
    fn access_chain(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        name: &str,
    ) -> Result<(), ExecError> {
        let dst = self.result(index, inst)?;
        let base = self.operand(index, inst, 0)?;
        let base_id = inst.operands.first().and_then(|o| o.id()).unwrap_or(0);
        let mut t = self.pointee(index, base)?;
        let mut m = self.ptr_matrix.get(&base_id).copied().unwrap_or_default();
        let mut offset = 0u64;
        let mut steps = Vec::new();
        let mut first = 1;
        // The base register: the variable's, or (after an index into an array of buffers)
        // the selected buffer's, which `dst` holds.
        let mut base_slot = base.slot;
        if !name.ends_with("PtrAccessChain")
            && inst.operands.len() > 1
            && let Some((element, count)) = self.buffer_array(index, t)?
        {
            let iv = self.operand(index, inst, 1)?;
            let bits = self.scalar(index, iv.ty)?.bits();
            let count = match count {
                0 => ArrayCount::Runtime(
                    *self.globals.runtime_lengths.get(&base_id).ok_or_else(|| {
                        self.unsupported(
                            index,
                            "a runtime array of buffers reached through another pointer than its variable",
                        )
                    })?,
                ),
                n => ArrayCount::Fixed(n),
            };
            code.push(
                index,
                Inst::SelectBuffer {
                    dst: dst.slot,
                    base: base.slot,
                    index: iv.slot,
                    index_bits: bits as u8,
                    count,
                },
            );
            base_slot = dst.slot;
            t = element;
            first = 2;
        }
        if name.ends_with("PtrAccessChain") {
            first = 2;
            let e = self.operand(index, inst, 1)?;
            let e_id = inst.operands.get(1).and_then(|o| o.id()).unwrap_or(0);
            let bits = self.scalar(index, e.ty)?.bits();
            let stride = match self
                .deco(base.ty, super::types::deco::ARRAY_STRIDE)
                .and_then(|w| w.first().copied())
            {
                Some(s) => s as u64,
                None => {
                    let (s, a) = self.size_align(index, t, m)?;
                    s.next_multiple_of(a.max(1))
                }
            };
            let stride = u32::try_from(stride)
                .map_err(|_| self.err(index, "pointee too large for pointer arithmetic"))?;
            let constant = self
                .ix
                .is_constant(e_id)
                .then(|| crate::exec::sext(self.eval[e.slot as usize], bits))
                .filter(|i| (0..1 << 20).contains(i));
            match constant {
                // (A negative constant element goes through a run-time step, which is signed.)
                Some(i) => offset = offset.wrapping_add(i as u64 * stride as u64),
                None => steps.push(ChainStep {
                    index: e.slot,
                    index_bits: bits as u8,
                    stride,
                    length: None,
                }),
            }
        }
        for k in first..inst.operands.len() {
            let iv = self.operand(index, inst, k)?;
            let id = inst.operands.get(k).and_then(|o| o.id()).unwrap_or(0);
            let bits = self.scalar(index, iv.ty)?.bits();
            let constant = self
                .ix
                .is_constant(id)
                .then(|| crate::exec::sext(self.eval[iv.slot as usize], bits));
            let (next, stride, length) = match self.ty(index, t)?.clone() {
                Type::Struct { members } => {
                    let Some(i) = constant else {
                        return Err(self.err(index, "struct index is not a constant"));
                    };
                    let mt = *members
                        .get(i as usize)
                        .ok_or_else(|| self.err(index, "member index out of range"))?;
                    offset += self.member_offset(index, t, i as u32)?;
                    m = self.member_matrix(t, i as u32);
                    t = mt;
                    continue;
                }
                Type::Array { element, length } => (
                    element,
                    self.array_stride(index, t, element, m)?,
                    Some(self.array_length(index, length)?),
                ),
                Type::RuntimeArray { element } => {
                    (element, self.array_stride(index, t, element, m)?, None)
                }
                Type::Vector { component, count } => {
                    // (Components of a row-major matrix's column are MatrixStride apart.)
                    let s = match m.column_stride {
                        Some(s) => s,
                        None => self.size_align(index, component, MatrixDeco::default())?.0 as u32,
                    };
                    (component, s, Some(count))
                }
                Type::Matrix { column, count } => {
                    let (stride, es) = self.matrix_strides(index, column, m)?;
                    if m.row_major {
                        // Column i of a row-major matrix starts i elements into the first
                        // row; its components are a row (MatrixStride) apart.
                        let column_stride = u32::try_from(stride)
                            .map_err(|_| self.err(index, "MatrixStride beyond 4 GiB"))?;
                        m.column_stride = Some(column_stride);
                        (column, es as u32, Some(count))
                    } else {
                        (column, stride as u32, Some(count))
                    }
                }
                _ => return Err(self.err(index, "access chain into a non-composite")),
            };
            match constant {
                Some(i) if length.is_none_or(|n| (0..n as i64).contains(&i)) => {
                    offset = offset.wrapping_add(i.wrapping_mul(stride as i64) as u64);
                }
                _ => steps.push(ChainStep {
                    index: iv.slot,
                    index_bits: bits as u8,
                    stride,
                    length,
                }),
            }
            t = next;
        }
        if let Some(id) = inst.result {
            self.ptr_matrix.insert(id, m);
        }
        // A constant offset beyond 4 GiB (or a negative one) is valid SPIR-V whose accesses are
        // out of bounds at run time: it becomes a run-time step (offset / 2^16 in a constant
        // slot, stride 2^16) plus the low 16 bits, with the wrapping of every run-time step.
        let offset = match u32::try_from(offset) {
            Ok(o) => o,
            Err(_) => {
                let far = self.alloc(index, 1)?;
                self.fixed.push(far);
                self.eval[far as usize] = offset >> 16;
                steps.push(ChainStep {
                    index: far,
                    index_bits: 64,
                    stride: 1 << 16,
                    length: None,
                });
                (offset & 0xffff) as u32
            }
        };
        code.push(
            index,
            Inst::AccessChain {
                dst: dst.slot,
                base: base_slot,
                offset,
                steps: steps.into(),
            },
        );
        Ok(())
    }

    /// For an array of buffers (an array whose element is a `Block` or `BufferBlock`
    /// struct: a descriptor array) or of tensors (SPV_ARM_tensors), its element type and
    /// length (0 for a runtime array).
    pub(crate) fn buffer_array(&self, index: usize, t: Id) -> Result<Option<(Id, u32)>, ExecError> {
        let (element, length) = match self.ty(index, t)?.clone() {
            Type::Array { element, length } => (element, Some(length)),
            Type::RuntimeArray { element } => (element, None),
            _ => return Ok(None),
        };
        let block = self.deco(element, super::types::deco::BLOCK).is_some()
            || self
                .deco(element, super::types::deco::BUFFER_BLOCK)
                .is_some()
            || matches!(self.ty(index, element)?, Type::Tensor { .. });
        if !block {
            return Ok(None);
        }
        match length {
            Some(length) => Ok(Some((element, self.array_length(index, length)?))),
            None => Ok(Some((element, 0))),
        }
    }

    pub(crate) fn atomic_op(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        name: &str,
    ) -> Result<(), ExecError> {
        let op = match name {
            "OpAtomicLoad" => AtomicOp::Load,
            "OpAtomicStore" => AtomicOp::Store,
            "OpAtomicExchange" => AtomicOp::Exchange,
            "OpAtomicCompareExchange" => AtomicOp::CompareExchange,
            "OpAtomicIIncrement" => AtomicOp::IIncrement,
            "OpAtomicIDecrement" => AtomicOp::IDecrement,
            "OpAtomicIAdd" => AtomicOp::IAdd,
            "OpAtomicISub" => AtomicOp::ISub,
            "OpAtomicSMin" => AtomicOp::SMin,
            "OpAtomicUMin" => AtomicOp::UMin,
            "OpAtomicSMax" => AtomicOp::SMax,
            "OpAtomicUMax" => AtomicOp::UMax,
            "OpAtomicAnd" => AtomicOp::And,
            "OpAtomicOr" => AtomicOp::Or,
            "OpAtomicXor" => AtomicOp::Xor,
            "OpAtomicFAddEXT" => AtomicOp::FAdd,
            "OpAtomicFMinEXT" => AtomicOp::FMin,
            "OpAtomicFMaxEXT" => AtomicOp::FMax,
            other => return Err(self.unsupported(index, other.to_string())),
        };
        let ptr = self.operand(index, inst, 0)?;
        let pointee = self.pointee(index, ptr)?;
        let float_op = matches!(op, AtomicOp::FAdd | AtomicOp::FMin | AtomicOp::FMax);
        let bits_only = matches!(op, AtomicOp::Load | AtomicOp::Store | AtomicOp::Exchange);
        let bits = match self.scalar(index, pointee)? {
            Scalar::Int(b @ (32 | 64)) if !float_op => b,
            // SPV_EXT_shader_atomic_float_add / _float16_add / _float_min_max; load, store and
            // exchange of floats move bits.
            Scalar::Float(f @ (FloatFmt::F16 | FloatFmt::F32 | FloatFmt::F64))
                if float_op || bits_only =>
            {
                f.bits() as u8
            }
            _ => {
                return Err(self.unsupported(
                    index,
                    "atomics on types other than 32- and 64-bit integers and 16-, 32- and 64-bit floats",
                ));
            }
        };
        let (value, comparator) = match op {
            AtomicOp::Load | AtomicOp::IIncrement | AtomicOp::IDecrement => (None, None),
            AtomicOp::CompareExchange => (
                Some(self.operand(index, inst, 4)?.slot),
                Some(self.operand(index, inst, 5)?.slot),
            ),
            _ => (Some(self.operand(index, inst, 3)?.slot), None),
        };
        let dst = match inst.result {
            Some(_) => Some(self.result(index, inst)?.slot),
            None => None,
        };
        code.push(
            index,
            Inst::Atomic {
                op,
                bits,
                dst,
                ptr: ptr.slot,
                value,
                comparator,
            },
        );
        Ok(())
    }

    pub(crate) fn int_dot(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        name: &str,
    ) -> Result<(), ExecError> {
        let kind = match name {
            "OpSDot" | "OpSDotAccSat" => DotKind::Signed,
            "OpUDot" | "OpUDotAccSat" => DotKind::Unsigned,
            _ => DotKind::Mixed,
        };
        let dst = self.result(index, inst)?;
        let (a, b) = (self.operand(index, inst, 0)?, self.operand(index, inst, 1)?);
        let acc = if name.ends_with("AccSat") {
            Some(self.operand(index, inst, 2)?.slot)
        } else {
            None
        };
        let result_bits = self.scalar(index, dst.ty)?.bits();
        let (comp, n) = self.scalar_components(index, a.ty)?;
        let (comp_bits, count) = match (comp, n) {
            (Scalar::Int(32), 1) => (8, 0u8),
            (Scalar::Int(w), n) if n > 1 => (w as u32, n as u8),
            _ => {
                return Err(self.err(
                    index,
                    "dot product operands must be integer vectors or packed 32-bit words",
                ));
            }
        };
        let spec = DotSpec::new(kind, comp_bits, result_bits)
            .map_err(|e| self.err(index, e.to_string()))?;
        code.push(
            index,
            Inst::IntDot {
                spec,
                dst: dst.slot,
                a: a.slot,
                b: b.slot,
                count,
                acc,
            },
        );
        Ok(())
    }

    pub(crate) fn mix_dot(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        name: &str,
    ) -> Result<(), ExecError> {
        let op = match name {
            "OpFDot2MixAcc32VALVE" => MixOp::Dot2Acc32,
            "OpFDot2MixAcc16VALVE" => MixOp::Dot2Acc16,
            _ => MixOp::Dot4Acc32,
        };
        let dst = self.result(index, inst)?;
        let (a, b, acc) = (
            self.operand(index, inst, 0)?,
            self.operand(index, inst, 1)?,
            self.operand(index, inst, 2)?,
        );
        let (sa, _) = self.scalar_components(index, a.ty)?;
        let (sb, _) = self.scalar_components(index, b.ty)?;
        let half = match sa {
            Scalar::Float(FloatFmt::BF16) => Half16Encoding::Bf16,
            _ => Half16Encoding::F16,
        };
        let enc8 = |s: Scalar| match s {
            Scalar::Float(FloatFmt::E5M2) => Fp8Encoding::E5m2,
            _ => Fp8Encoding::E4m3,
        };
        code.push(
            index,
            Inst::MixDot {
                op,
                half,
                fp8: [enc8(sa), enc8(sb)],
                dst: dst.slot,
                a: a.slot,
                b: b.slot,
                acc: acc.slot,
            },
        );
        Ok(())
    }
}

impl Compiler<'_> {
    /// OpTensorReadARM (4164), OpTensorWriteARM (4165), OpTensorQuerySizeARM (4166).
    pub(crate) fn tensor_op(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
    ) -> Result<(), ExecError> {
        let tensor = self.operand(index, inst, 0)?;
        let Type::Tensor { element, .. } = self.ty(index, tensor.ty)?.clone() else {
            return Err(self.err(index, "expected a tensor operand"));
        };
        let element = self.scalar(index, element)?;
        if inst.opcode == 4166 {
            let dst = self.result(index, inst)?;
            let d = self.operand(index, inst, 1)?;
            let dim = u32::try_from(self.eval[d.slot as usize])
                .map_err(|_| self.err(index, "dimension out of range"))?;
            let bits = self.scalar(index, dst.ty)?.bits() as u8;
            code.push(
                index,
                Inst::TensorSize {
                    dst: dst.slot,
                    tensor: tensor.slot,
                    dim,
                    bits,
                },
            );
            return Ok(());
        }
        let coords = self.operand(index, inst, 1)?;
        // Signed coordinates are sign-extended from their width (a negative one is outside);
        // unsigned ones are read as the register holds them, zero-extended (width 64).
        let (rank, coord_bits) = match self.ty(index, coords.ty)?.clone() {
            Type::Array { element, length } => (
                self.array_length(index, length)?,
                match self.ty(index, element)? {
                    Type::Int { signed: false, .. } => 64,
                    _ => self.scalar(index, element)?.bits(),
                },
            ),
            _ => return Err(self.err(index, "coordinates must be an integer array")),
        };
        let rank = u8::try_from(rank).map_err(|_| self.err(index, "tensor rank too large"))?;
        let count_of = |c: &Self, ty| -> Result<u32, ExecError> { c.slot_count(index, ty) };
        if inst.opcode == 4164 {
            let dst = self.result(index, inst)?;
            let count = count_of(self, dst.ty)?;
            let mask = inst.operands.get(2).and_then(|o| o.word()).unwrap_or(0);
            let oob = if mask & 0x2 != 0 {
                let v = self.operand(index, inst, 3)?;
                Some((v.slot, self.slot_count(index, v.ty)? > 1))
            } else {
                None
            };
            code.push(
                index,
                Inst::TensorRead {
                    dst: dst.slot,
                    tensor: tensor.slot,
                    coords: coords.slot,
                    rank,
                    coord_bits: coord_bits as u8,
                    count,
                    element,
                    oob,
                },
            );
        } else {
            let src = self.operand(index, inst, 2)?;
            let count = count_of(self, src.ty)?;
            code.push(
                index,
                Inst::TensorWrite {
                    tensor: tensor.slot,
                    coords: coords.slot,
                    rank,
                    coord_bits: coord_bits as u8,
                    count,
                    element,
                    src: src.slot,
                },
            );
        }
        Ok(())
    }
}
