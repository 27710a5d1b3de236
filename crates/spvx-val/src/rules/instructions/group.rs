//! Group non-uniform instructions (SPIR-V §3.52.24 "Non-Uniform Instructions", 1.3+; and
//! `OpGroupNonUniformRotateKHR` of SPV_KHR_subgroup_rotate): the Result Type, the type of
//! Value (the same as Result Type where the specification says "The type of Value must be the
//! same as Result Type"), ballots (4-component unsigned int vectors), ids, deltas and cluster
//! sizes (unsigned int scalars; ClusterSize "must come from a constant instruction"). Messages
//! follow spirv-val 2025.5 (validate_non_uniform.cpp), which checks the same rules.
//!
//! A pointer, a struct or any other non-numeric type where a value is wanted fails these rules
//! (the shape of such a type is not a scalar or vector).

use super::atomics::scope_operand;
use super::{Check, Cx, Kind, Shape, ensure};
use spvx_spirv::grammar::Version;
use spvx_spirv::op::Op;

/// GroupOperation ClusteredReduce.
const CLUSTERED_REDUCE: u32 = 3;
/// GroupOperation PartitionedReduceNV … PartitionedExclusiveScanNV.
const PARTITIONED_FIRST: u32 = 6;
const PARTITIONED_LAST: u32 = 8;

pub(super) fn check(cx: &Cx) -> Check {
    let op = cx.inst.opcode;
    // The group non-uniform instructions of SPIR-V 1.3 and OpGroupNonUniformRotateKHR.
    let known = op.is_group_non_uniform()
        && !matches!(
            op,
            Op::GroupNonUniformQuadAllKHR
                | Op::GroupNonUniformQuadAnyKHR
                | Op::GroupNonUniformPartitionNV
        );
    if !known || cx.any_opaque() {
        return Ok(());
    }
    scope_operand(cx, 0, "Execution Scope")?;
    match op {
        Op::GroupNonUniformElect => bool_scalar_result(cx),
        Op::GroupNonUniformAll | Op::GroupNonUniformAny => {
            bool_scalar_result(cx)?;
            ensure(is_bool_scalar(cx.operand_shape(1)), || {
                cx.rule("Predicate must be a boolean scalar type")
            })
        }
        Op::GroupNonUniformAllEqual => {
            bool_scalar_result(cx)?;
            ensure(cx.operand_shape(1).is_some(), || {
                cx.rule(
                    "Value must be a scalar or vector of integer, floating-point, or boolean type",
                )
            })
        }
        Op::GroupNonUniformBroadcast
        | Op::GroupNonUniformShuffle
        | Op::GroupNonUniformShuffleXor
        | Op::GroupNonUniformShuffleUp
        | Op::GroupNonUniformShuffleDown
        | Op::GroupNonUniformQuadBroadcast
        | Op::GroupNonUniformQuadSwap => broadcast_shuffle(cx),
        Op::GroupNonUniformBroadcastFirst => {
            any_sv_result(cx)?;
            value_of_result_type(cx, 1)
        }
        Op::GroupNonUniformBallot => {
            ensure(is_ballot(cx.result_shape()), || {
                cx.rule("Result must be a 4-component unsigned integer vector")
            })?;
            ensure(is_bool_scalar(cx.operand_shape(1)), || {
                cx.rule("Predicate must be a boolean scalar")
            })
        }
        Op::GroupNonUniformInverseBallot | Op::GroupNonUniformBallotBitExtract => {
            ensure(is_bool_scalar(cx.result_shape()), || {
                cx.rule("Result must be a boolean scalar")
            })?;
            ballot_value(cx, 1)?;
            if op == Op::GroupNonUniformBallotBitExtract {
                ensure(is_uint_scalar(cx.operand_shape(2)), || {
                    cx.rule("Id must be an unsigned integer scalar")
                })?;
            }
            Ok(())
        }
        Op::GroupNonUniformBallotBitCount => {
            ensure(is_uint_scalar(cx.result_shape()), || {
                cx.rule("Expected Result Type to be an unsigned integer type scalar.")
            })?;
            ensure(is_ballot(cx.operand_shape(2)), || {
                cx.rule("Expected Value to be a vector of four components of integer type scalar")
            })
        }
        Op::GroupNonUniformBallotFindLSB | Op::GroupNonUniformBallotFindMSB => {
            ensure(is_uint_scalar(cx.result_shape()), || {
                cx.rule("Result must be an unsigned integer scalar")
            })?;
            ballot_value(cx, 1)
        }
        op if op.is_group_non_uniform_arithmetic() => arithmetic(cx),
        Op::GroupNonUniformRotateKHR => rotate(cx),
        _ => Ok(()),
    }
}

impl Cx<'_, '_> {
    /// The scalar-or-vector shape of operand `i`'s type (`None`: not a value of such a type).
    fn operand_shape(&self, i: usize) -> Option<Shape> {
        self.type_of(i).and_then(|t| self.shape(t))
    }
}

fn is_bool_scalar(s: Option<Shape>) -> bool {
    s.is_some_and(|s| s.kind == Kind::Bool && !s.vector)
}

fn is_uint_scalar(s: Option<Shape>) -> bool {
    s.is_some_and(|s| s.kind == Kind::Int && !s.signed && !s.vector)
}

fn is_ballot(s: Option<Shape>) -> bool {
    s.is_some_and(|s| s.kind == Kind::Int && !s.signed && s.vector && s.count == 4)
}

fn bool_scalar_result(cx: &Cx) -> Check {
    ensure(is_bool_scalar(cx.result_shape()), || {
        cx.rule("Result must be a boolean scalar type")
    })
}

fn any_sv_result(cx: &Cx) -> Check {
    ensure(cx.result_shape().is_some(), || {
        cx.rule("Result must be a scalar or vector of integer, floating-point, or boolean type")
    })
}

fn value_of_result_type(cx: &Cx, i: usize) -> Check {
    ensure(cx.type_of(i) == cx.inst.result_type, || {
        cx.rule("The type of Value must match the Result type")
    })
}

fn ballot_value(cx: &Cx, i: usize) -> Check {
    ensure(is_ballot(cx.operand_shape(i)), || {
        cx.rule("Value must be a 4-component unsigned integer vector")
    })
}

/// Broadcast, shuffles and quad operations: Value of the Result Type; the lane operand an
/// unsigned int scalar, a constant for QuadSwap and (before SPIR-V 1.5) Broadcast and
/// QuadBroadcast.
fn broadcast_shuffle(cx: &Cx) -> Check {
    any_sv_result(cx)?;
    value_of_result_type(cx, 1)?;
    let op = cx.inst.opcode;
    let name = match op {
        Op::GroupNonUniformBroadcast | Op::GroupNonUniformShuffle => "Id",
        Op::GroupNonUniformShuffleXor => "Mask",
        Op::GroupNonUniformQuadBroadcast => "Index",
        Op::GroupNonUniformQuadSwap => "Direction",
        _ => "Delta",
    };
    ensure(is_uint_scalar(cx.operand_shape(2)), || {
        cx.rule(format!("{name} must be an unsigned integer scalar"))
    })?;
    let must_be_constant = op == Op::GroupNonUniformQuadSwap
        || (matches!(
            op,
            Op::GroupNonUniformBroadcast | Op::GroupNonUniformQuadBroadcast
        ) && cx.ix.header.version() < Version::new(1, 5));
    if must_be_constant && let Some(id) = cx.id(2) {
        ensure(cx.ix.is_constant(id), || {
            cx.rule(format!(
                "Before SPIR-V 1.5, {name} must be a constant instruction"
            ))
        })?;
    }
    Ok(())
}

/// `OpGroupNonUniformIAdd` … `OpGroupNonUniformLogicalXor`.
fn arithmetic(cx: &Cx) -> Check {
    let op = cx.inst.opcode;
    let r = cx.result_shape();
    // FAdd, FMul, FMin, FMax; LogicalAnd/Or/Xor; UMin, UMax; the rest integer.
    match op {
        Op::GroupNonUniformFAdd
        | Op::GroupNonUniformFMul
        | Op::GroupNonUniformFMin
        | Op::GroupNonUniformFMax => ensure(r.is_some_and(|s| s.kind == Kind::Float), || {
            cx.rule("Result must be a floating-point scalar or vector")
        })?,
        Op::GroupNonUniformLogicalAnd
        | Op::GroupNonUniformLogicalOr
        | Op::GroupNonUniformLogicalXor => ensure(r.is_some_and(|s| s.kind == Kind::Bool), || {
            cx.rule("Result must be a boolean scalar or vector")
        })?,
        Op::GroupNonUniformUMin | Op::GroupNonUniformUMax => {
            ensure(r.is_some_and(|s| s.kind == Kind::Int && !s.signed), || {
                cx.rule("Result must be an unsigned integer scalar or vector")
            })?
        }
        _ => ensure(r.is_some_and(|s| s.kind == Kind::Int), || {
            cx.rule("Result must be an integer scalar or vector")
        })?,
    }
    value_of_result_type(cx, 2)?;
    let clustered = cx.word(1) == Some(CLUSTERED_REDUCE);
    if matches!(cx.word(1), Some(PARTITIONED_FIRST..=PARTITIONED_LAST)) {
        // SPV_NV_shader_subgroup_partitioned: the fourth operand is a ballot; not checked here.
        return Ok(());
    }
    match cx.id(3) {
        None => ensure(!clustered, || {
            cx.rule("ClusterSize must be present when Operation is ClusteredReduce")
        }),
        Some(cluster) => cluster_size(
            cx,
            3,
            cluster,
            "ClusterSize must be an unsigned integer scalar",
            "ClusterSize must be a constant instruction",
        ),
    }
}

fn rotate(cx: &Cx) -> Check {
    ensure(cx.result_shape().is_some(), || {
        cx.rule(
            "Expected Result Type to be a scalar or vector of floating-point, integer or boolean type.",
        )
    })?;
    ensure(cx.type_of(1) == cx.inst.result_type, || {
        cx.rule("Result Type must be the same as the type of Value.")
    })?;
    ensure(is_uint_scalar(cx.operand_shape(2)), || {
        cx.rule("Delta must be a scalar of integer type, whose Signedness operand is 0.")
    })?;
    match cx.id(3) {
        None => Ok(()),
        Some(cluster) => cluster_size(
            cx,
            3,
            cluster,
            "ClusterSize must be a scalar of integer type, whose Signedness operand is 0.",
            "ClusterSize must come from a constant instruction.",
        ),
    }
}

/// A ClusterSize operand: an unsigned int scalar from a constant instruction.
fn cluster_size(cx: &Cx, i: usize, id: u32, not_uint: &str, not_constant: &str) -> Check {
    ensure(is_uint_scalar(cx.operand_shape(i)), || cx.rule(not_uint))?;
    ensure(cx.ix.is_constant(id), || cx.rule(not_constant))
}
