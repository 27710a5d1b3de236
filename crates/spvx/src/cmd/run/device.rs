//! `spvx run --device vulkan[:NAME]`: the same run on a Vulkan device (spvx-run's `device`),
//! each step printed.

use super::output::{finish, print_check, print_written};
use crate::cmd::{CmdResult, error, report};
use spvx_run::RunPlan;
use spvx_run::device::{Loaded, open, output_resources};
use spvx_run::outputs::write_outputs;

/// Runs the plan on the device (requiring `subgroup_size`, `--subgroup-size`, when given),
/// prints a summary, writes outputs and checks expectations.
pub fn execute(plan: &RunPlan, device: &str, subgroup_size: Option<u32>) -> CmdResult {
    let loaded = Loaded::load(plan, &mut |w| eprintln!("warning: {w}")).map_err(report)?;
    let runner = open(device).map_err(error)?;
    let out = loaded
        .run_on_with(&runner, plan, subgroup_size)
        .map_err(error)?;
    let [x, y, z] = plan.groups;
    println!(
        "ran '{}' of {} on {}: {x}x{y}x{z} workgroups",
        loaded.entry, loaded.module.name, out.device
    );
    let mut res = output_resources(out);
    loaded.add_unbound(&mut res);
    if let Some(dir) = &plan.out {
        let names = write_outputs(
            dir,
            &res,
            &loaded.arrays(),
            &[],
            plan.out_format,
            &loaded.module.buffer_layouts(),
        )
        .map_err(error)?;
        print_written(&names, dir);
    }
    let tally = plan
        .check_expectations(
            &res,
            &loaded.bindings,
            &loaded.inputs(),
            &loaded.element_types,
            &mut print_check,
        )
        .map_err(error)?;
    Ok(finish(tally, "bindings"))
}
