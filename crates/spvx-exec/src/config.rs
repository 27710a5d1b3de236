//! Options of compilation (specialisation constants, validation) and of a run (subgroup size,
//! strict mode, limits, threads, the mixed-float-dot model, the DPAS platform).

use crate::ExecError;
use spvx_dpas::Platform;
use spvx_dpas::isa::ExecOptions;
use spvx_num::mixdot::{Model, ModelConfig};
use std::collections::BTreeMap;

/// Options of [`crate::CompiledModule::compile`].
#[derive(Clone, Debug)]
pub struct CompileOptions {
    /// Specialisation-constant overrides: SpecId → value bits (low bits used; booleans: 0 is
    /// false, anything else true).
    pub spec_constants: BTreeMap<u32, u64>,
    /// Validate with spvx-val first and refuse invalid modules (default true).
    pub validate: bool,
    /// Validation options (target environment).
    pub validation: spvx_val::Options,
    /// Largest module, in bytes (words × 4), that compilation accepts (default 256 MiB); a
    /// larger one is refused with `ExecError::Config` before it is read.
    pub max_module_bytes: u64,
}

/// Refuses a module of `bytes` bytes larger than `opts.max_module_bytes`.
pub(crate) fn check_module_size(bytes: u64, opts: &CompileOptions) -> Result<(), ExecError> {
    if bytes > opts.max_module_bytes {
        return Err(ExecError::Config(format!(
            "the module is {bytes} bytes, more than spvx's limit of {} bytes on a module",
            opts.max_module_bytes
        )));
    }
    Ok(())
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            spec_constants: BTreeMap::new(),
            validate: true,
            validation: spvx_val::Options::default(),
            max_module_bytes: 256 << 20,
        }
    }
}

/// How OpSubgroupMatrixMultiplyAccumulateINTEL runs on `spvx-dpas` (a vendor profile sets it;
/// docs/semantics/dpas.md, "OpSubgroupMatrixMultiplyAccumulateINTEL in the engine").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DpasConfig {
    /// The platform whose DPAS rules apply. `None` (the default): the one the subgroup size
    /// selects, 8 → DG2, 16 → PVC. A platform whose exec size is not the run's subgroup size
    /// is refused before the run starts.
    pub platform: Option<Platform>,
    /// The float behaviours the specifications leave open (default: Intel's reference
    /// emulators, denormals kept).
    pub options: ExecOptions,
}

/// Options of [`crate::CompiledModule::run`].
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// Invocations per subgroup, 1..=64 (default 32).
    pub subgroup_size: u32,
    /// Turn the first undefined-behaviour event into an error.
    pub strict: bool,
    /// Largest number of steps (instructions × subgroups) one workgroup may execute (default
    /// 2^25: an infinite loop ends in `ExecError::StepLimit` in about a second).
    pub step_limit: u64,
    /// Largest dispatch, in invocations (workgroups × local size), a run may start (default
    /// 2^28); a larger one is refused before anything runs with `ExecError::Config`.
    pub max_invocations: u64,
    /// Largest number of bytes the run may allocate (buffers copied in, registers, private and
    /// workgroup memory of the workgroups in flight).
    pub memory_limit: u64,
    /// Worker threads: `None` uses rayon's global pool, `Some(1)` runs on the calling thread.
    pub threads: Option<usize>,
    /// Events kept in the report (all are counted).
    pub max_events: usize,
    /// The accumulation model of the VALVE mixed float dot products.
    pub mixdot: ModelConfig,
    /// How OpSubgroupMatrixMultiplyAccumulateINTEL runs: the DPAS platform and float model.
    pub dpas: DpasConfig,
    /// Record, for every byte of every storage buffer, which invocation stored it last
    /// ([`crate::RunReport::writers`]; used by `spvx diff`). Off by default: it costs a word
    /// per buffer byte and a store per written byte.
    pub track_writers: bool,
    /// Copy back every binding after the run, those the module never writes too
    /// (`BindingInfo::written`; by default their bytes are left as they went in): a check that
    /// no store of the engine reached them, which the fuzz checks make. Off by default.
    pub copy_back_unwritten: bool,
    /// Run on the JIT (`crate::jit`) when the program and the run allow it (default true):
    /// the same results as the interpreter, which runs everything else and takes over any run
    /// in which the JIT meets undefined behaviour. `strict` and `track_writers` runs always use
    /// the interpreter.
    pub jit: bool,
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig {
            subgroup_size: 32,
            strict: false,
            step_limit: 1 << 25,
            max_invocations: 1 << 28,
            memory_limit: 4 << 30,
            threads: None,
            max_events: 100,
            mixdot: ModelConfig::new(Model::Exact),
            dpas: DpasConfig::default(),
            track_writers: false,
            copy_back_unwritten: false,
            jit: true,
        }
    }
}
