//! What one instruction runs against ([`Ctx`]: the subgroup's registers, the active-lane
//! mask, memory, the event sink and the run configuration) and the lane loops the instruction
//! families share (`pure*`: branch-free over every lane, written under the mask; `map*`: over
//! the active lanes); what execution reports ([`Sink`]: undefined-behaviour events and printed
//! lines) and why it stops early ([`Stop`]).

use super::mask::{full_mask, lanes};
use crate::config::RunConfig;
use crate::memory::Memory;
use crate::program::Slot;
use crate::report::UbKind;

/// An undefined-behaviour event as the executor sees it: lane and instruction index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawEvent {
    pub kind: UbKind,
    pub lane: usize,
    /// Index of the instruction in the module's flat list.
    pub source: u32,
}

/// Why execution stopped early.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Strict mode: the first undefined-behaviour event.
    Undefined(RawEvent),
    /// The step limit was reached.
    StepLimit,
}

/// Where events go: kept (up to a maximum) and counted, or turned into [`Stop`] in strict mode.
#[derive(Debug, Default)]
pub struct Sink {
    pub strict: bool,
    pub max: usize,
    pub events: Vec<RawEvent>,
    pub count: u64,
    /// Lines printed by the running subgroup (DebugPrintf), drained by the workgroup.
    pub prints: Vec<RawPrint>,
}

impl Sink {
    /// Records an event for `lane` at instruction `source`.
    pub fn report(&mut self, kind: UbKind, lane: usize, source: u32) -> Result<(), Stop> {
        let e = RawEvent { kind, lane, source };
        if self.strict {
            return Err(Stop::Undefined(e));
        }
        self.count += 1;
        if self.events.len() < self.max {
            self.events.push(e);
        }
        Ok(())
    }
}

/// What one instruction runs against.
pub struct Ctx<'a, 'm> {
    /// The register file, `slot * width + lane`.
    pub regs: &'a mut [u64],
    /// Lanes per subgroup.
    pub width: usize,
    /// Active lanes (bit `l` for lane `l`).
    pub mask: u64,
    pub mem: &'a mut Memory<'m>,
    pub sink: &'a mut Sink,
    pub cfg: &'a RunConfig,
    /// The source index of the instruction being run (for events).
    pub source: u32,
}

/// A printed line as the executor sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawPrint {
    pub lane: usize,
    pub source: u32,
    pub text: String,
}

/// Whether a partial `mask` has enough active lanes that computing every lane and blending
/// is cheaper than visiting the active lanes one by one.
#[inline(always)]
fn dense(mask: u64, width: usize) -> bool {
    mask.count_ones() as usize * 4 >= width * 3
}

/// All-ones when lane `l` is set in `mask`, else zero (for branch-free blends).
#[inline(always)]
fn lane_keep(mask: u64, l: usize) -> u64 {
    if mask & (1u64 << l) != 0 { u64::MAX } else { 0 }
}

/// The registers of slot `dst` (mutable) and of the slots `srcs`, each `width` lanes long, or
/// `None` when `dst` is one of the sources (the caller then works lane by lane).
#[inline(always)]
fn split_dst<const N: usize>(
    regs: &mut [u64],
    width: usize,
    dst: Slot,
    srcs: [Slot; N],
) -> Option<(&mut [u64], [&[u64]; N])> {
    if srcs.contains(&dst) {
        return None;
    }
    let d = dst as usize;
    let (below, rest) = regs.split_at_mut(d * width);
    let (out, above) = rest.split_at_mut(width);
    let (below, above): (&[u64], &[u64]) = (below, above);
    let mut src: [&[u64]; N] = [&[]; N];
    for (slice, s) in src.iter_mut().zip(srcs) {
        let s = s as usize;
        *slice = if s < d {
            below.get(s * width..(s + 1) * width)?
        } else {
            above.get((s - d - 1) * width..(s - d) * width)?
        };
    }
    Some((out, src))
}

impl Ctx<'_, '_> {
    /// `dst = f(a)` on the active lanes, for a cheap pure `f`: computed on every lane and
    /// written under the mask, branch-free, so that the lane loop vectorises.
    #[inline(always)]
    pub fn pure1(&mut self, dst: Slot, a: Slot, f: impl Fn(u64) -> u64) {
        let (w, mask) = (self.width, self.mask);
        let Some((d, [x])) = split_dst(self.regs, w, dst, [a]) else {
            return self.map1(dst, a, f);
        };
        if mask == full_mask(w) {
            for (d, x) in d.iter_mut().zip(x) {
                *d = f(*x);
            }
        } else if dense(mask, w) {
            for (l, (d, x)) in d.iter_mut().zip(x).enumerate() {
                let keep = lane_keep(mask, l);
                *d = (f(*x) & keep) | (*d & !keep);
            }
        } else {
            for l in lanes(mask) {
                d[l] = f(x[l]);
            }
        }
    }

    /// `dst = f(a, b)` on the active lanes, for a cheap pure `f` (see [`Ctx::pure1`]).
    #[inline(always)]
    pub fn pure2(&mut self, dst: Slot, a: Slot, b: Slot, f: impl Fn(u64, u64) -> u64) {
        let (w, mask) = (self.width, self.mask);
        let Some((d, [x, y])) = split_dst(self.regs, w, dst, [a, b]) else {
            return self.map2(dst, a, b, f);
        };
        if mask == full_mask(w) {
            for ((d, x), y) in d.iter_mut().zip(x).zip(y) {
                *d = f(*x, *y);
            }
        } else if dense(mask, w) {
            for (l, ((d, x), y)) in d.iter_mut().zip(x).zip(y).enumerate() {
                let keep = lane_keep(mask, l);
                *d = (f(*x, *y) & keep) | (*d & !keep);
            }
        } else {
            for l in lanes(mask) {
                d[l] = f(x[l], y[l]);
            }
        }
    }

    /// `dst = f(a, b, c)` on the active lanes, for a cheap pure `f` (see [`Ctx::pure1`]).
    #[inline(always)]
    pub fn pure3(
        &mut self,
        dst: Slot,
        a: Slot,
        b: Slot,
        c: Slot,
        f: impl Fn(u64, u64, u64) -> u64,
    ) {
        let (w, mask) = (self.width, self.mask);
        let Some((d, [x, y, z])) = split_dst(self.regs, w, dst, [a, b, c]) else {
            return self.map3(dst, a, b, c, f);
        };
        if mask == full_mask(w) {
            for (((d, x), y), z) in d.iter_mut().zip(x).zip(y).zip(z) {
                *d = f(*x, *y, *z);
            }
        } else if dense(mask, w) {
            for (l, (((d, x), y), z)) in d.iter_mut().zip(x).zip(y).zip(z).enumerate() {
                let keep = lane_keep(mask, l);
                *d = (f(*x, *y, *z) & keep) | (*d & !keep);
            }
        } else {
            for l in lanes(mask) {
                d[l] = f(x[l], y[l], z[l]);
            }
        }
    }

    #[inline]
    pub fn get(&self, slot: Slot, lane: usize) -> u64 {
        self.regs[slot as usize * self.width + lane]
    }

    #[inline]
    pub fn set(&mut self, slot: Slot, lane: usize, v: u64) {
        self.regs[slot as usize * self.width + lane] = v;
    }

    /// `dst = f(a)` on the active lanes.
    #[inline]
    pub fn map1(&mut self, dst: Slot, a: Slot, f: impl Fn(u64) -> u64) {
        let w = self.width;
        let (d, a) = (dst as usize * w, a as usize * w);
        if self.mask == full_mask(w) {
            for l in 0..w {
                self.regs[d + l] = f(self.regs[a + l]);
            }
        } else {
            for l in lanes(self.mask) {
                self.regs[d + l] = f(self.regs[a + l]);
            }
        }
    }

    /// `dst = f(a, b)` on the active lanes.
    #[inline]
    pub fn map2(&mut self, dst: Slot, a: Slot, b: Slot, f: impl Fn(u64, u64) -> u64) {
        let w = self.width;
        let (d, a, b) = (dst as usize * w, a as usize * w, b as usize * w);
        if self.mask == full_mask(w) {
            for l in 0..w {
                self.regs[d + l] = f(self.regs[a + l], self.regs[b + l]);
            }
        } else {
            for l in lanes(self.mask) {
                self.regs[d + l] = f(self.regs[a + l], self.regs[b + l]);
            }
        }
    }

    /// `dst = f(a, b, c)` on the active lanes.
    #[inline]
    pub fn map3(&mut self, dst: Slot, a: Slot, b: Slot, c: Slot, f: impl Fn(u64, u64, u64) -> u64) {
        let w = self.width;
        let (d, a, b, c) = (
            dst as usize * w,
            a as usize * w,
            b as usize * w,
            c as usize * w,
        );
        for l in lanes(self.mask) {
            self.regs[d + l] = f(self.regs[a + l], self.regs[b + l], self.regs[c + l]);
        }
    }

    /// Reports an event for `lane` at the current instruction.
    pub fn report(&mut self, kind: UbKind, lane: usize) -> Result<(), Stop> {
        self.sink.report(kind, lane, self.source)
    }
}
