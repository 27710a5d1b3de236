//! Conformance sweeps (`spvx conform`): every form an extension allows, generated as a SPIR-V
//! module with edge-reaching inputs, run on the engine or a Vulkan device, and given a verdict.
//!
//! A *form* ([`form::Form`]) is one instruction at one set of types (OpSDotAccSat of two
//! 8-bit 4-vectors into a signed 32-bit result, say), as a module whose invocation `i` reads
//! element `i` of each input binding and writes element `i` of the output binding. Its inputs
//! come in *chunks* of at most [`form::CHUNK`] invocations, each generated from the seed, the
//! form's id and the chunk number alone ([`inputs`]), so a sweep is the same bytes whichever
//! process runs which chunk: `--shard K/N` ([`shard`]) takes every N-th (form, chunk) unit, and
//! [`report::Report::merge`] joins the shards' reports into the verdicts one process gives.
//!
//! Expected values come from the engine (its interpreter); the elements the engine reports as
//! undefined behaviour (the AccSat undefined case) are masked, never compared ([`run`]).
//! A verdict ([`verdict::Verdict`]) is PASS, FAIL (the first failing input, expected, got, the
//! invocation), UNSUPPORTED (the missing feature named), ALLOWED DIFFERENCE (the reason) or
//! ERROR (the run failed). [`export`] writes each case as an Amber script and a run file
//! (tensor forms: the run file only; Amber has no tensors).
//!
//! - [`ext`]: the extensions by name; [`intdot`]: SPV_KHR_integer_dot_product's forms;
//!   [`mixdot`]: SPV_VALVE_mixed_float_dot_product's forms and allowed differences;
//!   [`fixed`]: SPV_INTEL_arbitrary_precision_fixed_point's forms; [`smma`]:
//!   SPV_INTEL_subgroup_matrix_multiply_accumulate's forms; [`tensors`]: SPV_ARM_tensors'
//!   forms (their tensors follow the ports' bytes in a unit's inputs and are bound by [`run`]).
//! - [`form`], [`inputs`], [`edges`]: forms, chunks of inputs, edge values.
//! - [`run`], [`verdict`], [`sweep`]: running a unit, judging it, running a whole sweep.
//! - [`report`]: the per-form results, JSON and Markdown, merging shards; [`shard`]: `K/N`.
//! - [`export`]: Amber scripts and run files; [`isolate`]: device sweeps one process per form.
//!
//! Decisions are recorded in docs/semantics/conform.md.

pub mod edges;
pub mod export;
pub mod ext;
pub mod fixed;
pub mod form;
pub mod inputs;
pub mod intdot;
pub mod isolate;
pub mod mixdot;
pub mod report;
pub mod run;
pub mod shard;
pub mod smma;
pub mod sweep;
pub mod tensors;
pub mod verdict;

pub use ext::Ext;
pub use form::{CHUNK, Form};
pub use report::{FormResult, Report};
pub use shard::Shard;
pub use sweep::{Options, Target, sweep};
pub use verdict::Verdict;
