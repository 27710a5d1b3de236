//! Integer dot products of SPV_KHR_integer_dot_product (OpSDot, OpUDot, OpSUDot and their
//! AccSat forms), for any component width 1..=64 and any result width from the component width
//! up (including the arbitrary widths of SPV_INTEL_arbitrary_precision_integers), plus a fast
//! path over slices for the packed 4×8-bit forms with 32-bit results.
//!
//! Values are passed as bit patterns (`u64` for components and results of at most 64 bits,
//! [`num_bigint::BigUint`] for wider results); a [`DotSpec`] says how to read them (signedness
//! from the instruction, component width, result width). Bits above a value's width are ignored.
//!
//! - [`DotSpec`]: the per-instruction descriptor; its methods compute one lane.
//! - [`AccSat`] / [`AccSatUndefined`]: the AccSat result and the report of the spec's undefined
//!   case (a product or partial sum outside the result type).
//! - [`unpack4x8`]: the PackedVectorFormat4x8Bit layout (component 0 in the least significant byte).
//! - [`Backend`] and the `*4x8*_slice` functions: packed dot4 over slices with 32-bit results,
//!   using AVX-512 VNNI or AVX2 when the CPU has them and a portable path otherwise; all
//!   backends give identical results.
//!
//! The semantic decisions (notably what "a partial sum overflows" means) are recorded in
//! `docs/semantics/integer-dot.md`, section "Integer dot products".

mod error;
mod exact;
mod narrow;
mod packed;
mod portable;
mod slice;
mod spec;
#[cfg(target_arch = "x86_64")]
mod x86;

pub use error::IntDotError;
pub use packed::{pack4x8, unpack4x8};
pub use slice::{
    Backend, packed4x8_acc_sat_slice, packed4x8_slice, sdot4x8_acc_sat_slice, sdot4x8_slice,
    sudot4x8_acc_sat_slice, sudot4x8_slice, udot4x8_acc_sat_slice, udot4x8_slice,
};
pub use spec::{AccSat, AccSatUndefined, DotKind, DotSpec, MAX_RESULT_BITS};
