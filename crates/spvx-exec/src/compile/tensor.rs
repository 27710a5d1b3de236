//! Translation of the SPV_ARM_tensors instructions (OpTensorReadARM, OpTensorWriteARM,
//! OpTensorQuerySizeARM) and of shaped tensor values: OpCompositeConstruct and the constants
//! (OpConstantComposite, OpConstantNull, OpConstantCompositeReplicateEXT, their spec forms) of
//! an `OpTypeTensorARM` with a Shape. A tensor value is one register holding a pointer: to a
//! bound storage tensor, or (a value) into private memory, where its elements are packed
//! row-major with the element size of storage tensors (docs/semantics/tensors.md).

use super::Compiler;
use super::func::Code;
use super::globals::reserve;
use crate::error::ExecError;
use crate::exec::tensor::element_bytes;
use crate::memory::{Ptr, SPACE_PRIVATE};
use crate::program::*;
use spvx_spirv::index::Type;
use spvx_spirv::instruction::{Id, Instruction};
use spvx_spirv::op::Op;

/// The most bytes one tensor value may take in private memory (64 MiB, a fraction of the
/// private memory limit; a larger composite or constant is refused when compiled).
const MAX_TENSOR_VALUE_BYTES: u64 = 1 << 26;

impl Compiler<'_> {
    /// OpTensorReadARM, OpTensorWriteARM, OpTensorQuerySizeARM.
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
        let shape = self.tensor_shape(index, tensor.ty)?;
        if inst.opcode == Op::TensorQuerySizeARM {
            let dst = self.result(index, inst)?;
            let d = self.operand(index, inst, 1)?;
            let dim = u32::try_from(self.eval[d.slot as usize])
                .map_err(|_| self.err(index, "dimension out of range"))?;
            let bits = self.scalar(index, dst.ty)?.bits() as u8;
            if let Some(shape) = &shape {
                // A shaped type's dimensions are its Shape (a bound tensor must have it: it is
                // checked before the run), also for a tensor value.
                let n = *shape
                    .get(dim as usize)
                    .ok_or_else(|| self.err(index, "dimension out of range"))?;
                let value = n & crate::bits::low_bits(bits as u32);
                code.push(
                    index,
                    Inst::Const {
                        dst: dst.slot,
                        value,
                    },
                );
                return Ok(());
            }
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
        if inst.opcode == Op::TensorReadARM {
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
                    shape: shape.map(Vec::into_boxed_slice),
                },
            );
        } else {
            let tid = inst.operands.first().and_then(|o| o.id()).unwrap_or(0);
            if self.tensor_values.contains(&tid) {
                return Err(self.unsupported(
                    index,
                    "OpTensorWriteARM to a tensor value (a composite or a constant)",
                ));
            }
            // A tensor value could also reach the write through OpCopyObject, OpPhi, OpSelect
            // or a call, where the write would have nowhere to go: when the module makes
            // tensor values at all, a write must take its tensor straight from an OpLoad.
            let loaded = self.ix.def_inst(tid).is_some_and(|d| d.opcode == Op::Load);
            if !loaded && self.module_makes_tensor_values() {
                return Err(self.unsupported(
                    index,
                    "OpTensorWriteARM to a tensor not loaded straight from a tensor variable, in a module that makes tensor values (composites or constants)",
                ));
            }
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

    /// Refuses an OpPhi of a tensor type in a module that builds tensor values while it runs:
    /// each OpCompositeConstruct (or Extract, Insert) of a tensor reuses one block of private
    /// memory on every execution, so a phi still holding an earlier execution's value would
    /// read the later one's elements.
    pub(crate) fn check_tensor_phi(
        &self,
        index: usize,
        inst: &Instruction,
    ) -> Result<(), ExecError> {
        let tensor = inst
            .result_type
            .is_some_and(|t| matches!(self.ix.ty(t), Some(Type::Tensor { .. })));
        if !tensor {
            return Ok(());
        }
        let built = self.module_has_tensor_typed(&[
            Op::CompositeConstruct,
            Op::CompositeExtract,
            Op::CompositeInsert,
        ]);
        if built {
            return Err(self.unsupported(
                index,
                "OpPhi of a tensor type in a module that builds tensor values while it runs",
            ));
        }
        Ok(())
    }

    /// True when an instruction of the module makes a tensor value (a composite, constant,
    /// undef or extracted sub-tensor of a tensor type), which lives in private memory.
    fn module_makes_tensor_values(&self) -> bool {
        self.module_has_tensor_typed(&[
            Op::CompositeConstruct,
            Op::CompositeExtract,
            Op::CompositeInsert,
            Op::ConstantComposite,
            Op::SpecConstantComposite,
            Op::ConstantNull,
            Op::Undef,
            Op::ConstantCompositeReplicateEXT,
            Op::SpecConstantCompositeReplicateEXT,
        ])
    }

    /// True when an instruction of the module with one of `ops` has a tensor result type.
    fn module_has_tensor_typed(&self, ops: &[Op]) -> bool {
        self.ix.insts.iter().any(|i| {
            ops.contains(&i.opcode)
                && i.result_type
                    .is_some_and(|t| matches!(self.ix.ty(t), Some(Type::Tensor { .. })))
        })
    }

    /// The Shape of tensor type `ty` (outermost first), `None` without one.
    pub(crate) fn tensor_shape(&self, index: usize, ty: Id) -> Result<Option<Vec<u64>>, ExecError> {
        let Type::Tensor {
            shape: Some(shape), ..
        } = self.ty(index, ty)?.clone()
        else {
            return Ok(None);
        };
        let v = self.value(index, shape)?;
        let Type::Array { element, length } = self.ty(index, v.ty)?.clone() else {
            return Err(self.err(index, "a tensor Shape that is not an array"));
        };
        let n = self.array_length(index, length)?;
        let bits = self.scalar(index, element)?.bits();
        Ok(Some(
            (0..n)
                .map(|k| self.eval[(v.slot + k) as usize] & crate::bits::low_bits(bits))
                .collect(),
        ))
    }

    /// The element scalar, Shape and byte size of a shaped tensor value of type `ty`.
    fn tensor_value_layout(
        &self,
        index: usize,
        ty: Id,
    ) -> Result<(Scalar, Vec<u64>, u64), ExecError> {
        let Type::Tensor { element, .. } = self.ty(index, ty)?.clone() else {
            return Err(self.err(index, "expected a tensor type"));
        };
        let element = self.scalar(index, element)?;
        let Some(shape) = self.tensor_shape(index, ty)? else {
            return Err(self.err(index, "a tensor value needs a type with a Shape"));
        };
        let bytes = shape
            .iter()
            .try_fold(element_bytes(element) as u64, |a, &d| a.checked_mul(d))
            .filter(|&b| b <= MAX_TENSOR_VALUE_BYTES)
            .ok_or_else(|| {
                self.unsupported(
                    index,
                    format!("tensor values of more than {MAX_TENSOR_VALUE_BYTES} bytes"),
                )
            })?;
        Ok((element, shape, bytes))
    }

    /// Reserves private memory for a tensor value: its pointer.
    fn tensor_value_memory(&mut self, index: usize, bytes: u64) -> Result<u64, ExecError> {
        let off = reserve(&mut self.globals.private_bytes, bytes, 8)
            .ok_or_else(|| self.err(index, "private memory too large for a tensor value"))?;
        self.globals
            .private_init
            .resize(self.globals.private_bytes as usize, 0);
        Ok(Ptr::new(SPACE_PRIVATE, off as u64).0)
    }

    /// OpCompositeConstruct of a shaped tensor type: `Inst::TensorPack`.
    pub(crate) fn tensor_construct(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
    ) -> Result<(), ExecError> {
        let dst = self.result(index, inst)?;
        let (element, shape, bytes) = self.tensor_value_layout(index, dst.ty)?;
        let parts = (0..inst.operands.len())
            .map(|i| self.operand(index, inst, i).map(|v| v.slot))
            .collect::<Result<Box<[Slot]>, _>>()?;
        if parts.len() as u64 != shape[0] {
            return Err(self.err(index, "constituent count differs from Shape[0]"));
        }
        let at = self.tensor_value_memory(index, bytes)?;
        if let Some(id) = inst.result {
            self.tensor_values.insert(id);
        }
        code.push(
            index,
            Inst::TensorPack {
                dst: dst.slot,
                at,
                parts,
                element,
                inner: shape[1..].into(),
            },
        );
        Ok(())
    }

    /// A tensor constant (`OpConstantComposite`, `OpSpecConstantComposite`, `OpConstantNull`,
    /// `OpUndef`, the replicate forms) of a shaped tensor type: its elements written into the
    /// private memory's initial bytes, its register the pointer to them.
    pub(crate) fn tensor_constant(
        &mut self,
        index: usize,
        inst: &Instruction,
        slot: Slot,
    ) -> Result<(), ExecError> {
        let ty = inst
            .result_type
            .ok_or_else(|| self.err(index, "missing result type"))?;
        let (element, shape, bytes) = self.tensor_value_layout(index, ty)?;
        let at = self.tensor_value_memory(index, bytes)?;
        if let Some(id) = inst.result {
            self.tensor_values.insert(id);
        }
        self.eval[slot as usize] = at;
        let base = Ptr(at).offset() as usize;
        let eb = element_bytes(element) as usize;
        let n = shape[0] as usize;
        let part_bytes = bytes as usize / n.max(1);
        let ids: Vec<Id> = inst.operands.iter().filter_map(|o| o.id()).collect();
        let replicate = matches!(
            inst.opcode,
            Op::ConstantCompositeReplicateEXT | Op::SpecConstantCompositeReplicateEXT
        );
        if matches!(inst.opcode, Op::ConstantNull | Op::Undef) {
            return Ok(()); // zero (OpUndef: the engine's zero)
        }
        if replicate {
            // One Element Type value for every element (SPIRV-Tools' reading, any rank).
            let v = self.value(index, ids.first().copied().unwrap_or(0))?;
            let bits = self.eval[v.slot as usize];
            for k in 0..bytes as usize / eb {
                self.put_element(base + k * eb, eb, element, bits);
            }
            return Ok(());
        }
        if ids.len() != n {
            return Err(self.err(index, "constituent count differs from Shape[0]"));
        }
        for (i, id) in ids.into_iter().enumerate() {
            let v = self.value(index, id)?;
            if shape.len() == 1 {
                let bits = self.eval[v.slot as usize];
                self.put_element(base + i * eb, eb, element, bits);
            } else {
                // A constant sub-tensor: its bytes, already in the initial private memory.
                let from = Ptr(self.eval[v.slot as usize]);
                let from = from.offset() as usize;
                let src = self
                    .globals
                    .private_init
                    .get(from..from + part_bytes)
                    .ok_or_else(|| self.err(index, "a tensor constituent that is not a constant"))?
                    .to_vec();
                let to = base + i * part_bytes;
                self.globals.private_init[to..to + part_bytes].copy_from_slice(&src);
            }
        }
        Ok(())
    }

    /// OpCompositeExtract from a shaped tensor: an element (Rank indices) or a tensor value
    /// of the remaining Shape (fewer indices), as `Inst::TensorExtract`.
    pub(crate) fn tensor_extract(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
    ) -> Result<(), ExecError> {
        let dst = self.result(index, inst)?;
        let src = self.operand(index, inst, 0)?;
        let (element, shape, _) = self.tensor_value_layout(index, src.ty)?;
        let ix = super::operands::literals(inst, 1);
        if ix.is_empty() || ix.len() > shape.len() {
            return Err(self.err(
                index,
                "OpCompositeExtract: wrong index count for the tensor",
            ));
        }
        let mut first = 0u64;
        for (k, &i) in ix.iter().enumerate() {
            if i as u64 >= shape[k] {
                return Err(self.err(index, "OpCompositeExtract: index out of the Shape"));
            }
            first = first * shape[k] + i as u64;
        }
        let rest: u64 = shape[ix.len()..].iter().product();
        first *= rest;
        let at = if ix.len() == shape.len() {
            None
        } else {
            let bytes = rest * element_bytes(element) as u64;
            if let Some(id) = inst.result {
                self.tensor_values.insert(id);
            }
            Some(self.tensor_value_memory(index, bytes)?)
        };
        code.push(
            index,
            Inst::TensorExtract {
                dst: dst.slot,
                src: src.slot,
                shape: shape.into_boxed_slice(),
                first,
                count: if at.is_some() { rest } else { 1 },
                element,
                at,
            },
        );
        Ok(())
    }

    /// OpCompositeInsert into a shaped tensor: a new tensor value (its own block of private
    /// memory) holding the composite's elements (`Inst::TensorExtract` of all of them), then
    /// the object — an element (Rank indices) or a sub-tensor of the remaining Shape — written
    /// over its place (`Inst::TensorPack` of the one constituent at that byte).
    pub(crate) fn tensor_insert(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
    ) -> Result<(), ExecError> {
        let dst = self.result(index, inst)?;
        let obj = self.operand(index, inst, 0)?;
        let comp = self.operand(index, inst, 1)?;
        let (element, shape, bytes) = self.tensor_value_layout(index, comp.ty)?;
        let ix = super::operands::literals(inst, 2);
        if ix.is_empty() || ix.len() > shape.len() {
            return Err(self.err(index, "OpCompositeInsert: wrong index count for the tensor"));
        }
        let mut first = 0u64;
        for (k, &i) in ix.iter().enumerate() {
            if i as u64 >= shape[k] {
                return Err(self.err(index, "OpCompositeInsert: index out of the Shape"));
            }
            first = first * shape[k] + i as u64;
        }
        let inner: Box<[u64]> = shape[ix.len()..].into();
        first *= inner.iter().product::<u64>();
        let total: u64 = shape.iter().product();
        let at = self.tensor_value_memory(index, bytes)?;
        if let Some(id) = inst.result {
            self.tensor_values.insert(id);
        }
        code.push(
            index,
            Inst::TensorExtract {
                dst: dst.slot,
                src: comp.slot,
                shape: shape.into_boxed_slice(),
                first: 0,
                count: total,
                element,
                at: Some(at),
            },
        );
        let scratch = self.alloc(index, 1)?;
        code.push(
            index,
            Inst::TensorPack {
                dst: scratch,
                at: at.wrapping_add(first * element_bytes(element) as u64),
                parts: Box::new([obj.slot]),
                element,
                inner,
            },
        );
        Ok(())
    }

    fn put_element(&mut self, at: usize, eb: usize, element: Scalar, bits: u64) {
        let bits = if element == Scalar::Bool {
            (bits != 0) as u64
        } else {
            bits
        };
        for (k, b) in self.globals.private_init[at..at + eb]
            .iter_mut()
            .enumerate()
        {
            *b = (bits >> (8 * k)) as u8;
        }
    }
}
