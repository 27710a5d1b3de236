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

use super::{Ctx, Sink, Stop, execute, lanes};
use crate::config::RunConfig;
use crate::memory::Memory;
use crate::program::{Edge, Program, Slot, Term};
use crate::report::UbKind;

/// "No segment": the lane has returned from this frame (or is not in it).
pub const DONE: u32 = u32::MAX;

/// A call frame: which function, and where each of its lanes goes next.
#[derive(Clone, Debug)]
pub struct Frame {
    pub func: u32,
    pub next: Vec<u32>,
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
    pub frames: Vec<Frame>,
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
            alive: 0,
            scratch: Vec::new(),
        }
    }

    /// Resets the registers and starts the entry point on the lanes of `active`.
    pub fn start(&mut self, prog: &Program, template: &[u64], active: u64) {
        self.regs.copy_from_slice(template);
        self.alive = active;
        let entry = &prog.functions[prog.entry as usize];
        let next = (0..self.width)
            .map(|l| {
                if active >> l & 1 == 1 {
                    entry.entry
                } else {
                    DONE
                }
            })
            .collect();
        self.frames.clear();
        self.frames.push(Frame {
            func: prog.entry,
            next,
        });
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
            let Some(frame) = self.frames.last() else {
                return Ok(Yield::Finished);
            };
            // One pass: the smallest next segment and the lanes waiting there.
            let mut best = DONE;
            let mut mask = 0u64;
            for l in lanes(self.alive) {
                let n = frame.next[l];
                if n < best {
                    best = n;
                    mask = 1 << l;
                } else if n == best {
                    mask |= 1 << l;
                }
            }
            if best == DONE {
                self.frames.pop();
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
                for i in seg.start..seg.end {
                    cx.source = func.source[i as usize];
                    execute(&func.code[i as usize], &mut cx)?;
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
                    let (t, f) = self.split(mask, *cond);
                    self.take_edge(frame_index, t, on_true);
                    self.take_edge(frame_index, f, on_false);
                }
                Term::Switch {
                    selector,
                    cases,
                    default,
                    ..
                } => {
                    let mut rest = mask;
                    for (value, edge) in cases.iter() {
                        let mut m = 0u64;
                        for l in lanes(rest) {
                            if self.regs[*selector as usize * w + l] == *value {
                                m |= 1 << l;
                            }
                        }
                        rest &= !m;
                        self.take_edge(frame_index, m, edge);
                    }
                    self.take_edge(frame_index, rest, default);
                }
                Term::Return => self.finish(frame_index, mask),
                Term::ReturnValue { src, count } => {
                    let (ret, _) = func.ret;
                    for l in lanes(mask) {
                        for i in 0..*count as usize {
                            self.regs[(ret as usize + i) * w + l] =
                                self.regs[(*src as usize + i) * w + l];
                        }
                    }
                    self.finish(frame_index, mask);
                }
                Term::Call {
                    func: callee,
                    args,
                    next,
                } => {
                    for l in lanes(mask) {
                        self.scratch.clear();
                        for (_, s) in args.iter() {
                            self.scratch.push(self.regs[*s as usize * w + l]);
                        }
                        for ((d, _), v) in args.iter().zip(&self.scratch) {
                            self.regs[*d as usize * w + l] = *v;
                        }
                        self.frames[frame_index].next[l] = *next;
                    }
                    let entry = prog.functions[*callee as usize].entry;
                    let next = (0..w)
                        .map(|l| if mask >> l & 1 == 1 { entry } else { DONE })
                        .collect();
                    self.frames.push(Frame {
                        func: *callee,
                        next,
                    });
                }
                Term::Barrier { next } => {
                    // Lanes still running the entry point (a lane inside a call has its
                    // continuation in the entry frame).
                    let running = lanes(self.alive)
                        .filter(|&l| self.frames[0].next[l] != DONE)
                        .fold(0u64, |m, l| m | 1 << l);
                    for l in lanes(mask) {
                        self.frames[frame_index].next[l] = *next;
                    }
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

    /// The lanes of `mask` whose `cond` is true, and the others.
    fn split(&self, mask: u64, cond: Slot) -> (u64, u64) {
        let w = self.width;
        let mut t = 0u64;
        for l in lanes(mask) {
            if self.regs[cond as usize * w + l] != 0 {
                t |= 1 << l;
            }
        }
        (t, mask & !t)
    }

    /// Sends the lanes of `mask` along `edge`, making its phi copies (as a parallel copy when
    /// some copy reads a register another one writes).
    fn take_edge(&mut self, frame: usize, mask: u64, edge: &Edge) {
        if mask == 0 {
            return;
        }
        let w = self.width;
        if edge.parallel {
            for l in lanes(mask) {
                self.scratch.clear();
                for (_, s) in edge.copies.iter() {
                    self.scratch.push(self.regs[*s as usize * w + l]);
                }
                for ((d, _), v) in edge.copies.iter().zip(&self.scratch) {
                    self.regs[*d as usize * w + l] = *v;
                }
            }
        } else if mask == super::full_mask(w) {
            for (d, s) in edge.copies.iter() {
                let (d, s) = (*d as usize * w, *s as usize * w);
                self.regs.copy_within(s..s + w, d);
            }
        } else {
            for (d, s) in edge.copies.iter() {
                let (d, s) = (*d as usize * w, *s as usize * w);
                for l in lanes(mask) {
                    self.regs[d + l] = self.regs[s + l];
                }
            }
        }
        let next = &mut self.frames[frame].next;
        for l in lanes(mask) {
            next[l] = edge.target;
        }
    }

    fn finish(&mut self, frame: usize, mask: u64) {
        for l in lanes(mask) {
            self.frames[frame].next[l] = DONE;
        }
    }
}
