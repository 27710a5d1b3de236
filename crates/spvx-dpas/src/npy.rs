//! `.npy` arrays ↔ matrices, with the element conventions of `spvx dpas matmul`:
//!
//! | precision / type | array dtype |
//! |---|---|
//! | u1 … s8 (A, B) | int8 or uint8; each value must lie in the precision's range |
//! | hf (fp16) | float16 |
//! | bf (bf16) | uint16 (raw bits) |
//! | bf8, hf8 | uint8 (raw bits) |
//! | tf32 | float32 (the fp32 container) |
//! | D / UD (C, D) | int32 / uint32 |
//! | F (C, D) | float32 |
//! | BF / HF (C, D) | uint16 (raw bits); float16 is also read as HF |
//!
//! Arrays must be 2-D; C (row-major) and Fortran order are both read; output is C order.

pub mod read;
mod write;

pub use read::{NpyError, acc_matrix_from_npy, element_matrix_from_npy};
pub use write::acc_matrix_to_npy;
