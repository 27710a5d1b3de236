//! Translation of the memory instructions: function variables (OpVariable), OpLoad, OpStore,
//! the access chains, OpCopyMemory and OpArrayLength; and the pointer facts the atomics share
//! (pointee types, arrays of buffers).

use super::func::Code;
use super::globals::{reserve, sc};
use super::types::MatrixDeco;
use super::{Compiler, Value};
use crate::error::ExecError;
use crate::memory::{Ptr, SPACE_PRIVATE};
use crate::program::*;
use spvx_spirv::index::Type;
use spvx_spirv::instruction::{Id, Instruction};
use spvx_spirv::op::Op;

/// The Workgroup storage class (SPIR-V 1.6 §3.7).
const STORAGE_WORKGROUP: u32 = 4;
/// Capability WorkgroupMemoryExplicitLayoutKHR (SPV_KHR_workgroup_memory_explicit_layout).
const CAP_WORKGROUP_MEMORY_EXPLICIT_LAYOUT: u32 = 4428;

impl Compiler<'_> {
    /// The pointee type of a pointer value.
    pub(crate) fn pointee(
        &self,
        index: usize,
        ptr: Value,
    ) -> Result<spvx_spirv::instruction::Id, ExecError> {
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
        // Under Logical addressing a pointer may be held in Function and Private memory only
        // (VariablePointers), where it is kept as its `memory::Ptr` bits; elsewhere those bits
        // would be visible, so such an access is refused.
        if self.pointer_bits.is_none() && out.iter().any(|l| l.scalar == Scalar::Ptr) {
            let class = match self.ix.value_type(ptr_id) {
                Some(Type::Pointer { storage_class, .. }) => *storage_class,
                _ => u32::MAX,
            };
            if class != sc::FUNCTION && class != sc::PRIVATE {
                return Err(self.unsupported(
                    index,
                    format!("logical pointers stored in storage class {class} memory"),
                ));
            }
        }
        Ok(out.into())
    }

    /// A memory instruction (variables, loads, stores, access chains, copies, array lengths).
    pub(crate) fn memory_op(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        opcode: Op,
    ) -> Result<(), ExecError> {
        if self.promoted_op(index, inst, code)? {
            return Ok(());
        }
        match opcode {
            Op::Variable => {
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
            Op::Load => {
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
            Op::Store => {
                let ptr = self.operand(index, inst, 0)?;
                let v = self.operand(index, inst, 1)?;
                let pid = inst.operands.first().and_then(|o| o.id()).unwrap_or(0);
                let leaves = self.access_leaves(index, pid, v.ty)?;
                self.push_store(index, ptr.slot, v.slot, leaves, code)
            }
            Op::AccessChain
            | Op::InBoundsAccessChain
            | Op::PtrAccessChain
            | Op::InBoundsPtrAccessChain => self.access_chain(index, inst, code, opcode),
            Op::CopyMemory => {
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
            Op::ArrayLength => {
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
            _ => Err(self.unsupported(index, opcode.name())),
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
        opcode: Op,
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
        if !matches!(opcode, Op::PtrAccessChain | Op::InBoundsPtrAccessChain)
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
        if matches!(opcode, Op::PtrAccessChain | Op::InBoundsPtrAccessChain) {
            first = 2;
            let e = self.operand(index, inst, 1)?;
            let e_id = inst.operands.get(1).and_then(|o| o.id()).unwrap_or(0);
            let bits = self.scalar(index, e.ty)?.bits();
            let stride = self.ptr_step(index, base.ty, t, m)?;
            let constant = self
                .ix
                .is_constant(e_id)
                .then(|| crate::bits::sext(self.eval[e.slot as usize], bits))
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
                .then(|| crate::bits::sext(self.eval[iv.slot as usize], bits));
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

    /// The byte step of OpPtrAccessChain's `Element` (and the unit of OpPtrDiff under Logical
    /// addressing) for a pointer of type `ptr_ty` to `pointee`. SPIR-V 1.6 OpPtrAccessChain:
    /// the pointer type's ArrayStride gives the step for the Uniform, StorageBuffer and
    /// PushConstant storage classes; for others "the implementation calculates" it. In
    /// Workgroup memory without explicit layout (no WorkgroupMemoryExplicitLayoutKHR, or no
    /// Workgroup Block: [`Self::workgroup_explicitly_laid_out`]) spvx
    /// ignores the decoration and steps by the pointee's size in its workgroup layout, as the
    /// Vulkan CTS expects (docs/semantics/memory-and-resources.md, "OpPtrAccessChain strides
    /// in Workgroup memory").
    pub(crate) fn ptr_step(
        &self,
        index: usize,
        ptr_ty: Id,
        pointee: Id,
        m: MatrixDeco,
    ) -> Result<u32, ExecError> {
        let honour_stride = !matches!(
            self.ty(index, ptr_ty)?,
            Type::Pointer {
                storage_class: STORAGE_WORKGROUP,
                ..
            }
        ) || self.workgroup_explicitly_laid_out();
        let declared = self
            .deco(ptr_ty, super::types::deco::ARRAY_STRIDE)
            .and_then(|w| w.first().copied())
            .filter(|_| honour_stride);
        let stride = match declared {
            Some(s) => s as u64,
            None => {
                let (s, a) = self.size_align(index, pointee, m)?;
                s.next_multiple_of(a.max(1))
            }
        };
        u32::try_from(stride)
            .map_err(|_| self.err(index, "pointee too large for pointer arithmetic"))
    }

    /// True when the module's Workgroup memory is explicitly laid out: it declares
    /// WorkgroupMemoryExplicitLayoutKHR and its Workgroup variables are Block structs
    /// (SPV_KHR_workgroup_memory_explicit_layout: all of an entry point's or none). The
    /// capability alone does not lay out plain Workgroup variables: the CTS's
    /// ptr_access_chain/workgroup_bad_stride declares it, has no Block, and expects a wrong
    /// ArrayStride on the Workgroup pointer type ignored.
    fn workgroup_explicitly_laid_out(&self) -> bool {
        if !self
            .ix
            .enabled_capabilities
            .contains(&CAP_WORKGROUP_MEMORY_EXPLICIT_LAYOUT)
        {
            return false;
        }
        self.ix.insts.iter().any(|inst| {
            inst.opcode == Op::Variable
                && inst.operands.first().and_then(|o| o.word()) == Some(STORAGE_WORKGROUP)
                && inst
                    .result_type
                    .and_then(|t| match self.ix.ty(t) {
                        Some(Type::Pointer { pointee, .. }) => Some(*pointee),
                        _ => None,
                    })
                    .is_some_and(|p| self.deco(p, super::types::deco::BLOCK).is_some())
        })
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
}
