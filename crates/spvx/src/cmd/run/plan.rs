//! A run, whichever way it was described (command line or run file): the module, entry point,
//! dispatch, each binding's data and expected output, and the engine's options; and carrying it
//! out: bind, run, report undefined behaviour, write outputs, check expectations.

use super::data::{Data, DataSpec};
use super::elem::ElemType;
use super::expect::Tally;
use super::module::{KERNEL, LoadedModule};
use super::npy::element_count;
use super::output::{print_summary, write_outputs};
use crate::cmd::CmdResult;
use spvx_exec::{BindingInfo, BindingKind, CompileOptions, Resources, RunConfig, Tensor};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Expected contents of a buffer after the run.
#[derive(Clone, Debug, PartialEq)]
pub struct ExpectPlan {
    pub data: DataSpec,
    /// The element type to compare and print as (default: the data's own type, else u8).
    pub elem: Option<ElemType>,
}

/// One buffer binding.
#[derive(Clone, Debug, PartialEq)]
pub struct BufferPlan {
    pub set: u32,
    pub binding: u32,
    /// The element of an array of buffers (`--buffer 0.1[2]=...`, `index = 2`); `None` for a
    /// plain binding (element 0 when the binding is an array).
    pub index: Option<u32>,
    pub data: DataSpec,
    pub expect: Option<ExpectPlan>,
    /// Where it was given, for messages (`--buffer 0.1`, `run.toml:12:1`).
    pub origin: String,
}

/// One tensor binding (SPV_ARM_tensors).
#[derive(Clone, Debug, PartialEq)]
pub struct TensorPlan {
    pub set: u32,
    pub binding: u32,
    /// The element of an array of tensors (`--tensor 0.1[2]=...`, `index = 2`); `None` for a
    /// plain binding (element 0 when the binding is an array).
    pub index: Option<u32>,
    pub data: DataSpec,
    /// Dimensions, outermost first (default: the `.npy` file's shape).
    pub shape: Option<Vec<u64>>,
    /// Byte strides, outermost first (default: packed).
    pub strides: Option<Vec<u64>>,
    pub expect: Option<ExpectPlan>,
    /// Where it was given, for messages.
    pub origin: String,
}

/// Everything a run needs.
#[derive(Clone, Debug)]
pub struct RunPlan {
    pub module: PathBuf,
    /// The directory relative data paths start from.
    pub base: PathBuf,
    pub entry: Option<String>,
    pub groups: [u32; 3],
    pub buffers: Vec<BufferPlan>,
    pub tensors: Vec<TensorPlan>,
    pub push: Option<DataSpec>,
    pub spec: BTreeMap<u32, u64>,
    pub config: RunConfig,
    /// Where to write `SET.BINDING.bin` after the run (none: do not write).
    pub out: Option<PathBuf>,
    /// Kernel (OpenCL) entry points: the arguments.
    pub args: Vec<super::kernel_args::ArgPlan>,
    /// Kernel entry points: the dispatch's local size (when the kernel requires none).
    pub local: Option<[u32; 3]>,
    /// The validator's limits (`--max-id-bound` and the other validator options).
    pub limits: spvx_val::Limits,
}

impl RunPlan {
    /// The engine's compile options: specialisation constants and validator limits.
    pub fn compile_options(&self) -> CompileOptions {
        let mut opts = CompileOptions {
            spec_constants: self.spec.clone(),
            ..CompileOptions::default()
        };
        opts.validation.limits = self.limits;
        opts
    }

    /// Runs the plan and reports. Exit status 0 when the run succeeded and every expectation
    /// passed, 1 otherwise.
    pub fn execute(&self) -> CmdResult {
        let module = LoadedModule::read(&self.module)?;
        let entry = module.choose_entry(self.entry.as_deref())?;
        let opts = self.compile_options();
        let compiled = module.compile(&entry.name, &opts)?;
        if entry.model == KERNEL {
            return self.execute_kernel(&module, &entry, &compiled);
        }
        if let Some(a) = self.args.first() {
            return Err(format!(
                "error: {}: '{}' is not a Kernel entry point; it takes descriptor bindings (--buffer), not arguments",
                a.origin, entry.name
            ));
        }
        if self.local.is_some() {
            return Err(format!(
                "error: {}: --local is for Kernel entry points; '{}' has its workgroup size in the module",
                module.name, entry.name
            ));
        }
        let limit = self.config.memory_limit;
        let bindings = compiled.bindings().to_vec();
        self.check_bindings(&bindings, &module.name)?;

        let mut res = Resources::new();
        let mut loaded: BTreeMap<(u32, u32, u32), Data> = BTreeMap::new();
        for b in &self.buffers {
            let data = b
                .data
                .load(&self.base, limit)
                .map_err(|e| format!("error: {}: {e}", b.origin))?;
            if let Some(info) = bindings
                .iter()
                .find(|i| i.set == b.set && i.binding == b.binding)
                && (data.bytes.len() as u64) < info.static_size
            {
                eprintln!(
                    "warning: {}: {} bytes, fewer than the {} bytes of the block of binding {}.{} (reads beyond give zero)",
                    b.origin,
                    data.bytes.len(),
                    info.static_size,
                    b.set,
                    b.binding
                );
            }
            let index = b.index.unwrap_or(0);
            res.set_buffer_element(b.set, b.binding, index, data.bytes.clone());
            loaded.insert((b.set, b.binding, index), data);
        }
        for t in &self.tensors {
            let info = bindings
                .iter()
                .find(|i| i.set == t.set && i.binding == t.binding);
            let element_bytes = info.and_then(|i| i.tensor).map_or(1, |i| i.element_bytes);
            let (tensor, data) = self.load_tensor(t, limit)?;
            if let Some(elem) = data.elem
                && elem.size() as u32 != element_bytes
            {
                return Err(format!(
                    "error: {}: {elem} data for a tensor of {element_bytes}-byte elements",
                    t.origin
                ));
            }
            let index = t.index.unwrap_or(0);
            res.set_tensor_element(t.set, t.binding, index, tensor);
            loaded.insert((t.set, t.binding, index), data);
        }
        if let Some(push) = &self.push {
            res.push_constants = push
                .load(&self.base, limit)
                .map_err(|e| format!("error: push constants: {e}"))?
                .bytes;
        }
        let report = compiled
            .run(&mut res, self.groups, &self.config)
            .map_err(|e| module.render_exec_error(&e))?;
        print_summary(
            &module,
            &entry.name,
            self.groups,
            compiled.local_size(),
            &report,
        );
        if let Some(dir) = &self.out {
            let arrays: Vec<(u32, u32)> = bindings
                .iter()
                .filter(|i| i.element.is_some())
                .map(|i| (i.set, i.binding))
                .collect();
            write_outputs(dir, &res, &arrays, &self.tensor_outputs(&bindings, &loaded))?;
        }
        self.check_expectations(&res, &bindings, &loaded)
    }

    /// A tensor's data and shape.
    pub(crate) fn load_tensor(&self, t: &TensorPlan, limit: u64) -> Result<(Tensor, Data), String> {
        let data = t
            .data
            .load(&self.base, limit)
            .map_err(|e| format!("error: {}: {e}", t.origin))?;
        let shape = match (&t.shape, &data.shape) {
            (Some(s), Some(n)) if element_count(s) != element_count(n) => {
                return Err(format!(
                    "error: {}: shape {s:?} has {} elements, the .npy array {n:?} has {}",
                    t.origin,
                    element_count(s).unwrap_or(u64::MAX),
                    element_count(n).unwrap_or(u64::MAX)
                ));
            }
            (Some(s), _) => s.clone(),
            (None, Some(n)) => n.clone(),
            (None, None) => {
                return Err(format!(
                    "error: {}: a tensor needs a shape: give a .npy file, or shape = [...] in the run file",
                    t.origin
                ));
            }
        };
        let tensor = Tensor {
            shape,
            strides: t.strides.clone(),
            data: data.bytes.clone(),
        };
        Ok((tensor, data))
    }

    /// How each tensor is written after the run: `.npy` of its element type when packed.
    fn tensor_outputs(
        &self,
        bindings: &[BindingInfo],
        loaded: &BTreeMap<(u32, u32, u32), Data>,
    ) -> Vec<TensorOutput> {
        self.tensors
            .iter()
            .map(|t| {
                let bytes = bindings
                    .iter()
                    .find(|i| i.set == t.set && i.binding == t.binding)
                    .and_then(|i| i.tensor)
                    .map_or(1, |i| i.element_bytes);
                let index = t.index.unwrap_or(0);
                let is_array = bindings
                    .iter()
                    .any(|i| (i.set, i.binding) == (t.set, t.binding) && i.element.is_some());
                let elem = loaded
                    .get(&(t.set, t.binding, index))
                    .and_then(|d| d.elem)
                    .unwrap_or(match bytes {
                        2 => ElemType::U16,
                        4 => ElemType::U32,
                        8 => ElemType::U64,
                        _ => ElemType::U8,
                    });
                TensorOutput {
                    set: t.set,
                    binding: t.binding,
                    index: is_array.then_some(index),
                    elem,
                    packed: t.strides.is_none(),
                }
            })
            .collect()
    }

    /// Every binding the entry point uses has data, and no data names a binding it does not use.
    pub(crate) fn check_bindings(
        &self,
        bindings: &[BindingInfo],
        module: &str,
    ) -> Result<(), String> {
        let mut seen = BTreeMap::new();
        for b in &self.buffers {
            if let Some(first) = seen.insert((b.set, b.binding, b.index.unwrap_or(0)), &b.origin) {
                return Err(format!(
                    "error: {}: binding {}.{}{} is already given ({first})",
                    b.origin,
                    b.set,
                    b.binding,
                    element_suffix(b.index.unwrap_or(0), b.index.is_some())
                ));
            }
        }
        for t in &self.tensors {
            let origin = format!("{} (tensor)", t.origin);
            let index = t.index.unwrap_or(0);
            if let Some(first) = seen.insert((t.set, t.binding, index), &t.origin) {
                return Err(format!(
                    "error: {origin}: binding {}.{}{} is already given ({first})",
                    t.set,
                    t.binding,
                    element_suffix(index, t.index.is_some())
                ));
            }
        }
        for info in bindings.iter().filter(|i| i.kind == BindingKind::Tensor) {
            if self
                .buffers
                .iter()
                .any(|b| (b.set, b.binding) == (info.set, info.binding))
            {
                return Err(format!(
                    "error: {module}: binding {}.{} is a tensor; give it with --tensor {}.{}=FILE.npy or a [[tensor]] entry",
                    info.set, info.binding, info.set, info.binding
                ));
            }
        }
        for t in &self.tensors {
            let index = t.index.unwrap_or(0);
            // (A runtime-sized array, `count` 0, takes any element.)
            let is_tensor = bindings.iter().any(|i| {
                i.kind == BindingKind::Tensor
                    && (i.set, i.binding) == (t.set, t.binding)
                    && (i.count == 0 || i.element_index() == index)
            });
            if !is_tensor {
                return Err(format!(
                    "error: {}: the entry point uses no tensor at binding {}.{}{}",
                    t.origin,
                    t.set,
                    t.binding,
                    element_suffix(index, t.index.is_some())
                ));
            }
        }
        let used: Vec<&BindingInfo> = bindings
            .iter()
            .filter(|i| {
                matches!(
                    i.kind,
                    BindingKind::StorageBuffer | BindingKind::UniformBuffer
                )
            })
            .collect();
        for info in bindings.iter().filter(|i| i.kind == BindingKind::Tensor) {
            if !seen.contains_key(&(info.set, info.binding, info.element_index())) {
                let element = element_suffix(info.element_index(), info.element.is_some());
                return Err(format!(
                    "error: {module}: tensor binding {}.{}{element}{} (rank {}) has no data; give --tensor {}.{}{element}=FILE.npy or a [[tensor]] entry in the run file",
                    info.set,
                    info.binding,
                    info.name
                        .as_ref()
                        .map_or_else(String::new, |n| format!(" '{n}'")),
                    info.tensor.map_or(0, |t| t.rank),
                    info.set,
                    info.binding
                ));
            }
        }
        for info in &used {
            if !seen.contains_key(&(info.set, info.binding, info.element_index())) {
                let element = element_suffix(info.element_index(), info.element.is_some());
                return Err(format!(
                    "error: {module}: binding {}.{}{element}{} ({}) has no data; give --buffer {}.{}{element}=SOURCE (a file, or zeros:BYTES) or a [[buffer]] entry in the run file",
                    info.set,
                    info.binding,
                    info.name
                        .as_ref()
                        .map_or_else(String::new, |n| format!(" '{n}'")),
                    describe(info),
                    info.set,
                    info.binding
                ));
            }
        }
        for b in &self.buffers {
            if !used.iter().any(|i| {
                i.set == b.set
                    && i.binding == b.binding
                    && (i.count == 0 || i.element_index() == b.index.unwrap_or(0))
            }) {
                let list: Vec<String> = used
                    .iter()
                    .map(|i| {
                        let e = element_suffix(i.element_index(), i.element.is_some());
                        format!("{}.{}{e}", i.set, i.binding)
                    })
                    .collect();
                return Err(format!(
                    "error: {}: the entry point uses no buffer at binding {}.{}{} (it uses: {})",
                    b.origin,
                    b.set,
                    b.binding,
                    element_suffix(b.index.unwrap_or(0), b.index.is_some()),
                    if list.is_empty() {
                        "none".to_string()
                    } else {
                        list.join(", ")
                    }
                ));
            }
        }
        let wants_push = bindings.iter().any(|i| i.kind == BindingKind::PushConstant);
        match (wants_push, &self.push) {
            (true, None) => Err(format!(
                "error: {module}: the entry point reads push constants; give them with --push FILE or `push = ...` in the run file"
            )),
            (false, Some(_)) => Err(format!(
                "error: {module}: push constants were given but the entry point has no push-constant block"
            )),
            _ => Ok(()),
        }
    }

    /// Prints PASS/FAIL for every buffer with an expectation.
    pub(crate) fn check_expectations(
        &self,
        res: &Resources,
        bindings: &[BindingInfo],
        loaded: &BTreeMap<(u32, u32, u32), Data>,
    ) -> CmdResult {
        let mut tally = Tally::default();
        let checks = self
            .buffers
            .iter()
            .map(|b| {
                (
                    b.set,
                    b.binding,
                    b.index.unwrap_or(0),
                    &b.expect,
                    &b.origin,
                    res.buffer_element(b.set, b.binding, b.index.unwrap_or(0)),
                )
            })
            .chain(self.tensors.iter().map(|t| {
                let index = t.index.unwrap_or(0);
                let data = res
                    .tensor_element(t.set, t.binding, index)
                    .map(|t| t.data.as_slice());
                (t.set, t.binding, index, &t.expect, &t.origin, data)
            }));
        for (set, binding, index, expect, origin, actual) in checks {
            let Some(expect) = expect else { continue };
            let b = BindingRef {
                set,
                binding,
                origin,
            };
            let want = expect
                .data
                .load(&self.base, self.config.memory_limit)
                .map_err(|e| format!("error: {} (expected data): {e}", b.origin))?;
            let elem = expect
                .elem
                .or(want.elem)
                .or_else(|| loaded.get(&(b.set, b.binding, index)).and_then(|d| d.elem))
                .unwrap_or(ElemType::U8);
            let actual = actual.unwrap_or(&[]);
            let name = bindings
                .iter()
                .find(|i| i.set == b.set && i.binding == b.binding)
                .and_then(|i| i.name.clone());
            let element = element_suffix(index, index > 0);
            let label = match name {
                Some(n) => format!("{}.{}{element} ({n})", b.set, b.binding),
                None => format!("{}.{}{element}", b.set, b.binding),
            };
            tally.check(&label, actual, &want.bytes, elem);
        }
        Ok(tally.finish("bindings"))
    }
}

/// Which binding a check is about.
struct BindingRef<'a> {
    set: u32,
    binding: u32,
    origin: &'a str,
}

/// How a tensor is written after the run.
pub struct TensorOutput {
    pub set: u32,
    pub binding: u32,
    /// The element, for an element of an array of tensors (written as `SET.BINDING.INDEX`).
    pub index: Option<u32>,
    pub elem: ElemType,
    /// Packed tensors are written as `.npy` of their shape; strided ones as raw `.bin` bytes.
    pub packed: bool,
}

/// `[INDEX]` after SET.BINDING when naming an element of an array of buffers, else nothing.
fn element_suffix(index: u32, shown: bool) -> String {
    if shown {
        format!("[{index}]")
    } else {
        String::new()
    }
}

/// `storage buffer of 16 + 4·n bytes`.
fn describe(info: &BindingInfo) -> String {
    let kind = match info.kind {
        BindingKind::StorageBuffer => "storage buffer",
        BindingKind::UniformBuffer => "uniform buffer",
        BindingKind::PushConstant => "push constants",
        BindingKind::Tensor => "tensor",
    };
    match info.runtime_stride {
        Some(s) if info.static_size == 0 => format!("{kind} of {s}·n bytes"),
        Some(s) => format!("{kind} of {} + {s}·n bytes", info.static_size),
        None => format!("{kind} of {} bytes", info.static_size),
    }
}
