//! Atomic instructions (SPIR-V §3.52.18: `OpAtomicLoad` … `OpAtomicXor`, `OpAtomicFAddEXT`,
//! `OpAtomicFMinEXT`, `OpAtomicFMaxEXT`) and barriers (§3.52.19: `OpControlBarrier`,
//! `OpMemoryBarrier`): result type, the pointer and the type it points to, the value operands,
//! and the Scope and Memory Semantics operands, which are ids of 32-bit integer scalars.
//!
//! The rules and their order follow spirv-val (SPIRV-Tools source/val/validate_atomics.cpp,
//! validate_barriers.cpp, validate_scopes.cpp), so that the first error reported is the same.

use super::{Check, Cx, ensure};
use crate::rules::scope::{self, ScopeKind};
use spvx_spirv::index::Type;
use spvx_spirv::instruction::Id;
use spvx_spirv::op::Op;

/// What an atomic opcode's Result Type may be.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ResultRule {
    /// `OpAtomicStore`: no result.
    None,
    /// Int or float scalar (`OpAtomicLoad`, `OpAtomicExchange`).
    IntOrFloat,
    Int,
    Float,
}

/// The shape of an atomic opcode: its result rule, the number of Memory Semantics operands,
/// and whether it has a Value and a Comparator operand.
struct Form {
    result: ResultRule,
    semantics: usize,
    value: bool,
    comparator: bool,
}

fn form(opcode: Op) -> Option<Form> {
    let f = |result, semantics, value, comparator| {
        Some(Form {
            result,
            semantics,
            value,
            comparator,
        })
    };
    match opcode {
        Op::AtomicLoad => f(ResultRule::IntOrFloat, 1, false, false), // OpAtomicLoad
        Op::AtomicStore => f(ResultRule::None, 1, true, false),       // OpAtomicStore
        Op::AtomicExchange => f(ResultRule::IntOrFloat, 1, true, false), // OpAtomicExchange
        Op::AtomicCompareExchange | Op::AtomicCompareExchangeWeak => {
            f(ResultRule::Int, 2, true, true)
        } // OpAtomicCompareExchange(Weak)
        Op::AtomicIIncrement | Op::AtomicIDecrement => f(ResultRule::Int, 1, false, false), // OpAtomicIIncrement/IDecrement
        Op::AtomicIAdd
        | Op::AtomicISub
        | Op::AtomicSMin
        | Op::AtomicUMin
        | Op::AtomicSMax
        | Op::AtomicUMax
        | Op::AtomicAnd
        | Op::AtomicOr
        | Op::AtomicXor => f(ResultRule::Int, 1, true, false), // OpAtomicIAdd … OpAtomicXor
        // OpAtomicFMinEXT, OpAtomicFMaxEXT, OpAtomicFAddEXT.
        Op::AtomicFMinEXT | Op::AtomicFMaxEXT | Op::AtomicFAddEXT => {
            f(ResultRule::Float, 1, true, false)
        }
        _ => None,
    }
}

/// Storage classes an atomic may point into (spirv-val: Uniform, Workgroup, CrossWorkgroup,
/// Generic, AtomicCounter, Image, StorageBuffer, PhysicalStorageBuffer,
/// TaskPayloadWorkgroupEXT; Function only in Kernel modules).
const ATOMIC_STORAGE: [u32; 9] = [2, 4, 5, 8, 10, 11, 12, 5349, 5402];
const FUNCTION_STORAGE: u32 = 7;

pub(super) fn check(cx: &Cx) -> Check {
    match cx.inst.opcode {
        Op::ControlBarrier => barrier(cx, true),
        Op::MemoryBarrier => barrier(cx, false),
        op => match form(op) {
            Some(f) => atomic(cx, &f),
            None => Ok(()),
        },
    }
}

fn scalar(cx: &Cx, t: Option<Id>) -> Option<Type> {
    t.and_then(|t| cx.ix.ty(t))
        .filter(|t| matches!(t, Type::Int { .. } | Type::Float { .. }))
        .cloned()
}

fn atomic(cx: &Cx, f: &Form) -> Check {
    let rt = cx.inst.result_type;
    if f.result != ResultRule::None && cx.opaque(rt) {
        return Ok(());
    }
    let r = scalar(cx, rt);
    match f.result {
        ResultRule::None => {}
        ResultRule::IntOrFloat => ensure(r.is_some(), || {
            cx.result_type_err("an int or float scalar type")
        })?,
        ResultRule::Int => ensure(matches!(r, Some(Type::Int { .. })), || {
            cx.result_type_err("an int scalar type")
        })?,
        ResultRule::Float => ensure(matches!(r, Some(Type::Float { .. })), || {
            cx.result_type_err("a float scalar type")
        })?,
    }
    let ptr_type = cx.type_of(0);
    let Some(ptr) = ptr_type.and_then(|t| cx.ix.ty(t)) else {
        return Ok(()); // undefined pointer: reported by the id rules
    };
    let Type::Pointer {
        storage_class,
        pointee,
    } = ptr
    else {
        if matches!(ptr, Type::Other(_)) {
            return Ok(()); // untyped pointers: not judged here
        }
        return Err(cx.operand_err(0, "Pointer", "an OpTypePointer"));
    };
    let kernel = cx.ix.has_capability("Kernel");
    ensure(
        ATOMIC_STORAGE.contains(storage_class) || (kernel && *storage_class == FUNCTION_STORAGE),
        || {
            cx.rule(
                "expected Pointer Storage Class to be Uniform, Workgroup, CrossWorkgroup, \
                 Generic, AtomicCounter, Image, StorageBuffer, PhysicalStorageBuffer or \
                 TaskPayloadWorkgroupEXT (Function in Kernel modules)",
            )
        },
    )?;
    if f.result == ResultRule::None {
        ensure(scalar(cx, Some(*pointee)).is_some(), || {
            cx.rule("expected Pointer to be a pointer to an int or float scalar type")
        })?;
    } else {
        ensure(Some(*pointee) == rt, || {
            cx.rule(format!(
                "expected Pointer to point to a value of the Result Type {}, found {}",
                cx.tname(rt),
                cx.tname(Some(*pointee))
            ))
        })?;
    }
    scope_operand(cx, 1, "Memory Scope")?;
    for s in 0..f.semantics {
        semantics_operand(cx, 2 + s)?;
    }
    let mut next = 2 + f.semantics;
    if f.value {
        let expected = if f.result == ResultRule::None {
            Some(*pointee)
        } else {
            rt
        };
        ensure(cx.type_of(next) == expected, || {
            cx.operand_err(
                next,
                "Value",
                &format!(
                    "of type {} (the type Pointer points to)",
                    cx.tname(expected)
                ),
            )
        })?;
        next += 1;
    }
    if f.comparator {
        ensure(cx.type_of(next) == rt, || {
            cx.operand_err(
                next,
                "Comparator",
                &format!("of the Result Type {}", cx.tname(rt)),
            )
        })?;
    }
    Ok(())
}

fn barrier(cx: &Cx, control: bool) -> Check {
    let mut i = 0;
    if control {
        scope_operand(cx, 0, "Execution Scope")?;
        i = 1;
    }
    scope_operand(cx, i, "Memory Scope")?;
    semantics_operand(cx, i + 1)
}

/// True when operand `i` is a value whose type is a 32-bit int scalar (unknown values pass).
fn is_int32(cx: &Cx, i: usize) -> bool {
    match cx.type_of(i).and_then(|t| cx.ix.ty(t)) {
        Some(Type::Int { width, .. }) => *width == 32,
        Some(_) => false,
        None => true,
    }
}

/// A Scope `<id>` (operand `i`, `what` = "Execution Scope" or "Memory Scope"): a 32-bit int
/// scalar, then the rules of [`crate::rules::scope`].
pub(super) fn scope_operand(cx: &Cx, i: usize, what: &str) -> Check {
    ensure(is_int32(cx, i), || {
        cx.operand_err(i, what, "a 32-bit int scalar")
    })?;
    let Some(id) = cx.id(i) else { return Ok(()) };
    let kind = if what == "Execution Scope" {
        ScopeKind::Execution
    } else {
        ScopeKind::Memory
    };
    scope::check(cx.ix, cx.opts, cx.inst.opcode, id, kind).map_err(|rule| cx.rule(rule))
}

/// Acquire, Release, AcquireRelease, SequentiallyConsistent.
const ORDER_BITS: u64 = 0x2 | 0x4 | 0x8 | 0x10;

/// A Memory Semantics `<id>`: a 32-bit int scalar; when it is a (non-spec) constant, at most
/// one of the ordering bits.
fn semantics_operand(cx: &Cx, i: usize) -> Check {
    ensure(is_int32(cx, i), || {
        cx.operand_err(i, "Memory Semantics", "a 32-bit int scalar")
    })?;
    let flags = cx.id(i).and_then(|id| cx.ix.const_u64(id)).unwrap_or(0);
    ensure((flags & ORDER_BITS).count_ones() <= 1, || {
        cx.rule(
            "no more than one of the Memory Semantics bits Acquire, Release, AcquireRelease or \
             SequentiallyConsistent can be set",
        )
    })
}
