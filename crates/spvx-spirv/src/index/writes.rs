//! Whether a module can write the memory of a variable: a conservative answer for the engine,
//! which need not copy back a bound buffer or tensor the module never writes.
//!
//! The ids that may hold the variable's memory are followed from the variable through every
//! instruction that uses one of them: access chains, copies, `OpPhi`, `OpSelect`, function
//! arguments (to the callee's parameter), and loads of a value that is not plain data (a
//! pointer, a tensor or another handle, through which a later instruction may write). A use
//! that only reads (`OpLoad` of plain data, `OpArrayLength`, the source of `OpCopyMemory`,
//! tensor reads and size queries) or has no semantics (a `NonSemantic.` extended instruction,
//! such as a debug-info record) ends the trail; any other use — a store, an atomic, a
//! tensor write, a conversion to an integer, an extended instruction, an instruction this
//! file does not know — counts as a write. A module whose addressing model is not `Logical`
//! can make pointers from integers, which no trail follows: every variable of it may be
//! written. The answer "never written" is therefore a proof; "may be written" is not a claim
//! that it is.

use super::{ModuleIndex, Type};
use crate::instruction::Id;
use crate::op::Op;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

/// The `Logical` addressing model (SPIR-V §3.4).
const ADDRESSING_LOGICAL: u32 = 0;

impl ModuleIndex {
    /// The module-level variables (`OpVariable` outside functions) whose memory an
    /// instruction of the module may write, followed as the module's top comment says; every
    /// other one is never written.
    pub fn written_variables(&self) -> HashSet<Id> {
        let vars = self
            .insts
            .iter()
            .take(self.functions.first().map_or(self.insts.len(), |f| f.def));
        let vars: Vec<Id> = vars
            .filter(|i| i.opcode == Op::Variable)
            .filter_map(|i| i.result)
            .collect();
        if self.addressing_model() != Some(ADDRESSING_LOGICAL) {
            return vars.into_iter().collect();
        }
        let mut users: HashMap<Id, Vec<usize>> = HashMap::default();
        for (i, inst) in self.insts.iter().enumerate() {
            for id in inst.referenced_ids() {
                users.entry(id).or_default().push(i);
            }
        }
        vars.into_iter()
            .filter(|&v| self.reaches_a_write(v, &users))
            .collect()
    }

    /// Whether a trail of uses from variable `var` (`users`: the instructions referencing each
    /// id) meets a use that may write.
    fn reaches_a_write(&self, var: Id, users: &HashMap<Id, Vec<usize>>) -> bool {
        let mut reached: HashSet<Id> = HashSet::default();
        let mut work = vec![var];
        reached.insert(var);
        while let Some(id) = work.pop() {
            for &i in users.get(&id).map_or(&[][..], Vec::as_slice) {
                let inst = &self.insts[i];
                let at = |k: usize| Self::operand_id(inst, k) == Some(id);
                let also = match inst.opcode {
                    Op::Name
                    | Op::MemberName
                    | Op::Decorate
                    | Op::DecorateId
                    | Op::DecorateString
                    | Op::MemberDecorate
                    | Op::MemberDecorateString
                    | Op::EntryPoint
                    | Op::ArrayLength => None,
                    // (A non-semantic instruction has no effect on the module's semantics: a
                    // debug-info record naming the variable, say.)
                    Op::ExtInst if self.non_semantic(inst) => None,
                    Op::Load if self.is_plain_data(inst.result_type) => None,
                    Op::Load => inst.result,
                    Op::CopyMemory | Op::CopyMemorySized if !at(0) => None,
                    Op::TensorReadARM | Op::TensorQuerySizeARM if at(0) => None,
                    Op::AccessChain
                    | Op::InBoundsAccessChain
                    | Op::PtrAccessChain
                    | Op::InBoundsPtrAccessChain
                        if at(0) && inst.referenced_ids().filter(|&x| x == id).count() == 1 =>
                    {
                        inst.result
                    }
                    Op::CopyObject | Op::Phi | Op::Select => inst.result,
                    Op::FunctionCall => match self.argument_parameters(inst, id) {
                        Some(params) => {
                            for p in params {
                                if reached.insert(p) {
                                    work.push(p);
                                }
                            }
                            None
                        }
                        None => return true,
                    },
                    _ => return true,
                };
                if let Some(r) = also
                    && reached.insert(r)
                {
                    work.push(r);
                }
            }
        }
        false
    }

    /// Whether `inst` (an `OpExtInst`) is of a non-semantic instruction set (its import's name
    /// starts with `NonSemantic.`) and gives no value (its result type is `OpTypeVoid`, as
    /// SPV_KHR_non_semantic_info asks: a value, in a module that breaks the rule, would be a
    /// trail this file does not follow).
    fn non_semantic(&self, inst: &crate::instruction::Instruction) -> bool {
        let void = inst.result_type.and_then(|t| self.ty(t)) == Some(&Type::Void);
        void && Self::operand_id(inst, 0)
            .and_then(|set| self.ext_imports.get(&set))
            .is_some_and(|name| crate::grammar::is_non_semantic_import(name))
    }

    /// The parameters of the function `call` calls that receive `id` as an argument; `None`
    /// when the callee is not a function of the module or `id` is the callee itself.
    fn argument_parameters(
        &self,
        call: &crate::instruction::Instruction,
        id: Id,
    ) -> Option<Vec<Id>> {
        let callee = Self::operand_id(call, 0)?;
        if callee == id {
            return None;
        }
        let f = self.functions.iter().find(|f| f.id == callee)?;
        let mut params = Vec::new();
        for (k, p) in f.params.iter().enumerate() {
            if Self::operand_id(call, k + 1) == Some(id) {
                params.push(self.insts[*p].result?);
            }
        }
        Some(params)
    }

    /// True when type `ty` holds numbers and booleans only (scalars, vectors, matrices, and
    /// arrays and structs of them): a loaded value through which nothing can be written.
    fn is_plain_data(&self, ty: Option<Id>) -> bool {
        let mut work: Vec<Id> = ty.into_iter().collect();
        let mut seen: HashSet<Id> = HashSet::default();
        while let Some(t) = work.pop() {
            if !seen.insert(t) {
                continue;
            }
            match self.ty(t) {
                Some(Type::Bool | Type::Int { .. } | Type::Float { .. }) => {}
                Some(Type::Vector { component, .. }) => work.push(*component),
                Some(Type::Matrix { column, .. }) => work.push(*column),
                Some(Type::Array { element, .. } | Type::RuntimeArray { element }) => {
                    work.push(*element)
                }
                Some(Type::Struct { members }) => work.extend(members.iter().copied()),
                _ => return false,
            }
        }
        ty.is_some()
    }
}
