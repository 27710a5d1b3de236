//! How the lanes' values of each register are expected to relate, for choosing how a load or
//! store is first tried (`mem`): the same value in every lane, or a value that steps by a
//! fixed amount from lane to lane (the lanes hold invocations consecutive in x). It is a hint
//! only: lanes refilled at different times, or invocations of different rows or workgroups,
//! break it, and the lowering tests the lanes' offsets before it uses a fast path.

use super::analysis::{Kind, Plan};
use crate::jit::analysis::{edges, native_dsts, native_reads};
use crate::program::{Builtin, ConvOp, IBinOp, Inst, Program, Slot};
use std::collections::HashMap;

/// How a register's lanes relate (for a pointer, its byte offsets).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lanes {
    /// The same in every lane.
    Same,
    /// Lane `l + 1`'s value is lane `l`'s plus this (modulo the register's width).
    Step(i64),
    /// No known relation.
    Varies,
}

impl Lanes {
    fn join(self, other: Lanes) -> Lanes {
        if self == other { self } else { Lanes::Varies }
    }

    fn add(self, other: Lanes) -> Lanes {
        match (self, other) {
            (Lanes::Same, x) | (x, Lanes::Same) => x,
            (Lanes::Step(a), Lanes::Step(b)) => a.checked_add(b).map_or(Lanes::Varies, Lanes::Step),
            _ => Lanes::Varies,
        }
    }

    fn scale(self, k: i64) -> Lanes {
        match self {
            Lanes::Step(a) => a.checked_mul(k).map_or(Lanes::Varies, Lanes::Step),
            x => x,
        }
    }
}

/// Each register's expected relation between lanes (`Plan::lanes` takes registers not in the
/// map, constants and registers no write reaches, as `Same`), found by rounds over the
/// instructions and the edges' copies to a fixed point (a register written with values of
/// different relations `Varies`).
pub fn lanes(prog: &Program, plan: &Plan) -> HashMap<Slot, Lanes> {
    let f = &prog.functions[prog.entry as usize];
    let mut of: HashMap<Slot, Lanes> = HashMap::new();
    for b in &prog.builtins {
        let Some(reg) = b.reg else { continue };
        for c in 0..b.components {
            let l = match (b.builtin, c) {
                (Builtin::GlobalInvocationId | Builtin::LocalInvocationId, 0)
                | (Builtin::LocalInvocationIndex | Builtin::GlobalLinearId, _) => Lanes::Step(1),
                (Builtin::SubgroupLocalInvocationId | Builtin::SubgroupMask(_), _) => Lanes::Varies,
                _ => Lanes::Same,
            };
            of.insert(reg + c, l);
        }
    }
    // The template's uniform values: the same in every lane.
    for s in &plan.inputs {
        of.entry(*s).or_insert(Lanes::Same);
    }
    // Rounds over the segments until nothing changes: within a segment each instruction sees
    // the relation the segment's last write before it gave (registers are written more than
    // once: zero-initialised variables, phis); across segments, the join of every segment's
    // last writes and every edge's copies. Joined with the last round's, the relations only go
    // up (to `Varies`), so a few rounds reach the fixed point.
    loop {
        let mut next = of.clone();
        for seg in &f.segments {
            let mut local: HashMap<Slot, Lanes> = HashMap::new();
            for inst in &f.code[seg.start as usize..seg.end as usize] {
                // (An instruction reading a register no write has reached yet waits for a
                // later round.)
                let mut known = true;
                native_reads(inst, |s| known &= get(plan, &of, &local, s).is_some());
                if !known {
                    continue;
                }
                let read = |s| get(plan, &of, &local, s).unwrap_or(Lanes::Varies);
                for (s, l) in transfer(inst, plan, read) {
                    local.insert(s, l);
                }
            }
            for e in edges(&seg.term) {
                for (d, s) in e.copies.iter() {
                    if let Some(l) = get(plan, &of, &local, *s) {
                        join_into(&mut next, *d, l);
                    }
                }
            }
            for (s, l) in local {
                join_into(&mut next, s, l);
            }
        }
        if next == of {
            return of;
        }
        of = next;
    }
}

fn join_into(map: &mut HashMap<Slot, Lanes>, s: Slot, l: Lanes) {
    map.entry(s).and_modify(|x| *x = x.join(l)).or_insert(l);
}

/// Register `s`'s relation: a constant's `Same`; else the segment's last write, else the
/// join over the program; `None` while no write has reached it.
fn get(
    plan: &Plan,
    of: &HashMap<Slot, Lanes>,
    local: &HashMap<Slot, Lanes>,
    s: Slot,
) -> Option<Lanes> {
    if let Kind::Const(_) = plan.kind(s) {
        return Some(Lanes::Same);
    }
    local.get(&s).or_else(|| of.get(&s)).copied()
}

/// The relations of the registers `inst` writes, given those of the registers it reads.
fn transfer(inst: &Inst, plan: &Plan, get: impl Fn(Slot) -> Lanes) -> Vec<(Slot, Lanes)> {
    let constant = |s: Slot| match plan.kind(s) {
        Kind::Const(c) => Some(c as u32 as i32 as i64),
        _ => None,
    };
    match inst {
        Inst::Copy { dst, src } => vec![(*dst, get(*src))],
        Inst::Convert {
            op: ConvOp::UConvert { .. } | ConvOp::SConvert { .. },
            dst,
            a,
        } => vec![(*dst, get(*a))],
        Inst::Bitcast {
            dst,
            src,
            dst_count: 1,
            src_count: 1,
            ..
        } => vec![(*dst, get(*src))],
        Inst::IBin { op, dst, a, b, .. } => {
            let (x, y) = (get(*a), get(*b));
            let both_same = x == Lanes::Same && y == Lanes::Same;
            let l = match op {
                IBinOp::Add => x.add(y),
                IBinOp::Sub => x.add(y.scale(-1)),
                IBinOp::Mul => match (constant(*a), constant(*b)) {
                    (_, Some(k)) => x.scale(k),
                    (Some(k), _) => y.scale(k),
                    _ if both_same => Lanes::Same,
                    _ => Lanes::Varies,
                },
                IBinOp::Shl => match constant(*b) {
                    Some(k @ 0..=31) => x.scale(1 << k),
                    _ if both_same => Lanes::Same,
                    _ => Lanes::Varies,
                },
                _ if both_same => Lanes::Same,
                _ => Lanes::Varies,
            };
            vec![(*dst, l)]
        }
        Inst::AccessChain {
            dst, base, steps, ..
        } => {
            let mut l = get(*base);
            for s in steps.iter() {
                l = l.add(get(s.index).scale(s.stride as i64));
            }
            vec![(*dst, l)]
        }
        Inst::Load { dst, ptr, leaves } => {
            // Loads through one address give the same values.
            let l = match get(*ptr) {
                Lanes::Same => Lanes::Same,
                _ => Lanes::Varies,
            };
            leaves.iter().map(|leaf| (dst + leaf.slot, l)).collect()
        }
        other => {
            let mut same = true;
            native_reads(other, |s| same &= get(s) == Lanes::Same);
            let l = if same { Lanes::Same } else { Lanes::Varies };
            let mut out = Vec::new();
            native_dsts(other, |s| out.push((s, l)));
            out
        }
    }
}
