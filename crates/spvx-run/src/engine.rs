//! Carrying a plan out on the engine (spvx-exec): the module read, its entry point chosen and
//! compiled ([`Prepared`]); for a GLCompute entry point the bindings checked and loaded
//! ([`Bound`]), the dispatch run, the outputs written and the expectations checked. Kernel
//! entry points continue in [`crate::kernel`]. Printing is the caller's: each step returns
//! what it did.

use crate::ElemType;
use crate::bindings::BindingError;
use crate::data::Data;
use crate::error::RunError;
use crate::expect::{Checked, ExpectError, Tally};
use crate::inputs::{InputError, Warning};
use crate::layout::TypeLayout;
use crate::module::{EntryPoint, KERNEL, LoadedModule, PlacedExecError};
use crate::outputs::{OutputError, arrays, write_outputs};
use crate::plan::RunPlan;
use spvx_exec::{BindingInfo, CompiledModule, Resources, RunReport};
use std::collections::BTreeMap;
use std::path::Path;

/// A plan's module, read, with its entry point chosen and compiled.
pub struct Prepared {
    pub module: LoadedModule,
    pub entry: EntryPoint,
    pub compiled: CompiledModule,
}

/// A GLCompute entry point's bindings checked and loaded.
#[derive(Clone, Debug)]
pub struct Bound {
    pub resources: Resources,
    /// The entry point's bindings.
    pub bindings: Vec<BindingInfo>,
    /// Each binding's input data, by (set, binding, element): its element type and shape (a
    /// buffer's bytes are in `resources` only; here they are empty).
    pub inputs: BTreeMap<(u32, u32, u32), Data>,
    /// Each buffer binding's element type in the module ([`crate::element`]).
    pub elements: BTreeMap<(u32, u32), ElemType>,
    /// Each buffer binding's block layout in the module ([`crate::layout`]).
    pub layouts: BTreeMap<(u32, u32), TypeLayout>,
}

impl RunPlan {
    /// Reads the module, chooses the entry point and compiles it.
    pub fn prepare(&self) -> Result<Prepared, RunError> {
        self.prepare_module(LoadedModule::read(&self.module)?)
    }

    /// Chooses the entry point of `module` (read by the caller, e.g. from memory: the Python
    /// package) and compiles it; `self.module` is not read.
    pub fn prepare_module(&self, module: LoadedModule) -> Result<Prepared, RunError> {
        let entry = module.choose_entry(self.entry.as_deref())?;
        let compiled = module.compile(&entry.name, &self.compile_options())?;
        Ok(Prepared {
            module,
            entry,
            compiled,
        })
    }

    /// Checks the plan's bindings against the GLCompute entry point's and loads them, with
    /// the dtypes of `.npy` buffers checked against the module's element types; `warn` hears
    /// of buffers shorter than their block and of buffers the entry point does not use.
    pub fn bind(&self, p: &Prepared, warn: &mut dyn FnMut(Warning)) -> Result<Bound, RunError> {
        if let Some(a) = self.args.first() {
            return Err(BindingError::ArgsForShader {
                origin: a.origin.clone(),
                entry: p.entry.name.clone(),
            }
            .into());
        }
        if self.local.is_some() {
            return Err(BindingError::LocalForShader {
                module: p.module.name.clone(),
                entry: p.entry.name.clone(),
            }
            .into());
        }
        let bindings = p.compiled.bindings().to_vec();
        self.check_bindings(&bindings, &p.module.name, warn)?;
        let elements = p.module.buffer_elements();
        let inputs = self.load_inputs(&bindings, warn)?;
        for b in &self.buffers {
            if let Some(data) = inputs.data.get(&(b.set, b.binding, b.index.unwrap_or(0))) {
                self.check_buffer_dtype(b, data, &elements, &bindings)
                    .map_err(InputError::from)?;
            }
        }
        Ok(Bound {
            resources: inputs.resources,
            bindings,
            inputs: inputs.data,
            elements,
            layouts: p.module.buffer_layouts(),
        })
    }
}

impl Prepared {
    /// True for a Kernel (OpenCL) entry point ([`crate::kernel`]).
    pub fn is_kernel(&self) -> bool {
        self.entry.model == KERNEL
    }

    /// The dispatch's local size: the plan's (Kernel entry points without a required size),
    /// else the module's.
    pub fn local_size(&self, plan: &RunPlan) -> [u32; 3] {
        plan.local.unwrap_or_else(|| self.compiled.local_size())
    }

    /// Runs the plan's dispatch over `res`.
    pub fn run(&self, plan: &RunPlan, res: &mut Resources) -> Result<RunReport, PlacedExecError> {
        self.compiled
            .run(res, plan.groups, &plan.config)
            .map_err(|e| self.module.placed(e))
    }
}

impl Bound {
    /// Writes every buffer and tensor to `dir` ([`crate::outputs`]); the names written.
    pub fn write_outputs(&self, plan: &RunPlan, dir: &Path) -> Result<Vec<String>, OutputError> {
        let tensors = plan.tensor_outputs(&self.bindings, &self.inputs);
        write_outputs(
            dir,
            &self.resources,
            &arrays(&self.bindings),
            &tensors,
            plan.out_format,
            &self.layouts,
        )
    }

    /// Every buffer after the run as `(label, array)` for the terminal ([`crate::show`]): each
    /// binding in the module's element type, as u8 when it has none.
    pub fn shown_outputs(&self) -> Vec<(String, String)> {
        let arrays = arrays(&self.bindings);
        self.resources
            .buffer_elements()
            .map(|((set, binding, index), bytes)| {
                let elem = self
                    .elements
                    .get(&(set, binding))
                    .copied()
                    .unwrap_or(ElemType::U8);
                let index = arrays.contains(&(set, binding)).then_some(index);
                (
                    crate::show::label(set, binding, index, elem, bytes.len()),
                    crate::show::array_text(elem, bytes),
                )
            })
            .collect()
    }

    /// Checks the plan's expectations after the run ([`RunPlan::check_expectations`]).
    pub fn check_expectations(
        &self,
        plan: &RunPlan,
        each: &mut dyn FnMut(&Checked),
    ) -> Result<Tally, ExpectError> {
        plan.check_expectations(
            &self.resources,
            &self.bindings,
            &self.inputs,
            &self.elements,
            each,
        )
    }
}
