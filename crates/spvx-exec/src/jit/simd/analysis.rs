//! Which programs the vector-lanes function runs, and how it holds each register: a 32-bit
//! (or narrower) value as `LANES / 4` `i32x4` vectors, a pointer as `LANES / 2` `i64x2`
//! vectors of byte offsets into a memory space known at compile time, a constant as a scalar
//! splatted where it is used. Anything else (64-bit values, calls, barriers, subgroup
//! instructions, private memory, instructions without a vector lowering) leaves the program to
//! the scalar JIT.

use super::pattern::Lanes;
use crate::jit::analysis::{edges, known_spaces, native_dsts, native_reads};
use crate::jit::lower_loop::loop_builtins;
use crate::program::{
    BuiltinVar, ConvOp, FBinOp, FloatFmt, IUnOp, Inst, Program, Scalar, Slot, Term,
};
use spvx_num::mixdot::MixOp;
use std::collections::{HashMap, HashSet};

/// How the vector-lanes function holds a register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The same value for every lane and the whole run (`Program::init`, never written).
    Const(u64),
    /// A value of at most 32 bits per lane: `i32x4` vectors.
    Narrow,
    /// A pointer into memory space `space` (known at compile time): `i64x2` offsets.
    Ptr(u32),
}

/// What the lowering needs to know about an eligible program.
pub struct Plan {
    pub kinds: HashMap<Slot, Kind>,
    /// Registers read but written by no instruction and no constant (built-ins and uniform
    /// values of the template): loaded from the lanes' register files whenever lanes take
    /// new invocations.
    pub inputs: Vec<Slot>,
    /// Registers live when some segment starts (a converted branch merges those its arms
    /// write), and for each segment those live when it starts (`VLower::guarded`).
    pub live_anywhere: HashSet<Slot>,
    pub live_in: Vec<HashSet<Slot>>,
    /// The built-ins the function computes into each lane's register file.
    pub builtins: Vec<BuiltinVar>,
    /// How the lanes' values of each register are expected to relate (`pattern`).
    pub lanes: HashMap<Slot, Lanes>,
}

impl Plan {
    pub fn kind(&self, s: Slot) -> Kind {
        self.kinds.get(&s).copied().unwrap_or(Kind::Narrow)
    }

    /// How register `s`'s lanes are expected to relate (a constant's: the same).
    pub fn lanes(&self, s: Slot) -> Lanes {
        self.lanes.get(&s).copied().unwrap_or(Lanes::Same)
    }
}

/// The plan for `prog`, or why the vector-lanes function does not run it.
pub fn plan(prog: &Program) -> Result<Plan, String> {
    let f = &prog.functions[prog.entry as usize];
    if prog.functions.len() != 1 {
        return Err("more than one function".into());
    }
    if prog.private_bytes > 0 || prog.reset_registers {
        return Err("private memory or registers reset per invocation".into());
    }
    let builtins = loop_builtins(prog, false).ok_or("built-ins it does not compute")?;
    if prog
        .builtins
        .iter()
        .any(|b| b.reg.is_some() && b.component_bytes > 4)
    {
        return Err("a built-in wider than 32 bits".into());
    }
    let mut written: HashSet<Slot> = HashSet::new();
    let mut read: HashSet<Slot> = HashSet::new();
    for inst in &f.code {
        if !vectorised(inst) {
            return Err(format!("no vector lowering for {inst:?}"));
        }
        native_dsts(inst, |s| {
            written.insert(s);
        });
        native_reads(inst, |s| {
            read.insert(s);
        });
    }
    for seg in &f.segments {
        match &seg.term {
            Term::Branch(_)
            | Term::BranchConditional { .. }
            | Term::Return
            | Term::Kill
            | Term::Unreachable => {}
            Term::ReturnValue { .. } => {}
            other => return Err(format!("no vector lowering for the terminator {other:?}")),
        }
        if let Term::BranchConditional { cond, .. } = seg.term {
            read.insert(cond);
        }
        for e in edges(&seg.term) {
            for (d, s) in e.copies.iter() {
                written.insert(*d);
                read.insert(*s);
            }
        }
    }
    let init: HashMap<Slot, u64> = prog.init.iter().copied().collect();
    let mut kinds: HashMap<Slot, Kind> = HashMap::new();
    let constants: HashMap<Slot, u64> = init
        .iter()
        .filter(|(s, _)| !written.contains(s))
        .map(|(s, v)| (*s, *v))
        .collect();
    for (s, v) in &constants {
        kinds.insert(*s, Kind::Const(*v));
    }
    // Pointers: access chains into a space known at compile time, read only as the pointer of
    // an access chain, load or store.
    let known = known_spaces(f, &constants, true);
    for inst in &f.code {
        if let Inst::AccessChain { dst, .. } = inst {
            let space = known
                .get(dst)
                .ok_or("an access chain into a memory space not known at compile time")?;
            kinds.insert(*dst, Kind::Ptr(*space));
        }
    }
    let is_ptr = |s: Slot| match kinds.get(&s) {
        Some(Kind::Ptr(_)) => true,
        Some(Kind::Const(p)) => (p >> 48) != 0,
        _ => false,
    };
    for inst in &f.code {
        let mut values: Vec<Slot> = Vec::new();
        let mut bad = match inst {
            Inst::AccessChain { base, steps, .. } => {
                values.extend(steps.iter().map(|s| s.index));
                !is_ptr(*base) || steps.iter().any(|s| s.index_bits > 32)
            }
            Inst::Load { ptr, leaves, .. } => {
                !is_ptr(*ptr) || leaves.iter().any(|l| !narrow_leaf(l.scalar))
            }
            Inst::Store { ptr, src, leaves } => {
                values.extend(leaves.iter().map(|l| src + l.slot));
                !is_ptr(*ptr) || leaves.iter().any(|l| !narrow_leaf(l.scalar))
            }
            other => {
                native_reads(other, |s| values.push(s));
                false
            }
        };
        bad |= values
            .iter()
            .any(|s| is_ptr(*s) || !narrow_const(&kinds, *s));
        if bad {
            return Err(format!("a pointer or a 64-bit value in {inst:?}"));
        }
        if let Inst::Const { value, .. } = inst
            && *value > u32::MAX as u64
        {
            return Err("a 64-bit constant".into());
        }
    }
    for seg in &f.segments {
        for e in edges(&seg.term) {
            for (d, s) in e.copies.iter() {
                if is_ptr(*d) || is_ptr(*s) || !narrow_const(&kinds, *s) {
                    return Err("a pointer or a 64-bit value through a phi".into());
                }
            }
        }
        if let Term::BranchConditional { cond, .. } = seg.term
            && (is_ptr(cond) || !narrow_const(&kinds, cond))
        {
            return Err("a branch on a pointer".into());
        }
    }
    for s in &written {
        if let Some(Kind::Ptr(_)) = kinds.get(s) {
            continue;
        }
        kinds.insert(*s, Kind::Narrow);
    }
    let mut inputs: Vec<Slot> = read
        .iter()
        .filter(|s| !written.contains(s) && !kinds.contains_key(s))
        .copied()
        .collect();
    inputs.sort_unstable();
    let vars: HashSet<Slot> = written.iter().chain(&inputs).copied().collect();
    let live_in = crate::jit::liveness::live_in(f, &vars, true);
    let live_anywhere = live_in.iter().flatten().copied().collect();
    let mut plan = Plan {
        kinds,
        inputs,
        live_anywhere,
        live_in,
        builtins,
        lanes: HashMap::new(),
    };
    plan.lanes = super::pattern::lanes(prog, &plan);
    Ok(plan)
}

/// Whether the vector lanes are expected to run `prog` (which `plan` accepts) faster than the
/// scalar JIT: it has a loop, and the instructions of its loops that run lane by lane in
/// vector lanes (loads and stores other than those `pattern` expects to be whole, divisions by
/// a variable, shifts by a variable amount) are at most a fifth of them. Measured
/// (docs/benchmarks.md): a divergent arithmetic loop (the branch-heavy Collatz kernel) about
/// 1.65× faster in vector lanes; straight-line code that loads and stores (the vector add)
/// slower; loops of loads and dots (the GEMMs, the VALVE reductions) 1.1–1.45× faster once
/// the loads the same in every lane are one load.
pub fn preferred(prog: &Program, plan: &Plan) -> bool {
    let f = &prog.functions[prog.entry as usize];
    let mut in_loop = vec![false; f.segments.len()];
    for (s, seg) in f.segments.iter().enumerate() {
        for h in crate::jit::analysis::successors(&seg.term) {
            let h = h as usize;
            if h <= s {
                in_loop[h..=s].iter_mut().for_each(|x| *x = true);
            }
        }
    }
    let constant = |s: Slot| matches!(plan.kind(s), Kind::Const(_));
    let (mut lanes, mut vectors) = (0usize, 0usize);
    for (seg, _) in f.segments.iter().zip(&in_loop).filter(|(_, l)| **l) {
        for inst in &f.code[seg.start as usize..seg.end as usize] {
            let by_lane = match inst {
                // (A load or store through a pointer expected the same in every lane, or
                // stepping by its leaf from lane to lane, is tried whole first: `mem`.)
                Inst::Load { ptr, leaves, .. } | Inst::Store { ptr, leaves, .. } => {
                    leaves.iter().any(|l| match plan.lanes(*ptr) {
                        Lanes::Same => !matches!(inst, Inst::Load { .. }),
                        Lanes::Step(s) => s != 4 || l.scalar.mem_bytes() != 4,
                        Lanes::Varies => true,
                    })
                }
                Inst::IBin { op, b, .. } => {
                    use crate::program::IBinOp::*;
                    matches!(
                        op,
                        UDiv | SDiv | UMod | SRem | SMod | Shl | ShrLogical | ShrArith
                    ) && !constant(*b)
                }
                _ => false,
            };
            if by_lane {
                lanes += 1;
            } else {
                vectors += 1;
            }
        }
    }
    vectors > 0 && lanes * 5 <= vectors + lanes
}

/// Whether register `s` holds a value of at most 32 bits when it is a constant.
fn narrow_const(kinds: &HashMap<Slot, Kind>, s: Slot) -> bool {
    !matches!(kinds.get(&s), Some(Kind::Const(v)) if *v > u32::MAX as u64)
}

fn narrow_leaf(s: Scalar) -> bool {
    match s {
        Scalar::Bool => true,
        Scalar::Int(b) => b <= 32,
        Scalar::Float(f) => f == FloatFmt::F32,
        Scalar::Ptr => false,
    }
}

/// Whether the vector-lanes lowering has `inst` (on values of at most 32 bits).
fn vectorised(inst: &Inst) -> bool {
    match inst {
        Inst::Copy { .. }
        | Inst::Const { .. }
        | Inst::Logic { .. }
        | Inst::LNot { .. }
        | Inst::Select { .. }
        | Inst::AccessChain { .. }
        | Inst::Load { .. }
        | Inst::Store { .. } => true,
        Inst::IBin { bits, .. } | Inst::ICmp { bits, .. } => *bits <= 32,
        // One value reinterpreted at the same width: a copy.
        Inst::Bitcast {
            dst_bits,
            dst_count,
            src_bits,
            src_count,
            ..
        } => {
            (*dst_count == 1 && *src_count == 1 && dst_bits == src_bits && *dst_bits <= 32)
                || (*src_count == 1 && *src_bits == 32 && *dst_count == 2 && *dst_bits == 16)
        }
        // Packed 4×8-bit integer dots with 32-bit results (`intdot`).
        Inst::IntDot { spec, .. } => {
            crate::jit::analysis::packed_inline(inst) && spec.result_bits() == 32
        }
        // The f16/bf16 pair dot with an f32 accumulator (`mixdot`).
        Inst::MixDot { op, .. } => *op == MixOp::Dot2Acc32,
        Inst::IUn { op, bits, .. } => *bits <= 32 && matches!(op, IUnOp::Negate | IUnOp::Not),
        Inst::Convert {
            op: ConvOp::UConvert { from, to } | ConvOp::SConvert { from, to },
            ..
        } => *from <= 32 && *to <= 32,
        Inst::FBin { op, fmt, .. } => {
            *fmt == FloatFmt::F32
                && matches!(op, FBinOp::Add | FBinOp::Sub | FBinOp::Mul | FBinOp::Div)
        }
        Inst::FNeg { fmt, .. } | Inst::FCmp { fmt, .. } => *fmt == FloatFmt::F32,
        _ => false,
    }
}
