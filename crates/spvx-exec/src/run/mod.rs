//! A dispatch: bind the buffers, run every workgroup (in parallel on rayon, or on the calling
//! thread), merge the reports in workgroup order, and copy the buffers back.
//!
//! Workgroups run in parallel; buffers are shared atomic words (see `memory::SharedBuffer`),
//! so a race-free program gives exactly the bytes of a single-threaded run, and the report is
//! merged in linear workgroup order (x fastest), so it is identical too. The first error in
//! workgroup order is returned.

mod in_place;
mod kernel;
mod runtime_arrays;
mod workgroup;

use crate::config::RunConfig;
use crate::dispatch::{Dispatch, Outcome, builtins, each_workgroup};
use crate::error::ExecError;
use crate::memory::{BufferPool, SharedBuffer, TensorView};
use crate::program::Program;
use crate::report::{BufferWriters, JitUse, RunReport};
use crate::resources::{BindingInfo, BindingKind, Resources, Tensor};
use in_place::InPlace;
use workgroup::Worker;

/// Runs `prog` over `groups` workgroups against `res`, on the JIT's code `jit` when given and
/// the run allows it (see `crate::jit`), else (or when the JIT gives up) on the interpreter.
pub fn run(
    prog: &Program,
    jit: Option<Result<&crate::jit::JitCode, &str>>,
    pool: Option<&BufferPool>,
    res: &mut Resources,
    groups: [u32; 3],
    cfg: &RunConfig,
) -> Result<RunReport, ExecError> {
    if !(1..=64).contains(&cfg.subgroup_size) {
        return Err(ExecError::Config(format!(
            "subgroup size {} is not in 1..=64",
            cfg.subgroup_size
        )));
    }
    if let Some(n) = prog.required_subgroup_size
        && n != cfg.subgroup_size
    {
        return Err(ExecError::Config(format!(
            "the kernel requires subgroup size {n} (OpExecutionMode SubgroupSize {n}), the run asks for {} (`--subgroup-size {n}`; run files and Python: `subgroup_size`)",
            cfg.subgroup_size
        )));
    }
    crate::program::mma::check_program(prog, cfg.subgroup_size, &cfg.dpas)?;
    let total: u64 = groups.iter().map(|&g| g as u64).product();
    let width = cfg.subgroup_size as usize;
    // (Before anything borrows `res` to read: the run holds it until its buffers are gone.)
    let places = InPlace::find(prog, res, cfg);
    let ks = kernel::setup(prog, res)?;
    let local_size = ks.local_size;
    let invocations: u64 = local_size
        .iter()
        .try_fold(1u64, |a, &g| a.checked_mul(g as u64))
        .filter(|&n| n <= u32::MAX as u64)
        .ok_or_else(|| ExecError::Config(format!("workgroup size {local_size:?} is too large")))?;
    let subgroups = invocations.div_ceil(width as u64) as usize;
    let dispatch = total.saturating_mul(invocations);
    if dispatch > cfg.max_invocations {
        return Err(ExecError::Config(format!(
            "the dispatch of {groups:?} workgroups of {local_size:?} invocations ({dispatch} in all) exceeds the limit of {} invocations (`--max-invocations N`; run files and Python: `max_invocations`)",
            cfg.max_invocations
        )));
    }

    let mut bound = bind(prog, res, &places, &ks, cfg, pool)?;
    let threads = match cfg.threads {
        Some(n) => n.max(1) as u64,
        None => rayon::current_num_threads() as u64,
    };
    // Registers and private memory of every subgroup, and the workgroup memory, per worker;
    // plus one outcome record per workgroup. (The JIT's workers need at most as much: one
    // register file and private memory per invocation.)
    let per_worker = (prog.slot_count as u64 * 8 + prog.private_bytes as u64)
        .saturating_mul(width as u64)
        .saturating_mul(subgroups as u64)
        .saturating_add(ks.workgroup_bytes as u64);
    let mut bytes_needed = bound
        .bytes
        .saturating_add(total.saturating_mul(std::mem::size_of::<Outcome>() as u64));
    bytes_needed = bytes_needed.saturating_add(per_worker.saturating_mul(threads));
    if bytes_needed > cfg.memory_limit {
        return Err(ExecError::MemoryLimit {
            what: "the dispatch (buffers, registers, private and workgroup memory)".into(),
            needed: bytes_needed,
            limit: cfg.memory_limit,
        });
    }

    let mut template = vec![0u64; prog.slot_count as usize * width];
    for &(slot, v) in &prog.init {
        let s = slot as usize * width;
        template[s..s + width].fill(v);
    }
    for &(slot, v) in ks.regs.iter().chain(&bound.runtime.registers) {
        let s = slot as usize * width;
        if let Some(r) = template.get_mut(s..s + width) {
            r.fill(v);
        }
    }
    // Built-ins in registers that every invocation shares: once for the dispatch.
    let anyone = builtins::Invocation {
        local_size,
        local_index: 0,
        workgroup: [0; 3],
        groups,
        subgroup_size: width as u32,
        subgroups: subgroups as u32,
    };
    for b in prog
        .builtins
        .iter()
        .filter(|b| builtins::is_uniform(b.builtin))
    {
        for lane in 0..width {
            builtins::set_register(b, &anyone, &mut template, width, lane);
        }
    }
    let arg_buffers: Vec<u32> = ks.buffers.iter().map(|b| b.0).collect();
    let shape = Shape {
        groups,
        template,
        width,
        subgroups,
        invocations: invocations as usize,
        local_size,
        workgroup_bytes: ks.workgroup_bytes,
        private_init: ks.private_init.clone(),
    };
    let mut jit_use = JitUse::Off;
    let mut vector_lanes = false;
    let mut outcomes = None;
    match jit {
        None => {}
        Some(Err(why)) => jit_use = JitUse::Unsupported(why.to_string()),
        Some(Ok(code)) => {
            let d = shape.dispatch(prog, cfg, &bound);
            let ran = crate::jit::dispatch(&d, code, total);
            let in_lanes = crate::jit::vector_lanes(&d, code).is_some();
            match ran {
                Ok(o) => {
                    jit_use = JitUse::Ran;
                    vector_lanes = in_lanes;
                    outcomes = Some(o);
                }
                Err(why) => {
                    // Start over from the original inputs on the interpreter.
                    jit_use = JitUse::FellBack(why);
                    let fresh = bind(prog, res, &places, &ks, cfg, pool)?;
                    std::mem::replace(&mut bound, fresh).recycle(pool);
                }
            }
        }
    }
    let outcomes = match outcomes {
        Some(o) => o,
        None => interpret(&shape.dispatch(prog, cfg, &bound), total)?,
    };

    let mut report = RunReport {
        workgroups: total,
        groups,
        local_size,
        jit: jit_use,
        vector_lanes,
        ..RunReport::default()
    };
    for o in outcomes {
        if let Some(e) = o.error {
            return Err(e);
        }
        report.steps += o.steps;
        report.total_events += o.count;
        report.prints.extend(o.prints);
        for e in o.events {
            if report.events.len() < cfg.max_events {
                report.events.push(e);
            }
        }
    }
    let Bound {
        mut buffers,
        runtime,
        ..
    } = bound;
    runtime_arrays::write_back(&runtime, &buffers, res, cfg);
    let parallel = parallel_copies(cfg);
    for (b, info) in buffers.iter_mut().zip(&prog.bindings) {
        if info.count == 0 {
            continue;
        }
        if let Some(writers) = b.writers() {
            report.writers.push(BufferWriters {
                set: info.set,
                binding: info.binding,
                writers,
            });
        }
        // A buffer in place is the caller's bytes: nothing to copy (and they must not be
        // borrowed while it lives).
        if b.is_in_place() {
            continue;
        }
        // Read-only buffers too: they come back unchanged (writes to them are dropped), and
        // copying them back lets a caller see that they were.
        if matches!(
            info.kind,
            BindingKind::StorageBuffer | BindingKind::UniformBuffer
        ) && let Some(dst) = res.buffer_element_mut(info.set, info.binding, info.element_index())
            && copy_back_needed(info, b, dst, cfg)
        {
            b.copy_out(dst, parallel);
        }
        if info.kind == BindingKind::Tensor
            && let Some(t) = res.tensor_element_mut(info.set, info.binding, info.element_index())
            && copy_back_needed(info, b, &t.data, cfg)
        {
            b.copy_out(&mut t.data, parallel);
        }
    }
    let after_bindings = buffers.iter_mut().skip(prog.bindings.len());
    for (b, &index) in after_bindings.zip(&arg_buffers) {
        if let Some(crate::resources::KernelArg::Buffer(dst)) = res.arg_mut(index) {
            b.copy_out(dst, parallel);
        }
    }
    if let Some(pool) = pool {
        for b in buffers {
            b.recycle(pool);
        }
    }
    Ok(report)
}

/// What a dispatch is besides its program, configuration and memory.
struct Shape {
    groups: [u32; 3],
    template: Vec<u64>,
    width: usize,
    subgroups: usize,
    invocations: usize,
    local_size: [u32; 3],
    workgroup_bytes: u32,
    private_init: Vec<u8>,
}

impl Shape {
    fn dispatch<'a>(
        &self,
        prog: &'a Program,
        cfg: &'a RunConfig,
        bound: &'a Bound,
    ) -> Dispatch<'a> {
        Dispatch {
            prog,
            cfg,
            buffers: &bound.buffers,
            tensors: &bound.tensors,
            groups: self.groups,
            template: self.template.clone(),
            width: self.width,
            subgroups: self.subgroups,
            invocations: self.invocations,
            local_size: self.local_size,
            workgroup_bytes: self.workgroup_bytes,
            private_init: self.private_init.clone(),
        }
    }
}

/// The memory objects of a dispatch, copied from the resources.
struct Bound {
    buffers: Vec<SharedBuffer>,
    tensors: Vec<Option<TensorView>>,
    runtime: runtime_arrays::Bound,
    /// Bytes the buffers take.
    bytes: u64,
}

impl Bound {
    /// Gives the buffers' storage back to the pool.
    fn recycle(self, pool: Option<&BufferPool>) {
        if let Some(pool) = pool {
            for b in self.buffers {
                b.recycle(pool);
            }
        }
    }
}

/// Copies the buffers and tensors of `res` into memory objects (or uses them in place,
/// `places`), in the program's binding order, then the Kernel buffer arguments and the
/// elements of runtime arrays.
fn bind(
    prog: &Program,
    res: &Resources,
    places: &InPlace,
    ks: &kernel::KernelSetup,
    cfg: &RunConfig,
    pool: Option<&BufferPool>,
) -> Result<Bound, ExecError> {
    let mut buffers = Vec::with_capacity(prog.bindings.len());
    let mut tensors = Vec::with_capacity(prog.bindings.len());
    let mut bytes_needed = 0u64;
    for (i, b) in prog.bindings.iter().enumerate() {
        if b.count == 0 {
            // The placeholder of a runtime array (its elements follow every binding).
            buffers.push(SharedBuffer::new(&[], true));
            tensors.push(None);
            continue;
        }
        let mut view = None;
        let read_only = matches!(
            b.kind,
            BindingKind::PushConstant | BindingKind::UniformBuffer
        );
        // (In place: the bytes are not looked at here; `InPlace::find` took them.)
        let buffer = match places.buffer(i, read_only) {
            Some(buffer) => {
                if b.kind == BindingKind::Tensor {
                    view = Some(tensor_view(b, bound_tensor(res, b)?)?);
                }
                buffer
            }
            None => {
                let data = match b.kind {
                    BindingKind::PushConstant => res.push_constants.as_slice(),
                    BindingKind::Tensor => {
                        let t = bound_tensor(res, b)?;
                        view = Some(tensor_view(b, t)?);
                        t.data.as_slice()
                    }
                    _ => bound_buffer(res, b)?,
                };
                SharedBuffer::new_in(pool, data, read_only, parallel_copies(cfg))
            }
        };
        bytes_needed += buffer.len() as u64;
        buffers.push(if cfg.track_writers && !read_only {
            buffer.with_writer_tracking()
        } else {
            buffer
        });
        tensors.push(view);
    }
    for &(_, data, read_only) in &ks.buffers {
        bytes_needed += data.len() as u64;
        buffers.push(SharedBuffer::new_in(
            pool,
            data,
            read_only,
            parallel_copies(cfg),
        ));
        tensors.push(None);
    }
    let runtime = runtime_arrays::bind(
        prog,
        res,
        cfg.track_writers,
        &mut buffers,
        &mut tensors,
        &mut bytes_needed,
    )?;
    Ok(Bound {
        buffers,
        tensors,
        runtime,
        bytes: bytes_needed,
    })
}

/// The tensor `res` binds for `b`.
fn bound_tensor<'r>(res: &'r Resources, b: &BindingInfo) -> Result<&'r Tensor, ExecError> {
    res.tensor_element(b.set, b.binding, b.element_index())
        .ok_or_else(|| match b.element {
            Some(i) => ExecError::Tensor {
                set: b.set,
                binding: b.binding,
                message: format!("no tensor bound as element {i} of the array of tensors"),
            },
            None => ExecError::MissingBinding {
                set: b.set,
                binding: b.binding,
            },
        })
}

/// The bytes of the buffer `res` binds for `b`.
fn bound_buffer<'r>(res: &'r Resources, b: &BindingInfo) -> Result<&'r [u8], ExecError> {
    res.buffer_element(b.set, b.binding, b.element_index())
        .ok_or(match b.element {
            Some(index) => ExecError::MissingBufferElement {
                set: b.set,
                binding: b.binding,
                index,
            },
            None => ExecError::MissingBinding {
                set: b.set,
                binding: b.binding,
            },
        })
}

/// Whether large buffers are copied in and out on rayon's threads: unless the run asks for one
/// thread (`RunConfig::threads`), so that a one-thread run uses one.
fn parallel_copies(cfg: &RunConfig) -> bool {
    cfg.threads.is_none_or(|n| n > 1)
}

/// Runs every workgroup on the interpreter (in parallel unless one thread is asked for).
fn interpret(d: &Dispatch, total: u64) -> Result<Vec<Outcome>, ExecError> {
    each_workgroup(
        d,
        total,
        || Worker::new(d),
        |w, i| w.run(d, i),
        |o| o.error.is_some(),
    )
    .map_err(ExecError::Config)
}

/// Checks a bound tensor against the module's tensor type and the bytes it has.
fn tensor_view(b: &BindingInfo, t: &Tensor) -> Result<TensorView, ExecError> {
    let fail = |message: String| ExecError::Tensor {
        set: b.set,
        binding: b.binding,
        message,
    };
    let info = b
        .tensor
        .ok_or_else(|| fail("not a tensor binding".into()))?;
    if t.shape.len() != info.rank as usize {
        return Err(fail(format!(
            "the tensor has {} dimensions, the module's tensor type has rank {}",
            t.shape.len(),
            info.rank
        )));
    }
    if let Some(shape) = &b.tensor_shape
        && *shape != t.shape
    {
        // Poison in VK_ARM_tensors, as a rank mismatch: refused.
        return Err(fail(format!(
            "the tensor has shape {:?}, the module's tensor type has Shape {shape:?}",
            t.shape
        )));
    }
    if t.shape.contains(&0) {
        return Err(fail("a dimension is 0".into()));
    }
    let strides = t.byte_strides(info.element_bytes as u64);
    if strides.len() != t.shape.len() {
        return Err(fail(format!(
            "{} strides for {} dimensions",
            strides.len(),
            t.shape.len()
        )));
    }
    // The last byte any element occupies must be inside the data.
    let mut end = info.element_bytes as u64;
    for (d, s) in t.shape.iter().zip(&strides) {
        end = (d - 1)
            .checked_mul(*s)
            .and_then(|x| x.checked_add(end))
            .ok_or_else(|| fail("the strides overflow".into()))?;
    }
    if end > t.data.len() as u64 {
        return Err(fail(format!(
            "shape {:?} with byte strides {:?} needs {end} bytes, the data has {}",
            t.shape,
            strides,
            t.data.len()
        )));
    }
    Ok(TensorView {
        shape: t.shape.clone(),
        strides,
    })
}

/// Whether the run must copy binding `info`'s buffer `b` back into `dst`, the bytes it was
/// made from: not when the module never writes the binding (`BindingInfo::written`) and `dst`
/// is as long as the buffer (it then holds the buffer's bytes already), unless `cfg` asks for
/// every binding (`RunConfig::copy_back_unwritten`).
pub(crate) fn copy_back_needed(
    info: &BindingInfo,
    b: &SharedBuffer,
    dst: &[u8],
    cfg: &RunConfig,
) -> bool {
    info.written || cfg.copy_back_unwritten || dst.len() != b.len()
}
