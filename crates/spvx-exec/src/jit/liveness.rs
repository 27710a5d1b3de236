//! Liveness of the JIT's variables over a function's segments: what a barrier must save and a
//! resume reload, what a subgroup instruction's rendezvous must save, and which registers a
//! converted branch must merge.

use super::analysis::{edges, native, native_dsts, native_reads};
use super::group;
use crate::program::{Function, Inst, Slot, Term};
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
            let mut l = live_out(f, s, &live);
            for inst in f.code[seg.start as usize..seg.end as usize].iter().rev() {
                step_back(inst, &mut l, vars, native_code);
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

/// The registers of `vars` live right after instruction `index` of segment `seg`, given the
/// live-in sets of [`live_in`].
pub fn live_after(
    f: &Function,
    live: &[HashSet<Slot>],
    seg: usize,
    index: u32,
    vars: &HashSet<Slot>,
    native_code: bool,
) -> HashSet<Slot> {
    let s = &f.segments[seg];
    let mut l = live_out(f, seg, live);
    for inst in f.code[index as usize + 1..s.end as usize].iter().rev() {
        step_back(inst, &mut l, vars, native_code);
    }
    l.retain(|s| vars.contains(s));
    l
}

/// What segment `s` needs live when it ends: through each edge (its copies write their
/// destinations, read their sources), into a call's or barrier's continuation, and what its
/// terminator reads.
fn live_out(f: &Function, s: usize, live: &[HashSet<Slot>]) -> HashSet<Slot> {
    let seg = &f.segments[s];
    let mut l: HashSet<Slot> = HashSet::new();
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
    l
}

/// Moves the live set `l` from after `inst` to before it.
fn step_back(inst: &Inst, l: &mut HashSet<Slot>, vars: &HashSet<Slot>, native_code: bool) {
    if native_code && native(inst) {
        native_dsts(inst, |d| {
            l.remove(&d);
        });
        native_reads(inst, |r| {
            l.insert(r);
        });
    } else if let Some(g) = group::shape(inst) {
        for d in g.dst..g.dst + g.dst_len {
            l.remove(&d);
        }
        l.extend(g.a..g.a + g.a_len);
        l.extend(g.b..g.b + g.b_len);
    } else {
        l.extend(vars.iter().copied());
    }
}
