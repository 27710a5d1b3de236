//! The built-in rules of one entry point's interface, as spirv-val 2025.5 applies them
//! (SPIRV-Tools source/val/validate_decorations.cpp, `CheckDecorationsOfEntryPoints`):
//!
//! - an interface variable whose pointee is a struct with BuiltIn members must point to a
//!   Block-decorated struct (VUID-StandaloneSpirv-Location-04919 in Vulkan; every environment);
//! - at most one such built-in block per storage class (Input, Output) per entry point (§2.16.2
//!   "Validation Rules for Shader Capabilities");
//! - Vulkan: no built-in twice among the Input variables of an entry point, counting the members
//!   of a built-in block (VUID-StandaloneSpirv-OpEntryPoint-09658), nor among the Output
//!   variables (…-09659);
//! - Vulkan: a variable pointing to a built-in block has no Location or Component
//!   (VUID-StandaloneSpirv-Location-04915; for a variable decorated BuiltIn itself,
//!   `decorations::vulkan`).

use super::{INPUT, InterfaceError, OUTPUT};
use crate::Options;
use crate::error::ValError;
use rustc_hash::FxHashSet as HashSet;
use spvx_spirv::index::{ModuleIndex, Type};
use spvx_spirv::instruction::Id;
use spvx_spirv::op::Op;

const BLOCK: u32 = 2;
const BUILT_IN: u32 = 11;
const LOCATION: u32 = 30;
const COMPONENT: u32 = 31;

/// The BuiltIn values of `target`'s decorations (`member`: of its OpMemberDecorate ones, else of
/// its OpDecorate ones).
fn built_ins(ix: &ModuleIndex, target: Id, member: bool) -> Vec<u32> {
    if member {
        ix.member_decorations_of(target, BUILT_IN)
            .filter_map(|(_, x)| x.operands.get(3)?.word())
            .collect()
    } else {
        ix.decorations_of(target, BUILT_IN)
            .filter_map(|x| x.operands.get(2)?.word())
            .collect()
    }
}

/// True when struct `ty` has a member decorated BuiltIn.
pub(crate) fn is_built_in_struct(ix: &ModuleIndex, ty: Id) -> bool {
    matches!(ix.ty(ty), Some(Type::Struct { .. })) && !built_ins(ix, ty, true).is_empty()
}

/// The name of BuiltIn value `b`.
fn built_in_name(ix: &ModuleIndex, b: u32) -> String {
    let g = ix.grammar;
    g.kind_by_name("BuiltIn")
        .and_then(|k| g.enumerant_name(k, b))
        .map_or_else(|| format!("BuiltIn {b}"), str::to_string)
}

/// Checks the interface `vars` of the entry point at instruction `index` named `entry`.
pub(super) fn check(
    ix: &ModuleIndex,
    opts: &Options,
    index: usize,
    entry: &str,
    vars: &[Id],
    out: &mut Vec<ValError>,
) {
    let vulkan = opts.target_env.is_vulkan();
    let (mut inputs, mut outputs) = (HashSet::default(), HashSet::default());
    let (mut input_blocks, mut output_blocks) = (0, 0);
    let mut err = |e: InterfaceError| out.push(ValError::at(index, e));
    for &id in vars {
        let Some(var) = ix.def_inst(id).filter(|d| d.opcode == Op::Variable) else {
            continue;
        };
        let sc = var.operands.first().and_then(|o| o.word()).unwrap_or(0);
        let Some(Type::Pointer { pointee, .. }) = var.result_type.and_then(|t| ix.ty(t)) else {
            continue;
        };
        let is_struct = matches!(ix.ty(*pointee), Some(Type::Struct { .. }));
        let list = if is_struct {
            built_ins(ix, *pointee, true)
        } else {
            built_ins(ix, id, false)
        };
        if list.is_empty() {
            continue;
        }
        if vulkan {
            for &b in &list {
                let seen = match sc {
                    INPUT => &mut inputs,
                    OUTPUT => &mut outputs,
                    _ => continue,
                };
                if !seen.insert(b) {
                    err(InterfaceError::DuplicateBuiltIn {
                        direction: if sc == INPUT { "input" } else { "output" },
                        built_in: built_in_name(ix, b),
                        var: ix.name(id),
                        vuid: if sc == INPUT { 9658 } else { 9659 },
                    });
                }
            }
        }
        if !is_struct {
            continue;
        }
        if vulkan && (ix.has_decoration(id, LOCATION) || ix.has_decoration(id, COMPONENT)) {
            err(InterfaceError::BuiltInLocation { var: ix.name(id) });
        }
        if !ix.has_decoration(*pointee, BLOCK) {
            err(InterfaceError::BuiltInStructNotBlock {
                ty: ix.name(*pointee),
            });
        }
        match sc {
            INPUT => input_blocks += 1,
            OUTPUT => output_blocks += 1,
            _ => {}
        }
    }
    if input_blocks > 1 || output_blocks > 1 {
        err(InterfaceError::BuiltInBlocks {
            entry: entry.to_string(),
        });
    }
}
