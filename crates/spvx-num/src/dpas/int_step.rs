//! Integer DPAS dot steps: exact products of the extended elements, accumulated modulo 2^32
//! (no saturation: vISA DPAS has no saturate field).

use super::{DpasError, PackedRun, ops_per_chan};

/// `acc + Σ src1[j]·src2[j]` modulo 2^32, for element values already extracted (any length;
/// the products of DPAS elements, at most 8 bits each, are exact in `i32`, and the sum wraps
/// exactly as the 32-bit accumulator does). `acc` is the D or UD accumulator bit pattern.
pub fn int_dot(acc: u32, src1: &[i32], src2: &[i32]) -> Result<u32, DpasError> {
    if src1.len() != src2.len() {
        return Err(DpasError::LengthMismatch {
            src1: src1.len(),
            src2: src2.len(),
        });
    }
    Ok(src1
        .iter()
        .zip(src2)
        .fold(acc, |s, (&b, &a)| s.wrapping_add(b.wrapping_mul(a) as u32)))
}

/// One integer DPAS step for one channel: `acc + dotOPS(src1 run, src2 run)` modulo 2^32, where
/// OPS = [`ops_per_chan`] of the two precisions (4 if either is 8-bit, else 8) and each run
/// supplies OPS consecutive elements of its channel (DPAS.md:
/// `temp.DW[i] += dot4(Src1.R[m].DW[i].n[3:0], Src2.k[3:0])`, and dot8 alike).
pub fn int_dot_step(acc: u32, src1: PackedRun, src2: PackedRun) -> Result<u32, DpasError> {
    let ops = ops_per_chan(src1.precision, src2.precision)?;
    let n = ops as usize;
    let b = src1.ints(ops)?;
    let a = src2.ints(ops)?;
    int_dot(acc, &b[..n], &a[..n])
}
