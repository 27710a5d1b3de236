//! The compute built-ins of one invocation: written into its private memory before it starts,
//! or (for built-in variables promoted to registers, `compile::promote`) into its registers —
//! once per dispatch for the built-ins every invocation shares, once per subgroup start for
//! the others.

use crate::program::{Builtin, BuiltinVar, MaskCompare, Program};

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

/// True for the built-ins that are the same for every invocation of a dispatch.
pub fn is_uniform(b: Builtin) -> bool {
    matches!(
        b,
        Builtin::NumWorkgroups
            | Builtin::WorkgroupSize
            | Builtin::EnqueuedWorkgroupSize
            | Builtin::SubgroupSize
            | Builtin::SubgroupMaxSize
            | Builtin::NumSubgroups
            | Builtin::NumEnqueuedSubgroups
            | Builtin::WorkDim
            | Builtin::GlobalSize
            | Builtin::GlobalOffset
    )
}

/// The value of built-in `b` for `inv` (up to three components; unused ones 0).
///
/// OpenCL-only built-ins: GlobalOffset is 0 (spvx has no global offset); GlobalSize is
/// groups × local size; EnqueuedWorkgroupSize equals the workgroup size (workgroups are
/// uniform); WorkDim is the number of the highest dimension whose group count or local size
/// exceeds 1 (at least 1), as a caller of `clEnqueueNDRangeKernel` with that many dimensions
/// would see it.
pub fn value(b: Builtin, inv: &Invocation) -> [u64; 3] {
    let size = inv.local_size;
    let wide = |a: [u32; 3]| a.map(u64::from);
    let local = || local_id(size, inv.local_index);
    let global = || {
        let local = local();
        [0, 1, 2].map(|i| inv.workgroup[i] as u64 * size[i] as u64 + local[i] as u64)
    };
    let global_size = [0, 1, 2].map(|i| inv.groups[i] as u64 * size[i] as u64);
    let sub = inv.subgroup_size as u64;
    let index = inv.local_index as u64;
    let one = |v: u64| [v, 0, 0];
    match b {
        Builtin::GlobalInvocationId => global(),
        Builtin::LocalInvocationId => wide(local()),
        Builtin::WorkgroupId => wide(inv.workgroup),
        Builtin::NumWorkgroups => wide(inv.groups),
        Builtin::WorkgroupSize | Builtin::EnqueuedWorkgroupSize => wide(size),
        Builtin::LocalInvocationIndex => one(index),
        Builtin::SubgroupSize | Builtin::SubgroupMaxSize => one(sub),
        Builtin::SubgroupLocalInvocationId => one(index % sub.max(1)),
        Builtin::SubgroupId => one(index / sub.max(1)),
        Builtin::NumSubgroups | Builtin::NumEnqueuedSubgroups => one(inv.subgroups as u64),
        Builtin::WorkDim => one((0..3)
            .rev()
            .find(|&i| inv.groups[i] > 1 || size[i] > 1)
            .map_or(1, |i| i as u64 + 1)),
        Builtin::GlobalSize => global_size,
        Builtin::GlobalOffset => [0; 3],
        Builtin::GlobalLinearId => {
            let g = global();
            one(g[0] + global_size[0] * (g[1] + global_size[1] * g[2]))
        }
        Builtin::SubgroupMask(c) => {
            let m = subgroup_mask(c, index % sub.max(1), sub);
            [m & 0xffff_ffff, m >> 32, 0]
        }
    }
}

/// The mask of the lanes `0..size` that compare `c` with `lane` (components 0 and 1 of the
/// uvec4 built-in; 2 and 3 stay 0).
fn subgroup_mask(c: MaskCompare, lane: u64, size: u64) -> u64 {
    let below = |n: u64| if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
    let all = below(size);
    let le = below(lane + 1);
    let lt = below(lane);
    all & match c {
        MaskCompare::Eq => le & !lt,
        MaskCompare::Ge => !lt,
        MaskCompare::Gt => !le,
        MaskCompare::Le => le,
        MaskCompare::Lt => lt,
    }
}

/// Writes the built-ins `prog` reads from memory into `private` (the invocation's private
/// memory): little-endian, `component_bytes` per component.
pub fn write(prog: &Program, inv: &Invocation, private: &mut [u8]) {
    for b in prog.builtins.iter().filter(|b| b.reg.is_none()) {
        let values = value(b.builtin, inv);
        let n = b.component_bytes as usize;
        for (i, v) in values.iter().take(b.components as usize).enumerate() {
            let at = b.offset as usize + n * i;
            if let Some(dst) = private.get_mut(at..at + n) {
                dst.copy_from_slice(&v.to_le_bytes()[..n]);
            }
        }
    }
}

/// The value of built-in `b` for invocation `index` of workgroup `wg` whose
/// LocalInvocationId is `local`, for the built-ins that differ between invocations and need no
/// more than that (`None` for the others: [`value`]). The same values as [`value`], without
/// its divisions (callers step `local` from invocation to invocation).
pub fn per_invocation(
    b: Builtin,
    index: usize,
    local: [u32; 3],
    wg: [u32; 3],
    size: [u32; 3],
    subgroup_size: usize,
) -> Option<[u64; 3]> {
    let wide = |a: [u32; 3]| a.map(u64::from);
    Some(match b {
        Builtin::LocalInvocationId => wide(local),
        Builtin::WorkgroupId => wide(wg),
        Builtin::GlobalInvocationId => {
            [0, 1, 2].map(|i| wg[i] as u64 * size[i] as u64 + local[i] as u64)
        }
        Builtin::LocalInvocationIndex => [index as u64, 0, 0],
        Builtin::SubgroupLocalInvocationId => [(index % subgroup_size.max(1)) as u64, 0, 0],
        Builtin::SubgroupId => [(index / subgroup_size.max(1)) as u64, 0, 0],
        _ => return None,
    })
}

/// The LocalInvocationId after `local` in a workgroup of `size` (x fastest).
pub fn next_local(local: &mut [u32; 3], size: [u32; 3]) {
    local[0] += 1;
    if local[0] >= size[0] {
        local[0] = 0;
        local[1] += 1;
        if local[1] >= size[1] {
            local[1] = 0;
            local[2] += 1;
        }
    }
}

/// Writes `values` (a built-in's components) into the registers of `b` for lane `lane` of a
/// register file of `width` lanes, each reduced to `8 × component_bytes` bits.
pub fn put_register(b: &BuiltinVar, values: [u64; 3], regs: &mut [u64], width: usize, lane: usize) {
    let Some(reg) = b.reg else {
        return;
    };
    let mask = crate::bits::low_bits(8 * b.component_bytes);
    for (i, v) in values.iter().take(b.components as usize).enumerate() {
        if let Some(r) = regs.get_mut((reg as usize + i) * width + lane) {
            *r = v & mask;
        }
    }
}

/// Writes the value of the register-held built-in `b` for `inv` into lane `lane` of a
/// register file of `width` lanes (what a load of `component_bytes` bytes would give).
pub fn set_register(b: &BuiltinVar, inv: &Invocation, regs: &mut [u64], width: usize, lane: usize) {
    put_register(b, value(b.builtin, inv), regs, width, lane);
}

/// True when `prog` reads some built-in from private memory (so each invocation's private
/// memory must be written).
pub fn any_in_memory(prog: &Program) -> bool {
    prog.builtins.iter().any(|b| b.reg.is_none())
}
