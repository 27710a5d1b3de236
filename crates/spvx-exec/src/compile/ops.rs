//! Translation of arithmetic, bit, comparison, logic, conversion and composite instructions.
//! Vector instructions become one scalar instruction per component; constant-index composite
//! instructions become register copies.

use super::func::Code;
use super::types::deco;
use super::{Compiler, Value};
use crate::error::ExecError;
use crate::program::*;
use spvx_num::float::RoundingMode;
use spvx_spirv::instruction::{Id, Instruction};
use spvx_val::index::Type;

impl Compiler<'_> {
    /// The value of id operand `i`.
    pub(crate) fn operand(
        &self,
        index: usize,
        inst: &Instruction,
        i: usize,
    ) -> Result<Value, ExecError> {
        let id = inst
            .operands
            .get(i)
            .and_then(|o| o.id())
            .ok_or_else(|| self.err(index, format!("operand {i} is not an id")))?;
        self.value(index, id)
    }

    /// The result value.
    pub(crate) fn result(&self, index: usize, inst: &Instruction) -> Result<Value, ExecError> {
        self.value(index, inst.result.unwrap_or(0))
    }

    /// Emits one instruction per component of the result: `mk(operand component kind, dst,
    /// sources)`, where a scalar operand of a vector instruction is used for every component.
    fn each(
        &self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        operands: usize,
        mk: impl Fn(Scalar, Slot, &[Slot]) -> Result<Inst, ExecError>,
    ) -> Result<(), ExecError> {
        let dst = self.result(index, inst)?;
        let (_, n) = self.components(index, dst.ty)?;
        let mut vals = Vec::with_capacity(operands);
        for i in 0..operands {
            let v = self.operand(index, inst, i)?;
            let (_, vn) = self.components(index, v.ty)?;
            vals.push((v.slot, vn));
        }
        let first = self.operand(index, inst, 0)?;
        let (kind, _) = self.scalar_components(index, first.ty)?;
        let mut srcs = vec![0; operands];
        for k in 0..n {
            for (s, (slot, vn)) in srcs.iter_mut().zip(&vals) {
                *s = if *vn == 1 { *slot } else { slot + k };
            }
            code.push(index, mk(kind, dst.slot + k, &srcs)?);
        }
        Ok(())
    }

    fn int_bits(&self, index: usize, s: Scalar) -> Result<u8, ExecError> {
        match s {
            Scalar::Int(w) => Ok(w),
            Scalar::Bool => Ok(1),
            _ => Err(self.err(index, "expected an integer operand")),
        }
    }

    pub(crate) fn float_fmt(
        &self,
        index: usize,
        s: Scalar,
        arithmetic: bool,
    ) -> Result<FloatFmt, ExecError> {
        match s {
            Scalar::Float(f)
                if !arithmetic || matches!(f, FloatFmt::F16 | FloatFmt::F32 | FloatFmt::F64) =>
            {
                Ok(f)
            }
            Scalar::Float(f) => Err(self.unsupported(index, format!("arithmetic on {f:?}"))),
            _ => Err(self.err(index, "expected a float operand")),
        }
    }

    /// The FPRoundingMode decoration of a result (default round to nearest even).
    pub(crate) fn rounding(&self, id: Option<Id>) -> RoundingMode {
        self.rounding_decoration(id)
            .unwrap_or(RoundingMode::NearestEven)
    }

    /// The rounding of a float-to-integer conversion's result: its FPRoundingMode decoration,
    /// by default toward zero (SPIR-V §3.16 FP Rounding Mode).
    pub(crate) fn to_int_rounding(&self, id: Option<Id>) -> RoundingMode {
        self.rounding_decoration(id)
            .unwrap_or(RoundingMode::TowardZero)
    }

    /// Whether a result is decorated SaturatedConversion.
    pub(crate) fn saturated(&self, id: Option<Id>) -> bool {
        id.and_then(|id| self.deco(id, deco::SATURATED_CONVERSION))
            .is_some()
    }

    /// The FPRoundingMode decoration of a result, if it has one.
    fn rounding_decoration(&self, id: Option<Id>) -> Option<RoundingMode> {
        match id
            .and_then(|id| self.deco(id, deco::FP_ROUNDING_MODE))
            .and_then(|w| w.first().copied())?
        {
            1 => Some(RoundingMode::TowardZero),
            2 => Some(RoundingMode::TowardPositive),
            3 => Some(RoundingMode::TowardNegative),
            _ => Some(RoundingMode::NearestEven),
        }
    }

    /// Translates one body instruction (not a terminator, call, barrier or phi).
    pub(crate) fn translate(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
    ) -> Result<(), ExecError> {
        if (5923..=5933).contains(&inst.opcode) {
            return self.fixed_op(index, inst, code);
        }
        if (4164..=4166).contains(&inst.opcode) {
            return self.tensor_op(index, inst, code);
        }
        if self.wide_op(index, inst, code)? {
            return Ok(());
        }
        let name = self
            .g
            .instruction(inst.opcode)
            .map_or("", |i| i.name.as_str());
        let ibin = |op: IBinOp| {
            move |c: &Compiler, s: Scalar, d: Slot, x: &[Slot]| -> Result<Inst, ExecError> {
                Ok(Inst::IBin {
                    op,
                    bits: c.int_bits(index, s)?,
                    dst: d,
                    a: x[0],
                    b: x[1],
                })
            }
        };
        let fbin = |op: FBinOp| {
            move |c: &Compiler, s: Scalar, d: Slot, x: &[Slot]| -> Result<Inst, ExecError> {
                Ok(Inst::FBin {
                    op,
                    fmt: c.float_fmt(index, s, true)?,
                    dst: d,
                    a: x[0],
                    b: x[1],
                })
            }
        };
        let icmp = |op: ICmpOp| {
            move |c: &Compiler, s: Scalar, d: Slot, x: &[Slot]| -> Result<Inst, ExecError> {
                Ok(Inst::ICmp {
                    op,
                    bits: c.int_bits(index, s)?,
                    dst: d,
                    a: x[0],
                    b: x[1],
                })
            }
        };
        let fcmp = |op: FCmpOp, ordered: bool| {
            move |c: &Compiler, s: Scalar, d: Slot, x: &[Slot]| -> Result<Inst, ExecError> {
                Ok(Inst::FCmp {
                    op,
                    ordered,
                    fmt: c.float_fmt(index, s, false)?,
                    dst: d,
                    a: x[0],
                    b: x[1],
                })
            }
        };
        macro_rules! each {
            ($n:expr, $f:expr) => {{
                let f = $f;
                self.each(index, inst, code, $n, |s, d, x| f(self, s, d, x))
            }};
        }
        match name {
            "OpNop" | "OpMemoryBarrier" | "OpSelectionMerge" | "OpLoopMerge" | "OpLine"
            | "OpNoLine" | "OpUndef" | "OpModuleProcessed" => Ok(()),
            // Lifetime hints (Kernel): memory contents are kept; nothing to do.
            "OpLifetimeStart" | "OpLifetimeStop" => Ok(()),
            "OpIAdd" => each!(2, ibin(IBinOp::Add)),
            "OpISub" => each!(2, ibin(IBinOp::Sub)),
            "OpIMul" => each!(2, ibin(IBinOp::Mul)),
            "OpUDiv" => each!(2, ibin(IBinOp::UDiv)),
            "OpSDiv" => each!(2, ibin(IBinOp::SDiv)),
            "OpUMod" => each!(2, ibin(IBinOp::UMod)),
            "OpSRem" => each!(2, ibin(IBinOp::SRem)),
            "OpSMod" => each!(2, ibin(IBinOp::SMod)),
            "OpShiftLeftLogical" => each!(2, ibin(IBinOp::Shl)),
            "OpShiftRightLogical" => each!(2, ibin(IBinOp::ShrLogical)),
            "OpShiftRightArithmetic" => each!(2, ibin(IBinOp::ShrArith)),
            "OpBitwiseAnd" => each!(2, ibin(IBinOp::And)),
            "OpBitwiseOr" => each!(2, ibin(IBinOp::Or)),
            "OpBitwiseXor" => each!(2, ibin(IBinOp::Xor)),
            "OpSNegate" | "OpNot" | "OpBitReverse" => {
                let op = match name {
                    "OpSNegate" => IUnOp::Negate,
                    "OpNot" => IUnOp::Not,
                    _ => IUnOp::BitReverse,
                };
                each!(1, move |c: &Compiler, s, d, x: &[Slot]| Ok(Inst::IUn {
                    op,
                    bits: c.int_bits(index, s)?,
                    dst: d,
                    a: x[0]
                }))
            }
            "OpBitCount" => {
                let dst = self.result(index, inst)?;
                let (rs, _) = self.scalar_components(index, dst.ty)?;
                let rbits = self.int_bits(index, rs)?;
                each!(1, move |_: &Compiler, _s, d, x: &[Slot]| Ok(Inst::IUn {
                    op: IUnOp::BitCount,
                    bits: rbits,
                    dst: d,
                    a: x[0]
                }))
            }
            "OpBitFieldInsert" => each!(4, move |c: &Compiler, s, d, x: &[Slot]| Ok(
                Inst::BitFieldInsert {
                    bits: c.int_bits(index, s)?,
                    dst: d,
                    base: x[0],
                    insert: x[1],
                    offset: x[2],
                    count: x[3]
                }
            )),
            "OpBitFieldSExtract" | "OpBitFieldUExtract" => {
                let signed = name == "OpBitFieldSExtract";
                each!(3, move |c: &Compiler, s, d, x: &[Slot]| Ok(
                    Inst::BitFieldExtract {
                        bits: c.int_bits(index, s)?,
                        signed,
                        dst: d,
                        base: x[0],
                        offset: x[1],
                        count: x[2]
                    }
                ))
            }
            "OpIAddCarry" | "OpISubBorrow" | "OpUMulExtended" | "OpSMulExtended" => {
                let op = match name {
                    "OpIAddCarry" => IWideOp::AddCarry,
                    "OpISubBorrow" => IWideOp::SubBorrow,
                    "OpUMulExtended" => IWideOp::UMulExtended,
                    _ => IWideOp::SMulExtended,
                };
                let dst = self.result(index, inst)?;
                let (a, b) = (self.operand(index, inst, 0)?, self.operand(index, inst, 1)?);
                let (s, n) = self.scalar_components(index, a.ty)?;
                let bits = self.int_bits(index, s)?;
                for k in 0..n {
                    code.push(
                        index,
                        Inst::IWide {
                            op,
                            bits,
                            lo: dst.slot + k,
                            hi: dst.slot + n + k,
                            a: a.slot + k,
                            b: b.slot + k,
                        },
                    );
                }
                Ok(())
            }
            "OpFAdd" => each!(2, fbin(FBinOp::Add)),
            "OpFSub" => each!(2, fbin(FBinOp::Sub)),
            "OpFMul" => each!(2, fbin(FBinOp::Mul)),
            "OpFDiv" => each!(2, fbin(FBinOp::Div)),
            "OpFRem" => each!(2, fbin(FBinOp::Rem)),
            "OpFMod" => each!(2, fbin(FBinOp::Mod)),
            "OpVectorTimesScalar" => each!(2, fbin(FBinOp::Mul)),
            "OpFNegate" => each!(1, move |c: &Compiler, s, d, x: &[Slot]| Ok(Inst::FNeg {
                fmt: c.float_fmt(index, s, false)?,
                dst: d,
                a: x[0]
            })),
            "OpIEqual" => each!(2, icmp(ICmpOp::Eq)),
            "OpINotEqual" => each!(2, icmp(ICmpOp::Ne)),
            "OpUGreaterThan" => each!(2, icmp(ICmpOp::UGt)),
            "OpUGreaterThanEqual" => each!(2, icmp(ICmpOp::UGe)),
            "OpULessThan" => each!(2, icmp(ICmpOp::ULt)),
            "OpULessThanEqual" => each!(2, icmp(ICmpOp::ULe)),
            "OpSGreaterThan" => each!(2, icmp(ICmpOp::SGt)),
            "OpSGreaterThanEqual" => each!(2, icmp(ICmpOp::SGe)),
            "OpSLessThan" => each!(2, icmp(ICmpOp::SLt)),
            "OpSLessThanEqual" => each!(2, icmp(ICmpOp::SLe)),
            "OpFOrdEqual" => each!(2, fcmp(FCmpOp::Eq, true)),
            "OpFUnordEqual" => each!(2, fcmp(FCmpOp::Eq, false)),
            "OpFOrdNotEqual" => each!(2, fcmp(FCmpOp::Ne, true)),
            "OpFUnordNotEqual" => each!(2, fcmp(FCmpOp::Ne, false)),
            "OpFOrdLessThan" => each!(2, fcmp(FCmpOp::Lt, true)),
            "OpFUnordLessThan" => each!(2, fcmp(FCmpOp::Lt, false)),
            "OpFOrdGreaterThan" => each!(2, fcmp(FCmpOp::Gt, true)),
            "OpFUnordGreaterThan" => each!(2, fcmp(FCmpOp::Gt, false)),
            "OpFOrdLessThanEqual" => each!(2, fcmp(FCmpOp::Le, true)),
            "OpFUnordLessThanEqual" => each!(2, fcmp(FCmpOp::Le, false)),
            "OpFOrdGreaterThanEqual" => each!(2, fcmp(FCmpOp::Ge, true)),
            "OpFUnordGreaterThanEqual" => each!(2, fcmp(FCmpOp::Ge, false)),
            "OpOrdered" => each!(2, fcmp(FCmpOp::Ord, true)),
            "OpUnordered" => each!(2, fcmp(FCmpOp::Uno, false)),
            // Deprecated; the ordered not-equal.
            "OpLessOrGreater" => each!(2, fcmp(FCmpOp::Ne, true)),
            "OpIsNan" | "OpIsInf" | "OpIsFinite" | "OpIsNormal" | "OpSignBitSet" => {
                let op = match name {
                    "OpIsNan" => FClassOp::IsNan,
                    "OpIsInf" => FClassOp::IsInf,
                    "OpIsFinite" => FClassOp::IsFinite,
                    "OpIsNormal" => FClassOp::IsNormal,
                    _ => FClassOp::SignBitSet,
                };
                each!(1, move |c: &Compiler, s, d, x: &[Slot]| Ok(Inst::FClass {
                    op,
                    fmt: c.float_fmt(index, s, false)?,
                    dst: d,
                    a: x[0]
                }))
            }
            "OpLogicalAnd" | "OpLogicalOr" | "OpLogicalEqual" | "OpLogicalNotEqual" => {
                let op = match name {
                    "OpLogicalAnd" => LogicOp::And,
                    "OpLogicalOr" => LogicOp::Or,
                    "OpLogicalEqual" => LogicOp::Equal,
                    _ => LogicOp::NotEqual,
                };
                each!(2, move |_: &Compiler, _s, d, x: &[Slot]| Ok(Inst::Logic {
                    op,
                    dst: d,
                    a: x[0],
                    b: x[1]
                }))
            }
            "OpLogicalNot" => each!(1, |_: &Compiler, _s, d, x: &[Slot]| Ok(Inst::LNot {
                dst: d,
                a: x[0]
            })),
            "OpAny" | "OpAll" => {
                let op = if name == "OpAny" {
                    LogicOp::Or
                } else {
                    LogicOp::And
                };
                let dst = self.result(index, inst)?;
                let v = self.operand(index, inst, 0)?;
                let (_, n) = self.components(index, v.ty)?;
                code.push(
                    index,
                    Inst::Copy {
                        dst: dst.slot,
                        src: v.slot,
                    },
                );
                for k in 1..n {
                    code.push(
                        index,
                        Inst::Logic {
                            op,
                            dst: dst.slot,
                            a: dst.slot,
                            b: v.slot + k,
                        },
                    );
                }
                Ok(())
            }
            "OpSelect" => {
                let dst = self.result(index, inst)?;
                let cond = self.operand(index, inst, 0)?;
                let (a, b) = (self.operand(index, inst, 1)?, self.operand(index, inst, 2)?);
                let n = self.slot_count(index, dst.ty)?;
                let (_, cn) = self.components(index, cond.ty)?;
                for k in 0..n {
                    let c = if cn == 1 { cond.slot } else { cond.slot + k };
                    code.push(
                        index,
                        Inst::Select {
                            dst: dst.slot + k,
                            cond: c,
                            a: a.slot + k,
                            b: b.slot + k,
                        },
                    );
                }
                Ok(())
            }
            "OpUConvert" | "OpSConvert" | "OpFConvert" | "OpConvertFToU" | "OpConvertFToS"
            | "OpConvertSToF" | "OpConvertUToF" | "OpSatConvertSToU" | "OpSatConvertUToS" => {
                self.conversion(index, inst, code, name)
            }
            "OpConvertPtrToU"
            | "OpConvertUToPtr"
            | "OpPtrCastToGeneric"
            | "OpGenericCastToPtr"
            | "OpGenericCastToPtrExplicit"
            | "OpGenericPtrMemSemantics"
            | "OpPtrEqual"
            | "OpPtrNotEqual"
            | "OpPtrDiff"
            | "OpCopyMemorySized" => self.pointer_op(index, inst, code, name),
            "OpBitcast"
                if self.pointer_bits.is_some() && self.bitcast_has_pointer(index, inst)? =>
            {
                self.pointer_op(index, inst, code, name)
            }
            "OpBitcast" => {
                let dst = self.result(index, inst)?;
                let v = self.operand(index, inst, 0)?;
                let (ds, dn) = self.scalar_components(index, dst.ty)?;
                let (ss, sn) = self.scalar_components(index, v.ty)?;
                if ds == Scalar::Ptr || ss == Scalar::Ptr {
                    return Err(self.unsupported(index, "bitcasts of pointers"));
                }
                if ds.bits() != ss.bits() && (ds.bits() * dn > 128 || ss.bits() * sn > 128) {
                    return Err(self.unsupported(index, "bitcasts regrouping more than 128 bits"));
                }
                code.push(
                    index,
                    Inst::Bitcast {
                        dst: dst.slot,
                        dst_bits: ds.bits() as u8,
                        dst_count: dn as u8,
                        src: v.slot,
                        src_bits: ss.bits() as u8,
                        src_count: sn as u8,
                    },
                );
                Ok(())
            }
            "OpCopyObject" | "OpCopyLogical" => {
                let dst = self.result(index, inst)?;
                let v = self.operand(index, inst, 0)?;
                self.copy(
                    index,
                    code,
                    dst.slot,
                    v.slot,
                    self.slot_count(index, dst.ty)?,
                );
                Ok(())
            }
            "OpCompositeConstruct" => {
                let dst = self.result(index, inst)?;
                let mut at = dst.slot;
                for i in 0..inst.operands.len() {
                    let v = self.operand(index, inst, i)?;
                    let n = self.slot_count(index, v.ty)?;
                    self.copy(index, code, at, v.slot, n);
                    at += n;
                }
                Ok(())
            }
            "OpCompositeExtract" => {
                let dst = self.result(index, inst)?;
                let v = self.operand(index, inst, 0)?;
                let (off, _) = self.leaf_offset(index, v.ty, &literals(inst, 1))?;
                self.copy(
                    index,
                    code,
                    dst.slot,
                    v.slot + off,
                    self.slot_count(index, dst.ty)?,
                );
                Ok(())
            }
            "OpCompositeInsert" => {
                let dst = self.result(index, inst)?;
                let obj = self.operand(index, inst, 0)?;
                let comp = self.operand(index, inst, 1)?;
                let (off, n) = self.leaf_offset(index, comp.ty, &literals(inst, 2))?;
                self.copy(
                    index,
                    code,
                    dst.slot,
                    comp.slot,
                    self.slot_count(index, dst.ty)?,
                );
                self.copy(index, code, dst.slot + off, obj.slot, n);
                Ok(())
            }
            "OpVectorShuffle" => {
                let dst = self.result(index, inst)?;
                let (a, b) = (self.operand(index, inst, 0)?, self.operand(index, inst, 1)?);
                let (_, na) = self.components(index, a.ty)?;
                for (k, c) in literals(inst, 2).into_iter().enumerate() {
                    let d = dst.slot + k as u32;
                    let i = if c == u32::MAX {
                        Inst::Const { dst: d, value: 0 }
                    } else if c < na {
                        Inst::Copy {
                            dst: d,
                            src: a.slot + c,
                        }
                    } else {
                        Inst::Copy {
                            dst: d,
                            src: b.slot + c - na,
                        }
                    };
                    code.push(index, i);
                }
                Ok(())
            }
            "OpVectorExtractDynamic" => {
                let dst = self.result(index, inst)?;
                let (v, i) = (self.operand(index, inst, 0)?, self.operand(index, inst, 1)?);
                let (_, n) = self.components(index, v.ty)?;
                let ib = self.scalar(index, i.ty)?.bits() as u8;
                code.push(
                    index,
                    Inst::ExtractDyn {
                        dst: dst.slot,
                        base: v.slot,
                        count: n,
                        index: i.slot,
                        index_bits: ib,
                    },
                );
                Ok(())
            }
            "OpVectorInsertDynamic" => {
                let dst = self.result(index, inst)?;
                let (v, x, i) = (
                    self.operand(index, inst, 0)?,
                    self.operand(index, inst, 1)?,
                    self.operand(index, inst, 2)?,
                );
                let (_, n) = self.components(index, v.ty)?;
                let ib = self.scalar(index, i.ty)?.bits() as u8;
                code.push(
                    index,
                    Inst::InsertDyn {
                        dst: dst.slot,
                        src: v.slot,
                        count: n,
                        value: x.slot,
                        index: i.slot,
                        index_bits: ib,
                    },
                );
                Ok(())
            }
            "OpDot" => {
                let dst = self.result(index, inst)?;
                let (a, b) = (self.operand(index, inst, 0)?, self.operand(index, inst, 1)?);
                let (s, n) = self.scalar_components(index, a.ty)?;
                let fmt = self.float_fmt(index, s, true)?;
                let tmp = self.alloc(index, 1)?;
                code.push(
                    index,
                    Inst::FBin {
                        op: FBinOp::Mul,
                        fmt,
                        dst: dst.slot,
                        a: a.slot,
                        b: b.slot,
                    },
                );
                for k in 1..n {
                    code.push(
                        index,
                        Inst::FBin {
                            op: FBinOp::Mul,
                            fmt,
                            dst: tmp,
                            a: a.slot + k,
                            b: b.slot + k,
                        },
                    );
                    code.push(
                        index,
                        Inst::FBin {
                            op: FBinOp::Add,
                            fmt,
                            dst: dst.slot,
                            a: dst.slot,
                            b: tmp,
                        },
                    );
                }
                Ok(())
            }
            "OpMatrixTimesScalar"
            | "OpVectorTimesMatrix"
            | "OpMatrixTimesVector"
            | "OpMatrixTimesMatrix"
            | "OpTranspose"
            | "OpOuterProduct" => self.matrix_op(index, inst, code, name),
            "OpExtInst" | "OpExtInstWithForwardRefsKHR" => self.ext_inst(index, inst, code),
            n if n.starts_with("OpGroupNonUniform") => self.group_op(index, inst, code, n),
            "OpVariable"
            | "OpLoad"
            | "OpStore"
            | "OpAccessChain"
            | "OpInBoundsAccessChain"
            | "OpPtrAccessChain"
            | "OpInBoundsPtrAccessChain"
            | "OpCopyMemory"
            | "OpArrayLength" => self.memory_op(index, inst, code, name),
            n if n.starts_with("OpAtomic") => self.atomic_op(index, inst, code, name),
            "OpSDot" | "OpUDot" | "OpSUDot" | "OpSDotAccSat" | "OpUDotAccSat" | "OpSUDotAccSat" => {
                self.int_dot(index, inst, code, name)
            }
            "OpFDot2MixAcc32VALVE" | "OpFDot2MixAcc16VALVE" | "OpFDot4MixAcc32VALVE" => {
                self.mix_dot(index, inst, code, name)
            }
            "OpSubgroupMatrixMultiplyAccumulateINTEL" => self.subgroup_mma(index, inst, code),
            "" => Err(self.unsupported(index, format!("opcode {}", inst.opcode))),
            other => Err(self.unsupported(index, other.to_string())),
        }
    }

    /// `n` register copies.
    pub(crate) fn copy(&self, index: usize, code: &mut Code, dst: Slot, src: Slot, n: u32) {
        for k in 0..n {
            code.push(
                index,
                Inst::Copy {
                    dst: dst + k,
                    src: src + k,
                },
            );
        }
    }

    /// The first leaf and leaf count of the part of a `ty` value that `indices` select.
    fn leaf_offset(&self, index: usize, ty: Id, indices: &[u32]) -> Result<(u32, u32), ExecError> {
        let mut off = 0u32;
        let mut t = ty;
        for &i in indices {
            let (next, before) = match self.ty(index, t)?.clone() {
                Type::Vector { component, .. } => {
                    (component, i * self.slot_count(index, component)?)
                }
                Type::Matrix { column, .. } => (column, i * self.slot_count(index, column)?),
                Type::Array { element, .. } => (element, i * self.slot_count(index, element)?),
                Type::Struct { members } => {
                    let mut before = 0;
                    for m in members.iter().take(i as usize) {
                        before += self.slot_count(index, *m)?;
                    }
                    let m = *members
                        .get(i as usize)
                        .ok_or_else(|| self.err(index, "member index out of range"))?;
                    (m, before)
                }
                _ => return Err(self.err(index, "index into a non-composite")),
            };
            off += before;
            t = next;
        }
        Ok((off, self.slot_count(index, t)?))
    }

    fn conversion(
        &self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        name: &str,
    ) -> Result<(), ExecError> {
        let dst = self.result(index, inst)?;
        let (to, _) = self.scalar_components(index, dst.ty)?;
        let v = self.operand(index, inst, 0)?;
        let (from, n) = self.scalar_components(index, v.ty)?;
        let mode = self.rounding(inst.result);
        let saturated = self.saturated(inst.result);
        let sat = |f, t, from_signed, to_signed| ConvOp::SatConvert {
            from: f,
            to: t,
            from_signed,
            to_signed,
        };
        let op = match (name, from, to) {
            ("OpUConvert", Scalar::Int(f), Scalar::Int(t)) if saturated => sat(f, t, false, false),
            ("OpSConvert", Scalar::Int(f), Scalar::Int(t)) if saturated => sat(f, t, true, true),
            ("OpSatConvertSToU", Scalar::Int(f), Scalar::Int(t)) => sat(f, t, true, false),
            ("OpSatConvertUToS", Scalar::Int(f), Scalar::Int(t)) => sat(f, t, false, true),
            ("OpUConvert", Scalar::Int(f), Scalar::Int(t)) => ConvOp::UConvert { from: f, to: t },
            ("OpSConvert", Scalar::Int(f), Scalar::Int(t)) => ConvOp::SConvert { from: f, to: t },
            ("OpFConvert", Scalar::Float(f), Scalar::Float(t)) => ConvOp::FConvert {
                from: f,
                to: t,
                mode,
            },
            // With or without SaturatedConversion the result saturates.
            ("OpConvertFToU" | "OpConvertFToS", Scalar::Float(f), Scalar::Int(t)) => ConvOp::FToI {
                from: f,
                to: t,
                signed: name == "OpConvertFToS",
                mode: self.to_int_rounding(inst.result),
            },
            ("OpConvertUToF" | "OpConvertSToF", Scalar::Int(f), Scalar::Float(t)) => ConvOp::IToF {
                from: f,
                to: t,
                signed: name == "OpConvertSToF",
                mode,
            },
            _ => return Err(self.err(index, "conversion between these types")),
        };
        for k in 0..n {
            code.push(
                index,
                Inst::Convert {
                    op,
                    dst: dst.slot + k,
                    a: v.slot + k,
                },
            );
        }
        Ok(())
    }
}

/// The literal words from operand `from` on.
pub(crate) fn literals(inst: &Instruction, from: usize) -> Vec<u32> {
    inst.operands
        .iter()
        .skip(from)
        .filter_map(|o| o.word())
        .collect()
}
