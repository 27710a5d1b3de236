//! What the module says about each output binding: which instructions produce the values
//! stored into it, and so which freedoms of the specification apply to its elements.
//!
//! For every `OpStore` (and `OpAtomic*` write) whose pointer leads (through access chains and
//! copies) to a resource variable, the stored value is followed back through the module:
//! through moves (`OpCompositeExtract`/`Construct`, `OpVectorShuffle`, `OpCopyObject`,
//! `OpSelect`, `OpPhi`), through loads of function, private and workgroup variables (to every
//! value stored into them), through calls (to the callee's returned values) and parameters (to
//! every call's argument). The operations met first are the binding's *roots* (the last
//! operation before the store); the others are *inner* operations. Along the way:
//!
//! - each `OpFAdd`/`OpFSub` operand that is an `OpFMul`, neither decorated NoContraction, is a
//!   contraction site;
//! - each GLSL.std.450 `Fma` is a site that may be computed unfused;
//! - each VALVE mixed dot product, and each operation decorated RelaxedPrecision, is recorded;
//! - each operation's precision comes from [`crate::compare::precision`].
//!
//! Facts are per binding, not per element: when several stores write one binding, their facts
//! are merged (a freedom of any of them is taken as a freedom of every element).

use super::precision::{self, Precision};
use super::verdict::Site;
use spvx_spirv::grammar::grammar;
use spvx_spirv::index::ModuleIndex;
use spvx_spirv::instruction::{Id, Instruction};
use spvx_spirv::op::{GlslStd450, Op};
use std::collections::{BTreeMap, HashMap, HashSet};

/// The facts of one output binding.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OutputFacts {
    /// The last operations before the stores, with their precision and float width (0 for
    /// non-float results).
    pub roots: Vec<(Site, Precision, u32)>,
    /// Inexact float operations before the last ones.
    pub inner: Vec<(Site, Precision)>,
    /// (OpFMul, OpFAdd/OpFSub) pairs that may be contracted.
    pub contractions: Vec<(Site, Site)>,
    /// GLSL.std.450 Fma instructions (may be computed unfused).
    pub fmas: Vec<Site>,
    /// VALVE mixed float dot products.
    pub mixdot: Vec<Site>,
    /// Operations decorated RelaxedPrecision.
    pub relaxed: Vec<Site>,
    /// Float arithmetic operations met (any precision).
    pub float_ops: usize,
}

/// The facts of every output binding of an entry point.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModuleFacts {
    /// By (set, binding).
    pub outputs: BTreeMap<(u32, u32), OutputFacts>,
    /// Float widths the entry point declares DenormPreserve for (no flushing allowed).
    pub denorm_preserve: Vec<u32>,
    /// Float widths the entry point declares RoundingModeRTE or RoundingModeRTZ for (the
    /// rounding of correctly rounded operations is then fixed).
    pub rounding_fixed: Vec<u32>,
}

impl ModuleFacts {
    /// The facts of the module's output bindings for entry point `entry` (the execution modes
    /// are read from it; stores are followed in every function).
    pub fn of(ix: &ModuleIndex, entry: &str) -> ModuleFacts {
        let g = grammar();
        let mode = |n: &str| {
            g.kind(g.common.execution_mode)
                .enumerant_by_name(n)
                .map(|e| e.value)
        };
        let entry_fn = ix
            .entry_point_list()
            .into_iter()
            .find(|e| e.name == entry)
            .map(|e| e.function);
        let widths = |names: &[&str]| -> Vec<u32> {
            let modes: Vec<u32> = names.iter().filter_map(|n| mode(n)).collect();
            ix.insts
                .iter()
                .filter(|i| i.opcode == Op::ExecutionMode)
                .filter(|i| {
                    entry_fn.is_some() && i.operands.first().and_then(|o| o.id()) == entry_fn
                })
                .filter(|i| {
                    i.operands
                        .get(1)
                        .and_then(|o| o.word())
                        .is_some_and(|m| modes.contains(&m))
                })
                .filter_map(|i| i.operands.get(2)?.word())
                .collect()
        };
        let denorm_preserve = widths(&["DenormPreserve"]);
        let rounding_fixed = widths(&["RoundingModeRTE", "RoundingModeRTZ"]);
        let w = Walker::new(ix);
        let mut outputs: BTreeMap<(u32, u32), OutputFacts> = BTreeMap::new();
        for (var, key) in &w.resources {
            let Some(values) = w.stores.get(var) else {
                continue;
            };
            let facts = outputs.entry(*key).or_default();
            let mut seen = HashSet::new();
            for &v in values {
                w.visit(v, true, facts, &mut seen);
            }
        }
        ModuleFacts {
            outputs,
            denorm_preserve,
            rounding_fixed,
        }
    }

    /// True when subnormals of this float width may be flushed to zero.
    pub fn may_flush(&self, width: u32) -> bool {
        !self.denorm_preserve.contains(&width)
    }
}

struct Walker<'a> {
    ix: &'a ModuleIndex,
    /// Values stored into each root variable (resource or not), in module order.
    stores: HashMap<Id, Vec<Id>>,
    /// Resource variables: (set, binding).
    resources: BTreeMap<Id, (u32, u32)>,
    no_contraction: Option<u32>,
    relaxed: Option<u32>,
}

impl<'a> Walker<'a> {
    fn new(ix: &'a ModuleIndex) -> Walker<'a> {
        let g = grammar();
        let dec = |n: &str| {
            g.kind(g.common.decoration)
                .enumerant_by_name(n)
                .map(|e| e.value)
        };
        let resources = ix
            .resource_variables()
            .into_iter()
            .map(|v| (v.variable, (v.set, v.binding)))
            .collect();
        let mut w = Walker {
            ix,
            stores: HashMap::new(),
            resources,
            no_contraction: dec("NoContraction"),
            relaxed: dec("RelaxedPrecision"),
        };
        for inst in &ix.insts {
            let (ptr, value) = match inst.opcode {
                Op::Store => (
                    ModuleIndex::operand_id(inst, 0),
                    ModuleIndex::operand_id(inst, 1),
                ),
                // Pointer, scope, semantics, value.
                Op::AtomicStore
                | Op::AtomicExchange
                | Op::AtomicIAdd
                | Op::AtomicISub
                | Op::AtomicSMin
                | Op::AtomicUMin
                | Op::AtomicSMax
                | Op::AtomicUMax
                | Op::AtomicAnd
                | Op::AtomicOr
                | Op::AtomicXor
                | Op::AtomicFAddEXT
                | Op::AtomicFMinEXT
                | Op::AtomicFMaxEXT => (
                    ModuleIndex::operand_id(inst, 0),
                    ModuleIndex::operand_id(inst, 3),
                ),
                Op::Variable => (inst.result, ModuleIndex::operand_id(inst, 1)),
                _ => continue,
            };
            if let (Some(root), Some(v)) = (ptr.and_then(|p| w.root_var(p)), value) {
                w.stores.entry(root).or_default().push(v);
            }
        }
        w
    }

    /// The variable a pointer points into, through access chains and copies.
    fn root_var(&self, mut ptr: Id) -> Option<Id> {
        for _ in 0..256 {
            let inst = self.ix.def_inst(ptr)?;
            match inst.opcode {
                Op::Variable => return Some(ptr),
                Op::AccessChain
                | Op::InBoundsAccessChain
                | Op::PtrAccessChain
                | Op::InBoundsPtrAccessChain
                | Op::CopyObject => ptr = ModuleIndex::operand_id(inst, 0)?,
                _ => return None,
            }
        }
        None
    }

    fn site(&self, id: Id, inst: &Instruction) -> Site {
        let what = match ext_glsl(self.ix, inst) {
            Some(f) => format!("OpExtInst GLSL.std.450 {}", f.name()),
            None => inst.opcode.name().to_string(),
        };
        Site {
            id,
            what,
            name: self
                .ix
                .debug_name(id)
                .filter(|n| !n.is_empty())
                .map(str::to_string),
        }
    }

    fn float_width(&self, inst: &Instruction) -> Option<u32> {
        let t = self.ix.scalar_or_component(inst.result_type?)?;
        self.ix.float_type(t).map(|(w, _)| w)
    }

    fn decorated(&self, id: Id, dec: Option<u32>) -> bool {
        dec.is_some_and(|d| self.ix.has_decoration(id, d))
    }

    /// Follows value `id` (see the module comment); `at_root` while only moves were crossed.
    fn visit(
        &self,
        id: Id,
        at_root: bool,
        facts: &mut OutputFacts,
        seen: &mut HashSet<(Id, bool)>,
    ) {
        if !seen.insert((id, at_root)) {
            return;
        }
        let Some(inst) = self.ix.def_inst(id) else {
            return;
        };
        let ids = || inst.operands.iter().filter_map(|o| o.id());
        match inst.opcode {
            // Moves: the root stays the root.
            Op::CompositeExtract
            | Op::CompositeConstruct
            | Op::CopyObject
            | Op::VectorShuffle
            | Op::CopyLogical
            | Op::Bitcast => {
                for o in ids() {
                    self.visit(o, at_root, facts, seen);
                }
            }
            Op::Select => {
                if let Some(c) = ModuleIndex::operand_id(inst, 0) {
                    self.visit(c, false, facts, seen);
                }
                for o in ids().skip(1) {
                    self.visit(o, at_root, facts, seen);
                }
            }
            Op::Phi => {
                for o in inst.operands.iter().step_by(2).filter_map(|o| o.id()) {
                    self.visit(o, at_root, facts, seen);
                }
            }
            Op::Load => {
                let root = ModuleIndex::operand_id(inst, 0).and_then(|p| self.root_var(p));
                if let Some(r) = root.filter(|r| !self.resources.contains_key(r)) {
                    for &v in self.stores.get(&r).into_iter().flatten() {
                        self.visit(v, at_root, facts, seen);
                    }
                }
            }
            Op::FunctionCall => {
                let callee = ModuleIndex::operand_id(inst, 0);
                if let Some(f) = self.ix.functions.iter().find(|f| Some(f.id) == callee) {
                    for ret in &self.ix.insts[f.def..f.end.min(self.ix.insts.len())] {
                        if ret.opcode == Op::ReturnValue
                            && let Some(v) = ModuleIndex::operand_id(ret, 0)
                        {
                            self.visit(v, at_root, facts, seen);
                        }
                    }
                }
                for o in ids().skip(1) {
                    self.visit(o, false, facts, seen);
                }
            }
            Op::FunctionParameter => {
                let Some(f) = self.ix.functions.iter().find(|f| {
                    f.params
                        .iter()
                        .any(|&p| self.ix.insts.get(p).and_then(|i| i.result) == Some(id))
                }) else {
                    return;
                };
                let Some(pos) = f
                    .params
                    .iter()
                    .position(|&p| self.ix.insts.get(p).and_then(|i| i.result) == Some(id))
                else {
                    return;
                };
                for call in self
                    .ix
                    .insts
                    .iter()
                    .filter(|i| i.opcode == Op::FunctionCall)
                {
                    if ModuleIndex::operand_id(call, 0) == Some(f.id)
                        && let Some(a) = ModuleIndex::operand_id(call, pos + 1)
                    {
                        self.visit(a, at_root, facts, seen);
                    }
                }
            }
            _ => self.operation(id, inst, at_root, facts, seen),
        }
    }

    /// An operation (not a move): its precision, contraction and other facts, then its
    /// operands as inner values.
    fn operation(
        &self,
        id: Id,
        inst: &Instruction,
        at_root: bool,
        facts: &mut OutputFacts,
        seen: &mut HashSet<(Id, bool)>,
    ) {
        if self.ix.is_constant(id) || inst.opcode.declares_type_or_constant() {
            return;
        }
        let width = self.float_width(inst);
        let glsl = ext_glsl(self.ix, inst);
        let p = match (width, glsl) {
            (Some(w), Some(f)) => precision::of_glsl(f, w),
            (Some(w), None) => precision::of_op(inst.opcode, w),
            (None, _) => Precision::Exact,
        };
        let site = || self.site(id, inst);
        if width.is_some() && inst.opcode != Op::Load {
            facts.float_ops += 1;
        }
        if at_root {
            facts.roots.push((site(), p, width.unwrap_or(0)));
        } else if !matches!(p, Precision::Exact | Precision::CorrectlyRounded) {
            facts.inner.push((site(), p));
        }
        if glsl == Some(GlslStd450::Fma) {
            facts.fmas.push(site());
        }
        if matches!(
            inst.opcode,
            Op::FDot2MixAcc32VALVE | Op::FDot2MixAcc16VALVE | Op::FDot4MixAcc32VALVE
        ) {
            facts.mixdot.push(site());
        }
        if self.decorated(id, self.relaxed) && width.is_some() {
            facts.relaxed.push(site());
        }
        if matches!(inst.opcode, Op::FAdd | Op::FSub) && !self.decorated(id, self.no_contraction) {
            for m in inst.operands.iter().take(2).filter_map(|o| o.id()) {
                if let Some(mi) = self.ix.def_inst(m)
                    && mi.opcode == Op::FMul
                    && !self.decorated(m, self.no_contraction)
                {
                    let pair = (self.site(m, mi), site());
                    if !facts.contractions.contains(&pair) {
                        facts.contractions.push(pair);
                    }
                }
            }
        }
        for o in inst.operands.iter().filter_map(|o| o.id()) {
            self.visit(o, false, facts, seen);
        }
    }
}

/// The GLSL.std.450 function of an `OpExtInst` from that set.
pub fn ext_glsl(ix: &ModuleIndex, inst: &Instruction) -> Option<GlslStd450> {
    if inst.opcode != Op::ExtInst {
        return None;
    }
    let set = ModuleIndex::operand_id(inst, 0)?;
    if ix.ext_imports.get(&set).map(String::as_str) != Some("GLSL.std.450") {
        return None;
    }
    GlslStd450::from_number(inst.operands.get(1)?.word()?)
}
