//! The engine options a run may set, from the command line or a run file's `[run]` table
//! (the command line wins), and their translation into `spvx_exec::RunConfig`.

use crate::data::parse_count;
use spvx_exec::RunConfig;
use spvx_num::float::{FloatError, RoundingMode};
use spvx_num::mixdot::{MixdotError, Model};

/// Options of the engine; `None` keeps the engine's default.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunOptions {
    /// Undefined behaviour becomes an error.
    pub strict: Option<bool>,
    /// Step limit per workgroup.
    pub max_steps: Option<u64>,
    /// Largest dispatch, in invocations (workgroups × workgroup size).
    pub max_invocations: Option<u64>,
    /// Memory limit in bytes (`4G`, `512M`, `65536`).
    pub max_memory: Option<ByteCount>,
    /// Worker threads (1: the calling thread only).
    pub threads: Option<usize>,
    /// Invocations per subgroup (1..=64).
    pub subgroup_size: Option<u32>,
    /// Accumulation model of the VALVE mixed float dot products.
    pub mixdot_model: Option<String>,
    /// Rounding of every mixdot rounding step.
    pub mixdot_rounding: Option<String>,
    /// Read subnormal mixdot inputs as zero.
    pub mixdot_flush_inputs: Option<bool>,
    /// Turn subnormal mixdot results into zero.
    pub mixdot_flush_outputs: Option<bool>,
    /// Run on the JIT where the program allows it (`false`: always the interpreter).
    pub jit: Option<bool>,
}

/// A byte count: an integer, or text with a binary suffix (`512M`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(untagged)]
pub enum ByteCount {
    Bytes(u64),
    Text(String),
}

/// An option value the engine cannot take.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionsError {
    #[error("the step limit must be at least 1")]
    ZeroSteps,
    #[error("the dispatch limit must be at least 1 invocation")]
    ZeroInvocations,
    #[error("memory limit '{0}' is not a byte count (e.g. 65536, 512M, 4G)")]
    MemoryLimit(String),
    #[error("--threads must be at least 1")]
    ZeroThreads,
    #[error("subgroup size {0} is not in 1..=64")]
    SubgroupSize(u32),
    #[error("{0} (models: {models})", models = Model::ALL.map(|m| m.name()).join(", "))]
    MixdotModel(#[source] MixdotError),
    #[error("{0} (rne, rtz, rtp, rtn)")]
    MixdotRounding(#[source] FloatError),
}

impl RunOptions {
    /// `self`, with every option `over` sets replaced by it.
    pub fn overridden_by(&self, over: &RunOptions) -> RunOptions {
        RunOptions {
            strict: over.strict.or(self.strict),
            max_steps: over.max_steps.or(self.max_steps),
            max_invocations: over.max_invocations.or(self.max_invocations),
            max_memory: over.max_memory.clone().or_else(|| self.max_memory.clone()),
            threads: over.threads.or(self.threads),
            subgroup_size: over.subgroup_size.or(self.subgroup_size),
            mixdot_model: over
                .mixdot_model
                .clone()
                .or_else(|| self.mixdot_model.clone()),
            mixdot_rounding: over
                .mixdot_rounding
                .clone()
                .or_else(|| self.mixdot_rounding.clone()),
            mixdot_flush_inputs: over.mixdot_flush_inputs.or(self.mixdot_flush_inputs),
            mixdot_flush_outputs: over.mixdot_flush_outputs.or(self.mixdot_flush_outputs),
            jit: over.jit.or(self.jit),
        }
    }

    /// The engine configuration.
    pub fn config(&self) -> Result<RunConfig, OptionsError> {
        let mut cfg = RunConfig::default();
        if let Some(s) = self.strict {
            cfg.strict = s;
        }
        if let Some(n) = self.max_steps {
            if n == 0 {
                return Err(OptionsError::ZeroSteps);
            }
            cfg.step_limit = n;
        }
        if let Some(n) = self.max_invocations {
            if n == 0 {
                return Err(OptionsError::ZeroInvocations);
            }
            cfg.max_invocations = n;
        }
        match &self.max_memory {
            None => {}
            Some(ByteCount::Bytes(n)) => cfg.memory_limit = *n,
            Some(ByteCount::Text(m)) => {
                cfg.memory_limit =
                    parse_count(m).ok_or_else(|| OptionsError::MemoryLimit(m.clone()))?;
            }
        }
        if let Some(t) = self.threads {
            if t == 0 {
                return Err(OptionsError::ZeroThreads);
            }
            cfg.threads = Some(t);
        }
        if let Some(s) = self.subgroup_size {
            if !(1..=64).contains(&s) {
                return Err(OptionsError::SubgroupSize(s));
            }
            cfg.subgroup_size = s;
        }
        if let Some(m) = &self.mixdot_model {
            cfg.mixdot.model = m.parse::<Model>().map_err(OptionsError::MixdotModel)?;
        }
        if let Some(r) = &self.mixdot_rounding {
            cfg.mixdot.rounding = r
                .parse::<RoundingMode>()
                .map_err(OptionsError::MixdotRounding)?;
        }
        if let Some(f) = self.mixdot_flush_inputs {
            cfg.mixdot.flush_input_denormals = f;
        }
        if let Some(f) = self.mixdot_flush_outputs {
            cfg.mixdot.flush_output_denormals = f;
        }
        if let Some(j) = self.jit {
            cfg.jit = j;
        }
        Ok(cfg)
    }
}
