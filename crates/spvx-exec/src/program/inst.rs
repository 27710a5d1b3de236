//! The register instruction set: one compact enum of straight-line instructions with
//! pre-resolved slot operands and the operation kind decided at compile time.
//!
//! Every operand is a [`Slot`] (a register holding one scalar per lane). Vector and composite
//! values are scalarised by the compiler: a value of `n` scalar leaves occupies `n` consecutive
//! slots, and a vector instruction becomes one scalar instruction per component. No strings, no
//! grammar lookups and no type inspection happen at run time.

use spvx_num::intdot::DotSpec;
use spvx_num::mixdot::{Fp8Encoding, Half16Encoding, MixOp};

/// A register: one 64-bit scalar per lane (integers zero-extended bit patterns, floats their
/// bit patterns, booleans 0 or 1, pointers `memory::Ptr` encodings).
pub type Slot = u32;

/// Float formats the arithmetic instructions work on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatFmt {
    F16,
    F32,
    F64,
    /// bfloat16 (`BFloat16KHR`): storage and conversions only.
    BF16,
    /// fp8 E4M3 (`Float8E4M3EXT`): storage and conversions only.
    E4M3,
    /// fp8 E5M2 (`Float8E5M2EXT`): storage and conversions only.
    E5M2,
}

impl FloatFmt {
    /// Width in bits.
    pub fn bits(self) -> u32 {
        match self {
            FloatFmt::F16 | FloatFmt::BF16 => 16,
            FloatFmt::F32 => 32,
            FloatFmt::F64 => 64,
            FloatFmt::E4M3 | FloatFmt::E5M2 => 8,
        }
    }

    /// The spvx-num format description.
    pub fn format(self) -> spvx_num::float::Format {
        use spvx_num::float::Format;
        match self {
            FloatFmt::F16 => Format::F16,
            FloatFmt::F32 => Format::F32,
            FloatFmt::F64 => Format::F64,
            FloatFmt::BF16 => Format::BF16,
            FloatFmt::E4M3 => Format::E4M3,
            FloatFmt::E5M2 => Format::E5M2,
        }
    }
}

/// The kind of one scalar leaf of a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scalar {
    Bool,
    /// An integer of this many bits (8, 16, 32 or 64); signedness lives in the instructions.
    Int(u8),
    Float(FloatFmt),
    /// A logical pointer.
    Ptr,
}

impl Scalar {
    /// Width in bits of the register value.
    pub fn bits(self) -> u32 {
        match self {
            Scalar::Bool => 1,
            Scalar::Int(w) => w as u32,
            Scalar::Float(f) => f.bits(),
            Scalar::Ptr => 64,
        }
    }

    /// Bytes the scalar takes in memory (booleans take 4, as a 32-bit 0 or 1; integers of
    /// other widths than 8, 16, 32, 64 take the next of those sizes).
    pub fn mem_bytes(self) -> u32 {
        match self {
            Scalar::Bool => 4,
            Scalar::Ptr => 8,
            other => other.bits().div_ceil(8).next_power_of_two(),
        }
    }
}

/// Two-operand integer operations (result of the operand width).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IBinOp {
    Add,
    Sub,
    Mul,
    UDiv,
    SDiv,
    UMod,
    SRem,
    SMod,
    Shl,
    ShrLogical,
    ShrArith,
    And,
    Or,
    Xor,
}

/// One-operand integer operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IUnOp {
    Negate,
    Not,
    BitReverse,
    BitCount,
}

/// Integer comparisons (result bool).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ICmpOp {
    Eq,
    Ne,
    UGt,
    UGe,
    ULt,
    ULe,
    SGt,
    SGe,
    SLt,
    SLe,
}

/// Two-operand float operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FBinOp {
    Add,
    Sub,
    Mul,
    Div,
    /// OpFRem: sign of the dividend (C fmod).
    Rem,
    /// OpFMod: sign of the divisor.
    Mod,
}

/// Float comparisons: the relation and whether it is the ordered form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FCmpOp {
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
    /// OpOrdered (with `ordered`): neither operand is NaN.
    Ord,
    /// OpUnordered (without `ordered`): either operand is NaN.
    Uno,
}

/// Float classification tests (result bool).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FClassOp {
    IsNan,
    IsInf,
    IsFinite,
    IsNormal,
    SignBitSet,
}

/// Boolean operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogicOp {
    And,
    Or,
    Equal,
    NotEqual,
}

/// Conversions between scalar kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConvOp {
    /// OpUConvert: zero-extend or truncate.
    UConvert { from: u8, to: u8 },
    /// OpSConvert: sign-extend or truncate.
    SConvert { from: u8, to: u8 },
    /// OpSatConvertSToU, OpSatConvertUToS, and OpUConvert/OpSConvert decorated
    /// SaturatedConversion: the operand (signed or not) clamped to the result's range (signed
    /// or not).
    SatConvert {
        from: u8,
        to: u8,
        from_signed: bool,
        to_signed: bool,
    },
    /// OpFConvert (round to nearest even, or the FPRoundingMode decoration).
    FConvert {
        from: FloatFmt,
        to: FloatFmt,
        mode: spvx_num::float::RoundingMode,
    },
    /// OpConvertFToU / OpConvertFToS: round toward zero, or by the FPRoundingMode decoration;
    /// out-of-range values saturate (NaN gives 0).
    FToI {
        from: FloatFmt,
        to: u8,
        signed: bool,
        mode: spvx_num::float::RoundingMode,
    },
    /// OpConvertUToF / OpConvertSToF: round to nearest even (or the decoration's mode).
    IToF {
        from: u8,
        to: FloatFmt,
        signed: bool,
        mode: spvx_num::float::RoundingMode,
    },
}

/// Atomic read-modify-write operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicOp {
    Load,
    Store,
    Exchange,
    CompareExchange,
    IIncrement,
    IDecrement,
    IAdd,
    ISub,
    SMin,
    UMin,
    SMax,
    UMax,
    And,
    Or,
    Xor,
    /// OpAtomicFAddEXT, OpAtomicFMinEXT, OpAtomicFMaxEXT on a float of the instruction's
    /// width (16, 32 or 64 bits).
    FAdd,
    FMin,
    FMax,
}

/// One scalar leaf of a memory access: the register (relative to the first slot of the value)
/// and its byte offset from the pointer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Leaf {
    pub slot: u32,
    pub offset: u32,
    pub scalar: Scalar,
}

/// One dynamic step of an access chain: `pointer += index × stride`, with the array length
/// (when known) to report out-of-range indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChainStep {
    pub index: Slot,
    /// Width of the index operand (indices are read as signed integers, SPIR-V 1.6 §3.49.11).
    pub index_bits: u8,
    pub stride: u32,
    pub length: Option<u32>,
}

/// A straight-line register instruction.
#[derive(Clone, Debug, PartialEq)]
pub enum Inst {
    /// `dst = src` (one slot).
    Copy {
        dst: Slot,
        src: Slot,
    },
    /// `dst = value` (one slot, every active lane).
    Const {
        dst: Slot,
        value: u64,
    },
    IBin {
        op: IBinOp,
        bits: u8,
        dst: Slot,
        a: Slot,
        b: Slot,
    },
    IUn {
        op: IUnOp,
        bits: u8,
        dst: Slot,
        a: Slot,
    },
    /// OpIAddCarry / OpISubBorrow / OpUMulExtended / OpSMulExtended: two results (the low
    /// part or result in `lo`, the carry, borrow or high part in `hi`).
    IWide {
        op: IWideOp,
        bits: u8,
        lo: Slot,
        hi: Slot,
        a: Slot,
        b: Slot,
    },
    ICmp {
        op: ICmpOp,
        bits: u8,
        dst: Slot,
        a: Slot,
        b: Slot,
    },
    FBin {
        op: FBinOp,
        fmt: FloatFmt,
        dst: Slot,
        a: Slot,
        b: Slot,
    },
    FNeg {
        fmt: FloatFmt,
        dst: Slot,
        a: Slot,
    },
    FCmp {
        op: FCmpOp,
        ordered: bool,
        fmt: FloatFmt,
        dst: Slot,
        a: Slot,
        b: Slot,
    },
    FClass {
        op: FClassOp,
        fmt: FloatFmt,
        dst: Slot,
        a: Slot,
    },
    Logic {
        op: LogicOp,
        dst: Slot,
        a: Slot,
        b: Slot,
    },
    LNot {
        dst: Slot,
        a: Slot,
    },
    /// `dst = cond ? a : b`.
    Select {
        dst: Slot,
        cond: Slot,
        a: Slot,
        b: Slot,
    },
    Convert {
        op: ConvOp,
        dst: Slot,
        a: Slot,
    },
    /// OpBitFieldInsert (`bits` wide).
    BitFieldInsert {
        bits: u8,
        dst: Slot,
        base: Slot,
        insert: Slot,
        offset: Slot,
        count: Slot,
    },
    /// OpBitFieldSExtract / OpBitFieldUExtract.
    BitFieldExtract {
        bits: u8,
        signed: bool,
        dst: Slot,
        base: Slot,
        offset: Slot,
        count: Slot,
    },
    /// Bit-level reinterpretation between values of equal total width but different leaf
    /// counts (e.g. `u64` ↔ `uvec2`): the source leaves are concatenated, component 0 in the
    /// low bits, and split into the destination leaves.
    Bitcast {
        dst: Slot,
        dst_bits: u8,
        dst_count: u8,
        src: Slot,
        src_bits: u8,
        src_count: u8,
    },
    /// OpVectorExtractDynamic: `dst = base[index]` over `count` components (out-of-range gives 0).
    ExtractDyn {
        dst: Slot,
        base: Slot,
        count: u32,
        index: Slot,
        index_bits: u8,
    },
    /// OpVectorInsertDynamic: copy `count` components from `src` to `dst`, then
    /// `dst[index] = value` (out-of-range index: no component replaced).
    InsertDyn {
        dst: Slot,
        src: Slot,
        count: u32,
        value: Slot,
        index: Slot,
        index_bits: u8,
    },
    /// Integer dot product of `count` components (vector form) or of packed 4×8 words
    /// (`count == 0`: `a` and `b` are single 32-bit words), with optional accumulator.
    IntDot {
        spec: DotSpec,
        dst: Slot,
        a: Slot,
        b: Slot,
        count: u8,
        acc: Option<Slot>,
    },
    /// A VALVE mixed float dot product: `a` and `b` are the first slots of the two vectors
    /// (2 or 4 components, as `op` says), `acc` the accumulator.
    MixDot {
        op: MixOp,
        half: Half16Encoding,
        fp8: [Fp8Encoding; 2],
        dst: Slot,
        a: Slot,
        b: Slot,
        acc: Slot,
    },
    /// The pointer to a variable: writes `ptr` into `dst`, then initialises `size` bytes at it
    /// from `init` leaves (or zeroes them when `init` is `None`).
    VarInit {
        dst: Slot,
        ptr: u64,
        size: u32,
        init: Option<(Slot, Box<[Leaf]>)>,
    },
    /// `dst = base + offset + Σ index_i × stride_i`.
    AccessChain {
        dst: Slot,
        base: Slot,
        offset: u32,
        steps: Box<[ChainStep]>,
    },
    /// The first index into an array of buffers: `dst` points into buffer `base.space + i`
    /// (same offset), or into `SPACE_NONE` when `i` is outside `0..count` (reported).
    SelectBuffer {
        dst: Slot,
        base: Slot,
        index: Slot,
        index_bits: u8,
        count: ArrayCount,
    },
    /// Load the leaves of a value from `ptr`.
    Load {
        dst: Slot,
        ptr: Slot,
        leaves: Box<[Leaf]>,
    },
    /// Store the leaves of a value at `ptr`.
    Store {
        ptr: Slot,
        src: Slot,
        leaves: Box<[Leaf]>,
    },
    /// OpCopyMemory: copy `size` bytes from `src` to `dst` pointers.
    CopyMemory {
        dst: Slot,
        src: Slot,
        size: u32,
    },
    /// OpArrayLength: `(size of the buffer − offset) / stride`, 0 if the buffer is shorter.
    ArrayLength {
        dst: Slot,
        ptr: Slot,
        offset: u32,
        stride: u32,
    },
    /// An atomic operation on a 32- or 64-bit integer, or a 16-, 32- or 64-bit float (load,
    /// store, exchange and the float operations), at `ptr`.
    Atomic {
        op: AtomicOp,
        bits: u8,
        dst: Option<Slot>,
        ptr: Slot,
        value: Option<Slot>,
        comparator: Option<Slot>,
    },
    /// OpTensorReadARM: `count` consecutive elements along the innermost dimension from
    /// `coords` (`rank` slots, sign-extended from `coord_bits`: the width of a signed
    /// coordinate type, 64 for an unsigned one); elements outside the tensor are `oob` (per
    /// element when `oob_array`) or zero.
    TensorRead {
        dst: Slot,
        tensor: Slot,
        coords: Slot,
        rank: u8,
        coord_bits: u8,
        count: u32,
        element: Scalar,
        oob: Option<(Slot, bool)>,
        /// The type's Shape, when it has one: a tensor *value* (a composite or a constant,
        /// packed row-major in private memory) is read through it.
        shape: Option<Box<[u64]>>,
    },
    /// OpTensorWriteARM (coordinates as for `TensorRead`): elements outside the tensor are
    /// not written.
    TensorWrite {
        tensor: Slot,
        coords: Slot,
        rank: u8,
        coord_bits: u8,
        count: u32,
        element: Scalar,
        src: Slot,
    },
    /// OpTensorQuerySizeARM: the size of dimension `dim`, reduced to `bits`.
    TensorSize {
        dst: Slot,
        tensor: Slot,
        dim: u32,
        bits: u8,
    },
    /// A shaped tensor value (OpCompositeConstruct of an `OpTypeTensorARM` with a Shape): its
    /// elements packed row-major into private memory at `at` (a pointer), `dst` the pointer.
    /// The constituents `parts` are elements (`inner` empty) or tensors of shape `inner`.
    TensorPack {
        dst: Slot,
        at: u64,
        parts: Box<[Slot]>,
        element: Scalar,
        inner: Box<[u64]>,
    },
    /// OpCompositeExtract from a shaped tensor (of Shape `shape`): the `count` elements from
    /// row-major element `first` — into `dst` when `at` is `None` (one element), else copied
    /// into a new tensor value at `at` (a pointer), `dst` the pointer.
    TensorExtract {
        dst: Slot,
        src: Slot,
        shape: Box<[u64]>,
        first: u64,
        count: u64,
        element: Scalar,
        at: Option<u64>,
    },
    /// A subgroup operation: `a` the value (or predicate), `b` the lane id / mask / delta.
    Group {
        op: GroupOp,
        scalar: Scalar,
        dst: Slot,
        a: Slot,
        b: Slot,
    },
    /// OpGroupNonUniformBallot: the active lanes whose predicate is true, as a uvec4
    /// (`dst..dst + 4`, lane 0 in bit 0 of component 0).
    Ballot {
        dst: Slot,
        pred: Slot,
    },
    /// OpSubgroupMatrixMultiplyAccumulateINTEL: one DPAS for the whole subgroup; `a`, `b`,
    /// `c`, `dst` are the first slots of the operands' components.
    SubgroupMma {
        spec: Box<super::mma::MmaSpec>,
        dst: Slot,
        a: Slot,
        b: Slot,
        c: Slot,
    },
    /// One of the eleven fixed-point functions (SPV_INTEL_arbitrary_precision_fixed_point).
    Fixed {
        op: spvx_num::fixed::FixedOp,
        result: FixedResult,
        dst: Slot,
        src: Slot,
    },
    /// A GLSL.std.450 (or other math) function of one to three float operands.
    Math {
        func: crate::program::math::MathFn,
        fmt: FloatFmt,
        dst: Slot,
        args: [Slot; 3],
    },
    /// A pointer operation of physical addressing (Kernel modules).
    Ptr {
        op: crate::program::kernel::PtrOp,
        dst: Slot,
        a: Slot,
        b: Slot,
    },
    /// OpCopyMemorySized: copy as many bytes as the `size_bits`-bit integer in `size` says.
    CopyMemorySized {
        dst: Slot,
        src: Slot,
        size: Slot,
        size_bits: u8,
    },
    /// An OpenCL.std function on one component.
    Ocl {
        op: crate::program::opencl::OclOp,
        ty: crate::program::opencl::OclType,
        dst: Slot,
        args: [Slot; 3],
    },
    /// NonSemantic.DebugPrintf: format and record a line for each active lane.
    Print(Box<crate::program::print::PrintSpec>),
    /// A GLSL.std.450 function on whole vectors or matrices (`program::glsl`): float format
    /// `fmt`, integer width `bits` (Frexp/Ldexp exponents), component count or order `n`.
    Glsl {
        op: crate::program::glsl::GlslOp,
        fmt: FloatFmt,
        bits: u8,
        n: u8,
        dst: Slot,
        args: [Slot; 3],
    },
    /// A GLSL.std.450 integer function (SAbs, SSign, UMin, SMax, FindMsb, ...).
    IMath {
        func: crate::program::math::IMathFn,
        bits: u8,
        dst: Slot,
        args: [Slot; 3],
    },
    /// An instruction on integers wider than 64 bits (`program::wide`).
    Wide(Box<super::wide::WideInst>),
}

/// The length of an array of buffers or tensors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArrayCount {
    /// An OpTypeArray: its length.
    Fixed(u32),
    /// A runtime array (RuntimeDescriptorArray): as many elements as the run binds, which the
    /// run writes into this register (`Program::runtime_arrays`).
    Runtime(Slot),
}

/// A subgroup (group non-uniform) operation on one scalar per lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupOp {
    Elect,
    All,
    Any,
    AllEqual,
    /// The value of lane `b` (a uniform id).
    Broadcast,
    BroadcastFirst,
    /// The value of lane `b`.
    Shuffle,
    /// The value of lane `lane ^ b`.
    ShuffleXor,
    /// The value of lane `lane − b`.
    ShuffleUp,
    /// The value of lane `lane + b`.
    ShuffleDown,
    /// An arithmetic reduction or scan.
    Arith(ReduceOp, GroupMode),
    /// OpGroupNonUniformAllEqual on a vector of this many components (`a..a + n`).
    AllEqualVector(u8),
    /// OpGroupNonUniformBallotBitCount of the ballot `a..a + 4` (Reduce, InclusiveScan or
    /// ExclusiveScan), counting only the bits of lanes below the subgroup size.
    BallotBitCount(GroupMode),
    /// OpGroupNonUniformBallotBitExtract: bit `b` of the ballot `a..a + 4`.
    BallotBitExtract,
    /// OpGroupNonUniformBallotFindLSB of the ballot `a..a + 4`.
    BallotFindLsb,
    /// OpGroupNonUniformBallotFindMSB of the ballot `a..a + 4`.
    BallotFindMsb,
    /// OpGroupNonUniformInverseBallot: the lane's own bit of the ballot `a..a + 4`.
    InverseBallot,
    /// OpGroupNonUniformQuadBroadcast: the value of quad index `b` in the lane's quad.
    QuadBroadcast,
    /// OpGroupNonUniformQuadSwap with direction `b` (0 horizontal, 1 vertical, 2 diagonal).
    QuadSwap,
    /// OpGroupNonUniformQuadAllKHR (SPV_KHR_quad_control).
    QuadAll,
    /// OpGroupNonUniformQuadAnyKHR (SPV_KHR_quad_control).
    QuadAny,
    /// OpGroupNonUniformRotateKHR by `b` within clusters of this size (0: the subgroup).
    Rotate(u32),
    /// OpGroupNonUniformPartitionNV: the ballot (`dst..dst + 4`) of the active lanes whose
    /// value `a` has the same bits as the lane's.
    Partition,
}

/// The combining operations of the group arithmetic instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReduceOp {
    IAdd,
    FAdd,
    IMul,
    FMul,
    SMin,
    UMin,
    FMin,
    SMax,
    UMax,
    FMax,
    And,
    Or,
    Xor,
}

/// GroupOperation: Reduce, InclusiveScan, ExclusiveScan, ClusteredReduce (with the cluster
/// size).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupMode {
    Reduce,
    InclusiveScan,
    ExclusiveScan,
    Clustered(u32),
    /// PartitionedReduceNV, PartitionedInclusiveScanNV, PartitionedExclusiveScanNV
    /// (SPV_NV_shader_subgroup_partitioned): over the active lanes of the lane's own ballot
    /// `b..b + 4` (the instruction's ClusterSize operand), as Reduce / InclusiveScan /
    /// ExclusiveScan.
    Partitioned(PartitionMode),
}

/// The three partitioned group operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartitionMode {
    Reduce,
    InclusiveScan,
    ExclusiveScan,
}

/// Where a fixed-point instruction puts its result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FixedResult {
    /// One rW-bit value.
    Single,
    /// SinCos/SinCosPi into a 2-component vector: sine in `dst`, cosine in `dst + 1`.
    Vector,
    /// SinCos/SinCosPi into one 2·rW-bit scalar: sine in the high half, cosine in the low half.
    Packed,
}

/// Two-result integer operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IWideOp {
    AddCarry,
    SubBorrow,
    UMulExtended,
    SMulExtended,
}
