//! Binding a Kernel (OpenCL) dispatch: the workgroup size (the module's LocalSize or the
//! dispatch's local size), the arguments put into the kernel function's parameter slots,
//! buffer arguments as extra memory objects after the bindings, local-memory arguments laid
//! out after the module's Workgroup variables, by-value arguments copied into private
//! memory, and the object of the program-scope global variables after the buffer arguments.

use crate::error::ExecError;
use crate::memory::{Ptr, SPACE_BUFFER0, SPACE_PRIVATE, SPACE_WORKGROUP};
use crate::program::Program;
use crate::program::kernel::ParamPlace;
use crate::resources::{KernelArg, KernelArgKind, Resources};

/// Local-memory arguments start at a multiple of this (the largest OpenCL C type alignment,
/// `long16`/`double16`: 128 bytes).
const LOCAL_ALIGN: u64 = 128;

/// What a dispatch adds to the program for its arguments.
pub(crate) struct KernelSetup<'r> {
    pub local_size: [u32; 3],
    /// Buffer arguments: (argument index, bytes, read-only), in argument order; the `k`-th is
    /// memory space `SPACE_BUFFER0 + bindings + k`. Last, with index `u32::MAX`, the object
    /// of the CrossWorkgroup program-scope variables when the module has one.
    pub buffers: Vec<(u32, &'r [u8], bool)>,
    /// Register values of the parameters (same for every invocation).
    pub regs: Vec<(u32, u64)>,
    pub workgroup_bytes: u32,
    pub private_init: Vec<u8>,
}

fn arg_err(index: u32, message: impl Into<String>) -> ExecError {
    ExecError::KernelArg {
        index,
        message: message.into(),
    }
}

/// The workgroup size of a dispatch of `prog` (Kernel or not) given `res`.
pub(crate) fn local_size(prog: &Program, res: &Resources) -> Result<[u32; 3], ExecError> {
    let Some(k) = &prog.kernel else {
        return Ok(prog.local_size);
    };
    match (k.local_size, res.local_size) {
        (Some(m), Some(d)) if m != d => Err(ExecError::Config(format!(
            "the dispatch's local size {d:?} differs from the kernel's required workgroup size (LocalSize) {m:?}"
        ))),
        (Some(m), _) => Ok(m),
        (None, Some(d)) if d.contains(&0) => Err(ExecError::Config(format!(
            "local size {d:?} has a zero dimension"
        ))),
        (None, Some(d)) => Ok(d),
        (None, None) => Err(ExecError::Config(
            "the kernel has no LocalSize execution mode: give the dispatch's local size (`--local X,Y,Z`; run files and Python: `local`)".into(),
        )),
    }
}

/// Checks the arguments in `res` against the kernel's parameters and lays them out.
pub(crate) fn setup<'r>(
    prog: &'r Program,
    res: &'r Resources,
) -> Result<KernelSetup<'r>, ExecError> {
    let local_size = local_size(prog, res)?;
    let mut out = KernelSetup {
        local_size,
        buffers: Vec::new(),
        regs: Vec::new(),
        workgroup_bytes: prog.workgroup_bytes,
        private_init: prog.private_init.clone(),
    };
    let Some(k) = &prog.kernel else {
        return Ok(out);
    };
    let mut wg = prog.workgroup_bytes as u64;
    for (info, param) in k.args.iter().zip(&k.params) {
        let i = info.index;
        let arg = res
            .arg(i)
            .ok_or_else(|| arg_err(i, format!("not given (a {:?} argument)", info.kind)))?;
        match (info.kind, arg, &param.place) {
            (
                KernelArgKind::Buffer | KernelArgKind::ConstantBuffer,
                KernelArg::Buffer(b),
                ParamPlace::Pointer,
            ) => {
                let space =
                    SPACE_BUFFER0 as u64 + prog.bindings.len() as u64 + out.buffers.len() as u64;
                let space = u32::try_from(space)
                    .ok()
                    .filter(|&s| s < 1 << 16)
                    .ok_or_else(|| arg_err(i, "too many buffers"))?;
                out.regs.push((param.slot, Ptr::new(space, 0).0));
                out.buffers
                    .push((i, b, info.kind == KernelArgKind::ConstantBuffer));
            }
            (KernelArgKind::Local, KernelArg::Local(n), ParamPlace::Pointer) => {
                let at = wg.next_multiple_of(LOCAL_ALIGN);
                wg = at
                    .checked_add(*n)
                    .filter(|&e| e <= u32::MAX as u64)
                    .ok_or_else(|| arg_err(i, format!("{n} bytes of local memory is too much")))?;
                out.regs.push((param.slot, Ptr::new(SPACE_WORKGROUP, at).0));
            }
            (KernelArgKind::Scalar, KernelArg::Scalar(bytes), ParamPlace::Value { leaves }) => {
                if (bytes.len() as u64) != info.size {
                    return Err(arg_err(
                        i,
                        format!(
                            "{} bytes given, the argument has {}",
                            bytes.len(),
                            info.size
                        ),
                    ));
                }
                for leaf in leaves.iter() {
                    let at = leaf.offset as usize;
                    let n = leaf.scalar.mem_bytes() as usize;
                    let part = bytes
                        .get(at..at + n)
                        .ok_or_else(|| arg_err(i, "argument bytes too short"))?;
                    let mut v = 0u64;
                    for (b, byte) in part.iter().enumerate() {
                        v |= (*byte as u64) << (8 * b);
                    }
                    let v = match leaf.scalar {
                        crate::program::Scalar::Bool => (v != 0) as u64,
                        s => v & crate::bits::low_bits(s.bits()),
                    };
                    out.regs.push((param.slot + leaf.slot, v));
                }
            }
            (
                KernelArgKind::ByValue,
                KernelArg::Scalar(bytes),
                ParamPlace::ByValue { offset, size },
            ) => {
                if bytes.len() != *size as usize {
                    return Err(arg_err(
                        i,
                        format!("{} bytes given, the struct has {size}", bytes.len()),
                    ));
                }
                let at = *offset as usize;
                let dst = out
                    .private_init
                    .get_mut(at..at + bytes.len())
                    .ok_or_else(|| arg_err(i, "by-value argument outside private memory"))?;
                dst.copy_from_slice(bytes);
                out.regs
                    .push((param.slot, Ptr::new(SPACE_PRIVATE, *offset as u64).0));
            }
            (kind, arg, _) => {
                let given = match arg {
                    KernelArg::Buffer(_) => "a buffer",
                    KernelArg::Local(_) => "a local-memory size",
                    KernelArg::Scalar(_) => "value bytes",
                };
                return Err(arg_err(
                    i,
                    format!("{given} was given for a {kind:?} argument"),
                ));
            }
        }
    }
    if let Some(extra) = res.args_beyond(k.args.len() as u32) {
        return Err(arg_err(
            extra,
            format!("the kernel has {} arguments", k.args.len()),
        ));
    }
    if let Some(g) = &k.globals {
        // The CrossWorkgroup program-scope variables: one object for the dispatch, in the
        // space after the buffer arguments (`g.space`); argument index u32::MAX names no
        // argument, so it is not written back.
        out.buffers.push((u32::MAX, &g.init, false));
    }
    out.workgroup_bytes = wg as u32;
    check_address_map(prog, &out)?;
    Ok(out)
}

/// Every memory object must fit in its slot of the address map (half a slot): with 32-bit
/// pointers the 4 GiB address space is shared by all objects.
fn check_address_map(prog: &Program, setup: &KernelSetup) -> Result<(), ExecError> {
    let Some(k) = &prog.kernel else {
        return Ok(());
    };
    let map = k.address_map;
    let max = map.max_object_bytes();
    let too_big = |what: String, n: u64| {
        ExecError::Config(format!(
            "{what} has {n} bytes; with {}-bit pointers and {} memory spaces a memory object may have at most {max} bytes (half a slot of the address map)",
            map.bits, map.spaces
        ))
    };
    if prog.private_bytes as u64 > max {
        return Err(too_big("private memory".into(), prog.private_bytes as u64));
    }
    if setup.workgroup_bytes as u64 > max {
        return Err(too_big(
            "workgroup memory".into(),
            setup.workgroup_bytes as u64,
        ));
    }
    for (i, b, _) in &setup.buffers {
        if b.len() as u64 > max {
            return Err(arg_err(
                *i,
                too_big("the buffer".into(), b.len() as u64).to_string(),
            ));
        }
    }
    Ok(())
}
