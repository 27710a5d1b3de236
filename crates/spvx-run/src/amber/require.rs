//! `DEVICE_FEATURE` and `DEVICE_EXTENSION` (and VkScript `[require]`) against the target. A
//! feature is named by its `Vk…Features` member, optionally after a structure prefix
//! (`Float16Int8Features.shaderFloat16`); the engine has the compute features in
//! [`FEATURES`] marked so, a device those spvx-vk reports supported. Extensions: the engine
//! has those in [`EXTENSIONS`]; on a device, an extension tied to a feature needs the feature
//! (spvx-vk cannot list extensions; it enables what the device supports).

use super::error::AmberError;
use super::exec::Target;
use super::model::{Require, Script};
use spvx_vk::features::DeviceFeatures;

type Has = fn(&DeviceFeatures) -> bool;

/// Feature member, the engine has it, the device has it.
pub const FEATURES: &[(&str, bool, Has)] = &[
    ("shaderInt16", true, |f| f.shader_int16),
    ("shaderInt64", true, |f| f.shader_int64),
    ("shaderFloat64", true, |f| f.shader_float64),
    ("robustBufferAccess", true, |f| f.robust_buffer_access),
    ("storageBuffer16BitAccess", true, |f| {
        f.storage_buffer_16bit_access
    }),
    ("uniformAndStorageBuffer16BitAccess", true, |f| {
        f.uniform_and_storage_buffer_16bit_access
    }),
    ("storagePushConstant16", true, |f| f.storage_push_constant16),
    ("storageBuffer8BitAccess", true, |f| {
        f.storage_buffer_8bit_access
    }),
    ("uniformAndStorageBuffer8BitAccess", true, |f| {
        f.uniform_and_storage_buffer_8bit_access
    }),
    ("storagePushConstant8", true, |f| f.storage_push_constant8),
    ("shaderFloat16", true, |f| f.shader_float16),
    ("shaderInt8", true, |f| f.shader_int8),
    ("shaderBufferInt64Atomics", true, |f| {
        f.shader_buffer_int64_atomics
    }),
    ("shaderSharedInt64Atomics", true, |f| {
        f.shader_shared_int64_atomics
    }),
    ("vulkanMemoryModel", true, |f| f.vulkan_memory_model),
    ("vulkanMemoryModelDeviceScope", true, |f| {
        f.vulkan_memory_model_device_scope
    }),
    ("subgroupSizeControl", true, |f| f.subgroup_size_control),
    ("computeFullSubgroups", true, |f| f.compute_full_subgroups),
    ("shaderIntegerDotProduct", true, |f| {
        f.shader_integer_dot_product
    }),
    ("shaderZeroInitializeWorkgroupMemory", true, |f| {
        f.shader_zero_initialize_workgroup_memory
    }),
    ("shaderUniformBufferArrayDynamicIndexing", true, |f| {
        f.shader_uniform_buffer_array_dynamic_indexing
    }),
    ("shaderStorageBufferArrayDynamicIndexing", true, |f| {
        f.shader_storage_buffer_array_dynamic_indexing
    }),
    ("shaderUniformBufferArrayNonUniformIndexing", true, |f| {
        f.shader_uniform_buffer_array_non_uniform_indexing
    }),
    ("shaderStorageBufferArrayNonUniformIndexing", true, |f| {
        f.shader_storage_buffer_array_non_uniform_indexing
    }),
    ("runtimeDescriptorArray", true, |f| {
        f.runtime_descriptor_array
    }),
    ("robustBufferAccess2", true, |f| f.robust_buffer_access2),
    // Logical pointers held in Function/Private memory, OpPtrEqual/OpPtrNotEqual/OpPtrDiff
    // (issue 20).
    ("variablePointers", true, |f| f.variable_pointers),
    ("variablePointersStorageBuffer", true, |f| {
        f.variable_pointers_storage_buffer
    }),
    // Workgroup blocks aliasing one region (SPV_KHR_workgroup_memory_explicit_layout): the
    // engine has them; spvx-vk enables them on a device that offers them.
    ("workgroupMemoryExplicitLayout", true, |f| {
        f.workgroup_memory_explicit_layout
    }),
    (
        "workgroupMemoryExplicitLayoutScalarBlockLayout",
        true,
        |f| f.workgroup_memory_explicit_layout_scalar_block_layout,
    ),
    ("workgroupMemoryExplicitLayout8BitAccess", true, |f| {
        f.workgroup_memory_explicit_layout_8bit_access
    }),
    ("workgroupMemoryExplicitLayout16BitAccess", true, |f| {
        f.workgroup_memory_explicit_layout_16bit_access
    }),
    // SPV_KHR_subgroup_uniform_control_flow: the engine runs such modules (the execution
    // mode promises the driver nothing the engine relies on).
    ("shaderSubgroupUniformControlFlow", true, |f| {
        f.shader_subgroup_uniform_control_flow
    }),
    // SPV_EXT_long_vector (OpTypeVectorIdEXT: vectors of any length, a constant or a
    // specialization constant): the engine runs them; spvx-vk knows no such feature, so a
    // device run is skipped.
    ("longVector", true, |_| false),
    // bfloat16, float8 and the VALVE mixed float dot products (the engine has every form).
    ("shaderBFloat16Type", true, |f| f.shader_bfloat16_type),
    ("shaderBFloat16DotProduct", true, |f| {
        f.shader_bfloat16_dot_product
    }),
    ("shaderFloat8", true, |f| f.shader_float8),
    ("shaderMixedFloatDotProductFloat16AccFloat32", true, |f| {
        f.mixed_dot_f16_acc32
    }),
    ("shaderMixedFloatDotProductFloat16AccFloat16", true, |f| {
        f.mixed_dot_f16_acc16
    }),
    ("shaderMixedFloatDotProductBFloat16Acc", true, |f| {
        f.mixed_dot_bf16_acc
    }),
    ("shaderMixedFloatDotProductFloat8AccFloat32", true, |f| {
        f.mixed_dot_fp8_acc32
    }),
];

/// Device extensions whose SPIR-V the engine runs, and the feature a device needs for each
/// (None: no feature; spvx-vk enables it when present).
pub const EXTENSIONS: &[(&str, Option<Has>)] = &[
    ("VK_KHR_storage_buffer_storage_class", None),
    ("VK_KHR_get_physical_device_properties2", None),
    ("VK_KHR_shader_float_controls", None),
    ("VK_KHR_spirv_1_4", None),
    ("VK_KHR_shader_non_semantic_info", None),
    (
        "VK_KHR_16bit_storage",
        Some(|f| f.storage_buffer_16bit_access),
    ),
    (
        "VK_KHR_8bit_storage",
        Some(|f| f.storage_buffer_8bit_access),
    ),
    (
        "VK_KHR_shader_float16_int8",
        Some(|f| f.shader_float16 || f.shader_int8),
    ),
    (
        "VK_KHR_shader_integer_dot_product",
        Some(|f| f.shader_integer_dot_product),
    ),
    (
        "VK_KHR_vulkan_memory_model",
        Some(|f| f.vulkan_memory_model),
    ),
    (
        "VK_EXT_subgroup_size_control",
        Some(|f| f.subgroup_size_control),
    ),
    (
        "VK_KHR_shader_atomic_int64",
        Some(|f| f.shader_buffer_int64_atomics),
    ),
    (
        "VK_EXT_descriptor_indexing",
        Some(|f| f.runtime_descriptor_array),
    ),
    (
        "VK_KHR_zero_initialize_workgroup_memory",
        Some(|f| f.shader_zero_initialize_workgroup_memory),
    ),
    ("VK_EXT_robustness2", Some(|f| f.robust_buffer_access2)),
    (
        "VK_KHR_variable_pointers",
        Some(|f| f.variable_pointers_storage_buffer),
    ),
    (
        "VK_KHR_workgroup_memory_explicit_layout",
        Some(|f| f.workgroup_memory_explicit_layout),
    ),
    (
        "VK_KHR_shader_subgroup_uniform_control_flow",
        Some(|f| f.shader_subgroup_uniform_control_flow),
    ),
    ("VK_ARM_tensors", Some(|f| f.tensors)),
    ("VK_KHR_shader_bfloat16", Some(|f| f.shader_bfloat16_type)),
    ("VK_EXT_shader_float8", Some(|f| f.shader_float8)),
    (
        "VK_VALVE_shader_mixed_float_dot_product",
        Some(|f| {
            f.mixed_dot_f16_acc32
                || f.mixed_dot_f16_acc16
                || f.mixed_dot_bf16_acc
                || f.mixed_dot_fp8_acc32
        }),
    ),
];

/// Boolean properties (`DEVICE_PROPERTY`, named by their `Vk…Properties` member) the engine
/// has: its float arithmetic rounds to nearest even and keeps denormals and the signs of
/// zeros, infinities and NaNs at every width (docs/semantics/arithmetic.md, "Float
/// controls"). It lacks shaderDenormFlushToZeroFloat* and shaderRoundingModeRTZFloat*, and
/// spvx-vk cannot query a device's properties.
pub const ENGINE_PROPERTIES: &[&str] = &[
    "shaderDenormPreserveFloat16",
    "shaderDenormPreserveFloat32",
    "shaderDenormPreserveFloat64",
    "shaderSignedZeroInfNanPreserveFloat16",
    "shaderSignedZeroInfNanPreserveFloat32",
    "shaderSignedZeroInfNanPreserveFloat64",
    "shaderRoundingModeRTEFloat16",
    "shaderRoundingModeRTEFloat32",
    "shaderRoundingModeRTEFloat64",
];

/// The first requirement the target lacks, as a skip.
pub fn check(script: &Script, target: &Target) -> Result<(), AmberError> {
    let features = match target {
        Target::Engine(_) => None,
        Target::Device(r) => Some(*r.features()),
    };
    let who = if features.is_some() {
        "the device (through spvx-vk)"
    } else {
        "the engine"
    };
    for r in &script.requires {
        match r {
            Require::Feature(name, at) => {
                let member = name.rsplit('.').next().unwrap_or(name);
                let has = FEATURES.iter().find(|(n, _, _)| *n == member).is_some_and(
                    |(_, engine, dev)| match &features {
                        None => *engine,
                        Some(f) => dev(f),
                    },
                );
                if !has {
                    return Err(AmberError::Lacks {
                        at: at.clone(),
                        what: format!("{who} lacks feature {name}"),
                    });
                }
            }
            Require::Property(name, at) => {
                let member = name.rsplit('.').next().unwrap_or(name);
                let has = features.is_none() && ENGINE_PROPERTIES.contains(&member);
                if !has {
                    let what = if features.is_some() {
                        format!("spvx-vk cannot query device property {name}")
                    } else {
                        format!("{who} lacks property {name}")
                    };
                    return Err(AmberError::Lacks {
                        at: at.clone(),
                        what,
                    });
                }
            }
            Require::Extension(name, at) => {
                let has =
                    EXTENSIONS
                        .iter()
                        .find(|(n, _)| n == name)
                        .is_some_and(|(_, need)| match (&features, need) {
                            (Some(f), Some(need)) => need(f),
                            _ => true,
                        });
                if !has {
                    return Err(AmberError::Lacks {
                        at: at.clone(),
                        what: format!("{who} lacks extension {name}"),
                    });
                }
            }
        }
    }
    Ok(())
}
