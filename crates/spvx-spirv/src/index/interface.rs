//! The module's interface as the index reads it: entry points, debug names, decorations, the
//! resource variables (descriptor set and binding), push-constant variables and specialisation
//! constants. Every consumer (the engine's bindings, Vulkan reflection, the CLI) reads these
//! instead of scanning the instructions itself.

use super::ModuleIndex;
use crate::instruction::{Id, Instruction};
use crate::op::Op;

/// Decoration numbers the interface reads (SPIR-V §3.20).
const DECORATION_SPEC_ID: u32 = 1;
const DECORATION_BINDING: u32 = 33;
const DECORATION_DESCRIPTOR_SET: u32 = 34;
/// The `LocalSize` and `LocalSizeId` execution modes (SPIR-V §3.6).
const MODE_LOCAL_SIZE: u32 = 17;
const MODE_LOCAL_SIZE_ID: u32 = 38;
/// The `PushConstant` storage class (SPIR-V §3.7).
const STORAGE_PUSH_CONSTANT: u32 = 9;

/// One `OpEntryPoint`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EntryPoint<'a> {
    /// Index of the `OpEntryPoint` in the flat instruction list.
    pub index: usize,
    /// The ExecutionModel value (5 GLCompute, 6 Kernel, ...).
    pub model: u32,
    /// The entry point function's id.
    pub function: Id,
    pub name: &'a str,
}

/// A module-scope variable with a DescriptorSet and a Binding decoration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResourceVariable<'a> {
    pub variable: Id,
    pub set: u32,
    pub binding: u32,
    /// The variable's storage class.
    pub storage_class: u32,
    /// The type its pointer type points to.
    pub pointee: Option<Id>,
    /// Its `OpName`, if any.
    pub name: Option<&'a str>,
}

/// A specialisation constant with a SpecId.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpecConstant<'a> {
    pub spec_id: u32,
    /// The defining instruction (`OpSpecConstant`, `OpSpecConstantTrue`, ...).
    pub inst: &'a Instruction,
}

impl ModuleIndex {
    /// Every entry point, in module order.
    pub fn entry_point_list(&self) -> Vec<EntryPoint<'_>> {
        self.entry_points
            .iter()
            .filter_map(|&index| {
                let inst = &self.insts[index];
                Some(EntryPoint {
                    index,
                    model: inst.operands.first()?.word()?,
                    function: inst.operands.get(1)?.id()?,
                    name: inst.operands.get(2)?.string()?,
                })
            })
            .collect()
    }

    /// The local size of entry point function `function`: its `LocalSize` execution mode, or
    /// its `LocalSizeId` one (OpExecutionModeId, glslang's form for SPIR-V 1.6) when the three
    /// ids are plain integer constants. Spec-constant sizes and the WorkgroupSize built-in are
    /// not read here (the engine evaluates those when it compiles).
    pub fn local_size(&self, function: Id) -> Option<[u32; 3]> {
        self.insts
            .iter()
            .filter(|m| matches!(m.opcode, Op::ExecutionMode | Op::ExecutionModeId))
            .filter(|m| m.operands.first().and_then(|o| o.id()) == Some(function))
            .find_map(|m| {
                let mode = m.operands.get(1)?.word()?;
                let value = |i: usize| -> Option<u32> {
                    let o = m.operands.get(i)?;
                    match (mode, m.opcode) {
                        (MODE_LOCAL_SIZE, Op::ExecutionMode) => o.word(),
                        (MODE_LOCAL_SIZE_ID, Op::ExecutionModeId) => {
                            u32::try_from(self.const_u64(o.id()?)?).ok()
                        }
                        _ => None,
                    }
                };
                Some([value(2)?, value(3)?, value(4)?])
            })
    }

    /// The string of `id`'s first `OpName`, if it has one.
    pub fn debug_name(&self, id: Id) -> Option<&str> {
        self.insts
            .iter()
            .filter(|i| i.opcode == Op::Name)
            .find(|i| i.operands.first().and_then(|o| o.id()) == Some(id))
            .and_then(|i| i.operands.get(1)?.string())
    }

    /// The `OpDecorate` (`OpDecorateId`, `OpDecorateString`) instructions on `id` with this
    /// decoration number; the decoration's own operands start at operand 2.
    pub fn decorations_of(&self, id: Id, decoration: u32) -> impl Iterator<Item = &Instruction> {
        self.decorations
            .get(&id)
            .into_iter()
            .flatten()
            .map(|&i| &self.insts[i])
            .filter(move |i| {
                matches!(i.opcode, Op::Decorate | Op::DecorateId | Op::DecorateString)
                    && i.operands.get(1).and_then(|o| o.word()) == Some(decoration)
            })
    }

    /// The `OpMemberDecorate` (`OpMemberDecorateString`) instructions on struct `strukt` with
    /// this decoration number, with the member each decorates; the decoration's own operands
    /// start at operand 3.
    pub fn member_decorations_of(
        &self,
        strukt: Id,
        decoration: u32,
    ) -> impl Iterator<Item = (u32, &Instruction)> {
        self.decorations
            .get(&strukt)
            .into_iter()
            .flatten()
            .map(|&i| &self.insts[i])
            .filter(|i| matches!(i.opcode, Op::MemberDecorate | Op::MemberDecorateString))
            .filter_map(move |i| {
                let member = i.operands.get(1)?.word()?;
                (i.operands.get(2)?.word()? == decoration).then_some((member, i))
            })
    }

    /// The `OpMemberDecorate` of member `member` of struct `strukt` with this decoration.
    pub fn member_decoration(
        &self,
        strukt: Id,
        member: u32,
        decoration: u32,
    ) -> Option<&Instruction> {
        self.member_decorations_of(strukt, decoration)
            .find(|&(m, _)| m == member)
            .map(|(_, i)| i)
    }

    /// True when `id` has an `OpDecorate` with this decoration.
    pub fn has_decoration(&self, id: Id, decoration: u32) -> bool {
        self.decorations_of(id, decoration).next().is_some()
    }

    /// The first literal of `id`'s `OpDecorate` with this decoration (e.g. a Binding number).
    pub fn decoration_literal(&self, id: Id, decoration: u32) -> Option<u32> {
        self.decorations_of(id, decoration)
            .next()
            .and_then(|i| i.operands.get(2)?.word())
    }

    /// Module-scope variables with both a DescriptorSet and a Binding, in module order.
    pub fn resource_variables(&self) -> Vec<ResourceVariable<'_>> {
        self.module_variables()
            .filter_map(|inst| {
                let variable = inst.result?;
                Some(ResourceVariable {
                    variable,
                    set: self.decoration_literal(variable, DECORATION_DESCRIPTOR_SET)?,
                    binding: self.decoration_literal(variable, DECORATION_BINDING)?,
                    storage_class: inst.operands.first()?.word()?,
                    pointee: self.pointee(inst),
                    name: self.debug_name(variable),
                })
            })
            .collect()
    }

    /// Module-scope variables in the PushConstant storage class.
    pub fn push_constant_variables(&self) -> Vec<Id> {
        self.module_variables()
            .filter(|i| i.operands.first().and_then(|o| o.word()) == Some(STORAGE_PUSH_CONSTANT))
            .filter_map(|i| i.result)
            .collect()
    }

    /// Specialisation constants with a SpecId, in module order.
    pub fn spec_constants(&self) -> Vec<SpecConstant<'_>> {
        self.insts
            .iter()
            .filter(|i| {
                matches!(
                    i.opcode,
                    Op::SpecConstant
                        | Op::SpecConstantTrue
                        | Op::SpecConstantFalse
                        | Op::SpecConstantComposite
                        | Op::SpecConstantOp
                )
            })
            .filter_map(|inst| {
                Some(SpecConstant {
                    spec_id: self.decoration_literal(inst.result?, DECORATION_SPEC_ID)?,
                    inst,
                })
            })
            .collect()
    }

    /// `OpVariable`s outside functions.
    fn module_variables(&self) -> impl Iterator<Item = &Instruction> {
        self.insts
            .iter()
            .enumerate()
            .filter(|(i, inst)| inst.opcode == Op::Variable && self.function_of(*i).is_none())
            .map(|(_, inst)| inst)
    }

    /// The pointee type of a variable's pointer type.
    fn pointee(&self, variable: &Instruction) -> Option<Id> {
        match self.ty(variable.result_type?)? {
            super::Type::Pointer { pointee, .. } => Some(*pointee),
            _ => None,
        }
    }
}
