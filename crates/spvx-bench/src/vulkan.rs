//! The device column through spvx-vk (lavapipe or another Vulkan device).
//!
//! [`VulkanDevice::prepare`] creates the kernel's device objects once with
//! [`VkRunner::prepare`] — buffers of the case's sizes, descriptor sets, shader module and
//! pipeline, command buffer, and an empty dispatch in which lavapipe compiles the shader with
//! LLVM (it compiles lazily, at the first dispatch) — and times
//! that directly: the one-time setup, [`DeviceKernel::setup_time`]. Each timed dispatch is then
//! [`spvx_vk::Prepared::dispatch`]: the inputs copied into the mapped buffers, the dispatch
//! submitted and waited for, every buffer copied back out — the same work the engine's timed
//! `CompiledModule::run` does (inputs in, every workgroup, outputs out).

use crate::case::BenchCase;
use crate::device::{Device, DeviceKernel, DeviceOutputs};
use spvx_exec::Resources;
use spvx_vk::{
    BufferData, BufferElement, BufferInput, DeviceChoice, Prepared, VkInputs, VkRun, VkRunner,
};
use std::time::{Duration, Instant};

/// A Vulkan device opened through spvx-vk.
pub struct VulkanDevice {
    runner: VkRunner,
}

impl VulkanDevice {
    /// Opens `vulkan` (the first device) or `vulkan:NAME`.
    pub fn open(choice: &str) -> Result<VulkanDevice, String> {
        let choice: DeviceChoice = choice.parse().map_err(|e| format!("{e}"))?;
        let runner = VkRunner::new(&choice).map_err(|e| format!("{e}"))?;
        Ok(VulkanDevice { runner })
    }
}

/// The case as a spvx-vk run: element 0 of every binding as a buffer, further elements of
/// arrays of buffers as elements, the push constants.
fn vk_run(case: &BenchCase) -> VkRun {
    let mut run = VkRun {
        words: case.spirv.clone(),
        entry: Some(case.entry.clone()),
        groups: case.groups,
        buffers: Vec::new(),
        elements: Vec::new(),
        push: (!case.resources.push_constants.is_empty())
            .then(|| case.resources.push_constants.clone()),
        spec: case.spec.clone(),
        subgroup_size: None,
    };
    for ((set, binding, index), bytes) in case.resources.buffer_elements() {
        if index == 0 {
            run.buffers.push(BufferData {
                set,
                binding,
                bytes: bytes.to_vec(),
            });
        } else {
            run.elements.push(BufferElement {
                set,
                binding,
                index,
                bytes: bytes.to_vec(),
            });
        }
    }
    run
}

impl Device for VulkanDevice {
    fn name(&self) -> String {
        self.runner.report().to_string()
    }

    fn subgroup_size(&self) -> Option<u32> {
        Some(self.runner.report().subgroup_size)
    }

    fn prepare<'a>(&'a mut self, case: &BenchCase) -> Result<Box<dyn DeviceKernel + 'a>, String> {
        let run = vk_run(case);
        let start = Instant::now();
        let prepared = self.runner.prepare(&run).map_err(|e| format!("{e}"))?;
        let setup = start.elapsed();
        Ok(Box::new(VulkanKernel { prepared, setup }))
    }
}

/// One kernel prepared on a Vulkan device.
struct VulkanKernel<'a> {
    prepared: Prepared<'a>,
    /// How long [`VkRunner::prepare`] took.
    setup: Duration,
}

impl DeviceKernel for VulkanKernel<'_> {
    fn dispatch(&mut self, inputs: &Resources) -> Result<DeviceOutputs, String> {
        let vk_inputs = VkInputs {
            buffers: inputs
                .buffer_elements()
                .map(|((set, binding, index), bytes)| BufferInput {
                    set,
                    binding,
                    index,
                    bytes,
                })
                .collect(),
            tensors: Vec::new(),
            push: (!inputs.push_constants.is_empty()).then_some(inputs.push_constants.as_slice()),
        };
        let out = self
            .prepared
            .dispatch(&vk_inputs)
            .map_err(|e| format!("{e}"))?;
        let plain = out
            .buffers
            .into_iter()
            .map(|b| ((b.set, b.binding, 0), b.bytes));
        let elements = out
            .elements
            .into_iter()
            .map(|e| ((e.set, e.binding, e.index), e.bytes));
        Ok(plain.chain(elements).collect())
    }

    fn setup_time(&self) -> Option<Duration> {
        Some(self.setup)
    }
}
