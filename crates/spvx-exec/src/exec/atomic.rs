//! Atomic instructions on 32- and 64-bit integers and on 16-, 32- and 64-bit floats
//! (SPV_EXT_shader_atomic_float_add, SPV_EXT_shader_atomic_float16_add,
//! SPV_EXT_shader_atomic_float_min_max) in buffers, workgroup and private memory.
//!
//! Within a subgroup the lanes perform their atomics in lane order; subgroups of a workgroup
//! run one at a time between barriers. Buffer atomics are real atomic operations, because
//! workgroups run in parallel: their combined effect is deterministic for the commutative
//! operations (add, sub, min, max, and, or, xor, inc, dec; float min and max, which are
//! IEEE 754-2019 minimumNumber/maximumNumber), but the values they *return*, the outcome of
//! exchanges across workgroups and float sums that round depend on the order, which is not
//! defined — as on a GPU. A single-threaded run (`RunConfig::threads = Some(1)`) runs
//! workgroups in linear-index order.

use crate::bits::{low_bits, sext};
use crate::exec::ctx::{Ctx, Stop};
use crate::exec::float_bits::{canonical_nan, from_f64, to_f64};
use crate::exec::mask::lanes;
use crate::memory::{Ptr, SPACE_BUFFER0};
use crate::program::{AtomicOp, FloatFmt, Slot};
use crate::report::UbKind;

/// The float format of a float atomic of `bits` bits.
fn float_fmt(bits: u32) -> FloatFmt {
    match bits {
        16 => FloatFmt::F16,
        32 => FloatFmt::F32,
        _ => FloatFmt::F64,
    }
}

/// IEEE 754-2019 minimumNumber (`max` false) / maximumNumber (`max` true) on bit patterns: a
/// NaN operand gives the other operand, two NaNs the canonical quiet NaN, −0 is below +0;
/// otherwise the operand's own bits.
fn min_max_number(fmt: FloatFmt, a: u64, b: u64, max: bool) -> u64 {
    let (x, y) = (to_f64(fmt, a), to_f64(fmt, b));
    match (x.is_nan(), y.is_nan()) {
        (true, true) => return canonical_nan(fmt),
        (true, false) => return b,
        (false, true) => return a,
        _ => {}
    }
    let a_first = if x == y {
        // Equal values: only ±0 differ; the one with the sign bit is the smaller.
        x.is_sign_negative() != max
    } else {
        (x < y) != max
    };
    if a_first { a } else { b }
}

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
        AtomicOp::FAdd => {
            // One IEEE addition rounded to nearest even in the format (fp16 and fp32 through
            // the exact f64 sum, rounded once: innocuous, 53 ≥ 2p + 2); NaN canonical.
            let fmt = float_fmt(bits);
            from_f64(fmt, to_f64(fmt, old) + to_f64(fmt, value))
        }
        AtomicOp::FMin => min_max_number(float_fmt(bits), old, value, false),
        AtomicOp::FMax => min_max_number(float_fmt(bits), old, value, true),
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
                Some(b) if bits == 16 => b
                    .atomic16(p.offset(), |o| apply(op, bits, o as u64, v, c) as u16)
                    .map(u64::from),
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
