//! The device column through spvx-vk (lavapipe or another Vulkan device).
//!
//! spvx-vk's [`VkRunner::run`] creates the buffers, descriptor sets and pipeline, dispatches,
//! reads back and destroys everything, every time: it has no "prepare once, dispatch many"
//! form. So a timed device dispatch here includes pipeline creation (lavapipe's LLVM JIT) and
//! buffer creation. To show what that costs, [`DeviceKernel::setup_time`] is measured on the
//! same module and inputs with a single workgroup; the table gives the ratio both with the
//! whole device time and with that setup time subtracted.

use crate::case::BenchCase;
use crate::device::{Device, DeviceKernel, DeviceOutputs};
use crate::stats::median;
use spvx_exec::Resources;
use spvx_vk::{BufferData, DeviceChoice, VkRun, VkRunner};
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

impl Device for VulkanDevice {
    fn name(&self) -> String {
        self.runner.report().to_string()
    }

    fn subgroup_size(&self) -> Option<u32> {
        Some(self.runner.report().subgroup_size)
    }

    fn prepare<'a>(&'a mut self, case: &BenchCase) -> Result<Box<dyn DeviceKernel + 'a>, String> {
        let mut kernel = VulkanKernel {
            runner: &self.runner,
            words: case.spirv.clone(),
            entry: case.entry.clone(),
            groups: case.groups,
            spec: case.spec.clone(),
            setup: None,
        };
        // The cost of a run apart from the dispatch: the same run with one workgroup.
        let mut samples = Vec::new();
        for _ in 0..3 {
            let start = Instant::now();
            kernel.run(&case.resources, [1, 1, 1])?;
            samples.push(start.elapsed());
        }
        kernel.setup = median(&samples);
        Ok(Box::new(kernel))
    }
}

/// One kernel on a Vulkan device.
struct VulkanKernel<'a> {
    runner: &'a VkRunner,
    words: Vec<u32>,
    entry: String,
    groups: [u32; 3],
    spec: std::collections::BTreeMap<u32, u64>,
    setup: Option<Duration>,
}

impl VulkanKernel<'_> {
    fn run(&self, inputs: &Resources, groups: [u32; 3]) -> Result<DeviceOutputs, String> {
        let run = VkRun {
            words: self.words.clone(),
            entry: Some(self.entry.clone()),
            groups,
            buffers: inputs
                .buffers()
                .map(|((set, binding), bytes)| BufferData {
                    set,
                    binding,
                    bytes: bytes.to_vec(),
                })
                .collect(),
            elements: Vec::new(),
            push: (!inputs.push_constants.is_empty()).then(|| inputs.push_constants.clone()),
            spec: self.spec.clone(),
        };
        let out = self.runner.run(&run).map_err(|e| format!("{e}"))?;
        Ok(out
            .buffers
            .into_iter()
            .map(|b| ((b.set, b.binding), b.bytes))
            .collect())
    }
}

impl DeviceKernel for VulkanKernel<'_> {
    fn dispatch(&mut self, inputs: &Resources) -> Result<DeviceOutputs, String> {
        self.run(inputs, self.groups)
    }

    fn setup_time(&self) -> Option<Duration> {
        self.setup
    }
}
