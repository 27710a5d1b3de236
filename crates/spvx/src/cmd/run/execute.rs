//! `spvx run` on the engine: the plan's steps (spvx-run's `engine` and `kernel`) in order,
//! each one's outcome printed as it happens.

use super::output::{finish, print_check, print_summary, print_written};
use crate::cmd::{CmdResult, error, report};
use spvx_run::RunPlan;
use spvx_run::engine::Prepared;
use std::time::Instant;

/// The steps' durations (`--timings`), printed on standard error when asked.
struct Timings {
    on: bool,
    start: Instant,
    last: Instant,
    steps: Vec<(&'static str, f64)>,
}

impl Timings {
    fn new(on: bool) -> Timings {
        let now = Instant::now();
        Timings {
            on,
            start: now,
            last: now,
            steps: Vec::new(),
        }
    }

    /// Ends step `name` now.
    fn step(&mut self, name: &'static str) {
        let now = Instant::now();
        self.steps
            .push((name, now.duration_since(self.last).as_secs_f64() * 1e3));
        self.last = now;
    }

    fn print(&self) {
        if !self.on {
            return;
        }
        let steps: Vec<String> = self
            .steps
            .iter()
            .map(|(n, ms)| format!("{n} {ms:.2} ms"))
            .collect();
        eprintln!(
            "timings: {}; total {:.2} ms (after argument parsing)",
            steps.join(", "),
            self.start.elapsed().as_secs_f64() * 1e3
        );
        use spvx_exec::jit::code_cache;
        let (reused, compiled) = code_cache::counts();
        if let Some(dir) = code_cache::dir()
            && reused + compiled > 0
        {
            eprintln!(
                "JIT code cache ({}): {reused} of {} functions reused, {compiled} compiled",
                dir.display(),
                reused + compiled
            );
        }
    }
}

/// Runs the plan and reports. Exit status 0 when the run succeeded and every expectation
/// passed, 1 otherwise. `timings`: print each step's duration on standard error.
pub fn execute(plan: &RunPlan, print: bool, timings: bool) -> CmdResult {
    let mut t = Timings::new(timings);
    let p = plan.prepare().map_err(report)?;
    t.step("module (read, validate, compile)");
    if p.is_kernel() {
        if print {
            return Err(
                "error: --print shows descriptor bindings; a Kernel entry point's buffer arguments are written with --out".to_string(),
            );
        }
        return execute_kernel(plan, &p, t);
    }
    let mut bound = plan
        .bind(&p, &mut |w| eprintln!("warning: {w}"))
        .map_err(report)?;
    t.step("inputs");
    let ran = p.run(plan, &mut bound.resources).map_err(report)?;
    t.step("dispatch");
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
    t.step("outputs");
    let tally = bound
        .check_expectations(plan, &mut print_check)
        .map_err(error)?;
    t.step("expectations");
    t.print();
    Ok(finish(tally, "bindings"))
}

/// A Kernel entry point: binds the arguments, runs, writes `arg.N.bin` for buffer arguments,
/// checks expectations.
fn execute_kernel(plan: &RunPlan, p: &Prepared, mut t: Timings) -> CmdResult {
    let mut bound = plan.bind_kernel(p).map_err(error)?;
    t.step("inputs");
    let local = p.local_size(plan);
    let ran = p.run(plan, &mut bound.resources).map_err(report)?;
    t.step("dispatch");
    print_summary(&p.module, &p.entry.name, plan.groups, local, &ran);
    if let Some(dir) = &plan.out {
        let names = bound.write_outputs(plan, dir).map_err(error)?;
        print_written(&names, dir);
    }
    t.step("outputs");
    let tally = bound
        .check_expectations(plan, &mut print_check)
        .map_err(error)?;
    t.step("expectations");
    t.print();
    Ok(finish(tally, "arguments"))
}
