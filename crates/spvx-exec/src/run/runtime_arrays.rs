//! Runtime-sized arrays of buffers or tensors (`buffer B {..} b[];` with
//! RuntimeDescriptorArray; runtime arrays of tensors): the array has as many elements as the
//! run binds (elements 0, 1, … with no gap), which get the memory spaces after every other
//! binding; the array variable's register points into the first of them and its length
//! register holds the count, so an index past the end is reported as for fixed arrays.

use super::tensor_view;
use crate::error::ExecError;
use crate::memory::{Ptr, SPACE_BUFFER0, SPACE_NONE, SharedBuffer, TensorView};
use crate::program::{Program, Slot};
use crate::resources::{BindingInfo, BindingKind, Resources};

/// The elements bound for a program's runtime arrays, in space order.
pub(crate) struct Bound {
    /// Index in the dispatch's buffer list of the first element.
    pub first: usize,
    /// Each element's binding (the placeholder's, with `count` = the length and its index).
    pub elements: Vec<BindingInfo>,
    /// Register values to put in every lane: pointers and lengths.
    pub registers: Vec<(Slot, u64)>,
}

/// Appends the bound elements of every runtime array of `prog` to `buffers` / `tensors`
/// (adding their bytes to `bytes`).
pub(crate) fn bind(
    prog: &Program,
    res: &Resources,
    track_writers: bool,
    buffers: &mut Vec<SharedBuffer>,
    tensors: &mut Vec<Option<TensorView>>,
    bytes: &mut u64,
) -> Result<Bound, ExecError> {
    let mut bound = Bound {
        first: buffers.len(),
        elements: Vec::new(),
        registers: Vec::new(),
    };
    for ra in &prog.runtime_arrays {
        let Some(placeholder) = prog.bindings.get(ra.binding) else {
            continue;
        };
        let (set, binding) = (placeholder.set, placeholder.binding);
        let length = match placeholder.kind {
            BindingKind::Tensor => res.tensor_element_count(set, binding),
            _ => res.buffer_element_count(set, binding),
        };
        let space = SPACE_BUFFER0 as u64 + buffers.len() as u64;
        if space + length as u64 >= SPACE_NONE as u64 {
            return Err(ExecError::Config(format!(
                "{length} elements bound to the runtime array at set {set}, binding {binding}: too many buffers"
            )));
        }
        bound
            .registers
            .push((ra.pointer, Ptr::new(space as u32, 0).0));
        bound.registers.push((ra.length, length as u64));
        for index in 0..length {
            let info = BindingInfo {
                count: length,
                element: Some(index),
                ..placeholder.clone()
            };
            let (buffer, view) = element(&info, res, track_writers)?;
            *bytes += buffer.len() as u64;
            buffers.push(buffer);
            tensors.push(view);
            bound.elements.push(info);
        }
    }
    Ok(bound)
}

/// The memory object of one element (a missing one is an error naming it).
fn element(
    info: &BindingInfo,
    res: &Resources,
    track_writers: bool,
) -> Result<(SharedBuffer, Option<TensorView>), ExecError> {
    let (set, binding, index) = (info.set, info.binding, info.element_index());
    if info.kind == BindingKind::Tensor {
        let t = res
            .tensor_element(set, binding, index)
            .ok_or_else(|| ExecError::Tensor {
                set,
                binding,
                message: format!("no tensor bound as element {index} of the array of tensors"),
            })?;
        let view = tensor_view(info, t)?;
        return Ok((SharedBuffer::new(&t.data, false), Some(view)));
    }
    let data = res
        .buffer_element(set, binding, index)
        .ok_or(ExecError::MissingBufferElement {
            set,
            binding,
            index,
        })?;
    let read_only = info.kind == BindingKind::UniformBuffer;
    let buffer = SharedBuffer::new(data, read_only);
    Ok((
        if track_writers && !read_only {
            buffer.with_writer_tracking()
        } else {
            buffer
        },
        None,
    ))
}

/// Copies the elements' final bytes back into `res`.
pub(crate) fn write_back(
    bound: &Bound,
    buffers: &[SharedBuffer],
    res: &mut Resources,
    cfg: &crate::config::RunConfig,
) {
    let mine = buffers.iter().skip(bound.first);
    for (b, info) in mine.zip(&bound.elements) {
        let (set, binding, index) = (info.set, info.binding, info.element_index());
        match info.kind {
            // Uniform buffers too: they come back unchanged (see `run::run`).
            BindingKind::StorageBuffer | BindingKind::UniformBuffer => {
                if let Some(dst) = res.buffer_element_mut(set, binding, index)
                    && super::copy_back_needed(info, b, dst, cfg)
                {
                    *dst = b.to_bytes();
                }
            }
            BindingKind::Tensor => {
                if let Some(t) = res.tensor_element_mut(set, binding, index)
                    && super::copy_back_needed(info, b, &t.data, cfg)
                {
                    t.data = b.to_bytes();
                }
            }
            _ => {}
        }
    }
}
