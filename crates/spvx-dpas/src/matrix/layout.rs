//! Register images of DPAS operand tiles (reference/dpas.md §1, DPAS.md):
//!
//! - Src2 (A tile, `rows × kd`): row-major and densely packed; element [r][k] at bit
//!   `(r·kd + k)·bits(A)` of the image, element 0 in the least significant bits of each byte
//!   and dword (little-endian). Uniform across channels.
//! - Src1 (B tile, `kd × n`): per-channel packed ("VNNI"): element [k][c] is in dword `c` of
//!   GRF `k / (32/bits(B))`, at bit `(k mod (32/bits(B)))·bits(B)`.
//! - Src0/Dst (`rows × n`): row r = n consecutive elements of the accumulator type, packed
//!   (BF/HF rows are half a GRF on 64-byte GRFs).
//!
//! Elements outside the matrix (past its last row, column or K) are zero: this is the
//! zero-padding of the matrix-level API.

use super::{AccMatrix, ElementMatrix};
use crate::DataType;

/// The Src2 image of A rows `row0..row0+rows`, columns `k0..k0+kd` (zero past the matrix), as
/// bytes.
pub fn src2_image(a: &ElementMatrix, row0: usize, rows: usize, k0: usize, kd: usize) -> Vec<u8> {
    let bits = a.precision().bits() as usize;
    let mut out = vec![0u8; (rows * kd * bits).div_ceil(8)];
    for r in 0..rows {
        for k in 0..kd {
            let (ar, ac) = (row0 + r, k0 + k);
            if ar >= a.rows() || ac >= a.cols() {
                continue;
            }
            put_bits(&mut out, (r * kd + k) * bits, bits, a.get(ar, ac));
        }
    }
    out
}

/// The Src1 image of B rows `k0..k0+kd`, columns `col0..col0+n` (zero past the matrix), as
/// dwords: GRF g occupies dwords `g·n .. (g+1)·n`.
pub fn src1_image(b: &ElementMatrix, k0: usize, kd: usize, col0: usize, n: usize) -> Vec<u32> {
    let bits = b.precision().bits() as usize;
    let per = 32 / bits;
    let grfs = kd.div_ceil(per);
    let mut out = vec![0u32; grfs * n];
    for k in 0..kd {
        for c in 0..n {
            let (br, bc) = (k0 + k, col0 + c);
            if br >= b.rows() || bc >= b.cols() {
                continue;
            }
            let shift = (k % per) * bits;
            let v = u64::from(b.get(br, bc)) << shift;
            out[(k / per) * n + c] |= v as u32;
        }
    }
    out
}

/// The Src0 image of C rows `row0..row0+rows`, columns `col0..col0+n` (zero past the matrix),
/// as little-endian bytes of C's type.
pub fn acc_image(c: &AccMatrix, row0: usize, rows: usize, col0: usize, n: usize) -> Vec<u8> {
    let size = c.ty().size() as usize;
    let mut out = vec![0u8; rows * n * size];
    for r in 0..rows {
        for j in 0..n {
            let (cr, cc) = (row0 + r, col0 + j);
            if cr >= c.rows() || cc >= c.cols() {
                continue;
            }
            let at = (r * n + j) * size;
            let v = c.get(cr, cc).to_le_bytes();
            out[at..at + size].copy_from_slice(&v[..size]);
        }
    }
    out
}

/// Reads element `index` of a Dst/Src0 image of type `ty`.
pub fn acc_element(image: &[u8], ty: DataType, index: usize) -> u32 {
    let size = ty.size() as usize;
    let mut b = [0u8; 4];
    b[..size].copy_from_slice(&image[index * size..index * size + size]);
    u32::from_le_bytes(b)
}

/// ORs the low `bits` bits of `value` into `out` at bit `at` (little-endian bit order).
fn put_bits(out: &mut [u8], at: usize, bits: usize, value: u32) {
    for i in 0..bits {
        if (value >> i) & 1 == 1 {
            let bit = at + i;
            out[bit / 8] |= 1 << (bit % 8);
        }
    }
}
