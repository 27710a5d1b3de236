//! The vector-lanes function's frame: sweeps over the segments in their order, each with the
//! lanes waiting to run it (a bitmask per segment), loops jumping back while lanes wait at
//! their header, finished lanes refilled with the next invocations (of the call's workgroups,
//! consecutive in x) at the start of a sweep; each segment's masked and all-lanes versions,
//! the terminators, conditions and register access (`shape` says how each segment is entered,
//! `ops` and `mem` lower the instructions).

use super::LANES;
use super::analysis::{Kind, Plan};
use super::frame::Cursor;
use super::shape::Shape;
use crate::jit::lower_loop::{Part, Workgroup, next_local, store_builtins};
use crate::jit::runtime::{CTX_BUDGET, CTX_STEPS};
use crate::jit::status;
use crate::program::{Edge, Function, Program, SegId, Slot, Term};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{
    Block, FuncRef, InstBuilder, MemFlagsData, StackSlot, StackSlotData, StackSlotKind, Value,
    types,
};
use cranelift_frontend::{FunctionBuilder, Variable};
use std::collections::{HashMap, HashSet};

pub(super) const I64: types::Type = types::I64;
pub(super) const I32: types::Type = types::I32;
pub(super) const I32X4: types::Type = types::I32X4;
pub(super) const I64X2: types::Type = types::I64X2;

/// Every lane's bit.
const ALL: i64 = (1 << LANES) - 1;

/// A loop stops jumping back to its header, so that the sweep goes on and the finished lanes
/// take new invocations, once this many lanes no longer run it (while invocations are left).
const REFILL_AT: u32 = 1;

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

/// The memory spaces of the pointers `f` loads through and stores through, in order.
fn used_spaces(f: &Function, plan: &Plan) -> Vec<u32> {
    let mut spaces: Vec<u32> =
        f.code
            .iter()
            .filter_map(|inst| match inst {
                crate::program::Inst::Load { ptr, .. }
                | crate::program::Inst::Store { ptr, .. } => match plan.kind(*ptr) {
                    Kind::Const(p) => Some((p >> 48) as u32),
                    Kind::Ptr(space) => Some(space),
                    Kind::Narrow => None,
                },
                _ => None,
            })
            .collect();
    spaces.sort_unstable();
    spaces.dedup();
    spaces
}

/// The lowering of the vector-lanes function.
pub(super) struct VLower<'a, 'b, 'p> {
    pub b: &'a mut FunctionBuilder<'b>,
    pub f: &'p Function,
    pub plan: &'a Plan,
    pub narrow: HashMap<Slot, [Variable; H]>,
    pub ptrs: HashMap<Slot, [Variable; Q]>,
    /// For each segment, the lanes waiting to run it (bit `l`: lane `l`). Every lane that holds
    /// an invocation waits at exactly one segment, or runs the segment being lowered.
    pending: Vec<Variable>,
    /// The lanes that hold an invocation (bits).
    busy: Variable,
    /// The segment being lowered's active lanes: masks (in its masked version) and bits.
    active: [Variable; H],
    active_bits: Variable,
    /// How many lanes are active (the step cost of a segment is per active lane).
    count: Variable,
    /// The steps left before the budget (`min(budget, i64::MAX) − steps`; below zero: over
    /// it), so that no register holds the budget.
    left: Variable,
    /// Lowering the all-lanes version of a segment (no masks).
    pub full: bool,
    pub ctx: Value,
    regs: Value,
    /// Where the refills stand (`Cursor`): in the frame from this offset, so that none of it
    /// occupies a register through the loops.
    pub(super) cursor_at: i32,
    pub bail: Block,
    /// The start of a sweep (lanes refilled, then the first segment).
    pub(super) top: Block,
    /// Each segment's start (the test whether any lane waits there).
    starts: Vec<Block>,
    /// Where the sweep goes on after each segment (its loops' tests, then the next segment).
    after: Vec<Block>,
    /// The segment being lowered.
    current: usize,
    /// How segments are entered (`Shape`), each entered one's run block (its lanes in
    /// `entering`) and its all-lanes version.
    shape: Shape,
    runs: Vec<Block>,
    full_runs: Vec<Block>,
    entering: Variable,
    /// Steps per active lane owed by the segments lowered since the last terminator.
    owed: u32,
    /// The last payment of a constant cost (all-lanes versions): the steps left after it,
    /// before it, and the cost, so that `check_steps` right after it compares the steps left
    /// before with the cost (x86 then needs no copy and no test of the difference).
    paid: Option<(Value, Value, i64)>,
    /// The memory spaces the loads and stores use, and each one's offset in the frame, where
    /// its base, length and read-only flag are (copied from the space table at entry,
    /// `space`).
    pub(super) spaces: HashMap<u32, i32>,
    /// The address of the frame: one stack slot holding the scratch bytes, the spaces, the
    /// cursor and the constant pool, each at a fixed offset, so that one register (or none,
    /// where the address folds into the stack pointer) reaches them all. Addresses of
    /// several slots were each held in a register, which the register allocator spilled and
    /// reloaded on every iteration of a loop.
    /// (Its first 16 bytes: where the loads and stores of inactive lanes go.)
    pub(super) frame: Value,
    pub(super) frame_slot: cranelift_codegen::ir::StackSlot,
    /// Instructions lowered.
    pub lowered: usize,
    /// While an arm of a converted branch is lowered (`select`): the values it gives
    /// registers, instead of writing them.
    pub overlay: Option<HashMap<Slot, V>>,
    /// Boolean vectors (0 or 1 per lane) made from masks, and those masks with whether they
    /// are negated (`Cond`).
    pub masks: HashMap<Value, (Value, bool)>,
    /// Pointers the segment being lowered made by a one-index access chain from a constant
    /// pointer, with how (`mem::Chain`): a load through one tests its lanes' indices instead
    /// of their offsets.
    pub chains: HashMap<Slot, super::mem::Chain>,
    /// The 32-bit words split into two 16-bit components (`Bitcast`), by the components'
    /// values (low, high): a mixed dot whose operand's components are these values decodes
    /// both from the word (`mixdot`). (Values are SSA, so the pair is that word's halves
    /// wherever it is met.)
    pub split_words: HashMap<(Value, Value), Value>,
    /// The vector constants (`frame::vconst`) and per-call values (`frame::index_limit`),
    /// each stored once into the frame (from offset `pool_at`) in the `setup` block and loaded
    /// from there where used, once `pooling` (the entry block's own constants are made in
    /// place).
    pub(super) pool: Vec<super::frame::PoolEntry>,
    pub(super) pool_at: i32,
    pub(super) pooling: bool,
    pub(super) setup: Block,
    /// The mixed-dot trampoline (`dot_lanes`), declared in this function when the program has
    /// mixed dots, and the stack slot of its argument block, made at its first use.
    pub(super) dot_lanes: Option<FuncRef>,
    pub(super) dot_block: Option<StackSlot>,
    /// The registers written only in the active lanes (a `bitselect` with the old value in a
    /// masked version): those live when a segment starts where lanes can wait while others
    /// run (`guarded`). Every register live at some segment's start until the shape is known.
    pub(super) guarded: HashSet<Slot>,
}

impl<'a, 'b, 'p> VLower<'a, 'b, 'p> {
    pub fn new(
        b: &'a mut FunctionBuilder<'b>,
        prog: &'p Program,
        plan: &'a Plan,
        dot_lanes: Option<FuncRef>,
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
        let pending = f.segments.iter().map(|_| b.declare_var(I64)).collect();
        let busy = b.declare_var(I64);
        let active = [0; H].map(|_| b.declare_var(I32X4));
        let active_bits = b.declare_var(I64);
        let count = b.declare_var(I64);
        let left = b.declare_var(I64);
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        let p = b.block_params(entry).to_vec();
        let bail = b.create_block();
        b.set_cold_block(bail);
        let top = b.create_block();
        let starts = f.segments.iter().map(|_| b.create_block()).collect();
        let after = f.segments.iter().map(|_| b.create_block()).collect();
        let runs = f.segments.iter().map(|_| b.create_block()).collect();
        let full_runs = f.segments.iter().map(|_| b.create_block()).collect();
        let entering = b.declare_var(I64);
        let layout = super::frame::Layout::new(used_spaces(f, plan));
        let frame_slot = b.create_sized_stack_slot(StackSlotData::new(
            StackSlotKind::ExplicitSlot,
            layout.pool_at as u32,
            4,
        ));
        let frame = b.ins().stack_addr(I64, frame_slot, 0);
        let setup = b.create_block();
        VLower {
            b,
            f,
            plan,
            narrow,
            ptrs,
            pending,
            busy,
            active,
            active_bits,
            count,
            left,
            full: false,
            ctx: p[0],
            regs: p[1],
            cursor_at: layout.cursor_at,
            bail,
            top,
            starts,
            after,
            current: 0,
            shape: Shape::default(),
            runs,
            full_runs,
            entering,
            owed: 0,
            paid: None,
            spaces: layout.spaces,
            frame,
            frame_slot,
            lowered: 0,
            overlay: None,
            masks: HashMap::new(),
            chains: HashMap::new(),
            split_words: HashMap::new(),
            pool: Vec::new(),
            pool_at: layout.pool_at,
            pooling: false,
            setup,
            dot_lanes,
            dot_block: None,
            guarded: plan.live_anywhere.clone(),
        }
    }

    /// Lowers the whole function: `fn(ctx, regs, invocations) -> status`, `regs` the register
    /// files of [`LANES`] lanes (`state_words` words each), `invocations` those of the context's
    /// workgroup and the ones after it in x.
    pub fn lower(&mut self, state_words: usize) {
        let t = MemFlagsData::trusted();
        let steps = self.b.ins().load(I64, t, self.ctx, CTX_STEPS);
        let budget = self.budget();
        let left = self.b.ins().isub(budget, steps);
        self.b.def_var(self.left, left);
        let group = Workgroup::load(self.b, self.ctx);
        self.copy_spaces();
        let zero = self.b.ins().iconst(I64, 0);
        self.b.def_var(self.busy, zero);
        let invocations = self.b.block_params(self.b.current_block().expect("entry"))[2];
        for (at, v) in [
            (Cursor::NEXT, zero),
            (Cursor::INDEX, zero),
            (Cursor::LOCAL, zero),
            (Cursor::LOCAL + 1, zero),
            (Cursor::LOCAL + 2, zero),
            (Cursor::WG_X, group.wg[0]),
            (Cursor::BASE_X, group.base[0]),
            (Cursor::INVOCATIONS, invocations),
        ] {
            self.set_cursor(at, v);
        }
        for v in self.pending.clone() {
            self.b.def_var(v, zero);
        }
        // Every register starts as zero (a masked write reads the register's old value).
        let z32 = self.splat_i32(0);
        let z64 = {
            let z = self.b.ins().iconst(I64, 0);
            self.b.ins().splat(I64X2, z)
        };
        let mut all: Vec<(&Slot, &[Variable; H])> = self.narrow.iter().collect();
        all.sort_unstable_by_key(|(s, _)| **s);
        for (_, vars) in all {
            for v in vars {
                self.b.def_var(*v, z32);
            }
        }
        let mut all: Vec<(&Slot, &[Variable; Q])> = self.ptrs.iter().collect();
        all.sort_unstable_by_key(|(s, _)| **s);
        for (_, vars) in all {
            for v in vars {
                self.b.def_var(*v, z64);
            }
        }
        self.b.ins().jump(self.setup, &[]);
        self.pooling = true;

        self.b.switch_to_block(self.bail);
        let s = self.b.ins().iconst(I64, status::BAIL as i64);
        self.b.ins().return_(&[s]);

        self.lower_top(state_words);
        self.shape = self.shape();
        self.guarded = self.guarded();
        let f = self.f;
        let n = f.segments.len();
        for i in 0..n {
            let shape = &self.shape;
            if !shape.entered[i] {
                continue;
            }
            if shape.walked(i) {
                // Any lane waiting here: run the segment, else go on.
                self.b.switch_to_block(self.starts[i]);
                let bits = self.b.use_var(self.pending[i]);
                let zero = self.b.ins().iconst(I64, 0);
                self.b.def_var(self.pending[i], zero);
                self.b.def_var(self.entering, bits);
                self.b
                    .ins()
                    .brif(bits, self.runs[i], &[], self.after[i], &[]);
            }
            if !self.shape.fused[i] {
                self.lower_run(i);
            }
        }
        // After a segment: back to the header of each loop whose last back edge leaves it
        // (the innermost first) while lanes wait there, unless enough lanes are idle to
        // refill them first; then the next segment of the sweep.
        // (Only an entered segment's lanes ever go on after it.)
        for i in 0..n {
            if !self.shape.entered[i] {
                continue;
            }
            self.b.switch_to_block(self.after[i]);
            let headers: Vec<usize> = (0..=i)
                .rev()
                .filter(|h| self.shape.last_back[*h] == Some(i))
                .collect();
            for h in headers {
                self.loop_back(h);
            }
            let next = (i + 1..n).find(|k| self.shape.walked(*k));
            let next = next.map_or(self.top, |k| self.starts[k]);
            self.b.ins().jump(next, &[]);
        }
        self.fill_pool();
    }

    /// The registers a lane may read after waiting while other lanes run: those live when a
    /// segment starts that is entered and not fused. A lane waits at a walked segment (until
    /// a sweep reaches it) or at a segment run at once from a conditional branch (while the
    /// other side's lanes run theirs first); it never waits at a fused segment, which runs
    /// inline after its one predecessor for that predecessor's lanes. A register live only at
    /// fused segments' starts (a value computed before a converted branch's meeting segment
    /// and read after it) is therefore written in whole vectors: its inactive lanes' values
    /// are dead. Written only in the active lanes, such a register was read at every write,
    /// so its value stayed live around the loop beside the phi register it is copied to, and
    /// the all-lanes loop copied it at every back edge.
    fn guarded(&self) -> HashSet<Slot> {
        let waits =
            (0..self.f.segments.len()).filter(|&i| self.shape.entered[i] && !self.shape.fused[i]);
        waits
            .flat_map(|i| self.plan.live_in[i].iter().copied())
            .collect()
    }

    /// Segment `i`'s run block: the lanes of `entering` (some) run it, in its all-lanes version
    /// when every lane is active, else in its masked version.
    fn lower_run(&mut self, i: usize) {
        self.b.switch_to_block(self.runs[i]);
        let bits = self.b.use_var(self.entering);
        let all = self.b.ins().icmp_imm_s(IntCC::Equal, bits, ALL);
        let (full_blk, masked_blk) = (self.full_runs[i], self.b.create_block());
        self.b.ins().brif(all, full_blk, &[], masked_blk, &[]);
        for full in [false, true] {
            self.full = full;
            self.b
                .switch_to_block(if full { full_blk } else { masked_blk });
            if full {
                let all = self.b.ins().iconst(I64, ALL);
                self.b.def_var(self.active_bits, all);
            } else {
                self.b.def_var(self.active_bits, bits);
                let m = self.masks_of_bits(bits);
                for h in HALVES {
                    self.b.def_var(self.active[h], m[h]);
                }
                let c = self.b.ins().popcnt(bits);
                self.b.def_var(self.count, c);
            }
            self.lower_segment(i);
        }
        self.full = false;
    }

    /// Segment `i`'s instructions and terminator, for the active lanes.
    fn lower_segment(&mut self, i: usize) {
        self.current = i;
        // (A chain's values stay valid within the segment's code only.)
        self.chains.clear();
        let f = self.f;
        let seg = &f.segments[i];
        self.spend(seg.end - seg.start + 1);
        for k in seg.start..seg.end {
            self.lower_inst(&f.code[k as usize]);
            if !self.full {
                self.lowered += 1;
            }
        }
        self.lower_term(&seg.term);
    }

    /// The start of a sweep: the step budget checked, idle lanes given the workgroup's next
    /// invocations (their built-ins into their register files, then every input register
    /// reloaded) waiting at the entry segment; the function returns when no lane is busy.
    fn lower_top(&mut self, state_words: usize) {
        self.b.switch_to_block(self.top);
        self.check_steps();
        let busy = self.b.use_var(self.busy);
        let left = self.invocations_left();
        let idle = self.b.ins().icmp_imm_s(IntCC::NotEqual, busy, ALL);
        let refill = self.b.ins().band(left, idle);
        let (fill, run) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(refill, fill, &[], run, &[]);

        // One turn per idle lane while invocations are left (the lowest idle lane first):
        // usually one lane, so that the loop's branches are predictable where a test per lane
        // was not.
        self.b.switch_to_block(fill);
        let entry = self.f.entry as usize;
        let (turn, start, filled) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.ins().jump(turn, &[]);
        self.b.switch_to_block(turn);
        let busy = self.b.use_var(self.busy);
        let left = self.invocations_left();
        let idle = self.b.ins().bxor_imm_s(busy, ALL);
        let any = self.b.ins().icmp_imm_s(IntCC::NotEqual, idle, 0);
        let take = self.b.ins().band(any, left);
        self.b.ins().brif(take, start, &[], filled, &[]);
        self.b.switch_to_block(start);
        let lane = self.b.ins().ctz(idle);
        let bit = self.b.ins().iconst(I64, 1);
        let bit = self.b.ins().ishl(bit, lane);
        let stride = self.b.ins().imul_imm_s(lane, (state_words * 8) as i64);
        let regs = self.b.ins().iadd(self.regs, stride);
        let at = [0, 1, 2].map(|i| self.cursor(Cursor::LOCAL + i));
        let index = self.cursor(Cursor::INDEX);
        // (Loaded here, where used, rather than held in registers from the entry.)
        let group = Workgroup::load(self.b, self.ctx);
        let mut current = Workgroup { ..group };
        current.wg[0] = self.cursor(Cursor::WG_X);
        current.base[0] = self.cursor(Cursor::BASE_X);
        store_builtins(
            self.b,
            &self.plan.builtins,
            regs,
            &current,
            (index, at),
            Part::All,
        );
        self.next_invocation(&group, at, index, (current.wg[0], current.base[0]));
        let next = self.cursor(Cursor::NEXT);
        let next = self.b.ins().iadd_imm_s(next, 1);
        self.set_cursor(Cursor::NEXT, next);
        let busy = self.b.ins().bor(busy, bit);
        self.b.def_var(self.busy, busy);
        let p = self.b.use_var(self.pending[entry]);
        let p = self.b.ins().bor(p, bit);
        self.b.def_var(self.pending[entry], p);
        self.b.ins().jump(turn, &[]);
        self.b.switch_to_block(filled);
        let t = MemFlagsData::trusted();
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
        self.b.ins().jump(run, &[]);

        self.b.switch_to_block(run);
        let busy = self.b.use_var(self.busy);
        let (finish, first) = (self.b.create_block(), self.starts[0]);
        // (The sweep's own blocks as the second target: Cranelift's LICM, `loop_test`.)
        let none = self.b.ins().icmp_imm_s(IntCC::Equal, busy, 0);
        self.b.ins().brif(none, finish, &[], first, &[]);
        self.b.switch_to_block(finish);
        self.return_status(status::DONE);
    }

    /// Steps to the invocation after the one of LocalInvocationIndex `index`, LocalInvocationId
    /// `at` in the workgroup of id x and first GlobalInvocationId x `wg`: the next one of the
    /// workgroup, or the first of the next workgroup in x. Usually the next in x of the same
    /// row (only the index and x change), tested first.
    fn next_invocation(
        &mut self,
        group: &Workgroup,
        at: [Value; 3],
        index: Value,
        (wg_x, base_x): (Value, Value),
    ) {
        let x = self.b.ins().iadd_imm_s(at[0], 1);
        let in_row = self.b.ins().icmp(IntCC::UnsignedLessThan, x, group.size[0]);
        let (row, wrap, done) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.ins().brif(in_row, row, &[], wrap, &[]);
        self.b.switch_to_block(row);
        let one = self.b.ins().iadd_imm_s(index, 1);
        self.set_cursor(Cursor::INDEX, one);
        self.set_cursor(Cursor::LOCAL, x);
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(wrap);
        let zero = self.b.ins().iconst(I64, 0);
        let one = self.b.ins().iadd_imm_s(index, 1);
        let end = self
            .b
            .ins()
            .icmp(IntCC::UnsignedGreaterThanOrEqual, one, group.count);
        let index = self.b.ins().select(end, zero, one);
        self.set_cursor(Cursor::INDEX, index);
        let at = next_local(self.b, at, group.size);
        for (i, x) in at.into_iter().enumerate() {
            let x = self.b.ins().select(end, zero, x);
            self.set_cursor(Cursor::LOCAL + i as i32, x);
        }
        let wg = self.b.ins().iadd_imm_s(wg_x, 1);
        let wg = self.b.ins().select(end, wg, wg_x);
        self.set_cursor(Cursor::WG_X, wg);
        let base = self.b.ins().iadd(base_x, group.size[0]);
        let base = self.b.ins().select(end, base, base_x);
        self.set_cursor(Cursor::BASE_X, base);
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(done);
    }

    /// Jumps back to loop header `h` when lanes wait there, unless invocations are left and at
    /// least [`REFILL_AT`] lanes are idle (no longer in the loop): the sweep then goes on, and
    /// those lanes start new invocations at its start.
    fn loop_back(&mut self, h: usize) {
        let waiting = self.b.use_var(self.pending[h]);
        let left = self.invocations_left();
        let looping = self.b.ins().popcnt(waiting);
        let idle = self.b.ins().icmp_imm_s(
            IntCC::UnsignedGreaterThan,
            looping,
            (LANES as u32 - REFILL_AT) as i64,
        );
        let idle = self.b.ins().bnot(idle);
        let refill = self.b.ins().band(left, idle);
        let none = self.b.ins().icmp_imm_s(IntCC::Equal, waiting, 0);
        let on = self.b.ins().bor(none, refill);
        let (back, forward) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(on, forward, &[], back, &[]);
        self.b.switch_to_block(back);
        self.check_steps();
        self.b.ins().jump(self.starts[h], &[]);
        self.b.switch_to_block(forward);
    }

    /// The vectors of `v` or-ed lane by lane.
    pub fn or_all(&mut self, v: &[Value]) -> Value {
        let mut r = v[0];
        for x in &v[1..] {
            r = self.b.ins().bor(r, *x);
        }
        r
    }

    /// The vectors of `v` and-ed lane by lane.
    pub fn and_all(&mut self, v: &[Value]) -> Value {
        let mut r = v[0];
        for x in &v[1..] {
            r = self.b.ins().band(r, *x);
        }
        r
    }

    /// Spends `n` steps for every active lane (the scalar JIT's count: each invocation pays
    /// for each segment it runs); owed until the terminator (`pay`).
    pub fn spend(&mut self, n: u32) {
        self.owed += n;
    }

    /// Adds the steps owed to the count.
    fn pay(&mut self) {
        let n = std::mem::take(&mut self.owed);
        if n == 0 {
            return;
        }
        let before = self.b.use_var(self.left);
        let after = if self.full {
            let cost = LANES as i64 * i64::from(n);
            let after = self.b.ins().iadd_imm_s(before, -cost);
            self.paid = Some((after, before, cost));
            after
        } else {
            let lanes = self.b.use_var(self.count);
            let cost = self.b.ins().imul_imm_s(lanes, n as i64);
            self.b.ins().isub(before, cost)
        };
        self.b.def_var(self.left, after);
    }

    /// The lanes of bits `bits` as masks.
    fn masks_of_bits(&mut self, bits: Value) -> V {
        let b32 = self.b.ins().ireduce(I32, bits);
        let all = self.b.ins().splat(I32X4, b32);
        HALVES.map(|h| {
            let lane = |i: usize| (1u32 << (4 * h + i)).to_le_bytes();
            let mut bytes = [0; 16];
            for (i, x) in (0..4).flat_map(lane).enumerate() {
                bytes[i] = x;
            }
            let k = self.vconst(I32X4, bytes);
            let x = self.b.ins().band(all, k);
            self.b.ins().icmp(IntCC::Equal, x, k)
        })
    }

    /// The lanes of masks `m` as bits.
    fn bits_of_masks(&mut self, m: V) -> Value {
        let mut bits = self.b.ins().vhigh_bits(I64, m[0]);
        for (h, x) in m.iter().enumerate().skip(1) {
            let more = self.b.ins().vhigh_bits(I64, *x);
            let more = self.b.ins().ishl_imm_s(more, 4 * h as i64);
            bits = self.b.ins().bor(bits, more);
        }
        bits
    }

    /// The step budget (at most `i64::MAX`: no run takes 2^63 steps).
    fn budget(&mut self) -> Value {
        let t = crate::jit::runtime::invariant();
        let budget = self.b.ins().load(I64, t, self.ctx, CTX_BUDGET);
        let most = self.b.ins().iconst(I64, i64::MAX);
        self.b.ins().umin(budget, most)
    }

    /// Past the budget the function returns `STEPS`.
    fn check_steps(&mut self) {
        let l = self.b.use_var(self.left);
        // (`before − cost < 0` is `before < cost`: no value near i64's ends is left.)
        let over = match self.paid {
            Some((after, before, cost)) if after == l => {
                self.b.ins().icmp_imm_s(IntCC::SignedLessThan, before, cost)
            }
            _ => self.b.ins().icmp_imm_s(IntCC::SignedLessThan, l, 0),
        };
        let (out, cont) = (self.b.create_block(), self.b.create_block());
        self.b.set_cold_block(out);
        self.b.ins().brif(over, out, &[], cont, &[]);
        self.b.switch_to_block(out);
        let st = self.b.ins().iconst(I64, status::STEPS as i64);
        self.b.ins().return_(&[st]);
        self.b.switch_to_block(cont);
    }

    fn return_status(&mut self, code: u64) {
        let budget = self.budget();
        let l = self.b.use_var(self.left);
        let s = self.b.ins().isub(budget, l);
        self.b
            .ins()
            .store(MemFlagsData::trusted(), s, self.ctx, CTX_STEPS);
        let c = self.b.ins().iconst(I64, code as i64);
        self.b.ins().return_(&[c]);
    }

    /// The active lanes' bits (every lane's in the all-lanes version).
    pub fn active_bits(&mut self) -> Value {
        self.b.use_var(self.active_bits)
    }

    /// The active lanes' masks (`None` in the all-lanes version).
    pub fn act(&mut self) -> Option<V> {
        (!self.full).then(|| self.active.map(|v| self.b.use_var(v)))
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
    /// lanes change a register a waiting lane may read later (`guarded`).
    pub fn put_guarded(&mut self, s: Slot, v: V, guard: Option<V>) {
        if let Some(o) = self.overlay.as_mut() {
            o.insert(s, v);
            return;
        }
        let vars = self.narrow[&s];
        let g = guard.or_else(|| self.act());
        let v = match g {
            Some(g) if self.guarded.contains(&s) => {
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
        let c = self.or_all(&c);
        let any = self.b.ins().vany_true(c);
        let cont = self.b.create_block();
        self.b.ins().brif(any, self.bail, &[], cont, &[]);
        self.b.switch_to_block(cont);
    }

    /// A boolean register (0 or 1 per lane) as a condition: the masks it was made from when
    /// known (maybe negated), else a comparison with zero.
    pub fn cond_of(&mut self, s: Slot) -> Cond {
        let v = self.get(s);
        let known = v.map(|x| self.masks.get(&x).copied());
        if let Some((_, negated)) = known[0]
            && known.iter().all(|k| k.is_some_and(|(_, n)| n == negated))
        {
            return Cond {
                m: HALVES.map(|h| known[h].map_or(v[h], |(m, _)| m)),
                negated,
            };
        }
        let zero = self.splat_i32(0);
        Cond {
            m: v.map(|x| self.b.ins().icmp(IntCC::Equal, x, zero)),
            negated: true,
        }
    }

    /// A condition as booleans (0 or 1), remembered for `cond_of`.
    pub fn bools_of(&mut self, c: Cond) -> V {
        let one = self.splat_i32(1);
        HALVES.map(|h| {
            let r = if c.negated {
                self.b.ins().band_not(one, c.m[h])
            } else {
                self.b.ins().band(c.m[h], one)
            };
            self.masks.insert(r, (c.m[h], c.negated));
            r
        })
    }

    /// Masks as booleans (0 or 1).
    pub fn bools(&mut self, m: V) -> V {
        self.bools_of(Cond { m, negated: false })
    }

    fn lower_term(&mut self, term: &'p Term) {
        match term {
            Term::Branch(e) => {
                let a = self.act();
                self.copies(e, a);
                self.go_on(e.target);
            }
            Term::BranchConditional {
                cond,
                on_true,
                on_false,
            } => {
                let c = self.cond_of(*cond);
                if self.if_convert(c, on_true, on_false) {
                    return;
                }
                // (A negated condition's masks are the false edge's.)
                let (on, off) = if c.negated {
                    (on_false, on_true)
                } else {
                    (on_true, on_false)
                };
                if !on.copies.is_empty() || !off.copies.is_empty() {
                    let (t, f) = match self.act() {
                        Some(a) => (
                            HALVES.map(|h| self.b.ins().band(a[h], c.m[h])),
                            HALVES.map(|h| self.b.ins().band_not(a[h], c.m[h])),
                        ),
                        None => (c.m, c.m.map(|x| self.b.ins().bnot(x))),
                    };
                    self.copies(on, Some(t));
                    self.copies(off, Some(f));
                }
                self.pay();
                let active = self.b.use_var(self.active_bits);
                let taken = self.bits_of_masks(c.m);
                let direct_true = self.shape.direct[on_true.target as usize];
                let direct_false = self.shape.direct[on_false.target as usize];
                if self.full && (direct_true || direct_false) {
                    // Every lane to the target run at once (the common case of a loop's test):
                    // straight into its all-lanes version, before any lane is added anywhere.
                    let (target, mask_true) = if direct_false {
                        (on_false.target, c.negated)
                    } else {
                        (on_true.target, !c.negated)
                    };
                    let want = if mask_true { ALL } else { 0 };
                    let all = self.b.ins().icmp_imm_s(IntCC::Equal, taken, want);
                    let rest = self.b.create_block();
                    let full_run = self.full_runs[target as usize];
                    self.b.ins().brif(all, full_run, &[], rest, &[]);
                    self.b.switch_to_block(rest);
                }
                let (tb, fb) = {
                    let on = self.b.ins().band(active, taken);
                    let off = self.b.ins().band_not(active, taken);
                    if c.negated { (off, on) } else { (on, off) }
                };
                let mut direct = None;
                for (target, lanes) in [(on_true.target, tb), (on_false.target, fb)] {
                    if self.shape.direct[target as usize] {
                        direct = Some((target, lanes));
                    } else {
                        self.wait(target, lanes);
                    }
                }
                let after = self.after[self.current];
                match direct {
                    // The lanes going there run it at once (they are the only ones that can).
                    Some((target, lanes)) => {
                        self.b.def_var(self.entering, lanes);
                        let run = self.runs[target as usize];
                        self.b.ins().brif(lanes, run, &[], after, &[]);
                    }
                    None => {
                        self.b.ins().jump(after, &[]);
                    }
                }
            }
            Term::Return | Term::ReturnValue { .. } | Term::Kill => {
                self.pay();
                let active = self.b.use_var(self.active_bits);
                let busy = self.b.use_var(self.busy);
                let busy = self.b.ins().band_not(busy, active);
                self.b.def_var(self.busy, busy);
                self.b.ins().jump(self.after[self.current], &[]);
            }
            _ => {
                // (OpUnreachable in an active lane; `analysis::plan` admits no other.)
                self.owed = 0;
                self.b.ins().jump(self.bail, &[]);
            }
        }
    }

    /// Every active lane goes on to segment `target` (no phi copies left): at once when they
    /// are the only lanes that reach it (its code follows), else it waits for its turn.
    pub fn go_on(&mut self, target: SegId) {
        if self.shape.fused[target as usize] {
            self.lower_segment(target as usize);
            return;
        }
        self.pay();
        if self.full && target as usize <= self.current {
            // Every lane back to a loop header (so none waits anywhere else): straight into
            // its all-lanes version, as the sweep would run it.
            self.check_steps();
            let all = self.b.ins().iconst(I64, ALL);
            self.b.def_var(self.active_bits, all);
            self.b.ins().jump(self.full_runs[target as usize], &[]);
            return;
        }
        let active = self.b.use_var(self.active_bits);
        self.wait(target, active);
        self.b.ins().jump(self.after[self.current], &[]);
    }

    /// The lanes of bits `lanes` wait at segment `target`.
    fn wait(&mut self, target: SegId, lanes: Value) {
        let v = self.pending[target as usize];
        let p = self.b.use_var(v);
        let p = self.b.ins().bor(p, lanes);
        self.b.def_var(v, p);
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
}

/// A condition per lane: masks, or their negation (x86 compares for equality and signed
/// greater-than only; `x ≠ y` or `x < y` unsigned are cheaper kept as the negation of the
/// mask of `x = y` or `x ≥ y`).
#[derive(Clone, Copy)]
pub(super) struct Cond {
    pub m: V,
    pub negated: bool,
}
