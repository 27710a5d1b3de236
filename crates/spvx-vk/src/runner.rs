//! [`VkRunner`]: one device, many runs. A run is [`VkRunner::prepare`] (buffers, descriptor
//! sets, pipeline with specialisation constants, command buffer) then one
//! [`Prepared::dispatch`] of its data (upload, dispatch, read every buffer back); the prepared
//! form can also be kept and dispatched many times (crate::prepared).

use crate::device::{Device, DeviceChoice, DeviceReport};
use crate::error::{VkError, VkResult};
use crate::features::{check_capabilities, check_extensions};
use crate::prepared::{Prepared, VkInputs};
use crate::reflect::ModuleInfo;
use ash::vk;
use std::collections::BTreeMap;
use std::time::Duration;

/// Push-constant bytes the pipeline layout always provides: the Vulkan-guaranteed minimum of
/// `maxPushConstantsSize`. Bytes beyond the data given are zero, as the engine reads them.
pub const PUSH_CONSTANT_BYTES: usize = 128;

/// One buffer binding's data (a plain binding, or element 0 of an array of buffers).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BufferData {
    pub set: u32,
    pub binding: u32,
    pub bytes: Vec<u8>,
}

/// The data of element `index` of an array of buffers (a binding whose variable is an
/// `OpTypeArray` of blocks: one descriptor per element). Element 0 may be given this way or as
/// a [`BufferData`], not both.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BufferElement {
    pub set: u32,
    pub binding: u32,
    pub index: u32,
    pub bytes: Vec<u8>,
}

/// One tensor binding's data (SPV_ARM_tensors through VK_ARM_tensors).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorData {
    pub set: u32,
    pub binding: u32,
    /// The element of an array of tensors (0 for a single tensor): every element of a
    /// binding's array is its own tensor, given apart.
    pub index: u32,
    /// Dimensions, outermost first.
    pub shape: Vec<u64>,
    /// Byte strides, outermost first (None: packed).
    pub strides: Option<Vec<u64>>,
    /// The bytes; element (x0, …, xn) at Σ xi · strides[i].
    pub bytes: Vec<u8>,
}

/// A run: the module, its entry point, the dispatch and the data.
#[derive(Clone, Debug, Default)]
pub struct VkRun {
    /// The module's words (host byte order).
    pub words: Vec<u32>,
    /// The entry point (None: the only GLCompute one).
    pub entry: Option<String>,
    /// Workgroup counts.
    pub groups: [u32; 3],
    /// Data of every buffer binding.
    pub buffers: Vec<BufferData>,
    /// Data of elements of arrays of buffers (an element not given, like a binding not
    /// given, gets a zero buffer).
    pub elements: Vec<BufferElement>,
    /// Push-constant bytes.
    pub push: Option<Vec<u8>>,
    /// Specialisation constants: SpecId → bits (booleans: nonzero is true; the low bytes of the
    /// constant's width are used).
    pub spec: BTreeMap<u32, u64>,
    /// The subgroup size the pipeline must run with (VK_EXT_subgroup_size_control's
    /// `requiredSubgroupSize`; a device that cannot give it is refused with
    /// [`VkError::MissingFeature`] naming its sizes). None: the device's choice.
    pub subgroup_size: Option<u32>,
}

/// The outcome of a run: every buffer's (and tensor's) bytes after the dispatch, in the order
/// and the form the run gave them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VkOutputs {
    pub buffers: Vec<BufferData>,
    pub elements: Vec<BufferElement>,
    pub tensors: Vec<TensorData>,
    pub device: DeviceReport,
}

/// A Vulkan device ready to run modules.
pub struct VkRunner {
    pub(crate) device: Device,
    /// How long a dispatch may take before the run gives up.
    pub timeout: Duration,
}

impl VkRunner {
    /// Loads the Vulkan loader and opens the chosen device (Vulkan 1.3 or newer).
    pub fn new(choice: &DeviceChoice) -> VkResult<VkRunner> {
        Ok(VkRunner {
            device: Device::open(choice)?,
            timeout: Duration::from_secs(120),
        })
    }

    /// The device and driver.
    pub fn report(&self) -> &DeviceReport {
        &self.device.report
    }

    /// The features the device supports (all are enabled).
    pub fn features(&self) -> &crate::features::DeviceFeatures {
        &self.device.features
    }

    /// Checks that the device can run the module: its capabilities' and extensions' features.
    pub fn check(&self, info: &ModuleInfo) -> VkResult<()> {
        check_capabilities(
            &self.device.report.name,
            &info.capabilities,
            &self.device.features,
            &self.device.subgroups,
        )?;
        check_extensions(
            &self.device.report.name,
            &info.extensions,
            &self.device.features,
        )
    }

    /// Runs the module once and reads every buffer back: [`VkRunner::prepare`] and one
    /// [`Prepared::dispatch`] of the run's own data.
    pub fn run(&self, run: &VkRun) -> VkResult<VkOutputs> {
        self.run_with_tensors(run, &[])
    }

    /// Runs the module once with tensors bound too (the device needs VK_ARM_tensors) and reads
    /// every buffer and tensor back.
    pub fn run_with_tensors(&self, run: &VkRun, tensors: &[TensorData]) -> VkResult<VkOutputs> {
        let mut prepared = self.prepare_with_tensors(run, tensors)?;
        prepared.dispatch(&VkInputs::of_run(run, tensors))
    }

    /// Creates the device objects of `run` once — buffers of the sizes its data has (zero
    /// filled), descriptor sets, shader module, pipeline (with its specialisation constants and
    /// push-constant range), command buffer — for [`Prepared::dispatch`] to run any number of
    /// times with fresh input bytes. Its data is not uploaded here.
    pub fn prepare(&self, run: &VkRun) -> VkResult<Prepared<'_>> {
        self.prepare_with_tensors(run, &[])
    }

    /// [`VkRunner::prepare`] with tensors bound too (shape, strides and byte length fixed here).
    pub fn prepare_with_tensors(
        &self,
        run: &VkRun,
        tensors: &[TensorData],
    ) -> VkResult<Prepared<'_>> {
        Prepared::new(self, run, tensors)
    }

    pub(crate) fn check_limits(&self, info: &ModuleInfo, run: &VkRun) -> VkResult<()> {
        if let Some(n) = run.subgroup_size {
            let r = &self.device.report;
            let p = &r.properties;
            let can = r.features.subgroup_size_control
                && p.compute_required_subgroup_size
                && n.is_power_of_two()
                && (p.min_subgroup_size..=p.max_subgroup_size).contains(&n);
            if !can {
                return Err(VkError::MissingFeature {
                    device: r.name.clone(),
                    missing: format!(
                        "subgroup size {n} (VK_EXT_subgroup_size_control: the device's compute subgroups are {}..={}{})",
                        p.min_subgroup_size,
                        p.max_subgroup_size,
                        if r.features.subgroup_size_control && p.compute_required_subgroup_size {
                            ""
                        } else {
                            ", and it cannot require a size in compute"
                        }
                    ),
                    reason: format!("the run requires subgroup size {n}"),
                });
            }
        }
        let l = &self.device.limits;
        for (i, (&g, &max)) in run
            .groups
            .iter()
            .zip(l.max_compute_work_group_count.iter())
            .enumerate()
        {
            if g == 0 || g > max {
                return Err(VkError::Limit(format!(
                    "workgroup count {g} in dimension {i} is not in 1..={max}"
                )));
            }
        }
        if let Some(ls) = info.local_size {
            let total = ls.iter().map(|&x| u64::from(x)).product::<u64>();
            let fits = ls
                .iter()
                .zip(l.max_compute_work_group_size.iter())
                .all(|(a, b)| a <= b);
            if !fits || total > u64::from(l.max_compute_work_group_invocations) {
                return Err(VkError::Limit(format!(
                    "local size {ls:?} exceeds the device's {:?} (at most {} invocations)",
                    l.max_compute_work_group_size, l.max_compute_work_group_invocations
                )));
            }
        }
        if let Some(max_set) = info.bindings.iter().map(|b| b.set).max()
            && max_set >= l.max_bound_descriptor_sets
        {
            return Err(VkError::Limit(format!(
                "descriptor set {max_set} but the device binds at most {} sets",
                l.max_bound_descriptor_sets
            )));
        }
        Ok(())
    }

    /// The push-constant range the pipeline layout gets for `push` bytes: 0 when the module has
    /// no push constants, else [`PUSH_CONSTANT_BYTES`] or the data's length rounded up to a
    /// multiple of 4 when longer.
    pub(crate) fn push_range(&self, info: &ModuleInfo, push: Option<&[u8]>) -> VkResult<usize> {
        match (push, info.has_push_constants) {
            (Some(_), false) => Err(VkError::Limit(
                "push constants given but the module declares none".into(),
            )),
            (None, false) => Ok(0),
            (p, true) => {
                let given = p.map_or(0, <[u8]>::len);
                let len = given.max(PUSH_CONSTANT_BYTES).next_multiple_of(4);
                if len > self.device.limits.max_push_constants_size as usize {
                    return Err(VkError::Limit(format!(
                        "{given} push-constant bytes; the device allows {}",
                        self.device.limits.max_push_constants_size
                    )));
                }
                Ok(len)
            }
        }
    }
}

/// The specialisation map: entries and data, one per given constant.
pub(crate) struct SpecData {
    pub entries: Vec<vk::SpecializationMapEntry>,
    pub data: Vec<u8>,
}

pub(crate) fn spec_data(info: &ModuleInfo, spec: &BTreeMap<u32, u64>) -> VkResult<SpecData> {
    let mut out = SpecData {
        entries: Vec::new(),
        data: Vec::new(),
    };
    for (&id, &bits) in spec {
        let Some(c) = info.spec_constants.iter().find(|c| c.id == id) else {
            return Err(VkError::Spec {
                id,
                message: "the module has no constant with this SpecId".into(),
            });
        };
        let value = if c.is_bool {
            u64::from(bits != 0)
        } else {
            bits
        };
        out.entries.push(
            vk::SpecializationMapEntry::default()
                .constant_id(id)
                .offset(out.data.len() as u32)
                .size(c.bytes as usize),
        );
        out.data
            .extend_from_slice(&value.to_le_bytes()[..c.bytes.min(8) as usize]);
    }
    Ok(out)
}
