//! The SIMT scheduler of one subgroup: divergence, reconvergence, calls and barriers.
//!
//! Each lane has its own next segment (per call frame). The scheduler always runs the segment
//! with the **smallest index** that some live lane waits at, with exactly the lanes waiting
//! there as the active mask (the "min-PC" rule). Segment indices follow the compiler's block
//! order, a reverse post-order in which a structured construct's merge block (and a loop's
//! continue target) comes after every block of the construct; so lanes that leave a construct
//! early wait at its merge block until the others arrive, and run on together from there.
//! For unstructured control flow the same rule reconverges lanes at the earliest block (in
//! reverse post-order) they share. Every lane follows exactly its own path whatever the
//! order, so results never depend on the schedule; reconvergence matters for barriers and
//! subgroup operations.
//!
//! A call pushes a frame for the calling lanes; the callee's lanes run to completion before the
//! caller's other lanes continue. A workgroup barrier suspends the subgroup ([`Yield::Barrier`])
//! until the workgroup releases it.

//! Implementation: each frame keeps the distinct segments its lanes wait at with their lane
//! masks ([`Pending`]), so finding the smallest is a `pop` and sending lanes along an edge is
//! one mask merge, whatever the number of lanes. No allocation per branch or call: frames'
//! lists are reused.

use super::pending::Pending;
use crate::config::RunConfig;
use crate::exec::ctx::{Ctx, Sink, Stop};
use crate::exec::execute::execute;
use crate::exec::mask::{full_mask, lanes};
use crate::memory::Memory;
use crate::program::{Edge, Program, Slot, Term};
use crate::report::UbKind;

/// A call frame: which function, and which lanes wait at which of its segments.
#[derive(Clone, Debug)]
struct Frame {
    func: u32,
    pending: Pending,
}

/// Why [`Subgroup::run`] returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Yield {
    /// Every lane finished the entry point.
    Finished,
    /// The subgroup waits at a workgroup barrier (instruction index `source`).
    Barrier { source: u32 },
}

/// The state of one subgroup.
pub struct Subgroup {
    /// Registers, `slot * width + lane`.
    pub regs: Vec<u64>,
    pub width: usize,
    frames: Vec<Frame>,
    /// Waiting lists of popped frames, kept for reuse.
    spare: Vec<Pending>,
    /// Lanes not terminated (OpKill, OpUnreachable).
    pub alive: u64,
    scratch: Vec<u64>,
}

impl Subgroup {
    /// A subgroup of `width` lanes with registers from `template` (`slots * width` values).
    pub fn new(template: &[u64], width: usize) -> Subgroup {
        Subgroup {
            regs: template.to_vec(),
            width,
            frames: Vec::new(),
            spare: Vec::new(),
            alive: 0,
            scratch: Vec::new(),
        }
    }

    /// Starts the entry point on the lanes of `active`, first resetting the registers to
    /// `template` when one is given (the run passes none when the program never needs it).
    pub fn start(&mut self, prog: &Program, template: Option<&[u64]>, active: u64) {
        if let Some(template) = template {
            self.regs.copy_from_slice(template);
        }
        self.alive = active;
        while let Some(f) = self.frames.pop() {
            self.spare.push(f.pending);
        }
        let entry = &prog.functions[prog.entry as usize];
        self.push_frame(prog.entry, entry.entry, active);
    }

    /// Pushes a frame of `func` whose lanes `mask` start at segment `entry`.
    fn push_frame(&mut self, func: u32, entry: u32, mask: u64) {
        let mut pending = self.spare.pop().unwrap_or_default();
        pending.clear();
        pending.wait(entry, mask);
        self.frames.push(Frame { func, pending });
    }

    /// Runs until every lane finishes or the subgroup reaches a workgroup barrier. `steps`
    /// counts instructions (once per subgroup); reaching `step_limit` stops the run.
    pub fn run(
        &mut self,
        prog: &Program,
        mem: &mut Memory,
        sink: &mut Sink,
        cfg: &RunConfig,
        steps: &mut u64,
    ) -> Result<Yield, Stop> {
        let w = self.width;
        loop {
            let Some(frame) = self.frames.last_mut() else {
                return Ok(Yield::Finished);
            };
            // The min-PC rule: the smallest segment some live lane waits at.
            let Some((best, waiting)) = frame.pending.take_min() else {
                if let Some(f) = self.frames.pop() {
                    self.spare.push(f.pending);
                }
                continue;
            };
            let mask = waiting & self.alive;
            if mask == 0 {
                continue;
            }
            let func_index = frame.func as usize;
            let func = &prog.functions[func_index];
            let seg = &func.segments[best as usize];
            *steps += (seg.end - seg.start) as u64 + 1;
            if *steps > cfg.step_limit {
                return Err(Stop::StepLimit);
            }
            {
                let mut cx = Ctx {
                    regs: &mut self.regs,
                    width: w,
                    mask,
                    mem,
                    sink,
                    cfg,
                    source: 0,
                };
                let range = seg.start as usize..seg.end as usize;
                for (inst, source) in func.code[range.clone()].iter().zip(&func.source[range]) {
                    cx.source = *source;
                    execute(inst, &mut cx)?;
                }
            }
            let frame_index = self.frames.len() - 1;
            match &seg.term {
                Term::Branch(e) => self.take_edge(frame_index, mask, e),
                Term::BranchConditional {
                    cond,
                    on_true,
                    on_false,
                } => {
                    let t = self.nonzero_lanes(*cond, mask);
                    self.take_edge(frame_index, t, on_true);
                    self.take_edge(frame_index, mask & !t, on_false);
                }
                Term::Switch {
                    selector,
                    cases,
                    default,
                    ..
                } => {
                    let mut rest = mask;
                    for (value, edge) in cases.iter() {
                        if rest == 0 {
                            break;
                        }
                        let m = self.equal_lanes(*selector, *value) & rest;
                        rest &= !m;
                        self.take_edge(frame_index, m, edge);
                    }
                    self.take_edge(frame_index, rest, default);
                }
                Term::Return => {}
                Term::ReturnValue { src, count } => {
                    let (ret, _) = func.ret;
                    for i in 0..*count {
                        self.copy_slot(ret + i, *src + i, mask);
                    }
                }
                Term::Call {
                    func: callee,
                    args,
                    next,
                } => {
                    self.parallel_copy(args, mask);
                    self.frames[frame_index].pending.wait(*next, mask);
                    let entry = prog.functions[*callee as usize].entry;
                    self.push_frame(*callee, entry, mask);
                }
                Term::Barrier { next } => {
                    self.frames[frame_index].pending.wait(*next, mask);
                    // Lanes still running the entry point (a lane inside a call has its
                    // continuation in the entry frame).
                    let running = self.frames[0].pending.lanes() & self.alive;
                    if running != mask
                        && let Some(l) = lanes(mask).next()
                    {
                        sink.report(UbKind::NonUniformBarrier, l, seg.term_source)?;
                    }
                    return Ok(Yield::Barrier {
                        source: seg.term_source,
                    });
                }
                Term::Kill => {
                    self.alive &= !mask;
                }
                Term::Unreachable => {
                    for l in lanes(mask) {
                        sink.report(UbKind::Unreachable, l, seg.term_source)?;
                    }
                    self.alive &= !mask;
                }
            }
        }
    }

    /// The lanes of `mask` whose register `slot` is not zero: over all lanes at once when
    /// most are active, else lane by lane.
    #[inline]
    fn nonzero_lanes(&self, slot: Slot, mask: u64) -> u64 {
        let w = self.width;
        let s = slot as usize * w;
        let values = &self.regs[s..s + w];
        if mask.count_ones() as usize * 2 >= w {
            values
                .iter()
                .enumerate()
                .fold(0u64, |m, (l, v)| m | ((*v != 0) as u64) << l)
                & mask
        } else {
            lanes(mask).fold(0u64, |m, l| m | ((values[l] != 0) as u64) << l)
        }
    }

    /// The lanes (of all `width`) whose register `slot` equals `value`.
    #[inline]
    fn equal_lanes(&self, slot: Slot, value: u64) -> u64 {
        let w = self.width;
        let s = slot as usize * w;
        self.regs[s..s + w]
            .iter()
            .enumerate()
            .fold(0u64, |m, (l, v)| m | ((*v == value) as u64) << l)
    }

    /// `dst = src` on the lanes of `mask`.
    #[inline]
    fn copy_slot(&mut self, dst: Slot, src: Slot, mask: u64) {
        let w = self.width;
        let (d, s) = (dst as usize * w, src as usize * w);
        if mask == full_mask(w) {
            self.regs.copy_within(s..s + w, d);
        } else {
            for l in lanes(mask) {
                self.regs[d + l] = self.regs[s + l];
            }
        }
    }

    /// The copies `(dst, src)` on the lanes of `mask`, all sources read before any write.
    fn parallel_copy(&mut self, copies: &[(Slot, Slot)], mask: u64) {
        let w = self.width;
        self.scratch.clear();
        for (_, s) in copies {
            let s = *s as usize * w;
            self.scratch.extend_from_slice(&self.regs[s..s + w]);
        }
        let full = mask == full_mask(w);
        for ((d, _), values) in copies.iter().zip(self.scratch.chunks_exact(w)) {
            let d = *d as usize * w;
            if full {
                self.regs[d..d + w].copy_from_slice(values);
            } else {
                for l in lanes(mask) {
                    self.regs[d + l] = values[l];
                }
            }
        }
    }

    /// Sends the lanes of `mask` along `edge`, making its phi copies (as a parallel copy when
    /// some copy reads a register another one writes).
    #[inline]
    fn take_edge(&mut self, frame: usize, mask: u64, edge: &Edge) {
        if mask == 0 {
            return;
        }
        if edge.parallel {
            self.parallel_copy(&edge.copies, mask);
        } else {
            for (d, s) in edge.copies.iter() {
                self.copy_slot(*d, *s, mask);
            }
        }
        self.frames[frame].pending.wait(edge.target, mask);
    }
}
