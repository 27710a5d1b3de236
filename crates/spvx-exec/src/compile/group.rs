//! Translation of the group non-uniform (subgroup) instructions.

use super::Compiler;
use super::func::Code;
use crate::error::ExecError;
use crate::program::*;
use spvx_spirv::instruction::Instruction;
use spvx_spirv::op::Op;

impl Compiler<'_> {
    /// The group non-uniform instructions (subgroup scope only).
    pub(crate) fn group_op(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        opcode: Op,
    ) -> Result<(), ExecError> {
        // OpGroupNonUniformQuadAll/AnyKHR have no Execution operand (their scope is the quad).
        let quad_control = matches!(
            opcode,
            Op::GroupNonUniformQuadAllKHR
                | Op::GroupNonUniformQuadAnyKHR
                | Op::GroupNonUniformPartitionNV
        );
        let scope = self.operand(index, inst, 0)?;
        if !quad_control && self.eval[scope.slot as usize] != 3 {
            return Err(
                self.unsupported(index, "group operations with a scope other than Subgroup")
            );
        }
        let dst = self.result(index, inst)?;
        if self.ballot_or_quad_op(index, inst, code, opcode, dst)? {
            return Ok(());
        }
        let rop = |n: Op| -> Option<ReduceOp> {
            Some(match n {
                Op::GroupNonUniformIAdd => ReduceOp::IAdd,
                Op::GroupNonUniformFAdd => ReduceOp::FAdd,
                Op::GroupNonUniformIMul => ReduceOp::IMul,
                Op::GroupNonUniformFMul => ReduceOp::FMul,
                Op::GroupNonUniformSMin => ReduceOp::SMin,
                Op::GroupNonUniformUMin => ReduceOp::UMin,
                Op::GroupNonUniformFMin => ReduceOp::FMin,
                Op::GroupNonUniformSMax => ReduceOp::SMax,
                Op::GroupNonUniformUMax => ReduceOp::UMax,
                Op::GroupNonUniformFMax => ReduceOp::FMax,
                Op::GroupNonUniformBitwiseAnd | Op::GroupNonUniformLogicalAnd => ReduceOp::And,
                Op::GroupNonUniformBitwiseOr | Op::GroupNonUniformLogicalOr => ReduceOp::Or,
                Op::GroupNonUniformBitwiseXor | Op::GroupNonUniformLogicalXor => ReduceOp::Xor,
                _ => return None,
            })
        };
        // (op, value operand index, second operand index)
        let (op, value_at, second_at) = match opcode {
            Op::GroupNonUniformElect => (GroupOp::Elect, None, None),
            Op::GroupNonUniformAll => (GroupOp::All, Some(1), None),
            Op::GroupNonUniformAny => (GroupOp::Any, Some(1), None),
            Op::GroupNonUniformAllEqual => (GroupOp::AllEqual, Some(1), None),
            Op::GroupNonUniformBroadcast => (GroupOp::Broadcast, Some(1), Some(2)),
            Op::GroupNonUniformBroadcastFirst => (GroupOp::BroadcastFirst, Some(1), None),
            Op::GroupNonUniformShuffle => (GroupOp::Shuffle, Some(1), Some(2)),
            Op::GroupNonUniformShuffleXor => (GroupOp::ShuffleXor, Some(1), Some(2)),
            Op::GroupNonUniformShuffleUp => (GroupOp::ShuffleUp, Some(1), Some(2)),
            Op::GroupNonUniformShuffleDown => (GroupOp::ShuffleDown, Some(1), Some(2)),
            Op::GroupNonUniformBallot => {
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
                        Some(6) => GroupMode::Partitioned(PartitionMode::Reduce),
                        Some(7) => GroupMode::Partitioned(PartitionMode::InclusiveScan),
                        Some(8) => GroupMode::Partitioned(PartitionMode::ExclusiveScan),
                        _ => return Err(self.unsupported(index, "this group operation")),
                    };
                    (GroupOp::Arith(r, mode), Some(2), None)
                }
                None => return Err(self.unsupported(index, n.name())),
            },
        };
        let (a, vn) = match value_at {
            Some(i) => {
                let v = self.operand(index, inst, i)?;
                (v.slot, self.components(index, v.ty)?.1)
            }
            None => (dst.slot, 1),
        };
        let b = match (second_at, op) {
            (Some(i), _) => self.operand(index, inst, i)?.slot,
            // The partition ballot of a partitioned operation (its ClusterSize operand).
            (None, GroupOp::Arith(_, GroupMode::Partitioned(_))) => {
                self.operand(index, inst, 3)?.slot
            }
            (None, _) => 0,
        };
        let (s, _) = match value_at {
            Some(i) => self.scalar_components(index, self.operand(index, inst, i)?.ty)?,
            None => (Scalar::Bool, 1),
        };
        if vn > 1 && op == GroupOp::AllEqual {
            // One result for the whole vector: every component equal in every active lane.
            let n = u8::try_from(vn)
                .map_err(|_| self.unsupported(index, "OpGroupNonUniformAllEqual on this type"))?;
            code.push(
                index,
                Inst::Group {
                    op: GroupOp::AllEqualVector(n),
                    scalar: s,
                    dst: dst.slot,
                    a,
                    b,
                },
            );
            return Ok(());
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

    /// The ballot bit queries, inverse ballot, quad and rotate instructions, each one
    /// `Inst::Group` (ballots are the uvec4 `a..a + 4`; the scalar is the result's for the
    /// ballot queries, the value's otherwise). Returns false for any other instruction.
    fn ballot_or_quad_op(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        opcode: Op,
        dst: super::Value,
    ) -> Result<bool, ExecError> {
        let mode = |c: &Self| {
            match inst.operands.get(1).and_then(|o| o.word()) {
            Some(0) => Ok(GroupMode::Reduce),
            Some(1) => Ok(GroupMode::InclusiveScan),
            Some(2) => Ok(GroupMode::ExclusiveScan),
            _ => Err(c.unsupported(
                index,
                "OpGroupNonUniformBallotBitCount with an operation other than Reduce, InclusiveScan or ExclusiveScan",
            )),
        }
        };
        // (op, value operand, second operand, whether the value is a ballot)
        let (op, value_at, second_at, ballot) = match opcode {
            Op::GroupNonUniformBallotBitCount => {
                (GroupOp::BallotBitCount(mode(self)?), 2, None, true)
            }
            Op::GroupNonUniformBallotBitExtract => (GroupOp::BallotBitExtract, 1, Some(2), true),
            Op::GroupNonUniformBallotFindLSB => (GroupOp::BallotFindLsb, 1, None, true),
            Op::GroupNonUniformBallotFindMSB => (GroupOp::BallotFindMsb, 1, None, true),
            Op::GroupNonUniformInverseBallot => (GroupOp::InverseBallot, 1, None, true),
            Op::GroupNonUniformPartitionNV => {
                // (No Execution scope: the Value is operand 0; the result is a uvec4.)
                let v = self.operand(index, inst, 0)?;
                let (s, n) = self.scalar_components(index, v.ty)?;
                if n != 1 {
                    return Err(self.unsupported(index, "OpGroupNonUniformPartitionNV on vectors"));
                }
                code.push(
                    index,
                    Inst::Group {
                        op: GroupOp::Partition,
                        scalar: s,
                        dst: dst.slot,
                        a: v.slot,
                        b: 0,
                    },
                );
                return Ok(true);
            }
            Op::GroupNonUniformQuadBroadcast => (GroupOp::QuadBroadcast, 1, Some(2), false),
            Op::GroupNonUniformQuadSwap => (GroupOp::QuadSwap, 1, Some(2), false),
            Op::GroupNonUniformQuadAllKHR => (GroupOp::QuadAll, 0, None, false),
            Op::GroupNonUniformQuadAnyKHR => (GroupOp::QuadAny, 0, None, false),
            Op::GroupNonUniformRotateKHR => {
                let cluster = match inst.operands.get(3) {
                    Some(_) => {
                        let c = self.operand(index, inst, 3)?;
                        u32::try_from(self.eval[c.slot as usize])
                            .map_err(|_| self.err(index, "cluster size out of range"))?
                    }
                    None => 0,
                };
                (GroupOp::Rotate(cluster), 1, Some(2), false)
            }
            _ => return Ok(false),
        };
        let v = self.operand(index, inst, value_at)?;
        let b = match second_at {
            Some(i) => self.operand(index, inst, i)?.slot,
            None => 0,
        };
        if ballot {
            let (comp, n) = self.scalar_components(index, v.ty)?;
            if n != 4 || comp != Scalar::Int(32) {
                return Err(self.err(index, "the ballot Value must be a uvec4"));
            }
            code.push(
                index,
                Inst::Group {
                    op,
                    scalar: self.scalar(index, dst.ty)?,
                    dst: dst.slot,
                    a: v.slot,
                    b,
                },
            );
            return Ok(true);
        }
        let (s, n) = self.scalar_components(index, v.ty)?;
        for k in 0..n {
            code.push(
                index,
                Inst::Group {
                    op,
                    scalar: s,
                    dst: dst.slot + k,
                    a: v.slot + k,
                    b,
                },
            );
        }
        Ok(true)
    }
}
