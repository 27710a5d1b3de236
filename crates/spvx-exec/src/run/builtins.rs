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
    pub local_index: usize,
    pub workgroup: [u32; 3],
    pub groups: [u32; 3],
    pub subgroup_size: u32,
    pub subgroups: u32,
}

/// Writes the built-ins `prog` reads into `private` (the invocation's private memory).
pub fn write(prog: &Program, inv: &Invocation, private: &mut [u8]) {
    let size = prog.local_size;
    let local = local_id(size, inv.local_index);
    let global = [0, 1, 2].map(|i| {
        inv.workgroup[i]
            .wrapping_mul(size[i])
            .wrapping_add(local[i])
    });
    let sub = inv.subgroup_size;
    for b in &prog.builtins {
        let words: [u32; 3] = match b.builtin {
            Builtin::GlobalInvocationId => global,
            Builtin::LocalInvocationId => local,
            Builtin::WorkgroupId => inv.workgroup,
            Builtin::NumWorkgroups => inv.groups,
            Builtin::WorkgroupSize => size,
            Builtin::LocalInvocationIndex => [inv.local_index as u32, 0, 0],
            Builtin::SubgroupSize => [sub, 0, 0],
            Builtin::SubgroupLocalInvocationId => [inv.local_index as u32 % sub, 0, 0],
            Builtin::SubgroupId => [inv.local_index as u32 / sub, 0, 0],
            Builtin::NumSubgroups => [inv.subgroups, 0, 0],
        };
        for (i, w) in words.iter().take(b.components as usize).enumerate() {
            let at = b.offset as usize + 4 * i;
            if let Some(dst) = private.get_mut(at..at + 4) {
                dst.copy_from_slice(&w.to_le_bytes());
            }
        }
    }
}
