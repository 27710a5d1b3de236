//! What the JIT needs to know about a program before it lowers it: whether it may run it at
//! all, which instructions it compiles natively, which registers live in Cranelift variables,
//! and the memory space of pointers known at compile time (loops around barriers: `loops`;
//! liveness: `liveness`).

use crate::program::{FBinOp, FloatFmt, Function, Inst, Program, SegId, Slot, Term};
use spvx_spirv::op::Op;
use std::collections::HashMap;

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
    if let Some(why) = super::atomics::order_free(prog) {
        return Some(why);
    }
    if prog.other_barriers > 0 {
        return Some("a control barrier with Subgroup (or wider than Workgroup) scope".into());
    }
    for (fi, f) in prog.functions.iter().enumerate() {
        if let Some(what) = f.code.iter().find_map(interacts) {
            return Some(format!("{what}: invocations of a subgroup interact"));
        }
        if fi == prog.entry as usize {
            continue;
        }
        if f.segments
            .iter()
            .any(|s| matches!(s.term, Term::Barrier { .. }))
        {
            return Some("a workgroup barrier inside a called function".into());
        }
        if f.code.iter().any(|i| super::group::shape(i).is_some()) {
            return Some("a subgroup instruction inside a called function".into());
        }
    }
    let entry = &prog.functions[prog.entry as usize];
    if entry
        .segments
        .iter()
        .any(|s| matches!(s.term, Term::Barrier { .. }))
        && let Err(why) = super::loops::BarrierLoops::new(entry)
    {
        return Some(why);
    }
    super::group::unsafe_position(entry)
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
/// in which invocations run, other than the subgroup instructions the JIT runs at a rendezvous
/// (`group`).
fn interacts(inst: &Inst) -> Option<&'static str> {
    match inst {
        Inst::Group { .. } | Inst::Ballot { .. } if super::group::shape(inst).is_none() => {
            Some("a group non-uniform instruction on more than 8 components")
        }
        Inst::SubgroupMma { .. } => Some(Op::SubgroupMatrixMultiplyAccumulateINTEL.name()),
        _ => None,
    }
}

/// Why the interpreter should run `prog` although the JIT could: when at least
/// `MAX_CALLOUT_PERCENT` % of its instructions would be call-outs. A call-out runs one
/// invocation's instruction through the interpreter (saving and reloading the native
/// registers around it), where the interpreter runs it for a whole subgroup at once. Measured
/// on the 2-core VM of 2026-11-24 (JIT time / interpreter time, whole `spvx run`): the
/// benchmark kernels without call-outs 1/1.6 to 1/15; the corpus's functions.comp (10.8 %
/// call-outs) 1.0; conversions.comp (14.6 %) and dot.comp (15.6 %) 2; tensor transpose (18 %)
/// 1.75; VALVE dot reduction (27 %) 1.2; fixed-point sqrt + sin (36 %) 1.0.
pub fn prefers_interpreter(prog: &Program) -> Option<String> {
    if let Some(why) = shares_workgroup_memory_without_barriers(prog) {
        return Some(why);
    }
    let code = prog.functions.iter().flat_map(|f| f.code.iter());
    let total = code.clone().count();
    // (Subgroup instructions are no call-outs: they run once per subgroup, at a rendezvous.)
    // A fixed-point function wider than 64 bits counts as one: the JIT calls the interpreter's
    // function for it; narrower ones call spvx-num's fast path directly (`lower_fixed`).
    let called = code
        .filter(|i| {
            let host_fixed = matches!(i, Inst::Fixed { op, .. }
                if super::lower_fixed::fixed_index(prog, op).is_none());
            (!native(i) || host_fixed) && super::group::shape(i).is_none()
        })
        .count();
    (called > 0 && called * 100 >= super::MAX_CALLOUT_PERCENT * total).then(|| {
        format!(
            "{called} of its {total} instructions would be call-outs into the interpreter \
             ({}% or more): the interpreter runs it faster",
            super::MAX_CALLOUT_PERCENT
        )
    })
}

/// Why the order in which invocations run shows in `prog`'s results: it has Workgroup
/// memory and no workgroup barrier. Such a program can pass values between invocations through
/// Workgroup memory only by data races (a CTS test, `ptr_access_chain/workgroup_no_stride`,
/// has each invocation read the word its neighbour stored just before). The interpreter runs a
/// subgroup's invocations in lockstep, instruction by instruction, as SIMT hardware does and
/// as such tests expect; the JIT runs each invocation to its end before the next, so its reads
/// would see other values. The Vulkan memory model allows both for a racy program, but the
/// engine gives one answer whether or not the JIT runs, so these programs run on the
/// interpreter. A race-free program of this kind (each invocation reading only what it
/// stored) gives the same bytes either way and only runs slower.
fn shares_workgroup_memory_without_barriers(prog: &Program) -> Option<String> {
    let barrier = prog
        .functions
        .iter()
        .flat_map(|f| f.segments.iter())
        .any(|s| matches!(s.term, Term::Barrier { .. }));
    (prog.workgroup_bytes > 0 && !barrier).then(|| {
        "Workgroup memory without a workgroup barrier: invocations could see one another's \
         stores only in the interpreter's lockstep order"
            .to_string()
    })
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
        Inst::IUn { .. } | Inst::IMath { .. } => true,
        Inst::Convert { op, .. } => match *op {
            ConvOp::UConvert { .. } | ConvOp::SConvert { .. } => true,
            // fp32/fp64 → 8/16/32/64-bit integers (truncating, saturating: the hardware's
            // saturating conversions); integers of at most 32 bits (or signed 64) → fp32/fp64
            // rounded to nearest even (the hardware's conversions of a 64-bit signed value,
            // correctly rounded).
            ConvOp::FToI { from, to, mode, .. } => {
                float(&from)
                    && matches!(to, 8 | 16 | 32 | 64)
                    && mode == spvx_num::float::RoundingMode::TowardZero
            }
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
        other => super::ext::is_ext(other),
    }
}

/// Whether `inst` is a packed 4×8-bit integer dot product the JIT computes inline with one
/// `pmaddwd` (`lower_ops::packed_dot`; other integer dot products: `ext`). Plain: exact modulo
/// 2^64. AccSat: products of 8-bit components fit 17 bits and their sum 19, so with at least
/// 20 result bits nothing is undefined, and a result of at most 32 bits keeps sum +
/// accumulator in an i64.
pub fn packed_inline(inst: &Inst) -> bool {
    match inst {
        Inst::IntDot {
            spec, count, acc, ..
        } => {
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
        | Inst::IMath { dst, .. }
        | Inst::ICmp { dst, .. }
        | Inst::Logic { dst, .. }
        | Inst::LNot { dst, .. }
        | Inst::Select { dst, .. }
        | Inst::Convert { dst, .. }
        | Inst::FBin { dst, .. }
        | Inst::FNeg { dst, .. }
        | Inst::FCmp { dst, .. }
        | Inst::AccessChain { dst, .. } => f(*dst),
        Inst::Load { dst, leaves, .. } => leaves.iter().for_each(|l| f(dst + l.slot)),
        other => {
            if let Some((_, writes)) = super::ext::operands(other) {
                writes.into_iter().for_each(f);
            }
        }
    }
}

/// The registers that hold one value for the whole run: `constants` (never written), and the
/// registers whose every write is a copy of a constant, all of one value (as an `OpLoad` of a
/// tensor variable compiles). A register is an SSA result's own (registers are never reused),
/// so such a copy, its only definition, dominates every read of it.
pub fn run_constants(prog: &Program, constants: &HashMap<Slot, u64>) -> HashMap<Slot, u64> {
    let mut copies: HashMap<Slot, Option<u64>> = HashMap::new();
    let mut write = |s: Slot, v: Option<u64>| {
        copies
            .entry(s)
            .and_modify(|o| {
                if *o != v {
                    *o = None
                }
            })
            .or_insert(v);
    };
    for f in &prog.functions {
        for inst in &f.code {
            match inst {
                Inst::Copy { dst, src } => write(*dst, constants.get(src).copied()),
                other => native_dsts(other, |s| write(s, None)),
            }
        }
        for seg in &f.segments {
            for e in edges(&seg.term) {
                e.copies.iter().for_each(|(d, _)| write(*d, None));
            }
            match &seg.term {
                Term::Call { args, .. } => args.iter().for_each(|(d, _)| write(*d, None)),
                Term::ReturnValue { .. } => {
                    (f.ret.0..f.ret.0 + f.ret.1).for_each(|d| write(d, None))
                }
                _ => {}
            }
        }
    }
    let mut all = constants.clone();
    all.extend(copies.into_iter().filter_map(|(s, v)| Some((s, v?))));
    all
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

/// The segments execution resumes at after a workgroup barrier of `f` (each once, in order).
pub fn barrier_continuations(f: &Function) -> Vec<SegId> {
    let mut next: Vec<SegId> = f
        .segments
        .iter()
        .filter_map(|s| match s.term {
            Term::Barrier { next } => Some(next),
            _ => None,
        })
        .collect();
    next.sort_unstable();
    next.dedup();
    next
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
        Inst::IMath { func, args, .. } => args[..func.arity()].iter().for_each(|a| f(*a)),
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
        other => {
            if let Some((reads, _)) = super::ext::operands(other) {
                reads.into_iter().for_each(f);
            }
        }
    }
}
