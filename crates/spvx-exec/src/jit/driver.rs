//! Running a dispatch on the JIT: workgroups in parallel as the interpreter runs them, and
//! within a workgroup each invocation's native code in LocalInvocationIndex order, in rounds
//! separated by workgroup barriers. Anything the interpreter would report ends the JIT run with
//! the reason (`Err`), and the caller runs the dispatch on the interpreter instead.

use super::lower_loop::RUN;
use super::runtime::{Host, JitCtx, Space};
use super::simd::SimdCode;
use super::{JitCode, status};
use crate::dispatch::builtins::{self, Invocation};
use crate::dispatch::{Dispatch, Outcome, each_workgroup};
use crate::exec::Sink;
use crate::memory::{SPACE_BUFFER0, SPACE_PRIVATE, SPACE_WORKGROUP};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering::Relaxed};

/// Runs every workgroup of `d` on `code`; `Err` says why the interpreter must run it instead.
pub(crate) fn dispatch(d: &Dispatch, code: &JitCode, total: u64) -> Result<Vec<Outcome>, String> {
    tensors_checked(d, code)?;
    let abort = AtomicBool::new(false);
    let batch = Batches::new(d, code, total);
    let results = each_workgroup(
        d,
        batch.jobs(),
        || Worker::new(d, code),
        |w: &mut Worker, i| {
            if abort.load(Relaxed) {
                return Err(String::new());
            }
            let (wg, count) = batch.job(d, i);
            let r = w.run(d, code, wg, count, &abort);
            if r.is_err() {
                abort.store(true, Relaxed);
            }
            r
        },
        Result::is_err,
    )?;
    // The first failure in workgroup order that says why (the others only stopped early).
    if let Some(why) = results
        .iter()
        .filter_map(|r| r.as_ref().err())
        .find(|w| !w.is_empty())
    {
        return Err(why.clone());
    }
    results.into_iter().collect()
}

/// How the workgroups are handed out: one at a time, or, to the vector lanes, several
/// consecutive in x per call, so that their lanes go on from one workgroup's invocations to the
/// next instead of idling in each workgroup's last invocations (the vector lanes run only
/// programs without barriers, subgroup instructions or Workgroup memory: workgroups that do not
/// interact).
struct Batches {
    /// Workgroups per call (1: one at a time).
    size: u32,
    /// Calls per row of workgroups in x, and the calls in all.
    per_row: u64,
    jobs: u64,
}

/// Workgroups per vector-lanes call, at most. The step budget (per workgroup) is checked
/// against the steps of the whole call, which can only make a call give up early (the dispatch
/// then runs on the interpreter, which decides).
const BATCH: u32 = 8;

impl Batches {
    fn new(d: &Dispatch, code: &JitCode, total: u64) -> Batches {
        if vector_lanes(d, code).is_none() || d.groups[0] <= 1 {
            return Batches {
                size: 1,
                per_row: 1,
                jobs: total,
            };
        }
        // (Enough calls left for the threads to share.)
        let threads = d
            .cfg
            .threads
            .unwrap_or_else(rayon::current_num_threads)
            .max(1) as u64;
        let size = (total / (16 * threads)).clamp(1, u64::from(BATCH)) as u32;
        let size = size.min(d.groups[0]);
        let per_row = u64::from(d.groups[0]).div_ceil(u64::from(size));
        let rows = u64::from(d.groups[1]) * u64::from(d.groups[2]);
        Batches {
            size,
            per_row,
            jobs: per_row * rows,
        }
    }

    fn jobs(&self) -> u64 {
        self.jobs
    }

    /// The first workgroup of call `i` and how many workgroups (along x) it runs.
    fn job(&self, d: &Dispatch, i: u64) -> ([u32; 3], u32) {
        if self.size == 1 {
            return (d.workgroup_id(i), 1);
        }
        let row = i / self.per_row;
        let x = (i % self.per_row) as u32 * self.size;
        let [gx, gy, _] = d.groups;
        let count = self.size.min(gx - x);
        (
            [
                x,
                (row % u64::from(gy)) as u32,
                (row / u64::from(gy)) as u32,
            ],
            count,
        )
    }
}

/// The lanes function, when it runs `d` (its subgroup size is at most `lanes::LANES`).
fn lanes<'c>(d: &Dispatch, code: &'c JitCode) -> Option<&'c super::LanesCode> {
    if d.width >= 1 && d.width <= super::lanes::LANES as usize {
        code.lanes(d.prog)
    } else {
        None
    }
}

/// The vector-lanes function when it runs dispatch `d`: compiled for the program, no lanes
/// function taking the dispatch first, and the run's mixed-dot configuration one it computes
/// inline (`SimdCode::runs`).
pub(crate) fn vector_lanes<'c>(d: &Dispatch, code: &'c JitCode) -> Option<&'c SimdCode> {
    let simd = code.simd.as_ref().ok()?;
    let word = super::lower_mixdot::config(&d.cfg.mixdot);
    (lanes(d, code).is_none() && simd.runs(word)).then_some(simd)
}

/// Why a native call's status ends the JIT run.
fn fail_reason(status: u64) -> String {
    match status {
        status::STEPS => "the step budget ran out".into(),
        status::NON_UNIFORM_BARRIER => "a barrier reached non-uniformly within a subgroup".into(),
        status::BAIL => {
            "an instruction met a case the interpreter reports (an undefined-behaviour event)"
                .into()
        }
        other => format!("native code returned status {other}"),
    }
}

/// The largest buffer a worker copies for its atomic additions (`JitCode::private_sums`):
/// each worker zeroes its copy and adds it into the buffer at the end, so a large buffer
/// would cost more than the locks it saves.
const PRIVATE_SUMS_MAX_BYTES: u64 = 1 << 16;

/// A worker's own copy of a buffer that only atomic additions touch: the sums of its
/// invocations' additions, added into the buffer (atomically: other workers add theirs at the
/// same time) when the worker is dropped.
struct PrivateSums {
    buffer: *mut u8,
    copy: Vec<u32>,
}

impl Drop for PrivateSums {
    fn drop(&mut self) {
        for (i, &x) in self.copy.iter().enumerate() {
            if x != 0 {
                // SAFETY: `buffer` is the bound buffer's first byte (4-aligned, like every
                // buffer of the engine, for its atomics), at least `4 * copy.len()` bytes long,
                // alive for the dispatch that owns this worker; its words are only accessed
                // atomically while the dispatch runs (`atomics::private_sums`).
                let word = unsafe { AtomicU32::from_ptr(self.buffer.add(4 * i).cast()) };
                word.fetch_add(x, Relaxed);
            }
        }
    }
}

/// The memory spaces of `d`'s buffers (`SPACE_BUFFER0` on), the spaces before them empty
/// (each worker sets its Workgroup and Private memory).
fn buffer_spaces(d: &Dispatch) -> Vec<Space> {
    let mut spaces = vec![
        Space {
            base: std::ptr::null_mut(),
            len: 0,
            read_only: 1,
            private_sums: 0,
        };
        SPACE_BUFFER0 as usize + d.buffers.len()
    ];
    for (s, b) in spaces[SPACE_BUFFER0 as usize..].iter_mut().zip(d.buffers) {
        let (base, len) = b.raw_parts();
        *s = Space {
            base,
            len: len as u64,
            read_only: b.read_only as u64,
            private_sums: 0,
        };
    }
    spaces
}

/// Whether native code may access directly every tensor it accesses without a test
/// (`lower_tensor::tensor_checks`), else why the interpreter runs the dispatch.
fn tensors_checked(d: &Dispatch, code: &JitCode) -> Result<(), String> {
    if code.tensor_checks.is_empty() {
        return Ok(());
    }
    let table = super::runtime::tensor_table(d.tensors, &buffer_spaces(d));
    match code
        .tensor_checks
        .iter()
        .find(|c| !super::runtime::tensor_access_native(&table, c))
    {
        Some(c) => {
            let at = match d.prog.bindings.get((c.space - SPACE_BUFFER0) as usize) {
                Some(b) => format!("set {} binding {}", b.set, b.binding),
                None => format!("memory space {}", c.space),
            };
            Err(format!(
                "the tensor at {at} is not one native code accesses directly (rank {}, \
                 {}-byte elements{}): its shape, strides or memory need the interpreter's \
                 checks",
                c.rank,
                c.bytes,
                if c.write { ", written" } else { "" }
            ))
        }
        None => Ok(()),
    }
}

/// Per-thread state reused from workgroup to workgroup.
struct Worker {
    /// The buffers this worker adds into its own copies of (kept for their `Drop`, which adds
    /// the copies into the buffers).
    _sums: Vec<PrivateSums>,
    /// Each invocation's registers and barrier state (one invocation's worth when the program
    /// has no barrier: invocations then run one after another in the same registers).
    state: Vec<u64>,
    private: Vec<u8>,
    workgroup: Vec<u8>,
    spaces: Vec<Space>,
    /// The bound tensors for native code (`runtime::tensor_table`).
    tensors: Vec<u64>,
    /// A fresh invocation's registers.
    template: Vec<u64>,
    /// The register file `group::run` builds (at a rendezvous, and in the lanes function's
    /// call-outs).
    scratch: Vec<u64>,
}

impl Worker {
    fn new(d: &Dispatch, code: &JitCode) -> Worker {
        let sw = code.state_words;
        let mut template = vec![0u64; sw];
        for (slot, t) in template
            .iter_mut()
            .enumerate()
            .take(d.prog.slot_count as usize)
        {
            *t = d.template[slot * d.width];
        }
        // (The lanes function touches the register files of all its lanes, present or not.)
        let copies = if vector_lanes(d, code).is_some() {
            super::simd::LANES
        } else if lanes(d, code).is_some() {
            let lanes = super::lanes::LANES as usize;
            if code.workgroup_barriers {
                lanes * d.subgroups
            } else {
                lanes
            }
        } else if code.rounds.is_some() {
            d.invocations
        } else {
            1
        };
        let pb = d.prog.private_bytes as usize;
        let mut spaces = buffer_spaces(d);
        let mut sums = Vec::new();
        for &space in &code.private_sums {
            let s = &mut spaces[space as usize];
            if s.read_only == 0 && s.len <= PRIVATE_SUMS_MAX_BYTES {
                let copy = vec![0u32; (s.len / 4) as usize];
                sums.push(PrivateSums {
                    buffer: s.base,
                    copy,
                });
                let own = sums.last_mut().expect("pushed");
                s.base = own.copy.as_mut_ptr().cast();
                s.private_sums = 1;
            }
        }
        Worker {
            _sums: sums,
            state: template.repeat(copies),
            private: vec![0; pb * copies],
            workgroup: vec![0; d.workgroup_bytes as usize],
            tensors: super::runtime::tensor_table(d.tensors, &spaces),
            spaces,
            template,
            scratch: Vec::new(),
        }
    }

    /// Runs the workgroup `wg` (and, in vector lanes, the `count` − 1 after it in x).
    fn run(
        &mut self,
        d: &Dispatch,
        code: &JitCode,
        wg: [u32; 3],
        count: u32,
        abort: &AtomicBool,
    ) -> Result<Outcome, String> {
        let prog = d.prog;
        let pb = prog.private_bytes as usize;
        // (Not on an empty slice: glibc's memset of 0 bytes at an empty Vec's dangling address
        // issues an AVX-512 store with an empty mask there, which this CPU (AMD Zen 4) runs
        // through a microcode assist of about 50 ns: 0.85 ms of a 16,384-workgroup dispatch.)
        if !self.workgroup.is_empty() {
            self.workgroup.fill(0);
        }
        self.spaces[SPACE_WORKGROUP as usize] = Space {
            base: self.workgroup.as_mut_ptr(),
            len: self.workgroup.len() as u64,
            read_only: 0,
            private_sums: 0,
        };
        self.spaces[SPACE_PRIVATE as usize] = Space {
            base: self.private.as_mut_ptr(),
            len: pb as u64,
            read_only: 0,
            private_sums: 0,
        };
        let mut host = Host {
            prog,
            cfg: d.cfg,
            buffers: d.buffers,
            tensors: d.tensors,
            callouts: match lanes(d, code) {
                Some(l) => &l.callouts,
                None => &code.callouts,
            },
            workgroup: self.workgroup.as_mut_ptr(),
            workgroup_len: self.workgroup.len(),
            sink: Sink {
                strict: false,
                max: d.cfg.max_events,
                ..Sink::default()
            },
            prints: 0,
            state_words: code.state_words,
            scratch: std::mem::take(&mut self.scratch),
        };
        let mut ctx = JitCtx {
            spaces: self.spaces.as_mut_ptr(),
            space_count: self.spaces.len() as u64,
            steps: 0,
            budget: d.cfg.step_limit,
            invocation: 0,
            width: d.width as u64,
            wg: wg.map(u64::from),
            size: d.local_size.map(u64::from),
            private_base: self.private.as_mut_ptr(),
            private_stride: pb as u64,
            waiting: 0,
            mismatch: 0,
            grouped: 0,
            host: (&mut host as *mut Host).cast(),
            local: [0; 3],
            tensors: self.tensors.as_ptr(),
            tensor_spaces: (self.tensors.len() / super::runtime::TENSOR_WORDS) as u64,
            mixdot_config: super::lower_mixdot::config(&d.cfg.mixdot),
            callout_status: 0,
            tables: super::runtime::StaticTables::new(),
            fixed_ops: code.fixed_ops.as_ptr(),
        };
        let starts = Starts::new(d, wg);
        let mut steps = None;
        if let Some(l) = lanes(d, code) {
            self.run_lanes(d, code, l, &starts, &mut ctx, abort)?;
            // Spent per subgroup as the interpreter spends them.
            steps = Some(ctx.steps);
        } else if let Some(simd) = vector_lanes(d, code) {
            // SAFETY: `simd.func` was compiled for this program (`simd`); `ctx` and the
            // register files of `simd::LANES` lanes (`state_words` words each) stay valid and
            // unaliased for the call.
            // (`count` workgroups from `wg` on in x: their invocations one after another.)
            let n = d.invocations as u64 * u64::from(count);
            let r = unsafe { (simd.func)(&mut ctx, self.state.as_mut_ptr(), n) };
            if r != status::DONE {
                return Err(fail_reason(r));
            }
        } else if let Some(run_all) = code.workgroup_loop {
            // SAFETY: as below; `resume` is the invocation count.
            let r = unsafe { run_all(&mut ctx, self.state.as_mut_ptr(), d.invocations as u64) };
            if r != status::DONE {
                return Err(fail_reason(r));
            }
        } else if let Some(rounds) = code.rounds {
            self.run_rounds(d, code, rounds, &starts, &mut ctx)?;
        } else {
            // One invocation after another in one register file and private memory.
            let mut local = [0u32; 3];
            for inv in 0..d.invocations {
                if inv % 64 == 0 && abort.load(Relaxed) {
                    return Err(String::new());
                }
                let regs = &mut self.state[..code.state_words];
                if prog.reset_registers {
                    regs.copy_from_slice(&self.template);
                }
                starts.start(inv, local, regs, &mut self.private);
                starts.advance(&mut local);
                ctx.invocation = inv as u64;
                // SAFETY: `code.entry` was compiled for this program with the `NativeFn`
                // signature; `ctx` (its space table, host and the memory they point to) and
                // `regs` (`state_words` registers) stay valid and unaliased for the call.
                let r = unsafe { (code.entry)(&mut ctx, regs.as_mut_ptr(), 0) };
                if r > status::KILLED {
                    return Err(fail_reason(r));
                }
            }
        }
        self.scratch = std::mem::take(&mut host.scratch);
        // The budget is checked at loop headers only: the straight-line rest is checked here.
        if ctx.steps > ctx.budget {
            return Err(fail_reason(status::STEPS));
        }
        let mut prints: Vec<_> = host
            .sink
            .prints
            .drain(..)
            .map(|p| d.print(p, 0, wg))
            .collect();
        // Stable: an invocation's lines stay in program order.
        prints.sort_by_key(|p| {
            let [x, y, z] = p.local_invocation;
            (z, y, x)
        });
        Ok(Outcome {
            events: Vec::new(),
            prints,
            count: 0,
            steps: steps.unwrap_or(ctx.steps.div_ceil(d.width as u64)),
            error: None,
        })
    }

    /// A program the lanes function runs: one call per subgroup, with its invocations'
    /// registers side by side.
    fn run_lanes(
        &mut self,
        d: &Dispatch,
        code: &JitCode,
        lanes_code: &super::LanesCode,
        starts: &Starts,
        ctx: &mut JitCtx,
        abort: &AtomicBool,
    ) -> Result<(), String> {
        let run_subgroup = lanes_code.func;
        let sw = code.state_words;
        let lanes = super::lanes::LANES as usize;
        // With barriers every subgroup keeps its own lanes' states (they wait there).
        let per = if code.workgroup_barriers {
            lanes * sw
        } else {
            0
        };
        let mut local = [0u32; 3];
        let mut waiting = Vec::new();
        for s in 0..d.subgroups {
            if abort.load(Relaxed) {
                return Err(String::new());
            }
            let first = s * d.width;
            let n = (d.invocations - first).min(d.width);
            let at_first = local;
            let mine = &mut self.state[s * per..s * per + lanes * sw];
            if lanes_code.builtins {
                // (The function computes the built-ins; only the next subgroup's first
                // LocalInvocationId is needed here.)
                starts.advance_by(&mut local, n);
            } else {
                for l in 0..n {
                    let regs = &mut mine[l * sw..(l + 1) * sw];
                    if d.prog.reset_registers {
                        regs.copy_from_slice(&self.template);
                    }
                    starts.start(first + l, local, regs, &mut []);
                    starts.advance(&mut local);
                }
            }
            ctx.invocation = first as u64;
            ctx.local = at_first.map(u64::from);
            // SAFETY: `run_subgroup` was compiled for this program (`lanes`); `ctx` and the
            // register files of `LANES` lanes (`state_words` words each) stay valid and
            // unaliased for the call.
            let r = unsafe { run_subgroup(ctx, mine.as_mut_ptr(), n as u64) };
            match r {
                status::DONE => {}
                status::BARRIER => waiting.push(s),
                other => return Err(fail_reason(other)),
            }
        }
        // Rounds, as the interpreter releases them: when every subgroup left waits at a
        // barrier, all run on; a subgroup that finished while others wait is its deadlock.
        while !waiting.is_empty() {
            if waiting.len() < d.subgroups {
                return Err("a subgroup finished while others wait at a barrier".into());
            }
            let mut still = Vec::new();
            for &s in &waiting {
                let first = s * d.width;
                let n = (d.invocations - first).min(d.width);
                ctx.invocation = first as u64;
                let mine = &mut self.state[s * per..s * per + lanes * sw];
                let word = n as u64 | super::lanes::RESUME as u64;
                // SAFETY: as above.
                let r = unsafe { run_subgroup(ctx, mine.as_mut_ptr(), word) };
                match r {
                    status::DONE => {}
                    status::BARRIER => still.push(s),
                    other => return Err(fail_reason(other)),
                }
            }
            if !still.is_empty() && still.len() < waiting.len() {
                return Err("a subgroup finished while others wait at a barrier".into());
            }
            waiting = still;
        }
        Ok(())
    }

    /// A program with barriers: every invocation starts, then rounds of the native round loop
    /// (`lower_loop::emit_rounds`), each followed by the barrier release check.
    fn run_rounds(
        &mut self,
        d: &Dispatch,
        code: &JitCode,
        rounds: super::NativeFn,
        starts: &Starts,
        ctx: &mut JitCtx,
    ) -> Result<(), String> {
        let (sw, pb) = (code.state_words, d.prog.private_bytes as usize);
        if let Some(start_all) = code.starts {
            // SAFETY: `start_all` was compiled for this program (`lower_loop::emit_starts`);
            // `ctx` and the state of every invocation stay valid for the call.
            let r = unsafe { start_all(ctx, self.state.as_mut_ptr(), d.invocations as u64) };
            if r != status::DONE {
                return Err(fail_reason(r));
            }
        }
        let mut local = [0u32; 3];
        for inv in (0..d.invocations).filter(|_| code.starts.is_none()) {
            let regs = &mut self.state[inv * sw..(inv + 1) * sw];
            if d.prog.reset_registers {
                regs.copy_from_slice(&self.template);
            }
            starts.start(
                inv,
                local,
                regs,
                &mut self.private[inv * pb..(inv + 1) * pb],
            );
            starts.advance(&mut local);
            regs[code.resume_word] = 0;
            regs[code.status_word] = RUN;
        }
        // Invocations held at a barrier while subgroup instructions ran, and invocations still
        // waiting at a subgroup instruction after the last rendezvous.
        let mut held = false;
        let mut grouped = 0;
        loop {
            // SAFETY: `rounds` was compiled for this program; `ctx` and the state of every
            // invocation (`invocations × state_words` words) stay valid for the call.
            let r = unsafe { rounds(ctx, self.state.as_mut_ptr(), d.invocations as u64) };
            if r != status::DONE {
                return Err(fail_reason(r));
            }
            if ctx.grouped > 0 || grouped > 0 {
                grouped = self.run_groups(d, code)?;
                held |= ctx.waiting > 0;
                continue;
            }
            if held {
                held = false;
                let sw = code.state_words;
                for st in self.state.iter_mut().skip(code.status_word).step_by(sw) {
                    if *st == status::HOLD {
                        *st = status::BARRIER;
                    }
                }
                self.release(d, code)?;
                continue;
            }
            match ctx.waiting {
                0 => return Ok(()),
                // Every invocation at the same barrier instance: released as they are (the
                // round loop runs waiting invocations).
                w if w == d.invocations as u64 && ctx.mismatch == 0 => {}
                _ => self.release(d, code)?,
            }
        }
    }

    /// After a round in which some invocations wait at a subgroup instruction: in every
    /// subgroup where one does, the instruction that comes first in block order (the
    /// interpreter's min-PC rule: the others' invocations went on past branches that skip it)
    /// runs once (`group::run`) for the invocations that wait at it, which must all wait at the
    /// same dynamic instance of it, with no invocation at a later instruction in another
    /// iteration of a loop around it (else the interpreter runs the dispatch); they run on in
    /// the next round. Invocations of a subgroup waiting at a workgroup barrier while others wait
    /// at a subgroup instruction also give the dispatch to the interpreter; whole subgroups
    /// at a barrier are held (status `HOLD`) until no subgroup instruction is pending.
    /// Returns how many invocations still wait at a subgroup instruction.
    fn run_groups(&mut self, d: &Dispatch, code: &JitCode) -> Result<usize, String> {
        let sw = code.state_words;
        let sig = code.resume_word..code.status_word;
        let entry = &d.prog.functions[d.prog.entry as usize];
        for s in 0..d.subgroups {
            let lanes = s * d.width..((s + 1) * d.width).min(d.invocations);
            let first = lanes.start;
            let status = |inv: usize| self.state[inv * sw + code.status_word];
            // The first instruction in block order: the smallest resume point (they are
            // numbered in block order).
            let resume = |inv: usize| self.state[inv * sw + code.resume_word];
            let Some(lead) = lanes
                .clone()
                .filter(|&i| status(i) == status::GROUP)
                .min_by_key(|&i| resume(i))
            else {
                continue;
            };
            // A loop's counter is 0 outside it and counts its iterations inside (from 1).
            let counters = code.resume_word + 2..code.status_word;
            let counter = |inv: usize, w: usize| self.state[inv * sw + w];
            let mut active = 0u64;
            for inv in lanes.clone() {
                match status(inv) {
                    status::DONE | status::KILLED => {}
                    // A lane at a later instruction inside a loop around the lead's, in another
                    // iteration: it comes back to the lead's instruction through the loop's back
                    // edge, and the interpreter, which runs the smallest block first, would
                    // run the instruction with it in the lead's iteration (or run it earlier
                    // without the lead). A lane at a later instruction outside those loops
                    // left them (`group::unsafe_position` refuses programs where a later
                    // block reaches the instruction again in the same iteration).
                    status::GROUP
                        if resume(inv) != resume(lead)
                            && counters.clone().any(|w| {
                                let (l, o) = (counter(lead, w), counter(inv, w));
                                l != 0 && o != 0 && o != l
                            }) =>
                    {
                        return Err("a subgroup instruction that lanes waiting in another \
                                    iteration of a loop around it can still reach"
                            .into());
                    }
                    status::GROUP if resume(inv) != resume(lead) => {}
                    status::GROUP
                        if sig
                            .clone()
                            .all(|w| self.state[inv * sw + w] == self.state[lead * sw + w]) =>
                    {
                        active |= 1 << (inv - first);
                    }
                    status::GROUP => {
                        return Err("a subgroup instruction reached in different loop \
                                    iterations within a subgroup"
                            .into());
                    }
                    _ => {
                        return Err("a subgroup instruction and a workgroup barrier reached \
                                    at once within a subgroup"
                            .into());
                    }
                }
            }
            let k = self.state[lead * sw + code.resume_word + 1] as usize;
            let (Some(inst), Some(&source)) = (entry.code.get(k), entry.source.get(k)) else {
                return Err("a subgroup instruction the program does not have".into());
            };
            let mut mem = crate::memory::Memory {
                buffers: d.buffers,
                private: &mut [],
                private_bytes: 0,
                workgroup: &mut [],
                tensors: d.tensors,
                writer_base: None,
            };
            let lanes = super::group::Lanes {
                state: &mut self.state,
                state_words: sw,
                first,
                width: d.width,
                active,
            };
            super::group::run(inst, lanes, &mut self.scratch, &mut mem, d.cfg, source).map_err(
                |()| {
                    "a subgroup instruction met a case the interpreter reports (an \
                     undefined-behaviour event)"
                        .to_string()
                },
            )?;
            for inv in crate::exec::lanes(active) {
                self.state[(first + inv) * sw + code.status_word] = super::lower_loop::RUN;
            }
        }
        let mut grouped = 0;
        for st in self.state.iter_mut().skip(code.status_word).step_by(sw) {
            match *st {
                status::BARRIER => *st = status::HOLD,
                status::GROUP => grouped += 1,
                _ => {}
            }
        }
        Ok(grouped)
    }

    /// After a round in which some invocations wait but not all at one barrier instance (the
    /// round loop's summary): `Ok` when the interpreter would release them without a report
    /// (they then run in the next round), else the reason to hand the run to it. In every
    /// subgroup, either all its
    /// invocations wait at the same dynamic instance of a barrier (same instruction, same
    /// iteration of every enclosing loop), or all have finished — and then no other subgroup
    /// may wait (the interpreter's deadlock). An invocation that finished (or was killed) while
    /// others of its subgroup wait may, in the interpreter's schedule, still have been running
    /// when the barrier executed, which the interpreter reports: such a round goes to it too.
    fn release(&mut self, d: &Dispatch, code: &JitCode) -> Result<(), String> {
        let sw = code.state_words;
        // The barrier instruction and the loop counters.
        let sig = code.resume_word + 1..code.status_word;
        let mut done_subgroup = false;
        let mut waiting_subgroup = false;
        for s in 0..d.subgroups {
            let lanes = s * d.width..((s + 1) * d.width).min(d.invocations);
            let first = lanes.start;
            let waiting = |inv: usize| self.state[inv * sw + code.status_word] == status::BARRIER;
            if !waiting(first) {
                if lanes.clone().any(waiting) {
                    return Err(
                        "invocations of a subgroup finished while others wait at a barrier".into(),
                    );
                }
                done_subgroup = true;
                continue;
            }
            waiting_subgroup = true;
            let a = &self.state[first * sw..(first + 1) * sw];
            for inv in lanes {
                let st = &self.state[inv * sw..(inv + 1) * sw];
                // (Word by word: two or three words, a library memcmp costs more.)
                if !waiting(inv) || sig.clone().any(|w| a[w] != st[w]) {
                    return Err("a barrier reached non-uniformly within a subgroup".into());
                }
            }
        }
        if done_subgroup && waiting_subgroup {
            return Err("a subgroup finished while others wait at a barrier".into());
        }
        // Waiting invocations run in the next round as they are.
        Ok(())
    }
}

/// How the invocations of one workgroup start: their private memory (initialisers and the
/// built-ins kept in memory) and the built-ins kept in registers, computed directly for the
/// common ones (`dispatch::builtins` gives the same values; it is used for the others).
struct Starts<'d> {
    d: &'d Dispatch<'d>,
    wg: [u32; 3],
    in_memory: bool,
}

impl<'d> Starts<'d> {
    fn new(d: &'d Dispatch<'d>, wg: [u32; 3]) -> Self {
        Starts {
            d,
            wg,
            in_memory: builtins::any_in_memory(d.prog),
        }
    }

    /// The LocalInvocationId after `local` (x fastest).
    fn advance(&self, local: &mut [u32; 3]) {
        builtins::next_local(local, self.d.local_size);
    }

    /// The LocalInvocationId `n` invocations after `local` (x fastest): [`Self::advance`] `n`
    /// times, as carries (a subgroup of at most one row takes one comparison per dimension;
    /// divisions measured slower than the loop they replaced).
    fn advance_by(&self, local: &mut [u32; 3], n: usize) {
        let [sx, sy, _] = self.d.local_size.map(|s| s.max(1) as usize);
        let (mut x, mut y, mut z) = (local[0] as usize + n, local[1] as usize, local[2]);
        while x >= sx {
            x -= sx;
            y += 1;
        }
        while y >= sy {
            y -= sy;
            z += 1;
        }
        *local = [x as u32, y as u32, z];
    }

    /// Prepares invocation `index` (LocalInvocationId `local`) to start.
    fn start(&self, index: usize, local: [u32; 3], regs: &mut [u64], private: &mut [u8]) {
        let d = self.d;
        let inv = || Invocation {
            local_size: d.local_size,
            local_index: index,
            workgroup: self.wg,
            groups: d.groups,
            subgroup_size: d.width as u32,
            subgroups: d.subgroups as u32,
        };
        if !private.is_empty() {
            let init = &d.private_init[..d.private_init.len().min(private.len())];
            private[..init.len()].copy_from_slice(init);
            private[init.len()..].fill(0);
            if self.in_memory {
                builtins::write(d.prog, &inv(), private);
            }
        }
        // The register built-ins that differ between invocations (filtered here rather than
        // collected per workgroup: an allocation per workgroup showed in profiles).
        let registers = d
            .prog
            .builtins
            .iter()
            .filter(|b| b.reg.is_some() && !builtins::is_uniform(b.builtin));
        for b in registers {
            let values =
                builtins::per_invocation(b.builtin, index, local, self.wg, d.local_size, d.width)
                    .unwrap_or_else(|| builtins::value(b.builtin, &inv()));
            builtins::put_register(b, values, regs, 1, 0);
        }
    }
}
