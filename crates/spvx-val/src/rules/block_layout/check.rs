//! The Vulkan layout rules applied to one struct, its member structs and arrays, with the
//! absolute offset each is placed at (the straddle rule sees absolute offsets).

use super::members::{Member, array_stride, members};
use super::sizes::{Mode, alignment, scalar_alignment, size};
use super::{BlockLayoutError, Context};
use spvx_spirv::index::Type;
use spvx_spirv::instruction::Id;

/// Pointers inside blocks are PhysicalStorageBuffer64 pointers: 8 bytes.
const POINTER_SIZE: u64 = 8;

/// Deeper nesting than this is not followed (a module this deep is refused elsewhere).
const MAX_DEPTH: u32 = 64;

pub(super) fn check_struct(
    cx: &Context,
    s: Id,
    incoming: u64,
) -> Result<(), Box<BlockLayoutError>> {
    check_struct_at(cx, s, incoming, 0)
}

fn check_struct_at(
    cx: &Context,
    s: Id,
    incoming: u64,
    depth: u32,
) -> Result<(), Box<BlockLayoutError>> {
    if depth > MAX_DEPTH {
        return Ok(());
    }
    let ix = cx.ix;
    let mut ms: Vec<Member> = members(ix, s);
    ms.sort_by_key(|m| m.offset.unwrap_or(u32::MAX));
    let mut next_valid: u64 = 0;
    for m in &ms {
        let Some(offset) = m.offset.map(u64::from) else {
            return Err(cx.fail(s, m.index, "is missing an Offset decoration".into()));
        };
        let ty = ix.ty(m.ty);
        let is_vector = matches!(ty, Some(Type::Vector { .. }));
        let align = alignment(ix, m.ty, cx.mode, m.matrix, false, POINTER_SIZE);
        let msize = size(ix, m.ty, m.matrix, POINTER_SIZE);
        let at = incoming + offset;
        if cx.relaxed && is_vector && cx.mode != Mode::Scalar {
            let scalar = scalar_alignment(ix, m.ty, POINTER_SIZE);
            if !at.is_multiple_of(scalar) {
                return Err(cx.fail(
                    s,
                    m.index,
                    format!("at offset {offset} is not aligned to scalar element size {scalar}"),
                ));
            }
        } else if cx.mode == Mode::Scalar {
            if !at.is_multiple_of(align) {
                return Err(cx.fail(
                    s,
                    m.index,
                    format!("at offset {offset} is not aligned to scalar element size {align}"),
                ));
            }
        } else if !at.is_multiple_of(align) {
            return Err(cx.fail(
                s,
                m.index,
                format!("at offset {offset} is not aligned to {align}"),
            ));
        }
        if offset < next_valid {
            return Err(cx.fail(
                s,
                m.index,
                format!(
                    "at offset {offset} overlaps previous member ending at offset {}",
                    next_valid - 1
                ),
            ));
        }
        if cx.relaxed && is_vector && cx.mode != Mode::Scalar && improper_straddle(at, msize) {
            return Err(cx.fail(
                s,
                m.index,
                format!("is an improperly straddling vector at offset {offset}"),
            ));
        }
        match ty {
            Some(Type::Struct { .. }) => check_struct_at(cx, m.ty, at, depth + 1)?,
            Some(Type::Matrix { .. }) if !u64::from(m.matrix.stride).is_multiple_of(align) => {
                return Err(cx.fail(
                    s,
                    m.index,
                    format!(
                        "is a matrix with stride {} not satisfying alignment to {align}",
                        m.matrix.stride
                    ),
                ));
            }
            Some(Type::Array { .. } | Type::RuntimeArray { .. }) => {
                check_array(cx, s, m, m.ty, at, depth)?;
            }
            _ => {}
        }
        next_valid = offset + msize;
        if cx.mode != Mode::Scalar && matches!(ty, Some(Type::Array { .. } | Type::Struct { .. })) {
            // Outside scalar layout nothing may be placed in the padding after a struct or an
            // array, up to the next multiple of its alignment.
            next_valid = next_valid.div_ceil(align) * align;
        }
    }
    Ok(())
}

/// An array member (or an array inside one): its stride against its alignment and element
/// size, and the struct elements it holds at each distinct placement modulo 16.
fn check_array(
    cx: &Context,
    s: Id,
    m: &Member,
    array: Id,
    at: u64,
    depth: u32,
) -> Result<(), Box<BlockLayoutError>> {
    let ix = cx.ix;
    let (element, length) = match ix.ty(array) {
        Some(Type::Array { element, length }) => (*element, ix.const_u64(*length)),
        Some(Type::RuntimeArray { element }) => (*element, None),
        _ => return Ok(()),
    };
    let stride = u64::from(array_stride(ix, array).unwrap_or(0));
    let align = alignment(ix, array, cx.mode, m.matrix, false, POINTER_SIZE);
    let element_size = size(ix, element, m.matrix, POINTER_SIZE);
    if stride == 0 {
        return Err(cx.fail(
            s,
            m.index,
            format!("contains an array with stride 0, but with an element size of {element_size}"),
        ));
    }
    if !stride.is_multiple_of(align) {
        return Err(cx.fail(
            s,
            m.index,
            format!("contains an array with stride {stride} not satisfying alignment to {align}"),
        ));
    }
    if stride < element_size {
        return Err(cx.fail(
            s,
            m.index,
            format!(
                "contains an array with stride {stride}, but with an element size of {element_size}"
            ),
        ));
    }
    let count = length.unwrap_or(1).clamp(1, 16);
    let mut seen = [false; 16];
    for i in 0..count {
        let place = at + i * stride;
        if std::mem::replace(&mut seen[(place % 16) as usize], true) {
            break;
        }
        match ix.ty(element) {
            Some(Type::Struct { .. }) => check_struct_at(cx, element, place, depth + 1)?,
            Some(Type::Array { .. } | Type::RuntimeArray { .. }) => {
                check_array(cx, s, m, element, place, depth + 1)?
            }
            _ => {}
        }
    }
    Ok(())
}

/// Vulkan: a vector of at most 16 bytes must not cross a 16-byte boundary; a larger one must
/// start on one.
fn improper_straddle(at: u64, size: u64) -> bool {
    if size == 0 {
        return false;
    }
    if size <= 16 {
        at / 16 != (at + size - 1) / 16
    } else {
        !at.is_multiple_of(16)
    }
}
