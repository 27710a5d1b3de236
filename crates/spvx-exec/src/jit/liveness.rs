//! Liveness of the JIT's variables over a function's segments: what a barrier must save and a
//! resume reload, and which registers a converted branch must merge.

use super::analysis::{edges, native, native_dsts, native_reads};
use crate::program::{Function, Slot, Term};
use std::collections::HashSet;

/// For each segment of `f`, the registers of `vars` live when it starts (read before being
/// written on some path from there). An instruction the JIT calls out for counts as reading
/// every variable (its operands are not known here).
pub fn live_in(f: &Function, vars: &HashSet<Slot>, native_code: bool) -> Vec<HashSet<Slot>> {
    let n = f.segments.len();
    let mut live: Vec<HashSet<Slot>> = vec![HashSet::new(); n];
    let mut changed = true;
    while changed {
        changed = false;
        for s in (0..n).rev() {
            let seg = &f.segments[s];
            let mut l: HashSet<Slot> = HashSet::new();
            // Live out: through each edge (its copies write their destinations, read their
            // sources), and into a call's or barrier's continuation.
            for e in edges(&seg.term) {
                let mut x = live[e.target as usize].clone();
                for (d, _) in e.copies.iter() {
                    x.remove(d);
                }
                for (_, src) in e.copies.iter() {
                    x.insert(*src);
                }
                l.extend(x);
            }
            match &seg.term {
                Term::Call { args, next, .. } => {
                    l.extend(live[*next as usize].iter().copied());
                    l.extend(args.iter().map(|(_, s)| *s));
                }
                Term::Barrier { next } => l.extend(live[*next as usize].iter().copied()),
                Term::BranchConditional { cond, .. } => {
                    l.insert(*cond);
                }
                Term::Switch { selector, .. } => {
                    l.insert(*selector);
                }
                Term::ReturnValue { src, count } => l.extend(*src..*src + *count),
                _ => {}
            }
            for inst in f.code[seg.start as usize..seg.end as usize].iter().rev() {
                if native_code && native(inst) {
                    native_dsts(inst, |d| {
                        l.remove(&d);
                    });
                    native_reads(inst, |r| {
                        l.insert(r);
                    });
                } else {
                    l.extend(vars.iter().copied());
                }
            }
            l.retain(|s| vars.contains(s));
            if l != live[s] {
                live[s] = l;
                changed = true;
            }
        }
    }
    live
}
