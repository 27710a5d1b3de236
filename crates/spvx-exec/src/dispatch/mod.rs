//! A dispatch as both engines see it — the interpreter (`run::workgroup`) and the JIT
//! (`jit::driver`): its shape and bound memory ([`Dispatch`]), the loop over its workgroups on
//! the thread pool ([`each_workgroup`]), the result of one workgroup ([`Outcome`]), and the
//! built-in values of an invocation ([`builtins`]). `run` binds the resources, builds the
//! dispatch and hands it to one engine or the other.

pub(crate) mod builtins;
mod pool;
mod share;

use crate::config::RunConfig;
use crate::error::ExecError;
use crate::exec::RawEvent;
use crate::memory::{SharedBuffer, TensorView};
use crate::program::Program;
use crate::report::{PrintRecord, UbEvent};

/// Everything a workgroup needs that is the same for all workgroups.
pub(crate) struct Dispatch<'a> {
    pub prog: &'a Program,
    pub cfg: &'a RunConfig,
    pub buffers: &'a [SharedBuffer],
    pub tensors: &'a [Option<TensorView>],
    pub groups: [u32; 3],
    /// Registers of a fresh subgroup (constants in place).
    pub template: Vec<u64>,
    pub width: usize,
    pub subgroups: usize,
    /// Invocations per workgroup.
    pub invocations: usize,
    /// The workgroup size (the program's, or a Kernel dispatch's local size).
    pub local_size: [u32; 3],
    /// Bytes of workgroup memory (Workgroup variables, then Kernel local-memory arguments).
    pub workgroup_bytes: u32,
    /// Initial private memory of an invocation (with Kernel by-value arguments).
    pub private_init: Vec<u8>,
}

/// Dispatches of at most this many invocations run on the calling thread: starting the thread
/// pool's workers costs more than such a dispatch usually takes.
pub const SMALL_DISPATCH: u64 = 256;

impl Dispatch<'_> {
    /// Whether to run the `total` workgroups on the calling thread (one thread asked for, one
    /// workgroup, or a small dispatch when the thread count is left to the engine). Results
    /// are the same either way.
    pub fn single_threaded(&self, total: u64) -> bool {
        match self.cfg.threads {
            Some(n) => n == 1 || total <= 1,
            None => total <= 1 || total.saturating_mul(self.invocations as u64) <= SMALL_DISPATCH,
        }
    }

    /// The workgroup id of linear index `i` (x fastest).
    pub fn workgroup_id(&self, i: u64) -> [u32; 3] {
        let [x, y, _] = self.groups.map(u64::from);
        [(i % x) as u32, (i / x % y) as u32, (i / (x * y)) as u32]
    }

    /// The event as reported: instruction name, invocation and workgroup ids.
    /// A printed line of lane `p.lane` of subgroup `subgroup`.
    pub fn print(
        &self,
        p: crate::exec::RawPrint,
        subgroup: usize,
        workgroup: [u32; 3],
    ) -> PrintRecord {
        let local = builtins::local_id(self.local_size, subgroup * self.width + p.lane);
        let size = self.local_size;
        let global = [0, 1, 2].map(|i| workgroup[i].wrapping_mul(size[i]).wrapping_add(local[i]));
        PrintRecord {
            workgroup,
            local_invocation: local,
            global_invocation: global,
            instruction: p.source,
            text: p.text,
        }
    }

    pub fn event(&self, e: RawEvent, subgroup: usize, workgroup: [u32; 3]) -> UbEvent {
        let local = builtins::local_id(self.local_size, subgroup * self.width + e.lane);
        let size = self.local_size;
        let invocation =
            [0, 1, 2].map(|i| workgroup[i].wrapping_mul(size[i]).wrapping_add(local[i]));
        let opcode = self
            .prog
            .opcodes
            .get(e.source as usize)
            .map_or("?", |o| o.name())
            .to_string();
        UbEvent {
            kind: e.kind,
            instruction: e.source,
            opcode,
            invocation,
            workgroup,
        }
    }
}

/// The result of one workgroup.
pub struct Outcome {
    pub events: Vec<UbEvent>,
    /// Printed lines, by LocalInvocationIndex, then program order.
    pub prints: Vec<PrintRecord>,
    pub count: u64,
    pub steps: u64,
    pub error: Option<ExecError>,
}

/// Runs `job` for the workgroups `0..total` with one `worker()` state per thread: in
/// parallel on the calling thread and rayon's (the configured thread count's pool, `pool`,
/// or the global pool; `share`), or on the calling thread in order, stopping after the first
/// result `failed` says ends the dispatch. Results in workgroup order. `Err`: the thread pool
/// could not start.
pub(crate) fn each_workgroup<W, T: Send>(
    d: &Dispatch,
    total: u64,
    worker: impl Fn() -> W + Sync + Send,
    job: impl Fn(&mut W, u64) -> T + Sync + Send,
    failed: impl Fn(&T) -> bool,
) -> Result<Vec<T>, String> {
    if d.single_threaded(total) {
        let mut w = worker();
        let mut out = Vec::new();
        for i in 0..total {
            let r = job(&mut w, i);
            let stop = failed(&r);
            out.push(r);
            if stop {
                break;
            }
        }
        return Ok(out);
    }
    Ok(match d.cfg.threads {
        Some(n) => share::share(Some(&*pool::with_threads(n)?), n, total, worker, job),
        None => share::share(None, rayon::current_num_threads(), total, worker, job),
    })
}
