//! Writing a run's outputs: `DIR/SET.BINDING.bin` for every buffer
//! (`DIR/SET.BINDING.INDEX.bin` for every element of an array of buffers), every tensor as
//! `.npy` when packed (shape and element type of its input) or raw `.bin` bytes when strided,
//! and `DIR/arg.N.bin` for every buffer argument of a Kernel entry point.

use crate::ElemType;
use crate::data::Data;
use crate::layout::TypeLayout;
use crate::npy::view::{View, ViewError};
use crate::npy::{NpyError, write_npy};
use crate::plan::{OutFormat, RunPlan};
use spvx_exec::resources::KernelArgInfo;
use spvx_exec::{BindingInfo, Resources};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// How a tensor is written after the run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorOutput {
    pub set: u32,
    pub binding: u32,
    /// The element, for an element of an array of tensors (written as `SET.BINDING.INDEX`).
    pub index: Option<u32>,
    pub elem: ElemType,
    /// Packed tensors are written as `.npy` of their shape; strided ones as raw `.bin` bytes.
    pub packed: bool,
}

/// An output that cannot be written.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    #[error("cannot create {}: {source}", dir.display())]
    CreateDir {
        dir: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot write {}: {source}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "binding {set}.{binding}: --format npy writes a buffer in its binding's type, and the module declares no buffer at {set}.{binding}; write it with --format bin"
    )]
    Untyped { set: u32, binding: u32 },
    #[error("binding {set}.{binding}: --format npy: {source}; write it with --format bin")]
    View {
        set: u32,
        binding: u32,
        #[source]
        source: ViewError,
    },
    #[error("buffer {buffer}: --format npy: {source}; write it with --format bin")]
    NamedView {
        buffer: String,
        #[source]
        source: ViewError,
    },
    #[error("{stem}.npy: {source}")]
    Npy {
        stem: String,
        #[source]
        source: NpyError,
    },
    #[error("Kernel arguments are written as arg.N.bin only: --format npy is for buffer bindings")]
    KernelNpy,
    #[error("--out {}: {why}", dir.display())]
    NotADirectory { dir: PathBuf, why: &'static str },
    #[error("tensor {stem}: {source}")]
    Tensor {
        stem: String,
        #[source]
        source: NpyError,
    },
}

impl RunPlan {
    /// How each tensor is written after the run: `.npy` of its input's element type (else the
    /// unsigned type of its element size) when packed.
    pub fn tensor_outputs(
        &self,
        bindings: &[BindingInfo],
        inputs: &BTreeMap<(u32, u32, u32), Data>,
    ) -> Vec<TensorOutput> {
        self.tensors
            .iter()
            .map(|t| {
                let bytes = bindings
                    .iter()
                    .find(|i| i.set == t.set && i.binding == t.binding)
                    .and_then(|i| i.tensor)
                    .map_or(1, |i| i.element_bytes);
                let index = t.index.unwrap_or(0);
                let is_array = bindings
                    .iter()
                    .any(|i| (i.set, i.binding) == (t.set, t.binding) && i.element.is_some());
                let elem = inputs
                    .get(&(t.set, t.binding, index))
                    .and_then(|d| d.elem)
                    .unwrap_or(ElemType::unsigned_of_size(bytes));
                TensorOutput {
                    set: t.set,
                    binding: t.binding,
                    index: is_array.then_some(index),
                    elem,
                    packed: t.strides.is_none(),
                }
            })
            .collect()
    }
}

/// The (set, binding) of every binding that is an array of buffers.
pub fn arrays(bindings: &[BindingInfo]) -> Vec<(u32, u32)> {
    bindings
        .iter()
        .filter(|i| i.element.is_some())
        .map(|i| (i.set, i.binding))
        .collect()
}

/// Refuses, before anything runs, an output directory that cannot be one: `-` (standard output
/// cannot hold one file per binding), an existing file, or a name ending in `.npy` or `.bin`
/// (a file name: the outputs are `SET.BINDING.bin`/`.npy` files inside the directory).
pub fn check_out_dir(dir: &Path) -> Result<(), OutputError> {
    let why = if dir.as_os_str() == "-" {
        Some(
            "the outputs are one file per binding, written into a directory; standard output cannot hold them",
        )
    } else if dir.exists() && !dir.is_dir() {
        Some(
            "exists and is not a directory (the outputs are one file per binding, written into a directory)",
        )
    } else if dir
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("npy") || e.eq_ignore_ascii_case("bin"))
    {
        Some(
            "names a file; --out takes a directory, into which SET.BINDING.bin (buffers) and SET.BINDING.npy (tensors) are written",
        )
    } else {
        None
    };
    match why {
        Some(why) => Err(OutputError::NotADirectory {
            dir: dir.to_path_buf(),
            why,
        }),
        None => Ok(()),
    }
}

fn create(dir: &Path) -> Result<(), OutputError> {
    std::fs::create_dir_all(dir).map_err(|source| OutputError::CreateDir {
        dir: dir.to_path_buf(),
        source,
    })
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> Result<(), OutputError> {
    let path = dir.join(name);
    std::fs::write(&path, bytes).map_err(|source| OutputError::Write { path, source })
}

/// Writes every buffer to `dir/SET.BINDING.bin` (an element of an array of buffers, whose
/// (set, binding) is in `arrays`: `dir/SET.BINDING.INDEX.bin`; with [`OutFormat::Npy`],
/// `.npy` in the shape and dtype of its block type in `layouts`, [`crate::npy::view`]) and
/// every tensor to
/// `dir/SET.BINDING.npy` (packed) or `.bin` (strided: the raw bytes; an element of an array of
/// tensors: `dir/SET.BINDING.INDEX.npy` / `.bin`), creating `dir` if needed. Returns the names
/// written, in order.
pub fn write_outputs(
    dir: &Path,
    res: &Resources,
    arrays: &[(u32, u32)],
    tensors: &[TensorOutput],
    format: OutFormat,
    layouts: &BTreeMap<(u32, u32), TypeLayout>,
) -> Result<Vec<String>, OutputError> {
    create(dir)?;
    let mut written = Vec::new();
    for ((set, binding, index), bytes) in res.buffer_elements() {
        let stem = if arrays.contains(&(set, binding)) {
            format!("{set}.{binding}.{index}")
        } else {
            format!("{set}.{binding}")
        };
        let (name, file) = match format {
            OutFormat::Bin => (format!("{stem}.bin"), bytes.to_vec()),
            OutFormat::Npy => {
                let layout = layouts
                    .get(&(set, binding))
                    .ok_or(OutputError::Untyped { set, binding })?;
                let view =
                    View::of(layout, bytes.len() as u64).map_err(|source| OutputError::View {
                        set,
                        binding,
                        source,
                    })?;
                let file = view.write(bytes).map_err(|source| OutputError::Npy {
                    stem: stem.clone(),
                    source,
                })?;
                (format!("{stem}.npy"), file)
            }
        };
        write(dir, &name, &file)?;
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
            let file = write_npy(t.elem, &tensor.shape, &tensor.data).map_err(|source| {
                OutputError::Tensor {
                    stem: stem.clone(),
                    source,
                }
            })?;
            (format!("{stem}.npy"), file)
        } else {
            (format!("{stem}.bin"), tensor.data.clone())
        };
        write(dir, &name, &bytes)?;
        written.push(name);
    }
    Ok(written)
}

/// Writes every buffer argument to `dir/arg.N.bin`, creating `dir` if needed. Returns the
/// names written, in order.
pub fn write_arg_outputs(
    dir: &Path,
    res: &Resources,
    infos: &[KernelArgInfo],
) -> Result<Vec<String>, OutputError> {
    create(dir)?;
    let mut written = Vec::new();
    for info in infos {
        let Some(bytes) = res.arg_buffer(info.index) else {
            continue;
        };
        let name = format!("arg.{}.bin", info.index);
        write(dir, &name, bytes)?;
        written.push(name);
    }
    Ok(written)
}
