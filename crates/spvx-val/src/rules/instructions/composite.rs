//! Composite instructions (SPIR-V §3.52.12): `OpVectorExtractDynamic`,
//! `OpVectorInsertDynamic`, `OpVectorShuffle`, `OpCompositeConstruct`, `OpCompositeExtract`,
//! `OpCompositeInsert`, `OpCopyObject`; and the walk into a composite type by indices that
//! `OpAccessChain` shares.

use super::{Check, Cx, Kind, ensure};
use crate::rules::tensor::{TensorInfo, shape_entries, tensor_info};
use spvx_spirv::index::Type;
use spvx_spirv::instruction::Id;
use spvx_spirv::op::Op;

pub(super) fn check(cx: &Cx) -> Check {
    let op = cx.inst.opcode;
    let composite = match op {
        Op::CompositeExtract => cx.type_of(0),
        Op::CompositeInsert => cx.type_of(1),
        _ => None,
    };
    if let Some(t) = composite
        && let Some(info) = tensor_info(cx.ix, t)
        && info.shape.is_some()
    {
        return tensor_extract_insert(cx, t, info);
    }
    if !matches!(
        op,
        Op::VectorExtractDynamic
            | Op::VectorInsertDynamic
            | Op::VectorShuffle
            | Op::CompositeConstruct
            | Op::CompositeExtract
            | Op::CompositeInsert
            | Op::CopyObject
    ) || cx.any_opaque()
    {
        return Ok(());
    }
    match op {
        Op::VectorExtractDynamic => extract_dynamic(cx),
        Op::VectorInsertDynamic => insert_dynamic(cx),
        Op::VectorShuffle => shuffle(cx),
        Op::CompositeConstruct => construct(cx),
        Op::CompositeExtract => extract(cx),
        Op::CompositeInsert => insert(cx),
        _ => ensure(cx.type_of(0) == cx.inst.result_type, || {
            cx.operand_err(0, "Operand", "of the Result Type")
        }),
    }
}

/// One step of a walk into composite type `t` by `index` (`None`: a run-time index, allowed
/// only where the step does not depend on it). Returns the type reached, or why it fails.
pub(super) fn step(cx: &Cx, t: Id, index: Option<u64>) -> Result<Id, String> {
    let within = |count: u64| match index {
        Some(i) if i >= count => Err(format!(
            "index {i} is out of bounds: {} has {count} elements",
            cx.ix.name(t)
        )),
        _ => Ok(()),
    };
    match cx.ix.ty(t) {
        Some(Type::Vector { component, count }) => within(*count as u64).map(|()| *component),
        Some(Type::Matrix { column, count }) => within(*count as u64).map(|()| *column),
        Some(Type::Array { element, length }) => {
            if let Some(n) = cx.ix.const_u64(*length) {
                within(n)?;
            }
            Ok(*element)
        }
        Some(Type::RuntimeArray { element }) => Ok(*element),
        Some(Type::Struct { members }) => match index {
            None => Err(format!(
                "indexing into struct {} needs a constant integer index",
                cx.ix.name(t)
            )),
            Some(i) => members.get(i as usize).copied().ok_or_else(|| {
                format!(
                    "index {i} is out of bounds: struct {} has {} members",
                    cx.ix.name(t),
                    members.len()
                )
            }),
        },
        Some(Type::CooperativeMatrix { component, .. }) => Ok(*component),
        // A long vector of specialization-constant length: its bound is known only once
        // specialised.
        Some(Type::Other(Op::TypeVectorIdEXT)) => cx
            .ix
            .spec_vector(t)
            .map(|(component, _)| component)
            .ok_or_else(|| format!("{} is not a vector type", cx.ix.name(t))),
        _ => Err(format!(
            "reached non-composite type {} while indexes still remain to be traversed",
            cx.ix.name(t)
        )),
    }
}

/// Walks `t` by the literal indices of operands `from..` (at least one: spirv-val's reading
/// of "Indexes walk the type hierarchy").
fn walk_literals(cx: &Cx, mut t: Id, from: usize) -> Result<Id, super::InstructionError> {
    ensure(cx.inst.operands.len() > from, || {
        cx.rule("Expected at least one index, zero found")
    })?;
    for o in cx.inst.operands.iter().skip(from) {
        let i = o.word().map(u64::from);
        if matches!(cx.ix.ty(t), Some(Type::RuntimeArray { .. })) {
            return Err(cx.rule("cannot extract from or insert into a runtime array"));
        }
        t = step(cx, t, i).map_err(|e| cx.rule(e))?;
    }
    Ok(t)
}

fn extract(cx: &Cx) -> Check {
    let Some(ct) = cx.type_of(0) else {
        return Ok(());
    };
    let t = walk_literals(cx, ct, 1)?;
    ensure(Some(t) == cx.inst.result_type, || {
        cx.rule(format!(
            "Result Type {} does not match the type {} that results from indexing into the composite",
            cx.tname(cx.inst.result_type),
            cx.ix.name(t)
        ))
    })
}

fn insert(cx: &Cx) -> Check {
    let Some(ct) = cx.type_of(1) else {
        return Ok(());
    };
    ensure(Some(ct) == cx.inst.result_type, || {
        cx.operand_err(1, "Composite", "of the Result Type")
    })?;
    let t = walk_literals(cx, ct, 2)?;
    ensure(cx.type_of(0) == Some(t), || {
        cx.operand_err(
            0,
            "Object",
            &format!(
                "the type {} that results from indexing into the composite",
                cx.ix.name(t)
            ),
        )
    })
}

fn int_scalar(cx: &Cx, i: usize) -> bool {
    cx.type_of(i)
        .and_then(|t| cx.shape(t))
        .is_some_and(|s| s.kind == Kind::Int && !s.vector)
}

fn extract_dynamic(cx: &Cx) -> Check {
    let v = cx
        .type_of(0)
        .and_then(|t| cx.shape(t))
        .filter(|s| s.vector)
        .ok_or_else(|| cx.operand_err(0, "Vector", "a vector type"))?;
    ensure(cx.inst.result_type == Some(v.component), || {
        cx.result_type_err("the Vector's component type")
    })?;
    ensure(int_scalar(cx, 1), || {
        cx.operand_err(1, "Index", "an int scalar type")
    })
}

fn insert_dynamic(cx: &Cx) -> Check {
    let r = cx
        .result_shape()
        .filter(|s| s.vector)
        .ok_or_else(|| cx.result_type_err("a vector type"))?;
    ensure(cx.type_of(0) == cx.inst.result_type, || {
        cx.operand_err(0, "Vector", "of the Result Type")
    })?;
    ensure(cx.type_of(1) == Some(r.component), || {
        cx.operand_err(1, "Component", "the Result Type's component type")
    })?;
    ensure(int_scalar(cx, 2), || {
        cx.operand_err(2, "Index", "an int scalar type")
    })
}

fn shuffle(cx: &Cx) -> Check {
    let r = cx
        .result_shape()
        .filter(|s| s.vector)
        .ok_or_else(|| cx.result_type_err("a vector type"))?;
    let mut total = 0u64;
    for (i, what) in [(0, "Vector 1"), (1, "Vector 2")] {
        let v = cx
            .type_of(i)
            .and_then(|t| cx.shape(t))
            .filter(|s| s.vector)
            .ok_or_else(|| cx.operand_err(i, what, "a vector type"))?;
        ensure(v.component == r.component, || {
            cx.operand_err(i, what, "a vector of the Result Type's component type")
        })?;
        // A long vector of specialization-constant length (count 0) has no known bound.
        total = if v.count == 0 || total == u64::MAX {
            u64::MAX
        } else {
            total + v.count as u64
        };
    }
    let comps = cx.inst.operands.get(2..).unwrap_or(&[]);
    ensure(r.count == 0 || comps.len() as u64 == r.count as u64, || {
        cx.rule(format!(
            "the number of components ({}) does not match the Result Type's component count ({})",
            comps.len(),
            r.count
        ))
    })?;
    for c in comps {
        if let Some(w) = c.word() {
            ensure(w == u32::MAX || (w as u64) < total, || {
                cx.rule(format!(
                    "component index {w} is out of bounds for the {total} components of Vector 1 and Vector 2"
                ))
            })?;
        }
    }
    Ok(())
}

fn construct(cx: &Cx) -> Check {
    let Some(rt) = cx.inst.result_type else {
        return Ok(());
    };
    let n = cx.inst.operands.len();
    match cx.ix.ty(rt) {
        Some(Type::Vector { component, count }) => {
            // §3.52.12 OpCompositeConstruct: a vector is built from at least two constituents
            // (a single vector of the Result Type is an OpCopyObject).
            ensure(n >= 2, || {
                cx.rule("Expected number of constituents to be at least 2 for a vector Result Type")
            })?;
            let mut total = 0u64;
            for i in 0..n {
                let s = cx
                    .type_of(i)
                    .and_then(|t| cx.shape(t))
                    .filter(|s| s.component == *component)
                    .ok_or_else(|| {
                        cx.operand_err(
                            i,
                            &format!("Constituent {}", i + 1),
                            &format!("a scalar or vector of {}", cx.ix.name(*component)),
                        )
                    })?;
                total += s.count as u64;
            }
            ensure(total == *count as u64, || {
                cx.rule(format!(
                    "the constituents have {total} components in total, but the Result Type has {count}"
                ))
            })
        }
        Some(Type::Other(Op::TypeVectorIdEXT)) => {
            // A long vector of specialization-constant length: its constituents are scalars or
            // vectors of its component type; their count is known only once specialised.
            let Some((component, _)) = cx.ix.spec_vector(rt) else {
                return Ok(());
            };
            for i in 0..n {
                cx.type_of(i)
                    .and_then(|t| cx.shape(t))
                    .filter(|s| s.component == component)
                    .ok_or_else(|| {
                        cx.operand_err(
                            i,
                            &format!("Constituent {}", i + 1),
                            &format!("a scalar or vector of {}", cx.ix.name(component)),
                        )
                    })?;
            }
            Ok(())
        }
        Some(Type::Matrix { column, count }) => {
            same_constituents(cx, n, *count as u64, |_| Some(*column))
        }
        Some(Type::Array { element, length }) => {
            let len = cx.ix.const_u64(*length);
            match len {
                Some(len) => same_constituents(cx, n, len, |_| Some(*element)),
                None => Ok(()),
            }
        }
        Some(Type::Struct { members }) => {
            let m = members.clone();
            same_constituents(cx, n, m.len() as u64, |i| m.get(i).copied())
        }
        _ => Err(cx.result_type_err("a composite type")),
    }
}

/// `n` constituents, as many as `expected`, each of type `ty(i)`.
fn same_constituents(cx: &Cx, n: usize, expected: u64, ty: impl Fn(usize) -> Option<Id>) -> Check {
    ensure(n as u64 == expected, || {
        cx.rule(format!(
            "expected {expected} constituents for Result Type {}, found {n}",
            cx.tname(cx.inst.result_type)
        ))
    })?;
    for i in 0..n {
        let want = ty(i);
        ensure(cx.type_of(i) == want, || {
            cx.operand_err(
                i,
                &format!("Constituent {}", i + 1),
                &format!("of type {}", cx.tname(want)),
            )
        })?;
    }
    Ok(())
}

/// What indexing a shaped tensor reaches: its Element Type, or a slice — a tensor of the Element
/// Type with the remaining rank and the remaining Shape entries (when evaluable).
enum Reached {
    Element(Id),
    Slice {
        element: Id,
        rank: u64,
        inner: Option<Vec<u64>>,
    },
    /// The rank is a spec constant: nothing to compare.
    Unknown,
}

/// `OpCompositeExtract` / `OpCompositeInsert` on a shaped tensor `t` (a composite: seeds/001;
/// its constituents are the Shape[0] outermost slices, docs/semantics/tensors.md): at least
/// one index, at most Rank of them, index k below Shape[k] (when evaluable); the type reached
/// is the Element Type after Rank indices, otherwise a tensor of the Element Type with the
/// remaining rank and shape. The same rules as for arrays (the composite rules above).
fn tensor_extract_insert(cx: &Cx, t: Id, info: TensorInfo) -> Check {
    let from = if cx.inst.opcode == Op::CompositeExtract {
        1
    } else {
        ensure(Some(t) == cx.inst.result_type, || {
            cx.operand_err(1, "Composite", "of the Result Type")
        })?;
        2
    };
    let indices: Vec<u64> = cx
        .inst
        .operands
        .iter()
        .skip(from)
        .filter_map(|o| o.word().map(u64::from))
        .collect();
    ensure(!indices.is_empty(), || {
        cx.rule("Expected at least one index, zero found")
    })?;
    let rank = info.rank.and_then(|r| cx.ix.const_u64(r));
    let entries = info.shape.and_then(|s| shape_entries(cx.ix, s));
    let m = indices.len() as u64;
    if let Some(rank) = rank {
        ensure(m <= rank, || {
            cx.rule(format!(
                "reached non-composite type {} while indexes still remain to be traversed \
                 ({} has rank {rank}, {m} indices given)",
                cx.ix.name(info.element),
                cx.ix.name(t)
            ))
        })?;
    }
    if let Some(entries) = &entries {
        for (k, (&i, &d)) in indices.iter().zip(entries).enumerate() {
            ensure(i < d, || {
                cx.rule(format!(
                    "index {i} is out of bounds: {} has {d} elements along dimension {k}",
                    cx.ix.name(t)
                ))
            })?;
        }
    }
    let reached = match rank {
        None => Reached::Unknown,
        Some(r) if r == m => Reached::Element(info.element),
        Some(r) => Reached::Slice {
            element: info.element,
            rank: r - m,
            inner: entries
                .as_ref()
                .and_then(|e| e.get(m as usize..))
                .map(<[u64]>::to_vec),
        },
    };
    let (value, what) = if cx.inst.opcode == Op::CompositeExtract {
        (cx.inst.result_type, None)
    } else {
        (cx.type_of(0), Some(0))
    };
    let matches = match &reached {
        Reached::Unknown => true,
        Reached::Element(e) => value == Some(*e),
        Reached::Slice {
            element,
            rank,
            inner,
        } => value.and_then(|v| tensor_info(cx.ix, v)).is_some_and(|v| {
            let rank_ok = v
                .rank
                .and_then(|r| cx.ix.const_u64(r))
                .is_none_or(|r| r == *rank);
            let shape_ok = match (v.shape.and_then(|s| shape_entries(cx.ix, s)), inner) {
                (Some(a), Some(b)) => &a == b,
                _ => v.shape.is_some(),
            };
            v.element == *element && rank_ok && shape_ok
        }),
    };
    let expected = match &reached {
        Reached::Element(e) => cx.ix.name(*e),
        Reached::Slice { element, rank, .. } => format!(
            "a shaped tensor of Element Type {} and rank {rank}",
            cx.ix.name(*element)
        ),
        Reached::Unknown => String::new(),
    };
    match what {
        None => ensure(matches, || {
            cx.rule(format!(
                "Result Type {} does not match the type {expected} that results from indexing \
                 into the composite",
                cx.tname(cx.inst.result_type)
            ))
        }),
        Some(i) => ensure(matches, || {
            cx.operand_err(
                i,
                "Object",
                &format!("the type {expected} that results from indexing into the composite"),
            )
        }),
    }
}
