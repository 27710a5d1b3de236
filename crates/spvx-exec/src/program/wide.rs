//! The operands of [`Inst::Wide`](super::Inst::Wide): instructions on integers wider than 64
//! bits (SPV_INTEL_arbitrary_precision_integers).
//!
//! A `bits`-bit integer (65 ≤ bits ≤ [`MAX_WIDE_BITS`]) occupies `bits.div_ceil(64)`
//! consecutive registers per lane, little-endian 64-bit limbs, the unused high bits of the last
//! limb zero. The compiler scalarises vectors (one [`WideInst`] per component); `exec::wide`
//! runs them.

use super::{FloatFmt, IBinOp, ICmpOp, IUnOp, IWideOp, Slot};
use spvx_num::float::RoundingMode;

/// The widest integer the engine computes with (bits). Wider types are refused at compile
/// time (`ExecError::Unsupported`).
pub const MAX_WIDE_BITS: u32 = 4096;

/// One wide-integer instruction on one component: `dst`, operands `a`, `b`, `c`, `d` are the
/// first registers of their values (unused operands 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WideInst {
    pub op: WideOp,
    pub dst: Slot,
    pub a: Slot,
    pub b: Slot,
    pub c: Slot,
    pub d: Slot,
}

/// What a [`WideInst`] computes. Widths are in bits; an operand of at most 64 bits is one
/// register (a zero-extended pattern, as everywhere in the engine).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WideOp {
    /// `dst = a op b` for the two-operand operations other than shifts, modulo 2^bits.
    Bin { op: IBinOp, bits: u32 },
    /// `dst = a shifted by b`: `a` of `bits` bits, the amount `b` of `shift_bits` bits
    /// (read as unsigned).
    Shift {
        op: IBinOp,
        bits: u32,
        shift_bits: u32,
    },
    /// OpSNegate / OpNot.
    Un { op: IUnOp, bits: u32 },
    /// Comparison of `a` and `b` (bool result in one register).
    Cmp { op: ICmpOp, bits: u32 },
    /// OpUConvert (`signed` false) / OpSConvert: extend or truncate `a` from `from` to `to`
    /// bits.
    Convert { from: u32, to: u32, signed: bool },
    /// OpBitcast: the `src_count` components of `src_bits` bits of `a` concatenated (component
    /// 0 lowest), split into `dst_count` components of `dst_bits` bits.
    Bitcast {
        dst_bits: u32,
        dst_count: u32,
        src_bits: u32,
        src_count: u32,
    },
    /// OpIAddCarry / OpISubBorrow / OpUMulExtended / OpSMulExtended: the low part (or result)
    /// into `dst`, the carry, borrow or high part into `c`.
    Extended { op: IWideOp, bits: u32 },
    /// OpBitCount of `a` (`bits` wide) into a `result_bits` integer.
    BitCount { bits: u32, result_bits: u32 },
    /// OpBitReverse.
    BitReverse { bits: u32 },
    /// OpBitFieldInsert: Base `a`, Insert `b`, Offset `c`, Count `d` (offset and count of
    /// their own widths).
    FieldInsert {
        bits: u32,
        offset_bits: u32,
        count_bits: u32,
    },
    /// OpBitFieldSExtract / UExtract: Base `a`, Offset `b`, Count `c`.
    FieldExtract {
        bits: u32,
        signed: bool,
        offset_bits: u32,
        count_bits: u32,
    },
    /// OpConvertUToF / OpConvertSToF of a `bits`-bit integer.
    IntToFloat {
        bits: u32,
        to: FloatFmt,
        signed: bool,
        mode: RoundingMode,
    },
    /// OpConvertFToU / OpConvertFToS into a `bits`-bit integer, rounded under `mode`
    /// (default toward zero).
    FloatToInt {
        from: FloatFmt,
        bits: u32,
        signed: bool,
        mode: RoundingMode,
    },
    /// OpVectorExtractDynamic: `dst = a[b]` over `count` components of `bits` bits; the index
    /// `b` (`index_bits`, signed) outside the vector gives 0.
    ExtractDyn {
        bits: u32,
        count: u32,
        index_bits: u32,
    },
    /// OpVectorInsertDynamic: `dst = a` with component `c` replaced by `b`; an index outside
    /// the vector replaces nothing.
    InsertDyn {
        bits: u32,
        count: u32,
        index_bits: u32,
    },
    /// An integer dot product (SPV_KHR_integer_dot_product) with a result of `spec`'s width
    /// (more than 64 bits): components of at most 64 bits, `count` of them in consecutive
    /// registers from `a` and `b` (`count == 0`: one packed 4×8 word each); `acc`: the AccSat
    /// form, the accumulator's limbs from `c`.
    IntDot {
        spec: spvx_num::intdot::DotSpec,
        count: u8,
        acc: bool,
    },
}
