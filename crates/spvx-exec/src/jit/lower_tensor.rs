//! OpTensorReadARM, OpTensorWriteARM and OpTensorQuerySizeARM inline, for tensors bound to the
//! dispatch that the tensor table (`runtime::tensor_table`) describes, with the interpreter's
//! bounds rules (`exec::tensor`): coordinates sign-extended from a signed type's width (so
//! negative ones are outside), element k of a multi-element access at innermost coordinate
//! c + k (outside when that overflows), an element outside the shape reads as the
//! OutOfBoundsValueARM operand (per element for an array) or zero and is not written;
//! booleans are one byte, read as ≠ 0. Nothing is reported either way. Native code tests one
//! entry of the table per access, not the memory's length per element: it accesses a tensor
//! only when the bytes of every element in its shape lie in its memory. Any other operand — a
//! tensor value in private memory, a tensor of another rank than the instruction's, an unbound
//! one, a write to read-only memory, one whose memory ends inside its last element (whose
//! elements past the memory the interpreter reads as outside), a space past the table — goes to
//! the interpreter's implementation (`ext::call_host`).
//!
//! An access to a tensor the whole run names (a constant register naming a buffer, as an
//! `OpLoad` of a tensor variable gives) is tested once per dispatch instead ([`tensor_checks`],
//! checked by `driver` against the dispatch's table: when one fails, the interpreter runs the
//! dispatch): its native code reads the entry at a fixed place and has no slow path, so that
//! the workgroup loop around it carries neither the test's branch nor the call-out's blocks.

use super::lower::{FnLower, I64};
use super::runtime::{
    CTX_NO_TENSOR_ENTRY, CTX_TENSOR_SPACES, CTX_TENSORS, MAX_NATIVE_TENSOR_RANK, TENSOR_BASE,
    TENSOR_WORDS, tensor_access_word,
};
use crate::memory::SPACE_BUFFER0;
use crate::program::{Inst, Program, Scalar, Slot};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{Block, InstBuilder, MemFlagsData, Value};
use std::collections::HashMap;

/// A tensor access whose table entry is tested once per dispatch: the memory space of its
/// tensor, its rank and element size, whether it writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TensorCheck {
    pub space: u32,
    pub rank: u8,
    pub bytes: u32,
    pub write: bool,
}

/// The test of an access of `rank` coordinates to `element`s (writing when `write`) of the
/// tensor in register `tensor`, when it can be made once per dispatch: the register holds one
/// value for the whole run (`constants`, `analysis::run_constants`) naming a buffer's space,
/// and the rank is one native code accesses.
fn checked(
    constants: &HashMap<Slot, u64>,
    tensor: Slot,
    (rank, element): (u8, Scalar),
    write: bool,
) -> Option<TensorCheck> {
    let space = (constants.get(&tensor)? >> 48) as u32;
    (space >= SPACE_BUFFER0 && rank >= 1 && rank as usize <= MAX_NATIVE_TENSOR_RANK).then(|| {
        TensorCheck {
            space,
            rank,
            bytes: crate::exec::tensor::element_bytes(element),
            write,
        }
    })
}

/// The tests the dispatch makes for `prog`'s native code (`constants`: the registers
/// `lower::Shared::run_constants` holds), each once.
pub fn tensor_checks(prog: &Program, constants: &HashMap<Slot, u64>) -> Vec<TensorCheck> {
    let mut checks = Vec::new();
    for inst in prog.functions.iter().flat_map(|f| &f.code) {
        let c = match inst {
            Inst::TensorRead {
                tensor,
                rank,
                element,
                ..
            } => checked(constants, *tensor, (*rank, *element), false),
            Inst::TensorWrite {
                tensor,
                rank,
                element,
                ..
            } => checked(constants, *tensor, (*rank, *element), true),
            _ => None,
        };
        if let Some(c) = c.filter(|c| !checks.contains(c)) {
            checks.push(c);
        }
    }
    checks
}

/// How an access reaches its tensor's table entry: at the fixed place of a space the dispatch
/// tested (`checked`), or through the register's space with a test that goes to the slow
/// path (cold: the interpreter's implementation) when it fails.
#[derive(Clone, Copy)]
enum Route {
    Tested(u32),
    Slow(Block),
}

/// Where a tensor access goes: its memory's first byte, its sizes and strides.
struct Bound {
    base: Value,
    shape: Vec<Value>,
    strides: Vec<Value>,
}

impl FnLower<'_, '_, '_> {
    /// The address of the tensor table entry (`runtime::tensor_table`) of the space of the
    /// tensor in register `tensor`: `NO_TENSOR_ENTRY` for a space past the table, so that every
    /// load from it is safe wherever Cranelift moves it.
    fn tensor_entry(&mut self, tensor: Slot) -> Value {
        let flags = super::runtime::invariant();
        let p = self.val(tensor);
        let space = self.b.ins().ushr_imm_s(p, 48);
        let spaces = self.b.ins().load(I64, flags, self.ctx, CTX_TENSOR_SPACES);
        let inside = self.b.ins().icmp(IntCC::UnsignedLessThan, space, spaces);
        let table = self.b.ins().load(I64, flags, self.ctx, CTX_TENSORS);
        let at = self.b.ins().imul_imm_s(space, (TENSOR_WORDS * 8) as i64);
        let entry = self.b.ins().iadd(table, at);
        let none = self.b.ins().load(I64, flags, self.ctx, CTX_NO_TENSOR_ENTRY);
        self.b.ins().select(inside, entry, none)
    }

    /// The bound tensor in register `tensor` when native code may access elements of `bytes`
    /// bytes of it with `rank` coordinates (writing, when `write`), reached by `route`: for
    /// `Route::Slow`, one test of the entry (`tensor_access_word`), after which an element lies
    /// in memory wherever its coordinates lie in the shape, else a branch to the slow path;
    /// for `Route::Tested`, the entry of a space the dispatch tested, read with no test.
    /// Leaves the builder in the fast block.
    fn bound_tensor(
        &mut self,
        tensor: Slot,
        (rank, bytes): (u8, u32),
        write: bool,
        route: Route,
    ) -> Bound {
        let flags = super::runtime::invariant();
        let word = |w: usize| (w * 8) as i32;
        let entry = match route {
            Route::Tested(space) => {
                let table = self.b.ins().load(I64, flags, self.ctx, CTX_TENSORS);
                self.b
                    .ins()
                    .iadd_imm_s(table, (space as usize * TENSOR_WORDS * 8) as i64)
            }
            Route::Slow(slow) => {
                let entry = self.tensor_entry(tensor);
                let r =
                    self.b
                        .ins()
                        .load(I64, flags, entry, word(tensor_access_word(bytes, write)));
                let ok = self.b.ins().icmp_imm_s(IntCC::Equal, r, rank as i64);
                let cont = self.b.create_block();
                self.b.ins().brif(ok, cont, &[], slow, &[]);
                self.b.switch_to_block(cont);
                entry
            }
        };
        let base = self.b.ins().load(I64, flags, entry, word(TENSOR_BASE));
        let shape = (0..rank as usize)
            .map(|d| self.b.ins().load(I64, flags, entry, word(1 + d)))
            .collect();
        let strides = (0..rank as usize)
            .map(|d| {
                self.b
                    .ins()
                    .load(I64, flags, entry, word(1 + MAX_NATIVE_TENSOR_RANK + d))
            })
            .collect();
        Bound {
            base,
            shape,
            strides,
        }
    }

    /// Goes to `slow` when `cond` is set, else on in a new block.
    fn branch_slow(&mut self, cond: Value, slow: Block) {
        let cont = self.b.create_block();
        self.b.ins().brif(cond, slow, &[], cont, &[]);
        self.b.switch_to_block(cont);
    }

    /// The coordinates in `coords..coords + rank`, sign-extended from `bits`.
    fn coordinates(&mut self, coords: Slot, rank: u8, bits: u8) -> Vec<Value> {
        (0..rank as u32)
            .map(|d| {
                let c = self.val(coords + d);
                self.sext(c, bits as u32)
            })
            .collect()
    }

    /// Whether element `k` (along the innermost dimension) of an access at `coords` lies in
    /// the tensor, and the host address of its first byte (only meaningful when it does). Its
    /// bytes then lie in memory (`bound_tensor` tested the room). Element k is at innermost
    /// coordinate c + k: inside when c < size − k, none when the size is at most k (which also
    /// keeps c + k from wrapping), at k innermost strides past element 0 — so the elements of
    /// an array access share element 0's products and sums (Cranelift merges them) and each
    /// adds one compare and one addition.
    fn element(&mut self, t: &Bound, coords: &[Value], k: u32) -> (Value, Value) {
        let last = coords.len() - 1;
        let mut ok = self.b.ins().iconst(cranelift_codegen::ir::types::I8, 1);
        let mut addr = t.base;
        for (d, &c) in coords.iter().enumerate() {
            let inside = self.b.ins().icmp(IntCC::UnsignedLessThan, c, t.shape[d]);
            if d < last || k == 0 {
                ok = self.b.ins().band(ok, inside);
            }
            let step = self.b.ins().imul(c, t.strides[d]);
            // In the shape, the offset is below 2^62 (`tensor_table`): no overflow here.
            addr = self.b.ins().iadd(addr, step);
        }
        if k == 0 {
            return (ok, addr);
        }
        let size = t.shape[last];
        let more = self
            .b
            .ins()
            .icmp_imm_s(IntCC::UnsignedGreaterThan, size, k as i64);
        let less = self.b.ins().iadd_imm_s(size, -(k as i64));
        let zero = self.b.ins().iconst(I64, 0);
        let limit = self.b.ins().select(more, less, zero);
        let inside = self
            .b
            .ins()
            .icmp(IntCC::UnsignedLessThan, coords[last], limit);
        let ok = self.b.ins().band(ok, inside);
        let past = self.b.ins().imul_imm_s(t.strides[last], k as i64);
        (ok, self.b.ins().iadd(addr, past))
    }

    /// Stores the low `bytes` bytes of `v` at `addr`, little-endian.
    fn store_bytes(&mut self, v: Value, addr: Value, bytes: u32) {
        let flags = MemFlagsData::new().with_notrap();
        match bytes {
            1 => self.b.ins().istore8(flags, v, addr, 0),
            2 => self.b.ins().istore16(flags, v, addr, 0),
            4 => self.b.ins().istore32(flags, v, addr, 0),
            _ => self.b.ins().store(flags, v, addr, 0),
        };
    }

    /// Loads `bytes` little-endian bytes at `addr`, zero-extended.
    fn load_bytes(&mut self, addr: Value, bytes: u32) -> Value {
        let flags = MemFlagsData::new().with_notrap();
        match bytes {
            1 => self.b.ins().uload8(I64, flags, addr, 0),
            2 => self.b.ins().uload16(I64, flags, addr, 0),
            4 => self.b.ins().uload32(flags, addr, 0),
            _ => self.b.ins().load(I64, flags, addr, 0),
        }
    }

    /// An access's route to its tensor (`Route`) and the block after it.
    fn route(
        &mut self,
        tensor: Slot,
        (rank, element): (u8, Scalar),
        write: bool,
    ) -> (Route, Block) {
        let route = match checked(&self.shared.run_constants, tensor, (rank, element), write) {
            Some(c) => Route::Tested(c.space),
            None => {
                let slow = self.b.create_block();
                self.b.set_cold_block(slow);
                Route::Slow(slow)
            }
        };
        (route, self.b.create_block())
    }

    /// An access of rank 0: always the slow path (`checked` tests none per dispatch).
    fn rank_zero(&mut self, route: Route) {
        match route {
            Route::Slow(slow) => {
                self.b.ins().jump(slow, &[]);
            }
            Route::Tested(_) => {
                unreachable!("checked: an access of rank 0 is not tested per dispatch")
            }
        }
    }

    /// Lowers the slow path of a `Route::Slow` access (the interpreter's implementation), then
    /// goes on at `join`.
    fn finish_slow(&mut self, route: Route, join: Block, (reads, writes): (&[Slot], &[Slot])) {
        if let Route::Slow(slow) = route {
            self.b.switch_to_block(slow);
            self.call_host(reads, writes);
            self.b.ins().jump(join, &[]);
        }
        self.b.switch_to_block(join);
    }

    /// OpTensorReadARM.
    pub fn tensor_read(
        &mut self,
        (dst, tensor, coords): (Slot, Slot, Slot),
        (rank, coord_bits, count): (u8, u8, u32),
        element: Scalar,
        oob: Option<(Slot, bool)>,
        (reads, writes): (&[Slot], &[Slot]),
    ) {
        let bytes = crate::exec::tensor::element_bytes(element);
        let (route, join) = self.route(tensor, (rank, element), false);
        if rank == 0 {
            self.rank_zero(route);
        } else {
            let t = self.bound_tensor(tensor, (rank, bytes), false, route);
            let cs = self.coordinates(coords, rank, coord_bits);
            // An element outside its tensor is "read" from the context's first eight bytes
            // instead (any readable address: the value is then replaced by the out-of-bounds
            // one), so that reads need no branch and no register of their own.
            let anywhere = self.ctx;
            let mut values = Vec::with_capacity(count as usize);
            for k in 0..count {
                let (ok, addr) = self.element(&t, &cs, k);
                let from = self.b.ins().select(ok, addr, anywhere);
                let v = self.load_bytes(from, bytes);
                let v = if element == Scalar::Bool {
                    let c = self.b.ins().icmp_imm_s(IntCC::NotEqual, v, 0);
                    self.b.ins().uextend(I64, c)
                } else {
                    v
                };
                let outside = match oob {
                    Some((s, true)) => self.val(s + k),
                    Some((s, false)) => self.val(s),
                    None => self.b.ins().iconst(I64, 0),
                };
                values.push(self.b.ins().select(ok, v, outside));
            }
            for (k, v) in values.into_iter().enumerate() {
                self.set(dst + k as u32, v);
            }
            self.b.ins().jump(join, &[]);
        }
        self.finish_slow(route, join, (reads, writes));
    }

    /// OpTensorWriteARM.
    pub fn tensor_write(
        &mut self,
        (tensor, coords, src): (Slot, Slot, Slot),
        (rank, coord_bits, count): (u8, u8, u32),
        element: Scalar,
        (reads, writes): (&[Slot], &[Slot]),
    ) {
        let bytes = crate::exec::tensor::element_bytes(element);
        let (route, join) = self.route(tensor, (rank, element), true);
        if rank == 0 {
            self.rank_zero(route);
        } else {
            let t = self.bound_tensor(tensor, (rank, bytes), true, route);
            let cs = self.coordinates(coords, rank, coord_bits);
            let elements: Vec<(Value, Value, Value)> = (0..count)
                .map(|k| {
                    let (ok, addr) = self.element(&t, &cs, k);
                    (ok, addr, self.val(src + k))
                })
                .collect();
            // An array whose elements all lie inside (the usual case) is written with one
            // test; otherwise (a cold block) each element is tested.
            if count > 1 {
                let all = elements
                    .iter()
                    .map(|e| e.0)
                    .reduce(|a, b| self.b.ins().band(a, b))
                    .expect("count > 1");
                let (whole, each) = (self.b.create_block(), self.b.create_block());
                self.b.set_cold_block(each);
                self.b.ins().brif(all, whole, &[], each, &[]);
                self.b.switch_to_block(whole);
                for &(_, addr, v) in &elements {
                    self.store_bytes(v, addr, bytes);
                }
                self.b.ins().jump(join, &[]);
                self.b.switch_to_block(each);
            }
            for &(ok, addr, v) in &elements {
                let (store, next) = (self.b.create_block(), self.b.create_block());
                self.b.ins().brif(ok, store, &[], next, &[]);
                self.b.switch_to_block(store);
                self.store_bytes(v, addr, bytes);
                self.b.ins().jump(next, &[]);
                self.b.switch_to_block(next);
            }
            self.b.ins().jump(join, &[]);
        }
        self.finish_slow(route, join, (reads, writes));
    }

    /// OpTensorQuerySizeARM: the size of dimension `dim` of the tensor, reduced to `bits`.
    pub fn tensor_size(
        &mut self,
        dst: Slot,
        tensor: Slot,
        dim: u32,
        bits: u8,
        (reads, writes): (&[Slot], &[Slot]),
    ) {
        let (slow, join) = (self.b.create_block(), self.b.create_block());
        self.b.set_cold_block(slow);
        let flags = super::runtime::invariant();
        if dim as usize >= MAX_NATIVE_TENSOR_RANK {
            self.b.ins().jump(slow, &[]);
        } else {
            let desc = self.tensor_entry(tensor);
            let rank = self.b.ins().load(I64, flags, desc, 0);
            let none =
                self.b
                    .ins()
                    .icmp_imm_s(IntCC::Equal, rank, super::runtime::NO_TENSOR as i64);
            self.branch_slow(none, slow);
            // A dimension past the rank is 0, as in `exec::tensor::size`.
            let n = self.b.ins().load(I64, flags, desc, ((1 + dim) * 8) as i32);
            let has = self
                .b
                .ins()
                .icmp_imm_s(IntCC::UnsignedGreaterThan, rank, dim as i64);
            let zero = self.b.ins().iconst(I64, 0);
            let n = self.b.ins().select(has, n, zero);
            let n = self.mask(n, bits as u32);
            self.set(dst, n);
            self.b.ins().jump(join, &[]);
        }
        self.b.switch_to_block(slow);
        self.call_host(reads, writes);
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jit::{analysis, build};

    /// `tensor_checks` of the module `text`, with the constants the JIT's build finds.
    fn checks_of(text: &str) -> Vec<TensorCheck> {
        let bytes = spvx_spirv::asm::assemble(text, &Default::default())
            .unwrap_or_else(|e| panic!("{e}"))
            .bytes();
        let m = crate::CompiledModule::from_bytes(&bytes, "main", &Default::default())
            .unwrap_or_else(|e| panic!("{e}"));
        let prog = m.program();
        let constants = build::constants(prog, &analysis::variables(prog, true));
        tensor_checks(prog, &analysis::run_constants(prog, &constants))
    }

    /// The transpose loads each tensor variable once (`OpLoad`, compiled to a copy of the
    /// variable's constant pointer): its read of T (binding 0, space 3) and write of U
    /// (binding 1, space 4) are tested per dispatch.
    #[test]
    fn accesses_to_a_loaded_tensor_variable_are_tested_per_dispatch() {
        let checks = checks_of(include_str!("../../../../bench/tensor_transpose.spvasm"));
        let b0 = SPACE_BUFFER0;
        assert_eq!(
            checks,
            [
                TensorCheck {
                    space: b0,
                    rank: 2,
                    bytes: 4,
                    write: false
                },
                TensorCheck {
                    space: b0 + 1,
                    rank: 2,
                    bytes: 4,
                    write: true
                }
            ]
        );
    }

    /// An element of an array of tensors picked with a run-time index is not known at compile
    /// time: its accesses keep their own tests.
    #[test]
    fn accesses_through_an_array_of_tensors_are_tested_per_access() {
        let checks = checks_of(include_str!("../../tests/corpus/tensor_array.spvasm"));
        assert_eq!(checks, []);
    }
}
