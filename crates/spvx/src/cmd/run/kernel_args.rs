//! Kernel (OpenCL) entry points in `spvx run`: `--arg N=SOURCE` / `[[arg]]` (buffers, local
//! memory sizes, value bytes), `--local X[,Y,Z]` / `local = [...]` (the dispatch's local
//! size), running the kernel, writing `DIR/arg.N.bin` and checking expected argument data.

use super::data::{Data, DataSpec, parse_count};
use super::elem::ElemType;
use super::expect::Tally;
use super::module::{EntryPoint, LoadedModule};
use super::output::print_summary;
use super::plan::{ExpectPlan, RunPlan};
use crate::cmd::CmdResult;
use spvx_exec::resources::{KernelArg, KernelArgInfo, KernelArgKind};
use spvx_exec::{CompiledModule, Resources};
use std::collections::BTreeMap;

/// What one kernel argument gets.
#[derive(Clone, Debug, PartialEq)]
pub enum ArgSource {
    /// Bytes: a buffer's contents, or a value's bytes (`TYPE:V` inline values).
    Data(DataSpec),
    /// `local:BYTES`: local memory of that many bytes per workgroup.
    Local(u64),
}

/// One kernel argument of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct ArgPlan {
    pub index: u32,
    pub source: ArgSource,
    pub expect: Option<ExpectPlan>,
    /// Where it was given, for messages.
    pub origin: String,
}

/// `N=SOURCE` of `--arg`: SOURCE as for `--buffer`, or `local:BYTES`.
pub fn parse_arg(text: &str) -> Result<ArgPlan, String> {
    let (n, source) = text
        .split_once('=')
        .ok_or_else(|| format!("error: --arg {text}: expected N=SOURCE, e.g. --arg 0=f32:1.5"))?;
    let index: u32 = n.trim().parse().map_err(|_| {
        format!("error: --arg {text}: '{n}' is not an argument index (0 is the first)")
    })?;
    let source = parse_source(source).map_err(|e| format!("error: --arg {text}: {e}"))?;
    Ok(ArgPlan {
        index,
        source,
        expect: None,
        origin: format!("--arg {index}"),
    })
}

/// `local:BYTES`, or a data SOURCE.
pub fn parse_source(text: &str) -> Result<ArgSource, String> {
    if let Some(n) = text.strip_prefix("local:") {
        let bytes = parse_count(n)
            .ok_or_else(|| format!("'{text}': local:BYTES needs a byte count, e.g. local:256"))?;
        return Ok(ArgSource::Local(bytes));
    }
    Ok(ArgSource::Data(DataSpec::parse_source(text)?))
}

/// `X[,Y,Z]` of `--local`: one to three sizes from 1 (missing ones are 1).
pub fn parse_local(text: &str) -> Result<[u32; 3], String> {
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() > 3 {
        return Err("at most three sizes (X,Y,Z)".into());
    }
    let mut out = [1u32; 3];
    for (slot, p) in out.iter_mut().zip(&parts) {
        let n: u32 = p
            .trim()
            .parse()
            .map_err(|_| format!("'{p}' is not a local size (a number from 1)"))?;
        if n == 0 {
            return Err("a local size of 0 has no invocations; sizes start at 1".into());
        }
        *slot = n;
    }
    Ok(out)
}

fn kind_name(kind: KernelArgKind) -> &'static str {
    match kind {
        KernelArgKind::Buffer => "__global buffer",
        KernelArgKind::ConstantBuffer => "__constant buffer",
        KernelArgKind::Local => "__local memory",
        KernelArgKind::Scalar => "value",
        KernelArgKind::ByValue => "struct passed by value",
    }
}

/// How to give an argument, for messages.
fn how(info: &KernelArgInfo) -> String {
    let i = info.index;
    match info.kind {
        KernelArgKind::Buffer | KernelArgKind::ConstantBuffer => {
            format!("--arg {i}=FILE (or zeros:BYTES, TYPE:V,V,...)")
        }
        KernelArgKind::Local => format!("--arg {i}=local:BYTES"),
        _ => format!(
            "--arg {i}=TYPE:V ({} bytes, e.g. i32:5 or f32:1.5)",
            info.size
        ),
    }
}

fn describe(info: &KernelArgInfo) -> String {
    let name = info
        .name
        .as_ref()
        .map_or_else(String::new, |n| format!(" '{n}'"));
    format!("argument {}{name} ({})", info.index, kind_name(info.kind))
}

impl RunPlan {
    /// Runs a Kernel entry point: binds the arguments, runs, writes `arg.N.bin` for buffer
    /// arguments, checks expectations.
    pub(crate) fn execute_kernel(
        &self,
        module: &LoadedModule,
        entry: &EntryPoint,
        compiled: &CompiledModule,
    ) -> CmdResult {
        if !self.buffers.is_empty() || !self.tensors.is_empty() || self.push.is_some() {
            return Err(format!(
                "error: {}: '{}' is a Kernel entry point: it takes arguments (--arg N=SOURCE or [[arg]]), not descriptor bindings or push constants",
                module.name, entry.name
            ));
        }
        let infos = compiled.kernel_args();
        let limit = self.config.memory_limit;
        let mut seen = BTreeMap::new();
        for a in &self.args {
            if let Some(first) = seen.insert(a.index, &a.origin) {
                return Err(format!(
                    "error: {}: argument {} is already given ({first})",
                    a.origin, a.index
                ));
            }
            if a.index as usize >= infos.len() {
                return Err(format!(
                    "error: {}: kernel '{}' has {} argument(s) (0 to {})",
                    a.origin,
                    entry.name,
                    infos.len(),
                    infos.len().saturating_sub(1)
                ));
            }
        }
        let mut res = Resources::new();
        res.local_size = self.local;
        let mut loaded: BTreeMap<u32, Data> = BTreeMap::new();
        for info in infos {
            let Some(a) = self.args.iter().find(|a| a.index == info.index) else {
                return Err(format!(
                    "error: {}: {} has no value; give {} or an [[arg]] entry in the run file",
                    module.name,
                    describe(info),
                    how(info)
                ));
            };
            let arg = match (&a.source, info.kind) {
                (ArgSource::Local(n), KernelArgKind::Local) => KernelArg::Local(*n),
                (ArgSource::Local(_), _) | (ArgSource::Data(_), KernelArgKind::Local) => {
                    return Err(format!(
                        "error: {}: {} takes {}",
                        a.origin,
                        describe(info),
                        how(info)
                    ));
                }
                (ArgSource::Data(d), kind) => {
                    let data = d
                        .load(&self.base, limit)
                        .map_err(|e| format!("error: {}: {e}", a.origin))?;
                    let bytes = data.bytes.clone();
                    loaded.insert(info.index, data);
                    match kind {
                        KernelArgKind::Buffer | KernelArgKind::ConstantBuffer => {
                            KernelArg::Buffer(bytes)
                        }
                        _ => {
                            if bytes.len() as u64 != info.size {
                                return Err(format!(
                                    "error: {}: {} is {} bytes, {} bytes were given",
                                    a.origin,
                                    describe(info),
                                    info.size,
                                    bytes.len()
                                ));
                            }
                            KernelArg::Scalar(bytes)
                        }
                    }
                }
            };
            res.set_arg(info.index, arg);
        }
        let local = match self.local {
            Some(l) => l,
            None => compiled.local_size(),
        };
        let report = compiled
            .run(&mut res, self.groups, &self.config)
            .map_err(|e| module.render_exec_error(&e))?;
        print_summary(module, &entry.name, self.groups, local, &report);
        if let Some(dir) = &self.out {
            write_arg_outputs(dir, &res, infos)?;
        }
        self.check_arg_expectations(&res, infos, &loaded)
    }

    fn check_arg_expectations(
        &self,
        res: &Resources,
        infos: &[KernelArgInfo],
        loaded: &BTreeMap<u32, Data>,
    ) -> CmdResult {
        let mut tally = Tally::default();
        for a in &self.args {
            let Some(expect) = &a.expect else { continue };
            let want = expect
                .data
                .load(&self.base, self.config.memory_limit)
                .map_err(|e| format!("error: {} (expected data): {e}", a.origin))?;
            let elem = expect
                .elem
                .or(want.elem)
                .or_else(|| loaded.get(&a.index).and_then(|d| d.elem))
                .unwrap_or(ElemType::U8);
            let actual = res.arg_buffer(a.index).unwrap_or(&[]);
            let name = infos
                .iter()
                .find(|i| i.index == a.index)
                .and_then(|i| i.name.clone());
            let label = match name {
                Some(n) => format!("arg {} ({n})", a.index),
                None => format!("arg {}", a.index),
            };
            tally.check(&label, actual, &want.bytes, elem);
        }
        Ok(tally.finish("arguments"))
    }
}

/// Writes every buffer argument to `dir/arg.N.bin`, creating `dir` if needed.
fn write_arg_outputs(
    dir: &std::path::Path,
    res: &Resources,
    infos: &[KernelArgInfo],
) -> Result<(), String> {
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("error: cannot create {}: {e}", dir.display()))?;
    let mut written = Vec::new();
    for info in infos {
        let Some(bytes) = res.arg_buffer(info.index) else {
            continue;
        };
        let name = format!("arg.{}.bin", info.index);
        let path = dir.join(&name);
        std::fs::write(&path, bytes)
            .map_err(|e| format!("error: cannot write {}: {e}", path.display()))?;
        written.push(name);
    }
    println!("wrote {} in {}", written.join(" "), dir.display());
    Ok(())
}
