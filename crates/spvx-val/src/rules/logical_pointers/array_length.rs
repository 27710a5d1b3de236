//! OpArrayLength's own rules, as spirv-val 2025.5 applies them (validate_memory.cpp
//! `ValidateArrayLength`; SPIR-V §3.52.8 OpArrayLength): the Result Type is an unsigned
//! integer of 32 bits (or 64: spirv-val 2025.5 accepts both), the Structure is a pointer to a
//! struct whose last member is a runtime array, and the Array member operand names that last
//! member. Vulkan: not on the runtime array of a Block struct in the Uniform storage class
//! (VUID-StandaloneSpirv-OpArrayLength-11805; a BufferBlock there is a storage buffer and
//! allowed). The variable-pointer rule (no variable pointer as the Structure) is in
//! `variable`.

use super::LogicalPointerError;
use crate::Options;
use crate::error::ValError;
use spvx_spirv::index::{ModuleIndex, Type};
use spvx_spirv::op::Op;

const SC_UNIFORM: u32 = 2;
const BLOCK: u32 = 2;

pub(super) fn check(ix: &ModuleIndex, opts: &Options, out: &mut Vec<ValError>) {
    for (index, inst) in ix.insts.iter().enumerate() {
        if inst.opcode != Op::ArrayLength {
            continue;
        }
        let id = inst.result.map_or_else(String::new, |r| ix.name(r));
        let rule = |rule: &str| LogicalPointerError::ArrayLength {
            id: id.clone(),
            rule: rule.to_string(),
        };
        let unsigned_32_or_64 = inst
            .result_type
            .and_then(|t| ix.int_type(t))
            .is_some_and(|(w, signed)| (w == 32 || w == 64) && !signed);
        if !unsigned_32_or_64 {
            out.push(ValError::at(
                index,
                rule("Result Type must be OpTypeInt with width 32 or 64 and signedness 0"),
            ));
            continue;
        }
        let structure = inst.operands.first().and_then(|o| o.id());
        let Some(Type::Pointer {
            pointee,
            storage_class,
        }) = structure.and_then(|s| ix.value_type(s))
        else {
            out.push(ValError::at(
                index,
                rule("the Structure's type must be a pointer to an OpTypeStruct"),
            ));
            continue;
        };
        let Some(Type::Struct { members }) = ix.ty(*pointee) else {
            out.push(ValError::at(
                index,
                rule("the Structure's type must be a pointer to an OpTypeStruct"),
            ));
            continue;
        };
        let last_is_runtime = members
            .last()
            .is_some_and(|&m| matches!(ix.ty(m), Some(Type::RuntimeArray { .. })));
        if !last_is_runtime {
            out.push(ValError::at(
                index,
                rule("the Structure's last member must be an OpTypeRuntimeArray"),
            ));
            continue;
        }
        let member = inst.operands.get(1).and_then(|o| o.word());
        if member != Some(members.len() as u32 - 1) {
            out.push(ValError::at(
                index,
                rule("the array member must be the last member of the struct"),
            ));
            continue;
        }
        if opts.target_env.is_vulkan()
            && *storage_class == SC_UNIFORM
            && ix.has_decoration(*pointee, BLOCK)
        {
            out.push(ValError::at(
                index,
                rule(
                    "[VUID-StandaloneSpirv-OpArrayLength-11805] OpArrayLength must not be used on the OpTypeRuntimeArray inside a Uniform block",
                ),
            ));
        }
    }
}
