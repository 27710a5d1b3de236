//! Loading the Vulkan loader at run time, choosing a physical device, creating a logical device
//! with every supported feature spvx-vk knows enabled, and describing the device.

use crate::error::{VkError, VkResult};
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
}

impl std::str::FromStr for DeviceChoice {
    type Err = VkError;

    /// `vulkan` or `vulkan:NAME`.
    fn from_str(s: &str) -> VkResult<DeviceChoice> {
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
        for &p in &physicals {
            // SAFETY: p comes from the instance.
            let props = unsafe { instance.get_physical_device_properties(p) };
            let name = c_text(&props.device_name);
            let hit = match choice {
                DeviceChoice::First => true,
                DeviceChoice::Named(n) => name.to_lowercase().contains(&n.to_lowercase()),
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
                },
                available: if names.is_empty() {
                    "none".into()
                } else {
                    names.join("; ")
                },
            });
        };
        let q = query(instance, physical)?;
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
}

fn query(instance: &ash::Instance, p: vk::PhysicalDevice) -> VkResult<Queried> {
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
        let mut props2 = vk::PhysicalDeviceProperties2::default()
            .push_next(&mut driver)
            .push_next(&mut v11p);
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
        let report = DeviceReport {
            name,
            driver_name: c_text(&driver.driver_name),
            driver_info: c_text(&driver.driver_info),
            driver_version: props.driver_version,
            api_version: version(props.api_version),
            subgroup_size: v11p.subgroup_size,
        };
        let mut v11 = vk::PhysicalDeviceVulkan11Features::default();
        let mut v12 = vk::PhysicalDeviceVulkan12Features::default();
        let mut v13 = vk::PhysicalDeviceVulkan13Features::default();
        let mut rob2 = vk::PhysicalDeviceRobustness2FeaturesEXT::default();
        let mut f2 = vk::PhysicalDeviceFeatures2::default()
            .push_next(&mut v11)
            .push_next(&mut v12)
            .push_next(&mut v13);
        let robustness2 = has_ext("VK_EXT_robustness2");
        if robustness2 {
            f2 = f2.push_next(&mut rob2);
        }
        let mut tensor = tensor_ffi::PhysicalDeviceTensorFeatures::default();
        let has_tensors = has_ext("VK_ARM_tensors");
        if has_tensors {
            // ash has no type for it: linked by hand at the head of the chain.
            tensor.p_next = f2.p_next;
            f2.p_next = (&mut tensor as *mut tensor_ffi::PhysicalDeviceTensorFeatures).cast();
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
        };
        let memory = instance.get_physical_device_memory_properties(p);
        Ok(Queried {
            report,
            features,
            subgroups,
            limits: props.limits,
            memory,
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
    let mut tensor = tensor_ffi::PhysicalDeviceTensorFeatures {
        tensors: vk::TRUE,
        shader_tensor_access: vk::TRUE,
        ..Default::default()
    };
    if f.tensors {
        tensor.p_next = info.p_next.cast_mut();
        info.p_next = (&mut tensor as *mut tensor_ffi::PhysicalDeviceTensorFeatures)
            .cast_const()
            .cast();
    }
    // SAFETY: every chained struct outlives the call; features enabled are supported.
    unsafe { instance.create_device(p, &info, None) }.map_err(VkError::call("vkCreateDevice"))
}
