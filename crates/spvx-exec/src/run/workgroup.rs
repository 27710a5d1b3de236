//! One workgroup: its subgroups scheduled cooperatively. Each subgroup runs until it finishes
//! or reaches a workgroup barrier; when every subgroup waits at a barrier, all are released.
//! If some subgroups finished while others wait, the workgroup deadlocked (an error).

use crate::dispatch::builtins::{self, Invocation};
use crate::dispatch::{Dispatch, Outcome};
use crate::error::ExecError;
use crate::exec::control::{Subgroup, Yield};
use crate::exec::{Sink, Stop};
use crate::memory::Memory;

/// Per-thread state reused from workgroup to workgroup.
pub struct Worker {
    subgroups: Vec<Subgroup>,
    privates: Vec<Vec<u8>>,
    workgroup: Vec<u8>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Status {
    Runnable,
    Waiting(u32),
    Done,
}

impl Worker {
    pub fn new(d: &Dispatch) -> Worker {
        let private = d.prog.private_bytes as usize * d.width;
        Worker {
            subgroups: (0..d.subgroups)
                .map(|_| Subgroup::new(&d.template, d.width))
                .collect(),
            privates: vec![vec![0; private]; d.subgroups],
            workgroup: vec![0; d.workgroup_bytes as usize],
        }
    }

    /// Runs the workgroup of linear index `linear`.
    pub fn run(&mut self, d: &Dispatch, linear: u64) -> Outcome {
        let wg = d.workgroup_id(linear);
        let prog = d.prog;
        let invocations = d.invocations;
        let pb = prog.private_bytes as usize;
        // (Not on an empty slice: a 0-byte memset costs a microcode assist here, see
        // jit/driver.rs.)
        if !self.workgroup.is_empty() {
            self.workgroup.fill(0);
        }
        let in_memory = builtins::any_in_memory(prog);
        let init = &d.private_init[..d.private_init.len().min(pb)];
        let mut local = [0u32; 3];
        for (s, (sg, private)) in self
            .subgroups
            .iter_mut()
            .zip(&mut self.privates)
            .enumerate()
        {
            let lanes = invocations.saturating_sub(s * d.width).min(d.width);
            let active = crate::exec::full_mask(lanes);
            sg.start(
                prog,
                prog.reset_registers.then_some(&d.template[..]),
                active,
            );
            for l in 0..lanes {
                let index = s * d.width + l;
                let inv = || Invocation {
                    local_size: d.local_size,
                    local_index: index,
                    workgroup: wg,
                    groups: d.groups,
                    subgroup_size: d.width as u32,
                    subgroups: d.subgroups as u32,
                };
                if pb > 0 {
                    let mine = &mut private[l * pb..(l + 1) * pb];
                    mine[..init.len()].copy_from_slice(init);
                    if in_memory {
                        builtins::write(prog, &inv(), mine);
                    }
                }
                for b in &prog.builtins {
                    if b.reg.is_some() && !builtins::is_uniform(b.builtin) {
                        let values = builtins::per_invocation(
                            b.builtin,
                            index,
                            local,
                            wg,
                            d.local_size,
                            d.width,
                        )
                        .unwrap_or_else(|| builtins::value(b.builtin, &inv()));
                        builtins::put_register(b, values, &mut sg.regs, d.width, l);
                    }
                }
                builtins::next_local(&mut local, d.local_size);
            }
        }
        let mut sink = Sink {
            strict: d.cfg.strict,
            max: d.cfg.max_events,
            ..Sink::default()
        };
        let mut out = Outcome {
            events: Vec::new(),
            prints: Vec::new(),
            count: 0,
            steps: 0,
            error: None,
        };
        let mut status = vec![Status::Runnable; self.subgroups.len()];
        loop {
            for (s, state) in status.iter_mut().enumerate() {
                if *state != Status::Runnable {
                    continue;
                }
                let before = sink.events.len();
                let mut mem = Memory {
                    buffers: d.buffers,
                    private: &mut self.privates[s],
                    private_bytes: pb,
                    workgroup: &mut self.workgroup,
                    tensors: d.tensors,
                    writer_base: d.cfg.track_writers.then(|| {
                        let lane0 = linear * d.invocations as u64 + (s * d.width) as u64;
                        u32::try_from(lane0).unwrap_or(u32::MAX)
                    }),
                };
                let r = self.subgroups[s].run(prog, &mut mem, &mut sink, d.cfg, &mut out.steps);
                if sink.events.len() > before {
                    for e in std::mem::take(&mut sink.events).into_iter().skip(before) {
                        out.events.push(d.event(e, s, wg));
                    }
                }
                sink.events.clear();
                for p in sink.prints.drain(..) {
                    out.prints.push(d.print(p, s, wg));
                }
                match r {
                    Ok(Yield::Finished) => *state = Status::Done,
                    Ok(Yield::Barrier { source }) => *state = Status::Waiting(source),
                    Err(Stop::StepLimit) => {
                        out.error = Some(ExecError::StepLimit {
                            limit: d.cfg.step_limit,
                            workgroup: wg,
                        });
                        return out;
                    }
                    Err(Stop::Undefined(e)) => {
                        out.error = Some(ExecError::Undefined(Box::new(d.event(e, s, wg))));
                        return out;
                    }
                }
            }
            out.count = sink.count;
            let waiting = status.iter().find_map(|s| match s {
                Status::Waiting(src) => Some(*src),
                _ => None,
            });
            match waiting {
                None => {
                    // Stable: an invocation's lines stay in program order.
                    out.prints.sort_by_key(|p| {
                        let [x, y, z] = p.local_invocation;
                        (z, y, x)
                    });
                    return out;
                }
                Some(source) if status.contains(&Status::Done) => {
                    out.error = Some(ExecError::BarrierDeadlock {
                        workgroup: wg,
                        instruction: source,
                    });
                    return out;
                }
                Some(_) => status.fill(Status::Runnable),
            }
        }
    }
}
