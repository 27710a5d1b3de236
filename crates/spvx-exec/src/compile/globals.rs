//! The module-level part: constants (and specialisation constants with their overrides,
//! OpSpecConstantOp evaluated by the engine's own instructions on a one-lane register file),
//! OpUndef, global variables (private memory, workgroup memory, buffers and push constants,
//! built-in inputs), and the workgroup size.

use super::types::{MatrixDeco, deco};
use super::{Compiler, Value};
use crate::config::RunConfig;
use crate::error::ExecError;
use crate::exec::{Ctx, Sink, execute};
use crate::memory::{Memory, Ptr, SPACE_BUFFER0, SPACE_NONE, SPACE_PRIVATE, SPACE_WORKGROUP};
use crate::program::{Builtin, BuiltinVar, Inst, Scalar};
use crate::resources::{BindingInfo, BindingKind};
use spvx_spirv::index::Type;
use spvx_spirv::instruction::{Id, Instruction, OperandValue};
use spvx_spirv::op::Op;
use std::collections::HashSet;

/// Storage classes (SPIR-V 1.6 §3.7).
pub(crate) mod sc {
    pub const UNIFORM_CONSTANT: u32 = 0;
    pub const INPUT: u32 = 1;
    pub const UNIFORM: u32 = 2;
    pub const OUTPUT: u32 = 3;
    pub const WORKGROUP: u32 = 4;
    pub const PRIVATE: u32 = 6;
    pub const FUNCTION: u32 = 7;
    pub const PUSH_CONSTANT: u32 = 9;
    pub const STORAGE_BUFFER: u32 = 12;
}

/// What the module-level pass produced besides slots.
#[derive(Default)]
pub(crate) struct Globals {
    /// The module-level variables the module may write (`ModuleIndex::written_variables`):
    /// `BindingInfo::written`.
    pub written_variables: HashSet<Id>,
    pub private_bytes: u32,
    pub private_init: Vec<u8>,
    pub workgroup_bytes: u32,
    /// Where the Workgroup blocks' shared region starts, once reserved (`workgroup_blocks`).
    pub workgroup_blocks: Option<u32>,
    pub builtins: Vec<BuiltinVar>,
    pub bindings: Vec<BindingInfo>,
    /// Runtime-sized arrays of buffers or tensors, and by variable id their length register.
    pub runtime_arrays: Vec<crate::program::RuntimeArray>,
    pub runtime_lengths: std::collections::HashMap<Id, u32>,
    /// The constant decorated BuiltIn WorkgroupSize, if any.
    pub workgroup_size: Option<Id>,
    /// CrossWorkgroup program-scope variables of a Kernel module (`kernel::cross_variable`):
    /// their bytes in the one memory object they share, and its initial contents.
    pub cross_bytes: u32,
    pub cross_init: Vec<u8>,
}

/// Reserves `size` bytes aligned to `align` at the end of a memory of `*used` bytes.
pub(crate) fn reserve(used: &mut u32, size: u64, align: u64) -> Option<u32> {
    let off = (*used as u64).next_multiple_of(align.clamp(1, 16));
    let end = off.checked_add(size)?;
    *used = u32::try_from(end).ok()?;
    Some(off as u32)
}

impl Compiler<'_> {
    /// Runs `code` on the one-lane constant register file.
    pub(crate) fn evaluate(&mut self, code: &[Inst]) {
        let cfg = RunConfig::default();
        let mut sink = Sink::default();
        let mut mem = Memory {
            buffers: &[],
            private: &mut [],
            private_bytes: 0,
            workgroup: &mut [],
            tensors: &[],
            writer_base: None,
        };
        let mut cx = Ctx {
            regs: &mut self.eval,
            width: 1,
            mask: 1,
            mem: &mut mem,
            sink: &mut sink,
            cfg: &cfg,
            source: 0,
        };
        for inst in code {
            let _ = execute(inst, &mut cx);
        }
    }

    /// A result id's slots, allocated for its type and marked fixed.
    fn fixed_value(&mut self, index: usize, inst: &Instruction) -> Result<Value, ExecError> {
        let (Some(ty), Some(id)) = (inst.result_type, inst.result) else {
            return Err(self.err(index, "missing result"));
        };
        let n = self.slot_count(index, ty)?;
        let slot = self.alloc(index, n)?;
        self.fixed.extend(slot..slot + n);
        let v = Value { slot, ty };
        self.values.insert(id, v);
        Ok(v)
    }

    /// Compiles everything before the first function.
    pub(crate) fn compile_globals(&mut self, reachable: &[Id]) -> Result<(), ExecError> {
        self.kstate.entry = reachable.first().copied();
        self.globals.written_variables = self.ix.written_variables().into_iter().collect();
        let used = self.used_ids(reachable);
        let end = self
            .ix
            .functions
            .first()
            .map_or(self.insts.len(), |f| f.def);
        for index in 0..end {
            let inst = &self.insts[index];
            let opcode = inst.opcode;
            match opcode {
                Op::ConstantTrue
                | Op::ConstantFalse
                | Op::SpecConstantTrue
                | Op::SpecConstantFalse => {
                    let v = self.fixed_value(index, inst)?;
                    let mut b = matches!(opcode, Op::ConstantTrue | Op::SpecConstantTrue) as u64;
                    if matches!(opcode, Op::SpecConstantTrue | Op::SpecConstantFalse)
                        && let Some(o) = self.spec_override(inst)
                    {
                        b = (o != 0) as u64;
                    }
                    self.eval[v.slot as usize] = b;
                }
                Op::Constant | Op::SpecConstant if self.is_wide_type(inst.result_type) => {
                    let v = self.fixed_value(index, inst)?;
                    self.wide_constant(index, inst, v)?;
                }
                Op::Constant | Op::SpecConstant => {
                    let v = self.fixed_value(index, inst)?;
                    let bits = self.scalar(index, v.ty)?.bits();
                    let mut value = match inst.operands.first().map(|o| &o.value) {
                        Some(OperandValue::Number(ws)) => ws
                            .iter()
                            .take(2)
                            .enumerate()
                            .fold(0u64, |a, (i, w)| a | (*w as u64) << (32 * i)),
                        Some(OperandValue::Word(w)) => *w as u64,
                        _ => return Err(self.err(index, "constant without a value")),
                    };
                    if opcode == Op::SpecConstant
                        && let Some(o) = self.spec_override(inst)
                    {
                        value = o;
                    }
                    self.eval[v.slot as usize] = value & crate::bits::low_bits(bits);
                }
                Op::ConstantNull
                | Op::Undef
                | Op::ConstantComposite
                | Op::SpecConstantComposite
                | Op::ConstantCompositeReplicateEXT
                | Op::SpecConstantCompositeReplicateEXT
                    if matches!(
                        inst.result_type.and_then(|t| self.ix.ty(t)),
                        Some(Type::Tensor { shape: Some(_), .. })
                    ) =>
                {
                    let v = self.fixed_value(index, inst)?;
                    self.tensor_constant(index, inst, v.slot)?;
                }
                Op::ConstantNull | Op::Undef => {
                    self.fixed_value(index, inst)?;
                }
                Op::ConstantComposite | Op::SpecConstantComposite => {
                    if let Some(Type::Tensor { .. }) = inst.result_type.and_then(|t| self.ix.ty(t))
                    {
                        return Err(
                            self.unsupported(index, "constants of a tensor type without a Shape")
                        );
                    }
                    let v = self.fixed_value(index, inst)?;
                    let mut at = v.slot as usize;
                    let end = at + self.slot_count(index, v.ty)? as usize;
                    for o in &inst.operands {
                        let Some(id) = o.id() else { continue };
                        let part = self.value(index, id)?;
                        let n = self.slot_count(index, part.ty)? as usize;
                        if at + n > end {
                            return Err(self.err(index, "constituents larger than the type"));
                        }
                        for k in 0..n {
                            self.eval[at + k] = self.eval[part.slot as usize + k];
                        }
                        at += n;
                    }
                }
                Op::ConstantCompositeReplicateEXT | Op::SpecConstantCompositeReplicateEXT => {
                    let v = self.fixed_value(index, inst)?;
                    let Some(part) = inst.operands.first().and_then(|o| o.id()) else {
                        return Err(self.err(index, "a replicated composite without a value"));
                    };
                    let part = self.value(index, part)?;
                    let n = self.slot_count(index, v.ty)? as usize;
                    let m = self.slot_count(index, part.ty)? as usize;
                    if m == 0 || !n.is_multiple_of(m) {
                        return Err(self.err(index, "a value that does not divide the type"));
                    }
                    for k in 0..n {
                        self.eval[v.slot as usize + k] = self.eval[part.slot as usize + k % m];
                    }
                }
                Op::TypeVectorIdEXT
                    if inst
                        .result
                        .is_some_and(|t| self.ix.ty(t) == Some(&Type::Other(opcode))) =>
                {
                    self.spec_vector(index, inst)?;
                }
                Op::SpecConstantOp => {
                    self.fixed_value(index, inst)?;
                    let Some(op) = inst.operands.first().and_then(|o| o.word()) else {
                        return Err(self.err(index, "OpSpecConstantOp without an opcode"));
                    };
                    let Some(op) = Op::from_number(op as u16) else {
                        return Err(self.unsupported(index, format!("opcode {}", op as u16)));
                    };
                    let inner = Instruction {
                        opcode: op,
                        result_type: inst.result_type,
                        result: inst.result,
                        operands: inst.operands[1..].to_vec(),
                    };
                    let mut code = super::func::Code::default();
                    self.translate(index, &inner, &mut code)?;
                    self.evaluate(&code.code);
                }
                Op::Variable => self.global_variable(index, inst, &used)?,
                _ => {}
            }
            if let Some(id) = inst.result
                && self
                    .deco(id, deco::BUILTIN)
                    .and_then(|w| w.first().copied())
                    == Some(25)
                && opcode != Op::Variable
            {
                self.globals.workgroup_size = Some(id);
            }
        }
        Ok(())
    }

    /// Resolves an `OpTypeVectorIdEXT` whose component count is a specialization constant
    /// (SPV_EXT_long_vector) to a vector of the count's value, specialised: from here on the
    /// type is an ordinary vector.
    fn spec_vector(&mut self, index: usize, inst: &Instruction) -> Result<(), ExecError> {
        let id = |i: usize| inst.operands.get(i).and_then(|o| o.id());
        let (Some(ty), Some(component), Some(count)) = (inst.result, id(0), id(1)) else {
            return Err(self.err(index, "OpTypeVectorIdEXT without its operands"));
        };
        let n = self.eval[self.value(index, count)?.slot as usize];
        // SPV_EXT_long_vector: "treated as an unsigned value and must be greater than zero".
        if n == 0 {
            return Err(self.err(
                index,
                format!(
                    "OpTypeVectorIdEXT {}: the component count {} is 0 once specialised",
                    self.ix.name(ty),
                    self.ix.name(count)
                ),
            ));
        }
        let count = u32::try_from(n)
            .ok()
            .filter(|&n| n <= super::MAX_VALUE_SLOTS)
            .ok_or_else(|| self.unsupported(index, format!("vectors of {n} components")))?;
        self.spec_vectors
            .insert(ty, Type::Vector { component, count });
        Ok(())
    }

    /// The override of a spec constant's SpecId, if given.
    fn spec_override(&self, inst: &Instruction) -> Option<u64> {
        let id = inst.result?;
        let spec_id = self.deco(id, deco::SPEC_ID)?.first().copied()?;
        self.opts.spec_constants.get(&spec_id).copied()
    }

    /// Every id referenced by the reachable functions, and the module-level ids those reach
    /// (a variable used only through a constant access chain, `OpSpecConstantOp
    /// InBoundsPtrAccessChain %table …`, or through another variable's initialiser).
    fn used_ids(&self, reachable: &[Id]) -> HashSet<Id> {
        let mut used = HashSet::new();
        for f in &self.ix.functions {
            if !reachable.contains(&f.id) {
                continue;
            }
            for inst in &self.insts[f.def..=f.end] {
                used.extend(inst.referenced_ids());
            }
        }
        // Module-level definitions precede their uses: one backward pass closes the set.
        let end = self
            .ix
            .functions
            .first()
            .map_or(self.insts.len(), |f| f.def);
        for inst in self.insts[..end].iter().rev() {
            if inst.result.is_some_and(|r| used.contains(&r)) {
                used.extend(inst.referenced_ids());
            }
        }
        used
    }

    fn global_variable(
        &mut self,
        index: usize,
        inst: &Instruction,
        used: &HashSet<Id>,
    ) -> Result<(), ExecError> {
        let (Some(ptr_ty), Some(id)) = (inst.result_type, inst.result) else {
            return Err(self.err(index, "OpVariable without a result"));
        };
        let class = inst
            .operands
            .first()
            .and_then(|o| o.word())
            .unwrap_or(u32::MAX);
        let Type::Pointer { pointee, .. } = self.ty(index, ptr_ty)?.clone() else {
            return Err(self.err(index, "OpVariable of a non-pointer type"));
        };
        // An array of buffers or of tensors (descriptor array): each element is its own
        // memory object.
        let buffer_array =
            if class == sc::STORAGE_BUFFER || class == sc::UNIFORM || class == sc::UNIFORM_CONSTANT
            {
                self.buffer_array(index, pointee)?
            } else {
                None
            };
        let (pointee, array) = match buffer_array {
            Some((element, count)) => (element, Some(count)),
            None => (pointee, None),
        };
        let slot = self.alloc(index, 1)?;
        self.fixed.push(slot);
        self.values.insert(id, Value { slot, ty: ptr_ty });
        if !used.contains(&id) {
            self.eval[slot as usize] = Ptr::new(SPACE_PRIVATE, u64::MAX).0;
            return Ok(());
        }
        if let Type::Tensor {
            element,
            rank,
            shape,
        } = self.ty(index, pointee)?.clone()
        {
            return self.tensor_variable(index, id, slot, element, (rank, shape), array);
        }
        let (size, align) = match self.ty(index, pointee)? {
            Type::Struct { .. }
            | Type::Array { .. }
            | Type::Vector { .. }
            | Type::Matrix { .. } => self.size_align(index, pointee, MatrixDeco::default())?,
            Type::Bool | Type::Int { .. } | Type::Float { .. } => {
                self.size_align(index, pointee, MatrixDeco::default())?
            }
            // A pointer variable: `global int *global p` (physical addressing), or a Private
            // variable holding a logical pointer (VariablePointers), kept as `memory::Ptr`
            // bits in the invocation's private memory.
            Type::Pointer { .. } if self.pointer_bits.is_some() || class == sc::PRIVATE => {
                self.size_align(index, pointee, MatrixDeco::default())?
            }
            _ => {
                return Err(self.unsupported(
                    index,
                    format!("variables of type {}", self.ix.name(pointee)),
                ));
            }
        };
        let too_big_error = self.err(
            index,
            format!("variable {} of {size} bytes is too large", self.ix.name(id)),
        );
        let too_big = || too_big_error.clone_message();
        let ptr = match class {
            sc::INPUT => {
                if let Type::Struct { members } = self.ty(index, pointee)?.clone() {
                    let off =
                        reserve(&mut self.globals.private_bytes, size, 8).ok_or_else(too_big)?;
                    self.builtin_block(index, pointee, &members, off)?;
                    self.eval[slot as usize] = Ptr::new(SPACE_PRIVATE, off as u64).0;
                    return Ok(());
                }
                let builtin = self
                    .deco(id, deco::BUILTIN)
                    .and_then(|w| w.first().copied())
                    .ok_or_else(|| {
                        self.unsupported(index, "Input variables other than built-ins")
                    })?;
                let builtin = self.builtin(index, builtin)?;
                // 32-bit components (Vulkan), or 64-bit `size_t` ones (OpenCL, Physical64).
                let (comp, count) = self.scalar_components(index, pointee)?;
                let component_bytes = comp.mem_bytes().clamp(4, 8);
                if let Some(reg) = self.promote_builtin(index, id, pointee)? {
                    // In registers (`promote`): the pointer itself is never read.
                    self.globals.builtins.push(BuiltinVar {
                        builtin,
                        offset: 0,
                        components: count,
                        component_bytes,
                        reg: Some(reg),
                    });
                    self.eval[slot as usize] = Ptr::new(SPACE_PRIVATE, u64::MAX).0;
                    return Ok(());
                }
                let off = reserve(&mut self.globals.private_bytes, size, 8).ok_or_else(too_big)?;
                self.globals.builtins.push(BuiltinVar {
                    builtin,
                    offset: off,
                    components: count,
                    component_bytes,
                    reg: None,
                });
                Ptr::new(SPACE_PRIVATE, off as u64)
            }
            c if c == sc::PRIVATE
                || c == sc::OUTPUT
                || (c == sc::UNIFORM_CONSTANT && self.pointer_bits.is_some()) =>
            {
                // (A Kernel module's UniformConstant variables are program-scope `__constant`
                // data: read-only, so a per-invocation copy is indistinguishable.)
                let off =
                    reserve(&mut self.globals.private_bytes, size, align).ok_or_else(too_big)?;
                let init_id = inst.operands.get(1).and_then(|o| o.id());
                self.globals
                    .private_init
                    .resize(self.globals.private_bytes as usize, 0);
                if let Some(init) = init_id {
                    let v = self.value(index, init)?;
                    for leaf in self.value_leaves(index, pointee)? {
                        let bits = self.eval[(v.slot + leaf.slot) as usize];
                        let at = off as usize + leaf.offset as usize;
                        if leaf.scalar == Scalar::Ptr && self.defer_pointer_init(at, bits) {
                            continue; // written as an address (`kernel`)
                        }
                        let n = leaf.scalar.mem_bytes() as usize;
                        for (k, b) in self.globals.private_init[at..at + n].iter_mut().enumerate() {
                            *b = (bits >> (8 * k)) as u8;
                        }
                    }
                }
                Ptr::new(SPACE_PRIVATE, off as u64)
            }
            sc::WORKGROUP => {
                let off = self.workgroup_offset(index, id, pointee, (size, align))?;
                Ptr::new(SPACE_WORKGROUP, off as u64)
            }
            sc::STORAGE_BUFFER | sc::UNIFORM | sc::PUSH_CONSTANT => {
                let kind = match class {
                    sc::PUSH_CONSTANT => BindingKind::PushConstant,
                    sc::STORAGE_BUFFER => BindingKind::StorageBuffer,
                    _ if self.deco(pointee, deco::BUFFER_BLOCK).is_some() => {
                        BindingKind::StorageBuffer
                    }
                    _ => BindingKind::UniformBuffer,
                };
                if matches!(self.ty(index, pointee)?, Type::RuntimeArray { .. }) {
                    return Err(self.unsupported(index, "runtime arrays of buffers"));
                }
                let word = |d| {
                    self.deco(id, d)
                        .and_then(|w| w.first().copied())
                        .unwrap_or(0)
                };
                let (set, binding) = if kind == BindingKind::PushConstant {
                    (0, 0)
                } else {
                    (word(deco::DESCRIPTOR_SET), word(deco::BINDING))
                };
                let runtime_stride = self.trailing_runtime_stride(index, pointee)?;
                let space = SPACE_BUFFER0 + self.globals.bindings.len() as u32;
                let count = array.unwrap_or(1);
                if space as u64 + count as u64 >= SPACE_NONE as u64 {
                    return Err(self.err(index, "too many buffers"));
                }
                if array == Some(0) {
                    self.runtime_array(index, id, slot)?;
                }
                // (A runtime array has one placeholder binding, element 0, count 0.)
                for element in 0..count.max(1) {
                    self.globals.bindings.push(BindingInfo {
                        set,
                        binding,
                        kind,
                        static_size: size,
                        runtime_stride,
                        name: self.debug_name(id),
                        tensor: None,
                        tensor_shape: None,
                        count,
                        element: array.map(|_| element),
                        written: self.globals.written_variables.contains(&id),
                    });
                }
                Ptr::new(space, 0)
            }
            super::kernel::SC_CROSS_WORKGROUP => {
                self.cross_variable(index, inst, pointee, size, align)?
            }
            c if c == sc::UNIFORM_CONSTANT || c == sc::FUNCTION => {
                return Err(self.unsupported(
                    index,
                    format!("variables in storage class {c} (images, samplers, tensors)"),
                ));
            }
            c => return Err(self.unsupported(index, format!("variables in storage class {c}"))),
        };
        self.eval[slot as usize] = ptr.0;
        Ok(())
    }

    /// The engine's built-in for BuiltIn decoration value `b` (SPIR-V 1.6 §3.21).
    fn builtin(&self, index: usize, b: u32) -> Result<Builtin, ExecError> {
        Ok(match b {
            28 => Builtin::GlobalInvocationId,
            27 => Builtin::LocalInvocationId,
            26 => Builtin::WorkgroupId,
            24 => Builtin::NumWorkgroups,
            29 => Builtin::LocalInvocationIndex,
            25 => Builtin::WorkgroupSize,
            36 => Builtin::SubgroupSize,
            41 => Builtin::SubgroupLocalInvocationId,
            40 => Builtin::SubgroupId,
            38 => Builtin::NumSubgroups,
            30 => Builtin::WorkDim,
            31 => Builtin::GlobalSize,
            32 => Builtin::EnqueuedWorkgroupSize,
            33 => Builtin::GlobalOffset,
            34 => Builtin::GlobalLinearId,
            37 => Builtin::SubgroupMaxSize,
            39 => Builtin::NumEnqueuedSubgroups,
            4416 => Builtin::SubgroupMask(crate::program::MaskCompare::Eq),
            4417 => Builtin::SubgroupMask(crate::program::MaskCompare::Ge),
            4418 => Builtin::SubgroupMask(crate::program::MaskCompare::Gt),
            4419 => Builtin::SubgroupMask(crate::program::MaskCompare::Le),
            4420 => Builtin::SubgroupMask(crate::program::MaskCompare::Lt),
            b => return Err(self.unsupported(index, format!("built-in {b}"))),
        })
    }

    /// An Input variable of a struct type whose members are built-ins (each decorated BuiltIn
    /// as a member decoration; spirv-val 2025.5 accepts such a Block for GLCompute, the Vulkan
    /// CTS declares one): the struct lies in the invocation's private memory at `off` in its
    /// natural layout, and each member is filled like a built-in variable of its own. A member
    /// that is not a built-in is refused by name (SPIR-V 1.6 §3.20 BuiltIn: "all members of
    /// that structure type must also be decorated with BuiltIn"; the validator rejects it).
    fn builtin_block(
        &mut self,
        index: usize,
        block: Id,
        members: &[Id],
        off: u32,
    ) -> Result<(), ExecError> {
        for (m, &mt) in members.iter().enumerate() {
            let Some(b) = self
                .member_deco(block, m as u32, deco::BUILTIN)
                .and_then(|w| w.first().copied())
            else {
                return Err(self.unsupported(
                    index,
                    format!(
                        "Input variables other than built-ins (member {m} of {} is not a built-in)",
                        self.ix.name(block)
                    ),
                ));
            };
            let builtin = self.builtin(index, b)?;
            let (comp, count) = self.scalar_components(index, mt)?;
            let at = self.member_offset(index, block, m as u32)?;
            let offset = u32::try_from(off as u64 + at)
                .map_err(|_| self.err(index, "built-in block offset"))?;
            self.globals.builtins.push(BuiltinVar {
                builtin,
                offset,
                components: count,
                component_bytes: comp.mem_bytes().clamp(4, 8),
                reg: None,
            });
        }
        Ok(())
    }

    /// A storage tensor variable (UniformConstant, `OpTypeTensorARM` with a Rank and maybe a
    /// Shape), or an array of `array` of them (one binding per element, as arrays of buffers).
    fn tensor_variable(
        &mut self,
        index: usize,
        id: Id,
        slot: u32,
        element: Id,
        (rank, shape): (Option<Id>, Option<Id>),
        array: Option<u32>,
    ) -> Result<(), ExecError> {
        let rank = rank.ok_or_else(|| self.unsupported(index, "tensors without a Rank"))?;
        let rank = self.eval[self.value(index, rank)?.slot as usize];
        let rank = u32::try_from(rank)
            .ok()
            .filter(|r| (1..=64).contains(r))
            .ok_or_else(|| self.err(index, format!("tensor rank {rank}")))?;
        // The Shape constant's entries (an array of Rank integers, read as unsigned).
        let tensor_shape = match shape {
            Some(shape) => {
                let at = self.value(index, shape)?.slot as usize;
                let entries = self.eval.get(at..at + rank as usize);
                Some(
                    entries
                        .ok_or_else(|| self.err(index, "tensor shape"))?
                        .to_vec(),
                )
            }
            None => None,
        };
        let element_bytes = crate::exec::tensor::element_bytes(self.scalar(index, element)?);
        let word = |d| {
            self.deco(id, d)
                .and_then(|w| w.first().copied())
                .unwrap_or(0)
        };
        let space = SPACE_BUFFER0 + self.globals.bindings.len() as u32;
        let count = array.unwrap_or(1);
        if space as u64 + count as u64 >= SPACE_NONE as u64 {
            return Err(self.err(index, "too many tensors"));
        }
        let (set, binding, name) = (
            word(deco::DESCRIPTOR_SET),
            word(deco::BINDING),
            self.debug_name(id),
        );
        if array == Some(0) {
            self.runtime_array(index, id, slot)?;
        }
        for e in 0..count.max(1) {
            self.globals.bindings.push(BindingInfo {
                set,
                binding,
                kind: BindingKind::Tensor,
                static_size: 0,
                runtime_stride: None,
                name: name.clone(),
                tensor: Some(crate::resources::TensorInfo {
                    rank,
                    element_bytes,
                }),
                tensor_shape: tensor_shape.clone(),
                count,
                element: array.map(|_| e),
                written: self.globals.written_variables.contains(&id),
            });
        }
        self.eval[slot as usize] = Ptr::new(space, 0).0;
        Ok(())
    }

    /// Records the runtime-sized array of buffers or tensors `id` (pointer register `slot`),
    /// whose placeholder binding is pushed next, and gives it a length register.
    fn runtime_array(&mut self, index: usize, id: Id, slot: u32) -> Result<(), ExecError> {
        let length = self.alloc(index, 1)?;
        self.fixed.push(length);
        self.globals
            .runtime_arrays
            .push(crate::program::RuntimeArray {
                binding: self.globals.bindings.len(),
                pointer: slot,
                length,
            });
        self.globals.runtime_lengths.insert(id, length);
        Ok(())
    }

    /// The ArrayStride of the runtime array ending a block, if it ends in one.
    fn trailing_runtime_stride(&self, index: usize, block: Id) -> Result<Option<u32>, ExecError> {
        let Type::Struct { members } = self.ty(index, block)? else {
            return Ok(None);
        };
        let Some(&last) = members.last() else {
            return Ok(None);
        };
        let Type::RuntimeArray { element } = self.ty(index, last)?.clone() else {
            return Ok(None);
        };
        Ok(Some(self.array_stride(
            index,
            last,
            element,
            MatrixDeco::default(),
        )?))
    }

    /// The OpName of an id.
    pub(crate) fn debug_name(&self, id: Id) -> Option<String> {
        self.insts.iter().find_map(|i| {
            (i.opcode == Op::Name && i.operands.first().and_then(|o| o.id()) == Some(id))
                .then(|| {
                    i.operands
                        .get(1)
                        .and_then(|o| o.string())
                        .map(str::to_string)
                })
                .flatten()
        })
    }

    /// Refuses the execution modes (SPV_KHR_float_controls) whose float semantics this engine
    /// does not implement: RoundingModeRTZ (its arithmetic rounds to nearest even) and
    /// DenormFlushToZero (it keeps denormals). RoundingModeRTE, DenormPreserve and
    /// SignedZeroInfNanPreserve ask for what it does anyway.
    pub(crate) fn check_float_controls(&self, entry: Id) -> Result<(), ExecError> {
        for (index, inst, mode) in self.execution_modes(entry) {
            let width = inst.operands.get(2).and_then(|o| o.word()).unwrap_or(0);
            let what = match (inst.opcode, mode) {
                (Op::ExecutionMode, 4460) => "DenormFlushToZero (denormals are kept here)",
                (Op::ExecutionMode, 4463) => {
                    "RoundingModeRTZ (float arithmetic rounds to nearest even here)"
                }
                _ => continue,
            };
            return Err(self.unsupported(
                index,
                format!("execution mode {what} for {width}-bit floats"),
            ));
        }
        Ok(())
    }

    /// The entry point's SubgroupSize execution mode (Kernel, SubgroupDispatch: OpenCL's
    /// `intel_reqd_sub_group_size`), if it has one.
    pub(crate) fn required_subgroup_size(&self, entry: Id) -> Option<u32> {
        self.execution_modes(entry)
            .find(|&(_, inst, mode)| inst.opcode == Op::ExecutionMode && mode == 35)
            .and_then(|(_, inst, _)| inst.operands.get(2).and_then(|o| o.word()))
    }

    /// The OpExecutionMode and OpExecutionModeId instructions of `entry`: flat index,
    /// instruction and mode number.
    fn execution_modes(&self, entry: Id) -> impl Iterator<Item = (usize, &Instruction, u32)> {
        self.insts
            .iter()
            .enumerate()
            .filter_map(move |(index, inst)| {
                let on_entry = matches!(inst.opcode, Op::ExecutionMode | Op::ExecutionModeId)
                    && inst.operands.first().and_then(|o| o.id()) == Some(entry);
                let mode = inst.operands.get(1).and_then(|o| o.word())?;
                on_entry.then_some((index, inst, mode))
            })
    }

    /// The workgroup size: the WorkgroupSize built-in constant, else LocalSizeId, else
    /// LocalSize.
    pub(crate) fn local_size(&self, entry: Id, ep_index: usize) -> Result<[u32; 3], ExecError> {
        let read = |v: Value, i: u32| self.eval[(v.slot + i) as usize] as u32;
        if let Some(id) = self.globals.workgroup_size {
            let v = self.value(ep_index, id)?;
            return Ok([read(v, 0), read(v, 1), read(v, 2)]);
        }
        for (index, inst, mode) in self.execution_modes(entry) {
            match (inst.opcode, mode) {
                (Op::ExecutionMode, 17) => {
                    let w = |i: usize| inst.operands.get(i).and_then(|o| o.word()).unwrap_or(1);
                    return Ok([w(2), w(3), w(4)]);
                }
                (Op::ExecutionModeId, 38) => {
                    let mut out = [1u32; 3];
                    for (k, o) in out.iter_mut().enumerate() {
                        let id = inst.operands.get(2 + k).and_then(|o| o.id()).unwrap_or(0);
                        *o = read(self.value(index, id)?, 0);
                    }
                    return Ok(out);
                }
                _ => {}
            }
        }
        Err(self.err(ep_index, "the entry point has no LocalSize or LocalSizeId"))
    }

    /// The scalar kind of a pointer's leaves (for reporting only).
    #[allow(dead_code)]
    pub(crate) fn is_bool(s: Scalar) -> bool {
        s == Scalar::Bool
    }
}
