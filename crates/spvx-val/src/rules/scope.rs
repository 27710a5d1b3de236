//! Scope `<id>` operands (SPIR-V §3.27 "Scope <id>"): of barriers, atomics, group non-uniform
//! instructions and the MakeElementAvailableARM / MakeElementVisibleARM tensor operands.
//!
//! The rules and their order are spirv-val 2025.5's (SPIRV-Tools source/val/validate_scopes.cpp
//! `ValidateScope`, `ValidateExecutionScope`, `ValidateMemoryScope`), except the checks it
//! registers per execution model (Workgroup scopes outside compute, ShaderCallKHR outside ray
//! tracing), which spvx does not make. The 32-bit int type of the operand is checked by the
//! caller (its message names the operand).

use crate::Options;
use spvx_spirv::index::ModuleIndex;
use spvx_spirv::instruction::Id;
use spvx_spirv::op::Op;

/// Scope values (§3.27): CrossDevice 0, Device 1, Workgroup 2, Subgroup 3, Invocation 4,
/// QueueFamily 5, ShaderCallKHR 6; nothing else is a scope.
const CROSS_DEVICE: u64 = 0;
const DEVICE: u64 = 1;
const WORKGROUP: u64 = 2;
const SUBGROUP: u64 = 3;
const QUEUE_FAMILY: u64 = 5;
const SHADER_CALL: u64 = 6;

/// Which scope an operand is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScopeKind {
    Execution,
    Memory,
}

impl ScopeKind {
    fn name(self) -> &'static str {
        match self {
            ScopeKind::Execution => "Execution Scope",
            ScopeKind::Memory => "Memory Scope",
        }
    }
}

/// The value of a Scope id as spirv-val's `EvalInt32IfConst` sees it: `OpConstant` and
/// `OpConstantNull` (0) have one; spec constants and other instructions do not.
fn value(ix: &ModuleIndex, id: Id) -> Option<u64> {
    match ix.def(id)?.opcode {
        Op::Constant | Op::ConstantNull => ix.const_u64(id),
        _ => None,
    }
}

/// Checks the Scope id `id` of an `opcode` instruction; `Err` is the broken rule's message.
///
/// - With the Shader capability the id is an `OpConstant` (`OpConstantNull` too): a spec
///   constant is refused ("Scope ids must be OpConstant when Shader capability is present");
///   with CooperativeMatrixNV any constant instruction passes.
/// - A constant's value is one of the Scope enumerants.
/// - Execution scopes: Workgroup or Subgroup for group non-uniform instructions; in Vulkan,
///   Workgroup or Subgroup (VUID-StandaloneSpirv-None-04636), and Subgroup for group
///   non-uniform instructions from Vulkan 1.1 (04642).
/// - Memory scopes: QueueFamily needs VulkanMemoryModel; Device under VulkanMemoryModel needs
///   VulkanMemoryModelDeviceScope; in Vulkan, not CrossDevice (04638).
pub fn check(
    ix: &ModuleIndex,
    opts: &Options,
    opcode: Op,
    id: Id,
    kind: ScopeKind,
) -> Result<(), String> {
    let what = kind.name();
    if ix.def(id).is_none() {
        return Ok(()); // undefined: an id rule
    }
    let value = value(ix, id);
    if value.is_none()
        && ix.has_capability("Shader")
        && !(ix.has_capability("CooperativeMatrixNV") && ix.is_constant(id))
    {
        return Err(format!(
            "{what} {} must be a constant instruction in a Shader module (Scope ids must be \
             OpConstant, not spec constants, when Shader capability is present)",
            ix.name(id)
        ));
    }
    let Some(v) = value else { return Ok(()) };
    if v > SHADER_CALL {
        return Err(format!(
            "{what} {}: invalid scope value {v} (SPIR-V §3.27 Scope: 0 to 6)",
            ix.name(id)
        ));
    }
    let vulkan = opts.target_env.is_vulkan();
    let group = opcode.is_group_non_uniform();
    match kind {
        ScopeKind::Execution => {
            if vulkan {
                if group && opts.target_env.name != "vulkan1.0" && v != SUBGROUP {
                    return Err(
                        "in Vulkan environment Execution scope is limited to Subgroup \
                                (VUID-StandaloneSpirv-None-04642)"
                            .into(),
                    );
                }
                if v != WORKGROUP && v != SUBGROUP {
                    return Err(
                        "in Vulkan environment Execution Scope is limited to Workgroup \
                                and Subgroup (VUID-StandaloneSpirv-None-04636)"
                            .into(),
                    );
                }
            }
            if group && v != WORKGROUP && v != SUBGROUP {
                return Err("Execution scope is limited to Subgroup or Workgroup".into());
            }
        }
        ScopeKind::Memory => {
            let vmm = ix.has_capability("VulkanMemoryModel");
            if v == QUEUE_FAMILY {
                if !vmm {
                    return Err(
                        "Memory Scope QueueFamily requires capability VulkanMemoryModel".into(),
                    );
                }
                return Ok(());
            }
            if v == DEVICE && vmm && !ix.has_capability("VulkanMemoryModelDeviceScope") {
                return Err(
                    "Use of device scope with VulkanKHR memory model requires the \
                            VulkanMemoryModelDeviceScopeKHR capability"
                        .into(),
                );
            }
            if vulkan && v == CROSS_DEVICE {
                return Err("in Vulkan environment Memory Scope is limited to Device, \
                            QueueFamily, Workgroup, ShaderCallKHR, Subgroup, or Invocation \
                            (VUID-StandaloneSpirv-None-04638)"
                    .into());
            }
        }
    }
    Ok(())
}
