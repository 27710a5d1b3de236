//! The interface the device column is measured through, so that the runner does not depend on
//! how a device runs a module (spvx-vk implements it for Vulkan devices such as lavapipe).

use crate::case::BenchCase;
use spvx_exec::Resources;
use std::time::Duration;

/// The contents of every buffer binding after a device dispatch: ((set, binding), bytes).
pub type DeviceOutputs = Vec<((u32, u32), Vec<u8>)>;

/// A device that can run benchmark kernels.
pub trait Device {
    /// The device's name as shown in the table (e.g. "llvmpipe (LLVM 15.0.6, 256 bits)").
    fn name(&self) -> String;
    /// The device's subgroup size, if known.
    fn subgroup_size(&self) -> Option<u32>;
    /// Prepares a kernel (shader module, pipeline, buffers): not timed.
    fn prepare<'a>(&'a mut self, case: &BenchCase) -> Result<Box<dyn DeviceKernel + 'a>, String>;
}

/// A kernel prepared on a device.
pub trait DeviceKernel {
    /// One timed dispatch: upload `inputs`, dispatch, wait, read every buffer back.
    fn dispatch(&mut self, inputs: &Resources) -> Result<DeviceOutputs, String>;

    /// The part of a dispatch's time that is not the kernel's work (e.g. pipeline creation when
    /// the device cannot keep a pipeline between dispatches), if measured.
    fn setup_time(&self) -> Option<Duration> {
        None
    }
}
