//! The Vulkan objects of one prepared run (buffers and their memory, descriptor sets, pipeline,
//! command pool and buffer, fence), created step by step once, then filled with fresh input bytes,
//! dispatched and read back any number of times; destroyed together when the prepared run is
//! dropped, also after an error. After a timeout they are leaked instead: the device may still be
//! using them.

use crate::error::{VkError, VkResult};
use crate::reflect::{DescriptorBinding, DescriptorKind};
use crate::runner::SpecData;
use crate::tensor_ffi;
use ash::vk;
use std::collections::BTreeMap;
use std::ffi::CString;
use std::time::Duration;

/// A buffer's place: (set, binding, element of an array of buffers; 0 for a plain binding).
pub(crate) type BufferKey = (u32, u32, u32);

/// One buffer with host-visible, coherent memory, mapped for the run's lifetime.
struct HostBuffer {
    buffer: vk::Buffer,
    memory: vk::DeviceMemory,
    ptr: *mut u8,
    /// The descriptor's range: the data's length, at least 1.
    len: usize,
    /// The data's length (what a dispatch writes and reads back; may be 0).
    data_len: usize,
    uniform: bool,
}

/// One tensor (linear tiling) with host-visible memory and its view.
struct HostTensor {
    tensor: tensor_ffi::Handle,
    view: tensor_ffi::Handle,
    memory: vk::DeviceMemory,
    ptr: *mut u8,
    len: usize,
}

/// Everything one run created.
pub(crate) struct RunObjects<'d> {
    device: &'d ash::Device,
    tensor_fns: Option<tensor_ffi::TensorFns>,
    tensors: BTreeMap<(u32, u32, u32), HostTensor>,
    buffers: BTreeMap<BufferKey, HostBuffer>,
    set_layouts: Vec<vk::DescriptorSetLayout>,
    pool: vk::DescriptorPool,
    sets: Vec<vk::DescriptorSet>,
    pipeline_layout: vk::PipelineLayout,
    shader: vk::ShaderModule,
    pipeline: vk::Pipeline,
    command_pool: vk::CommandPool,
    command_buffer: vk::CommandBuffer,
    fence: vk::Fence,
    /// The fence is signalled by an earlier dispatch and must be reset before the next.
    fence_signalled: bool,
    leak: bool,
}

impl<'d> RunObjects<'d> {
    pub fn new(
        device: &'d ash::Device,
        tensor_fns: Option<tensor_ffi::TensorFns>,
    ) -> RunObjects<'d> {
        RunObjects {
            device,
            tensor_fns,
            tensors: BTreeMap::new(),
            buffers: BTreeMap::new(),
            set_layouts: Vec::new(),
            pool: vk::DescriptorPool::null(),
            sets: Vec::new(),
            pipeline_layout: vk::PipelineLayout::null(),
            shader: vk::ShaderModule::null(),
            pipeline: vk::Pipeline::null(),
            command_pool: vk::CommandPool::null(),
            command_buffer: vk::CommandBuffer::null(),
            fence: vk::Fence::null(),
            fence_signalled: false,
            leak: false,
        }
    }

    /// Creates a zero-filled buffer at `key` for `data_len` bytes of data.
    pub fn create_buffer(
        &mut self,
        memory: &vk::PhysicalDeviceMemoryProperties,
        key: BufferKey,
        uniform: bool,
        data_len: usize,
    ) -> VkResult<()> {
        let len = data_len.max(1);
        let size = len.next_multiple_of(4) as u64;
        let usage = if uniform {
            vk::BufferUsageFlags::UNIFORM_BUFFER
        } else {
            vk::BufferUsageFlags::STORAGE_BUFFER
        };
        let info = vk::BufferCreateInfo::default()
            .size(size)
            .usage(usage)
            .sharing_mode(vk::SharingMode::EXCLUSIVE);
        let dev = self.device;
        // SAFETY: valid create info; the buffer is stored before anything else can fail, so
        // Drop destroys it.
        let buffer =
            unsafe { dev.create_buffer(&info, None) }.map_err(VkError::call("vkCreateBuffer"))?;
        let mut hb = HostBuffer {
            buffer,
            memory: vk::DeviceMemory::null(),
            ptr: std::ptr::null_mut(),
            len,
            data_len,
            uniform,
        };
        // SAFETY: valid buffer.
        let req = unsafe { dev.get_buffer_memory_requirements(buffer) };
        let wanted = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
        let Some(type_index) = (0..memory.memory_type_count).find(|&i| {
            req.memory_type_bits & (1 << i) != 0
                && memory.memory_types[i as usize]
                    .property_flags
                    .contains(wanted)
        }) else {
            self.buffers.insert(key, hb);
            return Err(VkError::MissingFeature {
                device: "this device".into(),
                missing: "host-visible coherent memory for buffers".into(),
                reason: "spvx-vk copies data through mapped memory".into(),
            });
        };
        let alloc = vk::MemoryAllocateInfo::default()
            .allocation_size(req.size)
            .memory_type_index(type_index);
        // SAFETY: valid allocation info; the memory is recorded in hb and freed in Drop.
        let result = unsafe { dev.allocate_memory(&alloc, None) };
        hb.memory = match result {
            Ok(m) => m,
            Err(e) => {
                self.buffers.insert(key, hb);
                return Err(VkError::call("vkAllocateMemory")(e));
            }
        };
        // SAFETY: memory and buffer are fresh and compatible (type from the requirements).
        let mapped = unsafe {
            dev.bind_buffer_memory(buffer, hb.memory, 0).and_then(|()| {
                dev.map_memory(hb.memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty())
            })
        };
        match mapped {
            Ok(p) => hb.ptr = p.cast(),
            Err(e) => {
                self.buffers.insert(key, hb);
                return Err(VkError::call("vkMapMemory")(e));
            }
        }
        // SAFETY: the mapping holds at least `size` bytes.
        unsafe { std::ptr::write_bytes(hb.ptr, 0, size as usize) };
        self.buffers.insert(key, hb);
        Ok(())
    }

    /// Writes a dispatch's input into the buffer at `key`: `bytes` (exactly the data length
    /// the buffer was created for), the rest of the descriptor range zero.
    pub fn write_buffer(&mut self, key: BufferKey, bytes: &[u8]) -> VkResult<()> {
        let hb = self.buffers.get(&key).ok_or(VkError::Binding {
            set: key.0,
            binding: key.1,
            message: "no buffer was created for it".into(),
        })?;
        if bytes.len() != hb.data_len {
            return Err(VkError::Binding {
                set: key.0,
                binding: key.1,
                message: format!(
                    "{} bytes given for element {}; it was prepared for {}",
                    bytes.len(),
                    key.2,
                    hb.data_len
                ),
            });
        }
        // SAFETY: the mapping holds at least hb.len ≥ bytes.len() bytes; no dispatch is
        // running (the previous one was waited for).
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), hb.ptr, bytes.len());
            std::ptr::write_bytes(hb.ptr.add(bytes.len()), 0, hb.len - bytes.len());
        }
        Ok(())
    }

    /// Fills the buffer at `key` with zeros (a buffer the run gives no data for).
    pub fn zero_buffer(&mut self, key: BufferKey) {
        if let Some(hb) = self.buffers.get(&key) {
            // SAFETY: the mapping holds at least hb.len bytes; no dispatch is running.
            unsafe { std::ptr::write_bytes(hb.ptr, 0, hb.len) };
        }
    }

    /// Creates a linear tensor for `key` (set, binding, element of an array of tensors) of
    /// `shape` (outermost first) and byte `strides` (None: packed), holding `bytes`, and its
    /// view.
    #[allow(clippy::too_many_arguments)]
    pub fn create_tensor(
        &mut self,
        memory: &vk::PhysicalDeviceMemoryProperties,
        key: (u32, u32, u32),
        format: i32,
        shape: &[i64],
        strides: Option<&[i64]>,
        data_len: usize,
    ) -> VkResult<()> {
        let (set, binding, _) = key;
        let fns = self.tensor_fns.ok_or(VkError::Binding {
            set,
            binding,
            message: "a tensor, but the device has no VK_ARM_tensors (load Arm's emulation layer: VK_LAYER_PATH, VK_INSTANCE_LAYERS=VK_LAYER_ML_Tensor_Emulation)".into(),
        })?;
        let dev = self.device.handle();
        let desc = tensor_ffi::TensorDescription {
            s_type: tensor_ffi::STRUCTURE_TYPE_TENSOR_DESCRIPTION,
            p_next: std::ptr::null(),
            tiling: tensor_ffi::TENSOR_TILING_LINEAR,
            format,
            dimension_count: shape.len() as u32,
            p_dimensions: shape.as_ptr(),
            p_strides: strides.map_or(std::ptr::null(), |s| s.as_ptr()),
            usage: tensor_ffi::TENSOR_USAGE_SHADER,
        };
        let info = tensor_ffi::TensorCreateInfo {
            s_type: tensor_ffi::STRUCTURE_TYPE_TENSOR_CREATE_INFO,
            p_next: std::ptr::null(),
            flags: 0,
            p_description: &desc,
            sharing_mode: vk::SharingMode::EXCLUSIVE.as_raw(),
            queue_family_index_count: 0,
            p_queue_family_indices: std::ptr::null(),
        };
        let mut tensor: tensor_ffi::Handle = 0;
        // SAFETY: valid create info pointing at live locals.
        let r = unsafe { (fns.create_tensor)(dev, &info, std::ptr::null(), &mut tensor) };
        if r != vk::Result::SUCCESS {
            return Err(VkError::call("vkCreateTensorARM")(r));
        }
        let mut ht = HostTensor {
            tensor,
            view: 0,
            memory: vk::DeviceMemory::null(),
            ptr: std::ptr::null_mut(),
            len: data_len,
        };
        let req_info = tensor_ffi::TensorMemoryRequirementsInfo {
            s_type: tensor_ffi::STRUCTURE_TYPE_TENSOR_MEMORY_REQUIREMENTS_INFO,
            p_next: std::ptr::null(),
            tensor,
        };
        let mut req2 = vk::MemoryRequirements2::default();
        // SAFETY: valid tensor and output struct.
        unsafe {
            (fns.get_tensor_memory_requirements)(
                dev,
                &req_info,
                (&mut req2 as *mut vk::MemoryRequirements2).cast(),
            )
        };
        let req = req2.memory_requirements;
        let wanted = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
        let type_index = (0..memory.memory_type_count).find(|&i| {
            req.memory_type_bits & (1 << i) != 0
                && memory.memory_types[i as usize]
                    .property_flags
                    .contains(wanted)
        });
        let size = req.size.max(data_len as u64);
        let result = match type_index {
            None => Err(VkError::MissingFeature {
                device: "this device".into(),
                missing: "host-visible coherent memory for tensors".into(),
                reason: "spvx-vk copies tensor data through mapped memory".into(),
            }),
            Some(t) => {
                let alloc = vk::MemoryAllocateInfo::default()
                    .allocation_size(size)
                    .memory_type_index(t);
                // SAFETY: valid allocation info.
                unsafe { self.device.allocate_memory(&alloc, None) }
                    .map_err(VkError::call("vkAllocateMemory"))
            }
        };
        match result {
            Ok(m) => ht.memory = m,
            Err(e) => {
                self.tensors.insert(key, ht);
                return Err(e);
            }
        }
        let bind = tensor_ffi::BindTensorMemoryInfo {
            s_type: tensor_ffi::STRUCTURE_TYPE_BIND_TENSOR_MEMORY_INFO,
            p_next: std::ptr::null(),
            tensor,
            memory: ht.memory,
            memory_offset: 0,
        };
        // SAFETY: fresh tensor and memory of the required type and size.
        let r = unsafe { (fns.bind_tensor_memory)(dev, 1, &bind) };
        let mapped = if r == vk::Result::SUCCESS {
            // SAFETY: host-visible memory, not mapped yet.
            unsafe {
                self.device
                    .map_memory(ht.memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty())
            }
            .map_err(VkError::call("vkMapMemory"))
        } else {
            Err(VkError::call("vkBindTensorMemoryARM")(r))
        };
        match mapped {
            Ok(p) => ht.ptr = p.cast(),
            Err(e) => {
                self.tensors.insert(key, ht);
                return Err(e);
            }
        }
        // SAFETY: the mapping holds `size` bytes.
        unsafe { std::ptr::write_bytes(ht.ptr, 0, size as usize) };
        let view_info = tensor_ffi::TensorViewCreateInfo {
            s_type: tensor_ffi::STRUCTURE_TYPE_TENSOR_VIEW_CREATE_INFO,
            p_next: std::ptr::null(),
            flags: 0,
            tensor,
            format,
        };
        // SAFETY: valid tensor bound to memory.
        let r =
            unsafe { (fns.create_tensor_view)(dev, &view_info, std::ptr::null(), &mut ht.view) };
        self.tensors.insert(key, ht);
        if r != vk::Result::SUCCESS {
            return Err(VkError::call("vkCreateTensorViewARM")(r));
        }
        Ok(())
    }

    /// Writes a dispatch's input into a tensor: exactly the byte length it was created for.
    pub fn write_tensor(&mut self, key: (u32, u32, u32), bytes: &[u8]) -> VkResult<()> {
        let (set, binding, _) = key;
        let ht = self.tensors.get(&key).ok_or(VkError::Binding {
            set,
            binding,
            message: "no tensor was created for it".into(),
        })?;
        if bytes.len() != ht.len {
            return Err(VkError::Binding {
                set,
                binding,
                message: format!(
                    "{} tensor bytes given; it was prepared for {}",
                    bytes.len(),
                    ht.len
                ),
            });
        }
        // SAFETY: the mapping holds at least ht.len bytes; no dispatch is running.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), ht.ptr, bytes.len()) };
        Ok(())
    }

    /// Reads a tensor's bytes back.
    pub fn read_tensor(&self, key: (u32, u32, u32)) -> VkResult<Vec<u8>> {
        let (set, binding, _) = key;
        let ht = self.tensors.get(&key).ok_or(VkError::Binding {
            set,
            binding,
            message: "no tensor was created for it".into(),
        })?;
        // SAFETY: the mapping holds at least ht.len bytes; the fence wait made the writes
        // visible (coherent memory, host-read barrier recorded).
        Ok(unsafe { std::slice::from_raw_parts(ht.ptr, ht.len) }.to_vec())
    }

    /// Reads the data bytes of the buffer at `key` back.
    pub fn read_back(&self, key: BufferKey) -> VkResult<Vec<u8>> {
        let hb = self.buffers.get(&key).ok_or(VkError::Binding {
            set: key.0,
            binding: key.1,
            message: "no buffer was created for it".into(),
        })?;
        // SAFETY: the mapping holds hb.len ≥ hb.data_len bytes; the fence wait made the
        // device's writes available to the host (coherent memory, host-read barrier recorded).
        Ok(unsafe { std::slice::from_raw_parts(hb.ptr, hb.data_len) }.to_vec())
    }

    /// Creates the set layouts (sets 0..=max, empty where the module has none), the pool and
    /// the sets, and writes every descriptor: a binding that is an array of `count` buffers
    /// gets `count` descriptors, element `i` the buffer at (set, binding, i) (every element
    /// must have one).
    pub fn create_descriptors(&mut self, bindings: &[DescriptorBinding]) -> VkResult<()> {
        let dev = self.device;
        let set_count = bindings.iter().map(|b| b.set + 1).max().unwrap_or(0);
        let kind_of = |k: DescriptorKind| match k {
            DescriptorKind::UniformBuffer => vk::DescriptorType::UNIFORM_BUFFER,
            DescriptorKind::Tensor => {
                vk::DescriptorType::from_raw(tensor_ffi::DESCRIPTOR_TYPE_TENSOR)
            }
            DescriptorKind::StorageBuffer => vk::DescriptorType::STORAGE_BUFFER,
        };
        for set in 0..set_count {
            let lb: Vec<vk::DescriptorSetLayoutBinding> = bindings
                .iter()
                .filter(|b| b.set == set)
                .map(|b| {
                    vk::DescriptorSetLayoutBinding::default()
                        .binding(b.binding)
                        .descriptor_type(kind_of(b.kind))
                        .descriptor_count(b.count.max(1))
                        .stage_flags(vk::ShaderStageFlags::COMPUTE)
                })
                .collect();
            let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&lb);
            // SAFETY: valid create info.
            let l = unsafe { dev.create_descriptor_set_layout(&info, None) }
                .map_err(VkError::call("vkCreateDescriptorSetLayout"))?;
            self.set_layouts.push(l);
        }
        if set_count == 0 {
            return Ok(());
        }
        let storage = self.buffers.values().filter(|b| !b.uniform).count() as u32;
        let uniform = self.buffers.values().filter(|b| b.uniform).count() as u32;
        let mut sizes = Vec::new();
        if storage > 0 {
            sizes.push(vk::DescriptorPoolSize {
                ty: vk::DescriptorType::STORAGE_BUFFER,
                descriptor_count: storage,
            });
        }
        if uniform > 0 {
            sizes.push(vk::DescriptorPoolSize {
                ty: vk::DescriptorType::UNIFORM_BUFFER,
                descriptor_count: uniform,
            });
        }
        if !self.tensors.is_empty() {
            sizes.push(vk::DescriptorPoolSize {
                ty: vk::DescriptorType::from_raw(tensor_ffi::DESCRIPTOR_TYPE_TENSOR),
                descriptor_count: self.tensors.len() as u32,
            });
        }
        let info = vk::DescriptorPoolCreateInfo::default()
            .max_sets(set_count)
            .pool_sizes(&sizes);
        // SAFETY: valid create info.
        self.pool = unsafe { dev.create_descriptor_pool(&info, None) }
            .map_err(VkError::call("vkCreateDescriptorPool"))?;
        let alloc = vk::DescriptorSetAllocateInfo::default()
            .descriptor_pool(self.pool)
            .set_layouts(&self.set_layouts);
        // SAFETY: the pool has room for one set per layout.
        self.sets = unsafe { dev.allocate_descriptor_sets(&alloc) }
            .map_err(VkError::call("vkAllocateDescriptorSets"))?;
        // One write per buffer binding, with one buffer info per array element.
        let mut infos: Vec<(u32, u32, bool, Vec<vk::DescriptorBufferInfo>)> = Vec::new();
        for b in bindings.iter().filter(|b| b.kind != DescriptorKind::Tensor) {
            let mut elements = Vec::new();
            for i in 0..b.count.max(1) {
                let hb = self
                    .buffers
                    .get(&(b.set, b.binding, i))
                    .ok_or(VkError::Binding {
                        set: b.set,
                        binding: b.binding,
                        message: format!("no buffer was created for element {i}"),
                    })?;
                elements.push(vk::DescriptorBufferInfo {
                    buffer: hb.buffer,
                    offset: 0,
                    range: hb.len as u64,
                });
            }
            infos.push((
                b.set,
                b.binding,
                b.kind == DescriptorKind::UniformBuffer,
                elements,
            ));
        }
        // One write per tensor binding, its views in element order (the map's key order).
        let mut views: Vec<(u32, u32, Vec<tensor_ffi::Handle>)> = Vec::new();
        for (&(set, binding, _), t) in &self.tensors {
            match views.last_mut() {
                Some((s, b, v)) if (*s, *b) == (set, binding) => v.push(t.view),
                _ => views.push((set, binding, vec![t.view])),
            }
        }
        let tensor_writes: Vec<tensor_ffi::WriteDescriptorSetTensor> = views
            .iter()
            .map(|(_, _, v)| tensor_ffi::WriteDescriptorSetTensor {
                s_type: tensor_ffi::STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_TENSOR,
                p_next: std::ptr::null(),
                tensor_view_count: v.len() as u32,
                p_tensor_views: v.as_ptr(),
            })
            .collect();
        let mut writes: Vec<vk::WriteDescriptorSet> = infos
            .iter()
            .map(|(set, binding, uniform, info)| {
                vk::WriteDescriptorSet::default()
                    .dst_set(self.sets[*set as usize])
                    .dst_binding(*binding)
                    .dst_array_element(0)
                    .descriptor_type(if *uniform {
                        vk::DescriptorType::UNIFORM_BUFFER
                    } else {
                        vk::DescriptorType::STORAGE_BUFFER
                    })
                    .buffer_info(info)
            })
            .collect();
        for ((set, binding, v), tw) in views.iter().zip(&tensor_writes) {
            let mut w = vk::WriteDescriptorSet::default()
                .dst_set(self.sets[*set as usize])
                .dst_binding(*binding)
                .descriptor_type(vk::DescriptorType::from_raw(
                    tensor_ffi::DESCRIPTOR_TYPE_TENSOR,
                ));
            w.descriptor_count = v.len() as u32;
            w.p_next = (tw as *const tensor_ffi::WriteDescriptorSetTensor).cast();
            writes.push(w);
        }
        // SAFETY: every write names a live set, binding and buffer(s).
        unsafe { dev.update_descriptor_sets(&writes, &[]) };
        Ok(())
    }

    /// Creates the shader module, the pipeline layout and the compute pipeline.
    pub fn create_pipeline(
        &mut self,
        words: &[u32],
        entry: &str,
        push_bytes: u32,
        spec: &SpecData,
        subgroup_size: Option<u32>,
    ) -> VkResult<()> {
        let dev = self.device;
        let ranges = [vk::PushConstantRange {
            stage_flags: vk::ShaderStageFlags::COMPUTE,
            offset: 0,
            size: push_bytes,
        }];
        let info = vk::PipelineLayoutCreateInfo::default()
            .set_layouts(&self.set_layouts)
            .push_constant_ranges(if push_bytes > 0 { &ranges } else { &[] });
        // SAFETY: valid create info.
        self.pipeline_layout = unsafe { dev.create_pipeline_layout(&info, None) }
            .map_err(VkError::call("vkCreatePipelineLayout"))?;
        let info = vk::ShaderModuleCreateInfo::default().code(words);
        // SAFETY: the words are a SPIR-V module the reflection read without error.
        self.shader = unsafe { dev.create_shader_module(&info, None) }
            .map_err(VkError::call("vkCreateShaderModule"))?;
        let name = CString::new(entry).map_err(|_| {
            VkError::Entry(entry.into(), "the name contains a NUL character".into())
        })?;
        let spec_info = vk::SpecializationInfo::default()
            .map_entries(&spec.entries)
            .data(&spec.data);
        let mut required = vk::PipelineShaderStageRequiredSubgroupSizeCreateInfo::default()
            .required_subgroup_size(subgroup_size.unwrap_or(0));
        let mut stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(self.shader)
            .name(&name)
            .specialization_info(&spec_info);
        if subgroup_size.is_some() {
            stage = stage.push_next(&mut required);
        }
        let info = [vk::ComputePipelineCreateInfo::default()
            .stage(stage)
            .layout(self.pipeline_layout)];
        // SAFETY: valid create info; everything it points at lives until the call returns.
        let pipelines =
            unsafe { dev.create_compute_pipelines(vk::PipelineCache::null(), &info, None) }
                .map_err(|(_, e)| VkError::call("vkCreateComputePipelines")(e))?;
        self.pipeline = pipelines.first().copied().unwrap_or_default();
        Ok(())
    }

    /// Creates the command pool, its command buffer and the fence the dispatches use.
    pub fn create_commands(&mut self, queue_family: u32) -> VkResult<()> {
        let dev = self.device;
        let info = vk::CommandPoolCreateInfo::default().queue_family_index(queue_family);
        // SAFETY: valid create info.
        self.command_pool = unsafe { dev.create_command_pool(&info, None) }
            .map_err(VkError::call("vkCreateCommandPool"))?;
        let alloc = vk::CommandBufferAllocateInfo::default()
            .command_pool(self.command_pool)
            .level(vk::CommandBufferLevel::PRIMARY)
            .command_buffer_count(1);
        // SAFETY: valid pool.
        let cbs = unsafe { dev.allocate_command_buffers(&alloc) }
            .map_err(VkError::call("vkAllocateCommandBuffers"))?;
        self.command_buffer = cbs.first().copied().unwrap_or_default();
        // SAFETY: valid create info.
        self.fence = unsafe { dev.create_fence(&vk::FenceCreateInfo::default(), None) }
            .map_err(VkError::call("vkCreateFence"))?;
        Ok(())
    }

    /// Records the dispatch (pipeline, sets, push constants, a shader-write → host-read
    /// barrier) into the command buffer afresh, submits it and waits for it.
    pub fn dispatch(
        &mut self,
        queue: vk::Queue,
        groups: [u32; 3],
        push: &[u8],
        timeout: Duration,
    ) -> VkResult<()> {
        let dev = self.device;
        let cb = self.command_buffer;
        // SAFETY: the previous submission (if any) was waited for, so the pool, the command
        // buffer and the fence are not in use; every recorded object is live.
        unsafe {
            if self.fence_signalled {
                dev.reset_fences(&[self.fence])
                    .map_err(VkError::call("vkResetFences"))?;
                self.fence_signalled = false;
            }
            dev.reset_command_pool(self.command_pool, vk::CommandPoolResetFlags::empty())
                .map_err(VkError::call("vkResetCommandPool"))?;
            dev.begin_command_buffer(
                cb,
                &vk::CommandBufferBeginInfo::default()
                    .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT),
            )
            .map_err(VkError::call("vkBeginCommandBuffer"))?;
            dev.cmd_bind_pipeline(cb, vk::PipelineBindPoint::COMPUTE, self.pipeline);
            if !self.sets.is_empty() {
                dev.cmd_bind_descriptor_sets(
                    cb,
                    vk::PipelineBindPoint::COMPUTE,
                    self.pipeline_layout,
                    0,
                    &self.sets,
                    &[],
                );
            }
            if !push.is_empty() {
                dev.cmd_push_constants(
                    cb,
                    self.pipeline_layout,
                    vk::ShaderStageFlags::COMPUTE,
                    0,
                    push,
                );
            }
            dev.cmd_dispatch(cb, groups[0], groups[1], groups[2]);
            let barrier = vk::MemoryBarrier::default()
                .src_access_mask(vk::AccessFlags::SHADER_WRITE)
                .dst_access_mask(vk::AccessFlags::HOST_READ);
            dev.cmd_pipeline_barrier(
                cb,
                vk::PipelineStageFlags::COMPUTE_SHADER,
                vk::PipelineStageFlags::HOST,
                vk::DependencyFlags::empty(),
                &[barrier],
                &[],
                &[],
            );
            dev.end_command_buffer(cb)
                .map_err(VkError::call("vkEndCommandBuffer"))?;
            let cbs = [cb];
            let submit = [vk::SubmitInfo::default().command_buffers(&cbs)];
            dev.queue_submit(queue, &submit, self.fence)
                .map_err(VkError::call("vkQueueSubmit"))?;
            match dev.wait_for_fences(&[self.fence], true, timeout.as_nanos() as u64) {
                Ok(()) => {
                    self.fence_signalled = true;
                    Ok(())
                }
                Err(vk::Result::TIMEOUT) => {
                    self.leak = true;
                    Err(VkError::Timeout(timeout.as_secs()))
                }
                Err(e) => {
                    self.leak = true;
                    Err(VkError::call("vkWaitForFences")(e))
                }
            }
        }
    }

    /// True after a dispatch that did not finish (its objects are leaked; no more dispatches).
    pub fn is_leaked(&self) -> bool {
        self.leak
    }
}

impl Drop for RunObjects<'_> {
    fn drop(&mut self) {
        if self.leak {
            return;
        }
        let dev = self.device;
        // SAFETY: the fence was waited for (or nothing was submitted); destroying null handles
        // is allowed.
        unsafe {
            dev.destroy_fence(self.fence, None);
            dev.destroy_command_pool(self.command_pool, None);
            dev.destroy_pipeline(self.pipeline, None);
            dev.destroy_shader_module(self.shader, None);
            dev.destroy_pipeline_layout(self.pipeline_layout, None);
            dev.destroy_descriptor_pool(self.pool, None);
            for &l in &self.set_layouts {
                dev.destroy_descriptor_set_layout(l, None);
            }
            for b in self.buffers.values() {
                dev.destroy_buffer(b.buffer, None);
                dev.free_memory(b.memory, None);
            }
            if let Some(fns) = self.tensor_fns {
                for t in self.tensors.values() {
                    if t.view != 0 {
                        (fns.destroy_tensor_view)(dev.handle(), t.view, std::ptr::null());
                    }
                    (fns.destroy_tensor)(dev.handle(), t.tensor, std::ptr::null());
                    dev.free_memory(t.memory, None);
                }
            }
        }
    }
}
