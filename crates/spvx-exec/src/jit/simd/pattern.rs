//! How the lanes' values of each register are expected to relate, for choosing how a load or
//! store is first tried (`mem`): the same value in every lane, or a value that steps by a
//! fixed amount from lane to lane (the lanes hold invocations consecutive in x). It is a hint
//! only: lanes refilled at different times, or invocations of different rows or workgroups,
//! break it, and the lowering tests the lanes' offsets before it uses a fast path.

use super::analysis::{Kind, Plan};
use crate::jit::analysis::{edges, native_dsts};
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

/// Each register's expected relation between lanes (registers not in the map: `Same`,
/// constants included), found by iterating the instructions and the edges' copies to a fixed
/// point (a register written with values of different relations `Varies`).
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
    // The registers written by the program, which the fixed point recomputes (built-ins are
    // inputs: never written).
    let mut written = Vec::new();
    for inst in &f.code {
        native_dsts(inst, |s| written.push(s));
    }
    for seg in &f.segments {
        for e in edges(&seg.term) {
            written.extend(e.copies.iter().map(|(d, _)| *d));
        }
    }
    loop {
        let mut next: HashMap<Slot, Option<Lanes>> = written.iter().map(|s| (*s, None)).collect();
        let get = |s: Slot| -> Lanes {
            match plan.kind(s) {
                Kind::Const(_) => Lanes::Same,
                _ => of.get(&s).copied().unwrap_or(Lanes::Same),
            }
        };
        let mut set = |s: Slot, l: Lanes| {
            let e = next.entry(s).or_insert(None);
            *e = Some(e.map_or(l, |old| old.join(l)));
        };
        for inst in &f.code {
            match inst {
                Inst::Copy { dst, src } => set(*dst, get(*src)),
                Inst::Convert {
                    op: ConvOp::UConvert { .. } | ConvOp::SConvert { .. },
                    dst,
                    a,
                } => set(*dst, get(*a)),
                Inst::Bitcast {
                    dst,
                    src,
                    dst_count: 1,
                    src_count: 1,
                    ..
                } => set(*dst, get(*src)),
                Inst::IBin { op, dst, a, b, .. } => {
                    let (x, y) = (get(*a), get(*b));
                    let constant = |s: Slot| match plan.kind(s) {
                        Kind::Const(c) => Some(c as u32 as i32 as i64),
                        _ => None,
                    };
                    let l = match op {
                        IBinOp::Add => x.add(y),
                        IBinOp::Sub => x.add(y.scale(-1)),
                        IBinOp::Mul => match (constant(*a), constant(*b)) {
                            (_, Some(k)) => x.scale(k),
                            (Some(k), _) => y.scale(k),
                            _ if x == Lanes::Same && y == Lanes::Same => Lanes::Same,
                            _ => Lanes::Varies,
                        },
                        IBinOp::Shl => match constant(*b) {
                            Some(k @ 0..=31) => x.scale(1 << k),
                            _ if x == Lanes::Same && y == Lanes::Same => Lanes::Same,
                            _ => Lanes::Varies,
                        },
                        _ if x == Lanes::Same && y == Lanes::Same => Lanes::Same,
                        _ => Lanes::Varies,
                    };
                    set(*dst, l);
                }
                Inst::AccessChain {
                    dst, base, steps, ..
                } => {
                    let mut l = get(*base);
                    for s in steps.iter() {
                        l = l.add(get(s.index).scale(s.stride as i64));
                    }
                    set(*dst, l);
                }
                Inst::Load { dst, ptr, leaves } => {
                    // Loads through one address give the same values.
                    let l = match get(*ptr) {
                        Lanes::Same => Lanes::Same,
                        _ => Lanes::Varies,
                    };
                    for leaf in leaves.iter() {
                        set(dst + leaf.slot, l);
                    }
                }
                other => {
                    let mut same = true;
                    crate::jit::analysis::native_reads(other, |s| same &= get(s) == Lanes::Same);
                    let l = if same { Lanes::Same } else { Lanes::Varies };
                    native_dsts(other, |s| set(s, l));
                }
            }
        }
        for seg in &f.segments {
            for e in edges(&seg.term) {
                for (d, s) in e.copies.iter() {
                    set(*d, get(*s));
                }
            }
        }
        // Joined with the last round's (the relations only go up to `Varies`: a fixed point
        // within a few rounds).
        let mut next: HashMap<Slot, Lanes> = next
            .into_iter()
            .filter_map(|(s, l)| Some((s, l?)))
            .collect();
        for (s, l) in &of {
            next.entry(*s).and_modify(|n| *n = n.join(*l)).or_insert(*l);
        }
        if next == of {
            return of;
        }
        of = next;
    }
}
