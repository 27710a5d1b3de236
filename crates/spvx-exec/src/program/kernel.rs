//! What a compiled Kernel (OpenCL) entry point needs at run time besides its code: the
//! workgroup size it requires (if any) and where each kernel argument goes.

use super::{Leaf, Slot};
use crate::resources::KernelArgInfo;

/// How the bytes of one kernel argument reach the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamPlace {
    /// A pointer argument (buffer or local memory): the parameter slot gets the pointer.
    Pointer,
    /// A scalar or vector argument: its leaves are read from the argument's bytes (at the
    /// leaves' C-layout offsets) into the parameter's slots.
    Value { leaves: Box<[Leaf]> },
    /// A by-value aggregate passed as a Function-storage pointer (llvm-spirv's `ByVal`): the
    /// bytes are copied to `offset` in every invocation's private memory, and the parameter
    /// slot points there.
    ByValue { offset: u32, size: u32 },
}

/// One parameter of the kernel function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelParam {
    /// The first slot of the parameter.
    pub slot: Slot,
    pub place: ParamPlace,
}

/// The Kernel-specific part of a [`super::Program`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelInfo {
    /// The workgroup size the module requires (LocalSize), if it gives one; otherwise the
    /// dispatch's local size is used (`Resources::set_local_size`).
    pub local_size: Option<[u32; 3]>,
    /// The arguments as a caller sees them, in parameter order.
    pub args: Vec<KernelArgInfo>,
    /// Where each argument goes, in parameter order.
    pub params: Vec<KernelParam>,
    /// Bits of an integer holding a pointer (64 for Physical64).
    pub pointer_bits: u32,
}

/// A pointer operation of physical addressing on pointers held as `memory::Ptr` bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PtrOp {
    /// OpGenericCastToPtr(Explicit) to storage class `class`: the pointer if it points into
    /// memory of that class, else the null pointer (OpenCL `to_global` and friends).
    GenericToClass(u32),
    /// OpGenericPtrMemSemantics: WorkgroupMemory (0x100) or CrossWorkgroupMemory (0x200), 0
    /// for private memory and null.
    MemSemantics,
    /// OpPtrDiff: (a − b) / `elem` bytes, as a signed integer of the result width (`b` bits);
    /// pointers into different memory objects give the difference of their bit patterns.
    Diff { elem: u32, bits: u8 },
}
