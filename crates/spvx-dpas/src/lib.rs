//! `spvx-dpas`: an exact simulator of Intel's vISA DPAS instruction (`D = C + A × B` on the
//! XMX systolic array): its text syntax, a register file, the legality rules of each platform,
//! execution exactly as DPAS.md's pseudo-code defines it, a matrix-level API that packs
//! ordinary matrices into the register layout and runs the needed instructions, and a fast
//! blocked, multithreaded, SIMD GEMM whose results equal the instruction path bit for bit.
//!
//! Element arithmetic (precisions, extraction, integer and float dot steps, float accumulation
//! models, BF/HF conversions) comes from `spvx_num::dpas`; this crate adds everything about
//! registers, instructions and matrices. It knows nothing of SPIR-V: the engine builds the
//! matrices of one subgroup and calls [`matrix::matmul_instructions`] (see that function).
//!
//! - [`Platform`] — exec size, GRF size and supported precisions per platform.
//! - [`RegisterFile`] — GRFs of 8 or 16 dwords, `rN.sub` addressing, raw and hex images.
//! - [`isa`] — [`isa::Instruction`], [`isa::parse_program`], [`isa::check`], [`isa::execute`],
//!   [`isa::Program`], [`isa::encoding`].
//! - [`matrix`] — [`matrix::ElementMatrix`], [`matrix::AccMatrix`], [`matrix::MatmulSpec`],
//!   register-layout packing, [`matrix::matmul_instructions`].
//! - [`gemm`] — [`gemm::matmul_fast`].
//! - [`diagram`] — an instruction's register regions as a text grid or an SVG.
//!
//! Sources and decisions: `docs/semantics/dpas.md`, section "DPAS simulator". Float results follow
//! Intel's reference emulators (not silicon-verified).

mod data_type;
pub mod diagram;
mod error;
pub mod gemm;
pub mod isa;
pub mod matrix;
mod platform;
mod regfile;
mod regfile_io;

pub use data_type::{DataType, UnknownType};
pub use error::{Illegal, MatrixError, ParseError, RegFileError, Rule, SimError};
pub use platform::{Platform, UnknownPlatform};
pub use regfile::{DEFAULT_GRFS, MAX_GRFS, RegisterFile};
pub use spvx_num::dpas::{BfOutputRounding, FloatModel, Precision};
