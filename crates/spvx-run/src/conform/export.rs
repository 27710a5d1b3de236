//! Each case as files a driver team or a CTS takes as they are, in the `--amber` directory:
//!
//! - `STEM.spvasm`: the form's module (spirv-as text; `spvx as` or spirv-as, SPIR-V 1.6);
//! - `STEM.cCHUNK.amber`: an AmberScript — the device features the module needs
//!   (not for tensor forms: AmberScript has no tensor resources, so none is written)
//!   (`DEVICE_FEATURE`, and `DEVICE_EXTENSION` for the VALVE, bfloat16 and float8 extensions
//!   spvx-vk does not enable), the module (`SPIRV-ASM`, `TARGET_ENV spv1.6`), every input buffer's
//!   values, the dispatch, and an `EXPECT` for every output element whose result is defined
//!   (the engine's values; undefined elements have none);
//! - `STEM.cCHUNK.toml` with `STEM.cCHUNK.NAME.bin`: a run file for `spvx run` (inputs as raw
//!   files, the expected output as the engine computed it, undefined elements included with
//!   the engine's documented value, and listed in a comment); tensor forms' tensors as
//!   `[[tensor]]` tables with `STEM.cCHUNK.tensorBINDING.INDEX.bin`.

use super::form::{Form, Kind, Port};
use super::run::{Compiled, EngineRun, groups};
use super::tensors::{bound_of, bound_tensors};
use spvx_vk::ModuleInfo;
use spvx_vk::features::required_features;
use std::fmt::Write as _;
use std::path::Path;

/// Amber's name of a Vulkan feature (`Float16Int8Features.shaderInt8`; Vulkan 1.0 features
/// have no structure prefix).
pub fn amber_feature(name: &str) -> String {
    let prefix = match name {
        "shaderInt8" | "shaderFloat16" => "Float16Int8Features.",
        "storageBuffer8BitAccess"
        | "uniformAndStorageBuffer8BitAccess"
        | "storagePushConstant8" => "Storage8BitFeatures.",
        "storageBuffer16BitAccess"
        | "uniformAndStorageBuffer16BitAccess"
        | "storagePushConstant16"
        | "storageInputOutput16" => "Storage16BitFeatures.",
        "shaderIntegerDotProduct" => "ShaderIntegerDotProductFeatures.",
        "vulkanMemoryModel" | "vulkanMemoryModelDeviceScope" => "VulkanMemoryModelFeatures.",
        _ => "",
    };
    format!("{prefix}{name}")
}

/// The Vulkan device extensions a form needs beyond the features its capabilities map to
/// (those spvx-vk does not enable, so that no DEVICE_FEATURE names them).
fn device_extensions(form: &Form) -> Vec<&'static str> {
    use spvx_num::mixdot::Encoding;
    match &form.kind {
        Kind::IntDot(_) | Kind::Fixed(_) | Kind::Smma(_) | Kind::Tensors(_) => Vec::new(),
        Kind::MixDot(f) => {
            let mut v = vec!["VK_VALVE_shader_mixed_float_dot_product"];
            if f.enc_a == Encoding::Bf16 {
                v.push("VK_KHR_shader_bfloat16");
            }
            if matches!(f.enc_a, Encoding::E4m3 | Encoding::E5m2) {
                v.push("VK_EXT_shader_float8");
            }
            v
        }
    }
}

/// Amber's DATA_TYPE of a port: the integer types by name, floats as the unsigned integers
/// of their bits (so that EXPECT compares bits, as the verdicts do).
fn amber_type(p: &Port) -> &'static str {
    use crate::ElemType as E;
    match p.elem {
        E::U8 | E::E4m3 | E::E5m2 => "uint8",
        E::I8 => "int8",
        E::U16 | E::F16 | E::Bf16 => "uint16",
        E::I16 => "int16",
        E::U32 | E::F32 => "uint32",
        E::I32 => "int32",
        E::U64 | E::F64 => "uint64",
        E::I64 => "int64",
    }
}

/// An element's text in the script: decimal, signed for signed integer types.
fn amber_value(p: &Port, bits: u64) -> String {
    if p.elem.is_signed_int() {
        let shift = 64 - p.elem.bits();
        (((bits << shift) as i64) >> shift).to_string()
    } else {
        bits.to_string()
    }
}

/// Writes the case (form, chunk) into `dir`.
pub fn write_case(
    dir: &Path,
    form: &Form,
    c: &Compiled,
    seed: u64,
    chunk: u32,
    inputs: &[Vec<u8>],
    expected: &EngineRun,
) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let stem = form.file_stem();
    let module = dir.join(format!("{stem}.spvasm"));
    if !module.exists() {
        std::fs::write(&module, &form.asm)?;
    }
    let case = format!("{stem}.c{chunk}");
    // Amber has no tensors: a tensor form gets its run file only (docs/semantics/conform.md).
    if !matches!(form.kind, Kind::Tensors(_)) {
        std::fs::write(
            dir.join(format!("{case}.amber")),
            amber(form, c, seed, chunk, inputs, expected),
        )?;
    }
    for (b, data) in bound_tensors(form, inputs, groups_count(expected, form)) {
        std::fs::write(dir.join(tensor_file(&case, b.binding, b.index)), data)?;
    }
    for (p, bytes) in form.inputs.iter().zip(inputs) {
        std::fs::write(dir.join(format!("{case}.{}.bin", p.name)), bytes)?;
    }
    std::fs::write(
        dir.join(format!("{case}.{}.bin", form.output.name)),
        &expected.out,
    )?;
    std::fs::write(
        dir.join(format!("{case}.toml")),
        run_file(form, &stem, &case, seed, chunk, expected),
    )
}

/// The AmberScript of a case.
pub fn amber(
    form: &Form,
    c: &Compiled,
    seed: u64,
    chunk: u32,
    inputs: &[Vec<u8>],
    expected: &EngineRun,
) -> String {
    let mut s = String::from("#!amber\n");
    let _ = writeln!(
        s,
        "# spvx conform: {}, chunk {chunk}, seed {seed}. Expected values: the spvx engine.",
        form.id
    );
    if !expected.masked.is_empty() {
        let _ = writeln!(
            s,
            "# {} invocation(s) with an undefined result have no EXPECT: {:?}",
            expected.masked.len(),
            expected.masked
        );
    }
    let caps = ModuleInfo::read(&c.words, Some("main"))
        .map(|i| i.capabilities)
        .unwrap_or_default();
    // Capability by capability, so that one spvx-vk does not know (ArbitraryPrecisionIntegers)
    // does not hide the others' features; a need no Amber feature name expresses (a feature
    // of an extension below, or support no Vulkan extension exposes) is a comment.
    let mut seen: Vec<String> = Vec::new();
    for cap in &caps {
        for f in required_features(&[*cap]).unwrap_or_default() {
            if seen.contains(&f) {
                continue;
            }
            if f.contains(' ') {
                let _ = writeln!(
                    s,
                    "# The module also needs {f} (no DEVICE_FEATURE names it)."
                );
            } else {
                let _ = writeln!(s, "DEVICE_FEATURE {}", amber_feature(&f));
            }
            seen.push(f);
        }
    }
    if form.subgroup_size().is_some() {
        s += "DEVICE_FEATURE SubgroupSizeControl.subgroupSizeControl\nDEVICE_FEATURE SubgroupSizeControl.computeFullSubgroups\n";
    }
    for e in device_extensions(form) {
        let _ = writeln!(s, "DEVICE_EXTENSION {e}");
    }
    s += "\nSHADER compute conform SPIRV-ASM TARGET_ENV spv1.6\n";
    s += &form.asm;
    s += "END\n\n";
    for (p, bytes) in form.inputs.iter().zip(inputs) {
        let _ = writeln!(s, "BUFFER {} DATA_TYPE {} DATA", p.name, amber_type(p));
        let n = bytes.len() / p.elem.size();
        for row in (0..n).collect::<Vec<_>>().chunks(16) {
            let vals: Vec<String> = row
                .iter()
                .map(|&i| amber_value(p, p.elem.bits_at(bytes, i)))
                .collect();
            let _ = writeln!(s, "{}", vals.join(" "));
        }
        s += "END\n";
    }
    let out = &form.output;
    let n_out = expected.out.len() / out.elem.size();
    let _ = writeln!(
        s,
        "BUFFER {} DATA_TYPE {} SIZE {n_out} FILL 0\n",
        out.name,
        amber_type(out)
    );
    s += "PIPELINE compute pipeline\n  ATTACH conform\n";
    if let Some(n) = form.subgroup_size() {
        let _ = writeln!(
            s,
            "  SUBGROUP conform\n    FULLY_POPULATED on\n    REQUIRED_SIZE {n}\n  END"
        );
    }
    for p in form.ports() {
        let _ = writeln!(
            s,
            "  BIND BUFFER {} AS storage DESCRIPTOR_SET 0 BINDING {}",
            p.name, p.binding
        );
    }
    s += "END\n\n";
    let g = groups((n_out / out.per_invocation.max(1)) as u32);
    let _ = writeln!(s, "RUN pipeline {} {} {}\n", g[0], g[1], g[2]);
    // EXPECT lines over runs of defined elements, at most 16 values each.
    let per = out.per_invocation.max(1);
    let mut i = 0;
    while i < n_out {
        if expected.masked.contains(&((i / per) as u32)) {
            i += 1;
            continue;
        }
        let start = i;
        let mut vals = Vec::new();
        while i < n_out && vals.len() < 16 && !expected.masked.contains(&((i / per) as u32)) {
            vals.push(amber_value(out, out.elem.bits_at(&expected.out, i)));
            i += 1;
        }
        let _ = writeln!(
            s,
            "EXPECT {} IDX {} EQ {}",
            out.name,
            start * out.elem.size(),
            vals.join(" ")
        );
    }
    s
}

/// The invocations of a unit, from its expected output.
fn groups_count(expected: &EngineRun, form: &Form) -> u32 {
    let per = form.output.per_invocation.max(1) * form.output.elem.size();
    (expected.out.len() / per) as u32
}

/// The data file of tensor (binding, index) of a case.
fn tensor_file(case: &str, binding: u32, index: u32) -> String {
    format!("{case}.tensor{binding}.{index}.bin")
}

/// The run file of a case.
fn run_file(
    form: &Form,
    stem: &str,
    case: &str,
    seed: u64,
    chunk: u32,
    expected: &EngineRun,
) -> String {
    let out = &form.output;
    let n_out = expected.out.len() / out.elem.size();
    let g = groups((n_out / out.per_invocation.max(1)) as u32);
    let mut s = format!(
        "# spvx conform: {}, chunk {chunk}, seed {seed}. The expected output is the spvx engine's.\n",
        form.id
    );
    if !expected.masked.is_empty() {
        let _ = writeln!(
            s,
            "# Undefined results (the engine's documented value is expected; a device may differ) at invocations {:?}",
            expected.masked
        );
    }
    let _ = writeln!(
        s,
        "module = \"{stem}.spvasm\"\ngroups = [{}, {}, {}]",
        g[0], g[1], g[2]
    );
    if let Some(n) = form.subgroup_size() {
        let _ = writeln!(s, "\n[run]\nsubgroup_size = {n}");
    }
    for p in &form.inputs {
        let _ = writeln!(
            s,
            "\n[[buffer]]\nbinding = {}\nname = \"{}\"\ndata = {{ file = \"{case}.{}.bin\" }}",
            p.binding, p.name, p.name
        );
    }
    let n = groups_count(expected, form);
    for b in bound_of(form, n) {
        let _ = writeln!(
            s,
            "\n[[tensor]]\nbinding = {}\nindex = {}\nshape = {:?}",
            b.binding, b.index, b.shape
        );
        if let Some(st) = &b.strides {
            let _ = writeln!(s, "strides = {st:?}");
        }
        let _ = writeln!(
            s,
            "data = {{ file = \"{}\" }}",
            tensor_file(case, b.binding, b.index)
        );
    }
    let _ = writeln!(
        s,
        "\n[[buffer]]\nbinding = {}\nname = \"{}\"\ndata = {{ zeros = {} }}\nexpect = {{ file = \"{case}.{}.bin\", type = \"{}\" }}",
        out.binding,
        out.name,
        expected.out.len(),
        out.name,
        out.elem.name()
    );
    s
}
