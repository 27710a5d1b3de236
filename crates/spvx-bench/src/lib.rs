//! `spvx-bench`: the benchmark runner behind `spvx bench`.
//!
//! For each kernel of a benchmark set it runs the engine and, when one is given, a Vulkan device
//! (lavapipe) alternately — warm-up rounds, then timed rounds — and reports the median time of
//! each per dispatch, their ratio, invocations/s and GMAC/s or GB/s. Every run's outputs are
//! checked bit for bit against a single-threaded engine reference run (spvx-run's `compare`), and
//! the device's outputs against the same reference. It reads each kernel's run file through
//! spvx-run ([`load::load_case`]); it knows nothing of command lines.
//!
//! - [`case`]: what one benchmark is (module, dispatch, resources, work done).
//! - [`manifest`]: the benchmark set file (`bench/set.toml`).
//! - [`load`]: a kernel's run file → [`BenchCase`] (through spvx-run).
//! - [`device`]: the interface a device column is measured through.
//! - [`runner`]: timing and checking of one case.
//! - [`stats`]: medians and rates.
//! - [`table`]: rows and the markdown table.
//! - [`vulkan`]: the device column through spvx-vk.

pub mod case;
pub mod device;
pub mod error;
pub mod load;
pub mod manifest;
pub mod runner;
pub mod stats;
pub mod table;
pub mod vulkan;

pub use case::{BenchCase, DeviceSupport, Work};
pub use device::{Device, DeviceKernel, DeviceOutputs};
pub use error::BenchError;
pub use load::load_case;
pub use manifest::{Manifest, ManifestEntry};
pub use runner::{BenchOptions, SHORT_KERNEL, SHORT_KERNEL_ROUNDS, run_case};
pub use table::{Check, DeviceResult, Row, Table};
pub use vulkan::VulkanDevice;
