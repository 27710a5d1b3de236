//! Reading a benchmark's run file into a [`BenchCase`] through spvx-run: the run file read as
//! `spvx run` reads it, the module compiled (and its JIT code made when the run may use it:
//! one-time setup, timed apart) and written as words, every binding's data and expected bytes
//! loaded (a Kernel entry point's arguments bound as `spvx run` binds them).

use crate::case::BenchCase;
use crate::error::BenchError;
use crate::manifest::ManifestEntry;
use spvx_run::module::{KERNEL, LoadedModule};
use spvx_run::{RunError, RunOptions, RunPlan, runfile};
use std::time::Instant;

/// Reads the run file of `entry` and prepares its case; `over` overrides the run file's
/// `[run]` options (e.g. threads).
pub fn load_case(entry: &ManifestEntry, over: &RunOptions) -> Result<BenchCase, BenchError> {
    let plan = runfile::plan(&entry.run, over).map_err(RunError::from)?;
    let module = LoadedModule::read(&plan.module).map_err(RunError::from)?;
    let ep = module
        .choose_entry(plan.entry.as_deref())
        .map_err(RunError::from)?;
    // The engine's one-time setup: compiling the module, and the JIT's native code when the
    // run may use it (compiled here, not in the first timed dispatch).
    let start = Instant::now();
    let compiled = module
        .compile(&ep.name, &plan.compile_options())
        .map_err(RunError::from)?;
    if plan.config.jit {
        let _ = compiled.jit_code();
    }
    let compile_time = start.elapsed();
    let spirv = module.words();
    let kernel = ep.model == KERNEL;
    let entry_name = ep.name.clone();
    let (compiled, resources) = if kernel {
        // A Kernel (OpenCL) entry point: its arguments, bound as `spvx run` binds them.
        let prepared = spvx_run::engine::Prepared {
            module,
            entry: ep,
            compiled,
        };
        let bound = plan.bind_kernel(&prepared).map_err(RunError::from)?;
        (prepared.compiled, bound.resources)
    } else {
        let inputs = plan
            .load_inputs(compiled.bindings(), &mut |_| {})
            .map_err(RunError::from)?;
        (compiled, inputs.resources)
    };
    Ok(BenchCase {
        name: entry.name.clone(),
        spirv,
        module: compiled,
        compile_time: Some(compile_time),
        entry: entry_name,
        spec: plan.spec.clone(),
        groups: plan.groups,
        resources,
        config: plan.config.clone(),
        subgroup_size_from_device: entry.subgroup_size_from_device,
        work: entry.work,
        device: entry.device.clone(),
        expected: expected(&plan)?,
    })
}

/// Expected contents of bindings: ((set, binding), bytes).
type Expected = Vec<((u32, u32), Vec<u8>)>;

/// The expected bytes of every buffer and tensor that has them, in plan order.
fn expected(plan: &RunPlan) -> Result<Expected, BenchError> {
    let expects = plan
        .buffers
        .iter()
        .map(|b| (b.set, b.binding, &b.expect, &b.origin))
        .chain(
            plan.tensors
                .iter()
                .map(|t| (t.set, t.binding, &t.expect, &t.origin)),
        );
    let mut out = Vec::new();
    for (set, binding, expect, origin) in expects {
        if let Some(e) = expect {
            let want = plan.load_expected(e, origin).map_err(RunError::from)?;
            out.push(((set, binding), want.bytes));
        }
    }
    Ok(out)
}
