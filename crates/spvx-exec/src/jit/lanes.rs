//! A whole subgroup in one native call: the entry function lowered once per lane, with the
//! interpreter's scheduler compiled in. Used for programs with subgroup instructions (and no
//! calls or private memory) at subgroup sizes up to [`LANES`].
//!
//! Each lane's next segment is a variable (`u64::MAX`: finished). A dispatcher picks the
//! smallest segment some lane waits at and makes exactly the lanes waiting there active — the
//! min-PC rule of `exec::control` — and runs that segment: every instruction once per lane,
//! each lane's results written only where it is active (a register no other segment reads is
//! written unconditionally), bails only for active lanes; loads, stores, divisions and
//! call-outs, which must not run for an inactive lane, behind a branch on its flag. The
//! terminator sends each active lane along its edge (its phi copies, its next segment). Since
//! the lanes active in a segment are the interpreter's, a subgroup instruction runs in place on
//! them: the common reductions and scans natively, the others through the interpreter's own
//! implementation (`runtime::group_callout`). Steps are spent per segment run, as the
//! interpreter spends them per subgroup, so the count and the step-limit decision are its own.
//!
//! Every segment is lowered twice: masked as above, and for when all [`LANES`] lanes are
//! active (the dispatcher checks), without masks or guards. There a conditional branch that
//! every lane takes the same way jumps straight to the target's all-lanes version, without
//! the dispatcher: uniform loops and branches run as straight code for eight invocations.
//!
//! A workgroup barrier suspends the whole subgroup as the interpreter's does: every lane that
//! has not finished must be active at it (else the interpreter reports it, and the run goes to
//! it); each lane's next block and its variables live there go to its state, and the function
//! returns `BARRIER`; the driver runs the workgroup's subgroups in rounds as the interpreter
//! releases them, calling again with `RESUME`.
//!
//! Native signature as the others: `fn(ctx, regs, lanes) -> status`, lane `l`'s registers at
//! `regs + 8 · state_words · l`, `lanes` the number of invocations in the subgroup (plus
//! [`RESUME`] after a barrier), `JitCtx::invocation` the first one's index and
//! `JitCtx::local` its LocalInvocationId.

use super::analysis;
use super::group;
use super::lower::FnLower;
use super::lower_loop::{Part, Workgroup, next_local, store_builtins};
use super::runtime::{
    CTX_BUDGET, CTX_INVOCATION, CTX_LOCAL, CTX_SPACE_COUNT, CTX_SPACES, CTX_STEPS,
};
use super::status;
use crate::program::{BuiltinVar, Edge, IBinOp, Inst, Program, Slot, Term};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{Block, FuncRef, InstBuilder, MemFlagsData, Value, types};
use cranelift_frontend::{Switch, Variable};
use std::collections::HashSet;

mod barrier;
mod subgroup;

const I64: types::Type = types::I64;

/// The most lanes (the largest subgroup size) one call runs.
pub const LANES: u32 = 8;

/// The largest entry function (instructions) the lanes function is built for: it lowers every
/// instruction 16 times (8 lanes, masked and all-lanes versions). Larger programs use the
/// rendezvous (`group`).
pub const MAX_LANES_INSTRUCTIONS: usize = 512;

/// The largest lanes function (Cranelift IR values) that is compiled; a larger one is dropped
/// after lowering and the program uses the rendezvous. Cranelift's time grows with the values
/// (about 4 µs each on the 2-core VM under load: 0.11 s for 26,000, 0.7 s for 163,000 — the
/// 157 instructions of tests/corpus/jit/subgroup_lanes.comp —, 1.6 s for 311,000), and the
/// values grow as blocks × lanes × variables: a fuzzed module of 97 instructions and 39
/// segments made 261,000 (1.3 s). The limit keeps the compile under about a second.
pub const MAX_LANES_VALUES: usize = 200_000;

/// A lane's next segment once it has finished.
const FINISHED: i64 = -1;

/// Set in the native function's third argument (above the lane count) to resume a subgroup
/// that waits at a workgroup barrier.
pub const RESUME: i64 = 1 << 32;

/// What the lowering of all lanes shares.
pub(super) struct LaneState {
    /// Each lane's register file.
    pub regs: Vec<Value>,
    /// Each lane's next segment and its active flag (an `i8` 0 or 1) in the segment running.
    pub next: Vec<Variable>,
    pub active: Vec<Variable>,
    /// Registers some segment reads before writing them: written only where a lane is active.
    pub masked: HashSet<Slot>,
    /// The first invocation's index (`JitCtx::invocation` at entry).
    pub first: Value,
    pub dispatch: Block,
    /// The interpreter's implementation of a subgroup instruction (`runtime::group_callout`).
    pub group_callout: FuncRef,
    /// Each segment's version for all lanes active (`seg_blocks` has the masked one), and
    /// whether that version is being lowered.
    pub full_blocks: Vec<Block>,
    pub full: bool,
    /// The word of a lane's state where a barrier leaves its next block.
    pub resume_word: i64,
}

/// Whether the lanes lowering runs `prog`: an entry function with subgroup instructions, no
/// calls or private memory (the lanes share one private space otherwise); workgroup barriers
/// suspend the whole subgroup (`lanes_barrier`). Programs without subgroup instructions run
/// faster one invocation at a time: measured on the 2-core
/// VM (2026-11-24, subgroup size 8, same run), the lanes function took 285 ms for the
/// branch-heavy benchmark kernel against 28 ms (divergent branches go through the dispatcher,
/// and eight lanes' registers do not fit the machine's), and 35 against 28 ms for the vector
/// add; the int8 GEMM 28 ms either way. (The workgroup-memory reduction with its 9 barriers
/// gained 13 % in the lanes function, 31.5 against 36 ms: not enough to risk the branch-heavy
/// kind of loss on programs with barriers.)
pub fn eligible(prog: &Program) -> bool {
    let entry = &prog.functions[prog.entry as usize];
    entry.code.len() <= MAX_LANES_INSTRUCTIONS
        && prog.private_bytes == 0
        && entry.code.iter().any(|i| group::shape(i).is_some())
        && !entry
            .segments
            .iter()
            .any(|s| matches!(s.term, Term::Call { .. }))
}

/// Instructions that must not run for an inactive lane (they would read or write memory, trap,
/// or call the interpreter), so are lowered behind a branch on the lane's flag.
fn guarded_by_branch(inst: &Inst, native: bool) -> bool {
    !native
        || super::ext::calls_host(inst)
        || matches!(
            inst,
            Inst::Load { .. }
                | Inst::Store { .. }
                | Inst::IBin {
                    op: IBinOp::UDiv | IBinOp::UMod | IBinOp::SDiv | IBinOp::SRem | IBinOp::SMod,
                    ..
                }
        )
}

impl FnLower<'_, '_, '_> {
    /// Lowers the entry function for a whole subgroup (the module comment).
    /// With `builtins` (what `lower_loop::loop_builtins` accepts), the function computes the
    /// invocations' built-ins itself; else the driver writes them.
    pub(super) fn lower_lanes(
        &mut self,
        group_callout: FuncRef,
        state_words: usize,
        builtins: Option<&[BuiltinVar]>,
    ) {
        let entry_block = self.b.current_block().expect("entry");
        let word = self.b.block_params(entry_block)[2];
        let count = self.b.ins().band_imm_s(word, RESUME - 1);
        let resuming = self
            .b
            .ins()
            .icmp_imm_s(IntCC::UnsignedGreaterThanOrEqual, word, RESUME);
        let invariant = crate::jit::runtime::invariant();
        self.budget = self.b.ins().load(I64, invariant, self.ctx, CTX_BUDGET);
        self.table = self.b.ins().load(I64, invariant, self.ctx, CTX_SPACES);
        self.space_count = self.b.ins().load(I64, invariant, self.ctx, CTX_SPACE_COUNT);
        let trusted = MemFlagsData::trusted();
        let steps = self.b.ins().load(I64, trusted, self.ctx, CTX_STEPS);
        self.b.def_var(self.steps, steps);
        let first = self.b.ins().load(I64, trusted, self.ctx, CTX_INVOCATION);
        // (Once per subgroup, for every block the dispatcher runs.)
        self.hoist_spaces(true);
        let masked = self.live.iter().flatten().copied().collect();
        let regs: Vec<Value> = (0..LANES)
            .map(|l| {
                let off = (l as usize * state_words * 8) as i64;
                self.b.ins().iadd_imm_s(self.regs, off)
            })
            .collect();
        let next: Vec<Variable> = (0..LANES).map(|_| self.b.declare_var(I64)).collect();
        let active = (0..LANES).map(|_| self.b.declare_var(types::I8)).collect();
        let dispatch = self.b.create_block();
        let full_blocks = self
            .f
            .segments
            .iter()
            .map(|_| self.b.create_block())
            .collect();
        self.lanes = Some(super::lanes::LaneState {
            regs: regs.clone(),
            next: next.clone(),
            active,
            masked,
            first,
            dispatch,
            group_callout,
            full_blocks,
            full: false,
            resume_word: self.shared.prog.slot_count as i64,
        });
        let (fresh, resume) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(resuming, resume, &[], fresh, &[]);

        // A fresh start: every present lane at the entry block, the others finished.
        self.b.switch_to_block(fresh);
        let start = self.b.ins().iconst(I64, self.f.entry as i64);
        let finished = self.b.ins().iconst(I64, FINISHED);
        for (l, n) in next.iter().enumerate() {
            let present = self
                .b
                .ins()
                .icmp_imm_s(IntCC::UnsignedGreaterThan, count, l as i64);
            let at = self.b.ins().select(present, start, finished);
            self.b.def_var(*n, at);
        }
        if let Some(list) = builtins {
            self.lane_builtins(list, first, &regs);
        }
        self.b.ins().jump(dispatch, &[]);

        // After a workgroup barrier (`lanes_barrier`).
        self.b.switch_to_block(resume);
        self.resume_lanes();

        self.b.switch_to_block(self.bail);
        let s = self.b.ins().iconst(I64, status::BAIL as i64);
        self.b.ins().return_(&[s]);

        self.lower_dispatch();
        for (i, seg) in self.f.segments.iter().enumerate() {
            for full in [false, true] {
                self.lane_state_mut().full = full;
                let blk = if full {
                    self.lane_state().full_blocks[i]
                } else {
                    self.seg_blocks[i]
                };
                self.b.switch_to_block(blk);
                self.spend_steps(seg.end - seg.start + 1);
                self.check_steps();
                for k in seg.start..seg.end {
                    self.lower_lanes_inst(k);
                }
                if full {
                    self.lower_full_term(&seg.term);
                } else {
                    self.lower_lanes_term(&seg.term);
                }
            }
        }
    }

    /// Stores each lane's built-ins of `list` into its registers `regs[l]`: lane `l` is
    /// invocation `first + l` of the workgroup.
    fn lane_builtins(&mut self, list: &[BuiltinVar], first: Value, regs: &[Value]) {
        let group = Workgroup::load(self.b, self.ctx);
        // Lane 0's LocalInvocationId from the context (the driver steps it), the others' by
        // stepping.
        let t = MemFlagsData::trusted();
        let mut local = [0, 1, 2].map(|i| self.b.ins().load(I64, t, self.ctx, CTX_LOCAL + 8 * i));
        for (l, r) in regs.iter().enumerate() {
            let index = self.b.ins().iadd_imm_s(first, l as i64);
            store_builtins(self.b, list, *r, &group, (index, local), Part::All);
            local = next_local(self.b, local, group.size);
        }
    }

    fn lane_state(&self) -> &LaneState {
        self.lanes.as_ref().expect("lanes lowering")
    }

    fn lane_state_mut(&mut self) -> &mut LaneState {
        self.lanes.as_mut().expect("lanes lowering")
    }

    /// Lane `l`'s active flag as a guard: `None` in the all-lanes version.
    fn guard_of(&mut self, l: u32) -> Option<Value> {
        (!self.lane_state().full).then(|| self.active(l))
    }

    /// Makes lane `l` the one `val` and `set` use, under `guard` (`None`: it is known active).
    fn enter_lane(&mut self, l: u32, guard: Option<Value>) {
        self.lane = l;
        self.regs = self.lane_state().regs[l as usize];
        self.guard = guard;
    }

    /// Lane `l`'s active flag in the running segment.
    fn active(&mut self, l: u32) -> Value {
        let v = self.lane_state().active[l as usize];
        self.b.use_var(v)
    }

    /// The dispatcher: the smallest next segment of any lane (none left: the subgroup is
    /// done), the lanes waiting there made active, and a jump to it.
    fn lower_dispatch(&mut self) {
        let st = self.lane_state();
        let (dispatch, next, active) = (st.dispatch, st.next.clone(), st.active.clone());
        self.b.switch_to_block(dispatch);
        let mut min = self.b.use_var(next[0]);
        for n in &next[1..] {
            let v = self.b.use_var(*n);
            let lt = self.b.ins().icmp(IntCC::UnsignedLessThan, v, min);
            min = self.b.ins().select(lt, v, min);
        }
        let done = self.b.ins().icmp_imm_s(IntCC::Equal, min, FINISHED);
        let finish = self.b.create_block();
        let run = self.b.create_block();
        self.b.ins().brif(done, finish, &[], run, &[]);
        self.b.switch_to_block(finish);
        self.return_status(status::DONE);
        self.b.switch_to_block(run);
        let mut all = None;
        for (n, a) in next.iter().zip(&active) {
            let v = self.b.use_var(*n);
            let here = self.b.ins().icmp(IntCC::Equal, v, min);
            self.b.def_var(*a, here);
            all = Some(match all {
                Some(x) => self.b.ins().band(x, here),
                None => here,
            });
        }
        let (full, masked) = (self.b.create_block(), self.b.create_block());
        let all = all.expect("lanes");
        self.b.ins().brif(all, full, &[], masked, &[]);
        let full_blocks = self.lane_state().full_blocks.clone();
        for (from, blocks) in [(full, full_blocks), (masked, self.seg_blocks.clone())] {
            self.b.switch_to_block(from);
            let mut sw = Switch::new();
            for (i, blk) in blocks.iter().enumerate() {
                sw.set_entry(i as u128, *blk);
            }
            sw.emit(self.b, min, self.bail);
        }
    }

    /// Instruction `k` of the entry function for every lane.
    fn lower_lanes_inst(&mut self, k: u32) {
        let inst = &self.f.code[k as usize];
        self.at = k;
        if group::shape(inst).is_some() {
            self.lanes_group(k);
            return;
        }
        let native = self.shared.native_code && analysis::native(inst);
        let callout = (!native).then(|| self.new_callout(k));
        if native {
            self.shared.native += 1;
        }
        for l in 0..LANES {
            let a = match self.guard_of(l) {
                None => {
                    self.enter_lane(l, None);
                    match callout {
                        Some(id) => self.lane_callout(l, id),
                        None => self.lower_native(inst),
                    }
                    continue;
                }
                Some(a) => a,
            };
            if !guarded_by_branch(inst, native) {
                self.enter_lane(l, Some(a));
                self.lower_native(inst);
                continue;
            }
            let body = self.b.create_block();
            let join = self.b.create_block();
            self.b.ins().brif(a, body, &[], join, &[]);
            self.b.switch_to_block(body);
            self.enter_lane(l, None);
            match callout {
                Some(id) => self.lane_callout(l, id),
                None => self.lower_native(inst),
            }
            self.b.ins().jump(join, &[]);
            self.b.switch_to_block(join);
        }
        self.enter_lane(0, None);
    }

    /// Lane `l` (active) runs call-out `id`: its variables to its register file, the call with
    /// its invocation index in the context, its variables back.
    fn lane_callout(&mut self, l: u32, id: usize) {
        let first = self.lane_state().first;
        let inv = self.b.ins().iadd_imm_s(first, l as i64);
        self.b
            .ins()
            .store(MemFlagsData::trusted(), inv, self.ctx, CTX_INVOCATION);
        self.call_out(id);
    }

    /// The terminator of a segment for every active lane, then back to the dispatcher.
    fn lower_lanes_term(&mut self, term: &Term) {
        match term {
            Term::Branch(e) => {
                for l in 0..LANES {
                    let a = self.active(l);
                    self.lane_edge(l, a, e);
                }
            }
            Term::BranchConditional {
                cond,
                on_true,
                on_false,
            } => {
                for l in 0..LANES {
                    let a = self.active(l);
                    self.enter_lane(l, None);
                    let c = self.val(*cond);
                    let yes = self.b.ins().icmp_imm_s(IntCC::NotEqual, c, 0);
                    let no = self.b.ins().icmp_imm_s(IntCC::Equal, c, 0);
                    let t = self.b.ins().band(a, yes);
                    let f = self.b.ins().band(a, no);
                    self.lane_edge(l, t, on_true);
                    self.lane_edge(l, f, on_false);
                }
            }
            Term::Switch {
                selector,
                cases,
                default,
                ..
            } => {
                for l in 0..LANES {
                    let mut rest = self.active(l);
                    self.enter_lane(l, None);
                    let v = self.val(*selector);
                    // The first case equal to the selector, as the interpreter takes it.
                    for (value, e) in cases.iter() {
                        let eq = self.b.ins().icmp_imm_s(IntCC::Equal, v, *value as i64);
                        let ne = self.b.ins().icmp_imm_s(IntCC::NotEqual, v, *value as i64);
                        let m = self.b.ins().band(rest, eq);
                        rest = self.b.ins().band(rest, ne);
                        self.lane_edge(l, m, e);
                    }
                    self.lane_edge(l, rest, default);
                }
            }
            Term::Return | Term::ReturnValue { .. } | Term::Kill => {
                let fin = self.b.ins().iconst(I64, FINISHED);
                for l in 0..LANES {
                    let a = self.active(l);
                    self.send(l, a, fin);
                }
            }
            Term::Barrier { next } => {
                self.lanes_barrier(*next);
                return;
            }
            // The interpreter reports OpUnreachable; calls are not lowered here (`eligible`).
            Term::Unreachable | Term::Call { .. } => {
                self.b.ins().jump(self.bail, &[]);
                self.enter_lane(0, None);
                return;
            }
        }
        self.enter_lane(0, None);
        let dispatch = self.lane_state().dispatch;
        self.b.ins().jump(dispatch, &[]);
    }

    /// The terminator of a segment's all-lanes version: a branch every lane takes the same way
    /// goes straight to the target's all-lanes version; otherwise each lane's next segment is
    /// set and the dispatcher runs next.
    fn lower_full_term(&mut self, term: &Term) {
        match term {
            Term::Branch(e) => {
                self.all_lanes_edge(e);
            }
            Term::BranchConditional {
                cond,
                on_true,
                on_false,
            } => {
                let mut yes = Vec::new();
                let (mut all, mut any) = (None, None);
                for l in 0..LANES {
                    self.enter_lane(l, None);
                    let c = self.val(*cond);
                    let y = self.b.ins().icmp_imm_s(IntCC::NotEqual, c, 0);
                    let n = self.b.ins().icmp_imm_s(IntCC::Equal, c, 0);
                    all = Some(all.map_or(y, |a| self.b.ins().band(a, y)));
                    any = Some(any.map_or(y, |a| self.b.ins().bor(a, y)));
                    yes.push((y, n));
                }
                let (all, any) = (all.expect("lanes"), any.expect("lanes"));
                let t = self.b.create_block();
                let not_all = self.b.create_block();
                let f = self.b.create_block();
                let split = self.b.create_block();
                self.b.ins().brif(all, t, &[], not_all, &[]);
                self.b.switch_to_block(not_all);
                self.b.ins().brif(any, split, &[], f, &[]);
                self.b.switch_to_block(t);
                self.all_lanes_edge(on_true);
                self.b.switch_to_block(f);
                self.all_lanes_edge(on_false);
                self.b.switch_to_block(split);
                for (l, (y, n)) in (0..LANES).zip(yes) {
                    self.lane_edge(l, y, on_true);
                    self.lane_edge(l, n, on_false);
                }
                self.enter_lane(0, None);
                let dispatch = self.lane_state().dispatch;
                self.b.ins().jump(dispatch, &[]);
            }
            Term::Switch { .. } => {
                // Per lane, as when some lanes are inactive (they are all active here).
                self.lower_lanes_term(term);
            }
            Term::Return | Term::ReturnValue { .. } | Term::Kill => {
                self.enter_lane(0, None);
                self.return_status(status::DONE);
            }
            Term::Barrier { next } => self.lanes_barrier(*next),
            Term::Unreachable | Term::Call { .. } => {
                self.enter_lane(0, None);
                self.b.ins().jump(self.bail, &[]);
            }
        }
    }

    /// Every lane takes edge `e`: the phi copies of each, then the target's all-lanes version.
    fn all_lanes_edge(&mut self, e: &Edge) {
        for l in 0..LANES {
            self.enter_lane(l, None);
            if e.parallel {
                let values: Vec<Value> = e.copies.iter().map(|(_, s)| self.val(*s)).collect();
                for ((d, _), v) in e.copies.iter().zip(values) {
                    self.set(*d, v);
                }
            } else {
                for (d, s) in e.copies.iter() {
                    let v = self.val(*s);
                    self.set(*d, v);
                }
            }
        }
        self.enter_lane(0, None);
        let target = self.lane_state().full_blocks[e.target as usize];
        self.b.ins().jump(target, &[]);
    }

    /// Lane `l` takes edge `e` where `taken` is 1: its phi copies, then its next segment.
    fn lane_edge(&mut self, l: u32, taken: Value, e: &Edge) {
        self.enter_lane(l, Some(taken));
        if e.parallel {
            let values: Vec<Value> = e.copies.iter().map(|(_, s)| self.val(*s)).collect();
            for ((d, _), v) in e.copies.iter().zip(values) {
                self.set_masked(*d, v, taken);
            }
        } else {
            for (d, s) in e.copies.iter() {
                let v = self.val(*s);
                self.set_masked(*d, v, taken);
            }
        }
        let t = self.b.ins().iconst(I64, e.target as i64);
        self.send(l, taken, t);
    }

    /// `slot = v` for the current lane where `g` is 1.
    fn set_masked(&mut self, slot: Slot, v: Value, g: Value) {
        let old = self.val(slot);
        let v = self.b.ins().select(g, v, old);
        let saved = self.guard.take();
        self.set(slot, v);
        self.guard = saved;
    }

    /// Lane `l`'s next segment becomes `seg` where `g` is 1.
    fn send(&mut self, l: u32, g: Value, seg: Value) {
        let n = self.lane_state().next[l as usize];
        let old = self.b.use_var(n);
        let v = self.b.ins().select(g, seg, old);
        self.b.def_var(n, v);
    }
}
