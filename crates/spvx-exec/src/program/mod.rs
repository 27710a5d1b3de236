//! The compiled program (the "bytecode"): functions made of segments of straight-line
//! [`Inst`]s, each ended by a [`Term`] whose targets are segment indices.
//!
//! A segment is a basic block, or a part of one: the compiler splits a block after each
//! function call and each control barrier so that the scheduler can switch frames or yield to
//! the workgroup there. Segment indices follow the block order the compiler chose (a reverse
//! post-order with merge and continue blocks placed after the constructs they close), which the
//! scheduler uses as its reconvergence priority (see `exec::control`).

pub mod glsl;
pub mod inst;
pub mod kernel;
pub mod math;
pub mod mma;
pub mod opencl;
pub mod print;
pub mod wide;

pub use inst::*;

use crate::resources::BindingInfo;
use spvx_spirv::op::Op;

/// Index of a segment within its function.
pub type SegId = u32;

/// A control-flow edge: the target segment and the OpPhi copies (`dst`, `src`) made, as a
/// parallel copy, for the lanes that take it.
#[derive(Clone, Debug, PartialEq)]
pub struct Edge {
    pub target: SegId,
    pub copies: Box<[(Slot, Slot)]>,
    /// Some copy reads a register another copy writes: copy through a temporary.
    pub parallel: bool,
}

/// The end of a segment.
#[derive(Clone, Debug, PartialEq)]
pub enum Term {
    /// OpBranch, or the fall-through into the next part of a split block.
    Branch(Edge),
    BranchConditional {
        cond: Slot,
        on_true: Edge,
        on_false: Edge,
    },
    Switch {
        selector: Slot,
        bits: u8,
        cases: Box<[(u64, Edge)]>,
        default: Edge,
    },
    Return,
    /// OpReturnValue: copy `count` slots from `src` to the function's return slots.
    ReturnValue {
        src: Slot,
        count: u32,
    },
    /// OpFunctionCall: copy the arguments into the callee's parameter slots, run the callee for
    /// the active lanes, then continue at `next` (whose first instructions copy the result).
    Call {
        func: u32,
        args: Box<[(Slot, Slot)]>,
        next: SegId,
    },
    /// OpControlBarrier with Workgroup execution scope: every subgroup of the workgroup waits
    /// here; then continue at `next`. (Subgroup-scope barriers compile to a plain branch.)
    Barrier {
        next: SegId,
    },
    /// OpKill / OpTerminateInvocation: the lanes stop.
    Kill,
    /// OpUnreachable: reported as undefined behaviour; the lanes stop.
    Unreachable,
}

/// One segment: `code[start..end]` then `term`.
#[derive(Clone, Debug, PartialEq)]
pub struct Segment {
    pub start: u32,
    pub end: u32,
    pub term: Term,
    /// Index (in the module's flat instruction list) of the terminating instruction.
    pub term_source: u32,
}

/// A compiled function.
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    /// The SPIR-V result id of the `OpFunction`.
    pub id: u32,
    pub code: Vec<Inst>,
    /// For each instruction of `code`, the index of the SPIR-V instruction it came from.
    pub source: Vec<u32>,
    pub segments: Vec<Segment>,
    /// The first segment (the entry block).
    pub entry: SegId,
    /// The first slot of the return value and its slot count (count 0 for void).
    pub ret: (Slot, u32),
}

/// A built-in input variable the run fills before an invocation starts: `components`
/// little-endian integers of `component_bytes` (4, or 8 for OpenCL's 64-bit `size_t`) at
/// `offset` in the invocation's private memory, or, when `reg` is set (the variable was
/// promoted to registers, `compile::promote`), in the registers `reg..reg + components`
/// (each the value reduced to `8 × component_bytes` bits; `offset` is then unused).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuiltinVar {
    pub builtin: Builtin,
    pub offset: u32,
    pub components: u32,
    pub component_bytes: u32,
    pub reg: Option<Slot>,
}

/// What register promotion (`compile::promote`) did to a program: counts for tests, dumps and
/// benchmarks, so that a lost speed-up shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PromotionStats {
    /// Function variables given registers instead of private memory.
    pub variables: u32,
    /// Function variables left in private memory (pointer escapes, dynamic index, ...).
    pub kept_in_memory: u32,
    /// Built-in input variables read from registers.
    pub builtins: u32,
    /// OpLoads from promoted variables that read the variable's registers directly (no copy).
    pub aliased_loads: u32,
}

/// The built-ins of a compute invocation the engine provides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    GlobalInvocationId,
    LocalInvocationId,
    WorkgroupId,
    NumWorkgroups,
    LocalInvocationIndex,
    WorkgroupSize,
    SubgroupSize,
    SubgroupLocalInvocationId,
    SubgroupId,
    NumSubgroups,
    /// OpenCL: the number of dimensions in use (see `dispatch::builtins`).
    WorkDim,
    /// OpenCL: workgroups × workgroup size, per dimension.
    GlobalSize,
    /// OpenCL: the workgroup size (no non-uniform workgroups: equal to WorkgroupSize).
    EnqueuedWorkgroupSize,
    /// OpenCL: always 0 (no global offset).
    GlobalOffset,
    /// OpenCL: the linear global id (x fastest).
    GlobalLinearId,
    /// OpenCL: the subgroup size.
    SubgroupMaxSize,
    /// OpenCL: the number of subgroups (workgroups are uniform).
    NumEnqueuedSubgroups,
    /// SubgroupEqMask, SubgroupGeMask, SubgroupGtMask, SubgroupLeMask, SubgroupLtMask: uvec4
    /// masks of the lanes `==`, `>=`, `>`, `<=`, `<` the invocation's lane, among the
    /// subgroup's `SubgroupSize` lanes (components 2 and 3 are 0: at most 64 lanes).
    SubgroupMask(MaskCompare),
}

/// Which lanes a subgroup mask built-in sets, relative to the invocation's own lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaskCompare {
    Eq,
    Ge,
    Gt,
    Le,
    Lt,
}

/// A runtime-sized array of buffers or tensors (`buffer B {..} b[];`, RuntimeDescriptorArray):
/// its one placeholder in `Program::bindings` (`count` 0, element 0), and the registers the
/// run fills once it knows how many elements are bound: the variable's pointer (into the
/// first element's memory space) and the length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuntimeArray {
    /// Index of the placeholder in `Program::bindings`.
    pub binding: usize,
    /// The variable's register (a pointer).
    pub pointer: Slot,
    /// The register holding the number of elements bound.
    pub length: Slot,
}

/// A whole compiled entry point.
#[derive(Clone, Debug)]
pub struct Program {
    pub functions: Vec<Function>,
    /// Index of the entry point's function in `functions`.
    pub entry: u32,
    /// Registers per lane.
    pub slot_count: u32,
    /// Values every lane's registers start with: constants and the pointers of global
    /// variables.
    pub init: Vec<(Slot, u64)>,
    /// Bytes of private memory per invocation (Private and Function variables, built-ins).
    pub private_bytes: u32,
    /// Initial contents of the private memory (Private variable initialisers).
    pub private_init: Vec<u8>,
    /// Bytes of workgroup memory per workgroup.
    pub workgroup_bytes: u32,
    pub builtins: Vec<BuiltinVar>,
    /// The workgroup size (LocalSize or LocalSizeId).
    pub local_size: [u32; 3],
    /// The resources the entry point uses; buffer `i` is memory space `2 + i`.
    pub bindings: Vec<BindingInfo>,
    /// The runtime-sized arrays of buffers or tensors among `bindings`; the run gives their
    /// elements the memory spaces after every other binding.
    pub runtime_arrays: Vec<RuntimeArray>,
    /// The opcode of every instruction of the module, by flat index, to name instructions in
    /// errors and reports.
    pub opcodes: Vec<Op>,
    /// For a Kernel (OpenCL) entry point: its arguments and required workgroup size.
    pub kernel: Option<kernel::KernelInfo>,
    /// What register promotion did.
    pub promotion: PromotionStats,
    /// Reset every register from the template at each subgroup start. Not needed for a
    /// validated module (every register is written before it is read: definitions dominate
    /// uses), so only set when the module was compiled without validation.
    pub reset_registers: bool,
    /// OpControlBarrier instructions whose execution scope is not Workgroup (Subgroup: the
    /// lanes of a subgroup run in lock step, so the interpreter needs nothing for them; the
    /// JIT, which runs invocations one by one, refuses programs that have any).
    pub other_barriers: u32,
    /// A Kernel entry point's SubgroupSize execution mode: the only subgroup size it may run
    /// with (`run` refuses another).
    pub required_subgroup_size: Option<u32>,
}
