//! Logical pointers held in variables and returned from functions (Logical addressing), as
//! spirv-val 2025.5 checks them (validate_memory.cpp, validate_cfg.cpp): a variable may hold a
//! StorageBuffer pointer with VariablePointersStorageBuffer (or VariablePointers), a Workgroup
//! pointer with VariablePointers, no other logical pointer; `OpReturnValue` may return a
//! pointer only with one of those capabilities and into those storage classes. Under Logical
//! addressing a variable holding a pointer must itself be in the Function or Private storage
//! class ("In Logical addressing with variable pointers, variables that allocate pointers must
//! be in Function or Private storage classes", validate_memory.cpp `ValidateVariable`).
//! Untyped pointers (SPV_KHR_untyped_pointers) follow the same rules: an
//! `OpUntypedVariableKHR` whose Data Type is a pointer holds one, and a variable may hold an
//! untyped pointer. `--relax-logical-pointer` and `--before-hlsl-legalization` lift both rules.

use super::{
    LOGICAL, LogicalPointerError, SC_PHYSICAL_STORAGE_BUFFER, SC_STORAGE_BUFFER, SC_WORKGROUP,
};

const SC_PRIVATE: u32 = 6;
const SC_FUNCTION: u32 = 7;
use crate::Options;
use crate::error::ValError;
use spvx_spirv::index::{ModuleIndex, Type};
use spvx_spirv::op::Op;

pub(super) fn check(ix: &ModuleIndex, opts: &Options, out: &mut Vec<ValError>) {
    if opts.relax.relax_logical_pointer || opts.relax.before_hlsl_legalization {
        return;
    }
    let logical = ix
        .insts
        .iter()
        .find(|i| i.opcode == Op::MemoryModel)
        .and_then(|i| i.operands.first())
        .and_then(|o| o.word())
        == Some(LOGICAL);
    let vp = ix.has_capability("VariablePointers");
    let vpsb = vp || ix.has_capability("VariablePointersStorageBuffer");
    for (index, inst) in ix.insts.iter().enumerate() {
        let err = match inst.opcode {
            Op::Variable | Op::UntypedVariableKHR => {
                // What the variable holds: a typed variable's pointee, an untyped one's Data
                // Type (SPV_KHR_untyped_pointers).
                let held = match inst.result_type.and_then(|t| ix.ty(t)) {
                    Some(Type::Pointer { pointee, .. }) if inst.opcode == Op::Variable => {
                        Some(*pointee)
                    }
                    _ if inst.opcode == Op::UntypedVariableKHR => {
                        inst.operands.get(1).and_then(|o| o.id())
                    }
                    _ => None,
                };
                let Some(held) = held else {
                    continue;
                };
                let own = inst.operands.first().and_then(|o| o.word());
                match ix.pointer_class(held) {
                    Some(storage_class) => match storage_class {
                        SC_PHYSICAL_STORAGE_BUFFER => None,
                        SC_STORAGE_BUFFER if !vpsb => Some(LogicalPointerError::HeldStorageBuffer),
                        SC_WORKGROUP if !vp => Some(LogicalPointerError::HeldWorkgroup),
                        // validate_memory.cpp `ValidateVariable` (Logical addressing only).
                        _ if logical && !matches!(own, Some(SC_FUNCTION | SC_PRIVATE)) => {
                            Some(LogicalPointerError::HeldOutsideFunctionOrPrivate)
                        }
                        SC_STORAGE_BUFFER | SC_WORKGROUP => None,
                        _ => Some(LogicalPointerError::HeldOther),
                    },
                    _ => None,
                }
            }
            Op::ReturnValue => {
                let value = inst.operands.first().and_then(|o| o.id());
                match value
                    .and_then(|v| ix.type_of(v))
                    .and_then(|t| ix.pointer_class(t))
                {
                    Some(storage_class) if storage_class != SC_PHYSICAL_STORAGE_BUFFER => {
                        let ok = (storage_class == SC_STORAGE_BUFFER && vpsb)
                            || (storage_class == SC_WORKGROUP && vp);
                        match (vpsb, ok) {
                            (_, true) => None,
                            (false, _) => Some(LogicalPointerError::ReturnsPointer {
                                ty: ix.name(ix.type_of(value.unwrap_or(0)).unwrap_or(0)),
                            }),
                            (true, false) => Some(LogicalPointerError::ReturnsPointerClass),
                        }
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        if let Some(e) = err {
            out.push(ValError::at(index, e));
        }
    }
}
