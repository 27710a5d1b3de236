//! A plan on a Vulkan device through spvx-vk (`spvx run --device`, and the device side of
//! `spvx diff`): the module and data loaded once for both the engine and the device
//! ([`Loaded`]), the device opened and the run made there.
//!
//! The bindings are checked as for the engine when the engine can compile the module (every
//! binding the entry point uses given, nothing else); otherwise spvx-vk's own checks apply.

use crate::ElemType;
use crate::data::Data;
use crate::error::RunError;
use crate::inputs::{InputError, Warning};
use crate::module::{KERNEL, LoadedModule, PlacedExecError};
use crate::plan::RunPlan;
use spvx_exec::{BindingInfo, CompiledModule, Resources, Tensor};
use spvx_vk::{
    BufferData, BufferElement, DeviceChoice, TensorData, VkError, VkOutputs, VkRun, VkRunner,
};
use std::collections::BTreeMap;

/// What cannot run on a device.
#[derive(Debug, thiserror::Error)]
pub enum DeviceError {
    #[error(
        "{module}: entry point '{entry}' is a Kernel (OpenCL) entry point and cannot run on a Vulkan device: Vulkan consumes only Shader-capability modules with GLCompute entry points (a Kernel module declares the Kernel capability, which no Vulkan environment allows); run it on the engine (without --device)"
    )]
    KernelEntry { module: String, entry: String },
    #[error(
        "{origin}: arrays of tensors are not run on a device from a run plan (`spvx conform tensors --device` runs them; `spvx run`/`spvx diff` bind one tensor per binding)"
    )]
    TensorArray { origin: String },
    #[error("--device: {0}")]
    Choice(#[source] VkError),
    #[error("--device {device}: {source}")]
    Open {
        device: String,
        #[source]
        source: VkError,
    },
    #[error("{module}: {source}")]
    Run {
        module: String,
        #[source]
        source: VkError,
    },
}

/// A plan's module and data, loaded once for the engine and the device.
pub struct Loaded {
    pub module: LoadedModule,
    pub entry: String,
    /// The engine's compiled module (an error when the engine cannot compile it; then only a
    /// device run is possible).
    pub compiled: Result<CompiledModule, PlacedExecError>,
    pub bindings: Vec<BindingInfo>,
    /// Each buffer's input data, in plan order (plain bindings and element 0 of arrays of
    /// buffers).
    pub buffers: Vec<(u32, u32, Data)>,
    /// Elements 1.. of arrays of buffers: (set, binding, index, data), in plan order.
    pub elements: Vec<(u32, u32, u32, Data)>,
    /// Each tensor's input, in plan order.
    pub tensors: Vec<(u32, u32, Tensor, Data)>,
    pub push: Option<Vec<u8>>,
    /// Each buffer binding's element type in the module ([`crate::element`]).
    pub element_types: BTreeMap<(u32, u32), ElemType>,
    /// Buffers given for bindings the module does not declare (a warning, see
    /// [`RunPlan::check_bindings`]): not bound on the device, written back unchanged
    /// ([`Loaded::add_unbound`]).
    pub unbound: Vec<(u32, u32, u32, Data)>,
}

impl Loaded {
    /// Reads the module and every buffer's and tensor's data; refuses Kernel entry points.
    /// Warnings (buffers the entry point does not use) go to `warn`.
    pub fn load(plan: &RunPlan, warn: &mut dyn FnMut(Warning)) -> Result<Loaded, RunError> {
        Loaded::load_module(plan, LoadedModule::read(&plan.module)?, warn)
    }

    /// As [`Loaded::load`], with the module read by the caller (e.g. from memory: the Python
    /// package); `plan.module` is not read.
    pub fn load_module(
        plan: &RunPlan,
        module: LoadedModule,
        warn: &mut dyn FnMut(Warning),
    ) -> Result<Loaded, RunError> {
        let entry = module.choose_entry(plan.entry.as_deref())?;
        if entry.model == KERNEL {
            return Err(DeviceError::KernelEntry {
                module: module.name.clone(),
                entry: entry.name,
            }
            .into());
        }
        let compiled = module.compile(&entry.name, &plan.compile_options());
        let bindings = match &compiled {
            Ok(c) => {
                let b = c.bindings().to_vec();
                plan.check_bindings(&b, &module.name, warn)?;
                b
            }
            Err(_) => Vec::new(),
        };
        let types = module.buffer_elements();
        let declared = module.resource_bindings();
        let mut buffers = Vec::new();
        let mut elements = Vec::new();
        let mut unbound = Vec::new();
        for b in &plan.buffers {
            let data = plan.load_buffer(b)?;
            plan.check_buffer_dtype(b, &data, &types, &bindings)
                .map_err(InputError::from)?;
            let index = b.index.unwrap_or(0);
            if !declared.contains(&(b.set, b.binding)) {
                unbound.push((b.set, b.binding, index, data));
                continue;
            }
            match index {
                0 => buffers.push((b.set, b.binding, data)),
                i => elements.push((b.set, b.binding, i, data)),
            }
        }
        let mut tensors = Vec::new();
        for t in &plan.tensors {
            if t.index.is_some_and(|i| i > 0) {
                return Err(DeviceError::TensorArray {
                    origin: t.origin.clone(),
                }
                .into());
            }
            let (tensor, data) = plan.load_tensor(t)?;
            tensors.push((t.set, t.binding, tensor, data));
        }
        let push = plan.load_push()?;
        Ok(Loaded {
            entry: entry.name,
            module,
            compiled,
            bindings,
            buffers,
            elements,
            tensors,
            push,
            element_types: types,
            unbound,
        })
    }

    /// Adds the buffers given for bindings the module does not declare, unchanged, to a
    /// device run's outputs.
    pub fn add_unbound(&self, res: &mut Resources) {
        for (set, binding, index, d) in &self.unbound {
            res.set_buffer_element(*set, *binding, *index, d.bytes.clone());
        }
    }

    /// The tensors as spvx-vk takes them.
    pub fn vk_tensors(&self) -> Vec<TensorData> {
        self.tensors
            .iter()
            .map(|(set, binding, t, _)| TensorData {
                set: *set,
                binding: *binding,
                index: 0,
                shape: t.shape.clone(),
                strides: t.strides.clone(),
                bytes: t.data.clone(),
            })
            .collect()
    }

    /// The device run of this plan.
    pub fn vk_run(&self, plan: &RunPlan) -> VkRun {
        VkRun {
            words: self.module.words(),
            entry: Some(self.entry.clone()),
            groups: plan.groups,
            buffers: self
                .buffers
                .iter()
                .map(|(set, binding, d)| BufferData {
                    set: *set,
                    binding: *binding,
                    bytes: d.bytes.clone(),
                })
                .collect(),
            elements: self
                .elements
                .iter()
                .map(|(set, binding, index, d)| BufferElement {
                    set: *set,
                    binding: *binding,
                    index: *index,
                    bytes: d.bytes.clone(),
                })
                .collect(),
            push: self.push.clone(),
            spec: plan.spec.clone(),
            subgroup_size: None,
        }
    }

    /// Runs the plan on `runner`, with the device's subgroup size.
    pub fn run_on(&self, runner: &VkRunner, plan: &RunPlan) -> Result<VkOutputs, DeviceError> {
        self.run_on_with(runner, plan, None)
    }

    /// Runs the plan on `runner`, requiring subgroup size `subgroup_size` when given
    /// (`--subgroup-size` with `--device`; VK_EXT_subgroup_size_control).
    pub fn run_on_with(
        &self,
        runner: &VkRunner,
        plan: &RunPlan,
        subgroup_size: Option<u32>,
    ) -> Result<VkOutputs, DeviceError> {
        let run = VkRun {
            subgroup_size,
            ..self.vk_run(plan)
        };
        runner
            .run_with_tensors(&run, &self.vk_tensors())
            .map_err(|source| DeviceError::Run {
                module: self.module.name.clone(),
                source,
            })
    }

    /// The engine's resources holding the inputs.
    pub fn resources(&self) -> Resources {
        let mut res = Resources::new();
        for (set, binding, d) in &self.buffers {
            res.set_buffer(*set, *binding, d.bytes.clone());
        }
        for (set, binding, index, d) in &self.elements {
            res.set_buffer_element(*set, *binding, *index, d.bytes.clone());
        }
        for (set, binding, t, _) in &self.tensors {
            res.set_tensor(*set, *binding, t.clone());
        }
        if let Some(p) = &self.push {
            res.push_constants = p.clone();
        }
        res
    }

    /// The bindings that are arrays of buffers (as the engine found them; elements given for
    /// other bindings when the engine cannot compile the module).
    pub fn arrays(&self) -> Vec<(u32, u32)> {
        let mut arrays: Vec<(u32, u32)> = self
            .bindings
            .iter()
            .filter(|i| i.element.is_some())
            .map(|i| (i.set, i.binding))
            .chain(self.elements.iter().map(|(s, b, _, _)| (*s, *b)))
            .collect();
        arrays.sort_unstable();
        arrays.dedup();
        arrays
    }

    /// Each plain binding's (and tensor's) input data, by (set, binding).
    pub fn input_types(&self) -> BTreeMap<(u32, u32), Data> {
        self.buffers
            .iter()
            .map(|(s, b, d)| ((*s, *b), d.clone()))
            .chain(
                self.tensors
                    .iter()
                    .map(|(s, b, _, d)| ((*s, *b), d.clone())),
            )
            .collect()
    }

    /// Every binding's input data, by (set, binding, element), for checking expectations.
    pub fn inputs(&self) -> BTreeMap<(u32, u32, u32), Data> {
        self.input_types()
            .into_iter()
            .map(|((s, b), d)| ((s, b, 0), d))
            .chain(
                self.elements
                    .iter()
                    .chain(&self.unbound)
                    .map(|(s, b, i, d)| ((*s, *b, *i), d.clone())),
            )
            .collect()
    }
}

/// Opens the device `device` names (`vulkan` or `vulkan:NAME`).
pub fn open(device: &str) -> Result<VkRunner, DeviceError> {
    let choice: DeviceChoice = device.parse().map_err(DeviceError::Choice)?;
    VkRunner::new(&choice).map_err(|source| DeviceError::Open {
        device: device.to_string(),
        source,
    })
}

/// The engine's resources holding a device run's outputs.
pub fn output_resources(out: VkOutputs) -> Resources {
    let mut res = Resources::new();
    for b in out.buffers {
        res.set_buffer(b.set, b.binding, b.bytes);
    }
    for e in out.elements {
        res.set_buffer_element(e.set, e.binding, e.index, e.bytes);
    }
    for t in out.tensors {
        res.set_tensor(
            t.set,
            t.binding,
            Tensor {
                shape: t.shape,
                strides: t.strides,
                data: t.bytes,
            },
        );
    }
    res
}
