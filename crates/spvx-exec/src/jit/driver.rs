//! Running a dispatch on the JIT: workgroups in parallel as the interpreter runs them, and
//! within a workgroup each invocation's native code in LocalInvocationIndex order, in rounds
//! separated by workgroup barriers. Anything the interpreter would report ends the JIT run with
//! the reason (`Err`), and the caller runs the dispatch on the interpreter instead.

use super::runtime::{Host, JitCtx, Space};
use super::{JitCode, status};
use crate::exec::Sink;
use crate::exec::printf::RawPrint;
use crate::memory::{SPACE_BUFFER0, SPACE_PRIVATE, SPACE_WORKGROUP};
use crate::run::Dispatch;
use crate::run::builtins::{self, Invocation};
use crate::run::workgroup::Outcome;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

/// Runs every workgroup of `d` on `code`; `Err` says why the interpreter must run it instead.
pub(crate) fn dispatch(d: &Dispatch, code: &JitCode, total: u64) -> Result<Vec<Outcome>, String> {
    let abort = AtomicBool::new(false);
    let run_one = |w: &mut Worker, i: u64| {
        if abort.load(Relaxed) {
            return Err(String::new());
        }
        let r = w.run(d, code, i, &abort);
        if r.is_err() {
            abort.store(true, Relaxed);
        }
        r
    };
    let results: Vec<Result<Outcome, String>> = if d.cfg.threads == Some(1) || total <= 1 {
        let mut w = Worker::new(d, code);
        let mut out = Vec::with_capacity(total as usize);
        for i in 0..total {
            let r = run_one(&mut w, i);
            let failed = r.is_err();
            out.push(r);
            if failed {
                break;
            }
        }
        out
    } else {
        let go = || {
            (0..total)
                .into_par_iter()
                .map_init(|| Worker::new(d, code), run_one)
                .collect()
        };
        match d.cfg.threads {
            Some(n) => rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map_err(|e| format!("cannot start {n} threads: {e}"))?
                .install(go),
            None => go(),
        }
    };
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

/// Where an invocation stands between rounds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    /// Runs next, from the start (0) or after a barrier (`next segment + 1`).
    Run(u64),
    /// Waits at a barrier.
    Waiting,
    Finished,
}

/// Per-thread state reused from workgroup to workgroup.
struct Worker {
    /// Each invocation's registers and barrier state (one invocation's worth when the program
    /// has no barrier: invocations then run one after another in the same registers).
    state: Vec<u64>,
    private: Vec<u8>,
    workgroup: Vec<u8>,
    spaces: Vec<Space>,
    /// A fresh invocation's registers.
    template: Vec<u64>,
    states: Vec<State>,
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
        let copies = if code.barriers { d.invocations } else { 1 };
        let pb = d.prog.private_bytes as usize;
        let mut spaces = vec![
            Space {
                base: std::ptr::null_mut(),
                len: 0,
                read_only: 1,
            };
            SPACE_BUFFER0 as usize + d.buffers.len()
        ];
        for (s, b) in spaces[SPACE_BUFFER0 as usize..].iter_mut().zip(d.buffers) {
            let (base, len) = b.raw_parts();
            *s = Space {
                base,
                len: len as u64,
                read_only: b.read_only as u64,
            };
        }
        Worker {
            state: template.repeat(copies),
            private: vec![0; pb * copies],
            workgroup: vec![0; d.workgroup_bytes as usize],
            spaces,
            template,
            states: vec![State::Finished; d.invocations],
        }
    }

    /// Runs the workgroup of linear index `linear`.
    fn run(
        &mut self,
        d: &Dispatch,
        code: &JitCode,
        linear: u64,
        abort: &AtomicBool,
    ) -> Result<Outcome, String> {
        let wg = d.workgroup_id(linear);
        let prog = d.prog;
        let pb = prog.private_bytes as usize;
        let sw = code.state_words;
        self.workgroup.fill(0);
        self.spaces[SPACE_WORKGROUP as usize] = Space {
            base: self.workgroup.as_mut_ptr(),
            len: self.workgroup.len() as u64,
            read_only: 0,
        };
        let mut host = Host {
            prog,
            cfg: d.cfg,
            buffers: d.buffers,
            tensors: d.tensors,
            callouts: &code.callouts,
            private: std::ptr::null_mut(),
            private_len: pb,
            workgroup: self.workgroup.as_mut_ptr(),
            workgroup_len: self.workgroup.len(),
            sink: Sink {
                strict: false,
                max: d.cfg.max_events,
                ..Sink::default()
            },
            prints: 0,
        };
        let mut ctx = JitCtx {
            spaces: self.spaces.as_ptr(),
            space_count: self.spaces.len() as u64,
            steps: 0,
            budget: d.cfg.step_limit.saturating_mul(d.width as u64),
            host: std::ptr::null_mut(),
        };
        let mut prints = Vec::new();
        self.states.fill(State::Run(0));
        loop {
            for inv in 0..d.invocations {
                let State::Run(resume) = self.states[inv] else {
                    continue;
                };
                if abort.load(Relaxed) {
                    return Err(String::new());
                }
                let slot = if code.barriers { inv } else { 0 };
                let regs = &mut self.state[slot * sw..(slot + 1) * sw];
                let private = &mut self.private[slot * pb..(slot + 1) * pb];
                if resume == 0 {
                    if prog.reset_registers {
                        regs.copy_from_slice(&self.template);
                    }
                    start_invocation(d, wg, inv, regs, private);
                }
                self.spaces[SPACE_PRIVATE as usize] = Space {
                    base: private.as_mut_ptr(),
                    len: pb as u64,
                    read_only: 0,
                };
                ctx.spaces = self.spaces.as_ptr();
                host.private = private.as_mut_ptr();
                ctx.host = (&mut host as *mut Host).cast();
                // SAFETY: `code.entry` was compiled for this program with the `NativeFn`
                // signature; `ctx` (its space table, host and the memory they point to) and
                // `regs` (`state_words` registers) stay valid and unaliased for the call.
                let r = unsafe { (code.entry)(&mut ctx, regs.as_mut_ptr(), resume) };
                for p in host.sink.prints.drain(..) {
                    prints.push(d.print(RawPrint { lane: inv, ..p }, 0, wg));
                }
                self.states[inv] = match r {
                    status::DONE | status::KILLED => State::Finished,
                    status::BARRIER if code.barriers => State::Waiting,
                    status::STEPS => return Err("the step budget ran out".into()),
                    status::BAIL => {
                        return Err(
                            "an instruction met a case the interpreter reports (an undefined-behaviour event)"
                                .into(),
                        );
                    }
                    other => return Err(format!("native code returned status {other}")),
                };
            }
            if !self.states.contains(&State::Waiting) {
                break;
            }
            self.release(d, code)?;
        }
        // Stable: an invocation's lines stay in program order.
        prints.sort_by_key(|p| {
            let [x, y, z] = p.local_invocation;
            (z, y, x)
        });
        Ok(Outcome {
            events: Vec::new(),
            prints,
            count: 0,
            steps: ctx.steps.div_ceil(d.width as u64),
            error: None,
        })
    }

    /// After a round in which some invocation reached a barrier: releases the waiting
    /// invocations when the interpreter would release them without a report — in every
    /// subgroup, all invocations that have not finished wait at the same dynamic instance of a
    /// barrier (same instruction, same iteration of every enclosing loop), and no subgroup has
    /// finished entirely while another waits.
    fn release(&mut self, d: &Dispatch, code: &JitCode) -> Result<(), String> {
        let sw = code.state_words;
        let n = d.prog.slot_count as usize;
        let mut done_subgroup = false;
        let mut waiting_subgroup = false;
        for s in 0..d.subgroups {
            let lanes = s * d.width..((s + 1) * d.width).min(d.invocations);
            let mut signature: Option<&[u64]> = None;
            for inv in lanes {
                if self.states[inv] != State::Waiting {
                    continue;
                }
                // The barrier instruction and the loop counters.
                let sig = &self.state[inv * sw + n + 1..(inv + 1) * sw];
                match signature {
                    None => signature = Some(sig),
                    Some(first) if first != sig => {
                        return Err("a barrier reached non-uniformly within a subgroup".into());
                    }
                    Some(_) => {}
                }
            }
            if signature.is_some() {
                waiting_subgroup = true;
            } else {
                done_subgroup = true;
            }
        }
        if done_subgroup && waiting_subgroup {
            return Err("a subgroup finished while others wait at a barrier".into());
        }
        for inv in 0..d.invocations {
            if self.states[inv] == State::Waiting {
                self.states[inv] = State::Run(self.state[inv * sw + n]);
            }
        }
        Ok(())
    }
}

/// Prepares invocation `index` of workgroup `wg` to start: its private memory (initialisers
/// and built-ins kept in memory) and its built-in registers.
fn start_invocation(
    d: &Dispatch,
    wg: [u32; 3],
    index: usize,
    regs: &mut [u64],
    private: &mut [u8],
) {
    let prog = d.prog;
    let inv = Invocation {
        local_size: d.local_size,
        local_index: index,
        workgroup: wg,
        groups: d.groups,
        subgroup_size: d.width as u32,
        subgroups: d.subgroups as u32,
    };
    if !private.is_empty() {
        let init = &d.private_init[..d.private_init.len().min(private.len())];
        private[..init.len()].copy_from_slice(init);
        private[init.len()..].fill(0);
        builtins::write(prog, &inv, private);
    }
    for b in &prog.builtins {
        if b.reg.is_some() && !builtins::is_uniform(b.builtin) {
            builtins::set_register(b, &inv, regs, 1, 0);
        }
    }
}
