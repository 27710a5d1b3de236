//! `spvx-vk`: runs SPIR-V compute modules on real Vulkan drivers (lavapipe, GPUs) so that the
//! results of spvx-exec can be compared with an independent implementation (the comparison
//! itself is spvx-run's `compare`).
//!
//! The Vulkan loader is loaded at run time (`ash::Entry::load`): spvx builds and runs where
//! no Vulkan is installed, and [`VkRunner::new`] says so when asked for a device. This crate
//! knows Vulkan and the module's interface (read with spvx-spirv); it knows nothing of the
//! engine (it must not depend on spvx-exec).
//!
//! - [`device`]: device choice (`vulkan`, `vulkan:NAME`, `vulkan#INDEX`), instance and device,
//!   [`DeviceReport`] (features and properties), [`device::list`] (`spvx devices`).
//! - [`reflect`]: entry point, descriptor bindings, specialisation constants, capabilities.
//! - [`features`]: capabilities → Vulkan features, checked before a run.
//! - [`runner`]: [`VkRunner::run`] on a [`VkRun`]; [`VkRunner::prepare`] for many dispatches.
//! - [`prepared`]: [`Prepared`] (device objects created once) and [`Prepared::dispatch`].

pub mod device;
pub mod error;
mod ext_ffi;
pub mod features;
mod objects;
pub mod prepared;
pub mod reflect;
pub mod runner;
mod tensor_ffi;

pub use device::{DeviceChoice, DeviceProperties, DeviceReport, Listed};
pub use error::{VkError, VkResult};
pub use prepared::{BufferInput, Prepared, VkInputs};
pub use reflect::ModuleInfo;
pub use runner::{BufferData, BufferElement, TensorData, VkOutputs, VkRun, VkRunner};
