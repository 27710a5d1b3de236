//! A run, whichever way it was described (command line or run file): the module, entry point,
//! dispatch, each binding's data and expected output, and the engine's options. Reading one
//! from a run file is [`crate::runfile`]; carrying one out is [`crate::engine`] (and
//! [`crate::kernel`], [`crate::device`]).

use crate::ElemType;
use crate::data::DataSpec;
use crate::kernel::ArgPlan;
use spvx_exec::{CompileOptions, RunConfig};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Expected contents of a buffer after the run.
#[derive(Clone, Debug, PartialEq)]
pub struct ExpectPlan {
    pub data: DataSpec,
    /// The element type to compare and print as (default: the data's own type, else u8).
    pub elem: Option<ElemType>,
}

/// One buffer binding.
#[derive(Clone, Debug, PartialEq)]
pub struct BufferPlan {
    pub set: u32,
    pub binding: u32,
    /// The element of an array of buffers (`--buffer 0.1[2]=...`, `index = 2`); `None` for a
    /// plain binding (element 0 when the binding is an array).
    pub index: Option<u32>,
    pub data: DataSpec,
    pub expect: Option<ExpectPlan>,
    /// Where it was given, for messages (`--buffer 0.1`, `run.toml:12:1`).
    pub origin: String,
}

/// One tensor binding (SPV_ARM_tensors).
#[derive(Clone, Debug, PartialEq)]
pub struct TensorPlan {
    pub set: u32,
    pub binding: u32,
    /// The element of an array of tensors (`--tensor 0.1[2]=...`, `index = 2`); `None` for a
    /// plain binding (element 0 when the binding is an array).
    pub index: Option<u32>,
    pub data: DataSpec,
    /// Dimensions, outermost first (default: the `.npy` file's shape).
    pub shape: Option<Vec<u64>>,
    /// Byte strides, outermost first (default: packed).
    pub strides: Option<Vec<u64>>,
    pub expect: Option<ExpectPlan>,
    /// Where it was given, for messages.
    pub origin: String,
}

/// Everything a run needs.
#[derive(Clone, Debug)]
pub struct RunPlan {
    pub module: PathBuf,
    /// The directory relative data paths start from.
    pub base: PathBuf,
    pub entry: Option<String>,
    pub groups: [u32; 3],
    pub buffers: Vec<BufferPlan>,
    pub tensors: Vec<TensorPlan>,
    pub push: Option<DataSpec>,
    pub spec: BTreeMap<u32, u64>,
    pub config: RunConfig,
    /// Where to write `SET.BINDING.bin` after the run (none: do not write).
    pub out: Option<PathBuf>,
    /// The files buffers are written as (`--format`, run files: `format`).
    pub out_format: OutFormat,
    /// Kernel (OpenCL) entry points: the arguments.
    pub args: Vec<ArgPlan>,
    /// Kernel entry points: the dispatch's local size (when the kernel requires none).
    pub local: Option<[u32; 3]>,
    /// The validator's limits (`--max-id-bound` and the other validator options).
    pub limits: spvx_val::Limits,
    /// A buffer the entry point does not use is an error (`--strict-bindings`,
    /// `strict_bindings = true`); by default it is a warning, and the buffer is kept and
    /// written back unchanged.
    pub strict_bindings: bool,
}

/// How output buffers are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OutFormat {
    /// `SET.BINDING.bin`: the buffer's bytes as they are.
    #[default]
    Bin,
    /// `SET.BINDING.npy`: a 1-D array of the binding's element type (bf16 and fp8 as the
    /// unsigned integers of their bits).
    Npy,
}

impl OutFormat {
    /// The format called `name` (`bin`, `npy`).
    pub fn from_name(name: &str) -> Option<OutFormat> {
        match name {
            "bin" => Some(OutFormat::Bin),
            "npy" => Some(OutFormat::Npy),
            _ => None,
        }
    }
}

impl RunPlan {
    /// The engine's compile options: specialisation constants and validator limits.
    pub fn compile_options(&self) -> CompileOptions {
        let mut opts = CompileOptions {
            spec_constants: self.spec.clone(),
            ..CompileOptions::default()
        };
        opts.validation.limits = self.limits;
        opts
    }
}
