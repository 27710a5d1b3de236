//! [`VkRunner`]: one device, many runs. A run creates the buffers, descriptor sets, pipeline
//! (with specialisation constants) and command buffer, dispatches once, reads every buffer back
//! and destroys what it created.

use crate::device::{Device, DeviceChoice, DeviceReport};
use crate::error::{VkError, VkResult};
use crate::features::check_capabilities;
use crate::objects::RunObjects;
use crate::reflect::{DescriptorKind, ModuleInfo};
use ash::vk;
use std::collections::BTreeMap;
use std::time::Duration;

/// Push-constant bytes the pipeline layout always provides: the Vulkan-guaranteed minimum of
/// `maxPushConstantsSize`. Bytes beyond the data given are zero, as the engine reads them.
pub const PUSH_CONSTANT_BYTES: usize = 128;

/// Bytes of a buffer spvx-vk binds for a descriptor the module declares but the run does not
/// give (the engine found the entry point does not use it; the pipeline layout still needs it).
const DUMMY_BUFFER_BYTES: usize = 256;

/// One buffer binding's data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BufferData {
    pub set: u32,
    pub binding: u32,
    pub bytes: Vec<u8>,
}

/// One tensor binding's data (SPV_ARM_tensors through VK_ARM_tensors).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorData {
    pub set: u32,
    pub binding: u32,
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
    /// Push-constant bytes.
    pub push: Option<Vec<u8>>,
    /// Specialisation constants: SpecId → bits (booleans: nonzero is true; the low bytes of the
    /// constant's width are used).
    pub spec: BTreeMap<u32, u64>,
}

/// The outcome of a run: every buffer's (and tensor's) bytes after the dispatch, in the order
/// given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VkOutputs {
    pub buffers: Vec<BufferData>,
    pub tensors: Vec<TensorData>,
    pub device: DeviceReport,
}

/// A Vulkan device ready to run modules.
pub struct VkRunner {
    device: Device,
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

    /// Checks that the device can run the module: its capabilities' features.
    pub fn check(&self, info: &ModuleInfo) -> VkResult<()> {
        check_capabilities(
            &self.device.report.name,
            &info.capabilities,
            &self.device.features,
            &self.device.subgroups,
        )
    }

    /// Runs the module once and reads every buffer back.
    pub fn run(&self, run: &VkRun) -> VkResult<VkOutputs> {
        self.run_with_tensors(run, &[])
    }

    /// Runs the module once with tensors bound too (the device needs VK_ARM_tensors) and reads
    /// every buffer and tensor back.
    pub fn run_with_tensors(&self, run: &VkRun, tensors: &[TensorData]) -> VkResult<VkOutputs> {
        let info = ModuleInfo::read(&run.words, run.entry.as_deref())?;
        self.check(&info)?;
        self.check_limits(&info, run)?;
        let d = &self.device;
        let mut objs = RunObjects::new(&d.device, d.tensor_fns);
        let result = self.record_and_submit(&info, run, tensors, &mut objs);
        if let Err(VkError::Timeout(_)) = result {
            objs.leak();
        }
        result?;
        let buffers = run
            .buffers
            .iter()
            .map(|b| {
                let bytes = objs.read_back(b.set, b.binding, b.bytes.len())?;
                Ok(BufferData {
                    set: b.set,
                    binding: b.binding,
                    bytes,
                })
            })
            .collect::<VkResult<Vec<_>>>()?;
        let tensors = tensors
            .iter()
            .map(|t| {
                Ok(TensorData {
                    bytes: objs.read_tensor(t.set, t.binding)?,
                    ..t.clone()
                })
            })
            .collect::<VkResult<Vec<_>>>()?;
        Ok(VkOutputs {
            buffers,
            tensors,
            device: d.report.clone(),
        })
    }

    fn check_limits(&self, info: &ModuleInfo, run: &VkRun) -> VkResult<()> {
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

    fn record_and_submit(
        &self,
        info: &ModuleInfo,
        run: &VkRun,
        tensors: &[TensorData],
        objs: &mut RunObjects,
    ) -> VkResult<()> {
        let d = &self.device;
        // Buffers: the given ones, then a zero dummy for every declared, ungiven one.
        let mut given: BTreeMap<(u32, u32), &[u8]> = BTreeMap::new();
        for b in &run.buffers {
            let Some(decl) = info.binding(b.set, b.binding) else {
                return Err(VkError::Binding {
                    set: b.set,
                    binding: b.binding,
                    message: "the module declares no buffer there".into(),
                });
            };
            if decl.kind == DescriptorKind::Tensor {
                return Err(VkError::Binding {
                    set: b.set,
                    binding: b.binding,
                    message: "a tensor binding; spvx-vk binds tensors through VK_ARM_tensors, not as buffers".into(),
                });
            }
            if given.insert((b.set, b.binding), &b.bytes).is_some() {
                return Err(VkError::Binding {
                    set: b.set,
                    binding: b.binding,
                    message: "given twice".into(),
                });
            }
        }
        let dummy = vec![0u8; DUMMY_BUFFER_BYTES];
        for t in tensors {
            let ty = info
                .binding(t.set, t.binding)
                .filter(|b| b.kind == DescriptorKind::Tensor)
                .and_then(|b| b.tensor)
                .ok_or_else(|| VkError::Binding {
                    set: t.set,
                    binding: t.binding,
                    message: "the module declares no tensor of a supported element type there"
                        .into(),
                })?;
            let bad = |message: String| VkError::Binding {
                set: t.set,
                binding: t.binding,
                message,
            };
            if t.shape.len() != ty.rank as usize {
                return Err(bad(format!(
                    "{} dimensions given for a tensor of rank {}",
                    t.shape.len(),
                    ty.rank
                )));
            }
            let to_i64 = |v: &[u64]| -> VkResult<Vec<i64>> {
                v.iter()
                    .map(|&x| i64::try_from(x).map_err(|_| bad(format!("{x} is too large"))))
                    .collect()
            };
            let shape = to_i64(&t.shape)?;
            let strides = t.strides.as_deref().map(to_i64).transpose()?;
            objs.create_tensor(
                &d.memory,
                t.set,
                t.binding,
                ty.format,
                &shape,
                strides.as_deref(),
                &t.bytes,
            )?;
        }
        for decl in &info.bindings {
            if decl.kind == DescriptorKind::Tensor {
                if !tensors
                    .iter()
                    .any(|t| (t.set, t.binding) == (decl.set, decl.binding))
                {
                    return Err(VkError::Binding {
                        set: decl.set,
                        binding: decl.binding,
                        message: "a tensor binding without data".into(),
                    });
                }
                continue;
            }
            let bytes = given
                .get(&(decl.set, decl.binding))
                .copied()
                .unwrap_or(&dummy);
            if decl.kind == DescriptorKind::UniformBuffer
                && bytes.len() as u64 > u64::from(d.limits.max_uniform_buffer_range)
            {
                return Err(VkError::Limit(format!(
                    "uniform buffer {}.{} of {} bytes; the device allows {}",
                    decl.set,
                    decl.binding,
                    bytes.len(),
                    d.limits.max_uniform_buffer_range
                )));
            }
            objs.create_buffer(
                &d.memory,
                decl.set,
                decl.binding,
                decl.kind == DescriptorKind::UniformBuffer,
                bytes,
            )?;
        }
        let push = self.push_bytes(info, run)?;
        let spec = spec_data(info, &run.spec)?;
        objs.create_descriptors(&info.bindings)?;
        objs.create_pipeline(&run.words, &info.entry, push.len() as u32, &spec)?;
        objs.dispatch(d.queue, d.queue_family, run.groups, &push, self.timeout)
    }

    /// The push-constant bytes, zero-padded to [`PUSH_CONSTANT_BYTES`] (or to a multiple of 4
    /// when longer); empty when the module has no push constants.
    fn push_bytes(&self, info: &ModuleInfo, run: &VkRun) -> VkResult<Vec<u8>> {
        match (&run.push, info.has_push_constants) {
            (Some(_), false) => Err(VkError::Limit(
                "push constants given but the module declares none".into(),
            )),
            (None, false) => Ok(Vec::new()),
            (p, true) => {
                let mut bytes = p.clone().unwrap_or_default();
                let len = bytes.len().max(PUSH_CONSTANT_BYTES).next_multiple_of(4);
                if len > self.device.limits.max_push_constants_size as usize {
                    return Err(VkError::Limit(format!(
                        "{} push-constant bytes; the device allows {}",
                        bytes.len(),
                        self.device.limits.max_push_constants_size
                    )));
                }
                bytes.resize(len, 0);
                Ok(bytes)
            }
        }
    }
}

/// The specialisation map: entries and data, one per given constant.
pub(crate) struct SpecData {
    pub entries: Vec<vk::SpecializationMapEntry>,
    pub data: Vec<u8>,
}

fn spec_data(info: &ModuleInfo, spec: &BTreeMap<u32, u64>) -> VkResult<SpecData> {
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
