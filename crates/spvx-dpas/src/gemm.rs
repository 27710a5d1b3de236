//! The fast GEMM path: D = C + A × B with exactly the bits of
//! [`crate::matrix::matmul_instructions`], computed with blocked, multithreaded (rayon) and
//! SIMD kernels instead of one simulated instruction at a time.
//!
//! - Integer precisions: the exact sum modulo 2^32 does not depend on the order of the
//!   additions, so any order gives the instruction path's bits. Elements are shifted into the
//!   u8 × s8 form of x86 `vpdpbusd` (A' = A + 128 for signed A, B' = B − 128 for unsigned B)
//!   and the shifts are undone with row/column sums; AVX-512 VNNI kernel when the CPU has it,
//!   a portable (auto-vectorised) kernel otherwise ([`IntKernel`]).
//! - Float precisions under the default model (and `cm`): the per-element order of the
//!   instruction path is kept — start from C (or +0), add each fp32 product in increasing k
//!   with one fp32 rounding, K zero-padded to whole instructions — in a blocked GEMM on
//!   6 × 64 register blocks, with fused multiply-adds for the row blocks whose products are
//!   all exact in fp32 (the same bits, see `float_exact`), separate multiply and add
//!   otherwise. Other models run per element through `spvx_num::dpas::float_dot` once per
//!   simulated instruction, in parallel.
//!
//! Row blocks of both are handed out to the rayon threads by guided self-scheduling
//! (`schedule`). The same legality checks as the instruction path run first. [`peak`]
//! measures the machine's peak and compares a GEMM with it.

mod float;
mod float_blocked;
mod float_exact;
mod float_kernel;
mod float_pack;
mod int;
mod int_kernel;
mod int_pack;
pub mod peak;
mod schedule;
mod scratch;

pub use int_kernel::IntKernel;

use crate::isa::{ExecMask, Instruction, Operand, Src0, check};
use crate::matrix::{AccMatrix, ElementMatrix, MatmulSpec, Tiling};
use crate::{DataType, SimError};

/// D = C + A × B by the fast path on the best integer kernel of this CPU.
pub fn matmul_fast(
    spec: &MatmulSpec,
    a: &ElementMatrix,
    b: &ElementMatrix,
    c: Option<&AccMatrix>,
) -> Result<AccMatrix, SimError> {
    matmul_fast_with(spec, a, b, c, IntKernel::best())
}

/// D = C + A × B by the fast path with a chosen integer kernel (an unavailable kernel falls
/// back to [`IntKernel::Portable`]).
pub fn matmul_fast_with(
    spec: &MatmulSpec,
    a: &ElementMatrix,
    b: &ElementMatrix,
    c: Option<&AccMatrix>,
    kernel: IntKernel,
) -> Result<AccMatrix, SimError> {
    let (m, k, n) = crate::matrix::check_operands_pub(spec, a, b, c)?;
    let tiling = Tiling::of(spec, k)?;
    check_instructions(spec, &tiling, m, c.map(AccMatrix::ty))?;
    let bits = if spec.b.is_integer() {
        int::matmul(a, b, c, kernel).ok_or_else(|| {
            SimError::Unsupported("integer elements are not stored as bytes".into())
        })?
    } else {
        float::matmul(spec, &tiling, a, b, c)?
    };
    debug_assert_eq!(bits.len(), m * n);
    Ok(AccMatrix::from_bits("D", m, n, spec.dst, bits)?)
}

/// Checks every distinct instruction the instruction path would execute.
fn check_instructions(
    spec: &MatmulSpec,
    t: &Tiling,
    m: usize,
    c_ty: Option<DataType>,
) -> Result<(), SimError> {
    let mut rcs = vec![m.min(8)];
    if !m.is_multiple_of(8) && m > 8 {
        rcs.push(m % 8);
    }
    for rc in rcs {
        for step in [0, t.k_steps.saturating_sub(1), 1.min(t.k_steps - 1)] {
            let src0 = match (step, c_ty) {
                (0, None) => Src0::Null(None),
                (0, Some(ty)) => Src0::Reg(Operand::new(16, 0, ty)),
                _ => Src0::Reg(Operand::new(24, 0, t.acc_type)),
            };
            let dst_ty = if step + 1 == t.k_steps {
                spec.dst
            } else {
                t.acc_type
            };
            let instr = Instruction {
                w: spec.b,
                a: spec.a,
                sd: 8,
                rc: rc as u32,
                exec_size: t.n as u32,
                mask: ExecMask::default(),
                dst: Operand::new(32, 0, dst_ty),
                src0,
                src1: Operand::new(8, 0, DataType::Ud),
                src2: Operand::new(0, 0, DataType::Ud),
            };
            check(&instr, spec.platform)?;
        }
    }
    Ok(())
}
