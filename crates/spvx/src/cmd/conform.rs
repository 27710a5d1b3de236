//! `spvx conform [EXT...]`: conformance sweeps of the extensions' forms on the engine or a
//! Vulkan device, and `spvx conform merge REPORT...` joining shard reports. Argument parsing
//! and printing only: generating, running, judging, reporting and exporting are spvx-run's
//! `conform` module.

use crate::cmd::{CmdResult, error};
use spvx_run::conform::report::Report;
use spvx_run::conform::sweep::{DEFAULT_CASES, Options, Target, sweep};
use spvx_run::conform::{Ext, Shard, isolate};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// `println!` that ignores a closed standard output.
macro_rules! say {
    ($($t:tt)*) => {{
        let _ = writeln!(std::io::stdout().lock(), $($t)*);
    }};
}

const HELP: &str = "\
EXTENSIONS
  intdot   SPV_KHR_integer_dot_product: OpSDot, OpUDot, OpSUDot and their AccSat forms x
           component widths 8/16/32/64 x vector lengths 2/3/4 (and 8/16 with Vector16, unsigned
           types: UNSUPPORTED on Vulkan) x result widths, the packed
           4x8 form x result widths, x the operand-type signedness the validator allows.
  mixdot   SPV_VALVE_mixed_float_dot_product: OpFDot2MixAcc32VALVE and OpFDot2MixAcc16VALVE on
           f16 and bf16, OpFDot4MixAcc32VALVE on every E4M3/E5M2 pair; on a device, a result
           equal to one of spvx-num's accumulation models is ALLOWED DIFFERENCE.
  tensors  SPV_ARM_tensors: OpTensorReadARM, OpTensorWriteARM (read back at the same
           coordinates) and OpTensorQuerySizeARM x every element type (int8..64 signed and
           unsigned, f16/f32/f64, bool) x ranks 1-8 x operand sets (none, Nontemporal,
           OutOfBoundsValue, NonPrivateElement with MakeElementVisible/Available) x one
           element or 3-element arrays, packed and strided; coordinate types int8..64 and
           size-query result types x ranks; arrays of 3 tensors and shaped types at ranks
           1/2/4/8. Coordinates at 0, size-1, size, far out and negative. The tensors
           after the run are compared too (writes outside dropped). No Amber script
           (Amber has no tensors): --amber writes the run file only. On a device, arrays of
           tensors and shaped types are UNSUPPORTED (spvx-vk; Vulkan forbids shaped types).
  fixed    SPV_INTEL_arbitrary_precision_fixed_point: the eleven functions (OpFixedSqrtINTEL
           ... OpFixedExpINTEL) x Q (8) x O (4) x S x five formats (8, 13, 16->24, 32->16 and
           64 bits), SinCos/SinCosPi as a vector and as a packed scalar; inputs include the
           format's extremes, saturation points, ties and 0 / negative inputs. A Vulkan device
           reports UNSUPPORTED (capability ArbitraryPrecisionFixedPointINTEL).
  smma     SPV_INTEL_subgroup_matrix_multiply_accumulate: every operand-flag combination of
           subgroup size 8 (DG2) and 16 (PVC) x M 1/2/3/4/8 x A component widths, run at that
           subgroup size (required of a device too).
  all      every extension (the default).

VERDICTS (one per form, joined over its chunks of at most 4096 cases)
  PASS                every compared element equal, bit for bit
  FAIL                the first failing case: inputs, expected, got, the invocation
  UNSUPPORTED         the target lacks a feature the module needs (named)
  ALLOWED DIFFERENCE  the results differ as the specification allows (the reason)
  ERROR               the run itself failed
  Expected values come from the engine's interpreter; elements whose result the spec leaves
  undefined (the AccSat undefined case, fixed-point sqrt/rsqrt of negative values) are
  masked, never compared. Inputs reach the edges (extremes, overflow and saturation
  points, float specials, ties, cancellation, tensor coordinates in and out of bounds). On
  the engine alone, the default engine (JIT, threads) is checked against the one-thread
  interpreter.

OUTPUT
  A table on the terminal (the tally per extension and every form that did not PASS; a
  progress bar on stderr when it is a terminal), --out DIR: report.json and report.md,
  --amber DIR: every case as an Amber script (run back with `spvx amber`) and a run file.
  Reports are the same bytes for the same seed, cases, shard and target.
  Exit status 1 on any FAIL or ERROR.

ISOLATION
  --isolate (with --device) runs each form in a process of its own: a driver or layer that
  crashes the process ends only that form, reported ERROR with the crash and its last stderr
  lines, and the sweep goes on.

SHARDS (Slurm, Ray, GNU parallel: each shard a plain spvx conform process)
  #SBATCH --array=1-64
  spvx conform all --seed 7 --cases 1000000 --shard $SLURM_ARRAY_TASK_ID/64 \\
      --out reports/$SLURM_ARRAY_TASK_ID
  spvx conform merge reports/*/report.json --out merged";

/// Arguments of `spvx conform`.
#[derive(clap::Args)]
#[command(after_long_help = HELP, args_conflicts_with_subcommands = true)]
pub struct ConformArgs {
    #[command(subcommand)]
    pub merge: Option<ConformCommand>,
    /// Extensions: intdot, mixdot, tensors, fixed, smma, all (default all).
    pub exts: Vec<String>,
    /// Run on a Vulkan device (`vulkan`, `vulkan:NAME` or `vulkan#INDEX`) against the engine.
    #[arg(long)]
    pub device: Option<String>,
    /// Run on the Vulkan device at this index (`spvx devices` lists them).
    #[arg(long)]
    pub device_index: Option<u32>,
    /// Run on the first Vulkan device whose name contains this text.
    #[arg(long)]
    pub device_name: Option<String>,
    /// The seed of every case's inputs.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Cases per form (rounded up to a multiple of 64).
    #[arg(long, default_value_t = DEFAULT_CASES)]
    pub cases: u64,
    /// Only forms whose id contains this text (e.g. `OpSDotAccSat/s8x4`).
    #[arg(long)]
    pub only: Option<String>,
    /// Run part K of N of the sweep (K/N, 1 <= K <= N).
    #[arg(long)]
    pub shard: Option<String>,
    /// Write report.json and report.md here.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Export every case as an Amber script and a run file here.
    #[arg(long)]
    pub amber: Option<PathBuf>,
    /// Units run at once on the engine (default: the number of CPUs).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// A vendor profile (amd-cdna2, amd-rdna3, amd-rdna4, intel-dg2, intel-pvc, intel-xe2,
    /// intel-xe3, intel-xe3p; `spvx devices --profiles` lists what each sets and its sources): the engine's expected values follow what that hardware does where the
    /// specification leaves freedom, so a device of that family PASSes where it matches.
    #[arg(long, value_name = "NAME")]
    pub profile: Option<String>,
    /// Print the report as JSON instead of the table.
    #[arg(long)]
    pub json: bool,
    /// With --device: run each form in a process of its own, so that a driver or layer that
    /// crashes the process ends only that form (an ERROR naming the crash) and the sweep goes on.
    #[arg(long)]
    pub isolate: bool,
}

/// `spvx conform merge`.
#[derive(clap::Subcommand)]
pub enum ConformCommand {
    /// Join shard reports (report.json files) of one sweep into one verdict table.
    Merge(MergeArgs),
}

#[derive(clap::Args)]
pub struct MergeArgs {
    /// The shards' report.json files.
    #[arg(required = true)]
    pub reports: Vec<PathBuf>,
    /// Write the merged report.json and report.md here.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Print the merged report as JSON instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// Runs the sweep (or the merge) and prints the verdicts.
pub fn run(args: ConformArgs) -> CmdResult {
    if let Some(ConformCommand::Merge(m)) = args.merge {
        return merge(m);
    }
    let exts = Ext::parse_list(&args.exts).map_err(error)?;
    let shard = match &args.shard {
        Some(s) => s.parse::<Shard>().map_err(error)?,
        None => Shard::ALL,
    };
    let opts = Options {
        exts,
        seed: args.seed,
        cases: args.cases,
        shard,
        jobs: args
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        only: args.only.clone(),
        amber: args.amber.clone(),
        profile: args.profile.clone(),
    };
    let bar = crate::cmd::progress::bar(0);
    let progress = |done: usize, total: usize, id: &str| {
        if let Some(b) = &bar {
            b.set_length(total as u64);
            b.set_position(done as u64);
            b.set_message(id.to_string());
        }
    };
    let device = crate::cmd::devices::choice(
        args.device.as_deref(),
        args.device_index,
        args.device_name.as_deref(),
    )?;
    let report = match &device {
        Some(dev) if args.isolate => isolated(&opts, dev, &progress)?,
        Some(dev) => {
            let runner = spvx_run::device::open(dev).map_err(error)?;
            sweep(&opts, &Target::Device(&runner), &progress).map_err(error)?
        }
        None if args.isolate => {
            return Err(error(
                "--isolate runs a device's forms in processes of their own; give --device",
            ));
        }
        None => sweep(&opts, &Target::Engine, &progress).map_err(error)?,
    };
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    finish(&report, args.out.as_ref(), args.json)
}

/// `--isolate`: every form as a child `spvx conform EXT --device DEV --only ID --json` (the
/// same seed, cases, profile and export), its outcome joined by spvx-run's `isolate`.
fn isolated(
    opts: &Options,
    device: &str,
    progress: &(dyn Fn(usize, usize, &str) + Sync),
) -> Result<Report, String> {
    if opts.shard != Shard::ALL {
        return Err(error(
            "--isolate runs whole forms: choose forms with --only rather than --shard",
        ));
    }
    let forms = spvx_run::conform::sweep::forms(&opts.exts, opts.only.as_deref());
    if forms.is_empty() {
        return Err(error(format!(
            "--only '{}': no form's id contains it",
            opts.only.as_deref().unwrap_or_default()
        )));
    }
    let exe = std::env::current_exe().map_err(|e| error(format!("--isolate: {e}")))?;
    let mut results = Vec::new();
    let mut target = None;
    for (i, form) in forms.iter().enumerate() {
        let mut cmd = std::process::Command::new(&exe);
        cmd.args([
            "conform",
            form.ext.name(),
            "--device",
            device,
            "--only",
            &form.id,
        ])
        .args([
            "--seed",
            &opts.seed.to_string(),
            "--cases",
            &opts.cases.to_string(),
        ])
        .args(["--jobs", "1", "--json"]);
        if let Some(p) = &opts.profile {
            cmd.args(["--profile", p]);
        }
        if let Some(a) = &opts.amber {
            cmd.arg("--amber").arg(a);
        }
        let out = cmd
            .stdin(std::process::Stdio::null())
            .output()
            .map_err(|e| error(format!("--isolate: cannot start {}: {e}", exe.display())))?;
        let child = match out.status.code() {
            Some(0 | 1) if !out.stdout.is_empty() => {
                if target.is_none() {
                    target = isolate::child_target(&out.stdout);
                }
                isolate::Child::Finished { stdout: out.stdout }
            }
            _ => isolate::Child::Died {
                killed: std::os::unix::process::ExitStatusExt::signal(&out.status).is_some(),
                status: out.status.to_string(),
                stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            },
        };
        results.push(isolate::form_result(i, form, opts.cases, child));
        progress(i + 1, forms.len(), &form.id);
    }
    Ok(isolate::report(
        opts,
        target.unwrap_or_else(|| device.to_string()),
        results,
    ))
}

fn merge(m: MergeArgs) -> CmdResult {
    let mut reports = Vec::new();
    for p in &m.reports {
        reports.push((p.display().to_string(), Report::read(p).map_err(error)?));
    }
    let merged = Report::merge(reports).map_err(error)?;
    finish(&merged, m.out.as_ref(), m.json)
}

/// Writes the report files, prints the table (or JSON), and gives the exit status.
fn finish(report: &Report, out: Option<&PathBuf>, json: bool) -> CmdResult {
    if let Some(dir) = out {
        report
            .write(dir)
            .map_err(|e| error(format!("--out {}: {e}", dir.display())))?;
    }
    if json {
        say!("{}", report.to_json().trim_end());
    } else {
        print_table(report);
    }
    Ok(if report.tally().failed() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn print_table(report: &Report) {
    say!("target: {}", report.target);
    if let Some(p) = &report.profile {
        say!("profile: {p} (the engine's expected values follow it)");
    }
    let shards: Vec<String> = report.shards.iter().map(Shard::to_string).collect();
    say!(
        "seed {}, {} cases per form, shard{} {}",
        report.seed,
        report.cases,
        if shards.len() == 1 { "" } else { "s" },
        shards.join(", ")
    );
    let missing = report.missing_shards();
    if !missing.is_empty() {
        let m: Vec<String> = missing.iter().map(Shard::to_string).collect();
        say!("incomplete: shards {} not merged", m.join(", "));
    }
    say!(
        "{:<10} {:>6} {:>6} {:>6} {:>12} {:>8} {:>6}",
        "extension",
        "forms",
        "PASS",
        "FAIL",
        "UNSUPPORTED",
        "ALLOWED",
        "ERROR"
    );
    for e in &report.extensions {
        let sub = Report {
            forms: report
                .forms
                .iter()
                .filter(|f| f.ext == *e)
                .cloned()
                .collect(),
            ..report.clone()
        };
        let t = sub.tally();
        say!(
            "{:<10} {:>6} {:>6} {:>6} {:>12} {:>8} {:>6}",
            e.name(),
            sub.forms.len(),
            t.pass,
            t.fail,
            t.unsupported,
            t.allowed,
            t.error
        );
    }
    for f in report
        .forms
        .iter()
        .filter(|f| !matches!(f.verdict, spvx_run::conform::Verdict::Pass))
    {
        say!("{:<12} {}  {}", f.verdict.word(), f.id, f.verdict.detail());
    }
    let t = report.tally();
    say!(
        "{} forms: {} PASS, {} FAIL, {} UNSUPPORTED, {} ALLOWED DIFFERENCE, {} ERROR",
        report.forms.len(),
        t.pass,
        t.fail,
        t.unsupported,
        t.allowed,
        t.error
    );
}
