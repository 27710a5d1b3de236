//! The vector-lanes function's own memory, its frame: one stack slot holding the scratch bytes
//! where inactive lanes' loads and stores go, the memory spaces' bases, lengths and read-only
//! flags (copied from the space table at entry), the refill cursor (`Cursor`) and the pool of
//! vector constants (stored once before the first sweep, loaded where used), each at a fixed
//! offset from one address. Held in registers instead, Cranelift hoisted the constants and the
//! slots' addresses to the function's entry, where they stayed live through every loop and
//! the register allocator stored and reloaded some of them on every iteration of loops that
//! do not use them.

use super::lower::{I32X4, I64, I64X2, VLower};
use crate::jit::runtime::{CTX_SPACE_COUNT, CTX_SPACES};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{ConstantData, InstBuilder, MemFlagsData, Value, types};
use std::collections::HashMap;

/// Where the frame's parts start: the scratch bytes at 0 (16 bytes), then each memory space's
/// base, length and read-only flag (24 bytes each), the cursor (16-byte aligned), then the
/// constant pool (16 bytes per constant; the slot is sized when every constant is known,
/// `fill_pool`).
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
        let k = match self.pool.iter().position(|e| *e == (ty, bytes)) {
            Some(k) => k,
            None => {
                self.pool.push((ty, bytes));
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
        for (k, (ty, bytes)) in self.pool.clone().into_iter().enumerate() {
            let v = self.vconst(ty, bytes);
            let at = self.pool_at + 16 * k as i32;
            self.b
                .ins()
                .store(MemFlagsData::trusted(), v, self.frame, at);
        }
        let size = self.pool_at as u32 + 16 * self.pool.len() as u32;
        self.b.func.sized_stack_slots[self.frame_slot].size = size;
        self.b.ins().jump(self.top, &[]);
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
        let lane = (x as u32).to_le_bytes();
        self.vconst(I32X4, std::array::from_fn(|i| lane[i % 4]))
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
