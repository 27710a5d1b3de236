//! `run` (`spvx run`) and `diff` (`spvx diff`): a [`RunPlan`] built from the call's arguments
//! (the command-line form's fields), carried out by spvx-run's steps in the command line's
//! order; the outputs come back as `.npy` bytes of each binding's element type (as
//! `spvx run --format npy` writes them) or raw bytes where a binding has no one type.

use crate::errors::{Kind, placed, plain, raise};
use crate::module::load;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};
use spvx_exec::{JitUse, Resources, RunReport};
use spvx_run::compare::{Tolerance, Verdict};
use spvx_run::data::{Data, DataSpec};
use spvx_run::device::{Loaded, open};
use spvx_run::diagnostic::Diagnostic;
use spvx_run::diff::diff_outputs;
use spvx_run::engine::Prepared;
use spvx_run::kernel::{ArgPlan, ArgSource};
use spvx_run::module::LoadedModule;
use spvx_run::npy::view::View;
use spvx_run::npy::{read_npy, write_npy};
use spvx_run::outputs::arrays;
use spvx_run::parse::{parse_groups, parse_spec_value};
use spvx_run::{BufferPlan, ElemType, OutFormat, RunOptions, RunPlan, TensorPlan};
use spvx_spirv::asm::AsmOptions;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// One binding of the call: set, binding, element of an array (or none), where it was given
/// (`buffers[0, 1]`), and its source.
type Binding<'py> = (u32, u32, Option<u32>, String, Source<'py>);

/// Where data comes from: `("array", NPY_BYTES)` (a NumPy array: its dtype must fit the
/// binding), `("raw", BYTES)` (bytes as they are), `("source", TEXT)` (the command line's
/// SOURCE: `zeros:4096`, `f32:1,2`, a file), `("local", BYTES)` (a kernel's `__local`
/// argument).
type Source<'py> = (String, Bound<'py, PyAny>);

/// The data of a source (`origin` names it in messages).
fn data_spec(origin: &str, (kind, payload): &Source<'_>) -> PyResult<DataSpec> {
    let bad = |e: String| raise(Kind::Argument, format!("error: {origin}: {e}"));
    match kind.as_str() {
        "array" => {
            let npy = read_npy(&payload.extract::<Vec<u8>>()?).map_err(|e| bad(e.to_string()))?;
            Ok(DataSpec::Memory {
                data: Data {
                    bytes: npy.bytes,
                    elem: Some(npy.elem),
                    shape: Some(npy.shape),
                },
                label: "the array".into(),
                raw: "spvx.raw(array)".into(),
            })
        }
        "raw" => Ok(DataSpec::Memory {
            data: Data {
                bytes: payload.extract()?,
                elem: None,
                shape: None,
            },
            label: "the bytes".into(),
            raw: "spvx.raw(array)".into(),
        }),
        "source" => {
            DataSpec::parse_source(&payload.extract::<String>()?).map_err(|e| bad(e.to_string()))
        }
        other => Err(bad(format!("unknown data kind '{other}'"))),
    }
}

/// The plan of a call: the command-line form's fields, no output directory.
#[allow(clippy::too_many_arguments)]
fn plan(
    module: PathBuf,
    groups: &str,
    buffers: &[Binding<'_>],
    tensors: &[(Binding<'_>, Option<Vec<u64>>)],
    args: &[(u32, String, Source<'_>)],
    push: Option<&Source<'_>>,
    spec: &[(u32, String)],
    entry: Option<String>,
    local: Option<[u32; 3]>,
    options: &str,
    strict_bindings: bool,
) -> PyResult<RunPlan> {
    let arg = |e: String| raise(Kind::Argument, e);
    let groups = parse_groups(groups).map_err(|e| arg(format!("error: groups {groups}: {e}")))?;
    let options: RunOptions =
        serde_json::from_str(options).map_err(|e| arg(format!("error: options: {e}")))?;
    let config = options.config().map_err(|e| plain(Kind::Argument, e))?;
    let mut spec_bits = BTreeMap::new();
    for (id, text) in spec {
        let bits = parse_spec_value(text)
            .map_err(|e| arg(format!("error: spec {{{id}: {text}}}: {e}")))?;
        spec_bits.insert(*id, bits);
    }
    Ok(RunPlan {
        module,
        base: PathBuf::new(),
        entry,
        groups,
        buffers: buffers
            .iter()
            .map(|(set, binding, index, origin, source)| {
                Ok(BufferPlan {
                    set: *set,
                    binding: *binding,
                    index: *index,
                    data: data_spec(origin, source)?,
                    expect: None,
                    origin: origin.clone(),
                })
            })
            .collect::<PyResult<_>>()?,
        tensors: tensors
            .iter()
            .map(|((set, binding, index, origin, source), shape)| {
                Ok(TensorPlan {
                    set: *set,
                    binding: *binding,
                    index: *index,
                    data: data_spec(origin, source)?,
                    shape: shape.clone(),
                    strides: None,
                    expect: None,
                    origin: origin.clone(),
                })
            })
            .collect::<PyResult<_>>()?,
        push: push.map(|p| data_spec("push", p)).transpose()?,
        spec: spec_bits,
        config,
        out: None,
        out_format: OutFormat::Npy,
        args: args
            .iter()
            .map(|(index, origin, source)| {
                let source = if source.0 == "local" {
                    ArgSource::Local(source.1.extract()?)
                } else {
                    ArgSource::Data(data_spec(origin, source)?)
                };
                Ok(ArgPlan {
                    index: *index,
                    source,
                    expect: None,
                    origin: origin.clone(),
                })
            })
            .collect::<PyResult<_>>()?,
        local,
        limits: spvx_val::Limits::default(),
        strict_bindings,
    })
}

/// A buffer's bytes as `.npy` of `elem` (1-D), or as raw bytes without one type.
fn output<'py>(
    py: Python<'py>,
    elem: Option<ElemType>,
    shape: Option<&[u64]>,
    bytes: &[u8],
) -> PyResult<(&'static str, Bound<'py, PyBytes>)> {
    let Some(elem) = elem.filter(|e| bytes.len().is_multiple_of(e.size())) else {
        return Ok(("raw", PyBytes::new(py, bytes)));
    };
    let length = [(bytes.len() / elem.size()) as u64];
    let file = write_npy(elem, shape.unwrap_or(&length), bytes).map_err(|e| plain(Kind::Run, e))?;
    Ok(("npy", PyBytes::new(py, &file)))
}

/// The run's report: which engine ran, steps, undefined-behaviour events (each rendered as
/// the command line renders it, at its place in the module), DebugPrintf lines.
fn report<'py>(
    py: Python<'py>,
    module: &LoadedModule,
    entry: &str,
    r: &RunReport,
    warnings: Vec<String>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("module", &module.name)?;
    d.set_item("entry", entry)?;
    d.set_item("groups", r.groups.to_vec())?;
    d.set_item("local_size", r.local_size.to_vec())?;
    d.set_item("steps", r.steps)?;
    let (engine, note) = match &r.jit {
        JitUse::Ran => ("JIT", None),
        JitUse::FellBack(why) => (
            "interpreter",
            Some(format!("the JIT gave the run to the interpreter: {why}")),
        ),
        JitUse::Unsupported(why) => ("interpreter", Some(format!("JIT: {why}"))),
        JitUse::Off => ("interpreter", None),
    };
    d.set_item("engine", engine)?;
    d.set_item("note", note)?;
    d.set_item("total_events", r.total_events)?;
    let events: Vec<String> = r
        .events
        .iter()
        .map(|e| {
            module
                .locate(Diagnostic::warning(e.to_string()), e.instruction)
                .to_string()
        })
        .collect();
    d.set_item("events", events)?;
    let prints: Vec<String> = r.prints.iter().map(|p| p.to_string()).collect();
    d.set_item("prints", prints)?;
    d.set_item("warnings", warnings)?;
    Ok(d)
}

/// `(set, binding)`, or `(set, binding, index)` for an element of an array of buffers.
fn key<'py>(
    py: Python<'py>,
    set: u32,
    binding: u32,
    index: Option<u32>,
) -> PyResult<Bound<'py, PyTuple>> {
    match index {
        Some(i) => PyTuple::new(py, [set, binding, i]),
        None => PyTuple::new(py, [set, binding]),
    }
}

/// `spvx run` with the outputs kept: `(outputs, report)`, outputs a list of
/// `(key, kind, bytes)` with kind `npy` or `raw`.
#[pyfunction]
#[pyo3(signature = (path, data, name, groups, buffers, tensors, args, push, spec, entry, local, options, strict_bindings))]
#[allow(clippy::too_many_arguments)]
pub fn run<'py>(
    py: Python<'py>,
    path: Option<PathBuf>,
    data: Option<Vec<u8>>,
    name: &str,
    groups: &str,
    buffers: Vec<Binding<'py>>,
    tensors: Vec<(Binding<'py>, Option<Vec<u64>>)>,
    args: Vec<(u32, String, Source<'py>)>,
    push: Option<Source<'py>>,
    spec: Vec<(u32, String)>,
    entry: Option<String>,
    local: Option<[u32; 3]>,
    options: &str,
    strict_bindings: bool,
) -> PyResult<(Bound<'py, PyList>, Bound<'py, PyDict>)> {
    let module = load(path.clone(), data.as_deref(), name, &AsmOptions::default())?;
    let plan = plan(
        path.unwrap_or_else(|| PathBuf::from(name)),
        groups,
        &buffers,
        &tensors,
        &args,
        push.as_ref(),
        &spec,
        entry,
        local,
        options,
        strict_bindings,
    )?;
    let p = plan
        .prepare_module(module)
        .map_err(|e| placed(Kind::Run, e))?;
    if p.is_kernel() {
        return run_kernel(py, &plan, &p);
    }
    let mut warnings = Vec::new();
    let mut bound = plan
        .bind(&p, &mut |w| warnings.push(format!("warning: {w}")))
        .map_err(|e| placed(Kind::Run, e))?;
    let ran = p
        .run(&plan, &mut bound.resources)
        .map_err(|e| placed(Kind::Run, e))?;
    let outputs = PyList::empty(py);
    let arrays = arrays(&bound.bindings);
    for ((set, binding, index), bytes) in bound.resources.buffer_elements() {
        let index = arrays.contains(&(set, binding)).then_some(index);
        // The shape and dtype of the block type (as `--format npy`); a buffer whose type
        // has none (or that the module does not declare) comes back as its bytes.
        let view = bound
            .layouts
            .get(&(set, binding))
            .and_then(|l| View::of(l, bytes.len() as u64).ok());
        let (kind, file) = match view {
            Some(v) => (
                "npy",
                PyBytes::new(py, &v.write(bytes).map_err(|e| plain(Kind::Run, e))?),
            ),
            None => output(py, None, None, bytes)?,
        };
        outputs.append((key(py, set, binding, index)?, kind, file))?;
    }
    for t in plan.tensor_outputs(&bound.bindings, &bound.inputs) {
        let Some(tensor) = bound
            .resources
            .tensor_element(t.set, t.binding, t.index.unwrap_or(0))
        else {
            continue;
        };
        let shape = t.packed.then_some(tensor.shape.as_slice());
        let (kind, file) = match shape {
            Some(s) => output(py, Some(t.elem), Some(s), &tensor.data)?,
            None => output(py, None, None, &tensor.data)?,
        };
        outputs.append((key(py, t.set, t.binding, t.index)?, kind, file))?;
    }
    let report = report(py, &p.module, &p.entry.name, &ran, warnings)?;
    Ok((outputs, report))
}

/// A Kernel entry point: its buffer arguments' bytes after the run, keyed by argument index.
fn run_kernel<'py>(
    py: Python<'py>,
    plan: &RunPlan,
    p: &Prepared,
) -> PyResult<(Bound<'py, PyList>, Bound<'py, PyDict>)> {
    let mut bound = plan.bind_kernel(p).map_err(|e| plain(Kind::Run, e))?;
    let ran = p
        .run(plan, &mut bound.resources)
        .map_err(|e| placed(Kind::Run, e))?;
    let outputs = PyList::empty(py);
    for info in &bound.params {
        if let Some(bytes) = bound.resources.arg_buffer(info.index) {
            let elem = bound.inputs.get(&info.index).and_then(|d| d.elem);
            let (kind, file) = output(py, elem, None, bytes)?;
            outputs.append((info.index, kind, file))?;
        }
    }
    let report = report(py, &p.module, &p.entry.name, &ran, Vec::new())?;
    Ok((outputs, report))
}

/// One binding's comparison, as a dict.
fn binding_diff<'py>(
    py: Python<'py>,
    d: &spvx_run::diff::BindingDiff,
    r: &RunReport,
) -> PyResult<Bound<'py, PyDict>> {
    let c = &d.comparison;
    let out = PyDict::new(py);
    out.set_item(
        "key",
        key(py, d.set, d.binding, d.is_array.then_some(d.index))?,
    )?;
    out.set_item("label", &d.label)?;
    out.set_item("type", d.elem.to_string())?;
    out.set_item("elements", c.elements)?;
    out.set_item("mismatches", c.mismatches)?;
    out.set_item("undefined", c.undefined)?;
    out.set_item("within_ulps", c.within_ulps)?;
    out.set_item("lengths", c.lengths)?;
    out.set_item("passed", c.passed())?;
    let listed = PyList::empty(py);
    for x in &c.listed {
        let e = PyDict::new(py);
        e.set_item("index", x.index)?;
        e.set_item("byte", x.byte)?;
        e.set_item("engine", d.elem.display(x.expected))?;
        e.set_item("device", d.elem.display(x.actual))?;
        let verdict = match x.verdict {
            Verdict::Mismatch => "mismatch".to_string(),
            Verdict::NanPayload => "undefined (NaN payload)".to_string(),
            Verdict::WithinUlps(n) => format!("{n} ULPs apart"),
        };
        e.set_item("verdict", verdict)?;
        let writer = match r.writer_of(d.set, d.binding, x.byte) {
            _ if d.is_array => None,
            w => w.map(|w| w.to_string()),
        };
        e.set_item("writer", writer)?;
        listed.append(e)?;
    }
    out.set_item("listed", listed)?;
    Ok(out)
}

/// `spvx diff`: the plan on the engine and on a Vulkan device, every output compared.
/// Returns `(bindings, report)`: one dict per compared binding, the engine's report with the
/// device's name.
#[pyfunction]
#[pyo3(signature = (path, data, name, groups, buffers, tensors, push, spec, entry, options, strict_bindings, device, ulps, types, show))]
#[allow(clippy::too_many_arguments)]
pub fn diff<'py>(
    py: Python<'py>,
    path: Option<PathBuf>,
    data: Option<Vec<u8>>,
    name: &str,
    groups: &str,
    buffers: Vec<Binding<'py>>,
    tensors: Vec<(Binding<'py>, Option<Vec<u64>>)>,
    push: Option<Source<'py>>,
    spec: Vec<(u32, String)>,
    entry: Option<String>,
    options: &str,
    strict_bindings: bool,
    device: &str,
    ulps: u64,
    types: Vec<((u32, u32), String)>,
    show: usize,
) -> PyResult<(Bound<'py, PyList>, Bound<'py, PyDict>)> {
    let module = load(path.clone(), data.as_deref(), name, &AsmOptions::default())?;
    let subgroup_given = serde_json::from_str::<RunOptions>(options)
        .ok()
        .and_then(|o| o.subgroup_size)
        .is_some();
    let mut plan = plan(
        path.unwrap_or_else(|| PathBuf::from(name)),
        groups,
        &buffers,
        &tensors,
        &[],
        push.as_ref(),
        &spec,
        entry,
        None,
        options,
        strict_bindings,
    )?;
    let mut as_types = BTreeMap::new();
    for ((set, binding), t) in types {
        let elem = ElemType::from_name(&t).ok_or_else(|| {
            raise(
                Kind::Argument,
                format!(
                    "error: types {{({set}, {binding}): {t}}}: TYPE is one of {}",
                    ElemType::names()
                ),
            )
        })?;
        as_types.insert((set, binding), elem);
    }
    let mut warnings = Vec::new();
    let loaded = Loaded::load_module(&plan, module, &mut |w| {
        warnings.push(format!("warning: {w}"))
    })
    .map_err(|e| placed(Kind::Run, e))?;
    let compiled = loaded.compiled.as_ref().map_err(|e| placed(Kind::Run, e))?;
    let runner = open(device).map_err(|e| plain(Kind::Device, e))?;
    if !subgroup_given {
        plan.config.subgroup_size = runner.report().subgroup_size;
    }
    let mut res: Resources = loaded.resources();
    let config = spvx_exec::RunConfig {
        track_writers: true,
        ..plan.config.clone()
    };
    let ran = compiled
        .run(&mut res, plan.groups, &config)
        .map_err(|e| placed(Kind::Run, loaded.module.placed(e)))?;
    let out = loaded
        .run_on(&runner, &plan)
        .map_err(|e| plain(Kind::Device, e))?;
    let tolerance = Tolerance::between_implementations(ulps);
    let diffs = diff_outputs(&plan, &loaded, &res, &out, &as_types, tolerance, show);
    let list = PyList::empty(py);
    for d in &diffs {
        list.append(binding_diff(py, d, &ran)?)?;
    }
    let report = report(py, &loaded.module, &loaded.entry, &ran, warnings)?;
    report.set_item("device", out.device.to_string())?;
    report.set_item("subgroup_size", plan.config.subgroup_size)?;
    Ok((list, report))
}
