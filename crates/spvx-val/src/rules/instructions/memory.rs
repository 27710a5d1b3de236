//! Memory instructions (SPIR-V §3.52.8): `OpVariable` (result pointer type and storage class,
//! initializer, Function storage class exactly inside functions), `OpLoad`, `OpStore` (not
//! into read-only storage classes),
//! `OpCopyMemory`, `OpCopyMemorySized` (pointer operands; Size an integer scalar that, as a
//! constant, is not zero nor has the sign bit set), and the access chains (`OpAccessChain`, `OpInBoundsAccessChain`,
//! `OpPtrAccessChain`, `OpInBoundsPtrAccessChain`): indices and result pointer type.

use super::composite::step;
use super::{Check, Cx, ensure};
use spvx_spirv::index::Type;
use spvx_spirv::instruction::Id;
use spvx_spirv::op::Op;

const FUNCTION_STORAGE: u32 = 7;

pub(super) fn check(cx: &Cx) -> Check {
    match cx.inst.opcode {
        Op::Variable => variable(cx),
        Op::Load => load(cx),
        Op::Store => store(cx),
        Op::CopyMemory => copy_memory(cx),
        Op::CopyMemorySized => copy_memory_sized(cx),
        Op::AccessChain | Op::InBoundsAccessChain => access_chain(cx, false),
        Op::PtrAccessChain | Op::InBoundsPtrAccessChain => access_chain(cx, true),
        _ => Ok(()),
    }
}

/// The storage class and pointee of pointer type `t`.
fn pointer(cx: &Cx, t: Option<Id>) -> Option<(u32, Id)> {
    match t.and_then(|t| cx.ix.ty(t)) {
        Some(Type::Pointer {
            storage_class,
            pointee,
        }) => Some((*storage_class, *pointee)),
        _ => None,
    }
}

/// True when the pointer type `t` exists but is not a typed `OpTypePointer` (e.g. an untyped
/// pointer): such pointers are left to other rules.
fn other_pointer(cx: &Cx, t: Option<Id>) -> bool {
    matches!(t.and_then(|t| cx.ix.ty(t)), Some(Type::Other(_)))
}

fn variable(cx: &Cx) -> Check {
    if other_pointer(cx, cx.inst.result_type) {
        return Ok(());
    }
    let (sc, pointee) =
        pointer(cx, cx.inst.result_type).ok_or_else(|| cx.result_type_err("an OpTypePointer"))?;
    let declared = cx.word(0);
    ensure(declared == Some(sc), || {
        cx.rule(format!(
            "the Storage Class operand must equal the storage class of the Result Type {}",
            cx.tname(cx.inst.result_type)
        ))
    })?;
    let inside = cx.ix.function_of(cx.index).is_some();
    if inside {
        ensure(sc == FUNCTION_STORAGE, || {
            cx.rule("variables inside a function must have the Function storage class")
        })?;
    } else {
        ensure(sc != FUNCTION_STORAGE, || {
            cx.rule("variables outside a function cannot have the Function storage class")
        })?;
    }
    if cx.inst.operands.len() > 1 {
        ensure(cx.type_of(1) == Some(pointee), || {
            cx.operand_err(
                1,
                "Initializer",
                &format!("of the pointee type {}", cx.ix.name(pointee)),
            )
        })?;
    }
    Ok(())
}

fn load(cx: &Cx) -> Check {
    let pt = cx.type_of(0);
    if other_pointer(cx, pt) || cx.opaque(cx.inst.result_type) {
        return Ok(());
    }
    let (_, pointee) =
        pointer(cx, pt).ok_or_else(|| cx.operand_err(0, "Pointer", "a pointer type"))?;
    ensure(cx.inst.result_type == Some(pointee), || {
        cx.rule(format!(
            "Result Type {} does not match the pointee type {} of Pointer",
            cx.tname(cx.inst.result_type),
            cx.ix.name(pointee)
        ))
    })
}

fn store(cx: &Cx) -> Check {
    let pt = cx.type_of(0);
    if other_pointer(cx, pt) {
        return Ok(());
    }
    let (sc, pointee) =
        pointer(cx, pt).ok_or_else(|| cx.operand_err(0, "Pointer", "a pointer type"))?;
    // UniformConstant, Input and PushConstant memory is read-only (SPIR-V §2.18 storage
    // classes; spirv-val: "storage class is read-only").
    ensure(!matches!(sc, 0 | 1 | 9), || {
        let kind = cx.ix.grammar.kind_by_name("StorageClass");
        let name = kind
            .and_then(|k| cx.ix.grammar.enumerant_name(k, sc))
            .unwrap_or("?");
        cx.rule(format!("Pointer's storage class {name} is read-only"))
    })?;
    let object = cx.type_of(1);
    let relaxed = cx.opts.relax.relax_struct_store
        && object.is_some_and(|o| layout_compatible_structs(cx.ix, o, pointee, 0));
    ensure(object == Some(pointee) || relaxed, || {
        cx.operand_err(
            1,
            "Object",
            &format!("of the pointee type {} of Pointer", cx.ix.name(pointee)),
        )
    })
}

/// `--relax-struct-store`: two struct types whose members are the same types (or, in turn,
/// such structs) with the same Offset, RowMajor/ColMajor and MatrixStride decorations.
fn layout_compatible_structs(
    ix: &spvx_spirv::index::ModuleIndex,
    a: Id,
    b: Id,
    depth: u32,
) -> bool {
    use crate::rules::block_layout::members::members;
    if a == b {
        return true;
    }
    if depth > 64
        || !matches!(ix.ty(a), Some(Type::Struct { .. }))
        || !matches!(ix.ty(b), Some(Type::Struct { .. }))
    {
        return false;
    }
    let (ma, mb) = (members(ix, a), members(ix, b));
    ma.len() == mb.len()
        && ma.iter().zip(&mb).all(|(x, y)| {
            x.offset == y.offset
                && x.has_majorness == y.has_majorness
                && x.has_matrix_stride == y.has_matrix_stride
                && x.matrix == y.matrix
                && layout_compatible_structs(ix, x.ty, y.ty, depth + 1)
        })
}

fn copy_memory(cx: &Cx) -> Check {
    let (t, s) = (cx.type_of(0), cx.type_of(1));
    if other_pointer(cx, t) || other_pointer(cx, s) {
        return Ok(());
    }
    let (_, a) = pointer(cx, t).ok_or_else(|| cx.operand_err(0, "Target", "a pointer type"))?;
    let (_, b) = pointer(cx, s).ok_or_else(|| cx.operand_err(1, "Source", "a pointer type"))?;
    ensure(a == b, || {
        cx.rule("Target and Source must point to the same type")
    })
}

/// SPIR-V §3.52.8 OpCopyMemorySized: "Size ... must have a scalar integer type. If it is a
/// constant instruction, the constant value must not be 0" (spirv-val: "cannot be a constant
/// zero", and for a signed type "cannot have the sign bit set to 1").
fn copy_memory_sized(cx: &Cx) -> Check {
    let (t, s) = (cx.type_of(0), cx.type_of(1));
    if other_pointer(cx, t) || other_pointer(cx, s) {
        return Ok(());
    }
    pointer(cx, t).ok_or_else(|| cx.operand_err(0, "Target", "a pointer type"))?;
    pointer(cx, s).ok_or_else(|| cx.operand_err(1, "Source", "a pointer type"))?;
    let Some(Type::Int { width, signed }) = cx.type_of(2).and_then(|t| cx.ix.ty(t)) else {
        return Err(cx.operand_err(2, "Size", "an integer scalar"));
    };
    let Some(v) = cx.id(2).and_then(|id| cx.ix.const_u64(id)) else {
        return Ok(());
    };
    ensure(v != 0, || cx.rule("Size cannot be a constant zero"))?;
    ensure(
        !(*signed && *width <= 64 && v >> (width - 1) & 1 == 1),
        || cx.rule("Size cannot be a constant with the sign bit set"),
    )
}

fn access_chain(cx: &Cx, ptr_form: bool) -> Check {
    let base_t = cx.type_of(0);
    if other_pointer(cx, base_t) || other_pointer(cx, cx.inst.result_type) {
        return Ok(());
    }
    let (rsc, rpointee) =
        pointer(cx, cx.inst.result_type).ok_or_else(|| cx.result_type_err("an OpTypePointer"))?;
    let (bsc, mut t) =
        pointer(cx, base_t).ok_or_else(|| cx.operand_err(0, "Base", "a pointer type"))?;
    ensure(rsc == bsc, || {
        cx.rule("the Result Type's storage class must equal the Base's storage class")
    })?;
    // OpPtrAccessChain's Element operand does not change the type.
    let first = if ptr_form { 2 } else { 1 };
    for i in first..cx.inst.operands.len() {
        let Some(idx) = cx.id(i) else { continue };
        let is_int = cx
            .ix
            .value_type(idx)
            .is_some_and(|t| matches!(t, Type::Int { .. }));
        ensure(is_int, || {
            cx.operand_err(i, &format!("Index {}", i - first + 1), "an int scalar type")
        })?;
        let constant = if cx.ix.is_constant(idx) {
            cx.ix.const_u64(idx)
        } else {
            None
        };
        if matches!(cx.ix.ty(t), Some(Type::Struct { .. })) && constant.is_none() {
            return Err(cx.rule(format!(
                "Index {} into struct {} must be an OpConstant integer",
                i - first + 1,
                cx.ix.name(t)
            )));
        }
        // Only struct member indices are bounds-checked: out-of-range constant array indices
        // are undefined behaviour at run time, not invalid modules.
        let bounded = if matches!(cx.ix.ty(t), Some(Type::Struct { .. })) {
            constant
        } else {
            None
        };
        t = step(cx, t, bounded).map_err(|e| cx.rule(e))?;
    }
    ensure(t == rpointee, || {
        cx.rule(format!(
            "Result Type {} does not point to the type {} that results from indexing into Base",
            cx.tname(cx.inst.result_type),
            cx.ix.name(t)
        ))
    })
}
