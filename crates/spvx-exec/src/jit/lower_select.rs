//! If-conversion: a conditional branch whose arms are short straight-line code that can run
//! whether or not its arm is taken (pure native instructions that never bail) and that meet at
//! one block is lowered without branching: both arms are computed, each into its own values,
//! and every register either arm writes gets `select(cond, then value, else value)`. Results
//! are those of taking the branch (the untaken arm's values are discarded); what it saves is
//! the branch and its mispredictions in divergent code.

use super::analysis;
use super::diamond::{Arm, speculatable};
use super::lower::FnLower;
use crate::program::{Edge, IBinOp, Inst, SegId, Slot};
use cranelift_codegen::ir::{InstBuilder, Value};
use std::collections::HashMap;

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
        let (t, f) = (self.arm(on_true), self.arm(on_false));
        let m = t.meeting();
        if f.meeting() != m || self.touches_counter(seg, &t) || self.touches_counter(seg, &f) {
            return false;
        }
        let c = self.val(cond);
        let vt = self.arm_values(&t);
        let vf = self.arm_values(&f);
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
        let steps = t.steps(self.f).max(f.steps(self.f));
        if steps > 0 {
            self.spend_steps(steps);
        }
        self.b.ins().jump(self.seg_blocks[m as usize], &[]);
        true
    }

    /// The arm that edge `e` starts: through a segment only where native code may run it for
    /// an invocation that does not take the arm.
    fn arm(&self, e: &'p Edge) -> Arm<'p> {
        let f: &'p crate::program::Function = self.f;
        Arm::of(f, e, |s| {
            self.shared.native_code && speculatable(f, s, |i| self.pure(i))
        })
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
            | Inst::IMath { .. }
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
    fn arm_values(&mut self, a: &Arm) -> HashMap<Slot, Value> {
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
