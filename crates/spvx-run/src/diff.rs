//! Engine against device (`spvx diff`): every output binding of the two runs compared with
//! [`crate::compare`] in the element type that best describes it — the one asked for, else its
//! expected data's, else its input data's, else the scalar type of its block in the module,
//! else u8 — bit for bit ([`diff_outputs`]) or, in addition, element by element under the
//! specification's freedoms ([`diff_outputs_judged`], [`crate::compare::SpecJudge`]).

use crate::ElemType;
use crate::compare::{Comparison, SpecComparison, SpecJudge, Tolerance, compare};
use crate::device::Loaded;
use crate::plan::RunPlan;
use spvx_exec::Resources;
use spvx_vk::{ModuleInfo, VkOutputs};
use std::collections::BTreeMap;

/// set, binding, element, the device's bytes, the engine's bytes.
type Output<'a> = (u32, u32, u32, &'a [u8], Option<&'a [u8]>);

/// One output binding compared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BindingDiff {
    pub set: u32,
    pub binding: u32,
    /// The element of an array of buffers (0 otherwise).
    pub index: u32,
    /// True when the binding is an array of buffers.
    pub is_array: bool,
    /// `0.1 (name)`, `0.2[1]`.
    pub label: String,
    /// The type the bytes were compared as.
    pub elem: ElemType,
    /// The engine's bytes as expected, the device's as actual.
    pub comparison: Comparison,
    /// The same bytes judged under the specification's freedoms ([`diff_outputs_judged`];
    /// None from [`diff_outputs`]).
    pub spec: Option<SpecComparison>,
}

/// Compares every output the device returned (buffers, elements of arrays of buffers, then
/// tensors with their whole byte layout) with the engine's `engine`; `types` are the types
/// asked for by (set, binding), `max_listed` bounds each binding's listed differences.
pub fn diff_outputs(
    plan: &RunPlan,
    loaded: &Loaded,
    engine: &Resources,
    device: &VkOutputs,
    types: &BTreeMap<(u32, u32), ElemType>,
    tolerance: Tolerance,
    max_listed: usize,
) -> Vec<BindingDiff> {
    diff_with(
        plan, loaded, engine, device, types, tolerance, None, max_listed,
    )
}

/// As [`diff_outputs`], each binding also judged by `judge` ([`BindingDiff::spec`]).
#[allow(clippy::too_many_arguments)]
pub fn diff_outputs_judged(
    plan: &RunPlan,
    loaded: &Loaded,
    engine: &Resources,
    device: &VkOutputs,
    types: &BTreeMap<(u32, u32), ElemType>,
    tolerance: Tolerance,
    judge: &SpecJudge,
    max_listed: usize,
) -> Vec<BindingDiff> {
    diff_with(
        plan,
        loaded,
        engine,
        device,
        types,
        tolerance,
        Some(judge),
        max_listed,
    )
}

#[allow(clippy::too_many_arguments)]
fn diff_with(
    plan: &RunPlan,
    loaded: &Loaded,
    engine: &Resources,
    device: &VkOutputs,
    types: &BTreeMap<(u32, u32), ElemType>,
    tolerance: Tolerance,
    judge: Option<&SpecJudge>,
    max_listed: usize,
) -> Vec<BindingDiff> {
    let reflected = ModuleInfo::read(&loaded.module.words(), Some(&loaded.entry)).ok();
    let inputs = loaded.input_types();
    let arrays = loaded.arrays();
    let outputs: Vec<Output> = device
        .buffers
        .iter()
        .map(|b| {
            let engine = engine.buffer(b.set, b.binding);
            (b.set, b.binding, 0, b.bytes.as_slice(), engine)
        })
        .chain(device.elements.iter().map(|e| {
            let engine = engine.buffer_element(e.set, e.binding, e.index);
            (e.set, e.binding, e.index, e.bytes.as_slice(), engine)
        }))
        .chain(device.tensors.iter().map(|t| {
            let engine = engine.tensor(t.set, t.binding).map(|e| e.data.as_slice());
            (t.set, t.binding, 0, t.bytes.as_slice(), engine)
        }))
        .collect();
    outputs
        .into_iter()
        .map(|(set, binding, index, device_bytes, engine_bytes)| {
            let key = (set, binding);
            let is_array = arrays.contains(&key);
            let plan_buf = plan.buffers.iter().find(|p| (p.set, p.binding) == key);
            let elem = types
                .get(&key)
                .copied()
                .or_else(|| {
                    plan_buf
                        .and_then(|p| p.expect.as_ref())
                        .and_then(|e| e.elem)
                })
                .or_else(|| inputs.get(&key).and_then(|d| d.elem))
                .or_else(|| {
                    reflected
                        .as_ref()
                        .and_then(|r| r.binding(set, binding))
                        .and_then(|d| d.element)
                })
                .unwrap_or(ElemType::U8);
            let comparison = compare(
                engine_bytes.unwrap_or(&[]),
                device_bytes,
                elem,
                tolerance,
                max_listed,
            );
            let spec = judge.map(|j| {
                j.compare(
                    (set, binding, index),
                    elem,
                    engine_bytes.unwrap_or(&[]),
                    device_bytes,
                    max_listed,
                )
            });
            let name = loaded
                .bindings
                .iter()
                .find(|i| (i.set, i.binding) == key)
                .and_then(|i| i.name.clone())
                .filter(|n| !n.is_empty())
                .map_or_else(String::new, |n| format!(" ({n})"));
            let element = if is_array {
                format!("[{index}]")
            } else {
                String::new()
            };
            BindingDiff {
                set,
                binding,
                index,
                is_array,
                label: format!("{set}.{binding}{element}{name}"),
                elem,
                comparison,
                spec,
            }
        })
        .collect()
}

/// Writes both runs' outputs ([`crate::outputs::write_outputs`], in the plan's format) to
/// `dir/engine` and `dir/device`: `(directory, names written)` for each.
pub fn write_both(
    plan: &RunPlan,
    loaded: &Loaded,
    engine: &Resources,
    device: &VkOutputs,
    dir: &std::path::Path,
) -> Result<Vec<(std::path::PathBuf, Vec<String>)>, crate::outputs::OutputError> {
    let layouts = loaded.module.buffer_layouts();
    let arrays = loaded.arrays();
    let tensors = plan.tensor_outputs(&loaded.bindings, &loaded.inputs());
    let mut device = crate::device::output_resources(device.clone());
    loaded.add_unbound(&mut device);
    let mut out = Vec::new();
    for (side, res) in [("engine", engine), ("device", &device)] {
        let d = dir.join(side);
        let names =
            crate::outputs::write_outputs(&d, res, &arrays, &tensors, plan.out_format, &layouts)?;
        out.push((d, names));
    }
    Ok(out)
}
