//! The translator's dispatcher: routes each body instruction, by its typed opcode, to the
//! translator of its family, each in a file of its own (`integer`, `float`, `compare`,
//! `convert`, `composite`, `matrix`, `memory`, `atomics`, `dot`, `tensor`, `group`, `ext`,
//! `fixedops`, `kernel`, `matrix_mma`); integers wider than 64 bits go to `wide` first.

use super::Compiler;
use super::func::Code;
use crate::error::ExecError;
use spvx_spirv::instruction::Instruction;
use spvx_spirv::op::Op;

impl Compiler<'_> {
    /// Translates one body instruction (not a terminator, call, barrier or phi).
    pub(crate) fn translate(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
    ) -> Result<(), ExecError> {
        let op = inst.opcode;
        // Fixed-point and tensor instructions take integers of any width themselves.
        match op {
            Op::FixedSqrtALTERA
            | Op::FixedRecipALTERA
            | Op::FixedRsqrtALTERA
            | Op::FixedSinALTERA
            | Op::FixedCosALTERA
            | Op::FixedSinCosALTERA
            | Op::FixedSinPiALTERA
            | Op::FixedCosPiALTERA
            | Op::FixedSinCosPiALTERA
            | Op::FixedLogALTERA
            | Op::FixedExpALTERA => return self.fixed_op(index, inst, code),
            Op::TensorReadARM | Op::TensorWriteARM | Op::TensorQuerySizeARM => {
                return self.tensor_op(index, inst, code);
            }
            _ => {}
        }
        if self.wide_op(index, inst, code)? {
            return Ok(());
        }
        match op {
            Op::Nop
            | Op::MemoryBarrier
            | Op::SelectionMerge
            | Op::LoopMerge
            | Op::Line
            | Op::NoLine
            | Op::Undef
            | Op::ModuleProcessed => Ok(()),
            // Lifetime hints (Kernel): memory contents are kept; nothing to do.
            Op::LifetimeStart | Op::LifetimeStop => Ok(()),
            Op::IAdd
            | Op::ISub
            | Op::IMul
            | Op::UDiv
            | Op::SDiv
            | Op::UMod
            | Op::SRem
            | Op::SMod
            | Op::ShiftLeftLogical
            | Op::ShiftRightLogical
            | Op::ShiftRightArithmetic
            | Op::BitwiseAnd
            | Op::BitwiseOr
            | Op::BitwiseXor
            | Op::SNegate
            | Op::Not
            | Op::BitReverse
            | Op::BitCount
            | Op::BitFieldInsert
            | Op::BitFieldSExtract
            | Op::BitFieldUExtract
            | Op::IAddCarry
            | Op::ISubBorrow
            | Op::UMulExtended
            | Op::SMulExtended => self.integer_op(index, inst, code, op),
            Op::FAdd
            | Op::FSub
            | Op::FMul
            | Op::FDiv
            | Op::FRem
            | Op::FMod
            | Op::VectorTimesScalar
            | Op::FNegate => self.float_op(index, inst, code, op),
            Op::IEqual
            | Op::INotEqual
            | Op::UGreaterThan
            | Op::UGreaterThanEqual
            | Op::ULessThan
            | Op::ULessThanEqual
            | Op::SGreaterThan
            | Op::SGreaterThanEqual
            | Op::SLessThan
            | Op::SLessThanEqual
            | Op::FOrdEqual
            | Op::FUnordEqual
            | Op::FOrdNotEqual
            | Op::FUnordNotEqual
            | Op::FOrdLessThan
            | Op::FUnordLessThan
            | Op::FOrdGreaterThan
            | Op::FUnordGreaterThan
            | Op::FOrdLessThanEqual
            | Op::FUnordLessThanEqual
            | Op::FOrdGreaterThanEqual
            | Op::FUnordGreaterThanEqual
            | Op::Ordered
            | Op::Unordered
            | Op::LessOrGreater
            | Op::IsNan
            | Op::IsInf
            | Op::IsFinite
            | Op::IsNormal
            | Op::SignBitSet
            | Op::LogicalAnd
            | Op::LogicalOr
            | Op::LogicalEqual
            | Op::LogicalNotEqual
            | Op::LogicalNot
            | Op::Any
            | Op::All => self.compare_op(index, inst, code, op),
            Op::UConvert
            | Op::SConvert
            | Op::FConvert
            | Op::ConvertFToU
            | Op::ConvertFToS
            | Op::ConvertSToF
            | Op::ConvertUToF
            | Op::SatConvertSToU
            | Op::SatConvertUToS
            | Op::Bitcast => self.convert_op(index, inst, code, op),
            Op::ConvertPtrToU
            | Op::ConvertUToPtr
            | Op::PtrCastToGeneric
            | Op::GenericCastToPtr
            | Op::GenericCastToPtrExplicit
            | Op::GenericPtrMemSemantics
            | Op::PtrEqual
            | Op::PtrNotEqual
            | Op::PtrDiff
            | Op::CopyMemorySized => self.pointer_op(index, inst, code, op),
            Op::Select
            | Op::CopyObject
            | Op::CopyLogical
            | Op::CompositeConstruct
            | Op::CompositeConstructReplicateEXT
            | Op::CompositeExtract
            | Op::CompositeInsert
            | Op::VectorShuffle
            | Op::VectorExtractDynamic
            | Op::VectorInsertDynamic => self.composite_op(index, inst, code, op),
            Op::Dot
            | Op::MatrixTimesScalar
            | Op::VectorTimesMatrix
            | Op::MatrixTimesVector
            | Op::MatrixTimesMatrix
            | Op::Transpose
            | Op::OuterProduct => self.matrix_op(index, inst, code, op),
            Op::ExtInst | Op::ExtInstWithForwardRefsKHR => self.ext_inst(index, inst, code),
            op if op.is_group_non_uniform() => self.group_op(index, inst, code, op),
            Op::Variable
            | Op::Load
            | Op::Store
            | Op::AccessChain
            | Op::InBoundsAccessChain
            | Op::PtrAccessChain
            | Op::InBoundsPtrAccessChain
            | Op::CopyMemory
            | Op::ArrayLength => self.memory_op(index, inst, code, op),
            op if op.is_atomic() => self.atomic_op(index, inst, code, op),
            Op::SDot | Op::UDot | Op::SUDot | Op::SDotAccSat | Op::UDotAccSat | Op::SUDotAccSat => {
                self.int_dot(index, inst, code, op)
            }
            Op::FDot2MixAcc32VALVE | Op::FDot2MixAcc16VALVE | Op::FDot4MixAcc32VALVE => {
                self.mix_dot(index, inst, code, op)
            }
            Op::SubgroupMatrixMultiplyAccumulateINTEL => self.subgroup_mma(index, inst, code),
            other => Err(self.unsupported(index, other.name())),
        }
    }
}
