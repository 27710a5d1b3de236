//! [`Prepared`]: a run's device objects — buffers, descriptor sets, shader module, pipeline,
//! command buffer — created once by [`VkRunner::prepare`] (which ends with an empty 0×0×0
//! dispatch, so that a driver compiling the pipeline lazily, as lavapipe does, compiles it
//! there), then dispatched any number of times
//! with fresh input bytes ([`VkInputs`]); each dispatch uploads the inputs, dispatches, waits
//! and reads every buffer back. [`VkRunner::run`] is a prepare and one dispatch.
//!
//! The shape of the run is fixed at prepare time: which bindings and elements get data and
//! their byte lengths, tensor shapes, the push-constant range, specialisation constants and the
//! workgroup counts. A dispatch must give data for exactly the buffers (and tensors) the run
//! gave, with the same lengths; buffers the run did not give are zero at every dispatch, so a
//! dispatch computes what a fresh [`VkRunner::run`] of the same data would.

use crate::error::{VkError, VkResult};
use crate::objects::{BufferKey, RunObjects};
use crate::reflect::{DescriptorKind, ModuleInfo};
use crate::runner::{BufferData, BufferElement, TensorData, VkOutputs, VkRun, VkRunner, spec_data};
use std::collections::{BTreeMap, BTreeSet};

/// Bytes of a buffer spvx-vk binds for a descriptor the module declares but the run does not
/// give (the engine found the entry point does not use it; the pipeline layout still needs it).
const DUMMY_BUFFER_BYTES: usize = 256;

/// One buffer's (or tensor's) input bytes for a dispatch, borrowed: element `index` of the
/// binding (0 for a plain binding or a tensor).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufferInput<'a> {
    pub set: u32,
    pub binding: u32,
    pub index: u32,
    pub bytes: &'a [u8],
}

/// The inputs of one dispatch of a [`Prepared`] run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VkInputs<'a> {
    /// Every buffer (and array element) the prepared run gave data for, once each.
    pub buffers: Vec<BufferInput<'a>>,
    /// Every tensor's bytes (index: the element of an array of tensors, 0 for a single one),
    /// when the run binds tensors.
    pub tensors: Vec<BufferInput<'a>>,
    /// Push-constant bytes (zero-padded to the prepared range).
    pub push: Option<&'a [u8]>,
}

impl<'a> VkInputs<'a> {
    /// The data of `run` (and its tensors) as inputs, borrowed.
    pub fn of_run(run: &'a VkRun, tensors: &'a [TensorData]) -> VkInputs<'a> {
        let plain = run.buffers.iter().map(|b| BufferInput {
            set: b.set,
            binding: b.binding,
            index: 0,
            bytes: &b.bytes,
        });
        let elements = run.elements.iter().map(|e| BufferInput {
            set: e.set,
            binding: e.binding,
            index: e.index,
            bytes: &e.bytes,
        });
        VkInputs {
            buffers: plain.chain(elements).collect(),
            tensors: tensors
                .iter()
                .map(|t| BufferInput {
                    set: t.set,
                    binding: t.binding,
                    index: t.index,
                    bytes: &t.bytes,
                })
                .collect(),
            push: run.push.as_deref(),
        }
    }
}

/// How an output buffer is returned: as the run gave it.
#[derive(Clone, Copy, Debug)]
enum Slot {
    /// In [`VkOutputs::buffers`] (given as a [`BufferData`]).
    Plain(BufferKey),
    /// In [`VkOutputs::elements`] (given as a [`BufferElement`]).
    Element(BufferKey),
}

/// A run prepared on a device: dispatch it with [`Prepared::dispatch`].
pub struct Prepared<'r> {
    runner: &'r VkRunner,
    objs: RunObjects<'r>,
    groups: [u32; 3],
    has_push_constants: bool,
    push_range: usize,
    /// Outputs in the order the run gave them.
    slots: Vec<Slot>,
    /// The buffers every dispatch must give data for.
    given: BTreeSet<BufferKey>,
    /// Buffers the run gave no data for (zeroed at each dispatch).
    dummies: Vec<BufferKey>,
    /// The tensors (shape and strides; bytes empty), in the order given.
    tensors: Vec<TensorData>,
}

impl<'r> Prepared<'r> {
    /// Checks `run` against the module and the device and creates every device object.
    pub(crate) fn new(
        runner: &'r VkRunner,
        run: &VkRun,
        tensors: &[TensorData],
    ) -> VkResult<Prepared<'r>> {
        let info = ModuleInfo::read(&run.words, run.entry.as_deref())?;
        runner.check(&info)?;
        runner.check_limits(&info, run)?;
        check_arrays(&info)?;
        let (given, slots) = given_buffers(&info, run)?;
        let d = &runner.device;
        let mut objs = RunObjects::new(&d.device, d.tensor_fns);
        let mut tensor_keys = BTreeSet::new();
        for t in tensors {
            if !tensor_keys.insert((t.set, t.binding, t.index)) {
                return Err(VkError::Binding {
                    set: t.set,
                    binding: t.binding,
                    message: format!("tensor (element {}) given twice", t.index),
                });
            }
            create_tensor(&mut objs, runner, &info, t)?;
        }
        for decl in info.bindings.iter() {
            if decl.kind == DescriptorKind::Tensor {
                // Every element of an array of tensors is given (VK_ARM_tensors binds all of
                // a binding's descriptors), and no element past its length.
                let count = decl.count.max(1);
                if let Some(index) =
                    (0..count).find(|&i| !tensor_keys.contains(&(decl.set, decl.binding, i)))
                {
                    return Err(VkError::Binding {
                        set: decl.set,
                        binding: decl.binding,
                        message: if count == 1 {
                            "a tensor binding without data".into()
                        } else {
                            format!("element {index} of an array of {count} tensors without data")
                        },
                    });
                }
                if let Some(t) = tensors
                    .iter()
                    .find(|t| (t.set, t.binding) == (decl.set, decl.binding) && t.index >= count)
                {
                    return Err(VkError::Binding {
                        set: t.set,
                        binding: t.binding,
                        message: format!(
                            "tensor element {}, but the binding holds {count} tensor(s)",
                            t.index
                        ),
                    });
                }
                continue;
            }
            for index in 0..decl.count {
                let key = (decl.set, decl.binding, index);
                let len = given.get(&key).copied().unwrap_or(DUMMY_BUFFER_BYTES);
                let uniform = decl.kind == DescriptorKind::UniformBuffer;
                if uniform && len as u64 > u64::from(d.limits.max_uniform_buffer_range) {
                    return Err(VkError::Limit(format!(
                        "uniform buffer {}.{}[{index}] of {len} bytes; the device allows {}",
                        decl.set, decl.binding, d.limits.max_uniform_buffer_range
                    )));
                }
                objs.create_buffer(&d.memory, key, uniform, len)?;
            }
        }
        let dummies = info
            .bindings
            .iter()
            .filter(|b| b.kind != DescriptorKind::Tensor)
            .flat_map(|b| (0..b.count).map(move |i| (b.set, b.binding, i)))
            .filter(|k| !given.contains_key(k))
            .collect();
        let push_range = runner.push_range(&info, run.push.as_deref())?;
        let spec = spec_data(&info, &run.spec)?;
        objs.create_descriptors(&info.bindings)?;
        objs.create_pipeline(
            &run.words,
            &info.entry,
            push_range as u32,
            &spec,
            run.subgroup_size,
        )?;
        objs.create_commands(d.queue_family)?;
        // An empty dispatch (0×0×0 workgroups: valid, runs nothing) makes drivers that compile
        // the pipeline lazily at its first dispatch — lavapipe runs its LLVM JIT there — do it
        // now, so that the one-time cost belongs to prepare, not to the first dispatch.
        objs.dispatch(d.queue, [0, 0, 0], &vec![0; push_range], runner.timeout)?;
        Ok(Prepared {
            runner,
            objs,
            groups: run.groups,
            has_push_constants: info.has_push_constants,
            push_range,
            slots,
            given: given.into_keys().collect(),
            dummies,
            tensors: tensors
                .iter()
                .map(|t| TensorData {
                    bytes: Vec::new(),
                    ..t.clone()
                })
                .collect(),
        })
    }

    /// One dispatch: writes `inputs` into the prepared buffers (and tensors), zeroes the
    /// buffers the run gave no data for, dispatches the prepared workgroup counts, waits, and
    /// reads every buffer and tensor the run gave back, in the order and form it gave them.
    ///
    /// Errors: a buffer or tensor the prepared run did not give, given twice, missing, or of
    /// another byte length; push constants longer than the prepared range, or given to a
    /// module without any; a dispatch after one that timed out.
    pub fn dispatch(&mut self, inputs: &VkInputs<'_>) -> VkResult<VkOutputs> {
        if self.objs.is_leaked() {
            return Err(VkError::Timeout(self.runner.timeout.as_secs()));
        }
        self.write_inputs(inputs)?;
        let push = self.push_bytes(inputs.push)?;
        let d = &self.runner.device;
        self.objs
            .dispatch(d.queue, self.groups, &push, self.runner.timeout)?;
        let mut buffers = Vec::new();
        let mut elements = Vec::new();
        for slot in &self.slots {
            match *slot {
                Slot::Plain(key) => buffers.push(BufferData {
                    set: key.0,
                    binding: key.1,
                    bytes: self.objs.read_back(key)?,
                }),
                Slot::Element(key) => elements.push(BufferElement {
                    set: key.0,
                    binding: key.1,
                    index: key.2,
                    bytes: self.objs.read_back(key)?,
                }),
            }
        }
        let tensors = self
            .tensors
            .iter()
            .map(|t| {
                Ok(TensorData {
                    bytes: self.objs.read_tensor((t.set, t.binding, t.index))?,
                    ..t.clone()
                })
            })
            .collect::<VkResult<Vec<_>>>()?;
        Ok(VkOutputs {
            buffers,
            elements,
            tensors,
            device: d.report.clone(),
        })
    }

    /// The workgroup counts every dispatch uses.
    pub fn groups(&self) -> [u32; 3] {
        self.groups
    }

    fn write_inputs(&mut self, inputs: &VkInputs<'_>) -> VkResult<()> {
        let mut seen = BTreeSet::new();
        for b in &inputs.buffers {
            let key = (b.set, b.binding, b.index);
            let err = |message: String| VkError::Binding {
                set: b.set,
                binding: b.binding,
                message,
            };
            if !self.given.contains(&key) {
                return Err(err(format!(
                    "element {}: the prepared run gave no data for it",
                    b.index
                )));
            }
            if !seen.insert(key) {
                return Err(err(format!("element {} given twice", b.index)));
            }
            self.objs.write_buffer(key, b.bytes)?;
        }
        if let Some(&(set, binding, index)) = self.given.iter().find(|k| !seen.contains(k)) {
            return Err(VkError::Binding {
                set,
                binding,
                message: format!(
                    "element {index}: no data given (the prepared run has data for it)"
                ),
            });
        }
        for &key in &self.dummies {
            self.objs.zero_buffer(key);
        }
        let mut seen = BTreeSet::new();
        for t in &inputs.tensors {
            let key = (t.set, t.binding, t.index);
            if !self
                .tensors
                .iter()
                .any(|p| (p.set, p.binding, p.index) == key)
            {
                return Err(VkError::Binding {
                    set: t.set,
                    binding: t.binding,
                    message: "tensor data, but the prepared run binds no tensor there".into(),
                });
            }
            if !seen.insert(key) {
                return Err(VkError::Binding {
                    set: t.set,
                    binding: t.binding,
                    message: "tensor data given twice".into(),
                });
            }
            self.objs.write_tensor(key, t.bytes)?;
        }
        if let Some(t) = self
            .tensors
            .iter()
            .find(|t| !seen.contains(&(t.set, t.binding, t.index)))
        {
            return Err(VkError::Binding {
                set: t.set,
                binding: t.binding,
                message: "no tensor data given (the prepared run binds a tensor there)".into(),
            });
        }
        Ok(())
    }

    /// The push-constant bytes of a dispatch, zero-padded to the prepared range.
    fn push_bytes(&self, push: Option<&[u8]>) -> VkResult<Vec<u8>> {
        match (push, self.has_push_constants) {
            (Some(_), false) => Err(VkError::Limit(
                "push constants given but the module declares none".into(),
            )),
            (None, false) => Ok(Vec::new()),
            (p, true) => {
                let mut bytes = p.unwrap_or_default().to_vec();
                if bytes.len() > self.push_range {
                    return Err(VkError::Limit(format!(
                        "{} push-constant bytes; the run was prepared for at most {}",
                        bytes.len(),
                        self.push_range
                    )));
                }
                bytes.resize(self.push_range, 0);
                Ok(bytes)
            }
        }
    }
}

/// Refuses descriptor arrays spvx-vk cannot bind (runtime-sized, arrays of arrays, specialised
/// lengths).
fn check_arrays(info: &ModuleInfo) -> VkResult<()> {
    for b in &info.bindings {
        let message = match (b.kind, b.count) {
            (DescriptorKind::Tensor, 0) => {
                "an array of tensors spvx-vk cannot bind (runtime-sized, an array of arrays, or a length that is not an OpConstant)"
            }
            (_, 0) => {
                "an array of buffers spvx-vk cannot bind (runtime-sized, an array of arrays, or a length that is not an OpConstant)"
            }
            _ => continue,
        };
        return Err(VkError::Binding {
            set: b.set,
            binding: b.binding,
            message: message.into(),
        });
    }
    Ok(())
}

/// The data lengths of the buffers `run` gives, by (set, binding, element), and the output
/// slots in the order given; errors for undeclared, tensor, out-of-range or repeated ones.
fn given_buffers(
    info: &ModuleInfo,
    run: &VkRun,
) -> VkResult<(BTreeMap<BufferKey, usize>, Vec<Slot>)> {
    let mut given = BTreeMap::new();
    let mut slots = Vec::new();
    let plain = run
        .buffers
        .iter()
        .map(|b| ((b.set, b.binding, 0), b.bytes.len(), false));
    let elements = run
        .elements
        .iter()
        .map(|e| ((e.set, e.binding, e.index), e.bytes.len(), true));
    for (key, len, is_element) in plain.chain(elements) {
        let (set, binding, index) = key;
        let err = |message: String| VkError::Binding {
            set,
            binding,
            message,
        };
        let Some(decl) = info.binding(set, binding) else {
            return Err(err("the module declares no buffer there".into()));
        };
        if decl.kind == DescriptorKind::Tensor {
            return Err(err(
                "a tensor binding; spvx-vk binds tensors through VK_ARM_tensors, not as buffers"
                    .into(),
            ));
        }
        if index >= decl.count {
            return Err(err(if decl.count == 1 {
                format!("element {index}, but the binding is not an array of buffers")
            } else {
                format!("element {index} of an array of {} buffers", decl.count)
            }));
        }
        if given.insert(key, len).is_some() {
            return Err(err(if decl.count == 1 {
                "given twice".into()
            } else {
                format!("element {index} given twice")
            }));
        }
        slots.push(if is_element {
            Slot::Element(key)
        } else {
            Slot::Plain(key)
        });
    }
    Ok((given, slots))
}

/// Creates a tensor of `t`'s shape and strides (zero-filled; data comes with each dispatch).
fn create_tensor(
    objs: &mut RunObjects<'_>,
    runner: &VkRunner,
    info: &ModuleInfo,
    t: &TensorData,
) -> VkResult<()> {
    let ty = info
        .binding(t.set, t.binding)
        .filter(|b| b.kind == DescriptorKind::Tensor)
        .and_then(|b| b.tensor)
        .ok_or_else(|| VkError::Binding {
            set: t.set,
            binding: t.binding,
            message: "the module declares no tensor of a supported element type there".into(),
        })?;
    let bad = |message: String| VkError::Binding {
        set: t.set,
        binding: t.binding,
        message,
    };
    // VUID-VkTensorDescriptionARM-dimensionCount-09733: dimensionCount must not exceed
    // maxTensorDimensionCount (Arm's emulation layer, with 6, throws a C++ exception there).
    let max = runner.device.max_tensor_dimensions;
    if t.shape.len() > max as usize {
        return Err(VkError::MissingFeature {
            device: runner.device.report.name.clone(),
            missing: format!(
                "maxTensorDimensionCount >= {} (VK_ARM_tensors; it is {max})",
                t.shape.len()
            ),
            reason: format!(
                "binding {}.{}: a tensor of rank {}",
                t.set,
                t.binding,
                t.shape.len()
            ),
        });
    }
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
        &runner.device.memory,
        (t.set, t.binding, t.index),
        ty.format,
        &shape,
        strides.as_deref(),
        t.bytes.len(),
    )
}
