//! The interface the device column is measured through, so that the runner does not depend on
//! how a device runs a module (spvx-vk implements it for Vulkan devices such as lavapipe).

use crate::case::BenchCase;
use spvx_exec::Resources;
use std::time::Duration;

/// The contents of every buffer after a device dispatch: ((set, binding, element), bytes);
/// element is 0 for a plain binding, the index in an array of buffers otherwise.
pub type DeviceOutputs = Vec<((u32, u32, u32), Vec<u8>)>;

/// A device that can run benchmark kernels.
pub trait Device {
    /// The device's name as shown in the table (e.g. "llvmpipe (LLVM 15.0.6, 256 bits)").
    fn name(&self) -> String;
    /// The device's subgroup size, if known.
    fn subgroup_size(&self) -> Option<u32>;
    /// Prepares a kernel (shader module, pipeline, buffers), once; its duration is reported
    /// separately ([`DeviceKernel::setup_time`]), not in the dispatch times.
    fn prepare<'a>(&'a mut self, case: &BenchCase) -> Result<Box<dyn DeviceKernel + 'a>, String>;
}

/// A kernel prepared on a device.
pub trait DeviceKernel {
    /// One timed dispatch of the prepared kernel: upload `inputs`, dispatch, wait, read every
    /// buffer back.
    fn dispatch(&mut self, inputs: &Resources) -> Result<DeviceOutputs, String>;

    /// How long preparing the kernel took (one-time setup: buffers, pipeline creation), if
    /// measured.
    fn setup_time(&self) -> Option<Duration> {
        None
    }
}
