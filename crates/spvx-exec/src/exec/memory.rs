//! Memory instructions: variable initialisation, access chains, loads, stores, OpCopyMemory
//! and OpArrayLength. Every scalar access is bounds-checked against its memory object (see
//! `crate::memory`): out-of-bounds reads give zero, writes are dropped, and both are reported.
//! Loads, stores, access chains and variable initialisation first try the whole-subgroup path
//! (`lanewise`), which checks bounds once per instruction; everything it declines runs here
//! lane by lane.

mod lanewise;

use crate::bits::sext;
use crate::exec::ctx::{Ctx, Stop};
use crate::exec::mask::lanes;
use crate::memory::{Access, Memory, Ptr, SPACE_BUFFER0, SPACE_NONE};
use crate::program::{ChainStep, Leaf, Slot};
use crate::report::UbKind;

fn space_name(ptr: Ptr) -> String {
    Memory::space_kind(ptr.space()).to_string()
}

pub(crate) fn report_access(
    cx: &mut Ctx,
    lane: usize,
    ptr: Ptr,
    bytes: u32,
    write: bool,
    e: Access,
) -> Result<(), Stop> {
    let kind = match (e, write) {
        (Access::ReadOnly, _) => UbKind::WriteToReadOnly,
        (Access::OutOfBounds, false) => UbKind::OutOfBoundsRead {
            space: space_name(ptr),
            offset: ptr.offset(),
            bytes,
        },
        (Access::OutOfBounds, true) => UbKind::OutOfBoundsWrite {
            space: space_name(ptr),
            offset: ptr.offset(),
            bytes,
        },
    };
    cx.report(kind, lane)
}

/// Writes the variable's pointer and initialises its bytes.
pub fn var_init(
    cx: &mut Ctx,
    dst: Slot,
    ptr: u64,
    size: u32,
    init: Option<&(Slot, Box<[Leaf]>)>,
) -> Result<(), Stop> {
    if lanewise::var_init(cx, dst, ptr, size, init) {
        return Ok(());
    }
    let p = Ptr(ptr);
    for l in lanes(cx.mask) {
        cx.set(dst, l, ptr);
        for o in 0..size {
            // Zero first: padding and anything the initialiser does not cover.
            let _ = cx.mem.write(l, p.offset_by(o as i64), 1, 0);
        }
        if let Some((src, leaves)) = init {
            for leaf in leaves.iter() {
                let v = cx.get(src + leaf.slot, l);
                let _ = cx.mem.write(
                    l,
                    p.offset_by(leaf.offset as i64),
                    leaf.scalar.mem_bytes(),
                    v,
                );
            }
        }
    }
    Ok(())
}

/// `dst = base + offset + Σ index × stride`; indices outside a sized array are reported.
pub fn access_chain(
    cx: &mut Ctx,
    dst: Slot,
    base: Slot,
    offset: u32,
    steps: &[ChainStep],
) -> Result<(), Stop> {
    if lanewise::access_chain(cx, dst, base, offset, steps) {
        return Ok(());
    }
    for l in lanes(cx.mask) {
        let mut p = Ptr(cx.get(base, l)).offset_by(offset as i64);
        for s in steps {
            let i = sext(cx.get(s.index, l), s.index_bits as u32);
            if let Some(len) = s.length
                && !(0..len as i64).contains(&i)
            {
                cx.report(
                    UbKind::IndexOutOfRange {
                        index: i,
                        length: len,
                    },
                    l,
                )?;
            }
            p = p.offset_by(i.wrapping_mul(s.stride as i64));
        }
        cx.set(dst, l, p.0);
    }
    Ok(())
}

/// The first index into an array of buffers: element `i` is memory space `base.space + i`;
/// an index outside `0..count` is reported and gives a pointer into no memory object.
pub fn select_buffer(
    cx: &mut Ctx,
    dst: Slot,
    base: Slot,
    index: Slot,
    index_bits: u8,
    count: crate::program::ArrayCount,
) -> Result<(), Stop> {
    for l in lanes(cx.mask) {
        let count = match count {
            crate::program::ArrayCount::Fixed(n) => n,
            crate::program::ArrayCount::Runtime(slot) => cx.get(slot, l) as u32,
        };
        let p = Ptr(cx.get(base, l));
        let i = sext(cx.get(index, l), index_bits as u32);
        let space = if (0..count as i64).contains(&i) {
            p.space() + i as u32
        } else {
            cx.report(
                UbKind::IndexOutOfRange {
                    index: i,
                    length: count,
                },
                l,
            )?;
            SPACE_NONE
        };
        cx.set(dst, l, Ptr::new(space, p.offset()).0);
    }
    Ok(())
}

/// Loads the leaves of a value.
pub fn load(cx: &mut Ctx, dst: Slot, ptr: Slot, leaves: &[Leaf]) -> Result<(), Stop> {
    if lanewise::load(cx, dst, ptr, leaves) {
        return Ok(());
    }
    if let [leaf] = leaves
        && leaf.scalar != crate::program::Scalar::Bool
    {
        // One scalar: read straight from the buffer when the pointer is into one.
        let bytes = leaf.scalar.mem_bytes();
        let w = cx.width;
        let (d, p) = (dst as usize * w, ptr as usize * w);
        for l in lanes(cx.mask) {
            let at = Ptr(cx.regs[p + l]).offset_by(leaf.offset as i64);
            let fast = at
                .space()
                .checked_sub(SPACE_BUFFER0)
                .and_then(|b| cx.mem.buffers.get(b as usize))
                .and_then(|b| b.read(at.offset(), bytes));
            let v = match fast {
                Some(v) => v,
                None => match cx.mem.read(l, at, bytes) {
                    Ok(v) => v,
                    Err(e) => {
                        report_access(cx, l, at, bytes, false, e)?;
                        0
                    }
                },
            };
            cx.regs[d + l] = v;
        }
        return Ok(());
    }
    for l in lanes(cx.mask) {
        let p = Ptr(cx.get(ptr, l));
        for leaf in leaves {
            let at = p.offset_by(leaf.offset as i64);
            let bytes = leaf.scalar.mem_bytes();
            let v = match cx.mem.read(l, at, bytes) {
                Ok(v) => v,
                Err(e) => {
                    report_access(cx, l, at, bytes, false, e)?;
                    0
                }
            };
            let v = if leaf.scalar == crate::program::Scalar::Bool {
                (v != 0) as u64
            } else {
                v
            };
            cx.set(dst + leaf.slot, l, v);
        }
    }
    Ok(())
}

/// Stores the leaves of a value.
pub fn store(cx: &mut Ctx, ptr: Slot, src: Slot, leaves: &[Leaf]) -> Result<(), Stop> {
    if lanewise::store(cx, ptr, src, leaves) {
        return Ok(());
    }
    for l in lanes(cx.mask) {
        let p = Ptr(cx.get(ptr, l));
        for leaf in leaves {
            let at = p.offset_by(leaf.offset as i64);
            let bytes = leaf.scalar.mem_bytes();
            let v = cx.get(src + leaf.slot, l);
            if let Err(e) = cx.mem.write(l, at, bytes, v) {
                report_access(cx, l, at, bytes, true, e)?;
            }
        }
    }
    Ok(())
}

/// Copies `size` bytes between two pointers, byte by byte.
pub fn copy_memory(cx: &mut Ctx, dst: Slot, src: Slot, size: u32) -> Result<(), Stop> {
    for l in lanes(cx.mask) {
        let (d, s) = (Ptr(cx.get(dst, l)), Ptr(cx.get(src, l)));
        for o in 0..size as i64 {
            let v = match cx.mem.read(l, s.offset_by(o), 1) {
                Ok(v) => v,
                Err(e) => {
                    report_access(cx, l, s.offset_by(o), 1, false, e)?;
                    0
                }
            };
            if let Err(e) = cx.mem.write(l, d.offset_by(o), 1, v) {
                report_access(cx, l, d.offset_by(o), 1, true, e)?;
            }
        }
    }
    Ok(())
}

/// OpArrayLength: elements of the runtime array at `offset` in the block `ptr` points to.
pub fn array_length(cx: &mut Ctx, dst: Slot, ptr: Slot, offset: u32, stride: u32) {
    for l in lanes(cx.mask) {
        let p = Ptr(cx.get(ptr, l));
        let size = cx.mem.object_size(p);
        let n = size.saturating_sub(p.offset() + offset as u64) / stride.max(1) as u64;
        cx.set(dst, l, n & 0xffff_ffff);
    }
}
