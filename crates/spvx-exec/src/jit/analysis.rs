//! What the JIT needs to know about a program before it lowers it: whether it may run it at
//! all, which instructions it compiles natively, which registers live in Cranelift variables,
//! the memory space of pointers known at compile time, and the loops around barriers.

use crate::program::{FBinOp, FloatFmt, Function, Inst, Program, SegId, Slot, Term};
use std::collections::{HashMap, HashSet};

/// Why the JIT cannot run `prog` (`None`: it can).
pub fn unsupported(prog: &Program) -> Option<String> {
    let size: usize = prog.functions.iter().map(|f| f.code.len()).sum();
    if size > super::MAX_JIT_INSTRUCTIONS {
        return Some(format!(
            "{size} instructions, more than the JIT's limit of {}",
            super::MAX_JIT_INSTRUCTIONS
        ));
    }
    match call_depth(prog) {
        Some(d) if d <= super::MAX_JIT_CALL_DEPTH => {}
        Some(d) => {
            return Some(format!(
                "a call depth of {d}, more than the JIT's {} (native calls use the host stack)",
                super::MAX_JIT_CALL_DEPTH
            ));
        }
        None => return Some("recursion".into()),
    }
    if prog.other_barriers > 0 {
        return Some("a control barrier with Subgroup (or wider than Workgroup) scope".into());
    }
    for (fi, f) in prog.functions.iter().enumerate() {
        if let Some(what) = f.code.iter().find_map(interacts) {
            return Some(format!("{what}: invocations of a subgroup interact"));
        }
        let barrier = f
            .segments
            .iter()
            .any(|s| matches!(s.term, Term::Barrier { .. }));
        if barrier && fi != prog.entry as usize {
            return Some("a workgroup barrier inside a called function".into());
        }
    }
    let entry = &prog.functions[prog.entry as usize];
    if entry
        .segments
        .iter()
        .any(|s| matches!(s.term, Term::Barrier { .. }))
        && let Err(why) = BarrierLoops::new(entry)
    {
        return Some(why);
    }
    None
}

/// The longest chain of calls from the entry function (1: it calls nothing), or `None` when
/// functions call each other recursively.
fn call_depth(prog: &Program) -> Option<usize> {
    let n = prog.functions.len();
    let callees: Vec<Vec<usize>> = prog
        .functions
        .iter()
        .map(|f| {
            f.segments
                .iter()
                .filter_map(|s| match s.term {
                    Term::Call { func, .. } => Some(func as usize),
                    _ => None,
                })
                .collect()
        })
        .collect();
    // Depth-first with an explicit stack; 0 = unvisited, 1 = on the stack, 2 = done.
    let mut state = vec![0u8; n];
    let mut depth = vec![1usize; n];
    let mut stack = vec![(prog.entry as usize, 0usize)];
    state[prog.entry as usize] = 1;
    while let Some((f, next)) = stack.last_mut() {
        let f = *f;
        if let Some(&c) = callees[f].get(*next) {
            *next += 1;
            match state.get(c)? {
                0 => {
                    state[c] = 1;
                    stack.push((c, 0));
                }
                1 => return None,
                _ => {}
            }
        } else {
            depth[f] = 1 + callees[f].iter().map(|&c| depth[c]).max().unwrap_or(0);
            state[f] = 2;
            stack.pop();
        }
    }
    Some(depth[prog.entry as usize])
}

/// The instructions whose result depends on other invocations of the subgroup or on the order
/// in which invocations run.
fn interacts(inst: &Inst) -> Option<&'static str> {
    match inst {
        Inst::Group { .. } | Inst::Ballot { .. } => Some("a group non-uniform instruction"),
        Inst::SubgroupMma { .. } => Some("OpSubgroupMatrixMultiplyAccumulateINTEL"),
        Inst::Atomic { .. } => Some("an atomic instruction (its order between invocations)"),
        _ => None,
    }
}

/// Whether the JIT compiles `inst` to native code (else it calls the interpreter for it).
pub fn native(inst: &Inst) -> bool {
    use crate::program::ConvOp;
    let float = |fmt: &FloatFmt| matches!(fmt, FloatFmt::F32 | FloatFmt::F64);
    match inst {
        Inst::Copy { .. }
        | Inst::Const { .. }
        | Inst::IBin { .. }
        | Inst::ICmp { .. }
        | Inst::Logic { .. }
        | Inst::LNot { .. }
        | Inst::Select { .. }
        | Inst::FNeg { .. }
        | Inst::AccessChain { .. }
        | Inst::Load { .. }
        | Inst::Store { .. } => true,
        Inst::IUn { .. } => true,
        Inst::Convert { op, .. } => match *op {
            ConvOp::UConvert { .. } | ConvOp::SConvert { .. } => true,
            // fp32/fp64 → 8/16/32/64-bit integers (truncating, saturating: the hardware's
            // saturating conversions); integers of at most 32 bits (or signed 64) → fp32/fp64
            // rounded to nearest even (the hardware's conversions of a 64-bit signed value,
            // correctly rounded).
            ConvOp::FToI { from, to, .. } => float(&from) && matches!(to, 8 | 16 | 32 | 64),
            ConvOp::IToF {
                from,
                to,
                signed,
                mode,
            } => {
                float(&to)
                    && mode == spvx_num::float::RoundingMode::NearestEven
                    && (from <= 32 || (from == 64 && signed))
            }
            _ => false,
        },
        Inst::FBin { op, fmt, .. } => {
            float(fmt) && matches!(op, FBinOp::Add | FBinOp::Sub | FBinOp::Mul | FBinOp::Div)
        }
        Inst::FCmp { fmt, .. } => float(fmt),
        Inst::IntDot {
            spec, count, acc, ..
        } => {
            // Packed 4×8 words. Plain: exact modulo 2^64. AccSat: products of 8-bit components
            // fit 17 bits and their sum 19, so with at least 20 result bits nothing is
            // undefined, and a result of at most 32 bits keeps sum + accumulator in an i64.
            *count == 0
                && spec.component_bits() == 8
                && match acc {
                    None => spec.result_bits() <= 64,
                    Some(_) => (20..=32).contains(&spec.result_bits()),
                }
        }
        _ => false,
    }
}

/// The registers a natively compiled instruction writes.
pub fn native_dsts(inst: &Inst, mut f: impl FnMut(Slot)) {
    match inst {
        Inst::Copy { dst, .. }
        | Inst::Const { dst, .. }
        | Inst::IBin { dst, .. }
        | Inst::IUn { dst, .. }
        | Inst::ICmp { dst, .. }
        | Inst::Logic { dst, .. }
        | Inst::LNot { dst, .. }
        | Inst::Select { dst, .. }
        | Inst::Convert { dst, .. }
        | Inst::FBin { dst, .. }
        | Inst::FNeg { dst, .. }
        | Inst::FCmp { dst, .. }
        | Inst::AccessChain { dst, .. }
        | Inst::IntDot { dst, .. } => f(*dst),
        Inst::Load { dst, leaves, .. } => leaves.iter().for_each(|l| f(dst + l.slot)),
        _ => {}
    }
}

/// The edges a terminator takes (with their phi copies), in order.
pub fn edges(term: &Term) -> Vec<&crate::program::Edge> {
    match term {
        Term::Branch(e) => vec![e],
        Term::BranchConditional {
            on_true, on_false, ..
        } => vec![on_true, on_false],
        Term::Switch { cases, default, .. } => {
            cases.iter().map(|(_, e)| e).chain([default]).collect()
        }
        _ => Vec::new(),
    }
}

/// The segments control can go to from `term` (edges, a call's or barrier's continuation).
pub fn successors(term: &Term) -> Vec<SegId> {
    match term {
        Term::Call { next, .. } | Term::Barrier { next } => vec![*next],
        other => edges(other).iter().map(|e| e.target).collect(),
    }
}

/// Registers that live in Cranelift variables, per function: those the function's native
/// instructions and phi copies write, unless some other function writes them too (those stay in
/// memory, where every function sees them).
pub fn variables(prog: &Program, native_code: bool) -> Vec<Vec<Slot>> {
    let mut owner: HashMap<Slot, Option<usize>> = HashMap::new();
    for (fi, f) in prog.functions.iter().enumerate() {
        let mut mark = |s: Slot| {
            owner
                .entry(s)
                .and_modify(|o| {
                    if *o != Some(fi) {
                        *o = None;
                    }
                })
                .or_insert(Some(fi));
        };
        for inst in f.code.iter().filter(|i| native_code && native(i)) {
            native_dsts(inst, &mut mark);
        }
        for seg in &f.segments {
            for e in edges(&seg.term) {
                for (d, _) in e.copies.iter() {
                    mark(*d);
                }
            }
        }
    }
    let mut per = vec![Vec::new(); prog.functions.len()];
    for (slot, o) in owner {
        if let Some(fi) = o {
            per[fi].push(slot);
        }
    }
    for v in &mut per {
        v.sort_unstable();
    }
    per
}

/// The memory space of pointers known at compile time, per register: a constant pointer (a
/// global variable), or an access chain (which keeps its base's space) from one.
pub fn known_spaces(
    f: &Function,
    constants: &HashMap<Slot, u64>,
    native_code: bool,
) -> HashMap<Slot, u32> {
    let mut defs: HashMap<Slot, u32> = HashMap::new();
    if !native_code {
        return HashMap::new();
    }
    for inst in &f.code {
        native_dsts(inst, |s| *defs.entry(s).or_default() += 1);
    }
    for seg in &f.segments {
        for e in edges(&seg.term) {
            for (d, _) in e.copies.iter() {
                *defs.entry(*d).or_default() += 1;
            }
        }
    }
    let mut known: HashMap<Slot, u32> = HashMap::new();
    // Code order is block order: an access chain's base is defined before it (dominance) or
    // is a constant.
    for inst in &f.code {
        if let Inst::AccessChain { dst, base, .. } = inst
            && defs.get(dst) == Some(&1)
        {
            let space = constants
                .get(base)
                .map(|p| crate::memory::Ptr(*p).space())
                .or_else(|| known.get(base).copied());
            if let Some(s) = space {
                known.insert(*dst, s);
            }
        }
    }
    known
}

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
                    return Err("irreducible control flow around a workgroup barrier".into());
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
        let barriers: Vec<SegId> = (0..n as SegId)
            .filter(|&s| matches!(f.segments[s as usize].term, Term::Barrier { .. }))
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

/// The registers a natively compiled instruction reads.
pub fn native_reads(inst: &Inst, mut f: impl FnMut(Slot)) {
    match inst {
        Inst::Copy { src, .. } => f(*src),
        Inst::Const { .. } => {}
        Inst::IBin { a, b, .. }
        | Inst::ICmp { a, b, .. }
        | Inst::Logic { a, b, .. }
        | Inst::FBin { a, b, .. }
        | Inst::FCmp { a, b, .. } => {
            f(*a);
            f(*b);
        }
        Inst::IUn { a, .. } | Inst::LNot { a, .. } | Inst::Convert { a, .. } => f(*a),
        Inst::FNeg { a, .. } => f(*a),
        Inst::Select { cond, a, b, .. } => {
            f(*cond);
            f(*a);
            f(*b);
        }
        Inst::AccessChain { base, steps, .. } => {
            f(*base);
            steps.iter().for_each(|s| f(s.index));
        }
        Inst::Load { ptr, .. } => f(*ptr),
        Inst::Store { ptr, src, leaves } => {
            f(*ptr);
            leaves.iter().for_each(|l| f(src + l.slot));
        }
        Inst::IntDot { a, b, acc, .. } => {
            f(*a);
            f(*b);
            if let Some(c) = acc {
                f(*c);
            }
        }
        _ => {}
    }
}

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
