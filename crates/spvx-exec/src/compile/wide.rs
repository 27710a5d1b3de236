//! Integers wider than 64 bits (SPV_INTEL_arbitrary_precision_integers) in the compiler.
//!
//! Representation (see `program::wide`): a `bits`-bit integer, 65 ≤ bits ≤ [`MAX_WIDE_BITS`],
//! is `limbs(bits)` register leaves, little-endian 64-bit limbs, the last holding the top
//! `bits − 64·(k − 1)` bits with the unused high bits zero. Copies, composites, OpSelect,
//! OpPhi, calls, loads and stores therefore work leaf by leaf like any other value; this file
//! adds the types' leaves and memory layout, constants, and the instructions that compute.
//!
//! Memory layout: `8·limbs(bits)` bytes, aligned to 8, limb `i` at byte `8·i` (the layout of
//! LLVM's `iN` / C `_BitInt(N)` on the SPIR target, spir64: the data layout's largest integer
//! alignment is `i64:64`; checked with clang-15, docs/semantics/wide-integers.md).

use super::func::Code;
use super::operands::literals;
use super::{Compiler, Value};
use crate::error::ExecError;
use crate::exec::limbs::limbs;
use crate::program::wide::{WideInst, WideOp};
use crate::program::*;
use spvx_spirv::index::Type;
use spvx_spirv::instruction::{Id, Instruction, OperandValue};
use spvx_spirv::op::Op;

pub(crate) use crate::program::wide::MAX_WIDE_BITS;

impl Compiler<'_> {
    /// True when `ty` is an integer type wider than 64 bits (of any width, even beyond
    /// [`MAX_WIDE_BITS`], which the users of this test then refuse).
    pub(crate) fn is_wide_type(&self, ty: Option<Id>) -> bool {
        matches!(ty.and_then(|t| self.ix.ty(t)), Some(Type::Int { width, .. }) if *width > 64)
    }

    /// The width of a wide integer type, refusing widths above [`MAX_WIDE_BITS`].
    pub(crate) fn wide_bits(&self, index: usize, width: u32) -> Result<u32, ExecError> {
        if width > MAX_WIDE_BITS {
            return Err(self.unsupported(
                index,
                format!(
                    "{width}-bit integers (the engine computes with at most {MAX_WIDE_BITS} bits)"
                ),
            ));
        }
        Ok(width)
    }

    /// The register leaves of a `width`-bit integer (width > 64): 64-bit limbs, the last one
    /// as wide as the bits it holds.
    pub(crate) fn wide_leaves(
        &self,
        index: usize,
        width: u32,
        out: &mut Vec<Scalar>,
    ) -> Result<(), ExecError> {
        let bits = self.wide_bits(index, width)?;
        let k = limbs(bits);
        out.extend(std::iter::repeat_n(Scalar::Int(64), k - 1));
        out.push(Scalar::Int((bits - 64 * (k as u32 - 1)) as u8));
        Ok(())
    }

    /// Size and alignment in memory of a `width`-bit integer (width > 64).
    pub(crate) fn wide_size_align(
        &self,
        index: usize,
        width: u32,
    ) -> Result<(u64, u64), ExecError> {
        let bits = self.wide_bits(index, width)?;
        Ok((8 * limbs(bits) as u64, 8))
    }

    /// The memory leaves of a `width`-bit integer at `base`: limb `i` at `base + 8·i`.
    pub(crate) fn wide_mem_leaves(
        &self,
        index: usize,
        width: u32,
        base: u64,
        slot: &mut u32,
        out: &mut Vec<Leaf>,
    ) -> Result<(), ExecError> {
        let mut scalars = Vec::new();
        self.wide_leaves(index, width, &mut scalars)?;
        for (i, scalar) in scalars.into_iter().enumerate() {
            let offset = u32::try_from(base + 8 * i as u64)
                .map_err(|_| self.err(index, "offset beyond 4 GiB"))?;
            out.push(Leaf {
                slot: *slot,
                offset,
                scalar,
            });
            *slot += 1;
        }
        Ok(())
    }

    /// OpConstant / OpSpecConstant of a wide integer type: the literal's words (low word
    /// first) into the limbs. A SpecId override (a `u64`) gives the low 64 bits, the others 0.
    pub(crate) fn wide_constant(
        &mut self,
        index: usize,
        inst: &Instruction,
        v: Value,
    ) -> Result<(), ExecError> {
        let Some(Type::Int { width, .. }) = self.ix.ty(v.ty).cloned() else {
            return Err(self.err(index, "expected a wide integer type"));
        };
        let words: Vec<u32> = match inst.operands.first().map(|o| &o.value) {
            Some(OperandValue::Number(ws)) => ws.clone(),
            Some(OperandValue::Word(w)) => vec![*w],
            _ => return Err(self.err(index, "constant without a value")),
        };
        let k = limbs(width);
        let mut limb_values = vec![0u64; k];
        for (i, w) in words.iter().enumerate().take(2 * k) {
            limb_values[i / 2] |= (*w as u64) << (32 * (i % 2));
        }
        let spec_id = inst
            .result
            .and_then(|id| self.deco(id, super::types::deco::SPEC_ID))
            .and_then(|w| w.first().copied());
        if inst.opcode == Op::SpecConstant
            && let Some(o) = spec_id.and_then(|s| self.opts.spec_constants.get(&s))
        {
            limb_values.fill(0);
            limb_values[0] = *o;
        }
        crate::exec::limbs::normalise(&mut limb_values, width);
        for (i, x) in limb_values.into_iter().enumerate() {
            self.eval[v.slot as usize + i] = x;
        }
        Ok(())
    }

    /// The component width and count of an integer scalar or vector type of any width;
    /// `None` for other types.
    pub(crate) fn int_shape(&self, ty: Id) -> Option<(u32, u32)> {
        let (c, n) = match self.resolved_ty(ty)? {
            Type::Vector { component, count } => (*component, *count),
            _ => (ty, 1),
        };
        match self.ix.ty(c)? {
            Type::Int { width, .. } => Some((*width, n)),
            _ => None,
        }
    }

    /// The component width and count of a value or result type that must be an integer.
    fn shape(&self, index: usize, ty: Id) -> Result<(u32, u32), ExecError> {
        self.int_shape(ty).ok_or_else(|| {
            self.err(
                index,
                format!("{} is not an integer type", self.ix.name(ty)),
            )
        })
    }

    /// True when the result or an operand of `inst` is (a vector of) integers wider than 64
    /// bits.
    fn involves_wide(&self, inst: &Instruction) -> bool {
        let wide = |ty: Id| self.int_shape(ty).is_some_and(|(w, _)| w > 64);
        inst.result_type.is_some_and(wide)
            || inst
                .operands
                .iter()
                .filter_map(|o| o.id())
                .filter_map(|id| self.values.get(&id))
                .any(|v| wide(v.ty))
    }

    /// Translates `inst` when it computes on wide integers (`Ok(true)`); `Ok(false)` leaves it
    /// to the ordinary translation (copies, composites, memory, calls: leaf by leaf).
    pub(crate) fn wide_op(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
    ) -> Result<bool, ExecError> {
        if !self.involves_wide(inst) {
            return Ok(false);
        }
        let opcode = inst.opcode;
        if matches!(opcode, Op::SatConvertSToU | Op::SatConvertUToS)
            || (self.saturated(inst.result) && matches!(opcode, Op::SConvert | Op::UConvert))
        {
            return Err(self.unsupported(
                index,
                format!("saturating {opcode} on integers wider than 64 bits"),
            ));
        }
        let bin = |op| Some(WideKind::Bin(op));
        let cmp = |op| Some(WideKind::Cmp(op));
        let kind = match opcode {
            Op::IAdd => bin(IBinOp::Add),
            Op::ISub => bin(IBinOp::Sub),
            Op::IMul => bin(IBinOp::Mul),
            Op::UDiv => bin(IBinOp::UDiv),
            Op::SDiv => bin(IBinOp::SDiv),
            Op::UMod => bin(IBinOp::UMod),
            Op::SRem => bin(IBinOp::SRem),
            Op::SMod => bin(IBinOp::SMod),
            Op::BitwiseAnd => bin(IBinOp::And),
            Op::BitwiseOr => bin(IBinOp::Or),
            Op::BitwiseXor => bin(IBinOp::Xor),
            Op::ShiftLeftLogical => Some(WideKind::Shift(IBinOp::Shl)),
            Op::ShiftRightLogical => Some(WideKind::Shift(IBinOp::ShrLogical)),
            Op::ShiftRightArithmetic => Some(WideKind::Shift(IBinOp::ShrArith)),
            Op::SNegate => Some(WideKind::Un(IUnOp::Negate)),
            Op::Not => Some(WideKind::Un(IUnOp::Not)),
            Op::IEqual => cmp(ICmpOp::Eq),
            Op::INotEqual => cmp(ICmpOp::Ne),
            Op::UGreaterThan => cmp(ICmpOp::UGt),
            Op::UGreaterThanEqual => cmp(ICmpOp::UGe),
            Op::ULessThan => cmp(ICmpOp::ULt),
            Op::ULessThanEqual => cmp(ICmpOp::ULe),
            Op::SGreaterThan => cmp(ICmpOp::SGt),
            Op::SGreaterThanEqual => cmp(ICmpOp::SGe),
            Op::SLessThan => cmp(ICmpOp::SLt),
            Op::SLessThanEqual => cmp(ICmpOp::SLe),
            Op::UConvert => Some(WideKind::Convert(false)),
            Op::SConvert => Some(WideKind::Convert(true)),
            _ => None,
        };
        if let Some(kind) = kind {
            self.wide_each(index, inst, code, kind)?;
            return Ok(true);
        }
        match opcode {
            Op::Select => self.wide_select(index, inst, code)?,
            Op::VectorShuffle => self.wide_shuffle(index, inst, code)?,
            Op::VectorExtractDynamic | Op::VectorInsertDynamic => {
                self.wide_dynamic(index, inst, code, opcode == Op::VectorExtractDynamic)?
            }
            Op::Bitcast => return self.wide_bitcast(index, inst, code),
            Op::IAddCarry | Op::ISubBorrow | Op::UMulExtended | Op::SMulExtended => {
                let op = match opcode {
                    Op::IAddCarry => IWideOp::AddCarry,
                    Op::ISubBorrow => IWideOp::SubBorrow,
                    Op::UMulExtended => IWideOp::UMulExtended,
                    _ => IWideOp::SMulExtended,
                };
                self.wide_extended(index, inst, code, op)?
            }
            Op::BitCount
            | Op::BitReverse
            | Op::BitFieldInsert
            | Op::BitFieldSExtract
            | Op::BitFieldUExtract => self.wide_bit_op(index, inst, code, opcode)?,
            Op::ConvertUToF | Op::ConvertSToF | Op::ConvertFToU | Op::ConvertFToS => {
                self.wide_float_conversion(index, inst, code, opcode)?
            }
            Op::ExtInst | Op::ConvertUToPtr | Op::ConvertPtrToU => {
                return Err(
                    self.unsupported(index, format!("{opcode} on integers wider than 64 bits"))
                );
            }
            op if op.is_atomic() || op.is_group() => {
                return Err(
                    self.unsupported(index, format!("{opcode} on integers wider than 64 bits"))
                );
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// One [`WideInst`] per component of the result.
    fn wide_each(
        &self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        kind: WideKind,
    ) -> Result<(), ExecError> {
        let dst = self.result(index, inst)?;
        let a = self.operand(index, inst, 0)?;
        let (rbits, n) = self.shape_or_bool(index, dst.ty)?;
        let (abits, an) = self.shape(index, a.ty)?;
        let b = match kind {
            WideKind::Un(_) | WideKind::Convert(_) => None,
            _ => Some(self.operand(index, inst, 1)?),
        };
        let (bbits, bn) = match b {
            Some(b) => self.shape(index, b.ty)?,
            None => (abits, an),
        };
        self.wide_bits(index, rbits.max(abits).max(bbits))?;
        let op = match kind {
            WideKind::Bin(op) => WideOp::Bin { op, bits: rbits },
            WideKind::Shift(op) => WideOp::Shift {
                op,
                bits: rbits,
                shift_bits: bbits,
            },
            WideKind::Un(op) => WideOp::Un { op, bits: rbits },
            WideKind::Cmp(op) => WideOp::Cmp { op, bits: abits },
            WideKind::Convert(signed) => WideOp::Convert {
                from: abits,
                to: rbits,
                signed,
            },
        };
        let (rk, ak, bk) = (
            limbs(rbits.max(1)) as u32,
            limbs(abits) as u32,
            limbs(bbits) as u32,
        );
        let at =
            |slot: Slot, k: u32, count: u32, i: u32| if count == 1 { slot } else { slot + i * k };
        for i in 0..n {
            let w = WideInst {
                op,
                dst: dst.slot + i * rk,
                a: at(a.slot, ak, an, i),
                b: b.map_or(0, |b| at(b.slot, bk, bn, i)),
                c: 0,
                d: 0,
            };
            code.push(index, Inst::Wide(Box::new(w)));
        }
        Ok(())
    }

    /// [`Self::shape`], with a boolean (scalar or vector) as width 1.
    fn shape_or_bool(&self, index: usize, ty: Id) -> Result<(u32, u32), ExecError> {
        let (c, n) = self.components(index, ty)?;
        if matches!(self.ty(index, c)?, Type::Bool) {
            return Ok((1, n));
        }
        self.shape(index, ty)
    }

    /// OpSelect of values holding wide integers: one register select per limb, with the
    /// component's condition when the condition is a vector.
    fn wide_select(
        &self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
    ) -> Result<(), ExecError> {
        let dst = self.result(index, inst)?;
        let cond = self.operand(index, inst, 0)?;
        let (a, b) = (self.operand(index, inst, 1)?, self.operand(index, inst, 2)?);
        let total = self.slot_count(index, dst.ty)?;
        let (_, cn) = self.components(index, cond.ty)?;
        let per = total / cn.max(1);
        for s in 0..total {
            let c = if cn == 1 {
                cond.slot
            } else {
                cond.slot + s / per
            };
            code.push(
                index,
                Inst::Select {
                    dst: dst.slot + s,
                    cond: c,
                    a: a.slot + s,
                    b: b.slot + s,
                },
            );
        }
        Ok(())
    }

    /// OpVectorShuffle of wide components: limb copies (an undefined component, 0xFFFFFFFF,
    /// gives 0).
    fn wide_shuffle(
        &self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
    ) -> Result<(), ExecError> {
        let dst = self.result(index, inst)?;
        let (a, b) = (self.operand(index, inst, 0)?, self.operand(index, inst, 1)?);
        let (bits, _) = self.shape(index, dst.ty)?;
        let (_, na) = self.shape(index, a.ty)?;
        let k = limbs(self.wide_bits(index, bits)?) as u32;
        for (i, c) in literals(inst, 2).into_iter().enumerate() {
            let d = dst.slot + i as u32 * k;
            for j in 0..k {
                let inst = if c == u32::MAX {
                    Inst::Const {
                        dst: d + j,
                        value: 0,
                    }
                } else if c < na {
                    Inst::Copy {
                        dst: d + j,
                        src: a.slot + c * k + j,
                    }
                } else {
                    Inst::Copy {
                        dst: d + j,
                        src: b.slot + (c - na) * k + j,
                    }
                };
                code.push(index, inst);
            }
        }
        Ok(())
    }

    /// OpVectorExtractDynamic / OpVectorInsertDynamic on vectors of wide integers.
    fn wide_dynamic(
        &self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        extract: bool,
    ) -> Result<(), ExecError> {
        let dst = self.result(index, inst)?;
        let v = self.operand(index, inst, 0)?;
        let (bits, count) = self.shape(index, v.ty)?;
        let bits = self.wide_bits(index, bits)?;
        let i = self.operand(index, inst, if extract { 1 } else { 2 })?;
        let index_bits = self.scalar(index, i.ty)?.bits();
        let w = if extract {
            WideInst {
                op: WideOp::ExtractDyn {
                    bits,
                    count,
                    index_bits,
                },
                dst: dst.slot,
                a: v.slot,
                b: i.slot,
                c: 0,
                d: 0,
            }
        } else {
            WideInst {
                op: WideOp::InsertDyn {
                    bits,
                    count,
                    index_bits,
                },
                dst: dst.slot,
                a: v.slot,
                b: self.operand(index, inst, 1)?.slot,
                c: i.slot,
                d: 0,
            }
        };
        code.push(index, Inst::Wide(Box::new(w)));
        Ok(())
    }

    /// OpBitcast where a side holds wide integers: the bits regrouped (component 0 lowest).
    /// Pointers are left to the pointer instructions (`Ok(false)`).
    fn wide_bitcast(
        &self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
    ) -> Result<bool, ExecError> {
        let dst = self.result(index, inst)?;
        let v = self.operand(index, inst, 0)?;
        let (Some(d), Some(s)) = (self.bit_shape(index, dst.ty)?, self.bit_shape(index, v.ty)?)
        else {
            return Ok(false);
        };
        if d.0 * d.1 != s.0 * s.1 {
            return Err(self.err(index, "bitcast between types of different total widths"));
        }
        self.wide_bits(index, d.0.max(s.0))?;
        let w = WideInst {
            op: WideOp::Bitcast {
                dst_bits: d.0,
                dst_count: d.1,
                src_bits: s.0,
                src_count: s.1,
            },
            dst: dst.slot,
            a: v.slot,
            b: 0,
            c: 0,
            d: 0,
        };
        code.push(index, Inst::Wide(Box::new(w)));
        Ok(true)
    }

    /// Component width and count of an integer or float scalar or vector; `None` for
    /// pointers.
    fn bit_shape(&self, index: usize, ty: Id) -> Result<Option<(u32, u32)>, ExecError> {
        if let Some(s) = self.int_shape(ty) {
            return Ok(Some(s));
        }
        let (c, n) = self.components(index, ty)?;
        match self.ty(index, c)? {
            Type::Pointer { .. } => Ok(None),
            _ => Ok(Some((self.scalar(index, c)?.bits(), n))),
        }
    }
}

/// The families of per-component wide instructions.
#[derive(Clone, Copy)]
enum WideKind {
    Bin(IBinOp),
    Shift(IBinOp),
    Un(IUnOp),
    Cmp(ICmpOp),
    Convert(bool),
}
