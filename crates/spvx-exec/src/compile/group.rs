//! Translation of the group non-uniform (subgroup) instructions.

use super::Compiler;
use super::func::Code;
use crate::error::ExecError;
use crate::program::*;
use spvx_spirv::instruction::Instruction;

impl Compiler<'_> {
    /// The group non-uniform instructions (subgroup scope only).
    pub(crate) fn group_op(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        name: &str,
    ) -> Result<(), ExecError> {
        let scope = self.operand(index, inst, 0)?;
        if self.eval[scope.slot as usize] != 3 {
            return Err(
                self.unsupported(index, "group operations with a scope other than Subgroup")
            );
        }
        let dst = self.result(index, inst)?;
        let rop = |n: &str| -> Option<ReduceOp> {
            Some(match n {
                "OpGroupNonUniformIAdd" => ReduceOp::IAdd,
                "OpGroupNonUniformFAdd" => ReduceOp::FAdd,
                "OpGroupNonUniformIMul" => ReduceOp::IMul,
                "OpGroupNonUniformFMul" => ReduceOp::FMul,
                "OpGroupNonUniformSMin" => ReduceOp::SMin,
                "OpGroupNonUniformUMin" => ReduceOp::UMin,
                "OpGroupNonUniformFMin" => ReduceOp::FMin,
                "OpGroupNonUniformSMax" => ReduceOp::SMax,
                "OpGroupNonUniformUMax" => ReduceOp::UMax,
                "OpGroupNonUniformFMax" => ReduceOp::FMax,
                "OpGroupNonUniformBitwiseAnd" | "OpGroupNonUniformLogicalAnd" => ReduceOp::And,
                "OpGroupNonUniformBitwiseOr" | "OpGroupNonUniformLogicalOr" => ReduceOp::Or,
                "OpGroupNonUniformBitwiseXor" | "OpGroupNonUniformLogicalXor" => ReduceOp::Xor,
                _ => return None,
            })
        };
        // (op, value operand index, second operand index)
        let (op, value_at, second_at) = match name {
            "OpGroupNonUniformElect" => (GroupOp::Elect, None, None),
            "OpGroupNonUniformAll" => (GroupOp::All, Some(1), None),
            "OpGroupNonUniformAny" => (GroupOp::Any, Some(1), None),
            "OpGroupNonUniformAllEqual" => (GroupOp::AllEqual, Some(1), None),
            "OpGroupNonUniformBroadcast" => (GroupOp::Broadcast, Some(1), Some(2)),
            "OpGroupNonUniformBroadcastFirst" => (GroupOp::BroadcastFirst, Some(1), None),
            "OpGroupNonUniformShuffle" => (GroupOp::Shuffle, Some(1), Some(2)),
            "OpGroupNonUniformShuffleXor" => (GroupOp::ShuffleXor, Some(1), Some(2)),
            "OpGroupNonUniformShuffleUp" => (GroupOp::ShuffleUp, Some(1), Some(2)),
            "OpGroupNonUniformShuffleDown" => (GroupOp::ShuffleDown, Some(1), Some(2)),
            "OpGroupNonUniformBallot" => {
                let p = self.operand(index, inst, 1)?;
                code.push(
                    index,
                    Inst::Ballot {
                        dst: dst.slot,
                        pred: p.slot,
                    },
                );
                return Ok(());
            }
            n => match rop(n) {
                Some(r) => {
                    let mode = match inst.operands.get(1).and_then(|o| o.word()) {
                        Some(0) => GroupMode::Reduce,
                        Some(1) => GroupMode::InclusiveScan,
                        Some(2) => GroupMode::ExclusiveScan,
                        Some(3) => {
                            let c = self.operand(index, inst, 3)?;
                            GroupMode::Clustered(self.eval[c.slot as usize] as u32)
                        }
                        _ => return Err(self.unsupported(index, "this group operation")),
                    };
                    (GroupOp::Arith(r, mode), Some(2), None)
                }
                None => return Err(self.unsupported(index, n.to_string())),
            },
        };
        let (a, vn) = match value_at {
            Some(i) => {
                let v = self.operand(index, inst, i)?;
                (v.slot, self.components(index, v.ty)?.1)
            }
            None => (dst.slot, 1),
        };
        let b = match second_at {
            Some(i) => self.operand(index, inst, i)?.slot,
            None => 0,
        };
        let (s, _) = match value_at {
            Some(i) => self.scalar_components(index, self.operand(index, inst, i)?.ty)?,
            None => (Scalar::Bool, 1),
        };
        if vn > 1 && matches!(op, GroupOp::All | GroupOp::Any | GroupOp::AllEqual) {
            return Err(self.unsupported(index, "OpGroupNonUniformAllEqual on vectors"));
        }
        for k in 0..vn {
            code.push(
                index,
                Inst::Group {
                    op,
                    scalar: s,
                    dst: dst.slot + k,
                    a: a + k,
                    b,
                },
            );
        }
        Ok(())
    }
}
