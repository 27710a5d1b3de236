//! Kernel (OpenCL) entry points: what each argument gets (`--arg N=SOURCE` / `[[arg]]`:
//! buffers, local memory sizes, value bytes), binding them after checking them against the
//! kernel's parameters, and checking expected argument data after the run.

use crate::data::{Data, DataSpec};
use crate::engine::Prepared;
use crate::expect::{Checked, ExpectError, Tally, check_type};
use crate::inputs::InputError;
use crate::outputs::{OutputError, write_arg_outputs};
use crate::plan::{ExpectPlan, OutFormat, RunPlan};
use spvx_exec::Resources;
use spvx_exec::resources::{KernelArg, KernelArgInfo, KernelArgKind};
use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

/// What one kernel argument gets.
#[derive(Clone, Debug, PartialEq)]
pub enum ArgSource {
    /// Bytes: a buffer's contents, or a value's bytes (`TYPE:V` inline values).
    Data(DataSpec),
    /// `local:BYTES`: local memory of that many bytes per workgroup.
    Local(u64),
}

/// One kernel argument of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct ArgPlan {
    pub index: u32,
    pub source: ArgSource,
    pub expect: Option<ExpectPlan>,
    /// Where it was given, for messages.
    pub origin: String,
}

/// A parameter of the kernel, named for messages: `argument 1 'x' (__global buffer)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param(pub KernelArgInfo);

impl fmt::Display for Param {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let info = &self.0;
        let name = info
            .name
            .as_ref()
            .map_or_else(String::new, |n| format!(" '{n}'"));
        write!(
            f,
            "argument {}{name} ({})",
            info.index,
            kind_name(info.kind)
        )
    }
}

/// How to give a parameter, for messages: `--arg 2=local:BYTES`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct How(pub KernelArgInfo);

impl fmt::Display for How {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let info = &self.0;
        let i = info.index;
        match info.kind {
            KernelArgKind::Buffer | KernelArgKind::ConstantBuffer => {
                write!(f, "--arg {i}=FILE (or zeros:BYTES, TYPE:V,V,...)")
            }
            KernelArgKind::Local => write!(f, "--arg {i}=local:BYTES"),
            _ => write!(
                f,
                "--arg {i}=TYPE:V ({} bytes, e.g. i32:5 or f32:1.5)",
                info.size
            ),
        }
    }
}

/// Arguments that do not fit the kernel.
#[derive(Debug, thiserror::Error)]
pub enum KernelError {
    #[error(
        "{module}: '{entry}' is a Kernel entry point: it takes arguments (--arg N=SOURCE or [[arg]]), not descriptor bindings or push constants"
    )]
    Bindings { module: String, entry: String },
    #[error("{origin}: argument {index} is already given ({first})")]
    GivenTwice {
        origin: String,
        index: u32,
        first: String,
    },
    #[error("{origin}: kernel '{entry}' has {count} argument(s) (0 to {})", count.saturating_sub(1))]
    NoSuchArgument {
        origin: String,
        entry: String,
        count: usize,
    },
    #[error("{module}: {} has no value; give {} or an [[arg]] entry in the run file", Param(.param.clone()), How(.param.clone()))]
    Missing {
        module: String,
        param: KernelArgInfo,
    },
    #[error("{origin}: {} takes {}", Param(.param.clone()), How(.param.clone()))]
    WrongKind {
        origin: String,
        param: KernelArgInfo,
    },
    #[error("{origin}: {} is {} bytes, {given} bytes were given", Param(.param.clone()), .param.size)]
    ValueSize {
        origin: String,
        param: KernelArgInfo,
        given: usize,
    },
    #[error(transparent)]
    Input(#[from] InputError),
}

fn kind_name(kind: KernelArgKind) -> &'static str {
    match kind {
        KernelArgKind::Buffer => "__global buffer",
        KernelArgKind::ConstantBuffer => "__constant buffer",
        KernelArgKind::Local => "__local memory",
        KernelArgKind::Scalar => "value",
        KernelArgKind::ByValue => "struct passed by value",
    }
}

/// A Kernel entry point's arguments checked and bound.
#[derive(Clone, Debug)]
pub struct BoundKernel {
    pub resources: Resources,
    /// The kernel's parameters.
    pub params: Vec<KernelArgInfo>,
    /// Each data argument's input, by argument index.
    pub inputs: BTreeMap<u32, Data>,
}

impl RunPlan {
    /// Checks the plan's arguments against the kernel's parameters and binds them.
    pub fn bind_kernel(&self, p: &Prepared) -> Result<BoundKernel, KernelError> {
        let (module, entry) = (&p.module.name, &p.entry.name);
        if !self.buffers.is_empty() || !self.tensors.is_empty() || self.push.is_some() {
            return Err(KernelError::Bindings {
                module: module.clone(),
                entry: entry.clone(),
            });
        }
        let infos = p.compiled.kernel_args();
        let limit = self.config.memory_limit;
        let mut seen = BTreeMap::new();
        for a in &self.args {
            if let Some(first) = seen.insert(a.index, &a.origin) {
                return Err(KernelError::GivenTwice {
                    origin: a.origin.clone(),
                    index: a.index,
                    first: first.clone(),
                });
            }
            if a.index as usize >= infos.len() {
                return Err(KernelError::NoSuchArgument {
                    origin: a.origin.clone(),
                    entry: entry.clone(),
                    count: infos.len(),
                });
            }
        }
        let mut res = Resources::new();
        res.local_size = self.local;
        let mut loaded: BTreeMap<u32, Data> = BTreeMap::new();
        for info in infos {
            let Some(a) = self.args.iter().find(|a| a.index == info.index) else {
                return Err(KernelError::Missing {
                    module: module.clone(),
                    param: info.clone(),
                });
            };
            let arg = match (&a.source, info.kind) {
                (ArgSource::Local(n), KernelArgKind::Local) => KernelArg::Local(*n),
                (ArgSource::Local(_), _) | (ArgSource::Data(_), KernelArgKind::Local) => {
                    return Err(KernelError::WrongKind {
                        origin: a.origin.clone(),
                        param: info.clone(),
                    });
                }
                (ArgSource::Data(d), kind) => {
                    let data = d
                        .load(&self.base, limit)
                        .map_err(|source| InputError::Data {
                            origin: a.origin.clone(),
                            source,
                        })?;
                    let bytes = data.bytes.clone();
                    loaded.insert(info.index, data);
                    match kind {
                        KernelArgKind::Buffer | KernelArgKind::ConstantBuffer => {
                            KernelArg::Buffer(bytes)
                        }
                        _ => {
                            if bytes.len() as u64 != info.size {
                                return Err(KernelError::ValueSize {
                                    origin: a.origin.clone(),
                                    param: info.clone(),
                                    given: bytes.len(),
                                });
                            }
                            KernelArg::Scalar(bytes)
                        }
                    }
                }
            };
            res.set_arg(info.index, arg);
        }
        Ok(BoundKernel {
            resources: res,
            params: infos.to_vec(),
            inputs: loaded,
        })
    }
}

impl BoundKernel {
    /// Writes every buffer argument to `dir/arg.N.bin`; the names written.
    pub fn write_outputs(&self, plan: &RunPlan, dir: &Path) -> Result<Vec<String>, OutputError> {
        if plan.out_format == OutFormat::Npy {
            return Err(OutputError::KernelNpy);
        }
        write_arg_outputs(dir, &self.resources, &self.params)
    }

    /// Checks every argument with an expectation after the run, in plan order, handing each
    /// check to `each` as it is made.
    pub fn check_expectations(
        &self,
        plan: &RunPlan,
        each: &mut dyn FnMut(&Checked),
    ) -> Result<Tally, ExpectError> {
        let mut tally = Tally::default();
        for a in &plan.args {
            let Some(expect) = &a.expect else { continue };
            let want = plan.load_expected(expect, &a.origin)?;
            let elem =
                check_type(expect, &want, self.inputs.get(&a.index)).unwrap_or(crate::ElemType::U8);
            let actual = self.resources.arg_buffer(a.index).unwrap_or(&[]);
            let name = self
                .params
                .iter()
                .find(|i| i.index == a.index)
                .and_then(|i| i.name.clone());
            let label = match name {
                Some(n) => format!("arg {} ({n})", a.index),
                None => format!("arg {}", a.index),
            };
            let c = Checked::new(label, actual, &want.bytes, elem);
            tally.add(&c.check);
            each(&c);
        }
        Ok(tally)
    }
}
