//! The matrix-level API: A (M×K), B (K×N) and C (M×N) as ordinary row-major matrices, packed
//! into the DPAS register layout tile by tile and multiplied by a sequence of real DPAS
//! instructions ([`matmul_instructions`]); the fast path in [`crate::gemm`] must give the same
//! bits.
//!
//! - [`ElementMatrix`]: A or B, elements as bit patterns of one [`Precision`].
//! - [`AccMatrix`]: C or D, elements as D/UD/F (32-bit) or BF/HF (16-bit) patterns.
//! - [`MatmulSpec`]: platform, precisions, Dst type and float options.
//! - [`layout`]: the register images of Src1, Src2 and Src0/Dst tiles.

pub mod layout;
mod matrices;
mod tiled;

pub(crate) use matrices::Patterns;
pub(crate) use matrices::check_operands as check_operands_pub;
pub use matrices::{AccMatrix, ElementMatrix, MAX_DIM, MAX_OUTPUT_ELEMENTS, MatmulSpec, int_range};
pub use tiled::{Tiling, matmul_instructions};
