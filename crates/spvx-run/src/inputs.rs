//! Loading a plan's data for the engine: each buffer (elements of arrays of buffers too), each
//! tensor with its shape, the push constants; bound into `spvx_exec::Resources`, and each
//! binding's loaded data kept for the element type of its checks.

use crate::ElemType;
use crate::bindings::ElementSuffix;
use crate::data::{Data, LoadError};
use crate::element::DtypeError;
use crate::npy::element_count;
use crate::plan::{BufferPlan, RunPlan, TensorPlan};
use spvx_exec::{BindingInfo, Resources, Tensor};
use std::collections::BTreeMap;

/// Data that cannot be loaded, or does not fit its binding.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("{origin}: {source}")]
    Data {
        origin: String,
        #[source]
        source: LoadError,
    },
    #[error("push constants: {0}")]
    Push(#[source] LoadError),
    #[error(
        "push constants: {bytes} bytes given, the push-constant block is {block} bytes; give exactly {block}"
    )]
    PushSize { bytes: usize, block: u64 },
    #[error(
        "{origin}: shape {shape:?} has {elements} elements, the .npy array {npy_shape:?} has {npy_elements}"
    )]
    ShapeMismatch {
        origin: String,
        shape: Vec<u64>,
        elements: u64,
        npy_shape: Vec<u64>,
        npy_elements: u64,
    },
    #[error("{origin}: a tensor needs a shape: give a .npy file, or shape = [...] in the run file")]
    NoShape { origin: String },
    #[error(transparent)]
    Dtype(#[from] Box<DtypeError>),
    #[error("{origin}: {elem} data for a tensor of {element_bytes}-byte elements")]
    TensorElement {
        origin: String,
        elem: ElemType,
        element_bytes: u32,
    },
}

/// Something worth saying about the data that does not stop the run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Warning {
    #[error(
        "{origin}: the entry point uses no buffer at binding {set}.{binding}{element} (it uses: {used}); it is kept and written back unchanged"
    )]
    UnusedBuffer {
        origin: String,
        set: u32,
        binding: u32,
        element: ElementSuffix,
        /// The buffers it uses, or `none`.
        used: String,
    },
    #[error(
        "{origin}: {bytes} bytes, fewer than the {block} bytes of the block of binding {set}.{binding} (reads beyond give zero)"
    )]
    ShortBuffer {
        origin: String,
        bytes: usize,
        block: u64,
        set: u32,
        binding: u32,
    },
}

/// A plan's data bound for the engine.
#[derive(Clone, Debug)]
pub struct Inputs {
    pub resources: Resources,
    /// Each binding's loaded data, by (set, binding, element): its element type and shape
    /// (a buffer's bytes are in `resources` only; here they are empty).
    pub data: BTreeMap<(u32, u32, u32), Data>,
}

impl RunPlan {
    /// A buffer's data.
    pub fn load_buffer(&self, b: &BufferPlan) -> Result<Data, InputError> {
        b.data
            .load(&self.base, self.config.memory_limit)
            .map_err(|source| InputError::Data {
                origin: b.origin.clone(),
                source,
            })
    }

    /// A `.npy` buffer's dtype against its binding's element type in the module
    /// (`elements`, [`crate::element::buffer_elements`]); `bindings` name the binding.
    pub fn check_buffer_dtype(
        &self,
        b: &BufferPlan,
        data: &Data,
        elements: &BTreeMap<(u32, u32), ElemType>,
        bindings: &[BindingInfo],
    ) -> Result<(), Box<DtypeError>> {
        let name = bindings
            .iter()
            .find(|i| (i.set, i.binding) == (b.set, b.binding))
            .and_then(|i| i.name.clone());
        crate::element::check_npy(
            &b.data,
            data,
            elements,
            (b.set, b.binding, b.index),
            name,
            &b.origin,
            false,
        )
    }

    /// A tensor's data and shape (given, else the `.npy` file's; both must agree).
    pub fn load_tensor(&self, t: &TensorPlan) -> Result<(Tensor, Data), InputError> {
        let data = t
            .data
            .load(&self.base, self.config.memory_limit)
            .map_err(|source| InputError::Data {
                origin: t.origin.clone(),
                source,
            })?;
        let shape = match (&t.shape, &data.shape) {
            (Some(s), Some(n)) if element_count(s) != element_count(n) => {
                return Err(InputError::ShapeMismatch {
                    origin: t.origin.clone(),
                    shape: s.clone(),
                    elements: element_count(s).unwrap_or(u64::MAX),
                    npy_shape: n.clone(),
                    npy_elements: element_count(n).unwrap_or(u64::MAX),
                });
            }
            (Some(s), _) => s.clone(),
            (None, Some(n)) => n.clone(),
            (None, None) => {
                return Err(InputError::NoShape {
                    origin: t.origin.clone(),
                });
            }
        };
        let tensor = Tensor {
            shape,
            strides: t.strides.clone(),
            data: data.bytes.clone(),
        };
        Ok((tensor, data))
    }

    /// The push constants' bytes, if any.
    pub fn load_push(&self) -> Result<Option<Vec<u8>>, InputError> {
        match &self.push {
            Some(push) => Ok(Some(
                push.load(&self.base, self.config.memory_limit)
                    .map_err(InputError::Push)?
                    .bytes,
            )),
            None => Ok(None),
        }
    }

    /// Loads every buffer, tensor and the push constants into engine resources, in plan
    /// order; `bindings` (the entry point's) give the sizes to warn about and the tensors'
    /// element sizes.
    pub fn load_inputs(
        &self,
        bindings: &[BindingInfo],
        warn: &mut dyn FnMut(Warning),
    ) -> Result<Inputs, InputError> {
        let mut res = Resources::new();
        let mut loaded: BTreeMap<(u32, u32, u32), Data> = BTreeMap::new();
        for b in &self.buffers {
            let mut data = self.load_buffer(b)?;
            if let Some(info) = bindings
                .iter()
                .find(|i| i.set == b.set && i.binding == b.binding)
                && (data.bytes.len() as u64) < info.static_size
            {
                warn(Warning::ShortBuffer {
                    origin: b.origin.clone(),
                    bytes: data.bytes.len(),
                    block: info.static_size,
                    set: b.set,
                    binding: b.binding,
                });
            }
            let index = b.index.unwrap_or(0);
            // (Moved, not copied: input data of tens of MiB is made once.)
            res.set_buffer_element(b.set, b.binding, index, std::mem::take(&mut data.bytes));
            loaded.insert((b.set, b.binding, index), data);
        }
        for t in &self.tensors {
            let info = bindings
                .iter()
                .find(|i| i.set == t.set && i.binding == t.binding);
            let element_bytes = info.and_then(|i| i.tensor).map_or(1, |i| i.element_bytes);
            let (tensor, data) = self.load_tensor(t)?;
            if let Some(elem) = data.elem
                && elem.size() as u32 != element_bytes
            {
                return Err(InputError::TensorElement {
                    origin: t.origin.clone(),
                    elem,
                    element_bytes,
                });
            }
            let index = t.index.unwrap_or(0);
            res.set_tensor_element(t.set, t.binding, index, tensor);
            loaded.insert((t.set, t.binding, index), data);
        }
        if let Some(push) = self.load_push()? {
            // The data must be the block exactly, as a uniform buffer's data must cover its
            // block: shorter would leave members undefined, longer is a mistake in the data.
            if let Some(info) = bindings
                .iter()
                .find(|i| i.kind == spvx_exec::BindingKind::PushConstant)
                && push.len() as u64 != info.static_size
            {
                return Err(InputError::PushSize {
                    bytes: push.len(),
                    block: info.static_size,
                });
            }
            res.push_constants = push;
        }
        Ok(Inputs {
            resources: res,
            data: loaded,
        })
    }
}
