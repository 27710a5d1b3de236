//! Running one unit (a chunk of a form): on the engine — the interpreter gives the expected
//! values and reports the elements whose result is undefined; the default engine (JIT where it
//! applies, rayon) is what the engine target checks — or on a Vulkan device through spvx-vk.

use super::form::{Form, Kind, LOCAL};
use super::tensors::bound_tensors;
use spvx_exec::{CompileOptions, CompiledModule, Resources, RunConfig, Tensor};
use spvx_spirv::asm::{AsmOptions, assemble};
use spvx_vk::{BufferData, ModuleInfo, TensorData, VkError, VkRun, VkRunner};
use std::collections::BTreeSet;

/// A form's module, assembled and compiled once for all its chunks.
pub struct Compiled {
    pub words: Vec<u32>,
    pub engine: CompiledModule,
}

/// Assembles and compiles a form's module; the message names the form.
pub fn compile(form: &Form) -> Result<Compiled, String> {
    let words = assemble(&form.asm, &AsmOptions::default())
        .map_err(|e| format!("{}: the generated module does not assemble: {e}", form.id))?
        .words();
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let engine = CompiledModule::from_bytes(&bytes, "main", &CompileOptions::default())
        .map_err(|e| format!("{}: the engine does not compile the module: {e}", form.id))?;
    Ok(Compiled { words, engine })
}

/// An engine run of a unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineRun {
    /// The output binding's bytes.
    pub out: Vec<u8>,
    /// Invocations (indices in the chunk) that met undefined behaviour: their outputs are
    /// not compared.
    pub masked: BTreeSet<u32>,
    /// Tensor forms: each bound tensor's bytes after the run, in the order of
    /// [`super::tensors::bound_of`] (empty for other forms).
    pub tensors: Vec<Vec<u8>>,
}

/// The workgroups of a unit of `count` invocations (a multiple of [`LOCAL`]).
pub fn groups(count: u32) -> [u32; 3] {
    [count.div_ceil(LOCAL), 1, 1]
}

/// The resources of a unit: each input's bytes, the output zeroed.
fn resources(form: &Form, inputs: &[Vec<u8>], count: u32) -> Resources {
    let mut res = Resources::new();
    for (p, bytes) in form.inputs.iter().zip(inputs) {
        res.set_buffer(0, p.binding, bytes.clone());
    }
    let out_len = count as usize * form.output.per_invocation * form.output.elem.size();
    res.set_buffer(0, form.output.binding, vec![0; out_len]);
    // Tensor forms: each bound tensor (its data follows the ports' bytes in `inputs`).
    for (b, data) in bound_tensors(form, inputs, count) {
        let tensor = Tensor {
            shape: b.shape,
            strides: b.strides,
            data: data.to_vec(),
        };
        res.set_tensor_element(0, b.binding, b.index, tensor);
    }
    res
}

/// Runs a unit on the engine. `reference` runs the interpreter on one thread and records
/// every undefined-behaviour event (the expected values); otherwise the default engine runs.
pub fn run_engine(
    c: &Compiled,
    form: &Form,
    inputs: &[Vec<u8>],
    count: u32,
    reference: bool,
) -> Result<EngineRun, String> {
    run_engine_with(c, form, inputs, count, reference, &RunConfig::default())
}

/// [`run_engine`] with the engine settings of `base` (a vendor profile's, `--profile`).
pub fn run_engine_with(
    c: &Compiled,
    form: &Form,
    inputs: &[Vec<u8>],
    count: u32,
    reference: bool,
    base: &RunConfig,
) -> Result<EngineRun, String> {
    let mut res = resources(form, inputs, count);
    let cfg = RunConfig {
        max_events: count as usize,
        jit: !reference,
        threads: if reference { Some(1) } else { None },
        ..base.clone()
    };
    let cfg = match form.subgroup_size() {
        Some(n) => RunConfig {
            subgroup_size: n,
            ..cfg
        },
        None => cfg,
    };
    let report = c
        .engine
        .run(&mut res, groups(count), &cfg)
        .map_err(|e| format!("{}: the engine's run failed: {e}", form.id))?;
    let masked = report
        .events
        .iter()
        .filter(|e| masks(form, &e.kind))
        .map(|e| e.invocation[0])
        .collect();
    let out = res
        .buffer(0, form.output.binding)
        .map(<[u8]>::to_vec)
        .unwrap_or_default();
    let tensors = super::tensors::bound_of(form, count)
        .iter()
        .map(|b| {
            res.tensor_element(0, b.binding, b.index)
                .map(|t| t.data.clone())
                .unwrap_or_default()
        })
        .collect();
    Ok(EngineRun {
        out,
        masked,
        tensors,
    })
}

/// Whether an undefined-behaviour event masks its invocation's output: every event does, but
/// for fixed point only the inputs the spec itself calls undefined ([`super::fixed::masks`]).
fn masks(form: &Form, kind: &spvx_exec::UbKind) -> bool {
    match &form.kind {
        Kind::Fixed(_) => super::fixed::masks(kind),
        _ => true,
    }
}

/// A reason naming a capability by its ALTERA name (the grammar's, for the FPGA extensions
/// Intel renamed) also gives the INTEL name the extensions' texts use.
fn intel_alias(reason: &str) -> String {
    match reason.strip_prefix("capability ") {
        Some(cap) if cap.ends_with("ALTERA") => {
            format!("{reason} = {}", cap.replace("ALTERA", "INTEL"))
        }
        _ => reason.to_string(),
    }
}

/// Why a device gave no result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeviceFailure {
    /// The device lacks a feature or property the module needs (named).
    Unsupported(String),
    /// Anything else (a Vulkan call failed, a limit, a timeout).
    Error(String),
}

/// Runs a unit on a Vulkan device; the output binding's bytes.
pub fn run_device(
    runner: &VkRunner,
    c: &Compiled,
    form: &Form,
    inputs: &[Vec<u8>],
    count: u32,
) -> Result<Vec<u8>, DeviceFailure> {
    run_device_with_tensors(runner, c, form, inputs, count).map(|(out, _)| out)
}

/// Runs a unit on a Vulkan device; the output binding's bytes and each bound tensor's bytes
/// after the run (tensor forms; in the order of [`super::tensors::bound_of`]).
pub fn run_device_with_tensors(
    runner: &VkRunner,
    c: &Compiled,
    form: &Form,
    inputs: &[Vec<u8>],
    count: u32,
) -> Result<(Vec<u8>, Vec<Vec<u8>>), DeviceFailure> {
    let mut buffers: Vec<BufferData> = form
        .inputs
        .iter()
        .zip(inputs)
        .map(|(p, bytes)| BufferData {
            set: 0,
            binding: p.binding,
            bytes: bytes.clone(),
        })
        .collect();
    let out_len = count as usize * form.output.per_invocation * form.output.elem.size();
    buffers.push(BufferData {
        set: 0,
        binding: form.output.binding,
        bytes: vec![0; out_len],
    });
    let tensors: Vec<TensorData> = bound_tensors(form, inputs, count)
        .into_iter()
        .map(|(b, data)| TensorData {
            set: 0,
            binding: b.binding,
            index: b.index,
            shape: b.shape,
            strides: b.strides,
            bytes: data.to_vec(),
        })
        .collect();
    let mut run = VkRun {
        words: c.words.clone(),
        entry: Some("main".to_string()),
        groups: groups(count),
        buffers,
        ..VkRun::default()
    };
    let map = |e: VkError| match e {
        VkError::MissingFeature {
            missing, reason, ..
        } => DeviceFailure::Unsupported(format!("{missing} ({})", intel_alias(&reason))),
        VkError::UnknownCapability(c) => DeviceFailure::Unsupported(format!(
            "capability {c}: no Vulkan feature spvx-vk knows exposes it"
        )),
        other => DeviceFailure::Error(other.to_string()),
    };
    if let Some(n) = form.subgroup_size() {
        // The capabilities first (what the device lacks is named as for any form), then
        // the subgroup size, which the run requires (VK_EXT_subgroup_size_control).
        let info = ModuleInfo::read(&c.words, Some("main")).map_err(map)?;
        runner.check(&info).map_err(map)?;
        run.subgroup_size = Some(n);
    }
    // A form spvx-vk cannot bind: what the device lacks first (so that a device without
    // VK_ARM_tensors is named as such), then the reason.
    if let Kind::Tensors(t) = &form.kind
        && let Some(missing) = t.device_refusal()
    {
        let info = ModuleInfo::read(&c.words, Some("main")).map_err(map)?;
        runner.check(&info).map_err(map)?;
        return Err(DeviceFailure::Unsupported(missing));
    }
    let out = runner.run_with_tensors(&run, &tensors).map_err(map)?;
    let got_tensors = out.tensors.into_iter().map(|t| t.bytes).collect();
    out.buffers
        .into_iter()
        .find(|b| b.binding == form.output.binding)
        .map(|b| (b.bytes, got_tensors))
        .ok_or_else(|| DeviceFailure::Error("the device run returned no output buffer".into()))
}
