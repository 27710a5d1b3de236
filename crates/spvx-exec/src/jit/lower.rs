//! Lowering one program function to Cranelift IR (`build` assembles the module): one block
//! per segment, registers the function writes natively in Cranelift variables (so that they
//! live in machine registers), every other register in the invocation's register file in
//! memory. Instructions are lowered in `lower_ops` and `lower_mem`, or call the interpreter
//! (`runtime::callout`) with the variables written back to memory around the call.
//!
//! A native function is `fn(ctx, regs, resume) -> status` (`super::status`). The entry
//! function, when it has workgroup barriers, saves its variables and the barrier's loop
//! counters into the invocation's state after the registers and returns `BARRIER`; called
//! again with `resume = next segment + 1` it reloads them and continues there.
//!
//! Steps: entering a segment of `n` instructions spends `n + 1` steps, as the interpreter
//! counts per subgroup, but here per invocation; the workgroup's budget is the step limit
//! itself. The interpreter charges each segment a subgroup runs once, for at least one of the
//! invocations that run it, so its count never exceeds this one: a workgroup within the
//! budget here is within the limit there. The budget is checked at loop headers (every cycle
//! passes one) and by the driver when the workgroup ends; past it, the dispatch goes to the
//! interpreter, whose count decides.

use super::analysis;
use super::floats;
use super::group;
use super::liveness;
use super::loops::{BarrierLoops, CounterStep};
use super::runtime::{
    self, CTX_BUDGET, CTX_SPACE_COUNT, CTX_SPACES, CTX_STEPS, SPACE_SIZE, invariant,
};
use super::{Callout, status};
use crate::program::{Edge, Function, Program, SegId, Slot, Term};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{Block, FuncRef, InstBuilder, MemFlagsData, Value, types};
use cranelift_frontend::{FunctionBuilder, Switch, Variable};
use std::collections::HashMap;

pub(super) const I64: types::Type = types::I64;

/// What all functions' lowering shares.
pub(super) struct Shared<'p> {
    pub prog: &'p Program,
    /// Whether instructions are compiled natively (else all call the interpreter).
    pub native_code: bool,
    /// Registers that hold the same value for the whole run and that no instruction writes.
    pub constants: HashMap<Slot, u64>,
    /// Those and the registers only ever written with a copy of one of them
    /// (`analysis::run_constants`): a tensor access through one is tested once per dispatch
    /// (`lower_tensor`).
    pub run_constants: HashMap<Slot, u64>,
    /// The buffer spaces a worker may replace by its own copy for lock-free atomic additions
    /// (`atomics::private_sums`).
    pub private_sums: Vec<u32>,
    pub callouts: Vec<Callout>,
    pub native: usize,
}

/// The lowering of one function.
pub(super) struct FnLower<'a, 'b, 'p> {
    pub b: &'a mut FunctionBuilder<'b>,
    pub shared: &'a mut Shared<'p>,
    pub func_index: u32,
    pub f: &'p Function,
    /// Registers in variables.
    pub vars: HashMap<Slot, Variable>,
    pub var_list: Vec<(Slot, Variable)>,
    /// The fp32 registers' float shadows (`floats`; none in the lanes function).
    pub shadows: HashMap<Slot, Variable>,
    /// Memory spaces of pointers known at compile time.
    pub known: HashMap<Slot, u32>,
    /// For each known space, its (base, length, read-only) loaded once at function entry.
    pub hoisted: HashMap<u32, (Value, Value, Value)>,
    /// Pointers an access chain of this function computed, with their byte offset (already
    /// reduced modulo 2^48): loads and stores through them use the offset directly instead
    /// of extracting it again (`lower_mem`).
    pub offsets: HashMap<Value, Value>,
    pub loops: Option<&'a BarrierLoops>,
    /// While an arm of a converted branch is lowered (`lower_select`): the values it gives
    /// registers, instead of writing them.
    pub overlay: Option<HashMap<Slot, Value>>,
    /// The variables live at the start of each segment (what a barrier saves and a resume
    /// reloads; what a converted branch must merge).
    pub live: Vec<std::collections::HashSet<Slot>>,
    pub counters: Vec<Variable>,
    pub ctx: Value,
    pub regs: Value,
    pub steps: Variable,
    pub budget: Value,
    /// The space table and its length (`JitCtx::spaces`, `space_count`), loaded at entry.
    pub table: Value,
    pub space_count: Value,
    pub bail: Block,
    pub seg_blocks: Vec<Block>,
    pub callout: super::callout_trampoline::Callouts,
    pub callees: HashMap<u32, FuncRef>,
    /// The subgroup instructions of the function (segment, instruction index) with the block
    /// where each one's continuation is lowered; resume point `segments + 1 + i` for the i-th.
    pub group_sites: Vec<(usize, u32, Block)>,
    /// A whole subgroup in one call (`lanes`): the lanes' shared state, the lane whose
    /// registers `val` and `set` use now, and its active flag while the lane is lowered
    /// unconditionally (writes to registers other lanes may still need keep their old value
    /// where it is 0, and bails need it set).
    pub lanes: Option<super::lanes::LaneState>,
    pub lane: u32,
    pub guard: Option<Value>,
    /// The index (in the function's code) of the instruction being lowered.
    pub at: u32,
}

impl<'a, 'b, 'p> FnLower<'a, 'b, 'p> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        b: &'a mut FunctionBuilder<'b>,
        shared: &'a mut Shared<'p>,
        func_index: u32,
        f: &'p Function,
        vars: &[Slot],
        loops: Option<&'a BarrierLoops>,
        callout: super::callout_trampoline::Callouts,
        callees: HashMap<u32, FuncRef>,
        lane_count: u32,
    ) -> Self {
        let var_list: Vec<(Slot, Variable)> =
            vars.iter().map(|s| (*s, b.declare_var(I64))).collect();
        // The other lanes' variables right after lane 0's: lane `l`'s copy of a variable is
        // `l × vars.len()` further (`var`).
        for _ in 1..lane_count {
            for _ in vars {
                b.declare_var(I64);
            }
        }
        let counters = loops
            .map(|l| l.headers.iter().map(|_| b.declare_var(I64)).collect())
            .unwrap_or_default();
        let steps = b.declare_var(I64);
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        let p = b.block_params(entry).to_vec();
        let bail = b.create_block();
        b.set_cold_block(bail);
        let seg_blocks = f.segments.iter().map(|_| b.create_block()).collect();
        let known = analysis::known_spaces(f, &shared.constants, shared.native_code);
        let live = {
            let set = vars.iter().copied().collect();
            liveness::live_in(f, &set, shared.native_code)
        };
        let vars: HashMap<Slot, Variable> = var_list.iter().copied().collect();
        let shadows = if lane_count == 1 && shared.native_code {
            floats::declare_shadows(b, f, &vars)
        } else {
            HashMap::new()
        };
        FnLower {
            overlay: None,
            live,
            vars,
            shadows,
            var_list,
            known,
            hoisted: HashMap::new(),
            offsets: HashMap::new(),
            loops,
            counters,
            ctx: p[0],
            regs: p[1],
            steps,
            budget: p[0],
            table: p[0],
            space_count: p[0],
            bail,
            seg_blocks,
            callout,
            callees,
            group_sites: Vec::new(),
            lanes: None,
            lane: 0,
            guard: None,
            at: 0,
            b,
            shared,
            func_index,
            f,
        }
    }

    /// Lowers the whole function.
    pub(super) fn lower(&mut self) {
        let trusted = MemFlagsData::trusted();
        let resume = self.b.block_params(self.b.current_block().expect("entry"))[2];
        self.budget = self.b.ins().load(I64, invariant(), self.ctx, CTX_BUDGET);
        self.table = self.b.ins().load(I64, invariant(), self.ctx, CTX_SPACES);
        self.space_count = self
            .b
            .ins()
            .load(I64, invariant(), self.ctx, CTX_SPACE_COUNT);
        let steps = self.b.ins().load(I64, trusted, self.ctx, CTX_STEPS);
        self.b.def_var(self.steps, steps);
        let zero = self.b.ins().iconst(I64, 0);
        for c in self.counters.clone() {
            self.b.def_var(c, zero);
        }
        // Every cycle of the control-flow graph has an edge to a segment whose index is not
        // higher than its source's: the budget is checked when such a segment starts.
        let mut header = vec![false; self.f.segments.len()];
        for (i, seg) in self.f.segments.iter().enumerate() {
            for t in analysis::successors(&seg.term) {
                if (t as usize) <= i {
                    header[t as usize] = true;
                }
            }
        }
        let start = self.seg_blocks[self.f.entry as usize];
        let resumes = analysis::barrier_continuations(self.f);
        for (i, seg) in self.f.segments.iter().enumerate() {
            for k in seg.start..seg.end {
                if group::shape(&self.f.code[k as usize]).is_some() {
                    let cont = self.b.create_block();
                    self.group_sites.push((i, k, cont));
                }
            }
        }
        let resumes_here = !resumes.is_empty() || !self.group_sites.is_empty();
        self.hoist_spaces(header.contains(&true) && !resumes_here);
        if !resumes_here {
            self.b.ins().jump(start, &[]);
        } else {
            let resume_block = self.b.create_block();
            self.b.ins().brif(resume, resume_block, &[], start, &[]);
            self.b.switch_to_block(resume_block);
            self.reload_state(resume);
        }
        // Bail: the dispatch goes to the interpreter.
        self.b.switch_to_block(self.bail);
        let s = self.b.ins().iconst(I64, status::BAIL as i64);
        self.b.ins().return_(&[s]);

        for (i, seg) in self.f.segments.iter().enumerate() {
            self.b.switch_to_block(self.seg_blocks[i]);
            self.spend_steps(seg.end - seg.start + 1);
            if header[i] {
                self.check_steps();
            }
            for k in seg.start..seg.end {
                let inst = &self.f.code[k as usize];
                self.at = k;
                if let Some(site) = self.group_sites.iter().position(|g| g.1 == k) {
                    self.lower_group(site);
                } else if self.shared.native_code && analysis::native(inst) {
                    self.lower_native(inst);
                    self.shared.native += 1;
                } else {
                    self.lower_callout(k);
                }
            }
            self.lower_term(i as SegId, &seg.term, seg.term_source);
        }
    }

    /// Loads the base, length and read-only flag of every memory space a known pointer of this
    /// function points into (an index past the table reads the null space, where every access
    /// is out of bounds). `pinned`: at function entry, for a function whose loops would
    /// otherwise load them again in every iteration (Cranelift does not hoist these loads out
    /// of loops); else where each is first needed, so that a call that needs none (a resume
    /// after a barrier, say) loads none.
    pub fn hoist_spaces(&mut self, pinned: bool) {
        let trusted = if pinned {
            MemFlagsData::trusted().with_readonly()
        } else {
            invariant()
        };
        let mut spaces: Vec<u32> = self.known.values().copied().collect();
        spaces.sort_unstable();
        spaces.dedup();
        if spaces.is_empty() {
            return;
        }
        let (table, count) = (self.table, self.space_count);
        for s in spaces {
            let space = load_space(self.b, trusted, (table, count), s);
            self.hoisted.insert(s, space);
        }
    }

    /// At a resume: the variables and loop counters from the invocation's state, then a jump
    /// to the segment after the barrier (`resume − 1`).
    fn reload_state(&mut self, resume: Value) {
        let base = self.shared.prog.slot_count as i64 + 2;
        for (k, c) in self.counters.clone().into_iter().enumerate() {
            let v = self.load_word(base + k as i64);
            self.b.def_var(c, v);
        }
        let mut sw = Switch::new();
        let targets = analysis::barrier_continuations(self.f);
        let blocks: Vec<Block> = targets.iter().map(|_| self.b.create_block()).collect();
        for (t, blk) in targets.iter().zip(&blocks) {
            sw.set_entry(*t as u128 + 1, *blk);
        }
        let first_site = self.f.segments.len() as u128 + 1;
        let site_blocks: Vec<Block> = self
            .group_sites
            .iter()
            .map(|_| self.b.create_block())
            .collect();
        for (i, blk) in site_blocks.iter().enumerate() {
            sw.set_entry(first_site + i as u128, *blk);
        }
        sw.emit(self.b, resume, self.bail);
        // Per continuation: the variables live there, then the segment.
        for (t, blk) in targets.into_iter().zip(blocks) {
            self.b.switch_to_block(blk);
            self.reload_live(t);
            self.b.ins().jump(self.seg_blocks[t as usize], &[]);
        }
        // After a subgroup instruction: the variables live after it (its result, written by
        // the driver, among them), then the rest of its segment.
        for (i, blk) in site_blocks.into_iter().enumerate() {
            self.b.switch_to_block(blk);
            let live = self.live_after_site(i);
            self.reload_set(&live);
            let cont = self.group_sites[i].2;
            self.b.ins().jump(cont, &[]);
        }
    }

    /// The current lane's copy of lane 0's variable `v`.
    pub fn lane_var(&self, v: Variable) -> Variable {
        if self.lane == 0 {
            return v;
        }
        Variable::from_u32(v.as_u32() + self.lane * self.var_list.len() as u32)
    }

    /// The current lane's variable of register `slot`, if it has one.
    pub fn var(&self, slot: Slot) -> Option<Variable> {
        self.vars.get(&slot).map(|v| self.lane_var(*v))
    }

    /// The variables live right after the `site`-th subgroup instruction.
    fn live_after_site(&self, site: usize) -> std::collections::HashSet<Slot> {
        let (seg, k, _) = self.group_sites[site];
        let vars = self.vars.keys().copied().collect();
        liveness::live_after(self.f, &self.live, seg, k, &vars, self.shared.native_code)
    }

    /// The `site`-th subgroup instruction: the invocation saves its operands and the variables
    /// live after it, its resume point, the instruction and the loop counters (its dynamic
    /// instance), and returns `GROUP`; the driver runs the instruction for the subgroup
    /// (`group::run`) and resumes it at the continuation, where lowering goes on.
    fn lower_group(&mut self, site: usize) {
        let (_, k, cont) = self.group_sites[site];
        let mut keep = self.live_after_site(site);
        if let Some(g) = group::shape(&self.f.code[k as usize]) {
            keep.extend(g.a..g.a + g.a_len);
            keep.extend(g.b..g.b + g.b_len);
        }
        self.spill_set(&keep);
        let resume = self.f.segments.len() as i64 + 1 + site as i64;
        self.suspend(resume, k as i64, status::GROUP);
        self.b.switch_to_block(cont);
    }

    /// Stores the resume point, the instruction `what` and the loop counters (the dynamic
    /// instance the driver compares) after the registers, and returns `code`.
    fn suspend(&mut self, resume: i64, what: i64, code: u64) {
        let n = self.shared.prog.slot_count as i64;
        let resume = self.b.ins().iconst(I64, resume);
        self.store_word(n, resume);
        let what = self.b.ins().iconst(I64, what);
        self.store_word(n + 1, what);
        for (k, c) in self.counters.clone().into_iter().enumerate() {
            let v = self.b.use_var(c);
            self.store_word(n + 2 + k as i64, v);
        }
        self.return_status(code);
    }

    /// Reads the variables live at the start of segment `seg` from the register file.
    fn reload_live(&mut self, seg: SegId) {
        let live = self.live[seg as usize].clone();
        self.reload_set(&live);
    }

    /// Reads the variables of `slots` from the register file.
    pub fn reload_set(&mut self, slots: &std::collections::HashSet<Slot>) {
        for (slot, var) in self.var_list.clone() {
            if slots.contains(&slot) {
                let v = self.load_word(slot as i64);
                self.def_reg(slot, self.lane_var(var), v);
            }
        }
    }

    /// Writes the variables of `slots` to the register file.
    pub fn spill_set(&mut self, slots: &std::collections::HashSet<Slot>) {
        for (slot, var) in self.var_list.clone() {
            if slots.contains(&slot) {
                let v = self.b.use_var(self.lane_var(var));
                self.store_word(slot as i64, v);
            }
        }
    }

    /// The 64-bit word `index` of the invocation's state. (Addressed as the register file plus
    /// an offset, the form `lower_loop::store_builtins` stores built-ins in: with the entry
    /// function inlined into the workgroup loop, Cranelift's alias analysis then forwards each
    /// built-in from its store to this load, which it matches by address value and offset.)
    pub fn load_word(&mut self, index: i64) -> Value {
        self.b
            .ins()
            .load(I64, MemFlagsData::trusted(), self.regs, word_offset(index))
    }

    /// Stores `v` into word `index` of the invocation's state.
    pub fn store_word(&mut self, index: i64, v: Value) {
        self.b
            .ins()
            .store(MemFlagsData::trusted(), v, self.regs, word_offset(index));
    }

    /// The value of register `slot`: its variable, its constant, or a load from the register
    /// file.
    pub fn val(&mut self, slot: Slot) -> Value {
        if let Some(v) = self.overlay.as_ref().and_then(|o| o.get(&slot)) {
            return *v;
        }
        if let Some(v) = self.var(slot) {
            return self.b.use_var(v);
        }
        if let Some(c) = self.constant(slot) {
            return self.b.ins().iconst(I64, c as i64);
        }
        self.load_word(slot as i64)
    }

    /// The value of register `slot` when [`Self::val`] reads it as a constant of the run (no
    /// converted branch's arm and no variable holds it).
    pub fn constant(&self, slot: Slot) -> Option<u64> {
        if self.var(slot).is_some() || self.overlay.as_ref().is_some_and(|o| o.contains_key(&slot))
        {
            return None;
        }
        self.shared.constants.get(&slot).copied()
    }

    /// Sets register `slot` (a variable, else the register file). While a lane is lowered
    /// under a guard, a register another lane may still read keeps its value where the guard
    /// is 0.
    pub fn set(&mut self, slot: Slot, v: Value) {
        if let Some(o) = self.overlay.as_mut() {
            o.insert(slot, v);
            return;
        }
        let v = match (self.guard, &self.lanes) {
            (Some(g), Some(l)) if l.masked.contains(&slot) || self.var(slot).is_none() => {
                let old = self.val(slot);
                self.b.ins().select(g, v, old)
            }
            _ => v,
        };
        match self.var(slot) {
            Some(var) => self.def_reg(slot, var, v),
            None => self.store_word(slot as i64, v),
        }
    }

    /// Writes every variable back to the register file.
    pub fn spill_vars(&mut self) {
        for (slot, var) in self.var_list.clone() {
            let v = self.b.use_var(self.lane_var(var));
            self.store_word(slot as i64, v);
        }
    }

    /// Reads every variable from the register file.
    pub fn reload_vars(&mut self) {
        for (slot, var) in self.var_list.clone() {
            let v = self.load_word(slot as i64);
            self.def_reg(slot, self.lane_var(var), v);
        }
    }

    /// Branches to the bail block when `cond` (an `icmp` result) is true (and the lane being
    /// lowered is active).
    pub fn bail_if(&mut self, cond: Value) {
        let cond = match self.guard {
            Some(g) => self.b.ins().band(cond, g),
            None => cond,
        };
        let cont = self.b.create_block();
        self.b.ins().brif(cond, self.bail, &[], cont, &[]);
        self.b.switch_to_block(cont);
    }

    /// Returns `code` from the function after writing the step count back.
    pub fn return_status(&mut self, code: u64) {
        self.store_steps();
        let s = self.b.ins().iconst(I64, code as i64);
        self.b.ins().return_(&[s]);
    }

    fn store_steps(&mut self) {
        let s = self.b.use_var(self.steps);
        self.b
            .ins()
            .store(MemFlagsData::trusted(), s, self.ctx, CTX_STEPS);
    }

    fn load_steps(&mut self) {
        let s = self
            .b
            .ins()
            .load(I64, MemFlagsData::trusted(), self.ctx, CTX_STEPS);
        self.b.def_var(self.steps, s);
    }

    /// Spends `n` steps (checked at the next loop header, call or exit).
    pub fn spend_steps(&mut self, n: u32) {
        let s = self.b.use_var(self.steps);
        let s = self.b.ins().iadd_imm_s(s, n as i64);
        self.b.def_var(self.steps, s);
    }

    /// Past the budget the function returns `STEPS`.
    pub fn check_steps(&mut self) {
        let s = self.b.use_var(self.steps);
        let over = self
            .b
            .ins()
            .icmp(IntCC::UnsignedGreaterThan, s, self.budget);
        let out = self.b.create_block();
        let cont = self.b.create_block();
        self.b.set_cold_block(out);
        self.b.ins().brif(over, out, &[], cont, &[]);
        self.b.switch_to_block(out);
        let st = self.b.ins().iconst(I64, status::STEPS as i64);
        self.b.ins().return_(&[st]);
        self.b.switch_to_block(cont);
    }

    /// A new entry of the call-out table for instruction `index` of the function.
    pub fn new_callout(&mut self, index: u32) -> usize {
        self.shared.callouts.push(Callout {
            func: self.func_index,
            index,
        });
        self.shared.callouts.len() - 1
    }

    /// Runs instruction `index` of the function through the interpreter.
    fn lower_callout(&mut self, index: u32) {
        let id = self.new_callout(index);
        self.call_out(id);
    }

    /// Calls call-out `id` for the current register file: the variables written to it before,
    /// a bail when the instruction reported, the variables read back after.
    pub fn call_out(&mut self, id: usize) {
        self.spill_vars();
        let r = self.callout.call(self.b, (self.ctx, self.regs), id);
        let bad = self
            .b
            .ins()
            .icmp_imm_s(IntCC::NotEqual, r, status::DONE as i64);
        self.bail_if(bad);
        self.reload_vars();
    }

    /// The copies and loop-counter updates of an edge from segment `from`, then a jump to its
    /// target.
    pub fn take_edge(&mut self, from: SegId, e: &Edge) {
        self.copy_regs(&e.copies);
        self.count_edge(from, e.target);
        self.b.ins().jump(self.seg_blocks[e.target as usize], &[]);
    }

    /// Whether the edge `from → to` updates a loop counter.
    fn counts(&self, from: SegId, to: SegId) -> bool {
        self.loops
            .is_some_and(|l| l.step(from, to).is_some() || l.exits(from, to).next().is_some())
    }

    /// Updates the loop counters the edge `from → to` changes: those of the loops it leaves
    /// (back to 0), and that of `to` when it is a counted loop header.
    fn count_edge(&mut self, from: SegId, to: SegId) {
        let Some(loops) = self.loops else {
            return;
        };
        for k in loops.exits(from, to) {
            let zero = self.b.ins().iconst(I64, 0);
            self.b.def_var(self.counters[k], zero);
        }
        let Some(step) = loops.step(from, to) else {
            return;
        };
        match step {
            CounterStep::Start(k) => {
                let one = self.b.ins().iconst(I64, 1);
                self.b.def_var(self.counters[k], one);
            }
            CounterStep::Next(k) => {
                let c = self.b.use_var(self.counters[k]);
                let c = self.b.ins().iadd_imm_s(c, 1);
                self.b.def_var(self.counters[k], c);
            }
        }
    }

    /// The block a conditional branch or switch goes to for edge `e`: the target itself, or a
    /// new block for the edge's copies and counter updates, filled by [`Self::fill_edges`]
    /// once the branch is emitted (a block must be finished before the next is started).
    fn edge_block<'e>(
        &mut self,
        from: SegId,
        e: &'e Edge,
        pending: &mut Vec<(Block, &'e Edge)>,
    ) -> Block {
        if e.copies.is_empty() && !self.counts(from, e.target) {
            return self.seg_blocks[e.target as usize];
        }
        let blk = self.b.create_block();
        pending.push((blk, e));
        blk
    }

    /// Fills the edge blocks of [`Self::edge_block`].
    fn fill_edges(&mut self, from: SegId, pending: Vec<(Block, &Edge)>) {
        for (blk, e) in pending {
            self.b.switch_to_block(blk);
            self.take_edge(from, e);
        }
    }

    fn lower_term(&mut self, seg: SegId, term: &'p Term, term_source: u32) {
        match term {
            Term::Branch(e) => self.take_edge(seg, e),
            Term::BranchConditional {
                cond,
                on_true,
                on_false,
            } => {
                if self.if_convert(seg, *cond, on_true, on_false) {
                    return;
                }
                let c = self.val(*cond);
                let mut pending = Vec::new();
                let t = self.edge_block(seg, on_true, &mut pending);
                let f = self.edge_block(seg, on_false, &mut pending);
                self.b.ins().brif(c, t, &[], f, &[]);
                self.fill_edges(seg, pending);
            }
            Term::Switch {
                selector,
                cases,
                default,
                ..
            } => {
                let v = self.val(*selector);
                let mut sw = Switch::new();
                let mut seen = std::collections::HashSet::new();
                let mut pending = Vec::new();
                for (value, e) in cases.iter() {
                    // The interpreter takes the first case equal to the selector.
                    if seen.insert(*value) {
                        let blk = self.edge_block(seg, e, &mut pending);
                        sw.set_entry(*value as u128, blk);
                    }
                }
                let d = self.edge_block(seg, default, &mut pending);
                sw.emit(self.b, v, d);
                self.fill_edges(seg, pending);
            }
            Term::Return => self.return_status(status::DONE),
            Term::ReturnValue { src, count } => {
                let (ret, _) = self.f.ret;
                let values: Vec<Value> = (0..*count).map(|i| self.val(src + i)).collect();
                for (i, v) in values.into_iter().enumerate() {
                    self.store_word(ret as i64 + i as i64, v);
                }
                self.return_status(status::DONE);
            }
            Term::Call { func, args, next } => {
                let values: Vec<Value> = args.iter().map(|(_, s)| self.val(*s)).collect();
                for ((d, _), v) in args.iter().zip(values) {
                    self.store_word(*d as i64, v);
                }
                self.store_steps();
                let zero = self.b.ins().iconst(I64, 0);
                let callee = self.callees[func];
                let call = self.b.ins().call(callee, &[self.ctx, self.regs, zero]);
                let r = self.b.inst_results(call)[0];
                self.load_steps();
                let stop = self.b.create_block();
                let cont = self.b.create_block();
                self.b.ins().brif(r, stop, &[], cont, &[]);
                // KILLED, BAIL and STEPS end the caller too.
                self.b.switch_to_block(stop);
                self.b.ins().return_(&[r]);
                self.b.switch_to_block(cont);
                self.count_edge(seg, *next);
                self.b.ins().jump(self.seg_blocks[*next as usize], &[]);
            }
            Term::Barrier { next } => {
                let live = self.live[*next as usize].clone();
                self.spill_set(&live);
                self.suspend(*next as i64 + 1, term_source as i64, status::BARRIER);
            }
            Term::Kill => self.return_status(status::KILLED),
            Term::Unreachable => {
                self.b.ins().jump(self.bail, &[]);
            }
        }
    }
}

/// The base, length and read-only flag of memory space `space` from the space table `table` of
/// `count` entries (`runtime::Space`), loaded with `flags`; a space past the table reads entry
/// 0, the null space, where every access is out of bounds.
pub(super) fn load_space(
    b: &mut FunctionBuilder,
    flags: MemFlagsData,
    (table, count): (Value, Value),
    space: u32,
) -> (Value, Value, Value) {
    let want = b.ins().iconst(I64, space as i64);
    let inside = b.ins().icmp(IntCC::UnsignedLessThan, want, count);
    let zero = b.ins().iconst(I64, 0);
    let index = b.ins().select(inside, want, zero);
    let off = b.ins().imul_imm_s(index, SPACE_SIZE);
    let at = b.ins().iadd(table, off);
    let base = b.ins().load(I64, flags, at, runtime::SPACE_BASE);
    let len = b.ins().load(I64, flags, at, runtime::SPACE_LEN);
    let ro = b.ins().load(I64, flags, at, runtime::SPACE_READ_ONLY);
    (base, len, ro)
}

/// The byte offset of word `index` of an invocation's state.
fn word_offset(index: i64) -> i32 {
    i32::try_from(index * 8).expect("a register file of fewer than 2^28 words")
}
