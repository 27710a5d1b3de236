//! The JIT: compiles a [`Program`] to native code with Cranelift and runs each invocation of a
//! workgroup as straight scalar code, one invocation after another, instead of the SIMT
//! interpreter's lock-step subgroups.
//!
//! The interpreter (`exec`) stays the reference. The JIT only takes executions whose result the
//! interpreter would give identically:
//!
//! - **Programs** where no invocation can observe another's progress except through barriers
//!   and subgroup instructions: no subgroup matrix multiply, no control barriers other than
//!   workgroup barriers in the entry function, group non-uniform instructions and ballots only
//!   in the entry function (run at a rendezvous of the subgroup's invocations: `group`), no
//!   atomics whose order between invocations could show (`atomics`). Everything else runs: the common
//!   instructions natively (`lower_*`), the rest by calling the interpreter's own
//!   implementation of the instruction for one lane (`runtime::callout`).
//! - **Runs** without `strict` or `track_writers`, and only while nothing undefined happens:
//!   the first undefined-behaviour event (an out-of-bounds access, a division by zero, a shift
//!   past the width, a call-out that reports), a barrier reached differently from how the
//!   interpreter would reach it, or the step budget ends the JIT run, and the whole dispatch
//!   starts over on the interpreter from the original inputs (`run::run`), whose result and
//!   report are then the answer. So every run that reports an event or an error is the
//!   interpreter's, and every other run gives the bytes the interpreter gives for a program
//!   without data races.
//!
//! Programs with subgroup instructions and without calls or private memory run, at
//! subgroup sizes up to `lanes::LANES`, a whole subgroup per native call instead (`lanes`: the
//! entry function lowered once per lane with the interpreter's scheduler compiled in).
//!
//! Programs without barriers, subgroup instructions, calls or private memory whose every
//! instruction has a vector lowering run four invocations at a time in SIMD vectors instead
//! (`simd`): by default where that is expected to be faster (`simd::preferred`: loops of
//! arithmetic), and on request (`JitCode::with_vector_lanes`,
//! `CompiledModule::with_jit_vector_lanes`) for any of them.
//!
//! A workgroup's invocations run in LocalInvocationIndex order, each until it finishes or
//! reaches a workgroup barrier; when every invocation waits at the same dynamic instance of a
//! barrier (per subgroup: the same instruction in the same iteration of every enclosing loop,
//! `loops::BarrierLoops`), all are released. Printed lines are ordered as the interpreter
//! orders them (by invocation, then program order).
//!
//! The only `unsafe` code of the engine is here: calling generated code, and the call-outs that
//! generated code makes back into Rust with the pointers it was given (`runtime`).

mod analysis;
mod atomics;
mod build;
mod callout_trampoline;
pub mod code_cache;
mod diamond;
mod driver;
mod ext;
mod floats;
mod group;
mod inline;
mod lanes;
mod liveness;
mod loops;
mod lower;
mod lower_fixed;
mod lower_imath;
mod lower_loop;
mod lower_mem;
mod lower_mixdot;
mod lower_ops;
mod lower_select;
mod lower_tensor;
mod mixdot_models;
mod runtime;
mod shuffles;
mod simd;

use crate::program::Program;
use cranelift_jit::JITModule;

pub(crate) use driver::{dispatch, vector_lanes};
pub use lanes::LANES;
pub use simd::LANES as VECTOR_LANES;

/// The largest program (instructions over all functions) the JIT compiles; larger ones run on
/// the interpreter (compilation time grows with size, and such programs are rare).
pub const MAX_JIT_INSTRUCTIONS: usize = 200_000;

/// The longest chain of calls the JIT compiles: each call is a native call on the host stack
/// (the interpreter keeps its frames on the heap and runs deeper chains).
pub const MAX_JIT_CALL_DEPTH: usize = 64;

/// Status a native function returns.
pub(crate) mod status {
    /// The function returned.
    pub const DONE: u64 = 0;
    /// The invocation executed OpKill / OpTerminateInvocation.
    pub const KILLED: u64 = 1;
    /// The invocation waits at a workgroup barrier (its state is in its register file).
    pub const BARRIER: u64 = 2;
    /// Something the JIT does not decide happened: the dispatch goes to the interpreter.
    pub const BAIL: u64 = 3;
    /// The step budget is spent: the dispatch goes to the interpreter.
    pub const STEPS: u64 = 4;
    /// The invocation waits at a subgroup instruction (`group`; its state is in its register
    /// file).
    pub const GROUP: u64 = 5;
    /// Set by the driver: the invocation waits at a workgroup barrier that cannot be released
    /// yet (a subgroup instruction is still to run first); the round loop skips it.
    pub const HOLD: u64 = 6;
    /// The lanes function (`lanes`) reached a workgroup barrier with some lanes of the
    /// subgroup elsewhere, which the interpreter reports: the dispatch goes to it.
    pub const NON_UNIFORM_BARRIER: u64 = 7;
}

/// A native function: `(context, register file, resume) -> status`.
pub(crate) type NativeFn = unsafe extern "C" fn(*mut runtime::JitCtx, *mut u64, u64) -> u64;

/// One instruction the native code runs through the interpreter: function and code index.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Callout {
    pub func: u32,
    pub index: u32,
}

/// A program compiled to native code.
pub struct JitCode {
    /// Owns the executable memory; freed on drop.
    module: Option<JITModule>,
    pub(crate) entry: NativeFn,
    /// The native workgroup loop (`lower_loop`), when the program allows it: `resume` is then
    /// the number of invocations.
    pub(crate) workgroup_loop: Option<NativeFn>,
    /// The native round loop of a program with barriers (`lower_loop::emit_rounds`).
    pub(crate) rounds: Option<NativeFn>,
    /// The native start of a run in rounds (`lower_loop::emit_starts`), when native code can
    /// compute every built-in of the program.
    pub(crate) starts: Option<NativeFn>,
    /// Whether instructions were compiled natively (`compile`'s `native_code`).
    native_code: bool,
    /// Whether the entry function has workgroup barriers (the lanes function then keeps every
    /// subgroup's lanes apart: they wait there).
    pub(crate) workgroup_barriers: bool,
    /// Whether the program allows the lanes function (`lanes::eligible`).
    lanes_eligible: bool,
    /// The entry function for a whole subgroup of up to `lanes::LANES` invocations in one call
    /// (`lanes`), compiled at the first dispatch that can use it (at most 8 invocations per
    /// subgroup: the default 32 never does, and it costs ten times the rest's compile time).
    lanes: std::sync::OnceLock<Result<LanesCode, String>>,
    /// The vector-lanes function (`simd`), or why the program has none.
    pub(crate) simd: Result<simd::SimdCode, String>,
    /// Words of an invocation's state: where its resume point and its status are.
    pub(crate) resume_word: usize,
    pub(crate) status_word: usize,
    pub(crate) callouts: Vec<Callout>,
    /// The buffer spaces whose atomic additions a worker may make into its own copy
    /// (`atomics::private_sums`; `driver::Worker` makes the copies).
    pub(crate) private_sums: Vec<u32>,
    /// The size of an invocation's state: its registers, then (used with barriers) the resume
    /// point, the barrier instruction, the loop counters of the barrier and the status word.
    pub(crate) state_words: usize,
    /// Instructions compiled to native code, and instructions run through the interpreter.
    pub(crate) natively_lowered: usize,
    pub(crate) called_out: usize,
    /// The program's fixed-point operations that native code evaluates through spvx-num
    /// (`lower_fixed::fixed_ops`; `runtime::JitCtx::fixed_ops` points here while a dispatch runs).
    pub(crate) fixed_ops: Vec<spvx_num::fixed::abi::Prepared>,
    /// The tensor accesses native code makes without a test, tested once per dispatch
    /// (`lower_tensor::tensor_checks`; the lanes function's lowering, from the same program,
    /// makes the same ones).
    pub(crate) tensor_checks: Vec<lower_tensor::TensorCheck>,
}

// SAFETY: after `finalize_definitions` the module's code is immutable; the function pointers
// and call-out table are plain data, and the module is only touched again when it is dropped.
unsafe impl Send for JitCode {}
unsafe impl Sync for JitCode {}

/// The lanes function (`lanes`) of a program, in its own module.
pub(crate) struct LanesCode {
    /// Owns the executable memory; freed on drop.
    module: Option<JITModule>,
    pub(crate) func: NativeFn,
    /// Its call-out table (`runtime::Host::callouts` while it runs).
    pub(crate) callouts: Vec<Callout>,
    /// Whether it computes the invocations' built-ins itself (else the driver writes them).
    pub(crate) builtins: bool,
}

// SAFETY: as for `JitCode`.
unsafe impl Send for LanesCode {}
unsafe impl Sync for LanesCode {}

impl Drop for LanesCode {
    fn drop(&mut self) {
        if let Some(m) = self.module.take() {
            // SAFETY: as for `JitCode`: its function pointer does not outlive a dispatch.
            unsafe { m.free_memory() };
        }
    }
}

impl JitCode {
    /// The lanes function of `prog` (the program this code was compiled from), compiled at the
    /// first call; `None` when the program does not allow it or it failed to compile (the
    /// rendezvous then runs the subgroup instructions).
    pub(crate) fn lanes(&self, prog: &Program) -> Option<&LanesCode> {
        if !self.lanes_eligible {
            return None;
        }
        self.lanes
            .get_or_init(|| build::compile_lanes(prog, self.native_code, self.state_words, None))
            .as_ref()
            .ok()
    }
}

impl Drop for JitCode {
    fn drop(&mut self) {
        if let Some(m) = self.module.take() {
            // SAFETY: `JitCode` owns the only references to the code (its function pointers
            // are not handed out beyond a dispatch, which borrows `self`).
            unsafe { m.free_memory() };
        }
    }
}

impl std::fmt::Debug for JitCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JitCode")
            .field("natively_lowered", &self.natively_lowered)
            .field("called_out", &self.called_out)
            .field("barriers", &self.rounds.is_some())
            .finish()
    }
}

impl JitCode {
    /// Instructions compiled to native code, and instructions run through the interpreter.
    pub fn instruction_counts(&self) -> (usize, usize) {
        (self.natively_lowered, self.called_out)
    }

    /// The memory spaces of the storage buffers that only 32-bit atomic additions touch: each
    /// worker thread adds into its own copy of such a buffer without a lock, and adds the copy
    /// into the buffer when the dispatch ends; a buffer over 64 KiB keeps locked additions
    /// (docs/semantics/engine-and-jit.md, "Private sums").
    pub fn private_sums(&self) -> &[u32] {
        &self.private_sums
    }

    /// Whether the program's workgroups run in SIMD vector lanes (`simd`), or why not.
    pub fn vector_lanes(&self) -> Result<(), &str> {
        self.simd.as_ref().map(|_| ()).map_err(|e| e.as_str())
    }

    /// The same code with the vector-lanes function of `prog` (the program it was compiled
    /// from) when `simd` supports the program: its workgroups then run four invocations at a
    /// time in SIMD vectors (the default only where `simd::preferred`;
    /// docs/semantics/engine-and-jit.md, "Vector lanes").
    pub fn with_vector_lanes(mut self, prog: &Program) -> JitCode {
        self.simd = if self.vector_lanes_possible() {
            simd::compile(prog, self.state_words, None)
        } else {
            Err("compiled for call-outs only, or with barriers or subgroup instructions".into())
        };
        self
    }

    /// Whether vector lanes can go with this code: native code, no round loop (barriers), no
    /// lanes function (subgroup instructions).
    fn vector_lanes_possible(&self) -> bool {
        self.native_code && self.rounds.is_none() && !self.lanes_eligible
    }
}

/// The Cranelift IR and machine code the JIT makes of `prog` (for inspection), or why it
/// cannot compile it.
pub fn dump(prog: &Program) -> Result<String, String> {
    if let Some(why) = analysis::unsupported(prog) {
        return Err(why);
    }
    let mut text = String::new();
    let code = build::compile_dumping(prog, true, Some(&mut text))?;
    if lanes::eligible(prog)
        && let Err(why) = build::compile_lanes(prog, true, code.state_words, Some(&mut text))
    {
        text.push_str(&format!("; lanes: not compiled: {why}\n"));
    }
    if let Err(why) = simd::compile(prog, code.state_words, Some(&mut text)) {
        text.push_str(&format!("; vector lanes: not compiled: {why}\n"));
    }
    let (native, called) = code.instruction_counts();
    Ok(format!(
        "; {native} instructions compiled natively, {called} through the interpreter\n{text}"
    ))
}

/// Why `prog` cannot run on the JIT, or `None` when it can.
pub fn unsupported(prog: &Program) -> Option<String> {
    analysis::unsupported(prog)
}

/// The share of call-outs (percent of a program's instructions) from which the interpreter
/// runs a program instead of the JIT (`analysis::prefers_interpreter`).
pub const MAX_CALLOUT_PERCENT: usize = 10;

/// Why the interpreter runs `prog` instead of the JIT (`None`: the JIT is preferred): too many
/// of its instructions would be call-outs, or it has Workgroup memory without a workgroup
/// barrier (only the interpreter's lockstep order is the engine's answer for such programs).
pub fn prefers_interpreter(prog: &Program) -> Option<String> {
    analysis::prefers_interpreter(prog)
}

/// Compiles `prog` to native code (`Err`: why not; the program then runs on the interpreter).
/// With `native_code` false, every instruction calls the interpreter's implementation: the
/// same results, slower; it exists to test the JIT's control flow and register handling on
/// every instruction.
/// Programs the vector lanes take and are expected to run faster (`simd::preferred`) get them.
///
/// The scalar code and the vector lanes compile at the same time (rayon), each on its own
/// Cranelift module.
pub fn compile(prog: &Program, native_code: bool) -> Result<JitCode, String> {
    if !(native_code && simd::preferred(prog)) {
        return compile_scalar(prog, native_code);
    }
    // (The vector lanes take no program with barriers: no loop counters in the state.)
    let (_, _, words) = build::state_layout(prog, 0);
    let (code, vector) = rayon::join(
        || compile_scalar(prog, native_code),
        || simd::compile(prog, words, None),
    );
    let mut code = code?;
    if code.state_words == words && code.vector_lanes_possible() {
        code.simd = vector;
    } else {
        code = code.with_vector_lanes(prog);
    }
    Ok(code)
}

/// [`compile`] without the vector lanes: one invocation at a time (or a subgroup's lanes in
/// the lanes function).
pub fn compile_scalar(prog: &Program, native_code: bool) -> Result<JitCode, String> {
    if let Some(why) = analysis::unsupported(prog) {
        return Err(why);
    }
    build::compile(prog, native_code)
}
