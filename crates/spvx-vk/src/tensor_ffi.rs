//! The few VK_ARM_tensors declarations `ash` 0.38 lacks: structure types, the tensor
//! descriptor type, the structures spvx-vk fills and the device functions it calls, as the
//! Vulkan registry defines them (VK_ARM_tensors revision 2; values from vk.xml, enum offset
//! base 1000460000).

#![allow(non_camel_case_types)]

use ash::vk;
use std::ffi::c_void;

pub const EXTENSION_NAME: &std::ffi::CStr = c"VK_ARM_tensors";
pub const STRUCTURE_TYPE_TENSOR_CREATE_INFO: i32 = 1000460000;
pub const STRUCTURE_TYPE_TENSOR_VIEW_CREATE_INFO: i32 = 1000460001;
pub const STRUCTURE_TYPE_BIND_TENSOR_MEMORY_INFO: i32 = 1000460002;
pub const STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_TENSOR: i32 = 1000460003;
pub const STRUCTURE_TYPE_TENSOR_DESCRIPTION: i32 = 1000460006;
pub const STRUCTURE_TYPE_TENSOR_MEMORY_REQUIREMENTS_INFO: i32 = 1000460007;
pub const STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES: i32 = 1000460009;
pub const STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_PROPERTIES: i32 = 1000460004;
/// VK_DESCRIPTOR_TYPE_TENSOR_ARM.
pub const DESCRIPTOR_TYPE_TENSOR: i32 = 1000460000;
/// VK_FORMAT_R8_BOOL_ARM.
pub const FORMAT_R8_BOOL: i32 = 1000460000;
pub const TENSOR_TILING_LINEAR: i32 = 1;
pub const TENSOR_USAGE_SHADER: u64 = 2;

/// A VkTensorARM / VkTensorViewARM handle (non-dispatchable: 64 bits).
pub type Handle = u64;

#[repr(C)]
pub struct PhysicalDeviceTensorFeatures {
    pub s_type: i32,
    pub p_next: *mut c_void,
    pub tensor_non_packed: vk::Bool32,
    pub shader_tensor_access: vk::Bool32,
    pub shader_storage_tensor_array_dynamic_indexing: vk::Bool32,
    pub shader_storage_tensor_array_non_uniform_indexing: vk::Bool32,
    pub descriptor_binding_storage_tensor_update_after_bind: vk::Bool32,
    pub tensors: vk::Bool32,
}

impl Default for PhysicalDeviceTensorFeatures {
    fn default() -> Self {
        PhysicalDeviceTensorFeatures {
            s_type: STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES,
            p_next: std::ptr::null_mut(),
            tensor_non_packed: 0,
            shader_tensor_access: 0,
            shader_storage_tensor_array_dynamic_indexing: 0,
            shader_storage_tensor_array_non_uniform_indexing: 0,
            descriptor_binding_storage_tensor_update_after_bind: 0,
            tensors: 0,
        }
    }
}

/// VkPhysicalDeviceTensorPropertiesARM (chained into vkGetPhysicalDeviceProperties2).
#[repr(C)]
pub struct PhysicalDeviceTensorProperties {
    pub s_type: i32,
    pub p_next: *mut c_void,
    pub max_tensor_dimension_count: u32,
    pub max_tensor_elements: u64,
    pub max_per_dimension_tensor_elements: u64,
    pub max_tensor_stride: i64,
    pub max_tensor_size: u64,
    pub max_tensor_shader_access_array_length: u32,
    pub max_tensor_shader_access_size: u32,
    pub max_descriptor_set_storage_tensors: u32,
    pub max_per_stage_descriptor_set_storage_tensors: u32,
    pub max_descriptor_set_update_after_bind_storage_tensors: u32,
    pub max_per_stage_descriptor_update_after_bind_storage_tensors: u32,
    pub shader_storage_tensor_array_non_uniform_indexing_native: vk::Bool32,
    pub shader_tensor_supported_stages: vk::ShaderStageFlags,
}

impl Default for PhysicalDeviceTensorProperties {
    fn default() -> Self {
        PhysicalDeviceTensorProperties {
            s_type: STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_PROPERTIES,
            p_next: std::ptr::null_mut(),
            max_tensor_dimension_count: 0,
            max_tensor_elements: 0,
            max_per_dimension_tensor_elements: 0,
            max_tensor_stride: 0,
            max_tensor_size: 0,
            max_tensor_shader_access_array_length: 0,
            max_tensor_shader_access_size: 0,
            max_descriptor_set_storage_tensors: 0,
            max_per_stage_descriptor_set_storage_tensors: 0,
            max_descriptor_set_update_after_bind_storage_tensors: 0,
            max_per_stage_descriptor_update_after_bind_storage_tensors: 0,
            shader_storage_tensor_array_non_uniform_indexing_native: 0,
            shader_tensor_supported_stages: vk::ShaderStageFlags::empty(),
        }
    }
}

#[repr(C)]
pub struct TensorDescription {
    pub s_type: i32,
    pub p_next: *const c_void,
    pub tiling: i32,
    pub format: i32,
    pub dimension_count: u32,
    pub p_dimensions: *const i64,
    pub p_strides: *const i64,
    pub usage: u64,
}

#[repr(C)]
pub struct TensorCreateInfo {
    pub s_type: i32,
    pub p_next: *const c_void,
    pub flags: u64,
    pub p_description: *const TensorDescription,
    pub sharing_mode: i32,
    pub queue_family_index_count: u32,
    pub p_queue_family_indices: *const u32,
}

#[repr(C)]
pub struct TensorViewCreateInfo {
    pub s_type: i32,
    pub p_next: *const c_void,
    pub flags: u64,
    pub tensor: Handle,
    pub format: i32,
}

#[repr(C)]
pub struct TensorMemoryRequirementsInfo {
    pub s_type: i32,
    pub p_next: *const c_void,
    pub tensor: Handle,
}

#[repr(C)]
pub struct BindTensorMemoryInfo {
    pub s_type: i32,
    pub p_next: *const c_void,
    pub tensor: Handle,
    pub memory: vk::DeviceMemory,
    pub memory_offset: vk::DeviceSize,
}

#[repr(C)]
pub struct WriteDescriptorSetTensor {
    pub s_type: i32,
    pub p_next: *const c_void,
    pub tensor_view_count: u32,
    pub p_tensor_views: *const Handle,
}

pub type CreateTensor = unsafe extern "system" fn(
    vk::Device,
    *const TensorCreateInfo,
    *const c_void,
    *mut Handle,
) -> vk::Result;
pub type DestroyTensor = unsafe extern "system" fn(vk::Device, Handle, *const c_void);
pub type CreateTensorView = unsafe extern "system" fn(
    vk::Device,
    *const TensorViewCreateInfo,
    *const c_void,
    *mut Handle,
) -> vk::Result;
pub type DestroyTensorView = unsafe extern "system" fn(vk::Device, Handle, *const c_void);
pub type GetTensorMemoryRequirements = unsafe extern "system" fn(
    vk::Device,
    *const TensorMemoryRequirementsInfo,
    *mut vk::MemoryRequirements2<'static>,
);
pub type BindTensorMemory =
    unsafe extern "system" fn(vk::Device, u32, *const BindTensorMemoryInfo) -> vk::Result;

/// The device functions of VK_ARM_tensors.
#[derive(Clone, Copy)]
pub struct TensorFns {
    pub create_tensor: CreateTensor,
    pub destroy_tensor: DestroyTensor,
    pub create_tensor_view: CreateTensorView,
    pub destroy_tensor_view: DestroyTensorView,
    pub get_tensor_memory_requirements: GetTensorMemoryRequirements,
    pub bind_tensor_memory: BindTensorMemory,
}

impl TensorFns {
    /// Loads the functions from the device; None when any is missing.
    ///
    /// # Safety
    /// `device` must be a live device created from `instance` with VK_ARM_tensors enabled.
    pub unsafe fn load(instance: &ash::Instance, device: vk::Device) -> Option<TensorFns> {
        macro_rules! load {
            ($name:literal, $ty:ty) => {{
                // SAFETY: the loader returns a function of the type the registry declares for
                // this name, or null.
                let f = unsafe { instance.get_device_proc_addr(device, $name.as_ptr()) }?;
                unsafe { std::mem::transmute::<unsafe extern "system" fn(), $ty>(f) }
            }};
        }
        Some(TensorFns {
            create_tensor: load!(c"vkCreateTensorARM", CreateTensor),
            destroy_tensor: load!(c"vkDestroyTensorARM", DestroyTensor),
            create_tensor_view: load!(c"vkCreateTensorViewARM", CreateTensorView),
            destroy_tensor_view: load!(c"vkDestroyTensorViewARM", DestroyTensorView),
            get_tensor_memory_requirements: load!(
                c"vkGetTensorMemoryRequirementsARM",
                GetTensorMemoryRequirements
            ),
            bind_tensor_memory: load!(c"vkBindTensorMemoryARM", BindTensorMemory),
        })
    }
}
