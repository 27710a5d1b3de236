//! What a run prints and writes: the one-line summary, the undefined-behaviour events (with
//! the place of each instruction), and `DIR/SET.BINDING.bin` for every buffer
//! (`DIR/SET.BINDING.INDEX.bin` for every element of an array of buffers).

use super::module::LoadedModule;
use super::npy::write_npy;
use super::plan::TensorOutput;
use spvx_exec::{JitUse, Resources, RunReport};
use std::path::Path;

/// Events printed in full (all are counted).
const EVENTS_SHOWN: usize = 10;

/// Prints `ran 'main': ...` and then the printed lines (`[workgroup (x, y, z) local (x, y, z)]
/// text`, DebugPrintf) to standard output, and the undefined-behaviour events to standard
/// error as warnings.
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
        eprintln!(
            "warning: {e} (the documented result was used; --strict makes this an error){}",
            module.place(e.instruction)
        );
    }
    if report.total_events > EVENTS_SHOWN as u64 {
        eprintln!(
            "warning: {} more undefined-behaviour event(s) not shown",
            report.total_events - EVENTS_SHOWN as u64
        );
    }
}

/// Writes every buffer to `dir/SET.BINDING.bin` (an element of an array of buffers, whose
/// (set, binding) is in `arrays`: `dir/SET.BINDING.INDEX.bin`) and every tensor to
/// `dir/SET.BINDING.npy` (packed) or `.bin` (strided: the raw bytes; an element of an array of
/// tensors: `dir/SET.BINDING.INDEX.npy` / `.bin`), creating `dir` if needed.
pub fn write_outputs(
    dir: &Path,
    res: &Resources,
    arrays: &[(u32, u32)],
    tensors: &[TensorOutput],
) -> Result<(), String> {
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("error: cannot create {}: {e}", dir.display()))?;
    let mut written = Vec::new();
    for ((set, binding, index), bytes) in res.buffer_elements() {
        let name = if arrays.contains(&(set, binding)) {
            format!("{set}.{binding}.{index}.bin")
        } else {
            format!("{set}.{binding}.bin")
        };
        let path = dir.join(&name);
        std::fs::write(&path, bytes)
            .map_err(|e| format!("error: cannot write {}: {e}", path.display()))?;
        written.push(name);
    }
    for t in tensors {
        let Some(tensor) = res.tensor_element(t.set, t.binding, t.index.unwrap_or(0)) else {
            continue;
        };
        let stem = match t.index {
            Some(i) => format!("{}.{}.{i}", t.set, t.binding),
            None => format!("{}.{}", t.set, t.binding),
        };
        let (name, bytes) = if t.packed {
            let file = write_npy(t.elem, &tensor.shape, &tensor.data)
                .map_err(|e| format!("error: tensor {stem}: {e}"))?;
            (format!("{stem}.npy"), file)
        } else {
            (format!("{stem}.bin"), tensor.data.clone())
        };
        let path = dir.join(&name);
        std::fs::write(&path, bytes)
            .map_err(|e| format!("error: cannot write {}: {e}", path.display()))?;
        written.push(name);
    }
    println!("wrote {} in {}", written.join(" "), dir.display());
    Ok(())
}
