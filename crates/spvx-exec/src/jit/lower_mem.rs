//! Native lowering of access chains, loads and stores. A pointer is the engine's `Ptr`: memory
//! space in the top 16 bits, byte offset (modulo 2^48) below. Every access is bounds-checked
//! against its memory object as `exec::memory` checks it; where that would report (out of
//! bounds, read-only, an index outside its array) the native code bails.

use super::lower::FnLower;
use super::runtime::{SPACE_BASE, SPACE_LEN, SPACE_READ_ONLY, SPACE_SIZE};
use crate::program::{ChainStep, Leaf, Scalar, Slot};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{InstBuilder, MemFlagsData, Value, types};

const I64: types::Type = types::I64;
const OFFSET_MASK: i64 = (1 << 48) - 1;

impl FnLower<'_, '_, '_> {
    /// `dst = base + offset + Σ index × stride` (offset modulo 2^48, space kept). When the
    /// space is known at compile time it is a constant, and the offset is remembered for the
    /// loads and stores through the result (`offset_of`).
    pub fn access_chain(&mut self, dst: Slot, base: Slot, offset: u32, steps: &[ChainStep]) {
        let p = self.val(base);
        let space = match self.known.get(&dst) {
            Some(&s) => self.b.ins().iconst(I64, (s as i64) << 48),
            None => self.b.ins().band_imm_s(p, !OFFSET_MASK),
        };
        let base_off = self.offset_of(p);
        let mut off = self.b.ins().iadd_imm_s(base_off, offset as i64);
        for s in steps {
            let raw = self.val(s.index);
            let i = self.sext(raw, s.index_bits as u32);
            if let Some(len) = s.length {
                // An index outside its array is reported by the interpreter (negative ones
                // compare as huge unsigned values).
                let out = self
                    .b
                    .ins()
                    .icmp_imm_s(IntCC::UnsignedGreaterThanOrEqual, i, len as i64);
                self.bail_if(out);
            }
            let step = self.b.ins().imul_imm_s(i, s.stride as i64);
            off = self.b.ins().iadd(off, step);
        }
        let off = self.b.ins().band_imm_s(off, OFFSET_MASK);
        let r = self.b.ins().bor(space, off);
        self.offsets.insert(r, off);
        self.set(dst, r);
    }

    /// The byte offset (below 2^48) of pointer value `p`: remembered when an access chain of
    /// this function computed `p` (a value that is available wherever `p` is), else extracted.
    fn offset_of(&mut self, p: Value) -> Value {
        match self.offsets.get(&p) {
            Some(off) => *off,
            None => self.b.ins().band_imm_s(p, OFFSET_MASK),
        }
    }

    /// The (base address, length, read-only flag) of the memory object `p` (the value of
    /// register `slot`) points into: loaded at function entry when its space is known, else
    /// looked up in the space table (a space past the table bails).
    fn object(&mut self, slot: Slot, p: Value) -> (Value, Value, Value) {
        if let Some(&(base, len, ro)) = self.known.get(&slot).and_then(|s| self.hoisted.get(s)) {
            return (base, len, ro);
        }
        let space = self.b.ins().ushr_imm_s(p, 48);
        let past = self
            .b
            .ins()
            .icmp(IntCC::UnsignedGreaterThanOrEqual, space, self.space_count);
        self.bail_if(past);
        let at = self.b.ins().imul_imm_s(space, SPACE_SIZE);
        let at = self.b.ins().iadd(self.table, at);
        let t = MemFlagsData::trusted();
        let base = self.b.ins().load(I64, t, at, SPACE_BASE);
        let len = self.b.ins().load(I64, t, at, SPACE_LEN);
        let ro = self.b.ins().load(I64, t, at, SPACE_READ_ONLY);
        (base, len, ro)
    }

    /// The host address of `leaf` at the offset `off` of a pointer, after checking that its
    /// bytes lie inside an object of `len` bytes.
    fn leaf_address(&mut self, base: Value, len: Value, off: Value, leaf: &Leaf) -> Value {
        // (`off` is below 2^48 already.)
        let at = if leaf.offset == 0 {
            off
        } else {
            let at = self.b.ins().iadd_imm_s(off, leaf.offset as i64);
            self.b.ins().band_imm_s(at, OFFSET_MASK)
        };
        // The address before the check, so that `at` is needed in this block only (Cranelift
        // recomputes a masked value in every block that uses it).
        let addr = self.b.ins().iadd(base, at);
        let end = self.b.ins().iadd_imm_s(at, leaf.scalar.mem_bytes() as i64);
        let out = self.b.ins().icmp(IntCC::UnsignedGreaterThan, end, len);
        self.bail_if(out);
        addr
    }

    /// Loads the leaves of a value: each `mem_bytes` little-endian bytes, zero-extended;
    /// booleans are `≠ 0`.
    pub fn load(&mut self, dst: Slot, ptr: Slot, leaves: &[Leaf]) {
        let p = self.val(ptr);
        let (base, len, _) = self.object(ptr, p);
        let off = self.offset_of(p);
        let flags = MemFlagsData::new().with_notrap();
        for leaf in leaves {
            let addr = self.leaf_address(base, len, off, leaf);
            let v = match leaf.scalar.mem_bytes() {
                1 => self.b.ins().uload8(I64, flags, addr, 0),
                2 => self.b.ins().uload16(I64, flags, addr, 0),
                4 => self.b.ins().uload32(flags, addr, 0),
                _ => self.b.ins().load(I64, flags, addr, 0),
            };
            let v = if leaf.scalar == Scalar::Bool {
                let c = self.b.ins().icmp_imm_s(IntCC::NotEqual, v, 0);
                self.b.ins().uextend(I64, c)
            } else {
                v
            };
            self.set(dst + leaf.slot, v);
        }
    }

    /// Stores the leaves of a value: the low `mem_bytes` bytes of each register.
    pub fn store(&mut self, ptr: Slot, src: Slot, leaves: &[Leaf]) {
        let p = self.val(ptr);
        let (base, len, ro) = self.object(ptr, p);
        // A store into a uniform buffer or push constants is reported by the interpreter.
        self.bail_if(ro);
        let off = self.offset_of(p);
        let flags = MemFlagsData::new().with_notrap();
        for leaf in leaves {
            let addr = self.leaf_address(base, len, off, leaf);
            let v = self.val(src + leaf.slot);
            match leaf.scalar.mem_bytes() {
                1 => self.b.ins().istore8(flags, v, addr, 0),
                2 => self.b.ins().istore16(flags, v, addr, 0),
                4 => self.b.ins().istore32(flags, v, addr, 0),
                _ => self.b.ins().store(flags, v, addr, 0),
            };
        }
    }
}
