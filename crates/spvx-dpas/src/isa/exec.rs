//! Execution of one DPAS instruction over a register file, following DPAS.md's pseudo-code
//! (with its loop typo `for (r = 0; i < RC; ++r)` read as `r < RC`):
//!
//! ```text
//! k = 0
//! for r in 0..RC:
//!     temp = Src0.R[r]                       (0 for a null Src0)
//!     for d in 0..SD:
//!         m = d / SRC1_OPERANDS_PER_CHAN     (Src1 GRF)
//!         n = (d % SRC1_OPERANDS_PER_CHAN) * OPS_PER_CHAN
//!         for i in 0..ExecSize:
//!             temp[i] += dotOPS(Src1.R[m].DW[i].n[OPS-1:0], Src2.k[OPS-1:0])
//!         k += OPS_PER_CHAN                  (never reset: Src2 advances one row of A per r)
//!     Dst.R[r] = temp
//! ```
//!
//! Integer steps use `spvx_num::dpas::int_dot_step` (exact products, wrapping at 2^32). Float
//! rows pass all K products of one row and channel, in this order (increasing k), to
//! `spvx_num::dpas::float_dot`, which applies the chosen accumulation model (for the default
//! model that is one fp32 rounding per product, exactly `temp.F[i] += dot2(...)` stage by
//! stage). All inputs are read before Dst is written, so overlapping operands read their old
//! values.
//!
//! df DPAS (Xe3P) has 64-bit channels: Src1 depth d is ExecSize qwords (channel i at qword i),
//! Src2 row r holds A[r][0..SD] as qwords, Src0/Dst rows are ExecSize qwords; each row and
//! channel is one `spvx_num::dpas::df_dot` over the SD products (docs/semantics/dpas.md).

use spvx_num::dpas::{
    BfOutputRounding, FloatElement, FloatModel, PackedRun, acc_to_bf16, acc_to_fp16, bf16_to_acc,
    df_dot, extract_float, float_dot, fp16_to_acc, int_dot_step,
};

use super::{Geometry, Instruction, Operand, Src0, check};
use crate::error::illegal;
use crate::{DataType, Platform, RegisterFile, Rule, SimError};

/// Settings that choose among the documented float behaviours (integer DPAS has none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ExecOptions {
    /// The float accumulation model (default: Intel's reference emulators).
    pub model: FloatModel,
    /// How an fp32 accumulator becomes a BF Dst (default: round to nearest even).
    pub bf_rounding: BfOutputRounding,
}

/// The largest K of a float DPAS (fp8: SD 8 × OPS 4).
const MAX_FLOAT_K: usize = 32;

/// Checks `instr` on `platform` and executes it on `regs`. Errors: the instruction is illegal
/// (each error names the rule), an operand lies outside the register file
/// ([`Rule::RegisterBounds`]), or the register file's GRF size is not the platform's.
pub fn execute(
    instr: &Instruction,
    platform: Platform,
    regs: &mut RegisterFile,
    options: &ExecOptions,
) -> Result<(), SimError> {
    if regs.grf_bytes() != platform.grf_bytes() as usize {
        return Err(SimError::Unsupported(format!(
            "the register file has {}-byte GRFs but {platform} has {}-byte GRFs",
            regs.grf_bytes(),
            platform.grf_bytes()
        )));
    }
    let g = check(instr, platform)?;
    let places = Places::locate(instr, &g, platform, regs)?;
    if instr.w.is_df() {
        return execute_df(instr, &g, &places, regs, &options.model);
    }

    let cols = g.cols as usize;
    let mut out = vec![0u32; g.rows as usize * cols];
    for r in 0..g.rows {
        for i in 0..g.cols {
            let acc = places.src0_value(instr, regs, r, i, cols)?;
            out[r as usize * cols + i as usize] = if instr.w.is_integer() {
                int_row(instr, &g, &places, regs, r, i, acc)?
            } else {
                float_row(instr, &g, &places, regs, r, i, acc, &options.model)?
            };
        }
    }
    let size = instr.dst.ty.size() as usize;
    for (j, &acc) in out.iter().enumerate() {
        let at = places.dst + j * size;
        match instr.dst.ty {
            DataType::D | DataType::Ud | DataType::F => regs.write_u32(at, acc)?,
            DataType::Bf => regs.write_u16(at, acc_to_bf16(acc, options.bf_rounding))?,
            DataType::Hf => regs.write_u16(at, acc_to_fp16(acc))?,
            DataType::Df => {
                return Err(SimError::Unsupported(
                    "a DF Dst needs a df DPAS (legality admits none other)".into(),
                ));
            }
        }
    }
    Ok(())
}

/// Byte offsets of the operands, checked to lie inside the register file.
struct Places {
    dst: usize,
    src0: Option<usize>,
    src1: usize,
    src2: usize,
    grf: usize,
}

impl Places {
    fn locate(
        instr: &Instruction,
        g: &Geometry,
        platform: Platform,
        regs: &RegisterFile,
    ) -> Result<Places, SimError> {
        let grf = platform.grf_bytes();
        let acc_bytes = |op: &Operand| u64::from(g.rows * g.cols * op.ty.size());
        let within = |name: &str, op: &Operand, len: u64| -> Result<usize, SimError> {
            let start = op.byte_offset(grf);
            let size = regs.as_bytes().len() as u64;
            if start + len > size {
                return Err(illegal(
                    Rule::RegisterBounds,
                    platform,
                    format!(
                        "{name} {op} spans bytes {start}..{} but the register file has {} GRFs ({size} bytes)",
                        start + len,
                        regs.grf_count()
                    ),
                )
                .into());
            }
            Ok(start as usize)
        };
        let src0 = match &instr.src0 {
            Src0::Reg(op) => Some(within("Src0", op, acc_bytes(op))?),
            Src0::Null(_) => None,
        };
        Ok(Places {
            dst: within("Dst", &instr.dst, acc_bytes(&instr.dst))?,
            src0,
            src1: within("Src1", &instr.src1, u64::from(g.src1_grfs * grf))?,
            src2: within("Src2", &instr.src2, u64::from(g.src2_bytes()))?,
            grf: grf as usize,
        })
    }

    /// Src0[r][i] as an accumulator bit pattern (BF/HF widened exactly to fp32).
    fn src0_value(
        &self,
        instr: &Instruction,
        regs: &RegisterFile,
        r: u32,
        i: u32,
        cols: usize,
    ) -> Result<u32, SimError> {
        let (Some(base), Src0::Reg(op)) = (self.src0, instr.src0) else {
            return Ok(0);
        };
        let at = base + (r as usize * cols + i as usize) * op.ty.size() as usize;
        Ok(match op.ty {
            DataType::D | DataType::Ud | DataType::F => regs.read_u32(at)?,
            DataType::Bf => bf16_to_acc(regs.read_u16(at)?),
            DataType::Hf => fp16_to_acc(regs.read_u16(at)?),
            DataType::Df => {
                return Err(SimError::Unsupported(
                    "a DF Src0 needs a df DPAS (legality admits none other)".into(),
                ));
            }
        })
    }

    /// The Src1 dword holding depth `d` of channel `i`, and the index of its first element.
    fn src1_run(
        &self,
        instr: &Instruction,
        g: &Geometry,
        regs: &RegisterFile,
        d: u32,
        i: u32,
    ) -> Result<PackedRun, SimError> {
        let m = (d / g.src1_operands_per_chan) as usize;
        let first = (d % g.src1_operands_per_chan) * g.ops;
        let dword = regs.read_u32(self.src1 + m * self.grf + 4 * i as usize)?;
        Ok(PackedRun::new(dword, instr.w, first))
    }

    /// The Src2 dword holding element `k` of the packed A stream, and its index there.
    fn src2_run(
        &self,
        instr: &Instruction,
        regs: &RegisterFile,
        k: u32,
    ) -> Result<PackedRun, SimError> {
        let bit = k as usize * instr.a.bits() as usize;
        let dword = regs.read_u32(self.src2 + (bit / 32) * 4)?;
        Ok(PackedRun::new(
            dword,
            instr.a,
            (bit % 32) as u32 / instr.a.bits(),
        ))
    }
}

/// A df DPAS: every row and channel is one `df_dot` over the SD stages (OPS_PER_CHAN 1).
fn execute_df(
    instr: &Instruction,
    g: &Geometry,
    places: &Places,
    regs: &mut RegisterFile,
    model: &FloatModel,
) -> Result<(), SimError> {
    let cols = g.cols as usize;
    let depth = instr.sd as usize;
    let mut out = vec![0u64; g.rows as usize * cols];
    let mut a = vec![0u64; depth];
    let mut b = vec![0u64; depth];
    for r in 0..g.rows as usize {
        for (d, slot) in a.iter_mut().enumerate() {
            *slot = regs.read_u64(places.src2 + (r * depth + d) * 8)?;
        }
        for i in 0..cols {
            let acc = match places.src0 {
                Some(base) => regs.read_u64(base + (r * cols + i) * 8)?,
                None => 0,
            };
            for (d, slot) in b.iter_mut().enumerate() {
                *slot = regs.read_u64(places.src1 + (d * cols + i) * 8)?;
            }
            out[r * cols + i] = df_dot(acc, &b, &a, model)?;
        }
    }
    for (j, &v) in out.iter().enumerate() {
        regs.write_u64(places.dst + j * 8, v)?;
    }
    Ok(())
}

fn int_row(
    instr: &Instruction,
    g: &Geometry,
    places: &Places,
    regs: &RegisterFile,
    r: u32,
    i: u32,
    mut temp: u32,
) -> Result<u32, SimError> {
    let mut k = r * g.k;
    for d in 0..instr.sd {
        let b = places.src1_run(instr, g, regs, d, i)?;
        let a = places.src2_run(instr, regs, k)?;
        temp = int_dot_step(temp, b, a)?;
        k += g.ops;
    }
    Ok(temp)
}

#[allow(clippy::too_many_arguments)]
fn float_row(
    instr: &Instruction,
    g: &Geometry,
    places: &Places,
    regs: &RegisterFile,
    r: u32,
    i: u32,
    acc: u32,
    model: &FloatModel,
) -> Result<u32, SimError> {
    let blank = FloatElement {
        precision: instr.w,
        bits: 0,
    };
    let mut b = [blank; MAX_FLOAT_K];
    let mut a = [FloatElement {
        precision: instr.a,
        bits: 0,
    }; MAX_FLOAT_K];
    let mut k = r * g.k;
    let mut n = 0;
    for d in 0..instr.sd {
        let brun = places.src1_run(instr, g, regs, d, i)?;
        let arun = places.src2_run(instr, regs, k)?;
        for j in 0..g.ops {
            if n >= MAX_FLOAT_K {
                return Err(SimError::Unsupported(format!(
                    "float DPAS with K = {} exceeds {MAX_FLOAT_K}",
                    g.k
                )));
            }
            b[n] = extract_float(brun.dword, brun.precision, brun.first + j)?;
            a[n] = extract_float(arun.dword, arun.precision, arun.first + j)?;
            n += 1;
        }
        k += g.ops;
    }
    Ok(float_dot(acc, &b[..n], &a[..n], model)?)
}
