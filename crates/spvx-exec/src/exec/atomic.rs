//! Atomic instructions on 32- and 64-bit integers in buffers, workgroup and private memory.
//!
//! Within a subgroup the lanes perform their atomics in lane order; subgroups of a workgroup
//! run one at a time between barriers. Buffer atomics are real atomic operations, because
//! workgroups run in parallel: their combined effect is deterministic for the commutative
//! operations (add, sub, min, max, and, or, xor, inc, dec), but the values they *return*, and
//! the outcome of exchanges across workgroups, depend on the order, which is not defined — as
//! on a GPU. A single-threaded run (`RunConfig::threads = Some(1)`) runs workgroups in
//! linear-index order.

use super::{Ctx, Stop, lanes, low_bits, sext};
use crate::memory::{Ptr, SPACE_BUFFER0};
use crate::program::{AtomicOp, Slot};
use crate::report::UbKind;

fn apply(op: AtomicOp, bits: u32, old: u64, value: u64, comparator: u64) -> u64 {
    let m = low_bits(bits);
    let (so, sv) = (sext(old, bits), sext(value, bits));
    match op {
        AtomicOp::Load => old,
        AtomicOp::Store | AtomicOp::Exchange => value,
        AtomicOp::CompareExchange => {
            if old == comparator {
                value
            } else {
                old
            }
        }
        AtomicOp::IIncrement => old.wrapping_add(1) & m,
        AtomicOp::IDecrement => old.wrapping_sub(1) & m,
        AtomicOp::IAdd => old.wrapping_add(value) & m,
        AtomicOp::ISub => old.wrapping_sub(value) & m,
        AtomicOp::SMin => (so.min(sv) as u64) & m,
        AtomicOp::SMax => (so.max(sv) as u64) & m,
        AtomicOp::UMin => old.min(value),
        AtomicOp::UMax => old.max(value),
        AtomicOp::And => old & value,
        AtomicOp::Or => old | value,
        AtomicOp::Xor => old ^ value,
    }
}

/// Runs an atomic operation; `dst` receives the original value (OpAtomicStore has none).
pub fn atomic(
    cx: &mut Ctx,
    op: AtomicOp,
    bits: u32,
    dst: Option<Slot>,
    ptr: Slot,
    value: Option<Slot>,
    comparator: Option<Slot>,
) -> Result<(), Stop> {
    let bytes = bits / 8;
    for l in lanes(cx.mask) {
        let p = Ptr(cx.get(ptr, l));
        let v = value.map_or(0, |s| cx.get(s, l));
        let c = comparator.map_or(0, |s| cx.get(s, l));
        let old = if p.space() >= SPACE_BUFFER0 {
            let buffer = cx.mem.buffers.get((p.space() - SPACE_BUFFER0) as usize);
            let read_only = buffer.is_some_and(|b| b.read_only) && op != AtomicOp::Load;
            let r = match buffer {
                Some(_) if read_only => None,
                Some(b) if bits == 64 => b.atomic64(p.offset(), |o| apply(op, bits, o, v, c)),
                Some(b) => b
                    .atomic32(p.offset(), |o| apply(op, bits, o as u64, v, c) as u32)
                    .map(u64::from),
                None => None,
            };
            if let (Some(o), Some(b), Some(base)) = (r, buffer, cx.mem.writer_base) {
                let wrote = match op {
                    AtomicOp::Load => false,
                    AtomicOp::CompareExchange => o == c & low_bits(bits),
                    _ => true,
                };
                if wrote {
                    b.record_writer(p.offset(), bits / 8, base.wrapping_add(l as u32));
                }
            }
            match r {
                Some(o) => o,
                None => {
                    let kind = if read_only {
                        UbKind::WriteToReadOnly
                    } else {
                        UbKind::OutOfBoundsWrite {
                            space: "buffer".into(),
                            offset: p.offset(),
                            bytes,
                        }
                    };
                    cx.report(kind, l)?;
                    0
                }
            }
        } else {
            match cx.mem.read(l, p, bytes) {
                Ok(o) => {
                    let _ = cx.mem.write(l, p, bytes, apply(op, bits, o, v, c));
                    o
                }
                Err(_) => {
                    let kind = UbKind::OutOfBoundsWrite {
                        space: crate::memory::Memory::space_kind(p.space()).into(),
                        offset: p.offset(),
                        bytes,
                    };
                    cx.report(kind, l)?;
                    0
                }
            }
        };
        if let Some(d) = dst {
            cx.set(d, l, old);
        }
    }
    Ok(())
}
