//! If-conversion: a conditional branch whose arms are short straight-line code that can run
//! whether or not its arm is taken (pure native instructions that never bail) and that meet at
//! one block is lowered without branching: both arms are computed, each into its own values,
//! and every register either arm writes gets `select(cond, then value, else value)`. Results
//! are those of taking the branch (the untaken arm's values are discarded); what it saves is
//! the branch and its mispredictions in divergent code.

use super::analysis;
use super::lower::FnLower;
use crate::program::{Edge, IBinOp, Inst, SegId, Slot, Term};
use cranelift_codegen::ir::{InstBuilder, Value};
use std::collections::HashMap;

/// The longest arm converted (instructions).
const MAX_ARM: u32 = 24;

/// One side of a converted branch: the edge from the branching segment, and the segment it
/// goes through on its way to the meeting block (`None`: the edge goes there directly).
struct Arm<'e> {
    edge: &'e Edge,
    through: Option<(SegId, &'e Edge)>,
}

impl<'p> FnLower<'_, '_, 'p> {
    /// Lowers segment `seg`'s conditional branch as selects when its shape allows; false when
    /// it does not (nothing emitted).
    pub fn if_convert(
        &mut self,
        seg: SegId,
        cond: Slot,
        on_true: &'p Edge,
        on_false: &'p Edge,
    ) -> bool {
        let (Some(t), Some(f)) = (self.arm(on_true), self.arm(on_false)) else {
            return false;
        };
        let meet = |a: &Arm| a.through.map_or(a.edge.target, |(_, e)| e.target);
        let m = meet(&t);
        if meet(&f) != m || self.touches_counter(seg, &t) || self.touches_counter(seg, &f) {
            return false;
        }
        let c = self.val(cond);
        let vt = self.arm_values(seg, &t);
        let vf = self.arm_values(seg, &f);
        // Only what the meeting block can read: values local to an arm die with it.
        let mut slots: Vec<Slot> = vt
            .keys()
            .chain(vf.keys())
            .copied()
            .filter(|s| !self.vars.contains_key(s) || self.live[m as usize].contains(s))
            .collect();
        slots.sort_unstable();
        slots.dedup();
        // Both arms were computed from the state before the branch: read every "unchanged"
        // value before any merged one is written.
        let merged: Vec<(Slot, Value)> = slots
            .into_iter()
            .map(|s| {
                let a = vt.get(&s).copied().unwrap_or_else(|| self.val(s));
                let b = vf.get(&s).copied().unwrap_or_else(|| self.val(s));
                (s, self.b.ins().select(c, a, b))
            })
            .collect();
        for (s, v) in merged {
            self.set(s, v);
        }
        let len = |a: &Arm| a.through.map_or(0, |(s, _)| self.segment_len(s) + 1);
        let steps = len(&t).max(len(&f));
        if steps > 0 {
            self.spend_steps(steps);
        }
        self.b.ins().jump(self.seg_blocks[m as usize], &[]);
        true
    }

    /// The arm that edge `e` starts, when it can be converted.
    fn arm(&self, e: &'p Edge) -> Option<Arm<'p>> {
        let f: &'p crate::program::Function = self.f;
        let target = &f.segments[e.target as usize];
        let through = match &target.term {
            Term::Branch(next) if self.speculatable(e.target) => Some((e.target, next)),
            _ => None,
        };
        Some(Arm { edge: e, through })
    }

    fn segment_len(&self, s: SegId) -> u32 {
        let seg = &self.f.segments[s as usize];
        seg.end - seg.start
    }

    /// Whether segment `s` is short and made only of instructions that may run speculatively.
    fn speculatable(&self, s: SegId) -> bool {
        let seg = &self.f.segments[s as usize];
        self.shared.native_code
            && seg.end - seg.start <= MAX_ARM
            && self.f.code[seg.start as usize..seg.end as usize]
                .iter()
                .all(|i| self.pure(i))
    }

    /// Native, without side effects, and never bailing.
    fn pure(&self, inst: &Inst) -> bool {
        match inst {
            Inst::IBin { op, bits, b, .. } => match op {
                IBinOp::UDiv | IBinOp::SDiv | IBinOp::UMod | IBinOp::SRem | IBinOp::SMod => false,
                IBinOp::Shl | IBinOp::ShrLogical | IBinOp::ShrArith => self
                    .shared
                    .constants
                    .get(b)
                    .is_some_and(|v| *v < *bits as u64),
                _ => true,
            },
            Inst::Copy { .. }
            | Inst::Const { .. }
            | Inst::IUn { .. }
            | Inst::ICmp { .. }
            | Inst::Logic { .. }
            | Inst::LNot { .. }
            | Inst::Select { .. }
            | Inst::FNeg { .. } => true,
            Inst::Convert { .. } | Inst::FBin { .. } | Inst::FCmp { .. } => analysis::native(inst),
            _ => false,
        }
    }

    /// Whether taking the arm updates a barrier loop counter (such edges keep their branch).
    fn touches_counter(&self, from: SegId, a: &Arm) -> bool {
        let Some(l) = self.loops else {
            return false;
        };
        l.step(from, a.edge.target).is_some()
            || a.through
                .is_some_and(|(s, e)| l.step(s, e.target).is_some())
    }

    /// Lowers an arm into its own values: the edge's copies, the segment's instructions and
    /// its outgoing edge's copies, each register written mapped to its value.
    fn arm_values(&mut self, from: SegId, a: &Arm) -> HashMap<Slot, Value> {
        let _ = from;
        self.overlay = Some(HashMap::new());
        self.copy_edge(a.edge);
        if let Some((s, out)) = a.through {
            let seg = &self.f.segments[s as usize];
            for k in seg.start..seg.end {
                let inst = &self.f.code[k as usize];
                self.lower_native(inst);
                self.shared.native += 1;
            }
            self.copy_edge(out);
        }
        self.overlay.take().unwrap_or_default()
    }

    /// An edge's phi copies, as a parallel copy.
    fn copy_edge(&mut self, e: &Edge) {
        let values: Vec<Value> = e.copies.iter().map(|(_, s)| self.val(*s)).collect();
        for ((d, _), v) in e.copies.iter().zip(values) {
            self.set(*d, v);
        }
    }
}
