//! Subgroup (group non-uniform) operations. The lanes that take part are the active lanes: with
//! the min-PC scheduler (see `control`) these are the lanes that reached the instruction
//! together, which after structured control flow reconverges is every lane that reached it.
//!
//! Reductions and scans combine in increasing lane order, one rounding per step for floats
//! (SPIR-V leaves the order of float reductions unspecified). Reading an inactive or
//! nonexistent lane (Broadcast, Shuffle*) gives 0 (undefined in SPIR-V).

use crate::bits::{low_bits, sext};
use crate::exec::ctx::Ctx;
use crate::exec::float_bits::{canonical_nan, from_f64, to_f64};
use crate::exec::mask::lanes;
use crate::program::{FloatFmt, GroupMode, GroupOp, PartitionMode, ReduceOp, Scalar, Slot};

/// OpGroupNonUniformAllEqual's comparison: by the value's type, and for floats an ordered
/// equal compare (SPIR-V §3.49.24: NaN equals nothing, −0 equals +0).
fn equal(s: Scalar, x: u64, y: u64) -> bool {
    match s {
        Scalar::Float(f) => {
            let (x, y) = (to_f64(f, x), to_f64(f, y));
            x == y
        }
        _ => x == y,
    }
}

/// The lane OpGroupNonUniformRotateKHR reads for lane `l`, rotating by `delta` within clusters
/// of `cluster` lanes (0: the whole subgroup of `width` lanes). SPIR-V's formula
/// `((l + delta) & (size − 1)) + (l & !(size − 1))` for power-of-two sizes, which is
/// `(l + delta) mod size` within the cluster; spvx uses the modulo form for every size.
fn rotate_source(l: usize, delta: u64, cluster: u32, width: usize) -> u64 {
    let size = match cluster {
        0 => width as u64,
        c => (c as u64).min(width as u64),
    }
    .max(1);
    let l = l as u64;
    let start = l - l % size;
    start + (l % size + delta % size) % size
}

/// The 128-bit ballot in the four 32-bit components `a..a + 4` of lane `l`.
fn ballot_bits(cx: &Ctx, a: Slot, l: usize) -> u128 {
    (0..4).fold(0u128, |m, k| {
        m | ((cx.get(a + k, l) & 0xffff_ffff) as u128) << (32 * k)
    })
}

/// The ballot bit queries and the inverse ballot, each lane on its own Value. Only the bits
/// of lanes below the subgroup size count for BitCount, FindLSB and FindMSB (SPIR-V: "considering
/// only the bits in Value required to represent all bits of the group's invocations").
fn ballot_query(cx: &mut Ctx, op: GroupOp, s: Scalar, dst: Slot, a: Slot, b: Slot) {
    let w = cx.width;
    let group = if w >= 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    };
    let result_mask = low_bits(s.bits());
    let values: Vec<(usize, u64)> = lanes(cx.mask)
        .map(|l| {
            let v = ballot_bits(cx, a, l);
            let considered = v & group;
            let r = match op {
                GroupOp::BallotBitCount(mode) => {
                    let upto = match mode {
                        GroupMode::InclusiveScan => (1u128 << (l + 1)) - 1,
                        GroupMode::ExclusiveScan => (1u128 << l) - 1,
                        _ => u128::MAX,
                    };
                    (considered & upto).count_ones() as u64
                }
                GroupOp::BallotBitExtract => {
                    // An Index of 128 or more names no bit: false (spvx's choice).
                    let i = cx.get(b, l);
                    (i < 128 && v >> i & 1 == 1) as u64
                }
                // No bit set: undefined in SPIR-V; spvx gives all ones (GLSL findLSB's −1).
                GroupOp::BallotFindLsb if considered == 0 => result_mask,
                GroupOp::BallotFindMsb if considered == 0 => result_mask,
                GroupOp::BallotFindLsb => considered.trailing_zeros() as u64,
                GroupOp::BallotFindMsb => 127 - considered.leading_zeros() as u64,
                // The lane's own bit (lanes are below 64 < 128).
                _ => (v >> l & 1) as u64,
            };
            (l, r & result_mask)
        })
        .collect();
    for (l, r) in values {
        cx.set(dst, l, r);
    }
}

/// Sets `dst` of every lane of `mask` to `f(cx, lane)`, all computed before any is written
/// (`dst` may be one of the operands). No allocation: at most 64 lanes.
fn write_lanes(cx: &mut Ctx, dst: Slot, mask: u64, f: impl Fn(&Ctx, usize) -> u64) {
    let mut out = [0u64; 64];
    for l in lanes(mask) {
        out[l] = f(cx, l);
    }
    for l in lanes(mask) {
        cx.set(dst, l, out[l]);
    }
}

/// The identity of a combining operation (the first value of an exclusive scan).
fn identity(op: ReduceOp, s: Scalar) -> u64 {
    let bits = s.bits();
    let float = |v: f64| match s {
        Scalar::Float(f) => from_f64(f, v),
        _ => 0,
    };
    match op {
        ReduceOp::IAdd | ReduceOp::Or | ReduceOp::Xor | ReduceOp::UMax => 0,
        ReduceOp::FAdd => float(0.0),
        ReduceOp::IMul => 1,
        ReduceOp::FMul => float(1.0),
        ReduceOp::SMin => low_bits(bits) >> 1,
        ReduceOp::UMin | ReduceOp::And => low_bits(bits),
        ReduceOp::SMax => 1u64 << (bits - 1),
        ReduceOp::FMin => float(f64::INFINITY),
        ReduceOp::FMax => float(f64::NEG_INFINITY),
    }
}

fn fop(fmt: FloatFmt, x: u64, y: u64, f: impl Fn(f64, f64) -> f64) -> u64 {
    match fmt {
        FloatFmt::F32 => {
            let r = f(
                f32::from_bits(x as u32) as f64,
                f32::from_bits(y as u32) as f64,
            ) as f32;
            if r.is_nan() {
                canonical_nan(fmt)
            } else {
                r.to_bits() as u64
            }
        }
        _ => from_f64(fmt, f(to_f64(fmt, x), to_f64(fmt, y))),
    }
}

/// `x ∘ y`.
#[inline(always)]
fn combine(op: ReduceOp, s: Scalar, x: u64, y: u64) -> u64 {
    let bits = s.bits();
    let m = low_bits(bits);
    let fmt = match s {
        Scalar::Float(f) => f,
        _ => FloatFmt::F32,
    };
    match op {
        ReduceOp::IAdd => x.wrapping_add(y) & m,
        ReduceOp::IMul => x.wrapping_mul(y) & m,
        ReduceOp::SMin => (sext(x, bits).min(sext(y, bits)) as u64) & m,
        ReduceOp::SMax => (sext(x, bits).max(sext(y, bits)) as u64) & m,
        ReduceOp::UMin => x.min(y),
        ReduceOp::UMax => x.max(y),
        ReduceOp::And => x & y,
        ReduceOp::Or => x | y,
        ReduceOp::Xor => x ^ y,
        // f32 sums and products: exact in f64 before the one rounding to f32 (innocuous).
        ReduceOp::FAdd => fop(fmt, x, y, |a, b| a + b),
        ReduceOp::FMul => fop(fmt, x, y, |a, b| a * b),
        ReduceOp::FMin => fop(fmt, x, y, f64::min),
        ReduceOp::FMax => fop(fmt, x, y, f64::max),
    }
}

/// Runs a subgroup operation.
pub fn group(cx: &mut Ctx, op: GroupOp, s: Scalar, dst: Slot, a: Slot, b: Slot) {
    let active = cx.mask;
    let first = active.trailing_zeros() as usize;
    let w = cx.width;
    let read = |cx: &Ctx, lane: u64| -> u64 {
        if lane < w as u64 && active >> lane & 1 == 1 {
            cx.get(a, lane as usize)
        } else {
            0
        }
    };
    match op {
        GroupOp::Elect => {
            for l in lanes(active) {
                cx.set(dst, l, (l == first) as u64);
            }
        }
        GroupOp::All | GroupOp::Any | GroupOp::AllEqual => {
            let v0 = cx.get(a, first);
            let (mut all, mut any, mut eq) = (true, false, true);
            for l in lanes(active) {
                let v = cx.get(a, l);
                all &= v != 0;
                any |= v != 0;
                eq &= equal(s, v, v0);
            }
            let r = match op {
                GroupOp::All => all,
                GroupOp::Any => any,
                _ => eq,
            } as u64;
            for l in lanes(active) {
                cx.set(dst, l, r);
            }
        }
        GroupOp::AllEqualVector(n) => {
            let eq = (0..n as Slot).all(|k| {
                let v0 = cx.get(a + k, first);
                lanes(active).all(|l| equal(s, cx.get(a + k, l), v0))
            });
            for l in lanes(active) {
                cx.set(dst, l, eq as u64);
            }
        }
        GroupOp::BallotBitCount(_)
        | GroupOp::BallotBitExtract
        | GroupOp::BallotFindLsb
        | GroupOp::BallotFindMsb
        | GroupOp::InverseBallot => ballot_query(cx, op, s, dst, a, b),
        GroupOp::QuadBroadcast | GroupOp::QuadSwap | GroupOp::Rotate(_) => {
            write_lanes(cx, dst, active, |cx, l| {
                let x = cx.get(b, l);
                let src = match op {
                    // Quad index `x` of the lane's quad; 4 or more names no lane.
                    GroupOp::QuadBroadcast if x < 4 => (l as u64 & !3) | x,
                    GroupOp::QuadSwap if x < 3 => l as u64 ^ (x + 1),
                    GroupOp::Rotate(c) => rotate_source(l, x, c, w),
                    _ => u64::MAX,
                };
                read(cx, src)
            });
        }
        GroupOp::QuadAll | GroupOp::QuadAny => {
            write_lanes(cx, dst, active, |cx, l| {
                let quad = active & (0xf << (l & !3));
                let mut preds = lanes(quad).map(|q| cx.get(a, q) != 0);
                let r = if op == GroupOp::QuadAll {
                    preds.all(|p| p)
                } else {
                    preds.any(|p| p)
                };
                r as u64
            });
        }
        GroupOp::BroadcastFirst => {
            let v = cx.get(a, first);
            for l in lanes(active) {
                cx.set(dst, l, v);
            }
        }
        GroupOp::Broadcast
        | GroupOp::Shuffle
        | GroupOp::ShuffleXor
        | GroupOp::ShuffleUp
        | GroupOp::ShuffleDown => {
            write_lanes(cx, dst, active, |cx, l| {
                let id = cx.get(b, l);
                let src = match op {
                    GroupOp::ShuffleXor => (l as u64) ^ id,
                    GroupOp::ShuffleUp => (l as u64).wrapping_sub(id),
                    GroupOp::ShuffleDown => (l as u64).wrapping_add(id),
                    _ => id,
                };
                read(cx, src)
            });
        }
        GroupOp::Partition => {
            // Each lane: the active lanes whose value has the same bits as its own.
            let values: Vec<(usize, u64)> = lanes(active)
                .map(|l| {
                    let v = cx.get(a, l);
                    let same = lanes(active)
                        .filter(|&k| cx.get(a, k) == v)
                        .fold(0u64, |m, k| m | 1 << k);
                    (l, same)
                })
                .collect();
            for (l, m) in values {
                cx.set(dst, l, m & 0xffff_ffff);
                cx.set(dst + 1, l, m >> 32);
                cx.set(dst + 2, l, 0);
                cx.set(dst + 3, l, 0);
            }
        }
        GroupOp::Arith(rop, GroupMode::Partitioned(pm)) => {
            let id = identity(rop, s);
            write_lanes(cx, dst, active, |cx, l| {
                // The lane's own partition ballot, its active lanes below the width.
                let part = (ballot_bits(cx, b, l) as u64) & active;
                let upto = match pm {
                    PartitionMode::Reduce => u64::MAX,
                    PartitionMode::InclusiveScan => low_bits(l as u32 + 1),
                    PartitionMode::ExclusiveScan => low_bits(l as u32),
                };
                lanes(part & upto)
                    .map(|k| cx.get(a, k))
                    .reduce(|x, v| combine(rop, s, x, v))
                    .unwrap_or(id)
            });
        }
        GroupOp::Arith(rop, mode) => {
            // Every value read before any result is written (`dst` may be `a`).
            let mut values = [0u64; 64];
            for l in lanes(active) {
                values[l] = cx.get(a, l);
            }
            reduce_or_scan(rop, mode, s, active, w, &mut values);
            for l in lanes(active) {
                cx.set(dst, l, values[l]);
            }
        }
    }
}

/// A group arithmetic operation other than the partitioned ones: replaces the value of every
/// lane of `active` in `values` (indexed by lane, `width` lanes) by the lane's result —
/// combining in lane order from the lowest active lane, the identity where no lane precedes.
/// Shared by the interpreter and the JIT's subgroup rendezvous (`jit::group`).
pub(crate) fn reduce_or_scan(
    rop: ReduceOp,
    mode: GroupMode,
    s: Scalar,
    active: u64,
    width: usize,
    values: &mut [u64; 64],
) {
    let id = identity(rop, s);
    match mode {
        GroupMode::Reduce | GroupMode::Clustered(_) => {
            let size = match mode {
                GroupMode::Clustered(n) => (n as usize).clamp(1, width),
                _ => width,
            };
            for start in (0..width).step_by(size) {
                let cluster = active & (low_bits(size as u32) << start);
                let mut acc = None;
                for l in lanes(cluster) {
                    let v = values[l];
                    acc = Some(acc.map_or(v, |x| combine(rop, s, x, v)));
                }
                let r = acc.unwrap_or(id);
                for l in lanes(cluster) {
                    values[l] = r;
                }
            }
        }
        GroupMode::InclusiveScan | GroupMode::ExclusiveScan | GroupMode::Partitioned(_) => {
            let mut acc: Option<u64> = None;
            for l in lanes(active) {
                let v = values[l];
                let before = acc.unwrap_or(id);
                let after = acc.map_or(v, |x| combine(rop, s, x, v));
                values[l] = if mode == GroupMode::InclusiveScan {
                    after
                } else {
                    before
                };
                acc = Some(after);
            }
        }
    }
}

/// OpGroupNonUniformBallot.
pub fn ballot(cx: &mut Ctx, dst: Slot, pred: Slot) {
    let mut bits = 0u64;
    for l in lanes(cx.mask) {
        if cx.get(pred, l) != 0 {
            bits |= 1 << l;
        }
    }
    for l in lanes(cx.mask) {
        cx.set(dst, l, bits & 0xffff_ffff);
        cx.set(dst + 1, l, bits >> 32);
        cx.set(dst + 2, l, 0);
        cx.set(dst + 3, l, 0);
    }
}
