//! The shape of one DPAS instruction, derived from its precisions, SD, RC and exec size as
//! DPAS.md defines it: OPS_PER_CHAN, K, SRC1_OPERANDS_PER_CHAN, and the bytes each operand
//! spans in the register file.

use spvx_num::dpas::{DpasError, Precision, ops_per_chan};

use super::Instruction;

/// Derived sizes of a DPAS instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Geometry {
    /// OPS_PER_CHAN: elements per channel and depth (1 tf32, 2 bf/hf, 4 fp8 or 8-bit int,
    /// 8 sub-byte int).
    pub ops: u32,
    /// K = SD × OPS_PER_CHAN.
    pub k: u32,
    /// SRC1_OPERANDS_PER_CHAN = 32 / (OPS_PER_CHAN × bits(W)): depths per Src1 dword (1 for
    /// df).
    pub src1_operands_per_chan: u32,
    /// Bytes of one Src1 channel: 4 (a dword), or 8 for df (a 64-bit channel).
    pub channel_bytes: u32,
    /// GRFs Src1 spans: ⌈SD / SRC1_OPERANDS_PER_CHAN⌉ rows of ExecSize channels (2 GRFs per
    /// depth for df on 64-byte GRFs).
    pub src1_grfs: u32,
    /// Bits of one row of A in Src2: SD × OPS_PER_CHAN × bits(A).
    pub src2_row_bits: u32,
    /// Rows (RC) and columns (exec size).
    pub rows: u32,
    /// Columns.
    pub cols: u32,
}

impl Geometry {
    /// The geometry of `instr` (an error only if the precisions cannot be combined).
    pub fn of(instr: &Instruction) -> Result<Geometry, DpasError> {
        Geometry::new(instr.w, instr.a, instr.sd, instr.rc, instr.exec_size)
    }

    /// The geometry of a DPAS with these parameters.
    pub fn new(
        w: Precision,
        a: Precision,
        sd: u32,
        rc: u32,
        exec_size: u32,
    ) -> Result<Geometry, DpasError> {
        let ops = ops_per_chan(w, a)?;
        let spc = (32 / (ops * w.bits())).max(1);
        let channel_bytes = if w.is_df() { 8 } else { 4 };
        // Src1 rows of `exec_size` channels, in GRFs of `exec_size` dwords.
        let src1_bytes = sd.div_ceil(spc) * exec_size * channel_bytes;
        Ok(Geometry {
            ops,
            k: sd * ops,
            src1_operands_per_chan: spc,
            channel_bytes,
            src1_grfs: src1_bytes.div_ceil(exec_size * 4),
            src2_row_bits: sd * ops * a.bits(),
            rows: rc,
            cols: exec_size,
        })
    }

    /// Bytes of one row of A: the Src2 alignment (DPAS.md: `SD/(32/(bits(A)·OPS))` dwords).
    pub fn src2_row_bytes(&self) -> u32 {
        self.src2_row_bits.div_ceil(8)
    }

    /// Bytes Src2 spans (RC rows).
    pub fn src2_bytes(&self) -> u32 {
        (self.src2_row_bits * self.rows).div_ceil(8)
    }
}
