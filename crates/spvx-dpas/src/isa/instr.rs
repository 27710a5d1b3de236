//! The model of one `DPAS.W.A.SD.RC (Exec_size) <dst> <src0> <src1> <src2>` instruction and its
//! text form.

use std::fmt;

use spvx_num::dpas::Precision;

use crate::DataType;

/// A register operand `rN.sub:type`; `sub` counts elements of `ty` from the start of GRF `reg`
/// (so `r4.8:hf` is byte 16 of r4, as in Gen assembly).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Operand {
    /// GRF number.
    pub reg: u32,
    /// Sub-register, in elements of `ty`.
    pub sub: u32,
    /// Operand type.
    pub ty: DataType,
}

impl Operand {
    /// `rN.sub:ty`.
    pub const fn new(reg: u32, sub: u32, ty: DataType) -> Operand {
        Operand { reg, sub, ty }
    }

    /// The byte offset of the operand in a register file with `grf_bytes`-byte GRFs.
    pub fn byte_offset(&self, grf_bytes: u32) -> u64 {
        u64::from(self.reg) * u64::from(grf_bytes) + u64::from(self.sub) * u64::from(self.ty.size())
    }
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}.{}:{}", self.reg, self.sub, self.ty)
    }
}

/// Src0: a register operand, or `null` (the accumulator starts at zero). A `null` may carry a
/// type (`null:f`), which is checked like a register Src0's type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Src0 {
    /// `null` or `null:ty`.
    Null(Option<DataType>),
    /// A register operand.
    Reg(Operand),
}

impl Src0 {
    /// The operand's type, if it has one.
    pub fn ty(&self) -> Option<DataType> {
        match self {
            Src0::Null(t) => *t,
            Src0::Reg(o) => Some(o.ty),
        }
    }
}

impl fmt::Display for Src0 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Src0::Null(None) => f.write_str("null"),
            Src0::Null(Some(t)) => write!(f, "null:{t}"),
            Src0::Reg(o) => o.fmt(f),
        }
    }
}

/// The execution-mask part of vISA's Exec_size byte (bits 7:4): channel-group offset M1..M8 and
/// NoMask. The simulator has no dispatch mask, so every channel executes whatever the mask says;
/// the field is kept for the encoder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ExecMask {
    /// 0 for M1 … 7 for M8.
    pub offset: u8,
    /// `_NM` (no mask).
    pub no_mask: bool,
}

impl fmt::Display for ExecMask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "M{}{}",
            self.offset + 1,
            if self.no_mask { "_NM" } else { "" }
        )
    }
}

/// One DPAS instruction. `w` is Src1's (B's) precision, `a` Src2's (A's): the text form is
/// `dpas.W.A.SD.RC`, B first (DPAS.md; reference/dpas.md §7.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Instruction {
    /// Precision of Src1 (B, "weights").
    pub w: Precision,
    /// Precision of Src2 (A, "activation").
    pub a: Precision,
    /// Systolic depth.
    pub sd: u32,
    /// Repeat count (rows M).
    pub rc: u32,
    /// Exec size (columns N).
    pub exec_size: u32,
    /// Execution mask (no effect on results).
    pub mask: ExecMask,
    /// Destination D (M×N).
    pub dst: Operand,
    /// Accumulator C (M×N) or null.
    pub src0: Src0,
    /// B (K×N) in the per-channel packed layout.
    pub src1: Operand,
    /// A (M×K), row-major, uniform across channels.
    pub src2: Operand,
}

impl fmt::Display for Instruction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "dpas.{}.{}.{}.{} ({}, {}) {} {} {} {}",
            self.w,
            self.a,
            self.sd,
            self.rc,
            self.mask,
            self.exec_size,
            self.dst,
            self.src0,
            self.src1,
            self.src2
        )
    }
}
