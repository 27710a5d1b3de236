//! `spvx devices`: the Vulkan devices the loader lists (index, name, driver, Vulkan version,
//! the features and properties that matter to spvx's extensions), as text or JSON; `--profiles`
//! lists the vendor profiles. Also the one place the device options (`--device`,
//! `--device-index`, `--device-name`) become a device choice. Printing only.

use crate::cmd::{CmdResult, error};
use serde_json::{Value, json};
use spvx_vk::{DeviceReport, Listed};
use std::process::ExitCode;

/// List the Vulkan devices with the features and properties spvx uses (and the profiles).
#[derive(clap::Args)]
pub struct DevicesArgs {
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// List the vendor profiles (`--profile NAME`) with their sources instead.
    #[arg(long)]
    pub profiles: bool,
}

/// The device choice of `--device vulkan[:NAME]`, `--device-index N`, `--device-name TEXT` as
/// spvx-run's `device::open` takes it (`vulkan#N` for an index); None when none is given.
pub fn choice(
    device: Option<&str>,
    index: Option<u32>,
    name: Option<&str>,
) -> Result<Option<String>, String> {
    Ok(match (device, index, name) {
        (_, Some(i), None) => Some(format!("vulkan#{i}")),
        (_, None, Some("")) => {
            return Err("error: --device-name: give some text of the device's name".into());
        }
        (_, None, Some(n)) => Some(format!("vulkan:{n}")),
        (d, None, None) => d.map(str::to_string),
        (_, Some(_), Some(_)) => {
            return Err("error: give either --device-index or --device-name".into());
        }
    })
}

fn features(r: &DeviceReport) -> Vec<(&'static str, bool)> {
    let f = &r.features;
    vec![
        ("shaderInt8", f.shader_int8),
        ("shaderInt16", f.shader_int16),
        ("shaderInt64", f.shader_int64),
        ("shaderFloat16", f.shader_float16),
        ("shaderFloat64", f.shader_float64),
        ("storageBuffer8BitAccess", f.storage_buffer_8bit_access),
        ("storageBuffer16BitAccess", f.storage_buffer_16bit_access),
        ("shaderIntegerDotProduct", f.shader_integer_dot_product),
        ("shaderBFloat16Type", f.shader_bfloat16_type),
        ("shaderBFloat16DotProduct", f.shader_bfloat16_dot_product),
        ("shaderFloat8", f.shader_float8),
        (
            "shaderMixedFloatDotProductFloat16AccFloat32",
            f.mixed_dot_f16_acc32,
        ),
        (
            "shaderMixedFloatDotProductFloat16AccFloat16",
            f.mixed_dot_f16_acc16,
        ),
        (
            "shaderMixedFloatDotProductBFloat16Acc",
            f.mixed_dot_bf16_acc,
        ),
        (
            "shaderMixedFloatDotProductFloat8AccFloat32",
            f.mixed_dot_fp8_acc32,
        ),
        ("tensors (VK_ARM_tensors)", f.tensors),
        ("subgroupSizeControl", f.subgroup_size_control),
        ("computeFullSubgroups", f.compute_full_subgroups),
        ("vulkanMemoryModel", f.vulkan_memory_model),
        ("robustBufferAccess2", f.robust_buffer_access2),
    ]
}

fn to_json(r: &DeviceReport) -> Value {
    let p = &r.properties;
    json!({
        "index": r.index,
        "name": r.name,
        "type": r.device_type,
        "driver": r.driver_name,
        "driver_info": r.driver_info,
        "api_version": r.api_version,
        "subgroup_size": r.subgroup_size,
        "min_subgroup_size": p.min_subgroup_size,
        "max_subgroup_size": p.max_subgroup_size,
        "compute_required_subgroup_size": p.compute_required_subgroup_size,
        "features": features(r).into_iter().map(|(n, v)| (n.to_string(), Value::Bool(v))).collect::<serde_json::Map<_, _>>(),
        "integer_dot_product_accelerated": p.integer_dot_accelerated.iter().map(|(n, v)| (format!("integerDotProduct{n}"), Value::Bool(*v))).collect::<serde_json::Map<_, _>>(),
        "extensions": p.extensions,
    })
}

fn print_text(r: &DeviceReport) {
    let p = &r.properties;
    println!(
        "{}: {} ({}; driver {} {}; Vulkan {})",
        r.index, r.name, r.device_type, r.driver_name, r.driver_info, r.api_version
    );
    println!(
        "  subgroup size {} (min {}, max {}{})",
        r.subgroup_size,
        p.min_subgroup_size,
        p.max_subgroup_size,
        if p.compute_required_subgroup_size {
            ", required size in compute"
        } else {
            ""
        }
    );
    let (on, off): (Vec<_>, Vec<_>) = features(r).into_iter().partition(|(_, v)| *v);
    let names = |v: Vec<(&str, bool)>| v.into_iter().map(|(n, _)| n).collect::<Vec<_>>().join(", ");
    println!("  features: {}", names(on));
    println!("  not supported: {}", names(off));
    let acc: Vec<&str> = p
        .integer_dot_accelerated
        .iter()
        .filter(|(_, v)| *v)
        .map(|(n, _)| *n)
        .collect();
    println!(
        "  integer dot product accelerated: {}",
        if acc.is_empty() {
            "none".to_string()
        } else {
            acc.join(", ")
        }
    );
    if !p.extensions.is_empty() {
        println!("  extensions: {}", p.extensions.join(", "));
    }
}

/// A profile's DPAS setting in words.
fn dpas_setting(d: &spvx_exec::DpasConfig) -> String {
    let platform = d
        .platform
        .map_or("by subgroup size".to_string(), |p| p.to_string());
    format!(
        "OpSubgroupMatrixMultiplyAccumulateINTEL as DPAS of {platform}, float model {:?}",
        d.options.model
    )
}

pub fn run(args: DevicesArgs) -> CmdResult {
    if args.profiles {
        for p in spvx_run::profile::PROFILES {
            if args.json {
                continue;
            }
            println!("{}: {}", p.name, p.hardware);
            if let Some(m) = &p.mixdot {
                println!("  sets: VALVE mixed dot model {m:?}");
            }
            if let Some(d) = &p.dpas {
                println!("  sets: {}", dpas_setting(d));
            }
            println!("  confirmed: {}", p.confirmed);
            if !p.unconfirmed.is_empty() {
                println!("  unconfirmed: {}", p.unconfirmed);
            }
            println!("  sources: {}", p.sources);
        }
        if args.json {
            let v: Vec<Value> = spvx_run::profile::PROFILES
                .iter()
                .map(|p| {
                    json!({"name": p.name, "hardware": p.hardware, "confirmed": p.confirmed,
                           "unconfirmed": p.unconfirmed, "sources": p.sources,
                           "mixdot": p.mixdot.map(|m| format!("{m:?}")),
                           "dpas": p.dpas.as_ref().map(dpas_setting)})
                })
                .collect();
            println!("{}", serde_json::to_string_pretty(&v).map_err(error)?);
        }
        return Ok(ExitCode::SUCCESS);
    }
    let listed = spvx_vk::device::list().map_err(error)?;
    if args.json {
        let v: Vec<Value> = listed
            .iter()
            .map(|l| match l {
                Listed::Usable(r) => to_json(r),
                Listed::Unusable {
                    index,
                    name,
                    reason,
                } => json!({"index": index, "name": name, "unusable": reason}),
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&v).map_err(error)?);
        return Ok(ExitCode::SUCCESS);
    }
    if listed.is_empty() {
        println!("no Vulkan devices");
    }
    for l in &listed {
        match l {
            Listed::Usable(r) => print_text(r),
            Listed::Unusable {
                index,
                name,
                reason,
            } => println!("{index}: {name} (not usable by spvx: {reason})"),
        }
    }
    Ok(ExitCode::SUCCESS)
}
