//! Subgroup operations on the JIT: where the entry function may contain them, which registers
//! they read and write, and running one for a whole subgroup through the interpreter's own
//! implementation.
//!
//! An invocation that reaches a group non-uniform instruction (or a ballot) stops there: it
//! saves its live variables and returns `status::GROUP` with the instruction and the
//! iteration of every loop around it in its state (its dynamic instance, as for barriers).
//! When the round ends, the driver takes, per subgroup, the waiting instruction that comes
//! first in block order; every invocation waiting at it must wait at the same dynamic
//! instance, and none waiting at a later instruction may be in another iteration of a loop
//! around it (else the interpreter runs the dispatch: `driver::Worker::run_groups`). It then
//! runs the instruction once for the subgroup with exactly those invocations as the active
//! lanes ([`run`]), writes each one's result into its registers, and resumes them after the
//! instruction.
//!
//! Why those are the lanes the interpreter would run it with: the interpreter runs the
//! smallest segment some lane waits at (the min-PC rule, `exec::control`). Every lane follows
//! its own path whatever the schedule, so a lane that the JIT finds at the instance also
//! reaches it in the interpreter; it is active there unless the interpreter ran the segment
//! while that lane still waited at a *later* segment, from which it came back to this one
//! without a new iteration of any loop around it. [`unsafe_position`] refuses programs where
//! any segment after a group instruction's segment can reach it that way; with the rest,
//! a lane only waits at earlier segments before arriving, and those run first. A lane at a
//! later segment in an earlier iteration of a loop around the instruction comes back to it
//! through the loop's back edge, in the iteration of the lanes that wait there: the
//! interpreter would have held those lanes back until it arrived (the `exec` fuzz target found
//! the JIT electing them alone), so the driver leaves such a round to the interpreter.

use super::analysis::successors;
use super::loops::BarrierLoops;
use crate::exec::{Ctx, Sink, execute};
use crate::memory::Memory;
use crate::program::{Function, GroupMode, GroupOp, Inst, SegId, Slot};

/// The registers a subgroup instruction reads and writes: `a..a + a_len`, `b..b + b_len` and
/// `dst..dst + dst_len`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub a: Slot,
    pub a_len: u32,
    pub b: Slot,
    pub b_len: u32,
    pub dst: Slot,
    pub dst_len: u32,
}

/// Where the operands and the result sit in the small register file [`run`] builds.
const A: Slot = 0;
const B: Slot = 8;
const DST: Slot = 12;
const SLOTS: usize = 16;

/// The shape of `inst` when it is a subgroup instruction the JIT runs at a rendezvous
/// (`None`: any other instruction).
pub fn shape(inst: &Inst) -> Option<Shape> {
    match *inst {
        Inst::Group { op, dst, a, b, .. } => {
            let a_len = match op {
                GroupOp::AllEqualVector(n) => n as u32,
                GroupOp::BallotBitCount(_)
                | GroupOp::BallotBitExtract
                | GroupOp::BallotFindLsb
                | GroupOp::BallotFindMsb
                | GroupOp::InverseBallot => 4,
                _ => 1,
            };
            let b_len = match op {
                GroupOp::Arith(_, GroupMode::Partitioned(_)) => 4,
                _ => 1,
            };
            let dst_len = if op == GroupOp::Partition { 4 } else { 1 };
            (a_len <= 8).then_some(Shape {
                a,
                a_len,
                b,
                b_len,
                dst,
                dst_len,
            })
        }
        Inst::Ballot { dst, pred } => Some(Shape {
            a: pred,
            a_len: 1,
            b: pred,
            b_len: 1,
            dst,
            dst_len: 4,
        }),
        _ => None,
    }
}

/// The same instruction reading and writing the small register file of [`run`].
fn remapped(inst: &Inst) -> Option<Inst> {
    Some(match *inst {
        Inst::Group { op, scalar, .. } => Inst::Group {
            op,
            scalar,
            dst: DST,
            a: A,
            b: B,
        },
        Inst::Ballot { .. } => Inst::Ballot { dst: DST, pred: A },
        _ => return None,
    })
}

/// Why the JIT cannot run the subgroup instructions of the entry function `f` with the lanes
/// the interpreter would run them with (`None`: it can; see the module comment).
pub fn unsafe_position(f: &Function) -> Option<String> {
    let n = f.segments.len();
    let group_segments: Vec<SegId> = (0..n as SegId)
        .filter(|&s| {
            let seg = &f.segments[s as usize];
            f.code[seg.start as usize..seg.end as usize]
                .iter()
                .any(|i| shape(i).is_some())
        })
        .collect();
    if group_segments.is_empty() {
        return None;
    }
    let loops = match BarrierLoops::new(f) {
        Ok(l) => l,
        Err(why) => return Some(why),
    };
    let mut preds: Vec<Vec<SegId>> = vec![Vec::new(); n];
    for (s, seg) in f.segments.iter().enumerate() {
        for t in successors(&seg.term) {
            preds[t as usize].push(s as SegId);
        }
    }
    for &g in &group_segments {
        // Backwards from g, not through an edge that starts a new iteration of a loop
        // around g.
        let mut seen = vec![false; n];
        let mut work = vec![g];
        seen[g as usize] = true;
        while let Some(x) = work.pop() {
            for &p in &preds[x as usize] {
                if loops.is_back_edge_around(p, x, g) || seen[p as usize] {
                    continue;
                }
                if p > g {
                    return Some(format!(
                        "a subgroup instruction in block {g} that block {p} after it reaches \
                         again in the same loop iteration"
                    ));
                }
                seen[p as usize] = true;
                work.push(p);
            }
        }
    }
    None
}

/// The lanes of one subgroup at a rendezvous, for [`run`].
pub struct Lanes<'s> {
    /// Every invocation's state, `state_words` words each.
    pub state: &'s mut [u64],
    pub state_words: usize,
    /// The subgroup's first invocation and its lane count.
    pub first: usize,
    pub width: usize,
    /// The lanes that run the instruction (bit `l`: invocation `first + l`).
    pub active: u64,
}

/// Runs subgroup instruction `inst` once for the active lanes of `lanes` through the
/// interpreter's implementation, reading each lane's operands from and writing its result into
/// its state. `Err`: the interpreter reported an event (or the instruction is not one of
/// [`shape`]'s), so the dispatch must run on the interpreter.
pub fn run(
    inst: &Inst,
    lanes: Lanes,
    scratch: &mut Vec<u64>,
    mem: &mut Memory,
    cfg: &crate::config::RunConfig,
    source: u32,
) -> Result<(), ()> {
    let (Some(sh), Some(local)) = (shape(inst), remapped(inst)) else {
        return Err(());
    };
    let (w, sw) = (lanes.width, lanes.state_words);
    // The common case without the register file: the arithmetic the interpreter runs, on the
    // values read straight from the lanes' states.
    if let Inst::Group {
        op: GroupOp::Arith(rop, mode),
        scalar,
        ..
    } = *inst
        && !matches!(mode, GroupMode::Partitioned(_))
    {
        let mut values = [0u64; 64];
        for l in crate::exec::lanes(lanes.active) {
            values[l] = lanes.state[(lanes.first + l) * sw + sh.a as usize];
        }
        crate::exec::subgroup::reduce_or_scan(rop, mode, scalar, lanes.active, w, &mut values);
        for l in crate::exec::lanes(lanes.active) {
            lanes.state[(lanes.first + l) * sw + sh.dst as usize] = values[l];
        }
        return Ok(());
    }
    scratch.clear();
    scratch.resize(SLOTS * w, 0);
    let word = |inv: usize, slot: Slot| inv * sw + slot as usize;
    for l in crate::exec::lanes(lanes.active) {
        let inv = lanes.first + l;
        for k in 0..sh.a_len {
            scratch[(A + k) as usize * w + l] = lanes.state[word(inv, sh.a + k)];
        }
        for k in 0..sh.b_len {
            scratch[(B + k) as usize * w + l] = lanes.state[word(inv, sh.b + k)];
        }
    }
    let mut sink = Sink {
        strict: false,
        max: 0,
        ..Sink::default()
    };
    let mut cx = Ctx {
        regs: scratch,
        width: w,
        mask: lanes.active,
        mem,
        sink: &mut sink,
        cfg,
        source,
    };
    let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| execute(&local, &mut cx)));
    if !matches!(ran, Ok(Ok(()))) || sink.count > 0 {
        return Err(());
    }
    for l in crate::exec::lanes(lanes.active) {
        let inv = lanes.first + l;
        for k in 0..sh.dst_len {
            lanes.state[word(inv, sh.dst + k)] = scratch[(DST + k) as usize * w + l];
        }
    }
    Ok(())
}
