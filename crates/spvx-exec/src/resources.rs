//! What a run binds: buffers by (set, binding) as bytes and push constants, and the description
//! of each binding an entry point uses ([`BindingInfo`]) so that a caller can prepare them.

use std::collections::BTreeMap;

/// What kind of resource a binding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BindingKind {
    /// A `StorageBuffer` variable, or a `Uniform` variable whose block is `BufferBlock`.
    StorageBuffer,
    /// A `Uniform` variable with a `Block` struct (read-only).
    UniformBuffer,
    /// The `PushConstant` block (no set or binding; stored in [`Resources::push_constants`]).
    PushConstant,
    /// A storage tensor (SPV_ARM_tensors): a `UniformConstant` variable of `OpTypeTensorARM`,
    /// bound with [`Resources::set_tensor`].
    Tensor,
}

/// What the module says about a tensor binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TensorInfo {
    /// The tensor type's Rank.
    pub rank: u32,
    /// Bytes per element (booleans: 1, as `VK_FORMAT_R8_BOOL_ARM`).
    pub element_bytes: u32,
}

/// A bound tensor: shape, byte strides and the element bytes, as VK_ARM_tensors describes a
/// linear tensor (dimensions outermost first; address of (x0, …, xn) = Σ xi · strides[i]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tensor {
    pub shape: Vec<u64>,
    /// Byte strides; `None` means packed (innermost stride = element size).
    pub strides: Option<Vec<u64>>,
    pub data: Vec<u8>,
}

impl Tensor {
    /// The strides, computing packed ones when none are given.
    pub fn byte_strides(&self, element_bytes: u64) -> Vec<u64> {
        if let Some(s) = &self.strides {
            return s.clone();
        }
        let mut s = vec![element_bytes; self.shape.len()];
        for i in (0..self.shape.len().saturating_sub(1)).rev() {
            s[i] = s[i + 1].saturating_mul(self.shape[i + 1]);
        }
        s
    }
}

/// One resource an entry point uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BindingInfo {
    /// `DescriptorSet` decoration (0 for push constants).
    pub set: u32,
    /// `Binding` decoration (0 for push constants).
    pub binding: u32,
    pub kind: BindingKind,
    /// Bytes of the block's fixed part (for a block ending in a runtime array, the offset of
    /// that array).
    pub static_size: u64,
    /// Stride of the trailing runtime array, if the block ends in one.
    pub runtime_stride: Option<u32>,
    /// The variable's name (`OpName`), if any.
    pub name: Option<String>,
    /// For tensor bindings: rank and element size.
    pub tensor: Option<TensorInfo>,
}

/// The data a run reads and writes: buffers keyed by (set, binding), and push constants.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resources {
    buffers: BTreeMap<(u32, u32), Vec<u8>>,
    tensors: BTreeMap<(u32, u32), Tensor>,
    /// The push-constant bytes (reads beyond them give zero).
    pub push_constants: Vec<u8>,
}

impl Resources {
    /// No buffers, no push constants.
    pub fn new() -> Self {
        Self::default()
    }

    /// Binds `bytes` at (set, binding), replacing any previous buffer.
    pub fn set_buffer(&mut self, set: u32, binding: u32, bytes: Vec<u8>) {
        self.buffers.insert((set, binding), bytes);
    }

    /// Binds a buffer of 32-bit words (little-endian).
    pub fn set_words(&mut self, set: u32, binding: u32, words: &[u32]) {
        let bytes = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        self.set_buffer(set, binding, bytes);
    }

    /// The buffer at (set, binding).
    pub fn buffer(&self, set: u32, binding: u32) -> Option<&[u8]> {
        self.buffers.get(&(set, binding)).map(Vec::as_slice)
    }

    /// The buffer at (set, binding), mutably.
    pub fn buffer_mut(&mut self, set: u32, binding: u32) -> Option<&mut Vec<u8>> {
        self.buffers.get_mut(&(set, binding))
    }

    /// The buffer at (set, binding) read as little-endian 32-bit words (a trailing partial word
    /// is dropped).
    pub fn words(&self, set: u32, binding: u32) -> Option<Vec<u32>> {
        self.buffer(set, binding).map(|b| {
            b.chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        })
    }

    /// Binds a tensor at (set, binding), replacing any previous one.
    pub fn set_tensor(&mut self, set: u32, binding: u32, tensor: Tensor) {
        self.tensors.insert((set, binding), tensor);
    }

    /// The tensor at (set, binding).
    pub fn tensor(&self, set: u32, binding: u32) -> Option<&Tensor> {
        self.tensors.get(&(set, binding))
    }

    /// The tensor at (set, binding), mutably.
    pub fn tensor_mut(&mut self, set: u32, binding: u32) -> Option<&mut Tensor> {
        self.tensors.get_mut(&(set, binding))
    }

    /// Every bound buffer, in (set, binding) order.
    pub fn buffers(&self) -> impl Iterator<Item = ((u32, u32), &[u8])> {
        self.buffers.iter().map(|(k, v)| (*k, v.as_slice()))
    }
}
