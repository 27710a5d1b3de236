//! The shape of a conditional branch that if-conversion may lower without branching, shared by
//! the scalar JIT (`lower_select`) and the vector lanes (`simd::select`): each side is an
//! [`Arm`], an edge straight to the meeting segment or through one short segment that may run
//! whether or not its side is taken. What "may run" means is each lowering's own (`pure`):
//! the scalar JIT also needs native code, the vector lanes also convert conversions and float
//! arithmetic that the scalar JIT keeps native only case by case.

use crate::program::{Edge, Function, Inst, SegId, Term};

/// The longest segment an arm goes through (instructions).
const MAX_ARM: u32 = 24;

/// One side of a converted branch: the edge from the branching segment, and the segment it
/// goes through on its way to the meeting segment (`None`: the edge goes there directly).
pub(super) struct Arm<'e> {
    pub edge: &'e Edge,
    pub through: Option<(SegId, &'e Edge)>,
}

impl<'e> Arm<'e> {
    /// The arm edge `e` of `f` starts: through its target when that segment ends in an
    /// unconditional branch and is `speculatable` (see [`speculatable`]).
    pub fn of(f: &'e Function, e: &'e Edge, speculatable: impl Fn(SegId) -> bool) -> Arm<'e> {
        let through = match &f.segments[e.target as usize].term {
            Term::Branch(next) if speculatable(e.target) => Some((e.target, next)),
            _ => None,
        };
        Arm { edge: e, through }
    }

    /// The segment where the arm meets the other one.
    pub fn meeting(&self) -> SegId {
        self.through.map_or(self.edge.target, |(_, e)| e.target)
    }

    /// The steps taking the arm costs an invocation: the segment it goes through and that
    /// segment's branch (0 for a direct edge).
    pub fn steps(&self, f: &Function) -> u32 {
        self.through.map_or(0, |(s, _)| {
            let seg = &f.segments[s as usize];
            seg.end - seg.start + 1
        })
    }
}

/// Whether segment `s` of `f` is at most [`MAX_ARM`] instructions long, each of them `pure`
/// (the lowering may run it for an invocation that does not take the arm).
pub(super) fn speculatable(f: &Function, s: SegId, pure: impl Fn(&Inst) -> bool) -> bool {
    let seg = &f.segments[s as usize];
    seg.end - seg.start <= MAX_ARM
        && f.code[seg.start as usize..seg.end as usize]
            .iter()
            .all(pure)
}
