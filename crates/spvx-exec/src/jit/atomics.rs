//! Atomics in the JIT. The JIT runs a workgroup's invocations one after another, the
//! interpreter a subgroup's lanes in lock step, so atomics happen in another order. An atomic
//! whose result nothing reads and whose operation is commutative and associative on integers
//! (add, subtract, increment, decrement, min, max, and, or, xor) leaves the same memory in
//! every order: those the JIT runs ([`order_free`] says which programs qualify); any other
//! atomic (exchange, compare-exchange, load, store, the float ones, or one whose old value is
//! used) keeps the program on the interpreter.
//!
//! Lowering: a 32-bit atomic on a storage buffer, in bounds, 4-aligned and writable, is one
//! locked read-modify-write on the buffer's word (the interpreter's `SharedBuffer::atomic32`
//! is a compare-exchange loop on the same `AtomicU32`, so both are atomic with respect to each
//! other); every other case (64-bit: the buffer's lock; workgroup or private memory; a case
//! the interpreter reports) runs the interpreter's implementation for the invocation
//! (`ext::call_host`).

use super::lower::{FnLower, I64};
use super::runtime::{SPACE_BASE, SPACE_LEN, SPACE_PRIVATE_SUMS, SPACE_READ_ONLY, SPACE_SIZE};
use crate::program::{AtomicOp, Inst, Program, Slot, Term};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{AtomicRmwOp, InstBuilder, MemFlagsData, types};
use std::collections::{HashMap, HashSet};

/// The atomic operations whose final memory does not depend on the order of the invocations.
fn commutative(op: AtomicOp) -> bool {
    matches!(
        op,
        AtomicOp::IIncrement
            | AtomicOp::IDecrement
            | AtomicOp::IAdd
            | AtomicOp::ISub
            | AtomicOp::SMin
            | AtomicOp::UMin
            | AtomicOp::SMax
            | AtomicOp::UMax
            | AtomicOp::And
            | AtomicOp::Or
            | AtomicOp::Xor
    )
}

/// Why the atomics of `prog` keep it off the JIT (`None`: it has none, or only order-free
/// ones).
pub fn order_free(prog: &Program) -> Option<String> {
    let atomics: Vec<&Inst> = prog
        .functions
        .iter()
        .flat_map(|f| f.code.iter())
        .filter(|i| matches!(i, Inst::Atomic { .. }))
        .collect();
    for a in atomics {
        let Inst::Atomic { op, bits, dst, .. } = a else {
            continue;
        };
        if !commutative(*op) || !matches!(bits, 32 | 64) {
            return Some(format!(
                "an atomic {op:?} (its order between invocations decides the result)"
            ));
        }
        if let Some(d) = dst
            && read_anywhere(prog, *d)
        {
            return Some(
                "an atomic whose old value is used (it depends on the order between invocations)"
                    .into(),
            );
        }
    }
    None
}

/// The storage-buffer spaces of `prog` that only 32-bit atomic additions (add, subtract,
/// increment, decrement) touch: no load, store or other atomic goes through a pointer into
/// them. Such a buffer's final contents are its initial contents plus the sum of every
/// addition, in any order and split in any way, and no invocation can see it in between:
/// each worker may add into its own zeroed copy without a lock, and the copies are added into
/// the buffer when the dispatch ends (`driver::Worker`). Conservative: a program of more than
/// one function, with a pointer whose space is not known at compile time, or with any
/// instruction outside a list of pure ones and the memory accesses above, has none.
/// `constants`: the registers that hold the same value for the whole run.
pub fn private_sums(prog: &Program, constants: &HashMap<Slot, u64>) -> Vec<u32> {
    let [f] = &prog.functions[..] else {
        return Vec::new();
    };
    let known = super::analysis::known_spaces(f, constants, true);
    let space = |p: Slot| {
        constants
            .get(&p)
            .map(|c| crate::memory::Ptr(*c).space())
            .or_else(|| known.get(&p).copied())
    };
    let (mut sums, mut other) = (HashSet::new(), HashSet::new());
    for inst in &f.code {
        let (ptr, sum) = match inst {
            Inst::Atomic { op, bits, ptr, .. } => (
                *ptr,
                *bits == 32
                    && matches!(
                        op,
                        AtomicOp::IAdd
                            | AtomicOp::ISub
                            | AtomicOp::IIncrement
                            | AtomicOp::IDecrement
                    ),
            ),
            Inst::Load { ptr, .. } | Inst::Store { ptr, .. } => (*ptr, false),
            Inst::Copy { .. }
            | Inst::Const { .. }
            | Inst::IBin { .. }
            | Inst::IUn { .. }
            | Inst::IMath { .. }
            | Inst::IWide { .. }
            | Inst::ICmp { .. }
            | Inst::FBin { .. }
            | Inst::FNeg { .. }
            | Inst::FCmp { .. }
            | Inst::Logic { .. }
            | Inst::LNot { .. }
            | Inst::Select { .. }
            | Inst::Convert { .. }
            | Inst::Bitcast { .. }
            | Inst::AccessChain { .. }
            | Inst::ArrayLength { .. } => continue,
            _ => return Vec::new(),
        };
        let Some(s) = space(ptr) else {
            return Vec::new();
        };
        if sum {
            sums.insert(s);
        } else {
            other.insert(s);
        }
    }
    let mut out: Vec<u32> = sums
        .difference(&other)
        .copied()
        .filter(|s| *s >= crate::memory::SPACE_BUFFER0)
        .collect();
    out.sort_unstable();
    out
}

/// Whether any instruction or terminator of `prog` may read register `s` (conservative: an
/// instruction whose operands are not listed here counts as reading it).
fn read_anywhere(prog: &Program, s: Slot) -> bool {
    prog.functions.iter().any(|f| {
        f.code.iter().any(|i| may_read(i, s))
            || f.segments.iter().any(|seg| term_reads(&seg.term, s))
    })
}

fn term_reads(t: &Term, s: Slot) -> bool {
    let edge = |e: &crate::program::Edge| e.copies.iter().any(|(_, src)| *src == s);
    match t {
        Term::Branch(e) => edge(e),
        Term::BranchConditional {
            cond,
            on_true,
            on_false,
        } => *cond == s || edge(on_true) || edge(on_false),
        Term::Switch {
            selector,
            cases,
            default,
            ..
        } => *selector == s || edge(default) || cases.iter().any(|(_, e)| edge(e)),
        Term::ReturnValue { src, count } => (*src..*src + *count).contains(&s),
        Term::Call { args, .. } => args.iter().any(|(_, a)| *a == s),
        _ => false,
    }
}

fn may_read(inst: &Inst, s: Slot) -> bool {
    let within = |first: Slot, n: u32| (first..first.saturating_add(n)).contains(&s);
    match inst {
        Inst::Const { .. } => false,
        Inst::Copy { src, .. } => *src == s,
        Inst::IBin { a, b, .. }
        | Inst::IWide { a, b, .. }
        | Inst::ICmp { a, b, .. }
        | Inst::FBin { a, b, .. }
        | Inst::FCmp { a, b, .. }
        | Inst::Logic { a, b, .. }
        | Inst::Ptr { a, b, .. } => *a == s || *b == s,
        Inst::IUn { a, .. }
        | Inst::FNeg { a, .. }
        | Inst::FClass { a, .. }
        | Inst::LNot { a, .. }
        | Inst::Convert { a, .. } => *a == s,
        Inst::Select { cond, a, b, .. } => [*cond, *a, *b].contains(&s),
        Inst::BitFieldInsert {
            base,
            insert,
            offset,
            count,
            ..
        } => [*base, *insert, *offset, *count].contains(&s),
        Inst::BitFieldExtract {
            base,
            offset,
            count,
            ..
        } => [*base, *offset, *count].contains(&s),
        Inst::ExtractDyn {
            base, count, index, ..
        } => within(*base, *count) || *index == s,
        Inst::InsertDyn {
            src,
            count,
            value,
            index,
            ..
        } => within(*src, *count) || *value == s || *index == s,
        Inst::SelectBuffer {
            base, index, count, ..
        } => {
            *base == s
                || *index == s
                || matches!(count, crate::program::ArrayCount::Runtime(r) if *r == s)
        }
        Inst::AccessChain { .. } | Inst::Load { .. } | Inst::Store { .. } => {
            let mut hit = false;
            super::analysis::native_reads(inst, |r| hit |= r == s);
            hit
        }
        Inst::CopyMemory { dst, src, .. } => *dst == s || *src == s,
        Inst::CopyMemorySized { dst, src, size, .. } => [*dst, *src, *size].contains(&s),
        Inst::ArrayLength { ptr, .. } => *ptr == s,
        Inst::Atomic {
            ptr,
            value,
            comparator,
            ..
        } => *ptr == s || *value == Some(s) || *comparator == Some(s),
        Inst::Ballot { pred, .. } => *pred == s,
        Inst::Group { a, b, .. } => within(*a, 8) || within(*b, 8),
        Inst::Math { args, .. } | Inst::IMath { args, .. } | Inst::Ocl { args, .. } => {
            args.contains(&s)
        }
        Inst::TensorPack { parts, .. } => parts.contains(&s),
        Inst::TensorExtract { src, .. } => *src == s,
        Inst::VarInit { init, .. } => init.is_some(),
        other => match super::ext::operands(other) {
            Some((reads, _)) => reads.contains(&s),
            // SubgroupMma, Print, Glsl, Wide: not listed.
            None => true,
        },
    }
}

impl FnLower<'_, '_, '_> {
    /// An order-free atomic ([`order_free`]) whose result nothing reads.
    pub fn atomic(&mut self, inst: &Inst, reads: &[Slot], writes: &[Slot]) {
        let Inst::Atomic {
            op,
            bits: 32,
            ptr,
            value,
            ..
        } = inst
        else {
            self.call_host(reads, writes);
            return;
        };
        let rmw = match op {
            AtomicOp::IIncrement | AtomicOp::IAdd => AtomicRmwOp::Add,
            AtomicOp::IDecrement | AtomicOp::ISub => AtomicRmwOp::Sub,
            AtomicOp::SMin => AtomicRmwOp::Smin,
            AtomicOp::UMin => AtomicRmwOp::Umin,
            AtomicOp::SMax => AtomicRmwOp::Smax,
            AtomicOp::UMax => AtomicRmwOp::Umax,
            AtomicOp::And => AtomicRmwOp::And,
            AtomicOp::Or => AtomicRmwOp::Or,
            AtomicOp::Xor => AtomicRmwOp::Xor,
            _ => {
                self.call_host(reads, writes);
                return;
            }
        };
        let (slow, join) = (self.b.create_block(), self.b.create_block());
        self.b.set_cold_block(slow);
        let p = self.val(*ptr);
        let space = self.b.ins().ushr_imm_s(p, 48);
        // Buffers only (spaces from SPACE_BUFFER0 on), inside the table.
        let below = self.b.ins().icmp_imm_s(
            IntCC::UnsignedLessThan,
            space,
            crate::memory::SPACE_BUFFER0 as i64,
        );
        let past = self
            .b
            .ins()
            .icmp(IntCC::UnsignedGreaterThanOrEqual, space, self.space_count);
        let other = self.b.ins().bor(below, past);
        self.slow_if(other, slow);
        let at = self.b.ins().imul_imm_s(space, SPACE_SIZE);
        let obj = self.b.ins().iadd(self.table, at);
        let t = MemFlagsData::trusted();
        let base = self.b.ins().load(I64, t, obj, SPACE_BASE);
        let len = self.b.ins().load(I64, t, obj, SPACE_LEN);
        let ro = self.b.ins().load(I64, t, obj, SPACE_READ_ONLY);
        let off = self.b.ins().band_imm_s(p, (1 << 48) - 1);
        let end = self.b.ins().iadd_imm_s(off, 4);
        let outside = self.b.ins().icmp(IntCC::UnsignedGreaterThan, end, len);
        let odd = self.b.ins().band_imm_s(off, 3);
        let bad = self.b.ins().bor(ro, odd);
        let bad = self.b.ins().icmp_imm_s(IntCC::NotEqual, bad, 0);
        let bad = self.b.ins().bor(bad, outside);
        self.slow_if(bad, slow);
        let addr = self.b.ins().iadd(base, off);
        let v = match value {
            Some(v) => {
                let v = self.val(*v);
                self.b.ins().ireduce(types::I32, v)
            }
            None => self.b.ins().iconst(types::I32, 1),
        };
        let space = self.known.get(ptr).copied().or_else(|| {
            let c = self.shared.constants.get(ptr)?;
            Some(crate::memory::Ptr(*c).space())
        });
        let private = space.is_some_and(|s| self.shared.private_sums.contains(&s));
        if private {
            // The worker's own copy (`Space::private_sums`): a plain read-modify-write.
            let own = self.b.ins().load(I64, t, obj, SPACE_PRIVATE_SUMS);
            let (plain, locked) = (self.b.create_block(), self.b.create_block());
            self.b.ins().brif(own, plain, &[], locked, &[]);
            self.b.switch_to_block(plain);
            let flags = MemFlagsData::trusted();
            let old = self.b.ins().load(types::I32, flags, addr, 0);
            let new = match rmw {
                AtomicRmwOp::Add => self.b.ins().iadd(old, v),
                _ => self.b.ins().isub(old, v),
            };
            self.b.ins().store(flags, new, addr, 0);
            self.b.ins().jump(join, &[]);
            self.b.switch_to_block(locked);
        }
        self.b
            .ins()
            .atomic_rmw(types::I32, MemFlagsData::trusted(), rmw, addr, v);
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(slow);
        self.call_host(reads, writes);
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
    }

    /// Goes to `slow` when `cond` is set, else on in a new block.
    fn slow_if(&mut self, cond: cranelift_codegen::ir::Value, slow: cranelift_codegen::ir::Block) {
        let cont = self.b.create_block();
        self.b.ins().brif(cond, slow, &[], cont, &[]);
        self.b.switch_to_block(cont);
    }
}
