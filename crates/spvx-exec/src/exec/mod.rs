//! SIMT execution of one subgroup: registers are stored lane-contiguous (slot-major:
//! `regs[slot * width + lane]`), an active-lane mask says which lanes an instruction applies
//! to, and one instruction is applied to all active lanes at once. The families of
//! instructions live in their own files; [`control`] holds the scheduler (divergence and
//! reconvergence, calls, barriers).

pub mod arith;
pub mod atomic;
pub mod bitwise;
pub mod compare;
pub mod composite;
pub mod control;
pub mod convert;
pub mod fixed;
pub mod float;
pub mod glsl_ext;
pub mod glsl_matrix;
pub mod glsl_pack;
pub mod intdot;
pub mod kernel;
pub mod math;
pub mod matrix_mma;
pub mod memory;
pub mod mixdot;
pub mod opencl;
mod pending;
pub mod printf;
mod printf_format;
pub mod subgroup;
pub mod tensor;
pub mod wide;

use crate::config::RunConfig;
use crate::memory::Memory;
use crate::program::{Inst, Slot};
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
    pub prints: Vec<printf::RawPrint>,
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

/// The lanes set in `mask`, in increasing order.
#[inline]
pub fn lanes(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let l = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            Some(l)
        }
    })
}

/// The mask of all `width` lanes.
#[inline]
pub fn full_mask(width: usize) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// The low `bits` bits set.
#[inline]
pub fn low_bits(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// The `bits`-bit pattern `v` sign-extended to i64.
#[inline]
pub fn sext(v: u64, bits: u32) -> i64 {
    if bits >= 64 {
        v as i64
    } else {
        let s = 64 - bits;
        ((v << s) as i64) >> s
    }
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

/// Runs one straight-line instruction on the active lanes.
pub fn execute(inst: &Inst, cx: &mut Ctx) -> Result<(), Stop> {
    match inst {
        Inst::Copy { dst, src } => cx.pure1(*dst, *src, |x| x),
        Inst::Const { dst, value } => {
            // Only undefined shuffle components and a few OpenCL.std results: a masked fill.
            let (w, mask) = (cx.width, cx.mask);
            let d = &mut cx.regs[*dst as usize * w..(*dst as usize + 1) * w];
            if mask == full_mask(w) {
                d.fill(*value);
            } else {
                for l in lanes(mask) {
                    d[l] = *value;
                }
            }
        }
        Inst::IBin {
            op,
            bits,
            dst,
            a,
            b,
        } => return arith::ibin(cx, *op, *bits as u32, *dst, *a, *b),
        Inst::IUn { op, bits, dst, a } => bitwise::iun(cx, *op, *bits as u32, *dst, *a),
        Inst::IWide {
            op,
            bits,
            lo,
            hi,
            a,
            b,
        } => arith::iwide(cx, *op, *bits as u32, *lo, *hi, *a, *b),
        Inst::ICmp {
            op,
            bits,
            dst,
            a,
            b,
        } => compare::icmp(cx, *op, *bits as u32, *dst, *a, *b),
        Inst::FBin { op, fmt, dst, a, b } => float::fbin(cx, *op, *fmt, *dst, *a, *b),
        Inst::FNeg { fmt, dst, a } => float::fneg(cx, *fmt, *dst, *a),
        Inst::FCmp {
            op,
            ordered,
            fmt,
            dst,
            a,
            b,
        } => compare::fcmp(cx, *op, *ordered, *fmt, *dst, *a, *b),
        Inst::FClass { op, fmt, dst, a } => compare::fclass(cx, *op, *fmt, *dst, *a),
        Inst::Logic { op, dst, a, b } => compare::logic(cx, *op, *dst, *a, *b),
        Inst::LNot { dst, a } => cx.pure1(*dst, *a, |x| (x == 0) as u64),
        Inst::Select { dst, cond, a, b } => {
            cx.pure3(*dst, *cond, *a, *b, |c, x, y| if c != 0 { x } else { y })
        }
        Inst::Convert { op, dst, a } => convert::convert(cx, *op, *dst, *a),
        Inst::BitFieldInsert {
            bits,
            dst,
            base,
            insert,
            offset,
            count,
        } => bitwise::field_insert(cx, *bits as u32, *dst, *base, *insert, *offset, *count),
        Inst::BitFieldExtract {
            bits,
            signed,
            dst,
            base,
            offset,
            count,
        } => bitwise::field_extract(cx, *bits as u32, *signed, *dst, *base, *offset, *count),
        Inst::Bitcast {
            dst,
            dst_bits,
            dst_count,
            src,
            src_bits,
            src_count,
        } => convert::bitcast(cx, *dst, *dst_bits, *dst_count, *src, *src_bits, *src_count),
        Inst::ExtractDyn {
            dst,
            base,
            count,
            index,
            index_bits,
        } => composite::extract_dyn(cx, *dst, *base, *count, *index, *index_bits),
        Inst::InsertDyn {
            dst,
            src,
            count,
            value,
            index,
            index_bits,
        } => composite::insert_dyn(cx, *dst, *src, *count, *value, *index, *index_bits),
        Inst::IntDot {
            spec,
            dst,
            a,
            b,
            count,
            acc,
        } => return intdot::int_dot(cx, spec, *dst, *a, *b, *count, *acc),
        Inst::MixDot {
            op,
            half,
            fp8,
            dst,
            a,
            b,
            acc,
        } => mixdot::mix_dot(cx, *op, *half, *fp8, *dst, *a, *b, *acc),
        Inst::VarInit {
            dst,
            ptr,
            size,
            init,
        } => return memory::var_init(cx, *dst, *ptr, *size, init.as_ref()),
        Inst::AccessChain {
            dst,
            base,
            offset,
            steps,
        } => return memory::access_chain(cx, *dst, *base, *offset, steps),
        Inst::SelectBuffer {
            dst,
            base,
            index,
            index_bits,
            count,
        } => return memory::select_buffer(cx, *dst, *base, *index, *index_bits, *count),
        Inst::Load { dst, ptr, leaves } => return memory::load(cx, *dst, *ptr, leaves),
        Inst::Store { ptr, src, leaves } => return memory::store(cx, *ptr, *src, leaves),
        Inst::CopyMemory { dst, src, size } => return memory::copy_memory(cx, *dst, *src, *size),
        Inst::ArrayLength {
            dst,
            ptr,
            offset,
            stride,
        } => memory::array_length(cx, *dst, *ptr, *offset, *stride),
        Inst::Atomic {
            op,
            bits,
            dst,
            ptr,
            value,
            comparator,
        } => return atomic::atomic(cx, *op, *bits as u32, *dst, *ptr, *value, *comparator),
        Inst::TensorRead {
            dst,
            tensor,
            coords,
            rank,
            coord_bits,
            count,
            element,
            oob,
        } => tensor::read(
            cx,
            *dst,
            *tensor,
            *coords,
            *rank,
            *coord_bits,
            *count,
            *element,
            *oob,
        ),
        Inst::TensorWrite {
            tensor,
            coords,
            rank,
            coord_bits,
            count,
            element,
            src,
        } => tensor::write(
            cx,
            *tensor,
            *coords,
            *rank,
            *coord_bits,
            *count,
            *element,
            *src,
        ),
        Inst::TensorSize {
            dst,
            tensor,
            dim,
            bits,
        } => tensor::size(cx, *dst, *tensor, *dim, *bits),
        Inst::Group {
            op,
            scalar,
            dst,
            a,
            b,
        } => subgroup::group(cx, *op, *scalar, *dst, *a, *b),
        Inst::Ballot { dst, pred } => subgroup::ballot(cx, *dst, *pred),
        Inst::SubgroupMma { spec, dst, a, b, c } => {
            matrix_mma::subgroup_mma(cx, spec, *dst, *a, *b, *c)
        }
        Inst::Fixed {
            op,
            result,
            dst,
            src,
        } => return fixed::fixed(cx, op, *result, *dst, *src),
        Inst::Math {
            func,
            fmt,
            dst,
            args,
        } => math::math(cx, *func, *fmt, *dst, *args),
        Inst::IMath {
            func,
            bits,
            dst,
            args,
        } => math::imath(cx, *func, *bits as u32, *dst, *args),
        Inst::Print(spec) => printf::print(cx, spec),
        Inst::Wide(w) => return wide::execute(cx, w),
        Inst::Glsl {
            op,
            fmt,
            bits,
            n,
            dst,
            args,
        } => glsl_ext::glsl(cx, *op, *fmt, *bits as u32, *n as u32, *dst, *args),
        Inst::Ptr { op, dst, a, b } => kernel::ptr_op(cx, *op, *dst, *a, *b),
        Inst::CopyMemorySized {
            dst,
            src,
            size,
            size_bits,
        } => return kernel::copy_sized(cx, *dst, *src, *size, *size_bits),
        Inst::Ocl { op, ty, dst, args } => opencl::ocl(cx, *op, *ty, *dst, *args),
    }
    Ok(())
}
