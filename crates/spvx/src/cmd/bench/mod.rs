//! `spvx bench`: times the engine (and a Vulkan device, when asked) on the benchmark set of
//! `bench/set.toml`, checks every run's outputs, prints the markdown table and saves it. Reading the run files,
//! timing and checking are spvx-bench's; this file parses arguments and prints.

mod machine;

use crate::cmd::{CmdResult, error, report};
use spvx_bench::{BenchError, BenchOptions, Device, Manifest, Table, load_case, run_case};
use spvx_run::RunOptions;
use std::path::PathBuf;
use std::process::ExitCode;

/// Time the engine (and lavapipe with --device vulkan) on the benchmark set.
#[derive(clap::Args)]
#[command(after_help = "\
For each kernel of the set (bench/set.toml: a run file per kernel, plus the work one dispatch
does), spvx bench runs the engine once on one thread as the reference, then --warmup untimed and
--rounds timed rounds (at least 51 for a kernel with a dispatch under 1 ms: a few such samples
vary too much) in which the engine and the device (with --device) run alternately. Every
run's outputs are compared bit for bit with the reference (and the reference with the run file's
expected outputs, where it gives them). Times are medians per dispatch, end to end on a module
compiled once (engine) / a kernel prepared once (device: buffers, pipeline): inputs in, dispatch,
outputs out. The ratio is device time / engine time (above 1: the engine is faster). One-time
setup is measured apart (engine compile, device setup) and enters only the 'ratio with setup' column.
The headline under the table is the geometric mean of the ratio over the kernels whose dispatch
takes at least 1 ms on both sides, with the lowest ratio and its kernel; the shorter kernels
(launch overhead more than execution) are listed on a line of their own.

The table (markdown) goes to standard output and to -o FILE; progress goes to standard error
(with a progress bar over the kernels when it is a terminal).
The exit status is 1 when any output differs.

Examples:
  spvx bench
  spvx bench --filter gemm --rounds 9 --device vulkan -o bench/results.md")]
pub struct BenchArgs {
    /// The benchmark set file.
    #[arg(long, value_name = "FILE", default_value = "bench/set.toml")]
    set: PathBuf,
    /// Only the kernels whose name contains NAME.
    #[arg(long, value_name = "NAME")]
    filter: Option<String>,
    /// Timed rounds per kernel.
    #[arg(long, value_name = "N", default_value_t = 5)]
    rounds: usize,
    /// Untimed warm-up rounds per kernel.
    #[arg(long, value_name = "N", default_value_t = 1)]
    warmup: usize,
    /// Engine worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Time the interpreter only (the JIT off), e.g. to compare the two in separate tables.
    #[arg(long)]
    no_jit: bool,
    /// Compare with a Vulkan device: `vulkan` (the first) or `vulkan:NAME`.
    #[arg(long, value_name = "DEVICE")]
    device: Option<String>,
    /// Compare with the Vulkan device with this index in `spvx devices` (implies --device).
    #[arg(long, value_name = "N", conflicts_with_all = ["device", "device_name"])]
    device_index: Option<u32>,
    /// Compare with the first Vulkan device whose name contains TEXT (implies --device).
    #[arg(long, value_name = "TEXT", conflicts_with = "device")]
    device_name: Option<String>,
    /// Also write the table to FILE.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
}

/// Runs `spvx bench`.
pub fn run(args: BenchArgs) -> CmdResult {
    if args.rounds == 0 {
        return Err("error: --rounds must be at least 1".into());
    }
    let manifest = Manifest::read(&args.set).map_err(|e| format!("error: {e}"))?;
    let kernels = manifest.filtered(args.filter.as_deref());
    if kernels.is_empty() {
        return Err(format!(
            "error: no kernel of {} matches '{}'",
            args.set.display(),
            args.filter.as_deref().unwrap_or("")
        ));
    }
    let mut device: Option<Result<Box<dyn Device>, String>> = crate::cmd::devices::choice(
        args.device.as_deref(),
        args.device_index,
        args.device_name.as_deref(),
    )?
    .as_deref()
    .map(open_device);
    let device_name = match &device {
        None => "none requested".to_string(),
        Some(Ok(d)) => d.name(),
        Some(Err(why)) => format!("not available: {why}"),
    };
    if let Some(Err(why)) = &device {
        eprintln!("warning: device not available: {why}");
    }
    let over = RunOptions {
        threads: args.threads,
        jit: args.no_jit.then_some(false),
        ..RunOptions::default()
    };
    let opts = BenchOptions {
        warmup: args.warmup,
        rounds: args.rounds,
    };
    // Described before the kernels run: the load average is the one at the start.
    let machine = machine::describe();
    let mut rows = Vec::new();
    let bar = crate::cmd::progress::bar(kernels.len() as u64);
    for entry in kernels {
        if let Some(b) = &bar {
            b.set_message(entry.name.clone());
        }
        let say = |line: &str| crate::cmd::progress::say(bar.as_ref(), line);
        say(&format!("{}: loading {}", entry.name, entry.run.display()));
        let case = load_case(entry, &over).map_err(bench_error)?;
        let dev = match &mut device {
            None => None,
            Some(Ok(d)) => Some(Ok(d.as_mut() as &mut dyn Device)),
            Some(Err(why)) => Some(Err(why.clone())),
        };
        let row = run_case(&case, dev, &opts, &mut |line| say(line)).map_err(bench_error)?;
        rows.push(row);
        if let Some(b) = &bar {
            b.inc(1);
        }
    }
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let table = Table {
        machine,
        device: device_name,
        warmup: args.warmup,
        rounds: args.rounds,
        rows,
    };
    let text = table.to_markdown();
    print!("{text}");
    if let Some(path) = &args.output {
        std::fs::write(path, &text)
            .map_err(|e| format!("error: cannot write {}: {e}", path.display()))?;
    }
    Ok(if table.passed() {
        ExitCode::SUCCESS
    } else {
        eprintln!("error: some outputs differ (see the outputs column)");
        ExitCode::FAILURE
    })
}

/// A benchmark error as printed: a run file's or module's through the diagnostic renderer
/// (with its place), the others as `error: MESSAGE`.
fn bench_error(e: BenchError) -> String {
    match e {
        BenchError::Plan(e) => report(e.as_ref()),
        other => error(other),
    }
}

/// Opens the device named on the command line.
fn open_device(name: &str) -> Result<Box<dyn Device>, String> {
    if name != "vulkan" && !name.starts_with("vulkan:") && !name.starts_with("vulkan#") {
        return Err(format!(
            "unknown device '{name}' (use vulkan or vulkan:NAME)"
        ));
    }
    let device = spvx_bench::VulkanDevice::open(name)?;
    Ok(Box::new(device))
}
