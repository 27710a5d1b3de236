//! Loading the Vulkan loader at run time, choosing a physical device (first, by index, or by
//! name), creating a logical device with every supported feature spvx-vk knows enabled, and
//! describing devices ([`list`], `spvx devices`).

use crate::error::{VkError, VkResult};
use crate::ext_ffi;
use crate::features::{DeviceFeatures, SubgroupSupport};
use crate::tensor_ffi;
use ash::vk;

/// Which device to run on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeviceChoice {
    /// The first device the loader lists.
    First,
    /// The first device whose name contains this text (ASCII case-insensitive).
    Named(String),
    /// The device at this position in the loader's list (`spvx devices` numbers them).
    Index(u32),
}

impl std::str::FromStr for DeviceChoice {
    type Err = VkError;

    /// `vulkan`, `vulkan:NAME` or `vulkan#INDEX`.
    fn from_str(s: &str) -> VkResult<DeviceChoice> {
        if let Some(i) = s.strip_prefix("vulkan#") {
            return i
                .parse()
                .map(DeviceChoice::Index)
                .map_err(|_| VkError::BadChoice(s.into()));
        }
        match s.split_once(':') {
            None if s == "vulkan" => Ok(DeviceChoice::First),
            Some(("vulkan", name)) if !name.is_empty() => Ok(DeviceChoice::Named(name.into())),
            _ => Err(VkError::BadChoice(s.into())),
        }
    }
}

/// What spvx-vk reports about the device it runs on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceReport {
    /// `deviceName`, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)".
    pub name: String,
    /// `driverName` and `driverInfo` (VkPhysicalDeviceDriverProperties), e.g. "llvmpipe",
    /// "Mesa 22.3.6 (LLVM 15.0.6)".
    pub driver_name: String,
    pub driver_info: String,
    /// `driverVersion` as the vendor encodes it (Mesa: a Vulkan-style version).
    pub driver_version: u32,
    /// The device's Vulkan version, "1.3.230".
    pub api_version: String,
    /// `subgroupSize`.
    pub subgroup_size: u32,
    /// Position in the loader's list.
    pub index: u32,
    /// `deviceType`: "cpu", "integrated GPU", "discrete GPU", "virtual GPU", "other".
    pub device_type: String,
    /// The features spvx-vk knows, as supported (and enabled when the device is opened).
    pub features: DeviceFeatures,
    /// The properties that matter to the ML arithmetic extensions.
    pub properties: DeviceProperties,
}

/// Properties of a device that matter to spvx's extensions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DeviceProperties {
    /// `minSubgroupSize`, `maxSubgroupSize` (VK_EXT_subgroup_size_control, Vulkan 1.3).
    pub min_subgroup_size: u32,
    pub max_subgroup_size: u32,
    /// `requiredSubgroupSizeStages` includes the compute stage.
    pub compute_required_subgroup_size: bool,
    /// The `integerDotProduct*Accelerated` properties (VkPhysicalDeviceShaderIntegerDotProductProperties),
    /// by their Vulkan names without the `integerDotProduct` prefix, in the specification's order.
    pub integer_dot_accelerated: Vec<(&'static str, bool)>,
    /// The device extensions of interest it offers (VK_KHR_shader_bfloat16,
    /// VK_EXT_shader_float8, VK_VALVE_shader_mixed_float_dot_product, VK_ARM_tensors,
    /// VK_EXT_robustness2, VK_KHR_workgroup_memory_explicit_layout,
    /// VK_KHR_shader_subgroup_uniform_control_flow).
    pub extensions: Vec<String>,
}

impl std::fmt::Display for DeviceReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} (driver {} {}, Vulkan {}, subgroup size {})",
            self.name, self.driver_name, self.driver_info, self.api_version, self.subgroup_size
        )
    }
}

/// The device extensions of SPV_KHR_subgroup_uniform_control_flow and
/// SPV_KHR_workgroup_memory_explicit_layout.
const UCF_EXTENSION: &std::ffi::CStr = c"VK_KHR_shader_subgroup_uniform_control_flow";
const WMEL_EXTENSION: &std::ffi::CStr = c"VK_KHR_workgroup_memory_explicit_layout";

/// An extension name as text.
fn ext_text(name: &std::ffi::CStr) -> &str {
    name.to_str().unwrap_or_default()
}

/// A loaded instance with a chosen physical device and its logical device.
pub(crate) struct Device {
    // Keeps the loader library alive as long as the instance.
    _entry: ash::Entry,
    pub instance: ash::Instance,
    pub device: ash::Device,
    pub queue: vk::Queue,
    pub queue_family: u32,
    pub report: DeviceReport,
    pub features: DeviceFeatures,
    pub subgroups: SubgroupSupport,
    pub limits: vk::PhysicalDeviceLimits,
    pub memory: vk::PhysicalDeviceMemoryProperties,
    /// VK_ARM_tensors functions, when the extension is enabled.
    pub tensor_fns: Option<tensor_ffi::TensorFns>,
    /// VkPhysicalDeviceTensorPropertiesARM::maxTensorDimensionCount (0 without VK_ARM_tensors).
    pub max_tensor_dimensions: u32,
}

/// `major.minor.patch` of a Vulkan version number.
fn version(v: u32) -> String {
    format!(
        "{}.{}.{}",
        vk::api_version_major(v),
        vk::api_version_minor(v),
        vk::api_version_patch(v)
    )
}

fn c_text(chars: &[std::ffi::c_char]) -> String {
    // The arrays are nul-terminated by the Vulkan spec; fall back to lossless-enough text.
    let bytes: Vec<u8> = chars
        .iter()
        .take_while(|&&c| c != 0)
        .map(|&c| c as u8)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

impl Device {
    /// Loads the loader, creates an instance and the chosen device.
    pub fn open(choice: &DeviceChoice) -> VkResult<Device> {
        // SAFETY: loading libvulkan runs its initialisers; that is what every Vulkan program does.
        let entry = unsafe { ash::Entry::load() }.map_err(|e| VkError::NoLoader(e.to_string()))?;
        let app = vk::ApplicationInfo::default()
            .application_name(c"spvx")
            .api_version(vk::API_VERSION_1_3);
        let info = vk::InstanceCreateInfo::default().application_info(&app);
        // SAFETY: valid create info; the instance is destroyed in Drop.
        let instance = unsafe { entry.create_instance(&info, None) }
            .map_err(VkError::call("vkCreateInstance"))?;
        match Self::open_device(&entry, &instance, choice) {
            Ok(d) => Ok(d),
            Err(e) => {
                // SAFETY: nothing created from the instance survives; the loader (`entry`) is
                // still loaded here and unloaded only after this call.
                unsafe { instance.destroy_instance(None) };
                Err(e)
            }
        }
    }

    fn open_device(
        entry: &ash::Entry,
        instance: &ash::Instance,
        choice: &DeviceChoice,
    ) -> VkResult<Device> {
        // SAFETY: valid instance.
        let physicals = unsafe { instance.enumerate_physical_devices() }
            .map_err(VkError::call("vkEnumeratePhysicalDevices"))?;
        let mut names = Vec::new();
        let mut chosen = None;
        for (i, &p) in physicals.iter().enumerate() {
            // SAFETY: p comes from the instance.
            let props = unsafe { instance.get_physical_device_properties(p) };
            let name = c_text(&props.device_name);
            let hit = match choice {
                DeviceChoice::First => true,
                DeviceChoice::Named(n) => name.to_lowercase().contains(&n.to_lowercase()),
                DeviceChoice::Index(want) => i as u32 == *want,
            };
            if hit && chosen.is_none() {
                chosen = Some(p);
            }
            names.push(name);
        }
        let Some(physical) = chosen else {
            return Err(VkError::NoDevice {
                wanted: match choice {
                    DeviceChoice::First => "at all".into(),
                    DeviceChoice::Named(n) => format!("whose name contains '{n}'"),
                    DeviceChoice::Index(i) => format!("with index {i}"),
                },
                available: if names.is_empty() {
                    "none".into()
                } else {
                    names
                        .iter()
                        .enumerate()
                        .map(|(i, n)| format!("{i}: {n}"))
                        .collect::<Vec<_>>()
                        .join("; ")
                },
            });
        };
        let index = physicals.iter().position(|&p| p == physical).unwrap_or(0) as u32;
        let q = query(instance, physical, index)?;
        let device_name = q.report.name.clone();
        // SAFETY: valid physical device.
        let families = unsafe { instance.get_physical_device_queue_family_properties(physical) };
        let Some(queue_family) = families
            .iter()
            .position(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE))
        else {
            return Err(VkError::MissingFeature {
                device: device_name,
                missing: "a compute queue".into(),
                reason: "every dispatch".into(),
            });
        };
        let queue_family = queue_family as u32;
        let device = create_device(instance, physical, queue_family, &q)?;
        // SAFETY: the device has one queue in this family.
        let queue = unsafe { device.get_device_queue(queue_family, 0) };
        let tensor_fns = if q.features.tensors {
            // SAFETY: the device was created with VK_ARM_tensors enabled.
            unsafe { tensor_ffi::TensorFns::load(instance, device.handle()) }
        } else {
            None
        };
        Ok(Device {
            _entry: entry.clone(),
            instance: instance.clone(),
            device,
            queue,
            queue_family,
            report: q.report,
            features: q.features,
            subgroups: q.subgroups,
            limits: q.limits,
            memory: q.memory,
            tensor_fns,
            max_tensor_dimensions: q.max_tensor_dimensions,
        })
    }
}

impl Drop for Device {
    fn drop(&mut self) {
        // SAFETY: every object created from the device was destroyed by its owner (a run), or
        // deliberately leaked after a timeout; waiting first keeps the teardown ordered.
        unsafe {
            let _ = self.device.device_wait_idle();
            self.device.destroy_device(None);
            self.instance.destroy_instance(None);
        }
    }
}

/// What a physical device offers.
struct Queried {
    report: DeviceReport,
    features: DeviceFeatures,
    subgroups: SubgroupSupport,
    limits: vk::PhysicalDeviceLimits,
    memory: vk::PhysicalDeviceMemoryProperties,
    max_tensor_dimensions: u32,
}

fn query(instance: &ash::Instance, p: vk::PhysicalDevice, index: u32) -> VkResult<Queried> {
    // SAFETY: p is a valid physical device of `instance`; the chained structs live on the stack
    // for the duration of each call.
    unsafe {
        let props = instance.get_physical_device_properties(p);
        let name = c_text(&props.device_name);
        if props.api_version < vk::API_VERSION_1_3 {
            return Err(VkError::OldDevice {
                device: name,
                found: version(props.api_version),
            });
        }
        let extensions: Vec<String> = instance
            .enumerate_device_extension_properties(p)
            .map_err(VkError::call("vkEnumerateDeviceExtensionProperties"))?
            .iter()
            .map(|e| c_text(&e.extension_name))
            .collect();
        let has_ext = |n: &str| extensions.iter().any(|e| e == n);
        let mut driver = vk::PhysicalDeviceDriverProperties::default();
        let mut v11p = vk::PhysicalDeviceVulkan11Properties::default();
        let mut v13p = vk::PhysicalDeviceVulkan13Properties::default();
        let mut props2 = vk::PhysicalDeviceProperties2::default()
            .push_next(&mut driver)
            .push_next(&mut v11p)
            .push_next(&mut v13p);
        instance.get_physical_device_properties2(p, &mut props2);
        let subgroups = SubgroupSupport {
            size: v11p.subgroup_size,
            operations: if v11p
                .subgroup_supported_stages
                .contains(vk::ShaderStageFlags::COMPUTE)
            {
                v11p.subgroup_supported_operations.as_raw()
            } else {
                0
            },
        };
        let interesting = [
            "VK_KHR_shader_bfloat16",
            "VK_EXT_shader_float8",
            "VK_VALVE_shader_mixed_float_dot_product",
            "VK_ARM_tensors",
            "VK_EXT_robustness2",
            ext_text(WMEL_EXTENSION),
            ext_text(UCF_EXTENSION),
        ];
        let properties = DeviceProperties {
            min_subgroup_size: v13p.min_subgroup_size,
            max_subgroup_size: v13p.max_subgroup_size,
            compute_required_subgroup_size: v13p
                .required_subgroup_size_stages
                .contains(vk::ShaderStageFlags::COMPUTE),
            integer_dot_accelerated: integer_dot_accelerated(&v13p),
            extensions: interesting
                .iter()
                .filter(|e| has_ext(e))
                .map(|e| e.to_string())
                .collect(),
        };
        let mut v11 = vk::PhysicalDeviceVulkan11Features::default();
        let mut v12 = vk::PhysicalDeviceVulkan12Features::default();
        let mut v13 = vk::PhysicalDeviceVulkan13Features::default();
        let mut rob2 = vk::PhysicalDeviceRobustness2FeaturesEXT::default();
        let mut ucf = vk::PhysicalDeviceShaderSubgroupUniformControlFlowFeaturesKHR::default();
        let mut wmel = vk::PhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR::default();
        let mut f2 = vk::PhysicalDeviceFeatures2::default()
            .push_next(&mut v11)
            .push_next(&mut v12)
            .push_next(&mut v13);
        let robustness2 = has_ext("VK_EXT_robustness2");
        if robustness2 {
            f2 = f2.push_next(&mut rob2);
        }
        let has_ucf = has_ext(ext_text(UCF_EXTENSION));
        if has_ucf {
            f2 = f2.push_next(&mut ucf);
        }
        let has_wmel = has_ext(ext_text(WMEL_EXTENSION));
        if has_wmel {
            f2 = f2.push_next(&mut wmel);
        }
        let mut tensor = tensor_ffi::PhysicalDeviceTensorFeatures::default();
        let has_tensors = has_ext("VK_ARM_tensors");
        if has_tensors {
            // ash has no type for it: linked by hand at the head of the chain.
            tensor.p_next = f2.p_next;
            f2.p_next = (&mut tensor as *mut tensor_ffi::PhysicalDeviceTensorFeatures).cast();
        }
        // The same for the bfloat16, float8 and VALVE mixed dot product features.
        let mut bf16 = ext_ffi::Bfloat16Features::default();
        let mut fp8 = ext_ffi::Float8Features::default();
        let mut mixdot = ext_ffi::MixedDotFeatures::default();
        let has_bf16 = has_ext("VK_KHR_shader_bfloat16");
        let has_fp8 = has_ext("VK_EXT_shader_float8");
        let has_mixdot = has_ext("VK_VALVE_shader_mixed_float_dot_product");
        if has_bf16 {
            ext_ffi::link(&mut f2.p_next, &mut bf16);
        }
        if has_fp8 {
            ext_ffi::link(&mut f2.p_next, &mut fp8);
        }
        if has_mixdot {
            ext_ffi::link(&mut f2.p_next, &mut mixdot);
        }
        instance.get_physical_device_features2(p, &mut f2);
        let core = f2.features;
        let b = |x: vk::Bool32| x == vk::TRUE;
        let features = DeviceFeatures {
            shader_int16: b(core.shader_int16),
            shader_int64: b(core.shader_int64),
            shader_float64: b(core.shader_float64),
            robust_buffer_access: b(core.robust_buffer_access),
            storage_buffer_16bit_access: b(v11.storage_buffer16_bit_access),
            uniform_and_storage_buffer_16bit_access: b(v11.uniform_and_storage_buffer16_bit_access),
            storage_push_constant16: b(v11.storage_push_constant16),
            variable_pointers_storage_buffer: b(v11.variable_pointers_storage_buffer),
            variable_pointers: b(v11.variable_pointers),
            storage_buffer_8bit_access: b(v12.storage_buffer8_bit_access),
            uniform_and_storage_buffer_8bit_access: b(v12.uniform_and_storage_buffer8_bit_access),
            storage_push_constant8: b(v12.storage_push_constant8),
            shader_buffer_int64_atomics: b(v12.shader_buffer_int64_atomics),
            shader_shared_int64_atomics: b(v12.shader_shared_int64_atomics),
            shader_float16: b(v12.shader_float16),
            shader_int8: b(v12.shader_int8),
            vulkan_memory_model: b(v12.vulkan_memory_model),
            vulkan_memory_model_device_scope: b(v12.vulkan_memory_model_device_scope),
            subgroup_size_control: b(v13.subgroup_size_control),
            compute_full_subgroups: b(v13.compute_full_subgroups),
            shader_integer_dot_product: b(v13.shader_integer_dot_product),
            shader_zero_initialize_workgroup_memory: b(v13.shader_zero_initialize_workgroup_memory),
            shader_demote_to_helper_invocation: b(v13.shader_demote_to_helper_invocation),
            shader_uniform_buffer_array_dynamic_indexing: b(
                core.shader_uniform_buffer_array_dynamic_indexing
            ),
            shader_storage_buffer_array_dynamic_indexing: b(
                core.shader_storage_buffer_array_dynamic_indexing
            ),
            shader_uniform_buffer_array_non_uniform_indexing: b(
                v12.shader_uniform_buffer_array_non_uniform_indexing
            ),
            shader_storage_buffer_array_non_uniform_indexing: b(
                v12.shader_storage_buffer_array_non_uniform_indexing
            ),
            runtime_descriptor_array: b(v12.runtime_descriptor_array),
            robust_buffer_access2: robustness2 && b(rob2.robust_buffer_access2),
            tensors: has_tensors && b(tensor.tensors) && b(tensor.shader_tensor_access),
            shader_storage_tensor_array_dynamic_indexing: has_tensors
                && b(tensor.shader_storage_tensor_array_dynamic_indexing),
            shader_storage_tensor_array_non_uniform_indexing: has_tensors
                && b(tensor.shader_storage_tensor_array_non_uniform_indexing),
            shader_bfloat16_type: has_bf16 && b(bf16.shader_bfloat16_type),
            shader_bfloat16_dot_product: has_bf16 && b(bf16.shader_bfloat16_dot_product),
            shader_float8: has_fp8 && b(fp8.shader_float8),
            mixed_dot_f16_acc32: has_mixdot && b(mixdot.float16_acc_float32),
            mixed_dot_f16_acc16: has_mixdot && b(mixdot.float16_acc_float16),
            mixed_dot_bf16_acc: has_mixdot && b(mixdot.bfloat16_acc),
            mixed_dot_fp8_acc32: has_mixdot && b(mixdot.float8_acc_float32),
            shader_subgroup_uniform_control_flow: has_ucf
                && b(ucf.shader_subgroup_uniform_control_flow),
            workgroup_memory_explicit_layout: has_wmel && b(wmel.workgroup_memory_explicit_layout),
            workgroup_memory_explicit_layout_scalar_block_layout: has_wmel
                && b(wmel.workgroup_memory_explicit_layout_scalar_block_layout),
            workgroup_memory_explicit_layout_8bit_access: has_wmel
                && b(wmel.workgroup_memory_explicit_layout8_bit_access),
            workgroup_memory_explicit_layout_16bit_access: has_wmel
                && b(wmel.workgroup_memory_explicit_layout16_bit_access),
        };
        let device_type = match props.device_type {
            vk::PhysicalDeviceType::CPU => "cpu",
            vk::PhysicalDeviceType::INTEGRATED_GPU => "integrated GPU",
            vk::PhysicalDeviceType::DISCRETE_GPU => "discrete GPU",
            vk::PhysicalDeviceType::VIRTUAL_GPU => "virtual GPU",
            _ => "other",
        };
        let report = DeviceReport {
            name,
            driver_name: c_text(&driver.driver_name),
            driver_info: c_text(&driver.driver_info),
            driver_version: props.driver_version,
            api_version: version(props.api_version),
            subgroup_size: v11p.subgroup_size,
            index,
            device_type: device_type.into(),
            features,
            properties,
        };
        let memory = instance.get_physical_device_memory_properties(p);
        // VK_ARM_tensors limits (ash has no type for them: linked by hand).
        let mut tensor_props = tensor_ffi::PhysicalDeviceTensorProperties::default();
        if has_tensors {
            let mut props2 = vk::PhysicalDeviceProperties2 {
                p_next: (&mut tensor_props as *mut tensor_ffi::PhysicalDeviceTensorProperties)
                    .cast(),
                ..Default::default()
            };
            instance.get_physical_device_properties2(p, &mut props2);
        }
        Ok(Queried {
            report,
            features,
            subgroups,
            limits: props.limits,
            memory,
            max_tensor_dimensions: tensor_props.max_tensor_dimension_count,
        })
    }
}

/// Creates the logical device with every known supported feature enabled (enabling a supported
/// feature is always allowed; robust buffer access makes out-of-bounds accesses defined).
fn create_device(
    instance: &ash::Instance,
    p: vk::PhysicalDevice,
    queue_family: u32,
    q: &Queried,
) -> VkResult<ash::Device> {
    let f = &q.features;
    let t = |x: bool| if x { vk::TRUE } else { vk::FALSE };
    let core = vk::PhysicalDeviceFeatures {
        shader_int16: t(f.shader_int16),
        shader_int64: t(f.shader_int64),
        shader_float64: t(f.shader_float64),
        robust_buffer_access: t(f.robust_buffer_access),
        shader_uniform_buffer_array_dynamic_indexing: t(
            f.shader_uniform_buffer_array_dynamic_indexing
        ),
        shader_storage_buffer_array_dynamic_indexing: t(
            f.shader_storage_buffer_array_dynamic_indexing
        ),
        ..Default::default()
    };
    let mut v11 = vk::PhysicalDeviceVulkan11Features::default()
        .storage_buffer16_bit_access(f.storage_buffer_16bit_access)
        .uniform_and_storage_buffer16_bit_access(f.uniform_and_storage_buffer_16bit_access)
        .storage_push_constant16(f.storage_push_constant16)
        .variable_pointers_storage_buffer(f.variable_pointers_storage_buffer)
        .variable_pointers(f.variable_pointers);
    let mut v12 = vk::PhysicalDeviceVulkan12Features::default()
        .storage_buffer8_bit_access(f.storage_buffer_8bit_access)
        .uniform_and_storage_buffer8_bit_access(f.uniform_and_storage_buffer_8bit_access)
        .storage_push_constant8(f.storage_push_constant8)
        .shader_buffer_int64_atomics(f.shader_buffer_int64_atomics)
        .shader_shared_int64_atomics(f.shader_shared_int64_atomics)
        .shader_float16(f.shader_float16)
        .shader_int8(f.shader_int8)
        .vulkan_memory_model(f.vulkan_memory_model)
        .vulkan_memory_model_device_scope(f.vulkan_memory_model_device_scope)
        .shader_uniform_buffer_array_non_uniform_indexing(
            f.shader_uniform_buffer_array_non_uniform_indexing,
        )
        .shader_storage_buffer_array_non_uniform_indexing(
            f.shader_storage_buffer_array_non_uniform_indexing,
        )
        .runtime_descriptor_array(f.runtime_descriptor_array);
    let mut v13 = vk::PhysicalDeviceVulkan13Features::default()
        .subgroup_size_control(f.subgroup_size_control)
        .compute_full_subgroups(f.compute_full_subgroups)
        .shader_integer_dot_product(f.shader_integer_dot_product)
        .shader_zero_initialize_workgroup_memory(f.shader_zero_initialize_workgroup_memory)
        .shader_demote_to_helper_invocation(f.shader_demote_to_helper_invocation);
    let mut rob2 = vk::PhysicalDeviceRobustness2FeaturesEXT::default().robust_buffer_access2(true);
    let mut ucf = vk::PhysicalDeviceShaderSubgroupUniformControlFlowFeaturesKHR::default()
        .shader_subgroup_uniform_control_flow(true);
    let mut wmel = vk::PhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR::default()
        .workgroup_memory_explicit_layout(f.workgroup_memory_explicit_layout)
        .workgroup_memory_explicit_layout_scalar_block_layout(
            f.workgroup_memory_explicit_layout_scalar_block_layout,
        )
        .workgroup_memory_explicit_layout8_bit_access(
            f.workgroup_memory_explicit_layout_8bit_access,
        )
        .workgroup_memory_explicit_layout16_bit_access(
            f.workgroup_memory_explicit_layout_16bit_access,
        );
    let wmel_on = f.workgroup_memory_explicit_layout;
    let priorities = [1.0f32];
    let queues = [vk::DeviceQueueCreateInfo::default()
        .queue_family_index(queue_family)
        .queue_priorities(&priorities)];
    let mut ext_names: Vec<*const std::ffi::c_char> = Vec::new();
    if f.robust_buffer_access2 {
        ext_names.push(c"VK_EXT_robustness2".as_ptr());
    }
    if f.tensors {
        ext_names.push(tensor_ffi::EXTENSION_NAME.as_ptr());
    }
    if f.shader_subgroup_uniform_control_flow {
        ext_names.push(UCF_EXTENSION.as_ptr());
    }
    if wmel_on {
        ext_names.push(WMEL_EXTENSION.as_ptr());
    }
    let bf16_on = f.shader_bfloat16_type || f.shader_bfloat16_dot_product;
    let mixdot_on = f.mixed_dot_f16_acc32
        || f.mixed_dot_f16_acc16
        || f.mixed_dot_bf16_acc
        || f.mixed_dot_fp8_acc32;
    if bf16_on {
        ext_names.push(ext_ffi::BFLOAT16_EXTENSION.as_ptr());
    }
    if f.shader_float8 {
        ext_names.push(ext_ffi::FLOAT8_EXTENSION.as_ptr());
    }
    if mixdot_on {
        ext_names.push(ext_ffi::MIXED_DOT_EXTENSION.as_ptr());
    }
    let mut info = vk::DeviceCreateInfo::default()
        .queue_create_infos(&queues)
        .enabled_features(&core)
        .enabled_extension_names(&ext_names)
        .push_next(&mut v11)
        .push_next(&mut v12)
        .push_next(&mut v13);
    if f.robust_buffer_access2 {
        info = info.push_next(&mut rob2);
    }
    if f.shader_subgroup_uniform_control_flow {
        info = info.push_next(&mut ucf);
    }
    if wmel_on {
        info = info.push_next(&mut wmel);
    }
    let mut tensor = tensor_ffi::PhysicalDeviceTensorFeatures {
        tensors: vk::TRUE,
        shader_tensor_access: vk::TRUE,
        shader_storage_tensor_array_dynamic_indexing: f
            .shader_storage_tensor_array_dynamic_indexing
            .into(),
        shader_storage_tensor_array_non_uniform_indexing: f
            .shader_storage_tensor_array_non_uniform_indexing
            .into(),
        ..Default::default()
    };
    if f.tensors {
        tensor.p_next = info.p_next.cast_mut();
        info.p_next = (&mut tensor as *mut tensor_ffi::PhysicalDeviceTensorFeatures)
            .cast_const()
            .cast();
    }
    let t = |x: bool| if x { vk::TRUE } else { vk::FALSE };
    let mut bf16 = ext_ffi::Bfloat16Features {
        shader_bfloat16_type: t(f.shader_bfloat16_type),
        shader_bfloat16_dot_product: t(f.shader_bfloat16_dot_product),
        ..Default::default()
    };
    let mut fp8 = ext_ffi::Float8Features {
        shader_float8: t(f.shader_float8),
        ..Default::default()
    };
    let mut mixdot = ext_ffi::MixedDotFeatures {
        float16_acc_float32: t(f.mixed_dot_f16_acc32),
        float16_acc_float16: t(f.mixed_dot_f16_acc16),
        bfloat16_acc: t(f.mixed_dot_bf16_acc),
        float8_acc_float32: t(f.mixed_dot_fp8_acc32),
        ..Default::default()
    };
    let mut next = info.p_next.cast_mut();
    // SAFETY: each structure starts with the chained header and outlives the call below.
    unsafe {
        if bf16_on {
            ext_ffi::link(&mut next, &mut bf16);
        }
        if f.shader_float8 {
            ext_ffi::link(&mut next, &mut fp8);
        }
        if mixdot_on {
            ext_ffi::link(&mut next, &mut mixdot);
        }
    }
    info.p_next = next.cast_const();
    // SAFETY: every chained struct outlives the call; features enabled are supported.
    unsafe { instance.create_device(p, &info, None) }.map_err(VkError::call("vkCreateDevice"))
}

/// The `integerDotProduct*Accelerated` properties, named without the prefix.
fn integer_dot_accelerated(p: &vk::PhysicalDeviceVulkan13Properties) -> Vec<(&'static str, bool)> {
    let b = |x: vk::Bool32| x == vk::TRUE;
    vec![
        ("8BitUnsignedAccelerated", b(p.integer_dot_product8_bit_unsigned_accelerated)),
        ("8BitSignedAccelerated", b(p.integer_dot_product8_bit_signed_accelerated)),
        ("8BitMixedSignednessAccelerated", b(p.integer_dot_product8_bit_mixed_signedness_accelerated)),
        ("4x8BitPackedUnsignedAccelerated", b(p.integer_dot_product4x8_bit_packed_unsigned_accelerated)),
        ("4x8BitPackedSignedAccelerated", b(p.integer_dot_product4x8_bit_packed_signed_accelerated)),
        ("4x8BitPackedMixedSignednessAccelerated", b(p.integer_dot_product4x8_bit_packed_mixed_signedness_accelerated)),
        ("16BitUnsignedAccelerated", b(p.integer_dot_product16_bit_unsigned_accelerated)),
        ("16BitSignedAccelerated", b(p.integer_dot_product16_bit_signed_accelerated)),
        ("16BitMixedSignednessAccelerated", b(p.integer_dot_product16_bit_mixed_signedness_accelerated)),
        ("32BitUnsignedAccelerated", b(p.integer_dot_product32_bit_unsigned_accelerated)),
        ("32BitSignedAccelerated", b(p.integer_dot_product32_bit_signed_accelerated)),
        ("32BitMixedSignednessAccelerated", b(p.integer_dot_product32_bit_mixed_signedness_accelerated)),
        ("64BitUnsignedAccelerated", b(p.integer_dot_product64_bit_unsigned_accelerated)),
        ("64BitSignedAccelerated", b(p.integer_dot_product64_bit_signed_accelerated)),
        ("64BitMixedSignednessAccelerated", b(p.integer_dot_product64_bit_mixed_signedness_accelerated)),
        ("AccumulatingSaturating8BitUnsignedAccelerated", b(p.integer_dot_product_accumulating_saturating8_bit_unsigned_accelerated)),
        ("AccumulatingSaturating8BitSignedAccelerated", b(p.integer_dot_product_accumulating_saturating8_bit_signed_accelerated)),
        ("AccumulatingSaturating8BitMixedSignednessAccelerated", b(p.integer_dot_product_accumulating_saturating8_bit_mixed_signedness_accelerated)),
        ("AccumulatingSaturating4x8BitPackedUnsignedAccelerated", b(p.integer_dot_product_accumulating_saturating4x8_bit_packed_unsigned_accelerated)),
        ("AccumulatingSaturating4x8BitPackedSignedAccelerated", b(p.integer_dot_product_accumulating_saturating4x8_bit_packed_signed_accelerated)),
        ("AccumulatingSaturating4x8BitPackedMixedSignednessAccelerated", b(p.integer_dot_product_accumulating_saturating4x8_bit_packed_mixed_signedness_accelerated)),
        ("AccumulatingSaturating16BitUnsignedAccelerated", b(p.integer_dot_product_accumulating_saturating16_bit_unsigned_accelerated)),
        ("AccumulatingSaturating16BitSignedAccelerated", b(p.integer_dot_product_accumulating_saturating16_bit_signed_accelerated)),
        ("AccumulatingSaturating16BitMixedSignednessAccelerated", b(p.integer_dot_product_accumulating_saturating16_bit_mixed_signedness_accelerated)),
        ("AccumulatingSaturating32BitUnsignedAccelerated", b(p.integer_dot_product_accumulating_saturating32_bit_unsigned_accelerated)),
        ("AccumulatingSaturating32BitSignedAccelerated", b(p.integer_dot_product_accumulating_saturating32_bit_signed_accelerated)),
        ("AccumulatingSaturating32BitMixedSignednessAccelerated", b(p.integer_dot_product_accumulating_saturating32_bit_mixed_signedness_accelerated)),
        ("AccumulatingSaturating64BitUnsignedAccelerated", b(p.integer_dot_product_accumulating_saturating64_bit_unsigned_accelerated)),
        ("AccumulatingSaturating64BitSignedAccelerated", b(p.integer_dot_product_accumulating_saturating64_bit_signed_accelerated)),
        ("AccumulatingSaturating64BitMixedSignednessAccelerated", b(p.integer_dot_product_accumulating_saturating64_bit_mixed_signedness_accelerated)),
    ]
}

/// One device the loader lists: its report, or why spvx-vk cannot use it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Listed {
    Usable(Box<DeviceReport>),
    /// Index, name, and the reason (a Vulkan version below 1.3, a failed query).
    Unusable {
        index: u32,
        name: String,
        reason: String,
    },
}

/// Every device the loader lists, in its order (the indices `DeviceChoice::Index` takes).
pub fn list() -> VkResult<Vec<Listed>> {
    // SAFETY: as in Device::open.
    let entry = unsafe { ash::Entry::load() }.map_err(|e| VkError::NoLoader(e.to_string()))?;
    let app = vk::ApplicationInfo::default()
        .application_name(c"spvx")
        .api_version(vk::API_VERSION_1_3);
    let info = vk::InstanceCreateInfo::default().application_info(&app);
    // SAFETY: valid create info; the instance is destroyed below.
    let instance =
        unsafe { entry.create_instance(&info, None) }.map_err(VkError::call("vkCreateInstance"))?;
    // SAFETY: valid instance.
    let physicals = unsafe { instance.enumerate_physical_devices() };
    let out = physicals
        .map_err(VkError::call("vkEnumeratePhysicalDevices"))
        .map(|ps| {
            ps.iter()
                .enumerate()
                .map(|(i, &p)| match query(&instance, p, i as u32) {
                    Ok(q) => Listed::Usable(Box::new(q.report)),
                    Err(e) => Listed::Unusable {
                        index: i as u32,
                        // SAFETY: p comes from the instance.
                        name: c_text(
                            &unsafe { instance.get_physical_device_properties(p) }.device_name,
                        ),
                        reason: e.to_string(),
                    },
                })
                .collect()
        });
    // SAFETY: nothing created from the instance survives.
    unsafe { instance.destroy_instance(None) };
    out
}
