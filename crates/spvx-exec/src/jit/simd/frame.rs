//! The vector-lanes function's own memory, its frame: one stack slot holding the scratch bytes
//! where inactive lanes' loads and stores go, the memory spaces' bases, lengths and read-only
//! flags (copied from the space table at entry), the refill cursor (`Cursor`) and the pool of
//! vector constants and per-call index limits (`PoolEntry`: stored once before the first
//! sweep, loaded where used), each at a fixed offset from one address. Held in registers
//! instead, Cranelift hoisted the constants and the slots' addresses to the function's entry,
//! where they stayed live through every loop and the register allocator stored and reloaded
//! some of them on every iteration of loops that do not use them.

use super::lower::{I32X4, I64, I64X2, VLower};
use crate::jit::runtime::{CTX_SPACE_COUNT, CTX_SPACES};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{ConstantData, InstBuilder, MemFlagsData, Value, types};
use std::collections::HashMap;

/// Where the frame's parts start: the scratch bytes at 0 (16 bytes), then each memory space's
/// base, length and read-only flag (24 bytes each), the cursor (16-byte aligned), then the
/// pool (16 bytes per entry; the slot is sized when every entry is known, `fill_pool`).
pub(super) struct Layout {
    pub spaces: HashMap<u32, i32>,
    pub cursor_at: i32,
    pub pool_at: i32,
}

impl Layout {
    /// The layout for the memory spaces `spaces` (each once).
    pub fn new(spaces: Vec<u32>) -> Layout {
        let spaces: HashMap<u32, i32> = spaces
            .into_iter()
            .enumerate()
            .map(|(i, s)| (s, 16 + 24 * i as i32))
            .collect();
        let cursor_at = (16 + 24 * spaces.len() as u32).next_multiple_of(16) as i32;
        Layout {
            spaces,
            cursor_at,
            pool_at: cursor_at + 8 * Cursor::WORDS as i32,
        }
    }
}

/// What a pool entry holds.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum PoolEntry {
    /// A vector constant: its type and bytes.
    Const(types::Type, [u8; 16]),
    /// In every 32-bit lane, how many elements of `2^shift` bytes fit from byte `first` of
    /// memory space `space` when each one's leaf takes `bytes` bytes from its start: the
    /// indices `i` for which `first + i · 2^shift + bytes` is at most the space's length,
    /// counted up to 2^31 (an `i32x4` of `⌊(length − first − bytes) / 2^shift⌋ + 1`, clamped
    /// to 0..=2^31). Computed once per call: the spaces do not change during one.
    IndexLimit {
        space: u32,
        first: i64,
        bytes: u32,
        shift: u32,
    },
}

impl VLower<'_, '_, '_> {
    /// The vector constant of type `ty` with bytes `bytes` (little-endian lanes): loaded from
    /// the constant pool once the entry block is done (`pool`), else made in place.
    pub fn vconst(&mut self, ty: types::Type, bytes: [u8; 16]) -> Value {
        if !self.pooling {
            let c = self
                .b
                .func
                .dfg
                .constants
                .insert(ConstantData::from(&bytes[..]));
            return self.b.ins().vconst(ty, c);
        }
        self.pool_load(PoolEntry::Const(ty, bytes), ty)
    }

    /// [`PoolEntry::IndexLimit`] of the arguments (an `i32x4`), loaded from the pool; `None`
    /// in the entry block, before the pool.
    pub fn index_limit(&mut self, space: u32, first: i64, bytes: u32, shift: u32) -> Option<Value> {
        let e = PoolEntry::IndexLimit {
            space,
            first,
            bytes,
            shift,
        };
        self.pooling.then(|| self.pool_load(e, I32X4))
    }

    /// Pool entry `e`, loaded as type `ty` (added to the pool when new).
    fn pool_load(&mut self, e: PoolEntry, ty: types::Type) -> Value {
        let k = match self.pool.iter().position(|x| *x == e) {
            Some(k) => k,
            None => {
                self.pool.push(e);
                self.pool.len() - 1
            }
        };
        let at = self.pool_at + 16 * k as i32;
        self.b
            .ins()
            .load(ty, MemFlagsData::trusted(), self.frame, at)
    }

    /// Fills the `setup` block, between the entry block and the first sweep: the pool's
    /// constants stored into its stack slot.
    pub(super) fn fill_pool(&mut self) {
        self.b.switch_to_block(self.setup);
        self.pooling = false;
        for (k, e) in self.pool.clone().into_iter().enumerate() {
            let v = match e {
                PoolEntry::Const(ty, bytes) => self.vconst(ty, bytes),
                PoolEntry::IndexLimit {
                    space,
                    first,
                    bytes,
                    shift,
                } => self.make_index_limit(space, first, bytes, shift),
            };
            let at = self.pool_at + 16 * k as i32;
            self.b
                .ins()
                .store(MemFlagsData::trusted(), v, self.frame, at);
        }
        let size = self.pool_at as u32 + 16 * self.pool.len() as u32;
        self.b.func.sized_stack_slots[self.frame_slot].size = size;
        self.b.ins().jump(self.top, &[]);
    }

    /// Computes [`PoolEntry::IndexLimit`] (in the `setup` block). `first` is below 2^49 (a
    /// pointer's offset plus a chain's and a leaf's) and a space's length below 2^48: nothing
    /// wraps.
    fn make_index_limit(&mut self, space: u32, first: i64, bytes: u32, shift: u32) -> Value {
        let (_, len) = self.space(space);
        let room = self.b.ins().iadd_imm_s(len, -(first + i64::from(bytes)));
        let fit = self.b.ins().sshr_imm_s(room, i64::from(shift));
        let fit = self.b.ins().iadd_imm_s(fit, 1);
        let zero = self.b.ins().iconst(I64, 0);
        let fit = self.b.ins().smax(fit, zero);
        let most = self.b.ins().iconst(I64, 1 << 31);
        let fit = self.b.ins().smin(fit, most);
        let fit = self.b.ins().ireduce(types::I32, fit);
        self.b.ins().splat(I32X4, fit)
    }

    /// Word `at` of the cursor.
    pub(super) fn cursor(&mut self, at: i32) -> Value {
        let t = MemFlagsData::trusted();
        self.b
            .ins()
            .load(I64, t, self.frame, self.cursor_at + 8 * at)
    }

    pub(super) fn set_cursor(&mut self, at: i32, v: Value) {
        let t = MemFlagsData::trusted();
        self.b
            .ins()
            .store(t, v, self.frame, self.cursor_at + 8 * at);
    }

    /// Whether invocations are left that no lane has taken yet.
    pub(super) fn invocations_left(&mut self) -> Value {
        let next = self.cursor(Cursor::NEXT);
        let all = self.cursor(Cursor::INVOCATIONS);
        self.b.ins().icmp(IntCC::UnsignedLessThan, next, all)
    }

    /// Copies the base, length and read-only flag of each space the function uses from the
    /// space table (a space past the table: the null space, every access out of bounds) to
    /// the stack slot `space` reads.
    pub(super) fn copy_spaces(&mut self) {
        let t = MemFlagsData::trusted();
        let table = self.b.ins().load(I64, t, self.ctx, CTX_SPACES);
        let count = self.b.ins().load(I64, t, self.ctx, CTX_SPACE_COUNT);
        let mut spaces: Vec<(u32, i32)> = self.spaces.iter().map(|(s, o)| (*s, *o)).collect();
        spaces.sort_unstable();
        for (space, at) in spaces {
            let v = crate::jit::lower::load_space(self.b, t, (table, count), space);
            for (i, x) in [v.0, v.1, v.2].into_iter().enumerate() {
                self.b.ins().store(t, x, self.frame, at + 8 * i as i32);
            }
        }
    }

    /// The base and length of memory space `space`, loaded from the stack where they are
    /// used: kept in registers from the start, they lived through every loop, and the
    /// register allocator moved them to and from the stack around the loops that do not use
    /// them.
    pub fn space(&mut self, space: u32) -> (Value, Value) {
        let at = self.spaces[&space];
        let t = MemFlagsData::trusted();
        let [base, len] = [0, 8].map(|o| self.b.ins().load(I64, t, self.frame, at + o));
        (base, len)
    }

    /// The read-only flag of memory space `space` (loaded as [`space`](Self::space) loads).
    pub fn space_read_only(&mut self, space: u32) -> Value {
        let at = self.spaces[&space];
        self.b
            .ins()
            .load(I64, MemFlagsData::trusted(), self.frame, at + 16)
    }

    /// `x` in every 32-bit lane (from the pool).
    pub fn splat_i32(&mut self, x: i64) -> Value {
        self.splat_bits32(I32X4, x as u32)
    }

    /// A vector of type `ty` with `bits` in every 32-bit lane (from the pool).
    pub fn splat_bits32(&mut self, ty: types::Type, bits: u32) -> Value {
        let lane = bits.to_le_bytes();
        self.vconst(ty, std::array::from_fn(|i| lane[i % 4]))
    }

    /// `x` in every 64-bit lane (from the pool).
    pub fn splat_i64(&mut self, x: i64) -> Value {
        let lane = x.to_le_bytes();
        self.vconst(I64X2, std::array::from_fn(|i| lane[i % 8]))
    }
}

/// The words of the cursor's stack slot (`VLower::cursor`): the invocations of the call's
/// workgroups (consecutive in x), the next one not yet given to a lane (counting through all
/// of them), and that invocation's LocalInvocationIndex, LocalInvocationId (three words),
/// WorkgroupId.x and first GlobalInvocationId.x in its workgroup.
pub(super) struct Cursor;

impl Cursor {
    pub const NEXT: i32 = 0;
    pub const INDEX: i32 = 1;
    pub const LOCAL: i32 = 2;
    pub const WG_X: i32 = 5;
    pub const BASE_X: i32 = 6;
    pub const INVOCATIONS: i32 = 7;
    pub const WORDS: u32 = 8;
}
