//! What generated code sees at run time: the context it is called with ([`JitCtx`], whose
//! layout the lowering hard-codes), the table of memory spaces ([`Space`]), and the call-out
//! into the interpreter for instructions the JIT does not compile ([`callout`]).

use super::{Callout, status};
use crate::config::RunConfig;
use crate::exec::{Ctx, Sink, execute};
use crate::memory::{Memory, SharedBuffer, TensorView};
use crate::program::Program;

/// One memory space as generated code sees it: the first byte, the size, whether stores
/// are refused (uniform buffers, push constants), and whether `base` is this worker's own
/// copy of a buffer that only atomic additions touch (`atomics::private_sums`: its additions
/// then need no lock). Index = `Ptr::space()`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct Space {
    pub base: *mut u8,
    pub len: u64,
    pub read_only: u64,
    pub private_sums: u64,
}

/// Byte offsets of [`Space`]'s fields and its size.
pub const SPACE_BASE: i32 = 0;
pub const SPACE_LEN: i32 = 8;
pub const SPACE_READ_ONLY: i32 = 16;
pub const SPACE_PRIVATE_SUMS: i32 = 24;
pub const SPACE_SIZE: i64 = 32;

/// The context of a native call. The first four fields are read and written by generated code
/// at the offsets below; `host` is only for call-outs.
#[repr(C)]
pub struct JitCtx {
    pub spaces: *mut Space,
    pub space_count: u64,
    /// Steps spent by the workgroup so far (segments entered, weighted by their length).
    pub steps: u64,
    /// Steps the workgroup may spend.
    pub budget: u64,
    /// LocalInvocationIndex of the running invocation (for call-outs that print).
    pub invocation: u64,
    /// Subgroup size, workgroup id and workgroup size (for the native workgroup loop).
    pub width: u64,
    pub wg: [u64; 3],
    pub size: [u64; 3],
    /// For the native round loop: the first invocation's private memory and the bytes per
    /// invocation.
    pub private_base: *mut u8,
    pub private_stride: u64,
    /// Written by the round loop: invocations waiting at a barrier, and whether their barrier
    /// signatures differ.
    pub waiting: u64,
    pub mismatch: u64,
    /// Written by the round loop: invocations waiting at a subgroup instruction.
    pub grouped: u64,
    pub host: *mut Host<'static>,
    /// For the lanes function: the LocalInvocationId of the subgroup's first invocation.
    pub local: [u64; 3],
    /// The bound tensors' shapes and strides for native tensor access: `TENSOR_WORDS` words
    /// per memory space (`tensor_table`), `tensor_spaces` spaces.
    pub tensors: *const u64,
    pub tensor_spaces: u64,
    /// The run's mixed-dot configuration as spvx-num's word (`mixdot::abi::config_word`),
    /// passed to its functions; below 5 (a model, nearest even, no flushing) the inline paths
    /// of the VALVE dot products apply (`lower_mixdot`).
    pub mixdot_config: u64,
    /// The status of the last call-out, where the call-out trampoline (`build::callout_trampoline`)
    /// leaves it for the native code that called it.
    pub callout_status: u64,
    /// Addresses of static tables the generated code reads, [`StaticTables`]: passed here
    /// rather than written into the code, so that the code holds no address of this process
    /// and the code cache (`code_cache`) can reuse it in another.
    pub tables: StaticTables,
    /// The program's fixed-point operations prepared for spvx-num's C-ABI function
    /// (`lower_fixed::fixed_ops`, `JitCode::fixed_ops`), indexed as `lower_fixed::fixed_index`
    /// numbers them.
    pub fixed_ops: *const spvx_num::fixed::abi::Prepared,
}

/// The static tables generated code reads (a field of [`JitCtx`]).
#[repr(C)]
pub struct StaticTables {
    /// [`NO_TENSOR_ENTRY`].
    pub no_tensor_entry: *const u64,
    /// spvx-num's values of the 256 fp8 encodings (`mixdot::fast::fp8_table`), E4M3 then E5M2.
    pub fp8: [*const f64; 2],
    /// spvx-num's C-ABI functions of the mixed dots (`mixdot::abi::ENTRIES`).
    pub mixdot: [spvx_num::mixdot::abi::Entry; 8],
    /// spvx-num's C-ABI function of the fixed-point functions (`fixed::abi::eval`).
    pub fixed: spvx_num::fixed::abi::Entry,
}

/// The fp8 encodings in the order of [`StaticTables::fp8`].
const FP8: [spvx_num::mixdot::Fp8Encoding; 2] = [
    spvx_num::mixdot::Fp8Encoding::E4m3,
    spvx_num::mixdot::Fp8Encoding::E5m2,
];

impl StaticTables {
    pub fn new() -> StaticTables {
        StaticTables {
            no_tensor_entry: NO_TENSOR_ENTRY.as_ptr(),
            fp8: FP8.map(|e| spvx_num::mixdot::fast::fp8_table(e).as_ptr()),
            mixdot: spvx_num::mixdot::abi::ENTRIES,
            fixed: spvx_num::fixed::abi::eval,
        }
    }

    /// The byte offset in [`JitCtx`] of spvx-num's C-ABI function of a mixed dot
    /// (`mixdot::abi::entry_index`).
    pub fn mixdot_offset(
        op: spvx_num::mixdot::MixOp,
        half: spvx_num::mixdot::Half16Encoding,
        fp8: [spvx_num::mixdot::Fp8Encoding; 2],
    ) -> i32 {
        let index = spvx_num::mixdot::abi::entry_index(op, half, fp8);
        CTX_MIXDOT_ENTRIES + 8 * index as i32
    }

    /// The byte offset in [`JitCtx`] of the pointer to `enc`'s fp8 table.
    pub fn fp8_offset(enc: spvx_num::mixdot::Fp8Encoding) -> i32 {
        let index = FP8.iter().position(|&e| e == enc);
        CTX_FP8_TABLES + 8 * index.expect("FP8 lists every fp8 encoding") as i32
    }
}

/// Flags of a load from the context, the space table or the tensor table: memory that no one
/// writes while a native function runs (the driver and the round loop change them only between
/// calls), so Cranelift may move the load to where its value is first needed, or out of loops,
/// instead of making every call pay for it at entry.
pub fn invariant() -> cranelift_codegen::ir::MemFlagsData {
    cranelift_codegen::ir::MemFlagsData::trusted()
        .with_readonly()
        .with_can_move()
}

pub const CTX_SPACES: i32 = 0;
pub const CTX_SPACE_COUNT: i32 = 8;
pub const CTX_STEPS: i32 = 16;
pub const CTX_BUDGET: i32 = 24;
pub const CTX_INVOCATION: i32 = 32;
pub const CTX_WIDTH: i32 = 40;
pub const CTX_WG: i32 = 48;
pub const CTX_SIZE: i32 = 72;
pub const CTX_PRIVATE_BASE: i32 = 96;
pub const CTX_PRIVATE_STRIDE: i32 = 104;
pub const CTX_WAITING: i32 = 112;
pub const CTX_MISMATCH: i32 = 120;
pub const CTX_GROUPED: i32 = 128;
pub const CTX_LOCAL: i32 = 144;
pub const CTX_TENSORS: i32 = 168;
pub const CTX_TENSOR_SPACES: i32 = 176;
pub const CTX_MIXDOT_CONFIG: i32 = 184;
pub const CTX_CALLOUT_STATUS: i32 = 192;
pub const CTX_NO_TENSOR_ENTRY: i32 = 200;
pub const CTX_FP8_TABLES: i32 = 208;
pub const CTX_MIXDOT_ENTRIES: i32 = 224;
pub const CTX_FIXED_ENTRY: i32 = 288;
pub const CTX_FIXED_OPS: i32 = 296;

// The offsets above are the fields' (checked when compiling).
const _: () = {
    use std::mem::offset_of;
    let fields = [
        (offset_of!(JitCtx, spaces), CTX_SPACES),
        (offset_of!(JitCtx, space_count), CTX_SPACE_COUNT),
        (offset_of!(JitCtx, steps), CTX_STEPS),
        (offset_of!(JitCtx, budget), CTX_BUDGET),
        (offset_of!(JitCtx, invocation), CTX_INVOCATION),
        (offset_of!(JitCtx, width), CTX_WIDTH),
        (offset_of!(JitCtx, wg), CTX_WG),
        (offset_of!(JitCtx, size), CTX_SIZE),
        (offset_of!(JitCtx, private_base), CTX_PRIVATE_BASE),
        (offset_of!(JitCtx, private_stride), CTX_PRIVATE_STRIDE),
        (offset_of!(JitCtx, waiting), CTX_WAITING),
        (offset_of!(JitCtx, mismatch), CTX_MISMATCH),
        (offset_of!(JitCtx, grouped), CTX_GROUPED),
        (offset_of!(JitCtx, local), CTX_LOCAL),
        (offset_of!(JitCtx, tensors), CTX_TENSORS),
        (offset_of!(JitCtx, tensor_spaces), CTX_TENSOR_SPACES),
        (offset_of!(JitCtx, mixdot_config), CTX_MIXDOT_CONFIG),
        (offset_of!(JitCtx, callout_status), CTX_CALLOUT_STATUS),
        (
            offset_of!(JitCtx, tables) + offset_of!(StaticTables, no_tensor_entry),
            CTX_NO_TENSOR_ENTRY,
        ),
        (
            offset_of!(JitCtx, tables) + offset_of!(StaticTables, fp8),
            CTX_FP8_TABLES,
        ),
        (
            offset_of!(JitCtx, tables) + offset_of!(StaticTables, mixdot),
            CTX_MIXDOT_ENTRIES,
        ),
        (
            offset_of!(JitCtx, tables) + offset_of!(StaticTables, fixed),
            CTX_FIXED_ENTRY,
        ),
        (offset_of!(JitCtx, fixed_ops), CTX_FIXED_OPS),
        (offset_of!(Space, base), SPACE_BASE),
        (offset_of!(Space, len), SPACE_LEN),
        (offset_of!(Space, read_only), SPACE_READ_ONLY),
        (offset_of!(Space, private_sums), SPACE_PRIVATE_SUMS),
    ];
    let mut i = 0;
    while i < fields.len() {
        assert!(fields[i].0 == fields[i].1 as usize);
        i += 1;
    }
    assert!(std::mem::size_of::<Space>() == SPACE_SIZE as usize);
};

/// The largest tensor rank native code reads and writes (others go through the interpreter).
pub const MAX_NATIVE_TENSOR_RANK: usize = 8;
/// Words per memory space in the tensor table: the rank (`NO_TENSOR`: no native access), then
/// `MAX_NATIVE_TENSOR_RANK` sizes and as many byte strides, then the words of
/// [`tensor_access_word`] and the one at [`TENSOR_BASE`].
pub const TENSOR_WORDS: usize = 2 + 2 * MAX_NATIVE_TENSOR_RANK + 2 * ELEMENT_SIZES;
/// The element sizes of tensor accesses: 1, 2, 4 and 8 bytes.
const ELEMENT_SIZES: usize = 4;
/// The host address of the tensor's memory (its space's base).
pub const TENSOR_BASE: usize = TENSOR_WORDS - 1;
/// The rank word of a space native code does not access as a tensor.
pub const NO_TENSOR: u64 = u64::MAX;

/// The word of a tensor table entry that an access to elements of `bytes` bytes (1, 2, 4 or 8)
/// tests, reading or (`write`) writing: the tensor's rank where native code may access it so,
/// else `NO_TENSOR`. It may when the bytes of every element in the shape lie in the memory
/// (the space's length − the largest element offset ≥ `bytes`), and for a write when the
/// memory is not read-only; an access then tests one word, and no element's bytes against the
/// memory's length.
pub const fn tensor_access_word(bytes: u32, write: bool) -> usize {
    1 + 2 * MAX_NATIVE_TENSOR_RANK
        + (write as usize) * ELEMENT_SIZES
        + bytes.trailing_zeros() as usize
}

/// The tensor table entry of a space past the table: no native access (native code selects it
/// instead of reading past the table, so that its loads of an entry need no branch first).
pub static NO_TENSOR_ENTRY: [u64; TENSOR_WORDS] = {
    let mut e = [NO_TENSOR; TENSOR_WORDS];
    e[TENSOR_BASE] = 0;
    e
};

/// The tensor table of the memory spaces `spaces` for native code: for each bound tensor whose
/// rank is at most `MAX_NATIVE_TENSOR_RANK` and whose elements all lie below 2^62 bytes (so
/// that an in-bounds element's address cannot overflow), its rank, sizes, strides, the words
/// of [`tensor_access_word`] and its base; every other space `NO_TENSOR` (native code
/// then calls the interpreter's implementation).
pub fn tensor_table(tensors: &[Option<TensorView>], spaces: &[Space]) -> Vec<u64> {
    let mut table = vec![0u64; spaces.len() * TENSOR_WORDS];
    for entry in table.chunks_exact_mut(TENSOR_WORDS) {
        entry.copy_from_slice(&NO_TENSOR_ENTRY);
    }
    for (b, view) in tensors.iter().enumerate() {
        let s = crate::memory::SPACE_BUFFER0 as usize + b;
        let Some(v) = view else { continue };
        let rank = v.shape.len();
        let Some(space) = spaces.get(s) else { continue };
        if rank > MAX_NATIVE_TENSOR_RANK || v.strides.len() != rank {
            continue;
        }
        // The largest element offset.
        let last = v
            .shape
            .iter()
            .zip(&v.strides)
            .try_fold(0u64, |acc, (&n, &st)| {
                acc.checked_add(n.saturating_sub(1).checked_mul(st)?)
            });
        let Some(last) = last.filter(|l| *l < 1 << 62) else {
            continue;
        };
        let at = s * TENSOR_WORDS;
        let entry = &mut table[at..at + TENSOR_WORDS];
        entry[0] = rank as u64;
        entry[1..1 + rank].copy_from_slice(&v.shape);
        let st = 1 + MAX_NATIVE_TENSOR_RANK;
        entry[st..st + rank].copy_from_slice(&v.strides);
        let room = space.len.saturating_sub(last);
        for bytes in [1, 2, 4, 8] {
            if room >= bytes as u64 {
                entry[tensor_access_word(bytes, false)] = rank as u64;
                if space.read_only == 0 {
                    entry[tensor_access_word(bytes, true)] = rank as u64;
                }
            }
        }
        entry[TENSOR_BASE] = space.base as u64;
    }
    table
}

/// Whether native code may make the access `c` to its space's tensor without a test: the
/// space's entry in `table` (`tensor_table`) admits it, as `lower_tensor` tests per access.
pub fn tensor_access_native(table: &[u64], c: &super::lower_tensor::TensorCheck) -> bool {
    let at = c.space as usize * TENSOR_WORDS + tensor_access_word(c.bytes, c.write);
    table.get(at) == Some(&u64::from(c.rank))
}

/// What a call-out needs to run one instruction of one invocation through the interpreter.
pub struct Host<'a> {
    pub prog: &'a Program,
    pub cfg: &'a RunConfig,
    pub buffers: &'a [SharedBuffer],
    pub tensors: &'a [Option<TensorView>],
    pub callouts: &'a [Callout],
    /// The workgroup's memory.
    pub workgroup: *mut u8,
    pub workgroup_len: usize,
    /// Events (any event ends the JIT run) and printed lines of the running invocation.
    pub sink: Sink,
    /// Lines printed by the workgroup so far (the interpreter caps them per workgroup run; the
    /// JIT gives up before that cap could matter).
    pub prints: usize,
    /// For [`group_callout`]: the words of a lane's state, and the register file
    /// `group::run` builds.
    pub state_words: usize,
    pub scratch: Vec<u64>,
}

/// Entry `id` of the call-out table `callouts` of `prog`: the instruction and its index in the
/// module.
fn instruction<'p>(
    prog: &'p Program,
    callouts: &[Callout],
    id: u64,
) -> Option<(&'p crate::program::Inst, u32)> {
    let c = callouts.get(usize::try_from(id).ok()?)?;
    let f = prog.functions.get(c.func as usize)?;
    Some((
        f.code.get(c.index as usize)?,
        *f.source.get(c.index as usize)?,
    ))
}

/// Runs instruction `id` of the call-out table for the invocation whose registers are at
/// `regs`, through the interpreter's implementation with a one-lane subgroup. Returns
/// `status::DONE`, or `status::BAIL` when the instruction reported an event (or panicked).
///
/// # Safety
/// `ctx` must be the context the native code was called with (its `host` valid for the call)
/// and `regs` the invocation's register file of `prog.slot_count` registers (at least).
pub unsafe extern "C" fn callout(ctx: *mut JitCtx, regs: *mut u64, id: u64) -> u64 {
    // SAFETY: the caller's contract; nothing else touches these objects during the call (the
    // native code that passed them waits for us, on this thread).
    let (host, invocation) = unsafe { (&mut *(*ctx).host, (*ctx).invocation) };
    let Some((inst, source)) = instruction(host.prog, host.callouts, id) else {
        return status::BAIL;
    };
    let slots = host.prog.slot_count as usize;
    // SAFETY: see above; the register file and the memory objects outlive the call. The
    // running invocation's private memory is memory space 1 of the table.
    let (regs, private, workgroup) = unsafe {
        let p = *(*ctx).spaces.add(crate::memory::SPACE_PRIVATE as usize);
        (
            std::slice::from_raw_parts_mut(regs, slots),
            raw_slice(p.base, p.len as usize),
            raw_slice(host.workgroup, host.workgroup_len),
        )
    };
    let private_bytes = private.len();
    let mut mem = Memory {
        buffers: host.buffers,
        private,
        private_bytes,
        workgroup,
        tensors: host.tensors,
        writer_base: None,
    };
    let prints_before = host.sink.prints.len();
    let mut cx = Ctx {
        regs,
        width: 1,
        mask: 1,
        mem: &mut mem,
        sink: &mut host.sink,
        cfg: host.cfg,
        source,
    };
    let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| execute(inst, &mut cx)));
    // The one-lane run printed as lane 0: name the invocation.
    for p in &mut host.sink.prints[prints_before..] {
        p.lane = invocation as usize;
    }
    host.prints += host.sink.prints.len() - prints_before;
    match ran {
        Ok(Ok(())) if host.sink.count == 0 && !near_print_cap(host.prints) => status::DONE,
        _ => status::BAIL,
    }
}

/// Runs subgroup instruction `word & 0xffff_ffff` of the call-out table once for the lanes of
/// the subgroup whose bits are set in `word >> 32`, through the interpreter's implementation
/// (`group::run`); lane `l`'s registers are at `regs + 8 · state_words · l`. Returns
/// `status::DONE`, or `status::BAIL` when the instruction reported an event (or panicked).
///
/// # Safety
/// `ctx` must be the context the native code was called with (its `host` valid for the call)
/// and `regs` the register files of the subgroup's `width` lanes, `state_words` words each.
pub unsafe extern "C" fn group_callout(ctx: *mut JitCtx, regs: *mut u64, word: u64) -> u64 {
    let (id, active) = (word & 0xffff_ffff, word >> 32);
    // SAFETY: the caller's contract, as for `callout`.
    let (host, width) = unsafe { (&mut *(*ctx).host, (*ctx).width as usize) };
    let Some((inst, source)) = instruction(host.prog, host.callouts, id) else {
        return status::BAIL;
    };
    if width == 0 || active >> width != 0 {
        return status::BAIL;
    }
    // SAFETY: the caller's contract: `width` register files of `state_words` words.
    let state = unsafe { std::slice::from_raw_parts_mut(regs, width * host.state_words) };
    let mut mem = Memory {
        buffers: host.buffers,
        private: &mut [],
        private_bytes: 0,
        workgroup: &mut [],
        tensors: host.tensors,
        writer_base: None,
    };
    let lanes = super::group::Lanes {
        state,
        state_words: host.state_words,
        first: 0,
        width,
        active,
    };
    let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        super::group::run(inst, lanes, &mut host.scratch, &mut mem, host.cfg, source)
    }));
    match ran {
        Ok(Ok(())) => status::DONE,
        _ => status::BAIL,
    }
}

/// Whether a workgroup printed so much that the interpreter might drop lines.
fn near_print_cap(prints: usize) -> bool {
    prints >= crate::exec::printf::MAX_PRINTS_PER_WORKGROUP / 2
}

/// `len` bytes at `ptr` (an empty slice for a null or dangling pointer with `len` 0).
///
/// # Safety
/// `ptr..ptr + len` must be valid for reads and writes and not otherwise borrowed.
unsafe fn raw_slice<'a>(ptr: *mut u8, len: usize) -> &'a mut [u8] {
    if len == 0 {
        &mut []
    } else {
        // SAFETY: the caller's contract.
        unsafe { std::slice::from_raw_parts_mut(ptr, len) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn space(len: u64, read_only: bool, base: usize) -> Space {
        Space {
            base: base as *mut u8,
            len,
            read_only: read_only as u64,
            private_sums: 0,
        }
    }

    /// A 3 × 4 tensor of 4-byte elements with byte strides 16, 4: its last element starts at
    /// 2·16 + 3·4 = 44.
    fn view() -> TensorView {
        TensorView {
            shape: vec![3, 4],
            strides: vec![16, 4],
        }
    }

    /// `tensor_access_native` reads the entry word of the access's element size and kind,
    /// and refuses a space past the table and another rank.
    #[test]
    fn an_access_is_native_where_the_table_admits_it() {
        use super::super::lower_tensor::TensorCheck;
        let b0 = crate::memory::SPACE_BUFFER0;
        let mut spaces = vec![space(0, true, 0); b0 as usize];
        spaces.push(space(48, false, 0x1000));
        spaces.push(space(46, true, 0x2000));
        let table = tensor_table(&[Some(view()), Some(view())], &spaces);
        let native = |space: u32, rank: u8, bytes: u32, write: bool| {
            tensor_access_native(
                &table,
                &TensorCheck {
                    space,
                    rank,
                    bytes,
                    write,
                },
            )
        };
        // The writable 48 bytes: 4-byte elements, read and written; not 8-byte ones.
        assert!(native(b0, 2, 4, false) && native(b0, 2, 4, true));
        assert!(!native(b0, 2, 8, false));
        // The read-only 46 bytes: 2-byte elements read, never written; 4-byte ones not.
        assert!(native(b0 + 1, 2, 2, false) && !native(b0 + 1, 2, 2, true));
        assert!(!native(b0 + 1, 2, 4, false));
        // Another rank than the tensor's, a space with no tensor, a space past the table.
        assert!(!native(b0, 3, 4, false) && !native(b0, 1, 4, false));
        assert!(!native(b0 - 1, 2, 4, false));
        assert!(!native(b0 + 2, 2, 4, false));
    }

    #[test]
    fn tensor_table_admits_accesses_whose_elements_all_fit_in_memory() {
        let b0 = crate::memory::SPACE_BUFFER0 as usize;
        let mut spaces = vec![space(0, true, 0); b0];
        // 48 bytes, writable: 4 bytes from the last element's start on.
        spaces.push(space(48, false, 0x1000));
        // 46 bytes, read-only: 2 bytes.
        spaces.push(space(46, true, 0x2000));
        // Bound, but nine dimensions: more than native code takes.
        spaces.push(space(1 << 20, false, 0x3000));
        let nine = TensorView {
            shape: vec![2; 9],
            strides: vec![4; 9],
        };
        // The fourth tensor's space is past the table.
        let tensors = [Some(view()), Some(view()), Some(nine), Some(view())];
        let table = tensor_table(&tensors, &spaces);
        assert_eq!(table.len(), spaces.len() * TENSOR_WORDS);
        let entry = |s: usize| &table[s * TENSOR_WORDS..(s + 1) * TENSOR_WORDS];
        let access = |s: usize, bytes: u32, write: bool| entry(s)[tensor_access_word(bytes, write)];
        for s in 0..b0 {
            assert_eq!(entry(s), &NO_TENSOR_ENTRY[..], "space {s}");
        }
        let (w, r) = (b0, b0 + 1);
        for s in [w, r] {
            assert_eq!(entry(s)[0], 2);
            assert_eq!(entry(s)[1..3], [3, 4]);
            assert_eq!(
                entry(s)[1 + MAX_NATIVE_TENSOR_RANK..3 + MAX_NATIVE_TENSOR_RANK],
                [16, 4]
            );
        }
        assert_eq!(entry(w)[TENSOR_BASE], 0x1000);
        assert_eq!(entry(r)[TENSOR_BASE], 0x2000);
        for (bytes, fits_w, fits_r) in [
            (1, true, true),
            (2, true, true),
            (4, true, false),
            (8, false, false),
        ] {
            let rank = |fits: bool| if fits { 2 } else { NO_TENSOR };
            assert_eq!(access(w, bytes, false), rank(fits_w), "{bytes} bytes");
            assert_eq!(access(w, bytes, true), rank(fits_w), "{bytes} bytes");
            assert_eq!(access(r, bytes, false), rank(fits_r), "{bytes} bytes");
            // Read-only: never written natively.
            assert_eq!(access(r, bytes, true), NO_TENSOR, "{bytes} bytes");
        }
        assert_eq!(entry(b0 + 2), &NO_TENSOR_ENTRY[..]);
        // The words are distinct, in the entry, and not the rank, sizes, strides or base.
        let mut words: Vec<usize> = [1, 2, 4, 8]
            .iter()
            .flat_map(|&b| [tensor_access_word(b, false), tensor_access_word(b, true)])
            .collect();
        words.push(TENSOR_BASE);
        words.sort_unstable();
        words.dedup();
        assert_eq!(words.len(), 9);
        assert!(words[0] > 2 * MAX_NATIVE_TENSOR_RANK && words[8] < TENSOR_WORDS);
    }
}
