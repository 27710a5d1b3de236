//! The feature structures of three extensions `ash` 0.38 lacks, as the Vulkan headers define
//! them (vulkan_core.h 1.4.341): VK_KHR_shader_bfloat16, VK_EXT_shader_float8 and
//! VK_VALVE_shader_mixed_float_dot_product. Queried through `vkGetPhysicalDeviceFeatures2`'s
//! chain and enabled through `VkDeviceCreateInfo`'s when the device offers them.

use ash::vk;
use std::ffi::{CStr, c_void};

pub const BFLOAT16_EXTENSION: &CStr = c"VK_KHR_shader_bfloat16";
pub const FLOAT8_EXTENSION: &CStr = c"VK_EXT_shader_float8";
pub const MIXED_DOT_EXTENSION: &CStr = c"VK_VALVE_shader_mixed_float_dot_product";

/// VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_BFLOAT16_FEATURES_KHR.
const STRUCTURE_TYPE_BFLOAT16_FEATURES: i32 = 1000141000;
/// VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT8_FEATURES_EXT.
const STRUCTURE_TYPE_FLOAT8_FEATURES: i32 = 1000567000;
/// VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_MIXED_FLOAT_DOT_PRODUCT_FEATURES_VALVE.
const STRUCTURE_TYPE_MIXED_DOT_FEATURES: i32 = 1000673000;

/// The header every chained structure starts with.
#[repr(C)]
pub struct Chained {
    pub s_type: i32,
    pub p_next: *mut c_void,
}

/// VkPhysicalDeviceShaderBfloat16FeaturesKHR.
#[repr(C)]
pub struct Bfloat16Features {
    pub head: Chained,
    pub shader_bfloat16_type: vk::Bool32,
    pub shader_bfloat16_dot_product: vk::Bool32,
    pub shader_bfloat16_cooperative_matrix: vk::Bool32,
}

/// VkPhysicalDeviceShaderFloat8FeaturesEXT.
#[repr(C)]
pub struct Float8Features {
    pub head: Chained,
    pub shader_float8: vk::Bool32,
    pub shader_float8_cooperative_matrix: vk::Bool32,
}

/// VkPhysicalDeviceShaderMixedFloatDotProductFeaturesVALVE.
#[repr(C)]
pub struct MixedDotFeatures {
    pub head: Chained,
    pub float16_acc_float32: vk::Bool32,
    pub float16_acc_float16: vk::Bool32,
    pub bfloat16_acc: vk::Bool32,
    pub float8_acc_float32: vk::Bool32,
}

fn head(s_type: i32) -> Chained {
    Chained {
        s_type,
        p_next: std::ptr::null_mut(),
    }
}

impl Default for Bfloat16Features {
    fn default() -> Self {
        Bfloat16Features {
            head: head(STRUCTURE_TYPE_BFLOAT16_FEATURES),
            shader_bfloat16_type: 0,
            shader_bfloat16_dot_product: 0,
            shader_bfloat16_cooperative_matrix: 0,
        }
    }
}

impl Default for Float8Features {
    fn default() -> Self {
        Float8Features {
            head: head(STRUCTURE_TYPE_FLOAT8_FEATURES),
            shader_float8: 0,
            shader_float8_cooperative_matrix: 0,
        }
    }
}

impl Default for MixedDotFeatures {
    fn default() -> Self {
        MixedDotFeatures {
            head: head(STRUCTURE_TYPE_MIXED_DOT_FEATURES),
            float16_acc_float32: 0,
            float16_acc_float16: 0,
            bfloat16_acc: 0,
            float8_acc_float32: 0,
        }
    }
}

/// Links `s` at the head of the chain whose first `p_next` is `*next`.
///
/// # Safety
/// `s` must start with a [`Chained`] header and outlive every use of the chain.
pub unsafe fn link<T>(next: &mut *mut c_void, s: &mut T) {
    let p = (s as *mut T).cast::<Chained>();
    // SAFETY: the caller guarantees `s` starts with a Chained header.
    unsafe { (*p).p_next = *next };
    *next = p.cast();
}
