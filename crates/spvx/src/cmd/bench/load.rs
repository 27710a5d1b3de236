//! Turning the run files of a benchmark set into [`BenchCase`]s through spvx-run: the module
//! read, compiled and written as words, every binding's data and expected bytes loaded, as
//! `spvx run` does.

use crate::cmd::error;
use spvx_bench::{BenchCase, ManifestEntry};
use spvx_run::module::{KERNEL, LoadedModule};
use spvx_run::{RunOptions, runfile};

/// Reads the run file of `entry` and prepares its case; `over` overrides the run file's
/// `[run]` options (e.g. threads).
pub fn load_case(entry: &ManifestEntry, over: &RunOptions) -> Result<BenchCase, String> {
    let plan = runfile::plan(&entry.run, over).map_err(error)?;
    let module = LoadedModule::read(&plan.module).map_err(error)?;
    let ep = module.choose_entry(plan.entry.as_deref()).map_err(error)?;
    if ep.model == KERNEL {
        return Err(format!(
            "error: {}: Kernel entry points are not benchmarked",
            module.name
        ));
    }
    // The engine's one-time setup: compiling the module, and the JIT's native code when the
    // run may use it (compiled here, not in the first timed dispatch).
    let start = std::time::Instant::now();
    let compiled = module
        .compile(&ep.name, &plan.compile_options())
        .map_err(error)?;
    if plan.config.jit {
        let _ = compiled.jit_code();
    }
    let compile_time = start.elapsed();
    let inputs = plan
        .load_inputs(compiled.bindings(), &mut |_| {})
        .map_err(error)?;
    let mut expected = Vec::new();
    let expects = plan
        .buffers
        .iter()
        .map(|b| (b.set, b.binding, &b.expect, &b.origin))
        .chain(
            plan.tensors
                .iter()
                .map(|t| (t.set, t.binding, &t.expect, &t.origin)),
        );
    for (set, binding, expect, origin) in expects {
        if let Some(e) = expect {
            let want = plan.load_expected(e, origin).map_err(error)?;
            expected.push(((set, binding), want.bytes));
        }
    }
    Ok(BenchCase {
        name: entry.name.clone(),
        spirv: module.words(),
        module: compiled,
        compile_time: Some(compile_time),
        entry: ep.name,
        spec: plan.spec.clone(),
        groups: plan.groups,
        resources: inputs.resources,
        config: plan.config.clone(),
        subgroup_size_from_device: entry.subgroup_size_from_device,
        work: entry.work,
        device: entry.device.clone(),
        expected,
    })
}
