//! The compute built-ins of one invocation, written into its private memory before it starts.

use crate::program::{Builtin, Program};

/// LocalInvocationId of the invocation with LocalInvocationIndex `index`.
pub fn local_id(size: [u32; 3], index: usize) -> [u32; 3] {
    let (x, y) = (size[0].max(1) as usize, size[1].max(1) as usize);
    [
        (index % x) as u32,
        (index / x % y) as u32,
        (index / (x * y)) as u32,
    ]
}

/// Where one invocation stands.
pub struct Invocation {
    pub local_size: [u32; 3],
    pub local_index: usize,
    pub workgroup: [u32; 3],
    pub groups: [u32; 3],
    pub subgroup_size: u32,
    pub subgroups: u32,
}

/// Writes the built-ins `prog` reads into `private` (the invocation's private memory).
///
/// OpenCL-only built-ins: GlobalOffset is 0 (spvx has no global offset); GlobalSize is
/// groups × local size; EnqueuedWorkgroupSize equals the workgroup size (workgroups are
/// uniform); WorkDim is the number of the highest dimension whose group count or local size
/// exceeds 1 (at least 1), as a caller of `clEnqueueNDRangeKernel` with that many dimensions
/// would see it.
pub fn write(prog: &Program, inv: &Invocation, private: &mut [u8]) {
    let size = inv.local_size;
    let local = local_id(size, inv.local_index);
    let wide = |a: [u32; 3]| a.map(u64::from);
    let global = [0, 1, 2].map(|i| inv.workgroup[i] as u64 * size[i] as u64 + local[i] as u64);
    let global_size = [0, 1, 2].map(|i| inv.groups[i] as u64 * size[i] as u64);
    let linear = global[0] + global_size[0] * (global[1] + global_size[1] * global[2]);
    let dims = (0..3)
        .rev()
        .find(|&i| inv.groups[i] > 1 || size[i] > 1)
        .map_or(1, |i| i as u64 + 1);
    let sub = inv.subgroup_size as u64;
    let index = inv.local_index as u64;
    let one = |v: u64| [v, 0, 0];
    for b in &prog.builtins {
        let values: [u64; 3] = match b.builtin {
            Builtin::GlobalInvocationId => global,
            Builtin::LocalInvocationId => wide(local),
            Builtin::WorkgroupId => wide(inv.workgroup),
            Builtin::NumWorkgroups => wide(inv.groups),
            Builtin::WorkgroupSize | Builtin::EnqueuedWorkgroupSize => wide(size),
            Builtin::LocalInvocationIndex => one(index),
            Builtin::SubgroupSize | Builtin::SubgroupMaxSize => one(sub),
            Builtin::SubgroupLocalInvocationId => one(index % sub),
            Builtin::SubgroupId => one(index / sub),
            Builtin::NumSubgroups | Builtin::NumEnqueuedSubgroups => one(inv.subgroups as u64),
            Builtin::WorkDim => one(dims),
            Builtin::GlobalSize => global_size,
            Builtin::GlobalOffset => [0; 3],
            Builtin::GlobalLinearId => one(linear),
        };
        let n = b.component_bytes as usize;
        for (i, v) in values.iter().take(b.components as usize).enumerate() {
            let at = b.offset as usize + n * i;
            if let Some(dst) = private.get_mut(at..at + n) {
                dst.copy_from_slice(&v.to_le_bytes()[..n]);
            }
        }
    }
}
