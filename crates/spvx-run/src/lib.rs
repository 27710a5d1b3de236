//! `spvx-run`: the run plan — everything between a command line (or a Python call) and the
//! engine, a Vulkan device or the DPAS simulator. A run is described once, as a [`RunPlan`]
//! (from a run file, or built by the caller from its arguments), then carried out step by
//! step; each step returns what it did, and printing it is the caller's business.
//!
//! It must not know about command lines or printing (no `clap`, no `println!`); the layers
//! below it (spvx-exec, spvx-vk, spvx-dpas, spvx-num) must not know about it.
//!
//! - [`plan`]: [`RunPlan`] and its bindings; [`options`]: the engine options of a run.
//! - [`runfile`]: run files (TOML) → [`RunPlan`], errors with `file:line:column`.
//! - [`parse`]: workgroup counts and specialisation-constant values (run files and command
//!   lines).
//! - [`data`], [`prng`]: data sources (files, `.npy`, zeros, inline values, seeded random
//!   fills). The element type of data is [`ElemType`] (`spvx_num::element`).
//! - [`npy`]: the one `.npy` layer (buffer bytes; DPAS matrices for `spvx dpas matmul`).
//! - [`module`]: reading the module, choosing the entry point, places of instructions.
//! - [`bindings`]: a plan's bindings against the entry point's.
//! - [`element`]: a binding's element type from the module, and `.npy` dtypes checked
//!   against it.
//! - [`inputs`]: loading the data into engine resources.
//! - [`engine`]: running a plan on the engine; [`kernel`]: Kernel (OpenCL) entry points.
//! - [`device`]: running a plan on a Vulkan device; [`diff`]: engine against device.
//! - [`compare`]: the one buffer comparison (run, diff, bench), and the spec-aware one (diff,
//!   conform); [`profile`]: vendor profiles (`--profile`).
//! - [`expect`]: expectations, PASS/FAIL lines and their tally.
//! - [`outputs`]: writing buffers, tensors and kernel arguments after a run.
//! - [`reflect`]: what a module declares (`spvx reflect`), from its index; [`layout`]: a
//!   block type's declared memory layout (offsets, strides, sizes, member names).
//! - [`diagnostic`]: [`diagnostic::Diagnostic`], an error or warning with its place (run file,
//!   module text or binary), and the one renderer every command prints them with.
//! - [`error`]: [`RunError`], any of the above's errors.

pub mod amber;
pub mod bindings;
pub mod compare;
pub mod conform;
pub mod data;
pub mod device;
pub mod diagnostic;
pub mod diff;
pub mod element;
pub mod engine;
pub mod error;
pub mod expect;
pub mod inputs;
pub mod kernel;
pub mod layout;
pub mod module;
pub mod npy;
pub mod options;
pub mod outputs;
pub mod parse;
pub mod plan;
pub mod prng;
pub mod profile;
pub mod reflect;
pub mod runfile;
pub mod show;

pub use error::RunError;
pub use options::RunOptions;
pub use plan::{BufferPlan, ExpectPlan, OutFormat, RunPlan, TensorPlan};
pub use spvx_num::element::{ElemError, ElemType};
