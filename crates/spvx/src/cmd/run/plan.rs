//! A run, whichever way it was described (command line or run file): the module, entry point,
//! dispatch, each binding's data and expected output, and the engine's options; and carrying it
//! out: bind, run, report undefined behaviour, write outputs, check expectations.

use super::data::{Data, DataSpec};
use super::elem::ElemType;
use super::expect::check;
use super::module::{KERNEL, LoadedModule};
use super::output::{print_summary, write_outputs};
use crate::cmd::CmdResult;
use spvx_exec::{BindingInfo, BindingKind, CompileOptions, Resources, RunConfig};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

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
    pub data: DataSpec,
    pub expect: Option<ExpectPlan>,
    /// Where it was given, for messages (`--buffer 0.1`, `run.toml:12:1`).
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
    pub push: Option<DataSpec>,
    pub spec: BTreeMap<u32, u64>,
    pub config: RunConfig,
    /// Where to write `SET.BINDING.bin` after the run (none: do not write).
    pub out: Option<PathBuf>,
}

impl RunPlan {
    /// Runs the plan and reports. Exit status 0 when the run succeeded and every expectation
    /// passed, 1 otherwise.
    pub fn execute(&self) -> CmdResult {
        let module = LoadedModule::read(&self.module)?;
        let entry = module.choose_entry(self.entry.as_deref())?;
        if entry.model == KERNEL {
            return Err(format!(
                "error: {}: entry point '{}' is a Kernel (OpenCL) entry point; spvx-exec does not run Kernel entry points yet",
                module.name, entry.name
            ));
        }
        let opts = CompileOptions {
            spec_constants: self.spec.clone(),
            ..CompileOptions::default()
        };
        let compiled = module.compile(&entry.name, &opts)?;
        let limit = self.config.memory_limit;
        let bindings = compiled.bindings().to_vec();
        self.check_bindings(&bindings, &module.name)?;

        let mut res = Resources::new();
        let mut loaded: BTreeMap<(u32, u32), Data> = BTreeMap::new();
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
            res.set_buffer(b.set, b.binding, data.bytes.clone());
            loaded.insert((b.set, b.binding), data);
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
            write_outputs(dir, &res)?;
        }
        self.check_expectations(&res, &bindings, &loaded)
    }

    /// Every binding the entry point uses has data, and no data names a binding it does not use.
    fn check_bindings(&self, bindings: &[BindingInfo], module: &str) -> Result<(), String> {
        let mut seen = BTreeMap::new();
        for b in &self.buffers {
            if let Some(first) = seen.insert((b.set, b.binding), &b.origin) {
                return Err(format!(
                    "error: {}: binding {}.{} is already given ({first})",
                    b.origin, b.set, b.binding
                ));
            }
        }
        let used: Vec<&BindingInfo> = bindings
            .iter()
            .filter(|i| i.kind != BindingKind::PushConstant)
            .collect();
        for info in &used {
            if !seen.contains_key(&(info.set, info.binding)) {
                return Err(format!(
                    "error: {module}: binding {}.{}{} ({}) has no data; give --buffer {}.{}=SOURCE (a file, or zeros:BYTES) or a [[buffer]] entry in the run file",
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
            if !used
                .iter()
                .any(|i| i.set == b.set && i.binding == b.binding)
            {
                let list: Vec<String> = used
                    .iter()
                    .map(|i| format!("{}.{}", i.set, i.binding))
                    .collect();
                return Err(format!(
                    "error: {}: the entry point uses no buffer at binding {}.{} (it uses: {})",
                    b.origin,
                    b.set,
                    b.binding,
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
    fn check_expectations(
        &self,
        res: &Resources,
        bindings: &[BindingInfo],
        loaded: &BTreeMap<(u32, u32), Data>,
    ) -> CmdResult {
        let mut failed = 0;
        let mut checked = 0;
        for b in &self.buffers {
            let Some(expect) = &b.expect else { continue };
            let want = expect
                .data
                .load(&self.base, self.config.memory_limit)
                .map_err(|e| format!("error: {} (expected data): {e}", b.origin))?;
            let elem = expect
                .elem
                .or(want.elem)
                .or_else(|| loaded.get(&(b.set, b.binding)).and_then(|d| d.elem))
                .unwrap_or(ElemType::U8);
            let actual = res.buffer(b.set, b.binding).unwrap_or(&[]);
            let name = bindings
                .iter()
                .find(|i| i.set == b.set && i.binding == b.binding)
                .and_then(|i| i.name.clone());
            let label = match name {
                Some(n) => format!("{}.{} ({n})", b.set, b.binding),
                None => format!("{}.{}", b.set, b.binding),
            };
            let outcome = check(actual, &want.bytes, elem);
            println!("{}", outcome.line(&label, elem, actual.len()));
            checked += 1;
            if !outcome.passed() {
                failed += 1;
            }
        }
        if checked > 0 {
            println!(
                "{}: {} of {checked} checked bindings match",
                if failed == 0 { "PASS" } else { "FAIL" },
                checked - failed
            );
        }
        Ok(if failed == 0 {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        })
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
