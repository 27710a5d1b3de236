//! Pointer operations of physical addressing (Kernel modules): generic-to-specific casts,
//! OpGenericPtrMemSemantics, OpPtrDiff, and OpCopyMemorySized; OpPtrEqual, OpPtrNotEqual and
//! OpPtrDiff of Logical addressing too.

use crate::bits::low_bits;
use crate::exec::ctx::{Ctx, Stop};
use crate::exec::mask::lanes;
use crate::memory::{Ptr, SPACE_BUFFER0, SPACE_PRIVATE, SPACE_WORKGROUP};
use crate::program::Slot;
use crate::program::kernel::PtrOp;
use crate::report::UbKind;

/// The storage class of the memory a pointer points into (Function, Workgroup,
/// CrossWorkgroup), or `None` for the null space.
fn class_of(p: Ptr) -> Option<u32> {
    match p.space() {
        SPACE_PRIVATE => Some(7),
        SPACE_WORKGROUP => Some(4),
        s if s >= SPACE_BUFFER0 => Some(5),
        _ => None,
    }
}

/// Runs a [`PtrOp`] on the active lanes.
pub fn ptr_op(cx: &mut Ctx, op: PtrOp, dst: Slot, a: Slot, b: Slot) -> Result<(), Stop> {
    match op {
        PtrOp::GenericToClass(class) => cx.map1(dst, a, |x| {
            if class_of(Ptr(x)) == Some(class) {
                x
            } else {
                0
            }
        }),
        PtrOp::MemSemantics => cx.map1(dst, a, |x| match class_of(Ptr(x)) {
            Some(4) => 0x100,
            Some(5) => 0x200,
            _ => 0,
        }),
        PtrOp::Diff { elem, bits, map } => cx.map2(dst, a, b, |x, y| {
            let d = map.to_address(x).wrapping_sub(map.to_address(y));
            let shift = 64 - map.bits as u32;
            let d = ((d << shift) as i64) >> shift;
            (d.wrapping_div(elem.max(1) as i64) as u64) & low_bits(bits as u32)
        }),
        PtrOp::ToAddress { map, bits } => {
            cx.map1(dst, a, |x| map.to_address(x) & low_bits(bits as u32))
        }
        PtrOp::FromAddress { map, bits } => {
            cx.map1(dst, a, |x| map.from_address(x & low_bits(bits as u32)))
        }
        PtrOp::Equal { map, ne } => cx.map2(dst, a, b, |x, y| {
            ((map.to_address(x) == map.to_address(y)) != ne) as u64
        }),
        PtrOp::LogicalEqual { ne } => cx.map2(dst, a, b, |x, y| ((x == y) != ne) as u64),
        PtrOp::LogicalDiff { elem, bits } => return logical_diff(cx, elem, bits, dst, a, b),
    }
    Ok(())
}

/// OpPtrDiff under Logical addressing (`PtrOp::LogicalDiff`).
fn logical_diff(
    cx: &mut Ctx,
    elem: u32,
    bits: u8,
    dst: Slot,
    a: Slot,
    b: Slot,
) -> Result<(), Stop> {
    for l in lanes(cx.mask) {
        let (x, y) = (Ptr(cx.get(a, l)), Ptr(cx.get(b, l)));
        let d = if x.space() == y.space() {
            // Offsets are 48-bit and wrap: the difference is taken modulo 2^48, signed.
            let d = x.offset().wrapping_sub(y.offset()) << 16;
            ((d as i64) >> 16).wrapping_div(elem.max(1) as i64) as u64
        } else {
            cx.report(UbKind::PointerDiffAcrossObjects, l)?;
            0
        };
        cx.set(dst, l, d & low_bits(bits as u32));
    }
    Ok(())
}

/// OpCopyMemorySized: copies the bytes one by one (each access bounds-checked and reported
/// like a load or store of one byte).
pub fn copy_sized(
    cx: &mut Ctx,
    dst: Slot,
    src: Slot,
    size: Slot,
    size_bits: u8,
) -> Result<(), Stop> {
    for l in lanes(cx.mask) {
        let n = cx.get(size, l) & low_bits(size_bits as u32);
        let (d, s) = (Ptr(cx.get(dst, l)), Ptr(cx.get(src, l)));
        // A size larger than the source object cannot copy more than it reads in bounds, and
        // each out-of-bounds byte is reported: stop at the first one to keep runs finite.
        for o in 0..n {
            let v = match cx.mem.read(l, s.offset_by(o as i64), 1) {
                Ok(v) => v,
                Err(e) => {
                    super::memory::report_access(cx, l, s.offset_by(o as i64), 1, false, e)?;
                    break;
                }
            };
            if let Err(e) = cx.mem.write(l, d.offset_by(o as i64), 1, v) {
                super::memory::report_access(cx, l, d.offset_by(o as i64), 1, true, e)?;
                break;
            }
        }
    }
    Ok(())
}
