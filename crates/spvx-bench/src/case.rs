//! One benchmark: a compiled module, its dispatch and resources, the work it does, and whether
//! a device can run it.

use spvx_exec::{CompiledModule, Resources, RunConfig};
use std::collections::BTreeMap;
use std::time::Duration;

/// The work one dispatch does, for rates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// Multiply-accumulates (scalar products) per dispatch, for GMAC/s.
    pub macs: Option<u64>,
    /// Bytes read plus bytes written by the kernel per dispatch, for GB/s.
    pub bytes: Option<u64>,
}

/// Whether the device column applies to a case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeviceSupport {
    /// The device is asked to run the kernel.
    Supported,
    /// The device cannot run it (the reason is shown in the table, e.g. a missing extension).
    Unsupported(String),
}

/// Everything needed to time one kernel.
#[derive(Clone, Debug)]
pub struct BenchCase {
    /// The name shown in the table.
    pub name: String,
    /// The module compiled for the engine.
    pub module: CompiledModule,
    /// How long compiling `module` took (the engine's one-time setup), if measured.
    pub compile_time: Option<Duration>,
    /// The same module as SPIR-V words, for the device.
    pub spirv: Vec<u32>,
    /// The entry point's name.
    pub entry: String,
    /// Specialisation constants (SpecId → value bits), as compiled into `module`.
    pub spec: BTreeMap<u32, u64>,
    /// Workgroups dispatched.
    pub groups: [u32; 3],
    /// Inputs (every binding, outputs included with their initial contents).
    pub resources: Resources,
    /// The engine's run configuration (its `threads` is used for the timed runs; the reference
    /// run uses one thread).
    pub config: RunConfig,
    /// Use the device's subgroup size for the engine when a device is compared (for kernels
    /// whose results depend on it, such as subgroup scans).
    pub subgroup_size_from_device: bool,
    /// The work of one dispatch.
    pub work: Work,
    /// Whether a device may run it.
    pub device: DeviceSupport,
    /// Expected contents of bindings after the run ((set, binding), bytes), checked against the
    /// reference run; empty when the set gives none.
    pub expected: Vec<((u32, u32), Vec<u8>)>,
}

impl BenchCase {
    /// Invocations per dispatch: workgroups times the workgroup size.
    pub fn invocations(&self) -> u64 {
        // (A Kernel entry point without a required size runs at the dispatch's local size.)
        let local = self
            .resources
            .local_size
            .unwrap_or_else(|| self.module.local_size());
        self.groups
            .iter()
            .chain(local.iter())
            .map(|&n| u64::from(n))
            .product()
    }
}
