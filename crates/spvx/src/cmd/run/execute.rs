//! `spvx run` on the engine: the plan's steps (spvx-run's `engine` and `kernel`) in order,
//! each one's outcome printed as it happens.

use super::output::{finish, print_check, print_summary, print_written};
use crate::cmd::{CmdResult, error, report};
use spvx_run::RunPlan;
use spvx_run::engine::Prepared;

/// Runs the plan and reports. Exit status 0 when the run succeeded and every expectation
/// passed, 1 otherwise.
pub fn execute(plan: &RunPlan, print: bool) -> CmdResult {
    let p = plan.prepare().map_err(report)?;
    if p.is_kernel() {
        if print {
            return Err(
                "error: --print shows descriptor bindings; a Kernel entry point's buffer arguments are written with --out".to_string(),
            );
        }
        return execute_kernel(plan, &p);
    }
    let mut bound = plan
        .bind(&p, &mut |w| eprintln!("warning: {w}"))
        .map_err(report)?;
    let ran = p.run(plan, &mut bound.resources).map_err(report)?;
    print_summary(
        &p.module,
        &p.entry.name,
        plan.groups,
        p.compiled.local_size(),
        &ran,
    );
    if print {
        for (label, array) in bound.shown_outputs() {
            println!("{label} = {array}");
        }
    }
    if let Some(dir) = &plan.out {
        let names = bound.write_outputs(plan, dir).map_err(error)?;
        print_written(&names, dir);
    }
    let tally = bound
        .check_expectations(plan, &mut print_check)
        .map_err(error)?;
    Ok(finish(tally, "bindings"))
}

/// A Kernel entry point: binds the arguments, runs, writes `arg.N.bin` for buffer arguments,
/// checks expectations.
fn execute_kernel(plan: &RunPlan, p: &Prepared) -> CmdResult {
    let mut bound = plan.bind_kernel(p).map_err(error)?;
    let local = p.local_size(plan);
    let ran = p.run(plan, &mut bound.resources).map_err(report)?;
    print_summary(&p.module, &p.entry.name, plan.groups, local, &ran);
    if let Some(dir) = &plan.out {
        let names = bound.write_outputs(plan, dir).map_err(error)?;
        print_written(&names, dir);
    }
    let tally = bound
        .check_expectations(plan, &mut print_check)
        .map_err(error)?;
    Ok(finish(tally, "arguments"))
}
