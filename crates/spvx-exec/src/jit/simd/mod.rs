//! The vector-lanes function: a workgroup's invocations run [`LANES`] at a time in SIMD
//! vectors, as lavapipe runs a shader, for programs without subgroup instructions, barriers,
//! calls or private memory whose every instruction has a vector lowering (`analysis`); the
//! others keep the scalar JIT. By default only where it is expected to be faster
//! (`analysis::preferred`: loops of arithmetic); on request for any such program.
//!
//! A 32-bit value of the lanes is one `i32x4` vector per four lanes, a pointer one `i64x2`
//! vector of offsets per two, a constant a scalar splatted where used. Control flow: sweeps
//! over the segments in their order, each segment with the lanes waiting to run it (a bitmask
//! per segment; every busy lane waits at exactly one). A segment with waiting lanes runs on
//! whole vectors for them (its all-lanes version when all are, else its masked version, where
//! each register a waiting lane may read later is written only in the active lanes, a
//! `bitselect`: `VLower::guarded`); its terminator adds each active lane to its edge's target.
//! After the last segment of a loop (its last back edge) the sweep jumps back to the header
//! while lanes wait there. Since invocations of such programs do not interact, any order gives
//! the same results: when a lane finishes, the loop stops jumping back and the sweep goes on,
//! so that the finished lane takes the workgroup's next invocation at the start of the next
//! sweep (lanes stay busy instead of idling until the slowest lane's loop ends), and from one
//! workgroup's invocations on to the next's. A segment that only one earlier segment's
//! unconditional branch reaches is lowered inline after it (fused); one that only one earlier
//! segment's conditional branch reaches is run at once from that branch; small diamonds are
//! if-converted (`select`); every lane going back to a loop header from an all-lanes version
//! goes straight into the header's all-lanes version.
//!
//! Undefined cases are checked on whole vectors for the active lanes (out-of-bounds accesses,
//! indices outside their array, division by zero, shifts past the width) and bail, as the
//! scalar JIT bails: the dispatch then reruns on the interpreter. Loads and stores run lane by
//! lane in lane order (gathers and scatters), an inactive lane's redirected to scratch memory,
//! except where all lanes are active and `pattern` expects one address or consecutive words:
//! those are tested and then done whole (`mem`). Divisions by a variable run lane by lane, an
//! inactive lane dividing by 1. Float arithmetic is the scalar JIT's (SSE, no fusing, NaN
//! canonical), lane for lane; packed integer dots and VALVE pair dots have their own lowerings
//! (`intdot`, `mixdot`).
//!
//! Memory of the function's own (`frame`): one stack slot, the frame, holds the scratch bytes
//! of inactive lanes, the memory spaces' bases and lengths, the refill cursor and the vector
//! constants (stored once before the first sweep and loaded where used), so that no slot
//! address and no constant is held in a register through the loops: Cranelift hoists them to
//! the entry, and the register allocator then stored and reloaded them on every iteration. In
//! a masked version with one active lane (a lane finishing or starting an invocation), a load
//! or store is that lane's alone.
//!
//! Steps: a segment costs its length + 1 for every active lane, the scalar JIT's count (each
//! invocation pays for every segment it runs), which the interpreter's count never exceeds;
//! counted down from the budget, checked at the start of a sweep and on every jump back to a
//! loop header, and by the driver when the workgroup ends.
//!
//! Native signature as the others: `fn(ctx, regs, invocations) -> status`, `regs` the register
//! files of [`LANES`] lanes side by side (`state_words` words each: each lane's built-ins are
//! computed into its file when it takes an invocation, and the template's uniform values read
//! from them), run for `invocations` invocations: those of the context's workgroup and of the
//! workgroups after it in x (the driver hands out several per call; a lane that finishes the
//! last invocation of one workgroup takes the first of the next).

mod analysis;
mod dot_lanes;
mod frame;
mod intdot;
mod lower;
mod mem;
mod mixdot;
mod ops;
mod pattern;
mod select;
mod shape;

use super::NativeFn;
use super::build::fail;
use crate::program::Program;
use cranelift_codegen::ir::UserFuncName;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::JITModule;
use cranelift_module::{Linkage, Module};

/// The invocations that run in vector lanes at a time (a multiple of 4). Four: with eight (two
/// `i32x4` per value; Cranelift has no 256-bit vectors) the branch-heavy benchmark kernel's
/// loop ran faster per lane, but lanes finish twice as often per sweep, and each sweep then
/// pays the prologue and epilogue of eight lanes: 28–32 ms against 27–28 ms for four lanes on
/// one thread (docs/benchmarks.md).
pub const LANES: usize = 4;

/// The largest entry function (instructions) the vector-lanes function is built for.
pub const MAX_SIMD_INSTRUCTIONS: usize = 2_000;

/// A program's vector-lanes function, in its own module.
pub(crate) struct SimdCode {
    /// Owns the executable memory; freed on drop.
    module: Option<JITModule>,
    pub(crate) func: NativeFn,
    /// The program has VALVE mixed dots, whose rounding model the vector lanes compute inline
    /// for the default configuration only (`mixdot::INLINE_WORD`).
    mixdot: bool,
}

impl SimdCode {
    /// Whether the vector lanes run a dispatch whose mixed-dot configuration word is `word`
    /// (`mixdot::abi::config_word`): for another configuration than the one they compute
    /// inline, a program with mixed dots runs on the scalar JIT, which computes every inline
    /// model (the vector lanes would call spvx-num for every lane's dot).
    pub(crate) fn runs(&self, word: u64) -> bool {
        !self.mixdot || word == mixdot::INLINE_WORD
    }
}

// SAFETY: as for `JitCode`: the code is immutable after `finalize_definitions`.
unsafe impl Send for SimdCode {}
unsafe impl Sync for SimdCode {}

impl Drop for SimdCode {
    fn drop(&mut self) {
        if let Some(m) = self.module.take() {
            // SAFETY: its function pointer does not outlive a dispatch (which borrows it).
            unsafe { m.free_memory() };
        }
    }
}

/// The plan for `prog`, or why the vector-lanes function does not run it.
fn checked_plan(prog: &Program) -> Result<analysis::Plan, String> {
    let size = prog.functions[prog.entry as usize].code.len();
    if size > MAX_SIMD_INSTRUCTIONS {
        return Err(format!("{size} instructions"));
    }
    analysis::plan(prog)
}

/// Whether `prog` runs in vector lanes by default: they take it and are expected to be faster
/// than the scalar JIT (`analysis::preferred`).
pub fn preferred(prog: &Program) -> bool {
    checked_plan(prog).is_ok_and(|p| analysis::preferred(prog, &p))
}

/// Compiles the vector-lanes function of `prog` for register files of `state_words` words,
/// appending its IR and machine code to `dump` when given.
pub fn compile(
    prog: &Program,
    state_words: usize,
    mut dump: Option<&mut String>,
) -> Result<SimdCode, String> {
    let plan = checked_plan(prog)?;
    let super::build::NewModule {
        mut module, sig, ..
    } = super::build::new_module()?;
    let mixdot = prog
        .functions
        .iter()
        .flat_map(|f| f.code.iter())
        .any(|i| matches!(i, crate::program::Inst::MixDot { .. }));
    let tramp = if mixdot {
        Some(dot_lanes::define(&mut module, dump.as_deref_mut())?)
    } else {
        None
    };
    let id = module
        .declare_function("simd", Linkage::Local, &sig)
        .map_err(|e| fail("declare", &e))?;
    let mut ctx = module.make_context();
    let mut fctx = FunctionBuilderContext::new();
    ctx.func.signature = sig.clone();
    ctx.func.name = UserFuncName::user(0, id.as_u32());
    let tramp = tramp.map(|t| module.declare_func_in_func(t, &mut ctx.func));
    {
        let mut b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
        let mut l = lower::VLower::new(&mut b, prog, &plan, tramp);
        l.lower(state_words);
        b.seal_all_blocks();
        b.finalize(module.target_config());
    }
    let func = super::build::finish_single(&mut module, &mut ctx, id, "vector lanes", dump)?;
    Ok(SimdCode {
        module: Some(module),
        func,
        mixdot,
    })
}
