//! Where a logical pointer may be an operand (SPIR-V §2.16.1 "Universal Validation Rules",
//! Logical addressing model): "A pointer can only be an operand to the following instructions:
//! OpLoad, OpStore, OpAccessChain, OpInBoundsAccessChain, OpFunctionCall, OpImageTexelPointer,
//! OpCopyMemory, OpCopyObject, all OpAtomic instructions, extended instruction-set instructions
//! that are explicitly identified as taking pointer operands"; with VariablePointers or
//! VariablePointersStorageBuffer also OpReturnValue, OpPtrAccessChain, OpPtrEqual,
//! OpPtrNotEqual, OpPtrDiff, OpSelect and OpPhi (for pointers into Workgroup or StorageBuffer
//! memory respectively).
//!
//! The rule applies in the Logical and PhysicalStorageBuffer64 addressing models to pointers
//! other than PhysicalStorageBuffer ones. spvx-val reads it as spirv-val 2025.5 does
//! (validate_logical_pointers.cpp): only instructions with a Result Type are judged, only
//! `IdRef` operands count (not Scope or Memory Semantics ids), and the other instructions
//! spirv-val lets through on the strength of the specification's intent (OpArrayLength,
//! OpExtInst, OpCopyMemorySized, OpDecorate, OpEntryPoint, the cooperative-matrix loads and
//! stores) are allowed too. A pointer as the Value of an arithmetic, conversion, composite or
//! group instruction is an error here even where that instruction's own type rule would also
//! reject it.
//!
//! Untyped pointers (SPV_KHR_untyped_pointers) are logical pointers too, as in spirv-val:
//! OpUntypedAccessChainKHR, OpUntypedInBoundsAccessChainKHR and OpUntypedArrayLengthKHR take
//! them without conditions, OpUntypedPtrAccessChainKHR with a variable-pointers capability.
//!
//! [`array_length`]: OpArrayLength's own rules. [`variable`]: the variable-pointer rules proper.
//! [`workgroup_blocks`]: the entry-point rules of SPV_KHR_workgroup_memory_explicit_layout,
//! which decide which Workgroup variables alias.

mod array_length;
mod holders;
mod variable;
mod workgroup_blocks;

use crate::Options;
use crate::error::ValError;
use spvx_spirv::index::ModuleIndex;
use spvx_spirv::op::Op;
use thiserror::Error;

/// A logical pointer where the Logical addressing model does not allow one.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LogicalPointerError {
    /// Message as spirv-val 2025.5.
    #[error("{opcode}: Instruction may not have a logical pointer operand ({pointer})")]
    NotAllowed { opcode: String, pointer: String },
    /// Message as spirv-val 2025.5.
    #[error(
        "{opcode}: Instruction may only have a logical pointer operand in the StorageBuffer or Workgroup storage classes with appropriate variable pointers capability ({pointer})"
    )]
    NeedsVariablePointers { opcode: String, pointer: String },
    /// Message as spirv-val 2025.5.
    #[error(
        "In Logical addressing, variables can only allocate a storage buffer pointer if the VariablePointersStorageBuffer capability is declared"
    )]
    HeldStorageBuffer,
    /// Message as spirv-val 2025.5.
    #[error(
        "In Logical addressing, variables can only allocate a workgroup pointer if the VariablePointers capability is declared"
    )]
    HeldWorkgroup,
    /// Message as spirv-val 2025.5.
    #[error(
        "In Logical addressing, variables can only allocate a pointer to the StorageBuffer or Workgroup storage classes"
    )]
    HeldOther,
    /// Message as spirv-val 2025.5.
    #[error(
        "OpReturnValue value's type {ty} is a pointer, which is invalid in the Logical addressing model"
    )]
    ReturnsPointer { ty: String },
    /// Message as spirv-val 2025.5.
    #[error("In Logical addressing, functions may not return a pointer in this storage class")]
    ReturnsPointerClass,
    /// Message as spirv-val 2025.5 (`variable`).
    #[error(
        "{opcode}: Instruction may only return a logical pointer in the StorageBuffer or Workgroup storage classes with appropriate variable pointers capability"
    )]
    ReturnsNeedsVariablePointers { opcode: String },
    /// Message as spirv-val 2025.5 (`holders`, validate_memory.cpp `ValidateVariable`).
    #[error(
        "In Logical addressing with variable pointers, variables that allocate pointers must be in Function or Private storage classes"
    )]
    HeldOutsideFunctionOrPrivate,
    /// Message as spirv-val 2025.5 (validate_memory.cpp `ValidatePtrAccessChain`).
    #[error("OpPtrAccessChain must have a Base whose type is decorated with ArrayStride ({ty})")]
    PtrAccessChainWithoutArrayStride { ty: String },
    /// Message as spirv-val 2025.5 (`variable`).
    #[error("{opcode}: Instruction may not return a logical pointer")]
    MayNotReturn { opcode: String },
    /// OpArrayLength's own rules (`array_length`; spirv-val 2025.5's wording).
    #[error("OpArrayLength {id}: {rule}")]
    ArrayLength { id: String, rule: String },
    /// Message as spirv-val 2025.5 (`variable`).
    #[error("{opcode}: Pointer operand must not be a variable pointer ({pointer})")]
    ArrayLengthOfVariablePointer { opcode: String, pointer: String },
    /// Message as spirv-val 2025.5 (`variable`).
    #[error("Variable pointers must point into the same structure (or OpConstantNull)")]
    DifferentStructures,
    /// Message as spirv-val 2025.5 (`variable`).
    #[error(
        "Variable pointer must not point to an array of Block- or BufferBlock-decorated structs"
    )]
    VariablePointerToBlockArray,
    /// Message as spirv-val 2025.5 (`variable`).
    #[error("Variable pointer must not point to an object that is or contains a matrix")]
    VariablePointerToMatrix,
    /// Message as spirv-val 2025.5 (`variable`).
    #[error("Variable pointer must not point to a column or a component of a column of a matrix")]
    VariablePointerIntoMatrix,
    /// Message as spirv-val 2025.5 (SPV_KHR_workgroup_memory_explicit_layout).
    #[error(
        "Workgroup Storage Class variables can't be decorated with Block unless declaring the WorkgroupMemoryExplicitLayoutKHR capability (entry point '{entry}')"
    )]
    WorkgroupBlockWithoutCapability { entry: String },
    /// Message as spirv-val 2025.5.
    #[error(
        "When declaring WorkgroupMemoryExplicitLayoutKHR, either all or none of the Workgroup Storage Class variables in the entry point interface must point to struct types decorated with Block (unless the UntypedPointersKHR capability is declared). Entry point '{entry}' does not meet this requirement."
    )]
    WorkgroupBlocksAllOrNone { entry: String },
    /// Message as spirv-val 2025.5.
    #[error(
        "When declaring WorkgroupMemoryExplicitLayoutKHR, if more than one Workgroup Storage Class variable in the entry point interface point to a type decorated with Block, all of them must be decorated with Aliased. Entry point '{entry}' does not meet this requirement."
    )]
    WorkgroupBlocksNotAliased { entry: String },
}
const LOGICAL: u32 = 0;
const PHYSICAL_STORAGE_BUFFER_64: u32 = 5348;
const SC_WORKGROUP: u32 = 4;
const SC_STORAGE_BUFFER: u32 = 12;
const SC_PHYSICAL_STORAGE_BUFFER: u32 = 5349;

/// Instructions that take logical pointer operands without conditions.
const ALLOWED: &[Op] = &[
    Op::Load,
    Op::Store,
    Op::AccessChain,
    Op::InBoundsAccessChain,
    Op::FunctionCall,
    Op::ImageTexelPointer,
    Op::CopyMemory,
    Op::CopyMemorySized,
    Op::CopyObject,
    Op::ArrayLength,
    Op::ExtInst,
    Op::Decorate,
    Op::DecorateId,
    Op::EntryPoint,
    Op::CooperativeMatrixLoadKHR,
    Op::CooperativeMatrixStoreKHR,
    Op::AtomicFlagTestAndSet,
    Op::AtomicFlagClear,
    Op::AtomicFMinEXT,
    Op::AtomicFMaxEXT,
    Op::AtomicFAddEXT,
    // SPV_KHR_untyped_pointers.
    Op::UntypedArrayLengthKHR,
    Op::UntypedAccessChainKHR,
    Op::UntypedInBoundsAccessChainKHR,
];

/// Instructions that take them with a variable-pointers capability.
const VARIABLE_POINTER_OPS: &[Op] = &[
    Op::ReturnValue,
    Op::PtrAccessChain,
    Op::PtrEqual,
    Op::PtrNotEqual,
    Op::PtrDiff,
    Op::Select,
    Op::Phi,
    Op::UntypedPtrAccessChainKHR,
];

/// `OpAtomicLoad` … `OpAtomicXor`.
const ATOMICS: &[Op] = &[
    Op::AtomicLoad,
    Op::AtomicStore,
    Op::AtomicExchange,
    Op::AtomicCompareExchange,
    Op::AtomicCompareExchangeWeak,
    Op::AtomicIIncrement,
    Op::AtomicIDecrement,
    Op::AtomicIAdd,
    Op::AtomicISub,
    Op::AtomicSMin,
    Op::AtomicUMin,
    Op::AtomicSMax,
    Op::AtomicUMax,
    Op::AtomicAnd,
    Op::AtomicOr,
    Op::AtomicXor,
];

/// The storage class of `id`'s type when it is a logical pointer (typed or untyped).
fn logical_pointer_class(ix: &ModuleIndex, id: u32) -> Option<u32> {
    ix.pointer_class(ix.type_of(id)?)
        .filter(|&c| c != SC_PHYSICAL_STORAGE_BUFFER)
}

/// Appends an error for every instruction with a logical pointer operand it may not have.
pub fn check(ix: &ModuleIndex, opts: &Options, out: &mut Vec<ValError>) {
    workgroup_blocks::check(ix, out);
    variable::ptr_access_chain_strides(ix, out);
    array_length::check(ix, opts, out);
    let model = ix
        .insts
        .iter()
        .find(|i| i.opcode == Op::MemoryModel)
        .and_then(|i| i.operands.first())
        .and_then(|o| o.word());
    if !matches!(model, Some(LOGICAL | PHYSICAL_STORAGE_BUFFER_64)) {
        return;
    }
    holders::check(ix, opts, out);
    if !(opts.relax.relax_logical_pointer || opts.relax.before_hlsl_legalization) {
        variable::check(ix, out);
    }
    let id_ref = ix.grammar.common.id_ref;
    for (index, inst) in ix.insts.iter().enumerate() {
        if inst.result_type.is_none() || ATOMICS.contains(&inst.opcode) {
            continue;
        }
        let Some((pointer, class)) = inst
            .operands
            .iter()
            .filter(|o| o.kind == id_ref)
            .filter_map(|o| o.id())
            .find_map(|id| logical_pointer_class(ix, id).map(|c| (id, c)))
        else {
            continue;
        };
        if ALLOWED.contains(&inst.opcode) {
            continue;
        }
        let name = inst.opcode.name().to_string();
        let err = if VARIABLE_POINTER_OPS.contains(&inst.opcode) {
            let ok = (ix.has_capability("VariablePointersStorageBuffer")
                && class == SC_STORAGE_BUFFER)
                || (ix.has_capability("VariablePointers") && class == SC_WORKGROUP);
            if ok {
                continue;
            }
            LogicalPointerError::NeedsVariablePointers {
                opcode: name,
                pointer: ix.name(pointer),
            }
        } else {
            LogicalPointerError::NotAllowed {
                opcode: name,
                pointer: ix.name(pointer),
            }
        };
        out.push(ValError::at(index, err));
    }
}
