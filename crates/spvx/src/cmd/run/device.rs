//! `spvx run --device vulkan[:NAME]`: the same run on a Vulkan device through spvx-vk, and
//! the loading both this and `spvx diff` share (module words, buffer data and elements of
//! arrays of buffers, push constants).
//!
//! The bindings are checked as for the engine when the engine can compile the module (every
//! binding the entry point uses given, nothing else); otherwise spvx-vk's own checks apply.

use super::data::Data;
use super::elem::ElemType;
use super::module::{KERNEL, LoadedModule};
use super::output::write_outputs;
use super::plan::RunPlan;
use crate::cmd::CmdResult;
use spvx_exec::{BindingInfo, CompiledModule, Resources, Tensor};
use spvx_spirv::binary::to_words;
use spvx_vk::{BufferData, BufferElement, DeviceChoice, TensorData, VkRun, VkRunner};
use std::collections::BTreeMap;

/// A plan's module and data, loaded once for the engine and the device.
pub struct Loaded {
    pub module: LoadedModule,
    pub entry: String,
    /// The engine's compiled module (None when the engine cannot compile it; then only a
    /// device run is possible).
    pub compiled: Result<CompiledModule, String>,
    pub bindings: Vec<BindingInfo>,
    /// Each buffer's input data, in plan order (plain bindings and element 0 of arrays of
    /// buffers).
    pub buffers: Vec<(u32, u32, Data)>,
    /// Elements 1.. of arrays of buffers: (set, binding, index, data), in plan order.
    pub elements: Vec<(u32, u32, u32, Data)>,
    /// Each tensor's input, in plan order.
    pub tensors: Vec<(u32, u32, Tensor, Data)>,
    pub push: Option<Vec<u8>>,
}

impl Loaded {
    /// Reads the module and every buffer's and tensor's data; refuses Kernel entry points.
    pub fn load(plan: &RunPlan) -> Result<Loaded, String> {
        let module = LoadedModule::read(&plan.module)?;
        let entry = module.choose_entry(plan.entry.as_deref())?;
        if entry.model == KERNEL {
            return Err(format!(
                "error: {}: entry point '{}' is a Kernel (OpenCL) entry point and cannot run on a Vulkan device: Vulkan consumes only Shader-capability modules with GLCompute entry points (a Kernel module declares the Kernel capability, which no Vulkan environment allows); run it on the engine (without --device)",
                module.name, entry.name
            ));
        }
        let opts = plan.compile_options();
        let compiled = module.compile(&entry.name, &opts);
        let bindings = match &compiled {
            Ok(c) => {
                let b = c.bindings().to_vec();
                plan.check_bindings(&b, &module.name)?;
                b
            }
            Err(_) => Vec::new(),
        };
        let limit = plan.config.memory_limit;
        let mut buffers = Vec::new();
        let mut elements = Vec::new();
        for b in &plan.buffers {
            let data = b
                .data
                .load(&plan.base, limit)
                .map_err(|e| format!("error: {}: {e}", b.origin))?;
            match b.index.unwrap_or(0) {
                0 => buffers.push((b.set, b.binding, data)),
                i => elements.push((b.set, b.binding, i, data)),
            }
        }
        let mut tensors = Vec::new();
        for t in &plan.tensors {
            if t.index.is_some_and(|i| i > 0) {
                return Err(format!(
                    "error: {}: arrays of tensors are not run on a device (spvx-vk binds one tensor per binding)",
                    t.origin
                ));
            }
            let (tensor, data) = plan.load_tensor(t, limit)?;
            tensors.push((t.set, t.binding, tensor, data));
        }
        let push = match &plan.push {
            Some(p) => Some(
                p.load(&plan.base, limit)
                    .map_err(|e| format!("error: push constants: {e}"))?
                    .bytes,
            ),
            None => None,
        };
        Ok(Loaded {
            entry: entry.name,
            module,
            compiled,
            bindings,
            buffers,
            elements,
            tensors,
            push,
        })
    }

    /// The tensors as spvx-vk takes them.
    pub fn vk_tensors(&self) -> Vec<TensorData> {
        self.tensors
            .iter()
            .map(|(set, binding, t, _)| TensorData {
                set: *set,
                binding: *binding,
                shape: t.shape.clone(),
                strides: t.strides.clone(),
                bytes: t.data.clone(),
            })
            .collect()
    }

    /// The module's words.
    pub fn words(&self) -> Vec<u32> {
        to_words(&self.module.header, &self.module.instructions)
    }

    /// The device run of this plan.
    pub fn vk_run(&self, plan: &RunPlan) -> VkRun {
        VkRun {
            words: self.words(),
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
        }
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

    /// The element type each buffer's input data was given in.
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
}

/// Opens the device `--device` names.
pub fn open(device: &str) -> Result<VkRunner, String> {
    let choice: DeviceChoice = device
        .parse()
        .map_err(|e| format!("error: --device: {e}"))?;
    VkRunner::new(&choice).map_err(|e| format!("error: --device {device}: {e}"))
}

/// Runs the plan on the device, prints a summary, writes outputs and checks expectations.
pub fn execute(plan: &RunPlan, device: &str) -> CmdResult {
    let loaded = Loaded::load(plan)?;
    let runner = open(device)?;
    let out = runner
        .run_with_tensors(&loaded.vk_run(plan), &loaded.vk_tensors())
        .map_err(|e| format!("error: {}: {e}", loaded.module.name))?;
    let [x, y, z] = plan.groups;
    println!(
        "ran '{}' of {} on {}: {x}x{y}x{z} workgroups",
        loaded.entry, loaded.module.name, out.device
    );
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
    if let Some(dir) = &plan.out {
        write_outputs(dir, &res, &loaded.arrays(), &[])?;
    }
    let inputs = loaded.input_types();
    let inputs = inputs
        .into_iter()
        .map(|((s, b), d)| ((s, b, 0), d))
        .chain(
            loaded
                .elements
                .iter()
                .map(|(s, b, i, d)| ((*s, *b, *i), d.clone())),
        )
        .collect();
    plan.check_expectations(&res, &loaded.bindings, &inputs)
}

/// spvx-vk's element type for the CLI's.
pub fn vk_element(e: ElemType) -> spvx_vk::compare::Element {
    use spvx_vk::compare::Element as V;
    match e {
        ElemType::U8 => V::U8,
        ElemType::I8 => V::I8,
        ElemType::U16 => V::U16,
        ElemType::I16 => V::I16,
        ElemType::U32 => V::U32,
        ElemType::I32 => V::I32,
        ElemType::U64 => V::U64,
        ElemType::I64 => V::I64,
        ElemType::F16 => V::F16,
        ElemType::Bf16 => V::BF16,
        ElemType::F32 => V::F32,
        ElemType::F64 => V::F64,
        ElemType::E4m3 => V::E4M3,
        ElemType::E5m2 => V::E5M2,
    }
}

/// The CLI's element type for spvx-vk's.
pub fn cli_element(e: spvx_vk::compare::Element) -> ElemType {
    ElemType::ALL
        .into_iter()
        .find(|&t| vk_element(t) == e)
        .unwrap_or(ElemType::U8)
}
