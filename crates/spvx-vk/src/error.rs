//! The errors of spvx-vk: one enum, each variant naming the place (loader, device, binding,
//! feature, Vulkan call) so that a message is useful without a backtrace.

use thiserror::Error;

/// Everything that can go wrong when running a module on a Vulkan device.
#[derive(Debug, Error)]
pub enum VkError {
    /// The Vulkan loader (`libvulkan.so.1`) could not be loaded.
    #[error(
        "no Vulkan loader: {0} (install libvulkan1 and a driver, e.g. Debian's mesa-vulkan-drivers for lavapipe)"
    )]
    NoLoader(String),
    /// A Vulkan call failed.
    #[error("Vulkan call {call} failed: {result}")]
    Call {
        call: &'static str,
        result: ash::vk::Result,
    },
    /// No physical device matched the choice.
    #[error("no Vulkan device {wanted} (devices: {available})")]
    NoDevice { wanted: String, available: String },
    /// `--device` text that is not `vulkan` or `vulkan:NAME`.
    #[error("device '{0}' is not `vulkan` or `vulkan:NAME`")]
    BadChoice(String),
    /// The device's Vulkan version is too old.
    #[error("device '{device}' supports Vulkan {found}; spvx-vk needs Vulkan 1.3")]
    OldDevice { device: String, found: String },
    /// The module could not be read.
    #[error("module: {0}")]
    Module(String),
    /// The entry point is missing or not a GLCompute entry point.
    #[error("entry point '{0}': {1}")]
    Entry(String, String),
    /// The module needs something the device does not offer.
    #[error("device '{device}' lacks {missing}, which the module needs ({reason})")]
    MissingFeature {
        device: String,
        missing: String,
        reason: String,
    },
    /// A capability spvx-vk does not know how to map to Vulkan features.
    #[error("capability {0} is not supported by spvx-vk (no known Vulkan feature for it)")]
    UnknownCapability(String),
    /// Data given for a binding the module does not declare, or of the wrong kind.
    #[error("binding {set}.{binding}: {message}")]
    Binding {
        set: u32,
        binding: u32,
        message: String,
    },
    /// A specialisation constant the module does not declare, or a bad value.
    #[error("specialisation constant {id}: {message}")]
    Spec { id: u32, message: String },
    /// A limit of the device is exceeded.
    #[error("device limit: {0}")]
    Limit(String),
    /// The dispatch did not finish in time (its resources are leaked, as the device may still
    /// use them).
    #[error("the dispatch did not finish within {0} s (an infinite loop?)")]
    Timeout(u64),
}

impl VkError {
    /// A failed Vulkan call.
    pub(crate) fn call(call: &'static str) -> impl FnOnce(ash::vk::Result) -> VkError {
        move |result| VkError::Call { call, result }
    }
}

/// Results of this crate.
pub type VkResult<T> = Result<T, VkError>;
