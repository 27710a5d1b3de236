//! Register promotion: a variable whose pointer never escapes lives in registers instead of
//! private memory ("mem2reg" without SSA construction).
//!
//! A promoted variable owns `n` consecutive registers (its value's scalar leaves, in register
//! order). Its OpVariable becomes register writes of the initial value (the initialiser, else
//! zero: what private memory holds after `VarInit`); an OpStore becomes register copies into
//! the variable's registers and an OpLoad copies out of them, or reads them in place (an
//! *aliased* load, below). Registers are per lane and every instruction writes only the
//! active lanes, so under divergence each lane keeps exactly its own value: no phis needed.
//!
//! Which variables (all rules checked at compile time):
//! - Function variables of any function the entry point reaches. Recursion is refused
//!   (`func`), so a function is never active twice in one lane and one set of registers per
//!   variable is enough, as one private-memory slot per variable was before.
//! - Built-in Input variables with 32- or 64-bit integer components (never written; the run
//!   fills their registers, see `dispatch::builtins`).
//! - Every use of the pointer, and of every access chain derived from it, is the pointer of an
//!   OpLoad or OpStore (Input variables: OpLoad only) or the base of an OpAccessChain /
//!   OpInBoundsAccessChain whose indices are constants inside the bounds of the type they index
//!   (so the registers it reaches are known at compile time). Anything else (a function call
//!   argument, OpPtrAccessChain, OpCopyMemory, OpPtrEqual, a conversion or bitcast, a phi or
//!   select, an extended instruction, an atomic, a store of the pointer itself) keeps the
//!   variable in memory.
//! - Its memory layout has no overlapping scalars (each scalar its own bytes), so that a
//!   store to one part never changes another, as in registers; at most
//!   [`MAX_PROMOTED_SLOTS`] registers; no type memory cannot hold (the normal path reports it).
//!
//! Register values equal what a store then load through memory gives: integers are held
//! zero-extended to their width, floats as their bit pattern, booleans as 0/1 (the engine's
//! register invariant, `program::inst::Slot`); memory keeps those bits and a load returns them.
//!
//! Aliased loads: an OpLoad from a promoted variable needs no copy when its value is only
//! used later in the same block, not by a phi, and no store to an overlapping part of the same
//! variable lies between the load and its last use; its result id then names the variable's
//! registers. Loads of built-ins are always aliased (their registers never change).

use super::globals::sc;
use super::{Compiler, Value};
use crate::error::ExecError;
use crate::program::{Inst, Scalar, Slot};
use spvx_spirv::index::{FunctionInfo, Type};
use spvx_spirv::instruction::{Id, Instruction};
use spvx_spirv::op::Op;
use std::collections::{HashMap, HashSet};

/// The most registers one promoted variable may take (larger ones stay in memory).
pub(crate) const MAX_PROMOTED_SLOTS: u32 = 256;

/// Where a promoted pointer points: the `count` registers from `slot` of variable `var`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Home {
    pub slot: Slot,
    pub count: u32,
    pub var: Id,
}

/// The state of promotion during one compilation.
#[derive(Default)]
pub(crate) struct Promotion {
    /// The functions the entry point reaches (their bodies are where pointers are used).
    pub reachable: Vec<Id>,
    /// Instruction indices using each id, in the reachable functions (built on first use).
    uses: Option<HashMap<Id, Vec<usize>>>,
    /// Promoted variables and constant access chains into them.
    pub homes: HashMap<Id, Home>,
    /// OpLoad results that name their variable's registers (no code).
    pub aliased: HashSet<Id>,
    pub stats: crate::program::PromotionStats,
}

/// The uses of one variable, when it can be promoted.
#[derive(Default)]
struct Plan {
    /// The variable and every pointer derived from it: id, first register relative to the
    /// variable's, register count.
    pointers: Vec<(Id, u32, u32)>,
    /// Indices of the OpLoads and OpStores through those pointers.
    loads: Vec<usize>,
    stores: Vec<usize>,
}

impl Compiler<'_> {
    /// Builds the use lists of the reachable functions once.
    fn ensure_uses(&mut self) {
        if self.promote.uses.is_some() {
            return;
        }
        let mut uses: HashMap<Id, Vec<usize>> = HashMap::new();
        for f in &self.ix.functions {
            if !self.promote.reachable.contains(&f.id) {
                continue;
            }
            for index in f.def..=f.end {
                for id in self.insts[index].referenced_ids() {
                    let list = uses.entry(id).or_default();
                    if list.last() != Some(&index) {
                        list.push(index);
                    }
                }
            }
        }
        self.promote.uses = Some(uses);
    }

    /// The value of a constant index (read as a signed integer of its width), if it is one.
    fn const_index(&self, id: Id) -> Option<i64> {
        if !self.ix.is_constant(id) {
            return None;
        }
        let (width, _) = self.ix.int_type(self.ix.type_of(id)?)?;
        let raw = match self.values.get(&id) {
            Some(v) => *self.eval.get(v.slot as usize)?,
            None => self.ix.const_u64(id)?,
        };
        Some(crate::bits::sext(raw, width))
    }

    /// The registers (first, relative to the base pointee's, and the new pointee type) that a
    /// constant access chain `inst` reaches from a pointee of type `ty`; `None` when an index
    /// is not a constant inside its bounds.
    fn constant_path(&self, index: usize, inst: &Instruction, ty: Id) -> Option<(u32, Id)> {
        let mut rel = 0u32;
        let mut t = ty;
        for o in inst.operands.iter().skip(1) {
            let i = self.const_index(o.id()?)?;
            let i32 = u32::try_from(i).ok()?;
            let (skip, next) = match self.ty(index, t).ok()?.clone() {
                Type::Struct { members } => {
                    let next = *members.get(i32 as usize)?;
                    let mut skip = 0u32;
                    for m in &members[..i32 as usize] {
                        skip = skip.checked_add(self.slot_count(index, *m).ok()?)?;
                    }
                    (skip, next)
                }
                Type::Array { element, length } => {
                    let n = self.array_length(index, length).ok()?;
                    (i32 < n).then_some(())?;
                    (
                        i32.checked_mul(self.slot_count(index, element).ok()?)?,
                        element,
                    )
                }
                Type::Vector { component, count } => {
                    (i32 < count).then_some(())?;
                    (
                        i32.checked_mul(self.slot_count(index, component).ok()?)?,
                        component,
                    )
                }
                Type::Matrix { column, count } => {
                    (i32 < count).then_some(())?;
                    (
                        i32.checked_mul(self.slot_count(index, column).ok()?)?,
                        column,
                    )
                }
                _ => return None,
            };
            rel = rel.checked_add(skip)?;
            t = next;
        }
        Some((rel, t))
    }

    /// Follows every use of variable `root` (pointee `pointee`) and of the access chains
    /// derived from it; `None` when one of them is not a load, a store (if `writable`) or a
    /// constant access chain.
    fn plan_uses(&self, root: Id, pointee: Id, writable: bool) -> Option<Plan> {
        let uses = self.promote.uses.as_ref()?;
        let mut plan = Plan::default();
        let mut work = vec![(root, 0u32, pointee)];
        while let Some((p, rel, ty)) = work.pop() {
            let count = self.slot_count(0, ty).ok()?;
            plan.pointers.push((p, rel, count));
            for &u in uses.get(&p).map_or(&[][..], Vec::as_slice) {
                let inst = &self.insts[u];
                let mut at = inst
                    .operands
                    .iter()
                    .enumerate()
                    .filter(|(_, o)| o.id() == Some(p))
                    .map(|(k, _)| k);
                let only_first = at.next() == Some(0) && at.next().is_none();
                match inst.opcode {
                    _ if !only_first => return None,
                    Op::Load => plan.loads.push(u),
                    Op::Store if writable => plan.stores.push(u),
                    Op::AccessChain | Op::InBoundsAccessChain => {
                        let (r, t) = self.constant_path(u, inst, ty)?;
                        work.push((inst.result?, rel.checked_add(r)?, t));
                    }
                    _ => return None,
                }
            }
        }
        Some(plan)
    }

    /// True when no two scalars of a value of type `ty` share bytes in its (natural) memory
    /// layout, and memory can hold it at all.
    fn layout_disjoint(&self, index: usize, ty: Id) -> bool {
        let Ok(mut leaves) = self.value_leaves(index, ty) else {
            return false;
        };
        leaves.sort_by_key(|l| l.offset);
        leaves
            .windows(2)
            .all(|w| w[0].offset as u64 + w[0].scalar.mem_bytes() as u64 <= w[1].offset as u64)
    }

    /// Registers for the built-in Input variable `id` (pointee `pointee`) when every use is a
    /// load (through constant access chains); `None` keeps it in private memory.
    pub(crate) fn promote_builtin(
        &mut self,
        index: usize,
        id: Id,
        pointee: Id,
    ) -> Result<Option<Slot>, ExecError> {
        let Ok((comp, _)) = self.scalar_components(index, pointee) else {
            return Ok(None);
        };
        if !matches!(comp, Scalar::Int(32 | 64)) {
            return Ok(None);
        }
        self.ensure_uses();
        let Some(plan) = self.plan_uses(id, pointee, false) else {
            return Ok(None);
        };
        let count = plan.pointers[0].2;
        let slot = self.alloc(index, count)?;
        for &(p, rel, n) in &plan.pointers {
            self.promote.homes.insert(
                p,
                Home {
                    slot: slot + rel,
                    count: n,
                    var: id,
                },
            );
        }
        self.promote.stats.builtins += 1;
        Ok(Some(slot))
    }

    /// Promotes the Function variables of `f` that can be, and aliases the loads that can be.
    /// Called once the results of `f` have their registers.
    pub(crate) fn promote_function(&mut self, f: &FunctionInfo) -> Result<(), ExecError> {
        self.ensure_uses();
        let Some(first) = f.blocks.first() else {
            return Ok(());
        };
        let mut plans = Vec::new();
        for index in first.label_index + 1..first.terminator {
            let inst = &self.insts[index];
            let function_class = inst.operands.first().and_then(|o| o.word()) == Some(sc::FUNCTION);
            if inst.opcode != Op::Variable || !function_class {
                continue;
            }
            let (Some(id), Some(pty)) = (inst.result, inst.result_type) else {
                continue;
            };
            let Some(Type::Pointer { pointee, .. }) = self.ix.ty(pty).cloned() else {
                continue;
            };
            let plan = self
                .layout_disjoint(index, pointee)
                .then(|| self.plan_uses(id, pointee, true))
                .flatten()
                .filter(|p| p.pointers[0].2 <= MAX_PROMOTED_SLOTS);
            let Some(plan) = plan else {
                self.promote.stats.kept_in_memory += 1;
                continue;
            };
            let slot = self.alloc(index, plan.pointers[0].2)?;
            for &(p, rel, n) in &plan.pointers {
                self.promote.homes.insert(
                    p,
                    Home {
                        slot: slot + rel,
                        count: n,
                        var: id,
                    },
                );
            }
            self.promote.stats.variables += 1;
            plans.push(plan);
        }
        for plan in &plans {
            for &load in &plan.loads {
                if self.load_can_alias(f, load, plan) {
                    self.alias_load(load);
                }
            }
        }
        // Loads of promoted built-ins (registers never written) in this function.
        for b in &f.blocks {
            for index in b.label_index + 1..b.terminator {
                let inst = &self.insts[index];
                if inst.opcode != Op::Load {
                    continue;
                }
                let Some(home) = inst
                    .operands
                    .first()
                    .and_then(|o| o.id())
                    .and_then(|p| self.promote.homes.get(&p))
                else {
                    continue;
                };
                let is_builtin = self
                    .ix
                    .def_inst(home.var)
                    .and_then(|v| v.operands.first())
                    .and_then(|o| o.word())
                    == Some(sc::INPUT);
                if is_builtin {
                    self.alias_load(index);
                }
            }
        }
        Ok(())
    }

    /// True when the OpLoad at `load` may read its variable's registers in place: its value is
    /// used only later in the same block and not by a phi, and no store to an overlapping part
    /// of the variable comes between the load and its last use.
    fn load_can_alias(&self, f: &FunctionInfo, load: usize, plan: &Plan) -> bool {
        let inst = &self.insts[load];
        let (Some(result), Some(home)) = (
            inst.result,
            inst.operands
                .first()
                .and_then(|o| o.id())
                .and_then(|p| self.promote.homes.get(&p)),
        ) else {
            return false;
        };
        let Some(block) = f
            .blocks
            .iter()
            .find(|b| b.label_index < load && load <= b.terminator)
        else {
            return false;
        };
        let Some(uses) = self.promote.uses.as_ref() else {
            return false;
        };
        let users = uses.get(&result).map_or(&[][..], Vec::as_slice);
        let mut last = load;
        for &u in users {
            if u <= load || u > block.terminator || self.insts[u].opcode == Op::Phi {
                return false;
            }
            last = last.max(u);
        }
        let range = home.slot..home.slot + home.count;
        plan.stores.iter().all(|&s| {
            if s <= load || s > last {
                return true;
            }
            let target = self.insts[s]
                .operands
                .first()
                .and_then(|o| o.id())
                .and_then(|p| self.promote.homes.get(&p));
            target.is_none_or(|t| t.slot + t.count <= range.start || range.end <= t.slot)
        })
    }

    /// Makes the result of the OpLoad at `load` name its variable's registers.
    fn alias_load(&mut self, load: usize) {
        let inst = &self.insts[load];
        let (Some(result), Some(home)) = (
            inst.result,
            inst.operands
                .first()
                .and_then(|o| o.id())
                .and_then(|p| self.promote.homes.get(&p))
                .copied(),
        ) else {
            return;
        };
        let Some(v) = self.values.get(&result).copied() else {
            return;
        };
        self.values.insert(
            result,
            Value {
                slot: home.slot,
                ty: v.ty,
            },
        );
        if self.promote.aliased.insert(result) {
            self.promote.stats.aliased_loads += 1;
        }
    }

    /// Compiles OpVariable, OpLoad, OpStore or an access chain of a promoted variable; false
    /// when `inst` does not concern one (the memory path compiles it).
    pub(crate) fn promoted_op(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut super::func::Code,
    ) -> Result<bool, ExecError> {
        let home_of = |c: &Self, k: usize| {
            inst.operands
                .get(k)
                .and_then(|o| o.id())
                .and_then(|p| c.promote.homes.get(&p).copied())
        };
        match inst.opcode {
            Op::Variable => {
                let Some(home) = inst
                    .result
                    .and_then(|r| self.promote.homes.get(&r).copied())
                else {
                    return Ok(false);
                };
                match inst.operands.get(1).and_then(|o| o.id()) {
                    Some(init) => {
                        let v = self.value(index, init)?;
                        copy(code, index, home.slot, v.slot, home.count);
                    }
                    None => {
                        for k in 0..home.count {
                            code.push(
                                index,
                                Inst::Const {
                                    dst: home.slot + k,
                                    value: 0,
                                },
                            );
                        }
                    }
                }
                Ok(true)
            }
            Op::Load => {
                let Some(home) = home_of(self, 0) else {
                    return Ok(false);
                };
                let result = inst.result.unwrap_or(0);
                if !self.promote.aliased.contains(&result) {
                    let dst = self.result(index, inst)?;
                    copy(code, index, dst.slot, home.slot, home.count);
                }
                Ok(true)
            }
            Op::Store => {
                let Some(home) = home_of(self, 0) else {
                    return Ok(false);
                };
                let v = self.operand(index, inst, 1)?;
                copy(code, index, home.slot, v.slot, home.count);
                Ok(true)
            }
            Op::AccessChain | Op::InBoundsAccessChain => Ok(inst
                .result
                .is_some_and(|r| self.promote.homes.contains_key(&r))),
            _ => Ok(false),
        }
    }
}

/// `count` register copies `dst + k = src + k` (none where they are the same register).
fn copy(code: &mut super::func::Code, index: usize, dst: Slot, src: Slot, count: u32) {
    if dst == src {
        return;
    }
    for k in 0..count {
        code.push(
            index,
            Inst::Copy {
                dst: dst + k,
                src: src + k,
            },
        );
    }
}
