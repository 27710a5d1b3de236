//! The variable-pointer rules proper (Logical and PhysicalStorageBuffer64 addressing), as
//! spirv-val 2025.5 applies them (SPIRV-Tools source/val/validate_logical_pointers.cpp,
//! `ValidateLogicalPointerReturns` and `ValidateVariablePointers`):
//!
//! - which instructions may *return* a logical pointer: OpVariable, OpAccessChain,
//!   OpInBoundsAccessChain, OpFunctionParameter, OpImageTexelPointer, OpCopyObject and OpUndef
//!   always; OpSelect, OpPhi, OpFunctionCall, OpPtrAccessChain, OpLoad, OpConstantNull and
//!   OpFunction only a StorageBuffer pointer with VariablePointersStorageBuffer or a Workgroup
//!   pointer with VariablePointers (SPIR-V §2.16.1); no other instruction;
//! - a *variable pointer* is the result of OpPtrAccessChain, OpLoad, OpSelect, OpPhi,
//!   OpFunctionCall or OpConstantNull, a parameter some call passes one to, or a pointer
//!   computed from one (spirv-val's reading of §2.2.2 "Variable pointer");
//! - OpArrayLength must not take a variable pointer (SPIR-V §2.16.1, the rules for
//!   variable pointers);
//! - without VariablePointers, an OpSelect/OpPhi pointer must not reach two different
//!   StorageBuffer or Workgroup variables (traced back through access chains, copies, calls,
//!   returns, and Function/Private variables holding pointers): "Variable pointers must point
//!   into the same structure (or OpConstantNull)" (SPV_KHR_variable_pointers, §2.16.1);
//! - a variable pointer must not point to an array of Block/BufferBlock structs, to an object
//!   that is or contains a matrix, or to a column or a component of a column of a matrix
//!   (SPIR-V §2.16.1, Logical addressing with variable pointers).
//!
//! - with the Shader capability, the Base of OpPtrAccessChain (and its untyped forms) into Uniform, StorageBuffer,
//!   PhysicalStorageBuffer, PushConstant (or Workgroup with WorkgroupMemoryExplicitLayoutKHR)
//!   memory has a pointer type decorated ArrayStride (validate_memory.cpp
//!   `ValidatePtrAccessChain`; SPIR-V §3.52.8 OpPtrAccessChain: the element step is the
//!   pointer type's ArrayStride in those storage classes).
//!
//! Untyped pointers (SPV_KHR_untyped_pointers) are judged as spirv-val 2025.5 judges them:
//! OpUntypedVariableKHR, OpUntypedAccessChainKHR and OpUntypedInBoundsAccessChainKHR may
//! return one always, OpUntypedPtrAccessChainKHR with a variable-pointers capability (and
//! like OpPtrAccessChain it makes a variable pointer and needs an ArrayStride on its Base's
//! type), OpUntypedInBoundsPtrAccessChainKHR never (spirv-val's lists leave it out); the trace
//! of OpSelect/OpPhi follows their Base and stops at untyped variables; OpUntypedArrayLengthKHR
//! must not take a variable pointer. The pointee rules (blocks, matrices) need a pointee type,
//! which untyped pointers lack. `--relax-logical-pointer` lifts these rules, as in spirv-val.

use super::{LogicalPointerError, SC_PHYSICAL_STORAGE_BUFFER, SC_STORAGE_BUFFER, SC_WORKGROUP};
use crate::error::ValError;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use spvx_spirv::index::{ModuleIndex, Type};
use spvx_spirv::instruction::{Id, Instruction};
use spvx_spirv::op::Op;

const SC_FUNCTION: u32 = 7;
const SC_PRIVATE: u32 = 6;
const BLOCK: u32 = 2;
const BUFFER_BLOCK: u32 = 3;
const ARRAY_STRIDE: u32 = 6;
const SC_UNIFORM: u32 = 2;
const SC_PUSH_CONSTANT: u32 = 9;

/// The module's logical pointers and who uses what.
struct Pointers<'i> {
    ix: &'i ModuleIndex,
    /// Instruction indices using each id as an `IdRef` operand, with the operand's position.
    uses: HashMap<Id, Vec<(usize, usize)>>,
    /// Whether each id is a variable pointer (memo).
    variable: HashMap<Id, bool>,
}

impl<'i> Pointers<'i> {
    fn new(ix: &'i ModuleIndex) -> Self {
        let id_ref = ix.grammar.common.id_ref;
        let mut uses: HashMap<Id, Vec<(usize, usize)>> = HashMap::default();
        for (index, inst) in ix.insts.iter().enumerate() {
            for (k, o) in inst.operands.iter().enumerate() {
                if o.kind == id_ref
                    && let Some(id) = o.id()
                {
                    uses.entry(id).or_default().push((index, k));
                }
            }
        }
        Pointers {
            ix,
            uses,
            variable: HashMap::default(),
        }
    }

    /// The storage class of `id` when it is a logical pointer (typed or untyped).
    fn class(&self, id: Id) -> Option<u32> {
        self.ix
            .pointer_class(self.ix.type_of(id)?)
            .filter(|&c| c != SC_PHYSICAL_STORAGE_BUFFER)
    }

    fn operand(inst: &Instruction, k: usize) -> Option<Id> {
        inst.operands.get(k).and_then(|o| o.id())
    }

    /// The arguments that calls pass for the parameter defined at instruction `index`.
    fn call_arguments(&self, index: usize) -> Vec<Id> {
        let ix = self.ix;
        let Some(f) = ix.function_of(index).and_then(|f| ix.functions.get(f)) else {
            return Vec::new();
        };
        let Some(position) = f.params.iter().position(|&p| p == index) else {
            return Vec::new();
        };
        self.uses
            .get(&f.id)
            .into_iter()
            .flatten()
            .filter(|&&(i, k)| k == 0 && ix.insts[i].opcode == Op::FunctionCall)
            .filter_map(|&(i, _)| Self::operand(&ix.insts[i], 1 + position))
            .collect()
    }

    /// What `id`'s variable-pointer status depends on: `Ok(v)` when it is decided by its own
    /// opcode, else the pointers it is computed from (for a parameter: the arguments calls
    /// pass for it).
    fn depends_on(&self, id: Id) -> Result<bool, Vec<Id>> {
        let ix = self.ix;
        let Some(def) = ix.def(id) else {
            return Ok(false);
        };
        let inst = &ix.insts[def.index];
        match inst.opcode {
            Op::PtrAccessChain
            | Op::UntypedPtrAccessChainKHR
            | Op::UntypedInBoundsPtrAccessChainKHR
            | Op::Load
            | Op::Select
            | Op::Phi
            | Op::FunctionCall
            | Op::ConstantNull => Ok(true),
            Op::FunctionParameter if self.class(id).is_none() => Ok(false),
            Op::FunctionParameter => Err(self.call_arguments(def.index)),
            _ => {
                let id_ref = ix.grammar.common.id_ref;
                Err(inst
                    .operands
                    .iter()
                    .filter(|o| o.kind == id_ref)
                    .filter_map(|o| o.id())
                    .filter(|&o| self.class(o).is_some())
                    .collect())
            }
        }
    }

    /// True when `id` is a variable pointer: a depth-first walk with an explicit stack (no
    /// recursion, so a long chain of access chains cannot exhaust the stack); an id met again
    /// while its own answer is pending counts as not variable, as in spirv-val's memoised
    /// recursion.
    fn is_variable(&mut self, id: Id) -> bool {
        if let Some(&v) = self.variable.get(&id) {
            return v;
        }
        // (id, its dependencies once expanded)
        let mut stack: Vec<(Id, Option<Vec<Id>>)> = vec![(id, None)];
        let mut pending: HashSet<Id> = HashSet::default();
        while let Some((top, deps)) = stack.pop() {
            match deps {
                None => {
                    if self.variable.contains_key(&top) || !pending.insert(top) {
                        continue;
                    }
                    match self.depends_on(top) {
                        Ok(v) => {
                            pending.remove(&top);
                            self.variable.insert(top, v);
                        }
                        Err(list) => {
                            let todo: Vec<Id> = list
                                .iter()
                                .copied()
                                .filter(|d| !self.variable.contains_key(d) && !pending.contains(d))
                                .collect();
                            stack.push((top, Some(list)));
                            stack.extend(todo.into_iter().map(|d| (d, None)));
                        }
                    }
                }
                Some(list) => {
                    let v = list
                        .iter()
                        .any(|d| self.variable.get(d).copied().unwrap_or(false));
                    pending.remove(&top);
                    self.variable.insert(top, v);
                }
            }
        }
        self.variable.get(&id).copied().unwrap_or(false)
    }

    /// The instructions (indices) a pointer `from` may come from, traced back through access
    /// chains, OpSelect, OpPhi, copies, calls and returns, loads, and the stores into
    /// Function/Private variables (spirv-val's `TraceVariablePointers`).
    fn trace(&self, from: usize) -> Vec<usize> {
        let ix = self.ix;
        let mut stack = vec![from];
        let mut seen: HashSet<usize> = HashSet::default();
        let push_id = |stack: &mut Vec<usize>, id: Option<Id>| {
            if let Some(d) = id.and_then(|id| ix.def(id)) {
                stack.push(d.index);
            }
        };
        while let Some(i) = stack.pop() {
            if !seen.insert(i) {
                continue;
            }
            let inst = &ix.insts[i];
            let op = |k| Self::operand(inst, k);
            match inst.opcode {
                Op::AccessChain
                | Op::InBoundsAccessChain
                | Op::PtrAccessChain
                | Op::CopyObject
                | Op::Load
                | Op::Store
                | Op::ReturnValue => push_id(&mut stack, op(0)),
                // SPV_KHR_untyped_pointers: the Base follows the Base Type.
                Op::UntypedAccessChainKHR
                | Op::UntypedInBoundsAccessChainKHR
                | Op::UntypedPtrAccessChainKHR
                | Op::UntypedInBoundsPtrAccessChainKHR => push_id(&mut stack, op(1)),
                Op::Phi => {
                    for k in (0..inst.operands.len()).step_by(2) {
                        push_id(&mut stack, op(k));
                    }
                }
                Op::Select => {
                    push_id(&mut stack, op(1));
                    push_id(&mut stack, op(2));
                }
                Op::FunctionParameter => {
                    for a in self.call_arguments(i) {
                        push_id(&mut stack, Some(a));
                    }
                }
                Op::FunctionCall => {
                    let callee = op(0);
                    if let Some(f) = ix.functions.iter().find(|f| Some(f.id) == callee) {
                        for b in &f.blocks {
                            if ix.insts[b.terminator].opcode == Op::ReturnValue {
                                stack.push(b.terminator);
                            }
                        }
                    }
                }
                Op::Variable | Op::UntypedVariableKHR => {
                    let sc = inst.operands.first().and_then(|o| o.word());
                    if !matches!(sc, Some(SC_FUNCTION | SC_PRIVATE)) {
                        continue;
                    }
                    // The initializer: after the Data Type of an untyped variable.
                    let init = if inst.opcode == Op::Variable { 1 } else { 2 };
                    push_id(&mut stack, op(init));
                    // The stores into the variable, directly or through its access chains.
                    let mut pending: Vec<Id> = inst.result.into_iter().collect();
                    let mut done: HashSet<Id> = HashSet::default();
                    while let Some(p) = pending.pop() {
                        if !done.insert(p) {
                            continue;
                        }
                        for &(u, k) in self.uses.get(&p).into_iter().flatten() {
                            let user = &ix.insts[u];
                            if user.opcode == Op::Store && k == 0 {
                                push_id(&mut stack, Self::operand(user, 1));
                            } else if let Some(r) = user.result {
                                pending.push(r);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        seen.into_iter().collect()
    }
}

/// True for an array (or runtime array) of Block or BufferBlock structs.
fn is_block_array(ix: &ModuleIndex, ty: Id) -> bool {
    match ix.ty(ty) {
        Some(Type::Array { element, .. } | Type::RuntimeArray { element }) => {
            matches!(ix.ty(*element), Some(Type::Struct { .. }))
                && (ix.has_decoration(*element, BLOCK) || ix.has_decoration(*element, BUFFER_BLOCK))
        }
        _ => false,
    }
}

/// True when `ty` is or contains a matrix (through arrays, structs, vectors; not pointers).
fn contains_matrix(ix: &ModuleIndex, ty: Id, depth: u32) -> bool {
    if depth > 64 {
        return false;
    }
    match ix.ty(ty) {
        Some(Type::Matrix { .. }) => true,
        Some(Type::Array { element, .. } | Type::RuntimeArray { element }) => {
            contains_matrix(ix, *element, depth + 1)
        }
        Some(Type::Vector { component, .. }) => contains_matrix(ix, *component, depth + 1),
        Some(Type::Struct { members }) => {
            members.iter().any(|&m| contains_matrix(ix, m, depth + 1))
        }
        _ => false,
    }
}

/// True when access chain `inst` starts at a matrix or steps through one.
fn chain_enters_matrix(ix: &ModuleIndex, inst: &Instruction) -> bool {
    let first = match inst.opcode {
        Op::AccessChain | Op::InBoundsAccessChain => 1,
        Op::PtrAccessChain => 2,
        _ => return false,
    };
    let base_pointee =
        inst.operands
            .first()
            .and_then(|o| o.id())
            .and_then(|b| match ix.value_type(b) {
                Some(Type::Pointer { pointee, .. }) => Some(*pointee),
                _ => None,
            });
    let Some(mut ty) = base_pointee else {
        return false;
    };
    if matches!(ix.ty(ty), Some(Type::Matrix { .. })) {
        return true;
    }
    for o in inst.operands.iter().skip(first) {
        let next = match ix.ty(ty) {
            Some(Type::Struct { members }) => o
                .id()
                .and_then(|i| ix.const_u64(i))
                .and_then(|k| members.get(k as usize).copied()),
            Some(Type::Array { element, .. } | Type::RuntimeArray { element }) => Some(*element),
            Some(Type::Vector { component, .. }) => Some(*component),
            Some(Type::Matrix { column, .. }) => Some(*column),
            _ => None,
        };
        let Some(n) = next else {
            return false;
        };
        ty = n;
        if matches!(ix.ty(ty), Some(Type::Matrix { .. })) {
            return true;
        }
    }
    false
}

/// With the Shader capability, the Base of OpPtrAccessChain into explicitly laid-out memory has
/// a pointer type decorated ArrayStride (every addressing model, as spirv-val).
pub(super) fn ptr_access_chain_strides(ix: &ModuleIndex, out: &mut Vec<ValError>) {
    if !ix.has_capability("Shader") {
        return;
    }
    let explicit_workgroup = ix.has_capability("WorkgroupMemoryExplicitLayoutKHR");
    for (index, inst) in ix.insts.iter().enumerate() {
        // The Base: the first operand, or (untyped) the one after the Base Type.
        let base = match inst.opcode {
            Op::PtrAccessChain => 0,
            Op::UntypedPtrAccessChainKHR | Op::UntypedInBoundsPtrAccessChainKHR => 1,
            _ => continue,
        };
        let base_ty = Pointers::operand(inst, base).and_then(|b| ix.type_of(b));
        if let Some(t) = base_ty
            && let Some(storage_class) = ix.pointer_class(t)
            && (matches!(
                storage_class,
                SC_UNIFORM | SC_STORAGE_BUFFER | SC_PHYSICAL_STORAGE_BUFFER | SC_PUSH_CONSTANT
            ) || (explicit_workgroup && storage_class == SC_WORKGROUP))
            && !ix.has_decoration(t, ARRAY_STRIDE)
        {
            out.push(ValError::at(
                index,
                LogicalPointerError::PtrAccessChainWithoutArrayStride { ty: ix.name(t) },
            ));
        }
    }
}

/// Appends the errors of the rules above but the ArrayStride one.
pub(super) fn check(ix: &ModuleIndex, out: &mut Vec<ValError>) {
    let vp = ix.has_capability("VariablePointers");
    let vpsb = ix.has_capability("VariablePointersStorageBuffer");
    let mut p = Pointers::new(ix);
    for (index, inst) in ix.insts.iter().enumerate() {
        let err = |e| ValError::at(index, e);
        // OpArrayLength (or OpUntypedArrayLengthKHR, whose Pointer follows the Structure) of a
        // variable pointer.
        if matches!(inst.opcode, Op::ArrayLength | Op::UntypedArrayLengthKHR) {
            let at = usize::from(inst.opcode == Op::UntypedArrayLengthKHR);
            if let Some(s) = Pointers::operand(inst, at)
                && p.class(s).is_some()
                && p.is_variable(s)
            {
                out.push(err(LogicalPointerError::ArrayLengthOfVariablePointer {
                    opcode: inst.opcode.name().to_string(),
                    pointer: ix.name(s),
                }));
            }
            continue;
        }
        let Some(id) = inst.result else { continue };
        let Some(sc) = p.class(id) else { continue };
        // Which instructions may return a logical pointer.
        let allowed = (vpsb && sc == SC_STORAGE_BUFFER) || (vp && sc == SC_WORKGROUP);
        match inst.opcode {
            Op::Variable
            | Op::AccessChain
            | Op::InBoundsAccessChain
            | Op::FunctionParameter
            | Op::ImageTexelPointer
            | Op::CopyObject
            | Op::Undef
            | Op::UntypedAccessChainKHR
            | Op::UntypedInBoundsAccessChainKHR
            | Op::UntypedVariableKHR => {}
            Op::Select
            | Op::Phi
            | Op::FunctionCall
            | Op::PtrAccessChain
            | Op::UntypedPtrAccessChainKHR
            | Op::Load
            | Op::ConstantNull
            | Op::Function => {
                if !allowed {
                    out.push(err(LogicalPointerError::ReturnsNeedsVariablePointers {
                        opcode: inst.opcode.name().to_string(),
                    }));
                    continue;
                }
            }
            _ => {
                out.push(err(LogicalPointerError::MayNotReturn {
                    opcode: inst.opcode.name().to_string(),
                }));
                continue;
            }
        }
        if !p.is_variable(id) {
            continue;
        }
        // Without VariablePointers, one buffer (or Workgroup variable) per select.
        if !vp && matches!(inst.opcode, Op::Select | Op::Phi) {
            let sources: HashSet<usize> = p
                .trace(index)
                .into_iter()
                .filter(|&i| {
                    let v = &ix.insts[i];
                    matches!(v.opcode, Op::Variable | Op::UntypedVariableKHR)
                        && matches!(
                            v.operands.first().and_then(|o| o.word()),
                            Some(SC_STORAGE_BUFFER | SC_WORKGROUP)
                        )
                })
                .collect();
            if sources.len() > 1 {
                out.push(err(LogicalPointerError::DifferentStructures));
                continue;
            }
        }
        let Some(Type::Pointer { pointee, .. }) = ix.value_type(id) else {
            continue;
        };
        let pointee = *pointee;
        if is_block_array(ix, pointee) {
            out.push(err(LogicalPointerError::VariablePointerToBlockArray));
        } else if contains_matrix(ix, pointee, 0) {
            out.push(err(LogicalPointerError::VariablePointerToMatrix));
        } else if ix
            .float_type(ix.scalar_or_component(pointee).unwrap_or(pointee))
            .is_some()
            && matches!(
                ix.ty(pointee),
                Some(Type::Float { .. } | Type::Vector { .. })
            )
            && p.trace(index)
                .into_iter()
                .any(|i| chain_enters_matrix(ix, &ix.insts[i]))
        {
            out.push(err(LogicalPointerError::VariablePointerIntoMatrix));
        }
    }
}
