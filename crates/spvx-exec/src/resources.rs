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
    /// For a tensor binding whose type has a Shape: that shape (outermost first), which the
    /// bound tensor must have.
    pub tensor_shape: Option<Vec<u64>>,
    /// The length of the array of buffers this binding is (1 for a plain binding). An array
    /// of buffers appears once per element, in element order, each its own memory object.
    /// 0 for a runtime-sized array (`buffer B {..} b[];`), listed once (element 0): it has as
    /// many elements as the run binds (see [`Resources::buffer_element_count`]).
    pub count: u32,
    /// Which element of an array of buffers this is (`None` for a plain binding).
    pub element: Option<u32>,
    /// False when the module provably never writes the binding's memory
    /// (`spvx_spirv::index::ModuleIndex::written_variables`): a run leaves its bytes as they were
    /// and does not copy them back.
    pub written: bool,
}

impl BindingInfo {
    /// The element index to bind (0 for a plain binding).
    pub fn element_index(&self) -> u32 {
        self.element.unwrap_or(0)
    }
}

/// What kind of argument a Kernel (OpenCL) entry point's parameter is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KernelArgKind {
    /// A `__global` (CrossWorkgroup) pointer: bind a buffer ([`KernelArg::Buffer`]).
    Buffer,
    /// A `__constant` (UniformConstant) pointer: bind a buffer; the kernel cannot write it.
    ConstantBuffer,
    /// A `__local` (Workgroup) pointer: give a byte size ([`KernelArg::Local`]).
    Local,
    /// A scalar or vector passed by value: give its bytes ([`KernelArg::Scalar`]).
    Scalar,
    /// A struct passed by value (a Function-storage pointer with the ByVal attribute): give
    /// its bytes in C layout ([`KernelArg::Scalar`]).
    ByValue,
}

/// One argument of a Kernel entry point, as [`crate::CompiledModule::kernel_args`] lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelArgInfo {
    /// The argument index (0 = the kernel function's first parameter).
    pub index: u32,
    pub kind: KernelArgKind,
    /// Bytes of the value (Scalar, ByValue), or of the pointee type (pointers; 0 when the
    /// pointee has no size, e.g. `void*` or a runtime array).
    pub size: u64,
    /// The parameter's name (`OpName`), if any.
    pub name: Option<String>,
}

/// The value of one Kernel argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KernelArg {
    /// A buffer's bytes (for `__global` and `__constant` pointers); written back after the run
    /// (`__global` ones).
    Buffer(Vec<u8>),
    /// Local memory of this many bytes per workgroup (zero-initialised).
    Local(u64),
    /// The bytes of a value argument, little-endian in C layout.
    Scalar(Vec<u8>),
}

/// The data a run reads and writes: buffers keyed by (set, binding), push constants, and for
/// Kernel entry points the arguments and the dispatch's local size.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resources {
    buffers: BTreeMap<(u32, u32), Vec<u8>>,
    /// Elements 1.. of arrays of buffers, keyed (set, binding, element).
    elements: BTreeMap<(u32, u32, u32), Vec<u8>>,
    tensors: BTreeMap<(u32, u32), Tensor>,
    /// Elements 1.. of arrays of tensors, keyed (set, binding, element).
    tensor_elements: BTreeMap<(u32, u32, u32), Tensor>,
    args: BTreeMap<u32, KernelArg>,
    /// The push-constant bytes (reads beyond them give zero).
    pub push_constants: Vec<u8>,
    /// The workgroup size of a Kernel dispatch whose module gives none (OpenCL's
    /// `local_work_size`). When the module has LocalSize, this must equal it or be `None`.
    pub local_size: Option<[u32; 3]>,
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

    /// Binds `bytes` as element `index` of the array of buffers at (set, binding); element 0
    /// is the buffer [`Resources::set_buffer`] binds.
    pub fn set_buffer_element(&mut self, set: u32, binding: u32, index: u32, bytes: Vec<u8>) {
        if index == 0 {
            self.set_buffer(set, binding, bytes);
        } else {
            self.elements.insert((set, binding, index), bytes);
        }
    }

    /// Element `index` of the array of buffers at (set, binding) (element 0 is
    /// [`Resources::buffer`]).
    pub fn buffer_element(&self, set: u32, binding: u32, index: u32) -> Option<&[u8]> {
        if index == 0 {
            return self.buffer(set, binding);
        }
        self.elements.get(&(set, binding, index)).map(Vec::as_slice)
    }

    /// Element `index` of the array of buffers at (set, binding), mutably.
    pub fn buffer_element_mut(
        &mut self,
        set: u32,
        binding: u32,
        index: u32,
    ) -> Option<&mut Vec<u8>> {
        if index == 0 {
            return self.buffer_mut(set, binding);
        }
        self.elements.get_mut(&(set, binding, index))
    }

    /// The number of elements of an array of buffers at (set, binding): one more than the
    /// highest element bound (0 when none is). This is the length of a runtime-sized array of
    /// buffers (`buffer B {..} b[];`); every element below it must be bound.
    pub fn buffer_element_count(&self, set: u32, binding: u32) -> u32 {
        let last = self
            .elements
            .range((set, binding, 0)..=(set, binding, u32::MAX))
            .next_back()
            .map(|(k, _)| k.2);
        match last {
            Some(i) => i.saturating_add(1),
            None => self.buffers.contains_key(&(set, binding)) as u32,
        }
    }

    /// The number of elements of an array of tensors at (set, binding), as
    /// [`Resources::buffer_element_count`] counts them.
    pub fn tensor_element_count(&self, set: u32, binding: u32) -> u32 {
        let last = self
            .tensor_elements
            .range((set, binding, 0)..=(set, binding, u32::MAX))
            .next_back()
            .map(|(k, _)| k.2);
        match last {
            Some(i) => i.saturating_add(1),
            None => self.tensors.contains_key(&(set, binding)) as u32,
        }
    }

    /// Every bound buffer element as ((set, binding, element), bytes), in that order
    /// (plain bindings are element 0).
    pub fn buffer_elements(&self) -> impl Iterator<Item = ((u32, u32, u32), &[u8])> {
        let firsts = self
            .buffers
            .iter()
            .map(|(&(s, b), v)| ((s, b, 0), v.as_slice()));
        let rest = self.elements.iter().map(|(k, v)| (*k, v.as_slice()));
        let mut all: Vec<_> = firsts.chain(rest).collect();
        all.sort_by_key(|(k, _)| *k);
        all.into_iter()
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

    /// Binds `tensor` as element `index` of the array of tensors at (set, binding); element 0
    /// is the tensor [`Resources::set_tensor`] binds.
    pub fn set_tensor_element(&mut self, set: u32, binding: u32, index: u32, tensor: Tensor) {
        if index == 0 {
            self.set_tensor(set, binding, tensor);
        } else {
            self.tensor_elements.insert((set, binding, index), tensor);
        }
    }

    /// Element `index` of the array of tensors at (set, binding) (element 0 is
    /// [`Resources::tensor`]).
    pub fn tensor_element(&self, set: u32, binding: u32, index: u32) -> Option<&Tensor> {
        if index == 0 {
            return self.tensor(set, binding);
        }
        self.tensor_elements.get(&(set, binding, index))
    }

    /// Element `index` of the array of tensors at (set, binding), mutably.
    pub fn tensor_element_mut(
        &mut self,
        set: u32,
        binding: u32,
        index: u32,
    ) -> Option<&mut Tensor> {
        if index == 0 {
            return self.tensor_mut(set, binding);
        }
        self.tensor_elements.get_mut(&(set, binding, index))
    }

    /// Binds Kernel argument `index`, replacing any previous value.
    pub fn set_arg(&mut self, index: u32, arg: KernelArg) {
        self.args.insert(index, arg);
    }

    /// Kernel argument `index`.
    pub fn arg(&self, index: u32) -> Option<&KernelArg> {
        self.args.get(&index)
    }

    /// Kernel argument `index`, mutably.
    pub fn arg_mut(&mut self, index: u32) -> Option<&mut KernelArg> {
        self.args.get_mut(&index)
    }

    /// The bytes of Kernel buffer argument `index` (after a run: its contents then).
    pub fn arg_buffer(&self, index: u32) -> Option<&[u8]> {
        match self.args.get(&index) {
            Some(KernelArg::Buffer(b)) => Some(b),
            _ => None,
        }
    }

    /// The first argument index at or beyond `count` that is bound, if any.
    pub fn args_beyond(&self, count: u32) -> Option<u32> {
        self.args.range(count..).next().map(|(k, _)| *k)
    }

    /// Sets the local size of a Kernel dispatch (see [`Resources::local_size`]).
    pub fn set_local_size(&mut self, size: [u32; 3]) {
        self.local_size = Some(size);
    }

    /// Every bound buffer, in (set, binding) order.
    pub fn buffers(&self) -> impl Iterator<Item = ((u32, u32), &[u8])> {
        self.buffers.iter().map(|(k, v)| (*k, v.as_slice()))
    }
}
