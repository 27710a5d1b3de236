//! What a run prints: the one-line summary, the printed lines of the shader, the
//! undefined-behaviour events (with the place of each instruction), the files written and the
//! PASS/FAIL lines of the expectations with their tally.

use spvx_exec::{JitUse, RunReport};
use spvx_run::diagnostic::Diagnostic;
use spvx_run::expect::{Checked, Tally};
use spvx_run::module::LoadedModule;
use std::path::Path;
use std::process::ExitCode;

/// Events printed in full (all are counted).
const EVENTS_SHOWN: usize = 10;

/// Prints `ran 'main': ...` and then the printed lines (`[workgroup (x, y, z) local (x, y, z)]
/// text`, DebugPrintf) to standard output, and the undefined-behaviour events to standard
/// error as warnings, each at the place of its instruction.
pub fn print_summary(
    module: &LoadedModule,
    entry: &str,
    groups: [u32; 3],
    local: [u32; 3],
    report: &RunReport,
) {
    let [x, y, z] = groups;
    let [lx, ly, lz] = local;
    let ub = match report.total_events {
        0 => "no undefined behaviour".to_string(),
        n => format!("{n} undefined-behaviour event(s)"),
    };
    let engine = match &report.jit {
        JitUse::Ran if report.vector_lanes => "JIT, vector lanes",
        JitUse::Ran => "JIT",
        _ => "interpreter",
    };
    println!(
        "ran '{entry}' of {}: {x}x{y}x{z} workgroups of {lx}x{ly}x{lz} invocations, {} steps, {ub} ({engine})",
        module.name, report.steps
    );
    match &report.jit {
        JitUse::FellBack(why) => eprintln!("note: the JIT gave the run to the interpreter: {why}"),
        JitUse::Unsupported(why) => eprintln!("note: the interpreter ran it (JIT: {why})"),
        _ => {}
    }
    // DebugPrintf lines, in the report's order (workgroup, invocation, program order).
    for p in &report.prints {
        println!("{p}");
    }
    for e in report.events.iter().take(EVENTS_SHOWN) {
        let d = Diagnostic::warning(format!(
            "{e} (the documented result was used; --strict makes this an error)"
        ));
        eprintln!("{}", module.locate(d, e.instruction));
    }
    if report.total_events > EVENTS_SHOWN as u64 {
        eprintln!(
            "warning: {} more undefined-behaviour event(s) not shown",
            report.total_events - EVENTS_SHOWN as u64
        );
    }
}

/// `wrote 0.0.bin 0.1.bin in DIR`.
pub fn print_written(names: &[String], dir: &Path) {
    println!("wrote {} in {}", names.join(" "), dir.display());
}

/// Prints one PASS/FAIL line.
pub fn print_check(c: &Checked) {
    println!("{c}");
}

/// Prints the tally line (`PASS: 3 of 3 checked bindings match`; `what`: "bindings",
/// "arguments") when anything was checked; the exit code is failure when a check failed.
pub fn finish(tally: Tally, what: &str) -> ExitCode {
    if let Some(line) = tally.summary(what) {
        println!("{line}");
    }
    if tally.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
