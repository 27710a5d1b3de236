//! If-conversion in the vector lanes: a conditional branch whose arms are short straight-line
//! code that may run for every lane (`pure`: no memory access, division or anything that
//! bails) and that meet at one segment is lowered without splitting the lanes: both arms are
//! computed on whole vectors, each into its own values, and every register either writes
//! gets `bitselect(condition, then value, else value)` — the scalar JIT's `lower_select`,
//! lane by lane. Divergent small diamonds then cost no trip through the dispatcher. Steps: the
//! longer arm's for every active lane, as the scalar JIT charges a converted branch.

use super::analysis::Kind;
use super::lower::{Cond, HALVES, V, VLower};
use crate::jit::diamond::{Arm, speculatable};
use crate::program::{Edge, IBinOp, Inst, SegId, Slot};
use cranelift_codegen::ir::InstBuilder;
use std::collections::HashMap;

impl<'p> VLower<'_, '_, 'p> {
    /// Lowers a conditional branch on `c` as selects when its shape allows, then goes on to
    /// the meeting segment; false when it does not (nothing emitted).
    pub fn if_convert(&mut self, c: Cond, on_true: &'p Edge, on_false: &'p Edge) -> bool {
        let Some(m) = self.converted(on_true, on_false) else {
            return false;
        };
        let (t, f) = (self.arm(on_true), self.arm(on_false));
        let vt = self.arm_values(&t);
        let vf = self.arm_values(&f);
        // (Only registers read after the meeting: the arms' temporaries are not.)
        let mut slots: Vec<Slot> = vt
            .keys()
            .chain(vf.keys())
            .filter(|s| self.plan.live_anywhere.contains(s))
            .copied()
            .collect();
        slots.sort_unstable();
        slots.dedup();
        // Both arms were computed from the state before the branch: read every unchanged
        // value before any merged one is written.
        let merged: Vec<(Slot, V)> = slots
            .into_iter()
            .map(|s| {
                let a = vt.get(&s).copied().unwrap_or_else(|| self.get(s));
                let b = vf.get(&s).copied().unwrap_or_else(|| self.get(s));
                let (a, b) = if c.negated { (b, a) } else { (a, b) };
                (
                    s,
                    HALVES.map(|h| self.b.ins().bitselect(c.m[h], a[h], b[h])),
                )
            })
            .collect();
        for (s, v) in merged {
            self.put(s, v);
        }
        let steps = t.steps(self.f).max(f.steps(self.f));
        if steps > 0 {
            self.spend(steps);
        }
        self.go_on(m);
        true
    }

    /// Where a conditional branch with these edges goes on when it is converted (`None`: it
    /// is not).
    pub fn converted(&self, on_true: &'p Edge, on_false: &'p Edge) -> Option<SegId> {
        let m = self.arm(on_true).meeting();
        (self.arm(on_false).meeting() == m).then_some(m)
    }

    /// The arm that edge `e` starts: through a segment only where every lane may run it.
    fn arm(&self, e: &'p Edge) -> Arm<'p> {
        let f: &'p crate::program::Function = self.f;
        Arm::of(f, e, |s| speculatable(f, s, |i| self.pure(i)))
    }

    /// Without side effects, and never bailing.
    fn pure(&self, inst: &Inst) -> bool {
        match inst {
            Inst::IBin { op, bits, b, .. } => match op {
                IBinOp::UDiv | IBinOp::SDiv | IBinOp::UMod | IBinOp::SRem | IBinOp::SMod => false,
                IBinOp::Shl | IBinOp::ShrLogical | IBinOp::ShrArith => {
                    matches!(self.plan.kind(*b), Kind::Const(v) if v < *bits as u64)
                }
                _ => true,
            },
            Inst::Copy { .. }
            | Inst::Const { .. }
            | Inst::Bitcast { .. }
            | Inst::IUn { .. }
            | Inst::ICmp { .. }
            | Inst::Logic { .. }
            | Inst::LNot { .. }
            | Inst::Select { .. }
            | Inst::FNeg { .. }
            | Inst::Convert { .. }
            | Inst::FBin { .. }
            | Inst::FCmp { .. } => true,
            _ => false,
        }
    }

    /// Lowers an arm into its own values: the edge's copies, the segment's instructions and
    /// its outgoing edge's copies, each register written mapped to its value.
    fn arm_values(&mut self, a: &Arm<'p>) -> HashMap<Slot, V> {
        self.overlay = Some(HashMap::new());
        self.copy_edge(a.edge);
        if let Some((s, out)) = a.through {
            let f: &'p crate::program::Function = self.f;
            let seg = &f.segments[s as usize];
            for k in seg.start..seg.end {
                self.lower_inst(&f.code[k as usize]);
            }
            self.copy_edge(out);
        }
        self.overlay.take().unwrap_or_default()
    }

    /// An edge's phi copies, as a parallel copy.
    fn copy_edge(&mut self, e: &Edge) {
        let values: Vec<V> = e.copies.iter().map(|(_, s)| self.get(*s)).collect();
        for ((d, _), v) in e.copies.iter().zip(values) {
            self.put(*d, v);
        }
    }
}
