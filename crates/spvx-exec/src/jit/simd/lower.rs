//! The vector-lanes function's frame: the loop over a workgroup's chunks of [`LANES`]
//! invocations, the vectorised min-PC dispatcher, each segment's masked and all-lanes
//! versions, the terminators and register access (`ops` and `mem` lower the instructions).

use super::LANES;
use super::analysis::{Kind, Plan};
use crate::jit::lower_loop::{Workgroup, loop_test, next_local, store_builtins};
use crate::jit::runtime::{CTX_BUDGET, CTX_SPACE_COUNT, CTX_SPACES, CTX_STEPS};
use crate::jit::status;
use crate::program::{Edge, Function, Program, SegId, Slot, Term};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{
    Block, InstBuilder, MemFlagsData, StackSlotData, StackSlotKind, Value, types,
};
use cranelift_frontend::{FunctionBuilder, Switch, Variable};
use std::collections::HashMap;

pub(super) const I64: types::Type = types::I64;
pub(super) const I32: types::Type = types::I32;
pub(super) const I32X4: types::Type = types::I32X4;
pub(super) const I64X2: types::Type = types::I64X2;

/// A lane's next segment once it has finished (the largest, so that the dispatcher's unsigned
/// minimum picks it last).
const FINISHED: i64 = u32::MAX as i64;

/// Vectors of four 32-bit lanes per value.
pub(super) const H: usize = LANES / 4;
/// Vectors of two 64-bit lanes per pointer.
pub(super) const Q: usize = 2 * H;
pub(super) const HALVES: [usize; H] = indices();
pub(super) const QUARTERS: [usize; Q] = indices();

const fn indices<const N: usize>() -> [usize; N] {
    let mut a = [0; N];
    let mut i = 0;
    while i < N {
        a[i] = i;
        i += 1;
    }
    a
}

/// A 32-bit value of the lanes: lanes 0–3 in the first vector, 4–7 in the next.
pub(super) type V = [Value; H];
/// A pointer's byte offsets of the lanes, two per vector.
pub(super) type P = [Value; Q];

/// The lowering of the vector-lanes function.
pub(super) struct VLower<'a, 'b, 'p> {
    pub b: &'a mut FunctionBuilder<'b>,
    pub f: &'p Function,
    pub plan: &'a Plan,
    pub narrow: HashMap<Slot, [Variable; H]>,
    pub ptrs: HashMap<Slot, [Variable; Q]>,
    next: [Variable; H],
    active: [Variable; H],
    /// The smallest next segment of the inactive lanes (`FINISHED`: none), while a masked
    /// version runs: a segment before it can be entered straight, keeping the active lanes
    /// (the dispatcher would choose the same).
    rest: Variable,
    /// How many lanes are active (the step cost of a segment is per active lane).
    count: Variable,
    steps: Variable,
    /// Lowering the all-lanes version of a segment (no masks).
    pub full: bool,
    pub ctx: Value,
    regs: Value,
    budget: Value,
    /// For each memory space a pointer of the program points into: base, length, read-only.
    pub spaces: HashMap<u32, (Value, Value, Value)>,
    pub bail: Block,
    dispatch: Block,
    chunk_done: Block,
    masked_blocks: Vec<Block>,
    full_blocks: Vec<Block>,
    /// Where the loads and stores of inactive lanes go (16 bytes of the native stack).
    pub dummy: Value,
    /// Instructions lowered.
    pub lowered: usize,
    /// While an arm of a converted branch is lowered (`select`): the values it gives
    /// registers, instead of writing them.
    pub overlay: Option<HashMap<Slot, V>>,
}

impl<'a, 'b, 'p> VLower<'a, 'b, 'p> {
    pub fn new(
        b: &'a mut FunctionBuilder<'b>,
        prog: &'p Program,
        plan: &'a Plan,
    ) -> VLower<'a, 'b, 'p> {
        let f = &prog.functions[prog.entry as usize];
        let mut narrow = HashMap::new();
        let mut ptrs = HashMap::new();
        let mut slots: Vec<(&Slot, &Kind)> = plan.kinds.iter().collect();
        slots.sort_unstable_by_key(|(s, _)| **s);
        for (s, k) in slots {
            match k {
                Kind::Narrow => {
                    narrow.insert(*s, [0; H].map(|_| b.declare_var(I32X4)));
                }
                Kind::Ptr(_) => {
                    ptrs.insert(*s, [0; Q].map(|_| b.declare_var(I64X2)));
                }
                Kind::Const(_) => {}
            }
        }
        for s in &plan.inputs {
            narrow.insert(*s, [0; H].map(|_| b.declare_var(I32X4)));
        }
        let next = [0; H].map(|_| b.declare_var(I32X4));
        let active = [0; H].map(|_| b.declare_var(I32X4));
        let rest = b.declare_var(I32);
        let count = b.declare_var(I64);
        let steps = b.declare_var(I64);
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        let p = b.block_params(entry).to_vec();
        let bail = b.create_block();
        b.set_cold_block(bail);
        let dispatch = b.create_block();
        let chunk_done = b.create_block();
        let masked_blocks = f.segments.iter().map(|_| b.create_block()).collect();
        let full_blocks = f.segments.iter().map(|_| b.create_block()).collect();
        let ss = b.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, 16, 4));
        let dummy = b.ins().stack_addr(I64, ss, 0);
        VLower {
            b,
            f,
            plan,
            narrow,
            ptrs,
            next,
            active,
            rest,
            count,
            steps,
            full: false,
            ctx: p[0],
            regs: p[1],
            budget: p[0],
            spaces: HashMap::new(),
            bail,
            dispatch,
            chunk_done,
            masked_blocks,
            full_blocks,
            dummy,
            lowered: 0,
            overlay: None,
        }
    }

    /// Lowers the whole function: `fn(ctx, regs, invocations) -> status`, `regs` the register
    /// files of [`LANES`] lanes (`state_words` words each).
    pub fn lower(&mut self, state_words: usize) {
        let n = self.b.block_params(self.b.current_block().expect("entry"))[2];
        let t = MemFlagsData::trusted();
        let invariant = t.with_readonly().with_can_move();
        self.budget = self.b.ins().load(I64, invariant, self.ctx, CTX_BUDGET);
        let table = self.b.ins().load(I64, invariant, self.ctx, CTX_SPACES);
        let count = self.b.ins().load(I64, invariant, self.ctx, CTX_SPACE_COUNT);
        let steps = self.b.ins().load(I64, t, self.ctx, CTX_STEPS);
        self.b.def_var(self.steps, steps);
        self.load_spaces(table, count);
        let group = Workgroup::load(self.b, self.ctx);
        // The chunk loop: its first invocation and LocalInvocationId.
        let first = self.b.declare_var(I64);
        let local = [0; 3].map(|_| self.b.declare_var(I64));
        let zero = self.b.ins().iconst(I64, 0);
        self.b.def_var(first, zero);
        for v in local {
            self.b.def_var(v, zero);
        }
        let head = self.b.create_block();
        self.b.ins().jump(head, &[]);

        self.b.switch_to_block(head);
        let c = self.b.use_var(first);
        let (chunk, finish) = (self.b.create_block(), self.b.create_block());
        loop_test(self.b, c, n, finish, chunk);
        self.b.switch_to_block(finish);
        self.return_status(status::DONE);

        // A chunk: each lane's built-ins into its register file, the inputs from there.
        self.b.switch_to_block(chunk);
        let mut at = local.map(|v| self.b.use_var(v));
        for l in 0..LANES {
            let regs = self
                .b
                .ins()
                .iadd_imm_s(self.regs, (l * state_words * 8) as i64);
            let index = self.b.ins().iadd_imm_s(c, l as i64);
            store_builtins(self.b, &self.plan.builtins, regs, &group, index, at);
            at = next_local(self.b, at, group.size);
        }
        for (v, x) in local.iter().zip(at) {
            self.b.def_var(*v, x);
        }
        for s in self.plan.inputs.clone() {
            let z = self.splat_i32(0);
            let mut halves = [z; H];
            for l in 0..LANES {
                let off = ((l * state_words + s as usize) * 8) as i32;
                let w = self.b.ins().load(I32, t, self.regs, off);
                halves[l / 4] = self.b.ins().insertlane(halves[l / 4], w, (l % 4) as u8);
            }
            let vars = self.narrow[&s];
            for h in HALVES {
                self.b.def_var(vars[h], halves[h]);
            }
        }
        // Every other register starts afresh in each chunk (so that none is live from one
        // chunk into the next: a masked write reads the register's old value).
        let z32 = self.splat_i32(0);
        let z64 = {
            let z = self.b.ins().iconst(I64, 0);
            self.b.ins().splat(I64X2, z)
        };
        let mut fresh: Vec<(&Slot, &[Variable; H])> = self
            .narrow
            .iter()
            .filter(|(s, _)| !self.plan.inputs.contains(s))
            .collect();
        fresh.sort_unstable_by_key(|(s, _)| **s);
        for (_, vars) in fresh.into_iter() {
            for v in vars {
                self.b.def_var(*v, z32);
            }
        }
        let mut fresh: Vec<(&Slot, &[Variable; Q])> = self.ptrs.iter().collect();
        fresh.sort_unstable_by_key(|(s, _)| **s);
        for (_, vars) in fresh.into_iter() {
            for v in vars {
                self.b.def_var(*v, z64);
            }
        }
        // Lanes past the workgroup's end start finished.
        let left = self.b.ins().isub(n, c);
        let left = self.b.ins().ireduce(I32, left);
        let left = self.b.ins().splat(I32X4, left);
        let start = self.splat_i32(self.f.entry as i64);
        let done = self.splat_i32(FINISHED);
        for h in HALVES {
            let iota = self.iota(4 * h as i64);
            let present = self.b.ins().icmp(IntCC::UnsignedLessThan, iota, left);
            let v = self.b.ins().bitselect(present, start, done);
            self.b.def_var(self.next[h], v);
        }
        self.b.ins().jump(self.dispatch, &[]);

        self.b.switch_to_block(self.chunk_done);
        let c = self.b.use_var(first);
        let c = self.b.ins().iadd_imm_s(c, LANES as i64);
        self.b.def_var(first, c);
        self.b.ins().jump(head, &[]);

        self.b.switch_to_block(self.bail);
        let s = self.b.ins().iconst(I64, status::BAIL as i64);
        self.b.ins().return_(&[s]);

        self.lower_dispatch();
        let header = loop_headers(self.f);
        let f = self.f;
        for (i, seg) in f.segments.iter().enumerate() {
            for full in [false, true] {
                self.full = full;
                let blk = if full {
                    self.full_blocks[i]
                } else {
                    self.masked_blocks[i]
                };
                self.b.switch_to_block(blk);
                self.spend(seg.end - seg.start + 1);
                // (Segments are entered straight, without the dispatcher: check at loop
                // headers, as the scalar lowering does.)
                if header[i] {
                    self.check_steps();
                }
                for k in seg.start..seg.end {
                    self.lower_inst(&f.code[k as usize]);
                    if !full {
                        self.lowered += 1;
                    }
                }
                self.lower_term(&seg.term);
            }
        }
        self.full = false;
    }

    /// The base, length and read-only flag of every memory space a pointer of the program
    /// points into (a space past the table is the null space: every access out of bounds).
    fn load_spaces(&mut self, table: Value, count: Value) {
        let mut spaces: Vec<u32> = self
            .plan
            .kinds
            .values()
            .filter_map(|k| match k {
                Kind::Ptr(s) => Some(*s),
                Kind::Const(p) if p >> 48 != 0 => Some((p >> 48) as u32),
                _ => None,
            })
            .collect();
        spaces.sort_unstable();
        spaces.dedup();
        let t = MemFlagsData::trusted().with_readonly();
        for s in spaces {
            let space = crate::jit::lower::load_space(self.b, t, (table, count), s);
            self.spaces.insert(s, space);
        }
    }

    /// The dispatcher: the smallest next segment of any lane (all finished: the chunk is
    /// done), the lanes waiting there made active, the budget checked, and a jump to the
    /// segment's all-lanes version when every lane is active, else its masked version.
    fn lower_dispatch(&mut self) {
        self.b.switch_to_block(self.dispatch);
        let n = self.next.map(|v| self.b.use_var(v));
        let min = self.umin_lanes(n);
        let finished = self.b.ins().iconst(I32, FINISHED);
        let done = self.b.ins().icmp(IntCC::Equal, min, finished);
        let run = self.b.create_block();
        self.b.ins().brif(done, self.chunk_done, &[], run, &[]);
        self.b.switch_to_block(run);
        self.check_steps();
        let all = self.activate(min);
        let min = self.b.ins().uextend(I64, min);
        let (full, masked) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(all, full, &[], masked, &[]);
        for (from, blocks) in [
            (full, self.full_blocks.clone()),
            (masked, self.masked_blocks.clone()),
        ] {
            self.b.switch_to_block(from);
            let mut sw = Switch::new();
            for (i, blk) in blocks.iter().enumerate() {
                sw.set_entry(i as u128, *blk);
            }
            sw.emit(self.b, min, self.bail);
        }
    }

    /// Makes the lanes whose next segment is `min` (the smallest) active, and the smallest of
    /// the others' the rest; returns whether every lane is active.
    fn activate(&mut self, min: Value) -> Value {
        let n = self.next.map(|v| self.b.use_var(v));
        let at = self.b.ins().splat(I32X4, min);
        let a = n.map(|x| self.b.ins().icmp(IntCC::Equal, x, at));
        self.set_active(a);
        let done = self.splat_i32(FINISHED);
        let others = HALVES.map(|h| self.b.ins().bitselect(a[h], done, n[h]));
        let rest = self.umin_lanes(others);
        self.b.def_var(self.rest, rest);
        let both = self.fold(&a, Fold::And);
        self.b.ins().vall_true(both)
    }

    /// The vectors of `v` combined lane by lane.
    pub fn fold(&mut self, v: &[Value], op: Fold) -> Value {
        let mut r = v[0];
        for x in &v[1..] {
            r = match op {
                Fold::And => self.b.ins().band(r, *x),
                Fold::Or => self.b.ins().bor(r, *x),
                Fold::UMin => self.b.ins().umin(r, *x),
            };
        }
        r
    }

    /// The unsigned minimum of the lanes.
    fn umin_lanes(&mut self, v: V) -> Value {
        let m = self.fold(&v, Fold::UMin);
        let mut min = self.b.ins().extractlane(m, 0);
        for i in 1..4 {
            let x = self.b.ins().extractlane(m, i);
            min = self.b.ins().umin(min, x);
        }
        min
    }

    /// Spends `n` steps for every active lane (the scalar JIT's count: each invocation pays
    /// for each segment it runs).
    pub fn spend(&mut self, n: u32) {
        let lanes = if self.full {
            self.b.ins().iconst(I64, LANES as i64)
        } else {
            self.b.use_var(self.count)
        };
        let cost = self.b.ins().imul_imm_s(lanes, n as i64);
        let s = self.b.use_var(self.steps);
        let s = self.b.ins().iadd(s, cost);
        self.b.def_var(self.steps, s);
    }

    /// Sets the active lanes (and their count) to the masks `a`.
    fn set_active(&mut self, a: V) {
        for h in HALVES {
            self.b.def_var(self.active[h], a[h]);
        }
        let mut bits = self.b.ins().vhigh_bits(I64, a[0]);
        for (h, x) in a.iter().enumerate().skip(1) {
            let more = self.b.ins().vhigh_bits(I64, *x);
            let more = self.b.ins().ishl_imm_s(more, 4 * h as i64);
            bits = self.b.ins().bor(bits, more);
        }
        let n = self.b.ins().popcnt(bits);
        self.b.def_var(self.count, n);
    }

    /// Past the budget the function returns `STEPS`.
    fn check_steps(&mut self) {
        let s = self.b.use_var(self.steps);
        let over = self
            .b
            .ins()
            .icmp(IntCC::UnsignedGreaterThan, s, self.budget);
        let (out, cont) = (self.b.create_block(), self.b.create_block());
        self.b.set_cold_block(out);
        self.b.ins().brif(over, out, &[], cont, &[]);
        self.b.switch_to_block(out);
        let st = self.b.ins().iconst(I64, status::STEPS as i64);
        self.b.ins().return_(&[st]);
        self.b.switch_to_block(cont);
    }

    fn return_status(&mut self, code: u64) {
        let s = self.b.use_var(self.steps);
        self.b
            .ins()
            .store(MemFlagsData::trusted(), s, self.ctx, CTX_STEPS);
        let c = self.b.ins().iconst(I64, code as i64);
        self.b.ins().return_(&[c]);
    }

    /// The active lanes' masks (`None` in the all-lanes version).
    pub fn act(&mut self) -> Option<V> {
        (!self.full).then(|| self.active.map(|v| self.b.use_var(v)))
    }

    pub fn splat_i32(&mut self, x: i64) -> Value {
        let c = self.b.ins().iconst(I32, x as u32 as i64);
        self.b.ins().splat(I32X4, c)
    }

    /// `[from, from + 1, from + 2, from + 3]`.
    fn iota(&mut self, from: i64) -> Value {
        let mut v = self.splat_i32(from);
        for i in 1..4 {
            let x = self.b.ins().iconst(I32, from + i);
            v = self.b.ins().insertlane(v, x, i as u8);
        }
        v
    }

    /// The value of a 32-bit register (a constant splatted).
    pub fn get(&mut self, s: Slot) -> V {
        if let Some(v) = self.overlay.as_ref().and_then(|o| o.get(&s)) {
            return *v;
        }
        match self.plan.kind(s) {
            Kind::Const(c) => {
                let v = self.splat_i32(c as u32 as i64);
                [v; H]
            }
            _ => {
                let vars = self.narrow[&s];
                vars.map(|v| self.b.use_var(v))
            }
        }
    }

    /// Sets a 32-bit register; where `guard` is given (or some lanes are inactive), only its
    /// lanes change a register some segment reads at its start.
    pub fn put_guarded(&mut self, s: Slot, v: V, guard: Option<V>) {
        if let Some(o) = self.overlay.as_mut() {
            o.insert(s, v);
            return;
        }
        let vars = self.narrow[&s];
        let g = guard.or_else(|| self.act());
        let v = match g {
            Some(g) if self.plan.masked.contains(&s) => {
                let old = vars.map(|x| self.b.use_var(x));
                HALVES.map(|h| self.b.ins().bitselect(g[h], v[h], old[h]))
            }
            _ => v,
        };
        for h in HALVES {
            self.b.def_var(vars[h], v[h]);
        }
    }

    pub fn put(&mut self, s: Slot, v: V) {
        self.put_guarded(s, v, None);
    }

    /// Branches to the bail block when any active lane has `cond` (masks) set.
    pub fn bail_any(&mut self, cond: V) {
        let c = match self.act() {
            Some(a) => HALVES.map(|h| self.b.ins().band(cond[h], a[h])),
            None => cond,
        };
        let c = self.fold(&c, Fold::Or);
        let any = self.b.ins().vany_true(c);
        let cont = self.b.create_block();
        self.b.ins().brif(any, self.bail, &[], cont, &[]);
        self.b.switch_to_block(cont);
    }

    /// A boolean register (0 or 1 per lane) as masks.
    pub fn mask_of(&mut self, s: Slot) -> V {
        let v = self.get(s);
        let zero = self.splat_i32(0);
        v.map(|x| self.b.ins().icmp(IntCC::NotEqual, x, zero))
    }

    /// Masks as booleans (0 or 1).
    pub fn bools(&mut self, m: V) -> V {
        let one = self.splat_i32(1);
        m.map(|x| self.b.ins().band(x, one))
    }

    fn lower_term(&mut self, term: &'p Term) {
        match term {
            Term::Branch(e) => {
                if self.full {
                    self.copies(e, None);
                    self.b.ins().jump(self.full_blocks[e.target as usize], &[]);
                } else {
                    let a = self.act().expect("masked");
                    self.copies(e, Some(a));
                    self.goto(a, e.target);
                }
            }
            Term::BranchConditional {
                cond,
                on_true,
                on_false,
            } => {
                let c = self.mask_of(*cond);
                if self.if_convert(c, on_true, on_false) {
                    return;
                }
                let a = self.act();
                let (t, f) = match a {
                    Some(a) => (
                        HALVES.map(|h| self.b.ins().band(a[h], c[h])),
                        HALVES.map(|h| self.b.ins().band_not(a[h], c[h])),
                    ),
                    None => (c, c.map(|x| self.b.ins().bnot(x))),
                };
                // Every active lane one way: straight on (the all-lanes version stays in it).
                let any = |l: &mut Self, m: V| {
                    let x = l.fold(&m, Fold::Or);
                    l.b.ins().vany_true(x)
                };
                let (any_t, any_f) = (any(self, t), any(self, f));
                let (only_t, not_only_t, only_f, split) = (
                    self.b.create_block(),
                    self.b.create_block(),
                    self.b.create_block(),
                    self.b.create_block(),
                );
                self.b.ins().brif(any_f, not_only_t, &[], only_t, &[]);
                self.b.switch_to_block(not_only_t);
                self.b.ins().brif(any_t, split, &[], only_f, &[]);
                for (blk, e, m) in [(only_t, on_true, t), (only_f, on_false, f)] {
                    self.b.switch_to_block(blk);
                    if self.full {
                        self.copies(e, None);
                        self.b.ins().jump(self.full_blocks[e.target as usize], &[]);
                    } else {
                        self.copies(e, Some(m));
                        self.goto(m, e.target);
                    }
                }
                self.b.switch_to_block(split);
                self.split(t, f, on_true, on_false);
            }
            Term::Return | Term::ReturnValue { .. } | Term::Kill => {
                if self.full {
                    self.b.ins().jump(self.chunk_done, &[]);
                } else {
                    let a = self.act().expect("masked");
                    self.send(a, FINISHED);
                    self.b.ins().jump(self.dispatch, &[]);
                }
            }
            _ => {
                // (Unreachable; `analysis::plan` admits no other.)
                self.b.ins().jump(self.bail, &[]);
            }
        }
    }

    /// The lanes of `t` go along `on_true`, those of `f` along `on_false` (both some): the
    /// ones going to the earlier segment run on at once (the min-PC rule), the others wait.
    fn split(&mut self, t: V, f: V, on_true: &Edge, on_false: &Edge) {
        self.copies(on_true, Some(t));
        self.copies(on_false, Some(f));
        let (lo, hi) = if on_true.target <= on_false.target {
            ((t, on_true.target), (f, on_false.target))
        } else {
            ((f, on_false.target), (t, on_true.target))
        };
        if lo.1 == hi.1 {
            let both = HALVES.map(|h| self.b.ins().bor(t[h], f[h]));
            let was_full = self.full;
            self.full = false;
            self.goto(both, lo.1);
            self.full = was_full;
            return;
        }
        self.send(hi.0, hi.1 as i64);
        // The rest: the smaller of the others' and `hi`.
        let rest = if self.full {
            self.b.ins().iconst(I32, hi.1 as i64)
        } else {
            let r = self.b.use_var(self.rest);
            let h = self.b.ins().iconst(I32, hi.1 as i64);
            self.b.ins().umin(r, h)
        };
        self.b.def_var(self.rest, rest);
        self.set_active(lo.0);
        let was_full = self.full;
        self.full = false;
        self.goto(lo.0, lo.1);
        self.full = was_full;
    }

    /// Every active lane goes on to segment `target` (no phi copies left).
    pub fn go_on(&mut self, target: SegId) {
        match self.act() {
            None => {
                self.b.ins().jump(self.full_blocks[target as usize], &[]);
            }
            Some(a) => self.goto(a, target),
        }
    }

    /// The active lanes `a` go to segment `target`: straight into its masked version when it
    /// comes before every other lane's next segment; when other lanes wait there, they join
    /// (into the all-lanes version when that makes all of them); else through the dispatcher.
    fn goto(&mut self, a: V, target: SegId) {
        let rest = self.b.use_var(self.rest);
        let tc = self.b.ins().iconst(I32, target as i64);
        let before = self.b.ins().icmp(IntCC::UnsignedLessThan, tc, rest);
        let (straight, not_before, join, other) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.ins().brif(before, straight, &[], not_before, &[]);
        self.b.switch_to_block(straight);
        self.b.ins().jump(self.masked_blocks[target as usize], &[]);
        self.b.switch_to_block(not_before);
        self.send(a, target as i64);
        let at = self.b.ins().icmp(IntCC::Equal, tc, rest);
        self.b.ins().brif(at, join, &[], other, &[]);
        self.b.switch_to_block(other);
        self.b.ins().jump(self.dispatch, &[]);
        self.b.switch_to_block(join);
        let all = self.activate(tc);
        self.b.ins().brif(
            all,
            self.full_blocks[target as usize],
            &[],
            self.masked_blocks[target as usize],
            &[],
        );
    }

    /// An edge's phi copies for the lanes of `guard` (`None`: every lane).
    fn copies(&mut self, e: &Edge, guard: Option<V>) {
        let values: Vec<V> = e.copies.iter().map(|(_, s)| self.get(*s)).collect();
        let saved = self.full;
        // (A guard given replaces the active mask.)
        if guard.is_none() {
            self.full = true;
        }
        for ((d, _), v) in e.copies.iter().zip(values) {
            self.put_guarded(*d, v, guard);
        }
        self.full = saved;
    }

    /// The lanes of `g` go to segment `seg` next.
    fn send(&mut self, g: V, seg: i64) {
        let t = self.splat_i32(seg);
        for h in HALVES {
            let old = self.b.use_var(self.next[h]);
            let v = self.b.ins().bitselect(g[h], t, old);
            self.b.def_var(self.next[h], v);
        }
    }
}

/// How [`VLower::fold`] combines vectors.
pub(super) enum Fold {
    And,
    Or,
    UMin,
}

/// The segments some edge enters from a segment not before it: every cycle passes one.
fn loop_headers(f: &Function) -> Vec<bool> {
    let mut header = vec![false; f.segments.len()];
    for (i, seg) in f.segments.iter().enumerate() {
        for t in crate::jit::analysis::successors(&seg.term) {
            if (t as usize) <= i {
                header[t as usize] = true;
            }
        }
    }
    header
}
