//! The Vulkan features a module's capabilities need, and the device's supported features.
//!
//! The mapping follows the Vulkan specification's "SPIR-V Environment" appendix (table
//! "List of SPIR-V Capabilities and corresponding Vulkan features"). A capability missing from
//! the table is refused with its name rather than passed to the driver unchecked.

use crate::error::{VkError, VkResult};
use spirv::Capability;

/// The features spvx-vk knows about, as plain booleans (what the device supports; spvx-vk
/// enables every supported one when it creates the device).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DeviceFeatures {
    pub shader_int16: bool,
    pub shader_int64: bool,
    pub shader_float64: bool,
    pub robust_buffer_access: bool,
    pub storage_buffer_16bit_access: bool,
    pub uniform_and_storage_buffer_16bit_access: bool,
    pub storage_push_constant16: bool,
    pub variable_pointers_storage_buffer: bool,
    pub variable_pointers: bool,
    pub storage_buffer_8bit_access: bool,
    pub uniform_and_storage_buffer_8bit_access: bool,
    pub storage_push_constant8: bool,
    pub shader_buffer_int64_atomics: bool,
    pub shader_shared_int64_atomics: bool,
    pub shader_float16: bool,
    pub shader_int8: bool,
    pub vulkan_memory_model: bool,
    pub vulkan_memory_model_device_scope: bool,
    pub subgroup_size_control: bool,
    pub compute_full_subgroups: bool,
    pub shader_integer_dot_product: bool,
    pub shader_zero_initialize_workgroup_memory: bool,
    pub shader_demote_to_helper_invocation: bool,
    pub shader_uniform_buffer_array_dynamic_indexing: bool,
    pub shader_storage_buffer_array_dynamic_indexing: bool,
    pub shader_uniform_buffer_array_non_uniform_indexing: bool,
    pub shader_storage_buffer_array_non_uniform_indexing: bool,
    pub runtime_descriptor_array: bool,
    /// VK_EXT_robustness2 `robustBufferAccess2` (extension present and feature supported).
    pub robust_buffer_access2: bool,
    /// VK_ARM_tensors `tensors` (extension present; through the emulation layer on lavapipe).
    pub tensors: bool,
    /// VK_ARM_tensors `shaderStorageTensorArrayDynamicIndexing` and
    /// `shaderStorageTensorArrayNonUniformIndexing`.
    pub shader_storage_tensor_array_dynamic_indexing: bool,
    pub shader_storage_tensor_array_non_uniform_indexing: bool,
    /// VK_KHR_shader_bfloat16 `shaderBFloat16Type` and `shaderBFloat16DotProduct`.
    pub shader_bfloat16_type: bool,
    pub shader_bfloat16_dot_product: bool,
    /// VK_EXT_shader_float8 `shaderFloat8`.
    pub shader_float8: bool,
    /// VK_VALVE_shader_mixed_float_dot_product: `shaderMixedFloatDotProductFloat16AccFloat32`,
    /// `...Float16AccFloat16`, `...BFloat16Acc`, `...Float8AccFloat32`.
    pub mixed_dot_f16_acc32: bool,
    pub mixed_dot_f16_acc16: bool,
    pub mixed_dot_bf16_acc: bool,
    pub mixed_dot_fp8_acc32: bool,
    /// VK_KHR_shader_subgroup_uniform_control_flow `shaderSubgroupUniformControlFlow`.
    pub shader_subgroup_uniform_control_flow: bool,
    /// VK_KHR_workgroup_memory_explicit_layout: `workgroupMemoryExplicitLayout`,
    /// `...ScalarBlockLayout`, `...8BitAccess`, `...16BitAccess`.
    pub workgroup_memory_explicit_layout: bool,
    pub workgroup_memory_explicit_layout_scalar_block_layout: bool,
    pub workgroup_memory_explicit_layout_8bit_access: bool,
    pub workgroup_memory_explicit_layout_16bit_access: bool,
}

/// The subgroup operation classes of the compute stage (VkSubgroupFeatureFlags bits).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SubgroupSupport {
    pub size: u32,
    /// `supportedOperations` bits, or 0 when the compute stage has no subgroup operations.
    pub operations: u32,
}

/// One thing a capability needs.
enum Need {
    Feature(&'static str, fn(&DeviceFeatures) -> bool),
    Subgroup(&'static str, u32),
    /// A feature spvx-vk does not query or enable (so no device offers it through spvx-vk).
    NotEnabled(&'static str),
    Nothing,
}

/// What capability `cap` (a number) needs of the device.
fn need(cap: u32) -> VkResult<Vec<Need>> {
    use Capability as C;
    use Need::{Feature as F, Nothing, Subgroup as S};
    // SPV_VALVE_mixed_float_dot_product (seeds/003) is newer than the `spirv` crate:
    // capabilities 6912-6915 (spvx-spirv's grammar supplement).
    match cap {
        6912 => {
            return Ok(vec![F(
                "shaderMixedFloatDotProductFloat16AccFloat32 (VK_VALVE_shader_mixed_float_dot_product)",
                |f| f.mixed_dot_f16_acc32,
            )]);
        }
        6913 => {
            return Ok(vec![F(
                "shaderMixedFloatDotProductFloat16AccFloat16 (VK_VALVE_shader_mixed_float_dot_product)",
                |f| f.mixed_dot_f16_acc16,
            )]);
        }
        6914 => {
            return Ok(vec![F(
                "shaderMixedFloatDotProductBFloat16Acc (VK_VALVE_shader_mixed_float_dot_product)",
                |f| f.mixed_dot_bf16_acc,
            )]);
        }
        6915 => {
            return Ok(vec![F(
                "shaderMixedFloatDotProductFloat8AccFloat32 (VK_VALVE_shader_mixed_float_dot_product)",
                |f| f.mixed_dot_fp8_acc32,
            )]);
        }
        _ => {}
    }
    let Some(c) = Capability::from_u32(cap) else {
        return Err(VkError::UnknownCapability(cap.to_string()));
    };
    Ok(match c {
        C::Matrix | C::Shader | C::StorageImageExtendedFormats => vec![Nothing],
        C::Int16 => vec![F("shaderInt16", |f| f.shader_int16)],
        C::Int64 => vec![F("shaderInt64", |f| f.shader_int64)],
        C::Float64 => vec![F("shaderFloat64", |f| f.shader_float64)],
        C::Int8 => vec![F("shaderInt8", |f| f.shader_int8)],
        C::Float16 => vec![F("shaderFloat16", |f| f.shader_float16)],
        C::StorageBuffer16BitAccess => {
            vec![F("storageBuffer16BitAccess", |f| {
                f.storage_buffer_16bit_access
            })]
        }
        C::UniformAndStorageBuffer16BitAccess => {
            vec![F("uniformAndStorageBuffer16BitAccess", |f| {
                f.uniform_and_storage_buffer_16bit_access
            })]
        }
        C::StoragePushConstant16 => {
            vec![F("storagePushConstant16", |f| f.storage_push_constant16)]
        }
        C::StorageBuffer8BitAccess => {
            vec![F("storageBuffer8BitAccess", |f| {
                f.storage_buffer_8bit_access
            })]
        }
        C::UniformAndStorageBuffer8BitAccess => vec![F("uniformAndStorageBuffer8BitAccess", |f| {
            f.uniform_and_storage_buffer_8bit_access
        })],
        C::StoragePushConstant8 => vec![F("storagePushConstant8", |f| f.storage_push_constant8)],
        C::VariablePointersStorageBuffer => vec![F("variablePointersStorageBuffer", |f| {
            f.variable_pointers_storage_buffer
        })],
        C::VariablePointers => vec![F("variablePointers", |f| f.variable_pointers)],
        C::Int64Atomics => vec![F("shaderBufferInt64Atomics", |f| {
            f.shader_buffer_int64_atomics
        })],
        C::VulkanMemoryModel => vec![F("vulkanMemoryModel", |f| f.vulkan_memory_model)],
        C::VulkanMemoryModelDeviceScope => vec![F("vulkanMemoryModelDeviceScope", |f| {
            f.vulkan_memory_model_device_scope
        })],
        C::DotProduct
        | C::DotProductInput4x8Bit
        | C::DotProductInput4x8BitPacked
        | C::DotProductInputAll => {
            vec![F("shaderIntegerDotProduct", |f| {
                f.shader_integer_dot_product
            })]
        }
        C::DemoteToHelperInvocation => vec![F("shaderDemoteToHelperInvocation", |f| {
            f.shader_demote_to_helper_invocation
        })],
        C::UniformBufferArrayDynamicIndexing => {
            vec![F("shaderUniformBufferArrayDynamicIndexing", |f| {
                f.shader_uniform_buffer_array_dynamic_indexing
            })]
        }
        C::StorageBufferArrayDynamicIndexing => {
            vec![F("shaderStorageBufferArrayDynamicIndexing", |f| {
                f.shader_storage_buffer_array_dynamic_indexing
            })]
        }
        // Vulkan 1.2 core: the capability itself needs no feature.
        C::ShaderNonUniform => vec![Nothing],
        C::UniformBufferArrayNonUniformIndexing => {
            vec![F("shaderUniformBufferArrayNonUniformIndexing", |f| {
                f.shader_uniform_buffer_array_non_uniform_indexing
            })]
        }
        C::StorageBufferArrayNonUniformIndexing => {
            vec![F("shaderStorageBufferArrayNonUniformIndexing", |f| {
                f.shader_storage_buffer_array_non_uniform_indexing
            })]
        }
        C::RuntimeDescriptorArray => {
            vec![F("runtimeDescriptorArray", |f| f.runtime_descriptor_array)]
        }
        C::TensorsARM => vec![F("tensors (VK_ARM_tensors)", |f| f.tensors)],
        C::StorageTensorArrayDynamicIndexingARM => vec![F(
            "shaderStorageTensorArrayDynamicIndexing (VK_ARM_tensors)",
            |f| f.shader_storage_tensor_array_dynamic_indexing,
        )],
        C::StorageTensorArrayNonUniformIndexingARM => vec![F(
            "shaderStorageTensorArrayNonUniformIndexing (VK_ARM_tensors)",
            |f| f.shader_storage_tensor_array_non_uniform_indexing,
        )],
        C::Float8EXT => vec![F("shaderFloat8 (VK_EXT_shader_float8)", |f| {
            f.shader_float8
        })],
        C::Float8CooperativeMatrixEXT => vec![Need::NotEnabled(
            "shaderFloat8CooperativeMatrix (VK_EXT_shader_float8; spvx-vk does not enable cooperative matrices)",
        )],
        C::BFloat16TypeKHR => vec![F("shaderBFloat16Type (VK_KHR_shader_bfloat16)", |f| {
            f.shader_bfloat16_type
        })],
        C::BFloat16DotProductKHR => {
            vec![F(
                "shaderBFloat16DotProduct (VK_KHR_shader_bfloat16)",
                |f| f.shader_bfloat16_dot_product,
            )]
        }
        C::BFloat16CooperativeMatrixKHR => vec![Need::NotEnabled(
            "shaderBFloat16CooperativeMatrix (VK_KHR_shader_bfloat16; spvx-vk does not enable cooperative matrices)",
        )],
        C::ArbitraryPrecisionFixedPointINTEL => vec![Need::NotEnabled(
            "support for SPV_INTEL_arbitrary_precision_fixed_point (no Vulkan extension exposes it)",
        )],
        C::SubgroupMatrixMultiplyAccumulateINTEL => vec![Need::NotEnabled(
            "support for SPV_INTEL_subgroup_matrix_multiply_accumulate (no Vulkan extension exposes it)",
        )],
        C::WorkgroupMemoryExplicitLayoutKHR => vec![F(
            "workgroupMemoryExplicitLayout (VK_KHR_workgroup_memory_explicit_layout)",
            |f| f.workgroup_memory_explicit_layout,
        )],
        C::WorkgroupMemoryExplicitLayout8BitAccessKHR => vec![F(
            "workgroupMemoryExplicitLayout8BitAccess (VK_KHR_workgroup_memory_explicit_layout)",
            |f| f.workgroup_memory_explicit_layout_8bit_access,
        )],
        C::WorkgroupMemoryExplicitLayout16BitAccessKHR => vec![F(
            "workgroupMemoryExplicitLayout16BitAccess (VK_KHR_workgroup_memory_explicit_layout)",
            |f| f.workgroup_memory_explicit_layout_16bit_access,
        )],
        C::GroupNonUniform => vec![S("subgroup operations: basic", 0x1)],
        C::GroupNonUniformVote => vec![S("subgroup operations: vote", 0x2)],
        C::GroupNonUniformArithmetic => vec![S("subgroup operations: arithmetic", 0x4)],
        C::GroupNonUniformBallot => vec![S("subgroup operations: ballot", 0x8)],
        C::GroupNonUniformShuffle => vec![S("subgroup operations: shuffle", 0x10)],
        C::GroupNonUniformShuffleRelative => {
            vec![S("subgroup operations: shuffle relative", 0x20)]
        }
        C::GroupNonUniformClustered => vec![S("subgroup operations: clustered", 0x40)],
        C::GroupNonUniformQuad => vec![S("subgroup operations: quad", 0x80)],
        other => return Err(VkError::UnknownCapability(format!("{other:?}"))),
    })
}

/// What the capabilities `caps` ask of a Vulkan device, without a device: each feature by its
/// Vulkan name (`shaderInt8`), each subgroup operation as `subgroup operations: NAME`, and what
/// spvx-vk cannot enable as its own line; duplicates once, in order of first need.
pub fn required_features(caps: &[u32]) -> VkResult<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for &cap in caps {
        for n in need(cap)? {
            let line = match n {
                Need::Feature(name, _) => name.to_string(),
                Need::Subgroup(name, _) => format!("{name} in compute shaders"),
                Need::NotEnabled(what) => what.to_string(),
                Need::Nothing => continue,
            };
            if !out.contains(&line) {
                out.push(line);
            }
        }
    }
    Ok(out)
}

/// Checks that the device offers what every capability needs; the first missing feature is
/// the error.
pub fn check_capabilities(
    device: &str,
    caps: &[u32],
    features: &DeviceFeatures,
    subgroups: &SubgroupSupport,
) -> VkResult<()> {
    for &cap in caps {
        let cap_name =
            Capability::from_u32(cap).map_or_else(|| cap.to_string(), |c| format!("{c:?}"));
        for n in need(cap)? {
            let missing = match n {
                Need::Feature(name, has) => (!has(features)).then(|| name.to_string()),
                Need::Subgroup(name, bit) => {
                    (subgroups.operations & bit == 0).then(|| format!("{name} in compute shaders"))
                }
                Need::NotEnabled(what) => Some(what.to_string()),
                Need::Nothing => None,
            };
            if let Some(missing) = missing {
                return Err(VkError::MissingFeature {
                    device: device.to_string(),
                    missing,
                    reason: format!("capability {cap_name}"),
                });
            }
        }
    }
    Ok(())
}

/// What SPIR-V extension `ext` needs of the device beyond its capabilities (Vulkan "SPIR-V
/// Environment" appendix, "List of SPIR-V Extensions and corresponding Vulkan extensions"):
/// SPV_KHR_subgroup_uniform_control_flow (its execution mode SubgroupUniformControlFlowKHR)
/// needs VK_KHR_shader_subgroup_uniform_control_flow's `shaderSubgroupUniformControlFlow`.
/// Extensions whose needs are capabilities (checked by [`check_capabilities`]) or core need
/// nothing here.
fn extension_need(ext: &str) -> Option<Need> {
    match ext {
        "SPV_KHR_subgroup_uniform_control_flow" => Some(Need::Feature(
            "shaderSubgroupUniformControlFlow (VK_KHR_shader_subgroup_uniform_control_flow)",
            |f| f.shader_subgroup_uniform_control_flow,
        )),
        _ => None,
    }
}

/// What the extensions `exts` ask of a Vulkan device beyond their capabilities, by Vulkan name
/// (as [`required_features`]).
pub fn required_extension_features(exts: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for e in exts {
        if let Some(Need::Feature(name, _)) = extension_need(e)
            && !out.iter().any(|o| o == name)
        {
            out.push(name.to_string());
        }
    }
    out
}

/// Checks that the device offers what the module's extensions `exts` need beyond their
/// capabilities; the first missing feature is the error, naming the extension.
pub fn check_extensions(device: &str, exts: &[String], features: &DeviceFeatures) -> VkResult<()> {
    for e in exts {
        if let Some(Need::Feature(name, has)) = extension_need(e)
            && !has(features)
        {
            return Err(VkError::MissingFeature {
                device: device.to_string(),
                missing: name.to_string(),
                reason: format!("extension {e}"),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_feature_is_named_with_its_capability() {
        let features = DeviceFeatures {
            shader_integer_dot_product: true,
            ..DeviceFeatures::default()
        };
        let caps = [Capability::Shader as u32, Capability::DotProduct as u32];
        let sg = SubgroupSupport::default();
        assert!(check_capabilities("dev", &caps, &features, &sg).is_ok());
        let caps = [Capability::Int8 as u32];
        let err = check_capabilities("dev", &caps, &features, &sg)
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "device 'dev' lacks shaderInt8, which the module needs (capability Int8)"
        );
        let caps = [Capability::GroupNonUniformBallot as u32];
        let err = check_capabilities("dev", &caps, &features, &sg)
            .unwrap_err()
            .to_string();
        assert!(err.contains("subgroup operations: ballot"), "{err}");
    }

    #[test]
    fn float8_bfloat16_and_valve_capabilities_need_their_features() {
        let sg = SubgroupSupport::default();
        // SPV_VALVE_mixed_float_dot_product capabilities 6912-6915, in the grammar's order.
        let none = DeviceFeatures::default();
        let names = [
            "shaderMixedFloatDotProductFloat16AccFloat32",
            "shaderMixedFloatDotProductFloat16AccFloat16",
            "shaderMixedFloatDotProductBFloat16Acc",
            "shaderMixedFloatDotProductFloat8AccFloat32",
        ];
        for (cap, name) in (6912..=6915).zip(names) {
            let err = check_capabilities("dev", &[cap], &none, &sg)
                .unwrap_err()
                .to_string();
            assert!(err.contains(name), "{cap}: {err}");
        }
        let all = DeviceFeatures {
            mixed_dot_f16_acc32: true,
            mixed_dot_f16_acc16: true,
            mixed_dot_bf16_acc: true,
            mixed_dot_fp8_acc32: true,
            shader_float8: true,
            shader_bfloat16_type: true,
            shader_bfloat16_dot_product: true,
            ..DeviceFeatures::default()
        };
        let caps = [
            6912,
            6913,
            6914,
            6915,
            Capability::Float8EXT as u32,
            Capability::BFloat16TypeKHR as u32,
            Capability::BFloat16DotProductKHR as u32,
        ];
        assert!(check_capabilities("dev", &caps, &all, &sg).is_ok());
        let err = check_capabilities("dev", &[Capability::Float8EXT as u32], &none, &sg)
            .unwrap_err()
            .to_string();
        assert!(err.contains("shaderFloat8 (VK_EXT_shader_float8)"), "{err}");
        // Cooperative-matrix forms stay refused.
        let err = check_capabilities(
            "dev",
            &[Capability::BFloat16CooperativeMatrixKHR as u32],
            &all,
            &sg,
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("shaderBFloat16CooperativeMatrix"), "{err}");
    }

    #[test]
    fn subgroup_uniform_control_flow_and_workgroup_layout_need_their_features() {
        let none = DeviceFeatures::default();
        let ext = ["SPV_KHR_subgroup_uniform_control_flow".to_string()];
        let err = check_extensions("dev", &ext, &none)
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "device 'dev' lacks shaderSubgroupUniformControlFlow (VK_KHR_shader_subgroup_uniform_control_flow), which the module needs (extension SPV_KHR_subgroup_uniform_control_flow)"
        );
        let all = DeviceFeatures {
            shader_subgroup_uniform_control_flow: true,
            workgroup_memory_explicit_layout: true,
            workgroup_memory_explicit_layout_8bit_access: true,
            workgroup_memory_explicit_layout_16bit_access: true,
            ..DeviceFeatures::default()
        };
        assert!(check_extensions("dev", &ext, &all).is_ok());
        let other = ["SPV_KHR_variable_pointers".to_string()];
        assert!(check_extensions("dev", &other, &none).is_ok());
        let sg = SubgroupSupport::default();
        let caps = [
            Capability::WorkgroupMemoryExplicitLayoutKHR as u32,
            Capability::WorkgroupMemoryExplicitLayout8BitAccessKHR as u32,
            Capability::WorkgroupMemoryExplicitLayout16BitAccessKHR as u32,
        ];
        assert!(check_capabilities("dev", &caps, &all, &sg).is_ok());
        for (cap, name) in caps.iter().zip([
            "workgroupMemoryExplicitLayout (",
            "workgroupMemoryExplicitLayout8BitAccess",
            "workgroupMemoryExplicitLayout16BitAccess",
        ]) {
            let err = check_capabilities("dev", &[*cap], &none, &sg)
                .unwrap_err()
                .to_string();
            assert!(err.contains(name), "{err}");
        }
    }

    #[test]
    fn an_unmapped_capability_is_refused_by_name() {
        let err = check_capabilities(
            "dev",
            &[Capability::Kernel as u32],
            &DeviceFeatures::default(),
            &SubgroupSupport::default(),
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("Kernel"), "{err}");
    }
}
