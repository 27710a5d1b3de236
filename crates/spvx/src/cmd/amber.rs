//! `spvx amber SCRIPT...`: run Amber scripts (AmberScript and VkScript, the compute subset) on
//! the engine or a Vulkan device. Argument parsing and printing only: parsing and running the
//! scripts is spvx-run's `amber` module.

use crate::cmd::{CmdResult, error};
use spvx_run::OutFormat;
use spvx_run::amber::outputs::{script_dir, write_buffers};
use spvx_run::amber::{Outcome, ScriptOptions, Status, Target, run_script_with};
use spvx_run::options::RunOptions;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// `println!` that ignores a closed standard output (e.g. piped into `head`).
macro_rules! say {
    ($($t:tt)*) => {{
        let _ = writeln!(std::io::stdout().lock(), $($t)*);
    }};
}

const HELP: &str = "\
SUPPORTED (the compute subset of google/amber's docs/amber_script.md and docs/vk_script.md)
  AmberScript (first line #!amber):
    SHADER compute NAME SPIRV-ASM | SPIRV-HEX | GLSL [TARGET_ENV ENV] ... END
    SHADER compute NAME SPIRV-ASM | SPIRV-HEX | SPIRV-BIN | GLSL [TARGET_ENV ENV] FILE PATH
    SHADER multi NAME SPIRV-ASM | SPIRV-HEX ... (ATTACH NAME TYPE compute ENTRY_POINT E)
      SPIRV-ASM: spvx's assembler (default spv1.0); GLSL: glslangValidator on PATH
      (default vulkan1.0).
    BUFFER NAME DATA_TYPE TYPE [STD140|STD430] DATA v... END | SIZE N FILL v
      | SIZE N SERIES_FROM a INC_BY b | FILE [TEXT|BINARY] PATH
      TYPE: int8..int64, uint8..uint64, float16, float, double, vecN<T>, matCxR<T>
    BUFFER NAME FORMAT R..G..B..A.._UINT|_SINT|_SFLOAT (packed) with the same initialisers
    PIPELINE compute NAME ... END, DERIVE_PIPELINE NAME FROM PARENT ... END, containing:
      ATTACH SHADER [ENTRY_POINT E] [SPECIALIZE ID AS TYPE VALUE]...
      BIND BUFFER B AS storage|uniform [DESCRIPTOR_SET S] BINDING N
           [DESCRIPTOR_OFFSET O] [DESCRIPTOR_RANGE R]
      BIND BUFFER B AS storage_dynamic|uniform_dynamic ... OFFSET O ...
      BIND BUFFER_ARRAY B1 B2... AS storage|uniform ... BINDING N
      BIND BUFFER B AS push_constant
      SHADER_OPTIMIZATION / COMPILE_OPTIONS bodies are read and ignored
    RUN [TIMED_EXECUTION] PIPELINE X Y Z;  REPEAT N ... END;  COPY A TO B
    EXPECT B IDX BYTE_OFFSET [TOLERANCE t[%]{1,4}] EQ|NE|LT|LE|GT|GE v...
    EXPECT B EQ_BUFFER C;  EXPECT B RMSE_BUFFER C TOLERANCE t
    DEVICE_FEATURE F, DEVICE_EXTENSION E, DEVICE_PROPERTY P (float controls; skip when
      the target lacks it);
    INSTANCE_EXTENSION and SET ENGINE_DATA are ignored.
  VkScript: [require], [compute shader] (GLSL), [compute shader spirv], [test] with
    ssbo, uniform ubo, uniform (push constants), compute, probe ssbo, tolerance.

UNSUPPORTED (the script is reported SKIP \"unsupported: <what>\")
  graphics pipelines and non-compute shaders, images and image buffers, samplers, CLEAR*,
  EQ_RGB(A), image probes, STRUCT, VIRTUAL_FILE, SUBGROUP, HLSL and OpenCL C, ray tracing.

OUTPUT
  One line per script: PASS, FAIL (each failing EXPECT's file:line:column, the value's
  index and byte, expected and got, and on the engine the invocation that wrote it), SKIP
  (why) or ERROR (why); then a summary line. --json prints one JSON document instead.
  --out DIR [--format bin|npy]: every buffer of each script that ran (PASS or FAIL) after
  its last command, as DIR/STEM/NAME.bin or .npy (an array of its data type; std140/std430
  padding as NumPy padding fields, e.g. a 'value' field in 16-byte records).
  Exit status: 0 when nothing failed or errored, 1 otherwise.

ON A DEVICE: THE SPECIFICATION'S FREEDOMS
  After each RUN on a device, the engine runs the same dispatch on the same bytes, and every
  element where the device differs is judged as `spvx diff` judges it (a legal fused
  multiply-add, Fma's precision, the Vulkan precision table, flushed subnormals, NaN payloads,
  the VALVE models). An EXPECT that fails on the device's values but holds with the engine's
  values where the specification allows the device's does not fail the script: it is listed
  as 'allowed:' with the freedom under a PASS. --literal judges every EXPECT as Amber does.";

/// Arguments of `spvx amber`.
#[derive(clap::Args)]
#[command(after_long_help = HELP)]
pub struct AmberArgs {
    /// Amber scripts (AmberScript `#!amber`, or VkScript).
    #[arg(required = true)]
    pub scripts: Vec<PathBuf>,
    /// Run on a Vulkan device (`vulkan` or `vulkan:NAME`) instead of the engine.
    #[arg(long)]
    pub device: Option<String>,
    /// Run on the Vulkan device with this index in `spvx devices` (implies --device).
    #[arg(long, value_name = "N", conflicts_with_all = ["device", "device_name"])]
    pub device_index: Option<u32>,
    /// Run on the first Vulkan device whose name contains TEXT (implies --device).
    #[arg(long, value_name = "TEXT", conflicts_with = "device")]
    pub device_name: Option<String>,
    /// Scripts run at once on the engine (default 1; device runs are one at a time).
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// The engine's subgroup size (1..=64).
    #[arg(long)]
    pub subgroup_size: Option<u32>,
    /// Print a JSON document instead of lines.
    #[arg(long)]
    pub json: bool,
    /// Target environment of shaders without TARGET_ENV (spv1.0 … spv1.6, vulkan1.0 …
    /// vulkan1.3; Amber's -t). Default: spv1.0 for SPIR-V assembly (spv1.4 when the script
    /// requires VK_KHR_spirv_1_4), vulkan1.0 for GLSL.
    #[arg(long, short = 't')]
    pub target_env: Option<String>,
    /// Write every buffer of each script that ran (PASS or FAIL) after its last command into
    /// DIR/STEM/ (STEM: the script's file name without extension).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// How --out writes buffers: bin (their bytes) or npy (arrays of the buffer's data type,
    /// std140/std430 padding as NumPy padding fields).
    #[arg(long, value_name = "bin|npy", default_value = "bin", requires = "out")]
    pub format: String,
    /// On a device, judge every EXPECT literally as Amber does: a value the specification
    /// allows (e.g. a legal fused multiply-add) but the script does not expect fails.
    #[arg(long)]
    pub literal: bool,
}

/// Runs every script and prints the verdicts.
pub fn run(args: AmberArgs) -> CmdResult {
    if let Some(env) = &args.target_env
        && !spvx_run::amber::shader::known_env(env)
    {
        return Err(error(format!(
            "--target-env: unknown target environment '{env}' (spv1.0 … spv1.6, vulkan1.0 … vulkan1.3)"
        )));
    }
    let script_opts = ScriptOptions {
        target_env: args.target_env.clone(),
        keep_buffers: args.out.is_some(),
        literal: args.literal,
    };
    let format = OutFormat::from_name(&args.format)
        .ok_or_else(|| error(format!("--format {}: one of bin, npy", args.format)))?;
    if let Some(dir) = &args.out {
        spvx_run::outputs::check_out_dir(dir).map_err(error)?;
        // Two scripts with one file stem would write into one directory.
        let mut seen = std::collections::BTreeMap::new();
        for p in &args.scripts {
            let d = script_dir(dir, p);
            if let Some(first) = seen.insert(d.clone(), p) {
                return Err(error(format!(
                    "--out: {} and {} would both write into {}; run them with different --out directories",
                    first.display(),
                    p.display(),
                    d.display()
                )));
            }
        }
    }
    let n = args.scripts.len();
    // A progress bar (indicatif) on a terminal, for more than one script.
    let bar = if n > 1 {
        crate::cmd::progress::bar(n as u64)
    } else {
        None
    };
    let tick = || {
        if let Some(b) = &bar {
            b.inc(1);
        }
    };
    let device = crate::cmd::devices::choice(
        args.device.as_deref(),
        args.device_index,
        args.device_name.as_deref(),
    )?;
    let outcomes: Vec<Outcome> = match &device {
        Some(dev) => {
            let runner = spvx_run::device::open(dev).map_err(error)?;
            let target = Target::Device(&runner);
            args.scripts
                .iter()
                .map(|p| {
                    let o = run_script_with(p, &target, &script_opts);
                    tick();
                    o
                })
                .collect()
        }
        None => {
            let opts = RunOptions {
                subgroup_size: args.subgroup_size,
                ..RunOptions::default()
            };
            let cfg = opts.config().map_err(error)?;
            let target = Target::Engine(cfg);
            let slots: Vec<Mutex<Option<Outcome>>> = (0..n).map(|_| Mutex::new(None)).collect();
            let next = AtomicUsize::new(0);
            std::thread::scope(|s| {
                for _ in 0..args.jobs.clamp(1, n.max(1)) {
                    s.spawn(|| {
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            let Some(p) = args.scripts.get(i) else { break };
                            let o = run_script_with(p, &target, &script_opts);
                            if let Ok(mut slot) = slots[i].lock() {
                                *slot = Some(o);
                            }
                            tick();
                        }
                    });
                }
            });
            slots
                .into_iter()
                .map(|m| {
                    m.into_inner().ok().flatten().unwrap_or(Outcome {
                        status: Status::Error("the script's run panicked".to_string()),
                        failures: Vec::new(),
                        expects: 0,
                        allowed: Vec::new(),
                        notes: Vec::new(),
                        buffers: Vec::new(),
                    })
                })
                .collect()
        }
    };
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    // Buffers after each script that ran, before the verdicts (which name them).
    let mut written: Vec<Option<(PathBuf, Vec<String>)>> = Vec::new();
    for (p, o) in args.scripts.iter().zip(&outcomes) {
        written.push(match &args.out {
            Some(dir) if matches!(o.status, Status::Pass | Status::Fail) => {
                let d = script_dir(dir, p);
                let names = write_buffers(&d, &o.buffers, format).map_err(error)?;
                Some((d, names))
            }
            _ => None,
        });
    }
    let count = |f: fn(&Status) -> bool| outcomes.iter().filter(|o| f(&o.status)).count();
    let passed = count(|s| *s == Status::Pass);
    let failed = count(|s| *s == Status::Fail);
    let skipped = count(|s| matches!(s, Status::Skip(_)));
    let errors = count(|s| matches!(s, Status::Error(_)));
    if args.json {
        print_json(
            &args.scripts,
            &outcomes,
            &written,
            [passed, failed, skipped, errors],
        );
    } else {
        for ((p, o), w) in args.scripts.iter().zip(&outcomes).zip(&written) {
            print_outcome(&p.display().to_string(), o);
            if let Some((d, names)) = w {
                say!("  wrote {} in {}", names.join(" "), d.display());
            }
        }
        say!(
            "{n} script{}: {passed} passed, {failed} failed, {skipped} skipped, {errors} error{}",
            if n == 1 { "" } else { "s" },
            if errors == 1 { "" } else { "s" }
        );
    }
    Ok(if failed + errors > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn print_outcome(file: &str, o: &Outcome) {
    match &o.status {
        Status::Pass => say!(
            "PASS  {file} ({} EXPECT{})",
            o.expects,
            if o.expects == 1 { "" } else { "s" }
        ),
        Status::Fail => {
            say!("FAIL  {file}");
            for f in &o.failures {
                match &f.writer {
                    Some(w) => say!("  {}: {}; {w}", f.at, f.message),
                    None => say!("  {}: {}", f.at, f.message),
                }
            }
        }
        Status::Skip(why) => say!("SKIP  {file}: {why}"),
        Status::Error(why) => say!("ERROR {file}: {why}"),
    }
    for a in &o.allowed {
        say!("  allowed: {}: {}", a.at, a.message);
    }
    for n in &o.notes {
        say!("  note: {n}");
    }
}

fn print_json(
    scripts: &[PathBuf],
    outcomes: &[Outcome],
    written: &[Option<(PathBuf, Vec<String>)>],
    [p, f, s, e]: [usize; 4],
) {
    let list: Vec<serde_json::Value> = scripts
        .iter()
        .zip(outcomes)
        .zip(written)
        .map(|((path, o), w)| {
            let (status, reason) = match &o.status {
                Status::Pass => ("pass", None),
                Status::Fail => ("fail", None),
                Status::Skip(w) => ("skip", Some(w.clone())),
                Status::Error(w) => ("error", Some(w.clone())),
            };
            serde_json::json!({
                "script": path.display().to_string(),
                "status": status,
                "reason": reason,
                "expects": o.expects,
                "notes": o.notes,
                "wrote": w.as_ref().map(|(d, names)| serde_json::json!({
                    "directory": d.display().to_string(),
                    "files": names,
                })),
                "failures": o.failures.iter().map(|f| serde_json::json!({
                    "file": f.at.file,
                    "line": f.at.line,
                    "column": f.at.col,
                    "message": f.message,
                    "writer": f.writer,
                })).collect::<Vec<_>>(),
                "allowed": o.allowed.iter().map(|a| serde_json::json!({
                    "file": a.at.file,
                    "line": a.at.line,
                    "column": a.at.col,
                    "message": a.message,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let doc = serde_json::json!({
        "scripts": list,
        "summary": {"passed": p, "failed": f, "skipped": s, "errors": e},
    });
    say!(
        "{}",
        serde_json::to_string_pretty(&doc).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    );
}
