//! The entry-point rules of SPV_KHR_workgroup_memory_explicit_layout on Workgroup variables
//! ("Either all or none of the variables must be explicitly laid out"; all Workgroup blocks
//! share one storage), as spirv-val 2025.5 reads them (validate_decorations.cpp): among the
//! Workgroup variables of an entry point's interface,
//! - a Block-decorated one needs the WorkgroupMemoryExplicitLayoutKHR capability;
//! - with it, either all or none point to Block structs;
//! - when more than one is a Block, each is decorated Aliased.
//!
//! Both list exceptions for UntypedPointersKHR, which the last two rules honour. They sit with
//! the pointer rules because they decide which Workgroup pointers alias one another (the
//! engine's shared region, spvx-exec `compile::workgroup_blocks`); the layout of each block
//! (Offset, ArrayStride, the Vulkan rules) is checked with the other blocks.

use super::{LogicalPointerError, SC_WORKGROUP};
use crate::error::ValError;
use spvx_spirv::index::{ModuleIndex, Type};
use spvx_spirv::op::Op;

/// Decorations Block and Aliased.
const BLOCK: u32 = 2;
const ALIASED: u32 = 20;

/// Appends an error for each entry point whose Workgroup variables break a rule.
pub(super) fn check(ix: &ModuleIndex, out: &mut Vec<ValError>) {
    let explicit = ix.has_capability("WorkgroupMemoryExplicitLayoutKHR");
    let untyped = ix.has_capability("UntypedPointersKHR");
    for ep in ix.entry_point_list() {
        let inst = &ix.insts[ep.index];
        // (Workgroup variable, whether its pointee is a Block struct)
        let vars: Vec<(u32, bool)> = inst
            .operands
            .iter()
            .skip(3)
            .filter_map(|o| o.id())
            .filter_map(|v| {
                let def = ix.def_inst(v)?;
                if def.opcode != Op::Variable {
                    return None;
                }
                match ix.value_type(v)? {
                    Type::Pointer {
                        storage_class: SC_WORKGROUP,
                        pointee,
                    } => Some((v, is_block(ix, *pointee))),
                    _ => None,
                }
            })
            .collect();
        let blocks = vars.iter().filter(|(_, b)| *b).count();
        if blocks == 0 {
            continue;
        }
        let entry = ep.name.to_string();
        let err = if !explicit {
            LogicalPointerError::WorkgroupBlockWithoutCapability { entry }
        } else if blocks < vars.len() && !untyped {
            LogicalPointerError::WorkgroupBlocksAllOrNone { entry }
        } else if blocks > 1
            && !untyped
            && vars
                .iter()
                .any(|&(v, b)| b && !ix.has_decoration(v, ALIASED))
        {
            LogicalPointerError::WorkgroupBlocksNotAliased { entry }
        } else {
            continue;
        };
        out.push(ValError::at(ep.index, err));
    }
}

/// True when `ty` is a struct decorated Block.
fn is_block(ix: &ModuleIndex, ty: u32) -> bool {
    matches!(ix.ty(ty), Some(Type::Struct { .. })) && ix.has_decoration(ty, BLOCK)
}
