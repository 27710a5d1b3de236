//! `spvx run`: run a compute entry point, from command-line arguments or a run file (TOML).
//! Argument parsing and printing only: the run plan (run files, data, expectations, running it
//! on the engine or a device) is spvx-run's.
//!
//! - [`cli_form`]: `spvx run MODULE --groups .. --buffer SET.BINDING=SOURCE ..` → a plan.
//! - [`execute`]: the plan carried out on the engine, each step printed.
//! - [`device`]: the plan carried out on a Vulkan device (`--device`), each step printed.
//! - [`output`]: the summary line, undefined-behaviour events, files written, PASS/FAIL lines.

pub mod cli_form;
pub mod device;
pub mod execute;
pub mod output;

use crate::cmd::{CmdResult, error, report};
use spvx_run::options::{ByteCount, RunOptions};
use spvx_run::{OutFormat, RunPlan, runfile};
use std::path::PathBuf;

/// The long help: both forms, SOURCE syntax, the run-file schema, exit status.
const HELP: &str = "\
COMMAND-LINE FORM
  spvx run MODULE [--entry NAME] --groups X[,Y,Z] --buffer SET.BINDING=SOURCE ...
           [--tensor SET.BINDING=FILE.npy ...] [--push SOURCE] [--spec ID=VALUE ...]
           [--out DIR] [engine options]
  MODULE is a SPIR-V binary (recognised by its magic number, either byte order) or assembly
  text (spirv-as syntax). The entry point defaults to the only one, else the one named main.
  Every binding the entry point uses needs data. A buffer for a binding it does not use is a
  warning (it is kept and written back unchanged); --strict-bindings makes it an error.
  After the run every buffer (inputs too) is written to DIR/SET.BINDING.bin and every tensor
  to DIR/SET.BINDING.npy (DIR defaults to the current directory). A tensor's shape and
  element type come from its .npy file (packed, C order).
  An array of buffers (e.g. GLSL `buffer B {..} bufs[3]`) takes one --buffer per element,
  SET.BINDING[INDEX]=SOURCE (SET.BINDING alone is element 0); each element is written to
  DIR/SET.BINDING.INDEX.bin. An index past the array's end reads 0 and drops writes.
  An array of tensors likewise takes --tensor SET.BINDING[INDEX]=FILE.npy per element,
  written to DIR/SET.BINDING.INDEX.npy.

  SOURCE  a file path: raw bytes, or a .npy array when the name ends in .npy (its elements in
          C order, little-endian; dtypes b1, i1-i8, u1-u8, f2, f4, f8). A .npy buffer's
          dtype must be the binding's element type (the one scalar type of its block;
          bf16 takes <u2 and e4m3/e5m2 |u1 arrays of bits); a block of several types
          takes any;
          raw:FILE the file's bytes as they are, without that check (a .npy file's
          elements; e.g. raw:a.npy for int8 data packed into uint words);
          zeros:BYTES (e.g. zeros:4096, zeros:64K);
          TYPE:V,V,... inline values, TYPE one of u8 i8 u16 i16 u32 i32 u64 i64 f16 bf16
          f32 f64 e4m3 e5m2, or NumPy's names of them (uint8 ... float64, bfloat16,
          float8_e4m3fn, float8_e5m2) (e.g. i8:1,-2,3 or float16:0.5,0x3c00). Write ./NAME
          for a file whose name looks like these.
  VALUE   of --spec: an integer (two's complement when negative), 0x bits, true/false, or
          TYPE:VALUE (f32:1.5, f16:0.1, i8:-3).
  Values: decimals are rounded once, to nearest even, into the type; 0x/0b/0o give bits;
  integers must be in the type's range.

RUN FILES: spvx run FILE.toml (paths in it are relative to the file)
  module = \"gemm.spvasm\"        # required
  entry  = \"main\"               # optional (default as above)
  groups = [4, 4, 1]            # required: 1 to 3 counts (or 4, or \"4,4\")
  out    = \"out\"                # optional: write SET.BINDING.bin there (default: none)
  format = \"npy\"                # optional: SET.BINDING.npy instead (as --format npy)
  strict_bindings = true        # optional: a buffer the entry point does not use is an
                                #   error (default: a warning), as --strict-bindings
  [spec]                        # optional: SpecId = value
  0 = 64                        #   integer, true/false, or \"f32:1.5\"
  [run]                         # optional engine options (the command line wins):
  strict = true                 #   max_steps, max_invocations, max_memory (bytes or \"4G\"), threads,
                                #   subgroup_size, mixdot_model, mixdot_rounding,
                                #   mixdot_flush_inputs, mixdot_flush_outputs, jit
  push = { u32 = [1, 2] }       # optional push constants (a data table)
  [[buffer]]                    # one per binding
  set = 0                       #   default 0
  binding = 1                   #   required
  index = 2                     #   optional: element of an array of buffers (default 0)
  name = \"weights\"              #   optional note
  data = { i8 = [1, -2, 3, 4] } #   required data table
  expect = { i32 = [5, 6] }     #   optional expected contents after the run
  [[tensor]]                    # one per tensor binding (SPV_ARM_tensors)
  binding = 0                   #   set (default 0), binding, name, data, expect as above
  shape = [3, 4]                #   outermost first (default: the .npy file's shape)
  strides = [16, 4]             #   optional byte strides (default: packed)
  index = 1                     #   optional: element of an array of tensors (default 0)

  A data table has exactly one source:
    file = \"a.bin\" | \"a.npy\"    raw bytes or .npy elements (paths relative to the run file);
                                  a .npy dtype must be the binding's element type;
                                  raw = true takes the file's bytes without that check
    zeros = 4096 | \"64K\"          zero bytes
    TYPE = [v, ...]               inline values: numbers, or strings (\"0x3c00\", \"-inf\")
    random = \"TYPE\", count = N, min = A, max = B, seed = S
        SplitMix64 from seed S (default 0); integers uniform in [min, max] (default: the
        type's range, by rejection); floats min + (max-min)*u with u = (x>>11)*2^-53 in f64,
        rounded to nearest even into TYPE. Not allowed in expect.
  In expect tables, type = \"TYPE\" says how to compare and print file or zeros data
  (default: the .npy dtype, else the input's type, else the binding's element type, else
  u8); an expected .npy file's dtype is checked like an input's (raw = true: not). Expected
  data covers the first bytes of the buffer; comparison is bit for bit.

  Each checked binding prints PASS or FAIL (with the first differing element: its index,
  the value got and the value expected). Unknown keys and wrong types are errors with
  FILE:LINE:COLUMN.

KERNEL (OpenCL) ENTRY POINTS: spvx run MODULE --groups X[,Y,Z] [--local X[,Y,Z]]
           --arg N=SOURCE ... [--out DIR]
  Argument N of the kernel: SOURCE as above for __global/__constant buffers and for values
  (--arg 0=f32:1.5; exactly the value's size), or local:BYTES for a __local pointer. Every
  argument must be given. --local is the local size of a kernel without
  reqd_work_group_size. After the run every buffer argument is written to DIR/arg.N.bin.
  In run files: local = [16, 1, 1] and one [[arg]] per argument:
  [[arg]]
  index = 0                     #   required
  name = \"x\"                    #   optional note
  data = { f32 = [1.5] }        #   a data table, or
  local = 256                   #   bytes of local memory (instead of data)
  expect = { f32 = [...] }      #   optional, as for buffers

ON A VULKAN DEVICE: --device vulkan (the first device) or vulkan:NAME (the first whose name
contains NAME) runs the same bindings on a real driver through spvx-vk (the loader is loaded at
run time); `spvx diff` runs both and compares every output bit for bit.

UNDEFINED BEHAVIOUR: each event (out-of-bounds access, division by zero, AccSat overflow, ...)
gets its documented result and is printed as a warning with the instruction, invocation,
workgroup and place in the module; --strict makes the first one an error instead.

ENGINE: programs run on the JIT (native code through Cranelift): one invocation at a time;
programs with subgroup instructions a whole subgroup per call at subgroup sizes up to 8, else
with the instructions at a rendezvous of each subgroup; loops of 32-bit arithmetic, loads and
dots four invocations at a time in SIMD vectors (the summary line then says JIT, vector
lanes). The interpreter (SIMT subgroups) runs what the JIT cannot, and programs of which 10%
or more of the instructions would be calls from the JIT into the interpreter (it runs those
faster: e.g. the fixed-point kernels); the summary line says which, and a note why. Both give
the same bytes. A JIT run that meets undefined behaviour, runs out of steps or reaches a
barrier non-uniformly starts over on the interpreter, which reports it; --strict runs on the
interpreter. --no-jit (run files: jit = false) always uses the interpreter.

EXIT STATUS: 0 when the run succeeded and every expectation passed; 1 otherwise.

EXAMPLES
  spvx run examples/gemm_int8.toml
  spvx run examples/opencl_rowdot.toml
  spvx run examples/dot4.spvasm --groups 1 --buffer 0.0=a.bin --buffer 0.1=b.bin \\
           --buffer 0.2=zeros:256 --buffer 0.3=zeros:256 --out out/";

/// Run a compute entry point of a SPIR-V module over buffers, or run a run file (TOML).
#[derive(clap::Args)]
#[command(after_long_help = HELP)]
pub struct RunArgs {
    /// The module (binary or text), or a run file when the name ends in .toml.
    #[arg(value_name = "MODULE|FILE.toml")]
    pub input: PathBuf,
    /// The entry point (default: the only one, else `main`).
    #[arg(long, value_name = "NAME")]
    pub entry: Option<String>,
    /// Workgroup counts X[,Y,Z] (missing ones are 1).
    #[arg(long, value_name = "X[,Y,Z]", allow_hyphen_values = true)]
    pub groups: Option<String>,
    /// A buffer binding and its data: SOURCE is a path (raw or .npy), zeros:BYTES or TYPE:V,V,...
    /// (`SET.BINDING[INDEX]=SOURCE` for element INDEX of an array of buffers.)
    #[arg(long = "buffer", value_name = "SET.BINDING=SOURCE")]
    pub buffers: Vec<String>,
    /// A tensor binding; its shape and element type come from the .npy file.
    /// (`SET.BINDING[INDEX]=FILE.npy` for element INDEX of an array of tensors.)
    #[arg(long = "tensor", value_name = "SET.BINDING=FILE.npy")]
    pub tensors: Vec<String>,
    /// A Kernel (OpenCL) entry point's argument N: SOURCE as for --buffer (buffers, and
    /// values as TYPE:V), or local:BYTES for a __local pointer.
    #[arg(long = "arg", value_name = "N=SOURCE")]
    pub kernel_args: Vec<String>,
    /// The local size X[,Y,Z] of a Kernel entry point without a required workgroup size.
    #[arg(long, value_name = "X[,Y,Z]")]
    pub local: Option<String>,
    /// Push-constant bytes (same SOURCE forms as --buffer).
    #[arg(long, value_name = "SOURCE")]
    pub push: Option<String>,
    /// A specialisation constant: SpecId=VALUE (integer, 0x bits, true/false, TYPE:VALUE).
    #[arg(long = "spec", value_name = "ID=VALUE", allow_hyphen_values = true)]
    pub spec: Vec<String>,
    /// Where to write SET.BINDING.bin (command-line form default: the current directory; run
    /// files: none unless `out` is set).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// How buffers are written to --out: bin (SET.BINDING.bin, the bytes as they are; the
    /// default) or npy (SET.BINDING.npy, a 1-D array of the binding's element type; run
    /// files: format = "npy").
    #[arg(long, value_name = "FORMAT", value_parser = ["bin", "npy"])]
    pub format: Option<String>,
    /// Show every buffer after the run as an array on standard output, in the binding's
    /// element type (`0.1 f32[4] = [0.5 1 2 4]`; more than 1,000 elements as the first and
    /// last three around `...`, as NumPy prints them). Shader entry points.
    #[arg(long)]
    pub print: bool,
    /// Print on standard error how long each step took on the engine: reading, validating
    /// and compiling the module, loading the inputs, the dispatch (the JIT's native code is
    /// compiled at its start), writing the outputs, checking expectations, and the whole
    /// command; with the JIT code cache on (SPVX_JIT_CACHE), how many of the JIT's functions
    /// came from it.
    #[arg(long)]
    pub timings: bool,
    /// Undefined behaviour is an error naming the instruction, invocation and workgroup.
    #[arg(long)]
    pub strict: bool,
    /// A buffer for a binding the entry point does not use is an error (default: a warning;
    /// run files: strict_bindings = true).
    #[arg(long)]
    pub strict_bindings: bool,
    /// Largest number of steps (instructions × subgroups) one workgroup may execute.
    #[arg(long, value_name = "N")]
    pub max_steps: Option<u64>,
    /// Largest dispatch, in invocations (workgroups × workgroup size; default 2^28).
    #[arg(long, value_name = "N")]
    pub max_invocations: Option<u64>,
    /// Largest number of bytes the run may allocate (e.g. 65536, 512M, 4G).
    #[arg(long, value_name = "BYTES")]
    pub max_memory: Option<String>,
    /// Worker threads (1 runs on the calling thread; default: all cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Invocations per subgroup, 1..=64 (default 32; with --device, the size the device must
    /// run the pipeline with: VK_EXT_subgroup_size_control).
    #[arg(long, value_name = "N")]
    pub subgroup_size: Option<u32>,
    /// Accumulation model of the VALVE mixed float dot products: exact (default), sequential,
    /// sequential-acc-first, fused-products, fma-chain.
    #[arg(long, value_name = "MODEL")]
    pub mixdot_model: Option<String>,
    /// Rounding of every mixdot rounding step: rne (default), rtz, rtp, rtn.
    #[arg(long, value_name = "MODE")]
    pub mixdot_rounding: Option<String>,
    /// Mixdot: read subnormal inputs as zero.
    #[arg(long)]
    pub mixdot_flush_inputs: bool,
    /// Mixdot: turn subnormal results into zero.
    #[arg(long)]
    pub mixdot_flush_outputs: bool,
    /// Run on the interpreter only. By default a program that the JIT can run and runs
    /// faster (fewer than 10% of its instructions call into the interpreter; see
    /// docs/semantics/engine-and-jit.md "The JIT") is compiled to native code, with the interpreter's
    /// results; a run that meets undefined behaviour starts over on the interpreter, which
    /// reports it.
    #[arg(long)]
    pub no_jit: bool,
    /// Run on a Vulkan device instead of the engine: `vulkan` (the first device) or
    /// `vulkan:NAME` (the first whose name contains NAME, any case).
    #[arg(long, value_name = "vulkan[:NAME]")]
    pub device: Option<String>,
    /// Run on the Vulkan device with this index in `spvx devices` (implies --device).
    #[arg(long, value_name = "N", conflicts_with_all = ["device", "device_name"])]
    pub device_index: Option<u32>,
    /// Run on the first Vulkan device whose name contains TEXT, any case (implies --device).
    #[arg(long, value_name = "TEXT", conflicts_with = "device")]
    pub device_name: Option<String>,
    /// A vendor profile: what known hardware does where the specification leaves freedom
    /// (`spvx devices --profiles` lists them; docs/semantics/comparison.md).
    #[arg(long, value_name = "NAME")]
    pub profile: Option<String>,
    #[command(flatten)]
    pub limits: crate::cmd::limits::LimitArgs,
}

impl RunArgs {
    /// The engine options given on the command line.
    pub fn options(&self) -> RunOptions {
        RunOptions {
            strict: self.strict.then_some(true),
            max_steps: self.max_steps,
            max_invocations: self.max_invocations,
            max_memory: self.max_memory.clone().map(ByteCount::Text),
            threads: self.threads,
            subgroup_size: self.subgroup_size,
            mixdot_model: self.mixdot_model.clone(),
            mixdot_rounding: self.mixdot_rounding.clone(),
            mixdot_flush_inputs: self.mixdot_flush_inputs.then_some(true),
            mixdot_flush_outputs: self.mixdot_flush_outputs.then_some(true),
            jit: self.no_jit.then_some(false),
        }
    }

    /// The device asked for by --device, --device-index or --device-name, as spvx-run's
    /// `device::open` takes it.
    pub fn device_choice(&self) -> Result<Option<String>, String> {
        crate::cmd::devices::choice(
            self.device.as_deref(),
            self.device_index,
            self.device_name.as_deref(),
        )
    }

    /// True when the input is a run file.
    fn is_run_file(&self) -> bool {
        self.input.extension().is_some_and(|e| e == "toml")
    }
}

pub fn run(args: RunArgs) -> CmdResult {
    let plan = plan_of(&args)?;
    match &args.device_choice()? {
        Some(_) if args.timings => Err(
            "error: --timings measures the engine's steps; a device's are measured by `spvx bench --device vulkan`".to_string(),
        ),
        Some(_) if args.print => Err(
            "error: --print shows the engine's outputs; with --device, compare them with `spvx diff`".to_string(),
        ),
        Some(device) => device::execute(&plan, device, args.subgroup_size),
        None => execute::execute(&plan, args.print, args.timings),
    }
}

/// The run the arguments describe (a run file with command-line overrides, or the
/// command-line form).
pub fn plan_of(args: &RunArgs) -> Result<RunPlan, String> {
    let mut plan = plan_without_limits(args)?;
    plan.limits = args.limits.limits();
    if let Some(name) = &args.profile {
        spvx_run::profile::apply(name, &mut plan.config).map_err(error)?;
    }
    Ok(plan)
}

/// The plan of the command line or run file, with the validator's default limits.
fn plan_without_limits(args: &RunArgs) -> Result<RunPlan, String> {
    let plan = plan_as_given(args)?;
    if let Some(dir) = &plan.out {
        spvx_run::outputs::check_out_dir(dir).map_err(error)?;
    }
    Ok(plan)
}

/// The plan of the command line or run file, as given.
fn plan_as_given(args: &RunArgs) -> Result<RunPlan, String> {
    Ok(if args.is_run_file() {
        if !args.buffers.is_empty() || args.push.is_some() || !args.kernel_args.is_empty() {
            return Err(
                "error: --buffer, --arg and --push do not go with a run file; give bindings and arguments in the file"
                    .into(),
            );
        }
        let mut plan = runfile::plan(&args.input, &args.options()).map_err(report)?;
        if args.entry.is_some() {
            plan.entry = args.entry.clone();
        }
        if let Some(g) = &args.groups {
            plan.groups = spvx_run::parse::parse_groups(g)
                .map_err(|e| format!("error: --groups {g}: {e}"))?;
        }
        plan.spec.extend(cli_form::parse_spec_args(&args.spec)?);
        if let Some(out) = &args.out {
            plan.out = Some(out.clone());
        }
        plan.strict_bindings |= args.strict_bindings;
        if let Some(f) = args.format.as_deref().and_then(OutFormat::from_name) {
            plan.out_format = f;
        }
        if let Some(l) = &args.local {
            plan.local =
                Some(cli_form::parse_local(l).map_err(|e| format!("error: --local {l}: {e}"))?);
        }
        plan
    } else {
        cli_form::plan(args)?
    })
}
