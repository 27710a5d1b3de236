//! The loops around workgroup barriers and subgroup instructions: a barrier's (or subgroup
//! instruction's) dynamic instance is the instruction and the iteration of every natural loop
//! around it, which the JIT counts so that the round loop can tell whether all invocations wait
//! at the same instance.

use super::analysis::successors;
use crate::program::{Function, SegId, Term};
use std::collections::{HashMap, HashSet};

/// The loops of the entry function that enclose a workgroup barrier, with how each edge
/// updates their iteration counters: a barrier's dynamic instance is the barrier instruction
/// and the iteration of every loop around it (structured control flow: invocations at the same
/// instance run it together in the interpreter).
#[derive(Clone, Debug, Default)]
pub struct BarrierLoops {
    /// Loop headers with a counter, by counter index.
    pub headers: Vec<SegId>,
    /// For each counted header, the segments of its loop (natural loop body).
    bodies: Vec<HashSet<SegId>>,
}

/// What taking an edge into a counted loop header does to its counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CounterStep {
    /// Entering the loop: the first iteration.
    Start(usize),
    /// A back edge: the next iteration.
    Next(usize),
}

impl BarrierLoops {
    /// The loops around the barriers of `f` (an error for an irreducible control-flow graph,
    /// whose loops have no single header).
    pub fn new(f: &Function) -> Result<BarrierLoops, String> {
        let n = f.segments.len();
        let succ: Vec<Vec<SegId>> = f.segments.iter().map(|s| successors(&s.term)).collect();
        // Reverse post-order from the entry.
        let mut order = Vec::with_capacity(n);
        let mut seen = vec![false; n];
        let mut stack = vec![(f.entry, 0usize)];
        seen[f.entry as usize] = true;
        while let Some((node, next)) = stack.last_mut() {
            let s = &succ[*node as usize];
            if *next < s.len() {
                let t = s[*next];
                *next += 1;
                if !seen[t as usize] {
                    seen[t as usize] = true;
                    stack.push((t, 0));
                }
            } else {
                order.push(*node);
                stack.pop();
            }
        }
        order.reverse();
        let mut rpo = vec![usize::MAX; n];
        for (i, s) in order.iter().enumerate() {
            rpo[*s as usize] = i;
        }
        let mut preds: Vec<Vec<SegId>> = vec![Vec::new(); n];
        for &s in &order {
            for &t in &succ[s as usize] {
                preds[t as usize].push(s);
            }
        }
        // Immediate dominators (Cooper, Harvey, Kennedy: "A Simple, Fast Dominance
        // Algorithm").
        let mut idom = vec![usize::MAX; n];
        idom[f.entry as usize] = f.entry as usize;
        let intersect = |idom: &[usize], mut a: usize, mut b: usize| {
            while a != b {
                while rpo[a] > rpo[b] {
                    a = idom[a];
                }
                while rpo[b] > rpo[a] {
                    b = idom[b];
                }
            }
            a
        };
        let mut changed = true;
        while changed {
            changed = false;
            for &s in order.iter().skip(1) {
                let mut new = usize::MAX;
                for &p in &preds[s as usize] {
                    if idom[p as usize] == usize::MAX {
                        continue;
                    }
                    new = if new == usize::MAX {
                        p as usize
                    } else {
                        intersect(&idom, p as usize, new)
                    };
                }
                if new != usize::MAX && idom[s as usize] != new {
                    idom[s as usize] = new;
                    changed = true;
                }
            }
        }
        let dominates = |a: usize, mut b: usize| loop {
            if a == b {
                return true;
            }
            if idom[b] == b || idom[b] == usize::MAX {
                return false;
            }
            b = idom[b];
        };
        // Back edges s → h (h dominates s); a retreating edge that is not one makes the graph
        // irreducible.
        let mut loops: HashMap<SegId, HashSet<SegId>> = HashMap::new();
        for &s in &order {
            for &h in &succ[s as usize] {
                if rpo[h as usize] > rpo[s as usize] {
                    continue;
                }
                if !dominates(h as usize, s as usize) {
                    return Err(
                        "irreducible control flow around a workgroup barrier or subgroup \
                         instruction"
                            .into(),
                    );
                }
                let body = loops.entry(h).or_insert_with(|| HashSet::from([h]));
                let mut work = vec![s];
                while let Some(x) = work.pop() {
                    if body.insert(x) {
                        work.extend(preds[x as usize].iter().copied());
                    }
                }
            }
        }
        // Where invocations meet: barriers and subgroup instructions.
        let barriers: Vec<SegId> = (0..n as SegId)
            .filter(|&s| {
                let seg = &f.segments[s as usize];
                matches!(seg.term, Term::Barrier { .. })
                    || f.code[seg.start as usize..seg.end as usize]
                        .iter()
                        .any(|i| super::group::shape(i).is_some())
            })
            .collect();
        let mut headers: Vec<SegId> = loops
            .iter()
            .filter(|(_, body)| barriers.iter().any(|b| body.contains(b)))
            .map(|(h, _)| *h)
            .collect();
        headers.sort_unstable();
        let bodies = headers.iter().map(|h| loops[h].clone()).collect();
        Ok(BarrierLoops { headers, bodies })
    }

    /// Whether `from → to` starts a new iteration of a counted loop around segment `inside`.
    pub fn is_back_edge_around(&self, from: SegId, to: SegId, inside: SegId) -> bool {
        self.headers
            .iter()
            .position(|&h| h == to)
            .is_some_and(|k| self.bodies[k].contains(&from) && self.bodies[k].contains(&inside))
    }

    /// The counted loops the edge `from → to` leaves (their counters go back to 0, the value
    /// outside the loop: an instance after a loop does not depend on how often it ran).
    pub fn exits(&self, from: SegId, to: SegId) -> impl Iterator<Item = usize> + '_ {
        self.bodies
            .iter()
            .enumerate()
            .filter(move |(_, b)| b.contains(&from) && !b.contains(&to))
            .map(|(k, _)| k)
    }

    /// What the edge `from → to` does to a loop counter, if anything.
    pub fn step(&self, from: SegId, to: SegId) -> Option<CounterStep> {
        let k = self.headers.iter().position(|&h| h == to)?;
        Some(if self.bodies[k].contains(&from) {
            CounterStep::Next(k)
        } else {
            CounterStep::Start(k)
        })
    }
}
