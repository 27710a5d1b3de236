//! How the vector lanes' sweeps reach each segment (`lower`): which segments some lane can
//! reach at all (a converted branch reaches only its meeting segment), which one earlier
//! segment alone leads into (fused after it, or run at once from its conditional branch), and
//! where each loop's last back edge leaves from, all on the terminators as lowered.

use super::lower::VLower;
use crate::program::{SegId, Term};

/// How the lanes reach each segment.
#[derive(Default)]
pub(super) struct Shape {
    /// Some lane can run it.
    pub entered: Vec<bool>,
    /// Only the lanes of one earlier segment that branches there unconditionally reach it:
    /// its code follows that segment's.
    pub fused: Vec<bool>,
    /// Only the lanes of one earlier segment's conditional branch reach it: they run it at
    /// once, from the branch.
    pub direct: Vec<bool>,
    /// For a loop header (a segment some entered segment not before it goes to, as lowered: a
    /// converted branch to its meeting segment), the last such segment; every cycle passes one.
    /// A header is always walked: its predecessors include one not before it.
    pub last_back: Vec<Option<usize>>,
}

impl Shape {
    /// Whether the sweep tests segment `i` for waiting lanes.
    pub fn walked(&self, i: usize) -> bool {
        self.entered[i] && !self.fused[i] && !self.direct[i]
    }
}

impl VLower<'_, '_, '_> {
    /// Which segments lanes can reach, and how each is entered: the entry segment and every
    /// target of a terminator the lowering keeps (a converted branch's: its meeting segment).
    pub(super) fn shape(&self) -> Shape {
        let f = self.f;
        let n = f.segments.len();
        let targets = |s: usize| -> Vec<(SegId, bool)> {
            match &f.segments[s].term {
                Term::Branch(e) => vec![(e.target, false)],
                Term::BranchConditional {
                    on_true, on_false, ..
                } => match self.converted(on_true, on_false) {
                    Some(m) => vec![(m, false)],
                    None => vec![(on_true.target, true), (on_false.target, true)],
                },
                _ => Vec::new(),
            }
        };
        let mut entered = vec![false; n];
        let entry = f.entry as usize;
        entered[entry] = true;
        let mut work = vec![entry];
        while let Some(s) = work.pop() {
            for (t, _) in targets(s) {
                if !entered[t as usize] {
                    entered[t as usize] = true;
                    work.push(t as usize);
                }
            }
        }
        // Edges into each segment from entered ones (the entry's lanes also come from the
        // sweep's start).
        let mut preds: Vec<Vec<(usize, bool)>> = vec![Vec::new(); n];
        preds[entry].push((usize::MAX, false));
        for s in (0..n).filter(|s| entered[*s]) {
            for (t, conditional) in targets(s) {
                preds[t as usize].push((s, conditional));
            }
        }
        // For each loop header, the last entered segment that goes back to it (its after-block
        // jumps back to the header).
        let mut last_back = vec![None; n];
        for s in (0..n).filter(|s| entered[*s]) {
            for (t, _) in targets(s) {
                if t as usize <= s {
                    last_back[t as usize] = Some(s);
                }
            }
        }
        let ends_loop = |s: usize| last_back.contains(&Some(s));
        let mut fused = vec![false; n];
        let mut direct = vec![false; n];
        for t in 0..n {
            if let [(s, conditional)] = preds[t][..]
                && s < t
            {
                if !conditional {
                    fused[t] = true;
                } else if !ends_loop(s) {
                    // (At most one of a branch's targets: the first.)
                    direct[t] = !targets(s).iter().any(|(o, _)| direct[*o as usize]);
                }
            }
        }
        Shape {
            entered,
            fused,
            direct,
            last_back,
        }
    }
}
