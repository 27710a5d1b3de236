//! `spvx-exec`: the execution engine. It compiles a validated module into a register program
//! and runs it SIMT over bound resources.
//!
//! It knows the module model of `spvx-spirv`, validates with `spvx-val` before compiling, and
//! does all arithmetic through `spvx-num`. It knows nothing of command lines or files.
//!
//! Layout (translation, instruction set and execution kept apart, as in wasmi):
//! - [`compile`]: module → [`program::Program`] (slots, layouts, constants, block order).
//! - [`program`]: the register instruction set and the compiled program.
//! - [`exec`]: SIMT execution of a subgroup, one file per instruction family, and the scheduler
//!   (`exec::control`).
//! - [`memory`]: memory objects as bytes, pointers, bounds checks.
//! - [`run`]: a dispatch: binds the resources, runs the workgroups on the JIT's code when it
//!   can, else on the interpreter (`run::workgroup`: workgroups, barriers), and merges the
//!   reports. It calls [`jit`]; the JIT does not call back.
//! - `dispatch`: what both engines share about a dispatch: its shape and memory, the loop over
//!   workgroups on the thread pool, built-in values, the result of a workgroup.
//! - [`jit`]: the same programs compiled to native code (Cranelift), one invocation at a time
//!   (or a whole small subgroup per call for programs with subgroup instructions), for the runs
//!   whose result it is sure to give exactly as the interpreter does.
//!
//! ```no_run
//! # use spvx_exec::*;
//! # fn demo(bytes: &[u8]) -> Result<(), ExecError> {
//! let module = Engine::compile(bytes, "main", &CompileOptions::default())?;
//! let mut res = Resources::new();
//! for b in module.bindings() {
//!     res.set_buffer(b.set, b.binding, vec![0; 1024]);
//! }
//! let report = module.run(&mut res, [4, 1, 1], &RunConfig::default())?;
//! println!("{} undefined-behaviour events", report.total_events);
//! # Ok(()) }
//! ```

mod bits;
pub mod compile;
pub mod config;
mod dispatch;
pub mod error;
pub mod exec;
pub mod jit;
pub mod memory;
pub mod program;
pub mod report;
pub mod resources;
pub mod run;

pub use config::{CompileOptions, DpasConfig, RunConfig};
pub use error::ExecError;
pub use report::{BufferWriters, InvocationId, JitUse, PrintRecord, RunReport, UbEvent, UbKind};
pub use resources::{
    BindingInfo, BindingKind, KernelArg, KernelArgInfo, KernelArgKind, Resources, Tensor,
    TensorInfo,
};

use spvx_spirv::module::Module;

/// The engine's entry point (a namespace for [`Engine::compile`]).
pub struct Engine;

impl Engine {
    /// Reads, validates and compiles the entry point `entry` of a binary module.
    pub fn compile(
        bytes: &[u8],
        entry: &str,
        opts: &CompileOptions,
    ) -> Result<CompiledModule, ExecError> {
        CompiledModule::from_bytes(bytes, entry, opts)
    }
}

/// A compiled entry point, ready to run any number of times.
#[derive(Clone, Debug)]
pub struct CompiledModule {
    program: program::Program,
    /// The program compiled by the JIT, made at the first run that wants it.
    jit: std::sync::Arc<std::sync::OnceLock<Result<jit::JitCode, String>>>,
    /// Buffer storage kept from run to run.
    pool: std::sync::Arc<memory::BufferPool>,
}

impl CompiledModule {
    /// Reads, validates and compiles the entry point `entry` of a binary module.
    pub fn from_bytes(bytes: &[u8], entry: &str, opts: &CompileOptions) -> Result<Self, ExecError> {
        config::check_module_size(bytes.len() as u64, opts)?;
        let parsed = spvx_spirv::binary::read_bytes(bytes)
            .map_err(|e| ExecError::Module(spvx_spirv::module::ModuleError::Binary(e)))?;
        Self::from_instructions(&parsed.header, &parsed.instructions, entry, opts)
    }

    /// Validates and compiles the entry point `entry` of a module.
    pub fn from_module(
        module: &Module,
        entry: &str,
        opts: &CompileOptions,
    ) -> Result<Self, ExecError> {
        Self::from_instructions(&module.header, &module.to_instructions(), entry, opts)
    }

    /// Validates and compiles the entry point `entry` of a module given as its header and flat
    /// instruction list (instruction indices in errors and reports refer to this list).
    pub fn from_instructions(
        header: &spvx_spirv::binary::Header,
        instructions: &[spvx_spirv::instruction::Instruction],
        entry: &str,
        opts: &CompileOptions,
    ) -> Result<Self, ExecError> {
        let words: u64 = 5 + instructions
            .iter()
            .map(|i| i.word_count() as u64)
            .sum::<u64>();
        config::check_module_size(words * 4, opts)?;
        Ok(CompiledModule {
            program: compile::compile(header, instructions, entry, opts)?,
            jit: Default::default(),
            pool: Default::default(),
        })
    }

    /// Compiles the entry point `entry` of a module that passed validation, from the index
    /// validation returned (the module is not read, validated or indexed again;
    /// `opts.validate` is not consulted).
    pub fn from_validated(
        valid: &spvx_val::Validated,
        entry: &str,
        opts: &CompileOptions,
    ) -> Result<Self, ExecError> {
        let words: u64 = 5 + valid
            .insts
            .iter()
            .map(|i| i.word_count() as u64)
            .sum::<u64>();
        config::check_module_size(words * 4, opts)?;
        Ok(CompiledModule {
            program: compile::compile_validated(valid, entry, opts)?,
            jit: Default::default(),
            pool: Default::default(),
        })
    }

    /// The resources the entry point uses, in binding order.
    pub fn bindings(&self) -> &[BindingInfo] {
        &self.program.bindings
    }

    /// The arguments of a Kernel entry point, in order (empty for GLCompute).
    pub fn kernel_args(&self) -> &[resources::KernelArgInfo] {
        self.program
            .kernel
            .as_ref()
            .map_or(&[], |k| k.args.as_slice())
    }

    /// The workgroup size (for a Kernel entry point without LocalSize: 1, 1, 1; the dispatch
    /// gives it, see [`Resources::local_size`]).
    pub fn local_size(&self) -> [u32; 3] {
        self.program.local_size
    }

    /// The compiled program (for inspection and tests).
    pub fn program(&self) -> &program::Program {
        &self.program
    }

    /// Runs a dispatch of `groups` workgroups. Storage buffers in `res` are updated in place.
    pub fn run(
        &self,
        res: &mut Resources,
        groups: [u32; 3],
        cfg: &RunConfig,
    ) -> Result<RunReport, ExecError> {
        let jit = (cfg.jit && !cfg.strict && !cfg.track_writers).then(|| self.jit_code());
        run::run(&self.program, jit, Some(&self.pool), res, groups, cfg)
    }

    /// Compiles now what a run with `cfg` would compile at its start: the JIT's native code,
    /// and, at subgroup sizes up to 8, the function that runs a whole subgroup per call
    /// (`jit::lanes`, compiled apart because only those sizes use it). For timing the one-time
    /// setup apart from the runs (`spvx bench`).
    pub fn prepare(&self, cfg: &RunConfig) {
        if cfg.jit
            && !cfg.strict
            && !cfg.track_writers
            && let Ok(code) = self.jit_code()
            && (1..=jit::LANES).contains(&cfg.subgroup_size)
        {
            let _ = code.lanes(&self.program);
        }
    }

    /// Whether every OpSubgroupMatrixMultiplyAccumulateINTEL of the module is one DPAS of the
    /// platform `cfg.dpas` and `cfg.subgroup_size` select: what a run checks before it starts
    /// (the error names the instruction), asked alone.
    pub fn check_dpas(&self, cfg: &RunConfig) -> Result<(), ExecError> {
        program::mma::check_program(&self.program, cfg.subgroup_size, &cfg.dpas)
    }

    /// A Kernel entry point's SubgroupSize execution mode: runs must use this subgroup size.
    pub fn required_subgroup_size(&self) -> Option<u32> {
        self.program.required_subgroup_size
    }

    /// The same module with its JIT compiled even where the interpreter would run it instead
    /// (`jit::prefers_interpreter`: programs that are mostly call-outs, Workgroup memory
    /// without barriers), for testing the JIT on such programs.
    pub fn with_jit_always(&self) -> CompiledModule {
        self.with_jit(jit::compile(&self.program, true))
    }

    /// The same module whose JIT runs every instruction through the interpreter (native
    /// control flow, registers in memory): for testing the JIT's register handling against the
    /// interpreter on every instruction.
    pub fn with_jit_callouts_only(&self) -> CompiledModule {
        self.with_jit(jit::compile(&self.program, false))
    }

    /// The same module with its JIT compiled always (as [`Self::with_jit_always`]) and, where
    /// the program allows it, running its workgroups in SIMD vector lanes (`jit::simd`; by
    /// default only where they are expected to be faster: `JitCode::with_vector_lanes`).
    pub fn with_jit_vector_lanes(&self) -> CompiledModule {
        let code =
            jit::compile_scalar(&self.program, true).map(|c| c.with_vector_lanes(&self.program));
        self.with_jit(code)
    }

    /// The same module with its JIT compiled always (as [`Self::with_jit_always`]) and never
    /// in vector lanes: one invocation at a time (for comparing the two).
    pub fn with_scalar_jit(&self) -> CompiledModule {
        self.with_jit(jit::compile_scalar(&self.program, true))
    }

    /// The same module with `code` as its JIT (instead of compiling at the first run).
    fn with_jit(&self, code: Result<jit::JitCode, String>) -> CompiledModule {
        CompiledModule {
            program: self.program.clone(),
            jit: std::sync::Arc::new(std::sync::OnceLock::from(code)),
            pool: Default::default(),
        }
    }

    /// The program compiled to native code (compiled at the first call), or why the JIT cannot
    /// run it or the interpreter runs it faster.
    pub fn jit_code(&self) -> Result<&jit::JitCode, &str> {
        let compile = || match jit::prefers_interpreter(&self.program) {
            Some(why) => Err(why),
            None => jit::compile(&self.program, true),
        };
        match self.jit.get_or_init(compile) {
            Ok(code) => Ok(code),
            Err(why) => Err(why),
        }
    }
}
