//! Turning the run files of a benchmark set into [`BenchCase`]s: the module read, compiled and
//! written as words, every binding's data and expected bytes loaded, as `spvx run` does.

use crate::cmd::run::module::{KERNEL, LoadedModule};
use crate::cmd::run::options::RunOptions;
use crate::cmd::run::plan::RunPlan;
use crate::cmd::run::runfile;
use spvx_bench::{BenchCase, ManifestEntry};
use spvx_exec::{CompileOptions, Resources, Tensor};

/// Reads the run file of `entry` and prepares its case; `over` overrides the run file's
/// `[run]` options (e.g. threads).
pub fn load_case(entry: &ManifestEntry, over: &RunOptions) -> Result<BenchCase, String> {
    let plan = runfile::plan(&entry.run, over)?;
    let module = LoadedModule::read(&plan.module)?;
    let ep = module.choose_entry(plan.entry.as_deref())?;
    if ep.model == KERNEL {
        return Err(format!(
            "error: {}: Kernel entry points are not benchmarked",
            module.name
        ));
    }
    let opts = CompileOptions {
        spec_constants: plan.spec.clone(),
        ..CompileOptions::default()
    };
    // The engine's one-time setup: compiling the module, and the JIT's native code when the
    // run may use it (compiled here, not in the first timed dispatch).
    let start = std::time::Instant::now();
    let compiled = module.compile(&ep.name, &opts)?;
    if plan.config.jit {
        let _ = compiled.jit_code();
    }
    let compile_time = start.elapsed();
    let spirv = spvx_spirv::binary::to_words(&module.header, &module.instructions);
    let (resources, expected) = load_resources(&plan)?;
    Ok(BenchCase {
        name: entry.name.clone(),
        module: compiled,
        compile_time: Some(compile_time),
        spirv,
        entry: ep.name,
        spec: plan.spec.clone(),
        groups: plan.groups,
        resources,
        config: plan.config.clone(),
        subgroup_size_from_device: entry.subgroup_size_from_device,
        work: entry.work,
        device: entry.device.clone(),
        expected,
    })
}

type Expected = Vec<((u32, u32), Vec<u8>)>;

/// The plan's buffers, tensors and push constants, and its expected bytes.
fn load_resources(plan: &RunPlan) -> Result<(Resources, Expected), String> {
    let limit = plan.config.memory_limit;
    let mut res = Resources::new();
    let mut expected = Vec::new();
    let mut expect = |set, binding, e: &Option<crate::cmd::run::plan::ExpectPlan>, origin: &str| {
        if let Some(e) = e {
            let want = e
                .data
                .load(&plan.base, limit)
                .map_err(|m| format!("error: {origin} (expected data): {m}"))?;
            expected.push(((set, binding), want.bytes));
        }
        Ok::<(), String>(())
    };
    for b in &plan.buffers {
        let data = b
            .data
            .load(&plan.base, limit)
            .map_err(|e| format!("error: {}: {e}", b.origin))?;
        res.set_buffer_element(b.set, b.binding, b.index.unwrap_or(0), data.bytes);
        expect(b.set, b.binding, &b.expect, &b.origin)?;
    }
    for t in &plan.tensors {
        let data = t
            .data
            .load(&plan.base, limit)
            .map_err(|e| format!("error: {}: {e}", t.origin))?;
        let shape = t.shape.clone().or(data.shape).ok_or_else(|| {
            format!(
                "error: {}: a tensor needs a shape (shape = [...] or a .npy file)",
                t.origin
            )
        })?;
        res.set_tensor(
            t.set,
            t.binding,
            Tensor {
                shape,
                strides: t.strides.clone(),
                data: data.bytes,
            },
        );
        expect(t.set, t.binding, &t.expect, &t.origin)?;
    }
    if let Some(push) = &plan.push {
        res.push_constants = push
            .load(&plan.base, limit)
            .map_err(|e| format!("error: push constants: {e}"))?
            .bytes;
    }
    Ok((res, expected))
}
