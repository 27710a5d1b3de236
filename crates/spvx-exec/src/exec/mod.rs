//! SIMT execution of one subgroup: registers are stored lane-contiguous (slot-major:
//! `regs[slot * width + lane]`), an active-lane mask says which lanes an instruction applies
//! to, and one instruction is applied to all active lanes at once.
//!
//! The files depend on one another in one direction only:
//! - shared helpers: [`ctx`] (what an instruction runs against, the lane loops, events),
//!   [`mask`] (active-lane masks), [`float_bits`] (register patterns ↔ host floats),
//!   [`limbs`] (integers wider than 64 bits as 64-bit limbs);
//! - one file (or directory) per instruction family, each using only the helpers (and
//!   `arith` the shifts of `bitwise`, `kernel` the access reports of `memory`);
//! - [`execute`]: runs one instruction by handing it to its family;
//! - [`control`]: the scheduler (divergence and reconvergence, calls, barriers), over
//!   `execute`.

pub mod arith;
pub mod atomic;
pub mod bitwise;
pub mod compare;
pub mod composite;
pub mod control;
pub mod convert;
pub mod ctx;
pub mod execute;
pub mod fixed;
pub mod float;
pub mod float_bits;
pub mod glsl;
pub mod intdot;
pub mod kernel;
pub mod limbs;
pub mod mask;
pub mod math;
pub mod matrix_mma;
pub mod memory;
pub mod mixdot;
pub mod opencl;
mod pending;
pub mod printf;
pub mod subgroup;
pub mod tensor;
pub mod wide;

pub use ctx::{Ctx, RawEvent, RawPrint, Sink, Stop};
pub use execute::execute;
pub use mask::{full_mask, lanes};
