//! The vector-lanes lowering of access chains, loads and stores. A pointer register holds each
//! lane's byte offset (modulo 2^48) into the memory space `analysis::plan` found for it.
//! Bounds are checked on whole vectors as `lower_mem` checks them per invocation (an active
//! lane out of bounds, or a store into read-only memory, bails); then each lane's access runs
//! as a scalar load or store, in lane order, an inactive lane's redirected to a scratch slot
//! on the native stack (a gather and a scatter). In a segment's all-lanes version a load
//! first tests how the lanes' offsets lie: all the same (one load, splatted) or one leaf after
//! another in lane order (whole-vector loads and stores); the bounds check is then the same
//! test on the span the lanes cover.

use super::analysis::Kind;
use super::lower::{H, HALVES, I32, I32X4, I64, I64X2, P, Q, QUARTERS, V, VLower};
use super::pattern::Lanes;
use crate::program::{ChainStep, Leaf, Scalar, Slot};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{Block, Endianness, InstBuilder, MemFlagsData, Value};

const OFFSET_MASK: i64 = (1 << 48) - 1;

impl VLower<'_, '_, '_> {
    /// A pointer register's space and offsets (a constant pointer's splatted).
    fn pointer(&mut self, s: Slot) -> (u32, P) {
        match self.plan.kind(s) {
            Kind::Const(p) => {
                let v = self.splat_i64((p & OFFSET_MASK as u64) as i64);
                ((p >> 48) as u32, [v; Q])
            }
            Kind::Ptr(space) => {
                let vars = self.ptrs[&s];
                (space, vars.map(|v| self.b.use_var(v)))
            }
            Kind::Narrow => unreachable!("analysis::plan: a pointer operand is a pointer"),
        }
    }

    /// A 32-bit mask pair as four 64-bit masks.
    fn wide_masks(&mut self, m: V) -> P {
        QUARTERS.map(|q| {
            if q % 2 == 0 {
                self.b.ins().swiden_low(m[q / 2])
            } else {
                self.b.ins().swiden_high(m[q / 2])
            }
        })
    }

    /// Bails when an active lane has `cond` (64-bit masks) set.
    fn bail_any_wide(&mut self, cond: P) {
        let c = match self.act() {
            Some(a) => {
                let w = self.wide_masks(a);
                QUARTERS.map(|q| self.b.ins().band(cond[q], w[q]))
            }
            None => cond,
        };
        let z = self.or_all(&c);
        let any = self.b.ins().vany_true(z);
        let cont = self.b.create_block();
        self.b.ins().brif(any, self.bail, &[], cont, &[]);
        self.b.switch_to_block(cont);
    }

    /// `dst = base + offset + Σ index × stride` per lane (offset modulo 2^48); an index outside
    /// its array in an active lane bails.
    pub fn access_chain(&mut self, dst: Slot, base: Slot, offset: u32, steps: &[ChainStep]) {
        self.chains.remove(&dst);
        if let (Kind::Const(p), [step], None) = (self.plan.kind(base), steps, &self.overlay) {
            let chain = Chain {
                offset: (p as i64 & OFFSET_MASK) + i64::from(offset),
                index: self.get(step.index),
                bits: u32::from(step.index_bits),
                stride: step.stride,
            };
            self.chains.insert(dst, chain);
        }
        let (_, p) = self.pointer(base);
        let o = self.splat_i64(offset as i64);
        let mut off = p.map(|x| self.b.ins().iadd(x, o));
        for s in steps {
            let raw = self.get(s.index);
            let i = self.vsext(raw, s.index_bits as u32);
            let wide = self.wide_masks(i);
            if let Some(len) = s.length {
                // Negative indices compare as huge unsigned values.
                let l = self.splat_i64(len as i64);
                let out = wide.map(|x| self.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, x, l));
                self.bail_any_wide(out);
            }
            for q in QUARTERS {
                // (A power-of-two stride, the common case, as a shift: x86 has no 64-bit lane
                // multiplication before AVX-512.)
                let step = if s.stride.is_power_of_two() {
                    let k = s.stride.trailing_zeros() as i64;
                    self.b.ins().ishl_imm_s(wide[q], k)
                } else {
                    let stride = self.splat_i64(s.stride as i64);
                    self.b.ins().imul(wide[q], stride)
                };
                off[q] = self.b.ins().iadd(off[q], step);
            }
        }
        let m = self.splat_i64(OFFSET_MASK);
        let off = off.map(|x| self.b.ins().band(x, m));
        self.put_ptr(dst, off);
    }

    fn put_ptr(&mut self, s: Slot, v: P) {
        let vars = self.ptrs[&s];
        let v = match self.act() {
            Some(a) if self.guarded.contains(&s) => {
                let w = self.wide_masks(a);
                let old = vars.map(|x| self.b.use_var(x));
                QUARTERS.map(|q| self.b.ins().bitselect(w[q], v[q], old[q]))
            }
            _ => v,
        };
        for q in QUARTERS {
            self.b.def_var(vars[q], v[q]);
        }
    }

    /// Each lane's offset of `leaf` through a pointer with offsets `p` (modulo 2^48).
    fn leaf_offsets(&mut self, p: P, leaf: &Leaf) -> P {
        if leaf.offset == 0 {
            return p;
        }
        let m = self.splat_i64(OFFSET_MASK);
        let o = self.splat_i64(leaf.offset as i64);
        p.map(|x| {
            let a = self.b.ins().iadd(x, o);
            self.b.ins().band(a, m)
        })
    }

    /// Each lane's host address of `leaf` at offsets `at` into `space`, after checking the
    /// active lanes' bytes lie inside the object (an inactive lane's: the scratch slot).
    fn leaf_addresses(&mut self, space: u32, at: P, leaf: &Leaf) -> [Value; super::LANES] {
        let (base, len) = self.space(space);
        // (Offsets are below 2^48: `end` cannot wrap, and both it and the length are below
        // 2^63, so the signed comparison, which x86 has for 64-bit lanes, is the unsigned one.)
        let bytes = self.splat_i64(leaf.scalar.mem_bytes() as i64);
        let lens = self.b.ins().splat(I64X2, len);
        let out = at.map(|x| {
            let end = self.b.ins().iadd(x, bytes);
            self.b.ins().icmp(IntCC::SignedGreaterThan, end, lens)
        });
        self.bail_any_wide(out);
        let act = self.act();
        std::array::from_fn(|l| {
            let off = self.b.ins().extractlane(at[l / 2], (l % 2) as u8);
            let addr = self.b.ins().iadd(base, off);
            self.lane_address(act, l, addr)
        })
    }

    /// Lane `l`'s address `addr`, or the scratch slot when the lane is not active (`act`: the
    /// active masks; `None` in the all-lanes version).
    fn lane_address(&mut self, act: Option<V>, l: usize, addr: Value) -> Value {
        match act {
            Some(a) => {
                let on = self.b.ins().extractlane(a[l / 4], (l % 4) as u8);
                self.b.ins().select(on, addr, self.frame)
            }
            None => addr,
        }
    }

    /// In the all-lanes version, how a `bytes`-byte leaf through pointer `ptr` is first tried:
    /// every lane at one offset (`Same`), or each lane's leaf right after the one before
    /// (`Step(bytes)`, 4-byte leaves), as `pattern` expects of the pointer; `None`: lane by
    /// lane at once.
    fn expected(&self, ptr: Slot, bytes: u32) -> Option<Lanes> {
        match self.plan.lanes(ptr) {
            Lanes::Same => Some(Lanes::Same),
            Lanes::Step(4) if bytes == 4 => Some(Lanes::Step(4)),
            _ => None,
        }
    }

    /// Tests whether the lanes' offsets `at` lie as `expect` says: the first lane's offset, a
    /// block entered when they do and one entered when they do not. The builder is left in no
    /// block.
    fn layout(&mut self, at: P, expect: Lanes) -> (Value, Block, Block) {
        let first = self.b.ins().extractlane(at[0], 0);
        let splat = self.b.ins().splat(I64X2, first);
        let step = match expect {
            Lanes::Step(s) => s,
            _ => 0,
        };
        let eq = QUARTERS.map(|q| {
            let want = if step == 0 {
                splat
            } else {
                let l = 2 * q as i64;
                let mut bytes = [0; 16];
                bytes[..8].copy_from_slice(&(l * step).to_le_bytes());
                bytes[8..].copy_from_slice(&((l + 1) * step).to_le_bytes());
                let v = self.vconst(I64X2, bytes);
                self.b.ins().iadd(splat, v)
            };
            self.b.ins().icmp(IntCC::Equal, at[q], want)
        });
        let all = self.and_all(&eq);
        let all = self.b.ins().vall_true(all);
        let (yes, no) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(all, yes, &[], no, &[]);
        (first, yes, no)
    }

    /// [`layout`](Self::layout)'s test for a load expected the same in every lane through a
    /// pointer of a one-index chain: the lanes' indices all equal (then so are their offsets),
    /// and the first lane's offset of `leaf` computed as the chain and `leaf_offsets` compute
    /// it (modulo 2^48), in scalar code.
    fn same_index(&mut self, chain: Chain, leaf: &Leaf) -> (Value, Block, Block) {
        let first = self.b.ins().extractlane(chain.index[0], 0);
        let splat = self.b.ins().splat(I32X4, first);
        let eq = HALVES.map(|h| self.b.ins().icmp(IntCC::Equal, chain.index[h], splat));
        let all = self.and_all(&eq);
        let all = self.b.ins().vall_true(all);
        let off = self.chain_offset(chain, first, leaf);
        let (yes, no) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(all, yes, &[], no, &[]);
        (off, yes, no)
    }

    /// The offset of `leaf` through a pointer of the one-index chain `chain` for one lane whose
    /// index is `index` (32 bits), in scalar code, as the chain and `leaf_offsets` compute it
    /// (modulo 2^48).
    fn chain_offset(&mut self, chain: Chain, index: Value, leaf: &Leaf) -> Value {
        let i = self.b.ins().uextend(I64, index);
        let up = 64 - i64::from(chain.bits.min(32));
        let i = self.b.ins().ishl_imm_s(i, up);
        let i = self.b.ins().sshr_imm_s(i, up);
        let i = self.b.ins().imul_imm_s(i, i64::from(chain.stride));
        let off = self.b.ins().iadd_imm_s(i, chain.offset);
        let off = self.b.ins().band_imm_s(off, OFFSET_MASK);
        if leaf.offset == 0 {
            off
        } else {
            let o = self.b.ins().iadd_imm_s(off, i64::from(leaf.offset));
            self.b.ins().band_imm_s(o, OFFSET_MASK)
        }
    }

    /// The host address of `span` bytes at offset `first` of `space`, after checking they lie
    /// inside the object (the same check as every lane's of a `same` or `next` layout).
    fn span_address(&mut self, space: u32, first: Value, span: u32) -> Value {
        let (base, len) = self.space(space);
        let end = self.b.ins().iadd_imm_s(first, span as i64);
        let out = self.b.ins().icmp(IntCC::UnsignedGreaterThan, end, len);
        let cont = self.b.create_block();
        self.b.ins().brif(out, self.bail, &[], cont, &[]);
        self.b.switch_to_block(cont);
        self.b.ins().iadd(base, first)
    }

    /// One lane's value of a leaf at host address `addr`: its bytes zero-extended.
    fn load_scalar(&mut self, leaf: &Leaf, addr: Value) -> Value {
        let flags = MemFlagsData::new().with_notrap();
        match leaf.scalar.mem_bytes() {
            1 => self.b.ins().uload8(I32, flags, addr, 0),
            2 => self.b.ins().uload16(I32, flags, addr, 0),
            _ => self.b.ins().load(I32, flags, addr, 0),
        }
    }

    /// The lanes' values of a leaf at offsets `at` into `space`, lane by lane; in a masked
    /// version with one active lane, that lane's load alone (`one_lane`).
    fn gather(&mut self, space: u32, ptr: Slot, at: P, leaf: &Leaf) -> V {
        let one = self.one_lane(ptr, at, leaf);
        let join = self.b.create_block();
        for _ in HALVES {
            self.b.append_block_param(join, I32X4);
        }
        if let Some((off, single, lanes)) = one {
            self.b.switch_to_block(single);
            let addr = self.span_address(space, off, leaf.scalar.mem_bytes());
            let x = self.load_scalar(leaf, addr);
            let v = self.b.ins().splat(I32X4, x);
            self.b.ins().jump(join, &[v.into(); H]);
            self.b.switch_to_block(lanes);
        }
        if let Some(chain) = self.element_chain(ptr) {
            let lanes = self.b.create_block();
            if let Some(addrs) = self.index_addresses(space, chain, leaf, lanes) {
                self.gather_at(leaf, addrs, join);
                self.b.switch_to_block(lanes);
            }
        }
        let addrs = self.leaf_addresses(space, at, leaf);
        self.gather_at(leaf, addrs, join);
        self.b.switch_to_block(join);
        let params = self.b.block_params(join).to_vec();
        HALVES.map(|h| params[h])
    }

    /// Loads a leaf at each lane's host address `addrs` into the lanes of a vector, then jumps
    /// to `join` with it.
    fn gather_at(&mut self, leaf: &Leaf, addrs: [Value; super::LANES], join: Block) {
        let mut v = [self.splat_i32(0); H];
        for (l, addr) in addrs.into_iter().enumerate() {
            let x = self.load_scalar(leaf, addr);
            v[l / 4] = self.b.ins().insertlane(v[l / 4], x, (l % 4) as u8);
        }
        self.b.ins().jump(join, &v.map(|x| x.into()));
    }

    /// The one-index chain that made pointer `ptr` in this segment when its index has 32 bits
    /// and its stride is a power of two (an array element, the common case), for
    /// `index_addresses`.
    fn element_chain(&self, ptr: Slot) -> Option<Chain> {
        let chain = self.chains.get(&ptr).copied()?;
        (chain.bits == 32 && chain.stride.is_power_of_two()).then_some(chain)
    }

    /// For a pointer of the `element_chain` `chain`: tests in 32-bit lanes whether every
    /// active lane's index is below the space's `index_limit` for the leaf (so at least 0, and
    /// the leaf's bytes at `chain.offset + leaf.offset + index · stride` inside the object),
    /// and goes on in a new block when they are, else branches to `slow` (which then checks
    /// the lanes' 64-bit offsets as `leaf_addresses` does: an index this test refuses may
    /// still be in bounds, or bail). Returns each lane's host address (an inactive lane's: the
    /// scratch slot), the builder left in the new block; `None`, without branching, before
    /// the constant pool exists.
    fn index_addresses(
        &mut self,
        space: u32,
        chain: Chain,
        leaf: &Leaf,
        slow: Block,
    ) -> Option<[Value; super::LANES]> {
        let shift = chain.stride.trailing_zeros();
        let first = chain.offset + i64::from(leaf.offset);
        let fit = self.index_limit(space, first, leaf.scalar.mem_bytes(), shift)?;
        // (Tested as "some active lane's index at or past the limit": x86 has no unsigned
        // vector compare, and its negation and an all-lanes test cost four more instructions.)
        let outside = chain
            .index
            .map(|i| self.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, i, fit));
        let act = self.act();
        let outside = match act {
            Some(a) => HALVES.map(|h| self.b.ins().band(outside[h], a[h])),
            None => outside,
        };
        let any = self.or_all(&outside);
        let any = self.b.ins().vany_true(any);
        let fast = self.b.create_block();
        self.b.ins().brif(any, slow, &[], fast, &[]);
        self.b.switch_to_block(fast);
        let (base, _) = self.space(space);
        let start = self.b.ins().iadd_imm_s(base, first);
        Some(std::array::from_fn(|l| {
            let i = self.b.ins().extractlane(chain.index[l / 4], (l % 4) as u8);
            let i = self.b.ins().uextend(I64, i);
            let off = self.b.ins().ishl_imm_s(i, i64::from(shift));
            let addr = self.b.ins().iadd(start, off);
            self.lane_address(act, l, addr)
        }))
    }

    /// In a masked version, tests whether exactly one lane is active (a lane finishing or
    /// starting an invocation while the others wait elsewhere, the common case): the block
    /// entered when it is, with that lane's offset of `leaf` through `ptr` (from its index
    /// where a one-index chain made the pointer in this segment, `chain_offset`; else its
    /// offset of `at`, every other lane's masked out and the lanes or-ed together), and the
    /// block entered when it is not. `None` in the all-lanes version. The builder is left in
    /// no block.
    fn one_lane(&mut self, ptr: Slot, at: P, leaf: &Leaf) -> Option<(Value, Block, Block)> {
        let a = self.act()?;
        let bits = self.active_bits();
        let below = self.b.ins().iadd_imm_s(bits, -1);
        let rest = self.b.ins().band(bits, below);
        let off = match self.chains.get(&ptr).copied() {
            Some(chain) => {
                let index = self.one_value(chain.index);
                self.chain_offset(chain, index, leaf)
            }
            None => {
                let w = self.wide_masks(a);
                let picked = QUARTERS.map(|q| self.b.ins().band(at[q], w[q]));
                let picked = self.or_all(&picked);
                let [lo, hi] = [0, 1].map(|l| self.b.ins().extractlane(picked, l));
                self.b.ins().bor(lo, hi)
            }
        };
        let (single, lanes) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(rest, lanes, &[], single, &[]);
        Some((off, single, lanes))
    }

    /// The active lane's value of `v` in a masked version with one active lane (`one_lane`).
    fn one_value(&mut self, v: V) -> Value {
        let a = self.act().expect("one_value: a masked version");
        let picked = HALVES.map(|h| self.b.ins().band(v[h], a[h]));
        let picked = self.or_all(&picked);
        let little = MemFlagsData::new().with_endianness(Endianness::Little);
        let pairs = self.b.ins().bitcast(I64X2, little, picked);
        let [lo, hi] = [0, 1].map(|l| self.b.ins().extractlane(pairs, l));
        let x = self.b.ins().bor(lo, hi);
        let high = self.b.ins().ushr_imm_s(x, 32);
        let x = self.b.ins().bor(x, high);
        self.b.ins().ireduce(I32, x)
    }

    /// The lanes' values of a leaf at offsets `at` into `space` in the all-lanes version,
    /// tried as `expect` (`expected`) says first: one load splatted when the offsets are all
    /// the same, whole vectors when the leaves follow one another; else lane by lane.
    fn load_full(&mut self, space: u32, ptr: Slot, at: P, leaf: &Leaf, expect: Lanes) -> V {
        let bytes = leaf.scalar.mem_bytes();
        let join = self.b.create_block();
        for _ in HALVES {
            self.b.append_block_param(join, I32X4);
        }
        let (first, yes, no) = match (expect, self.chains.get(&ptr).copied()) {
            (Lanes::Same, Some(chain)) => self.same_index(chain, leaf),
            _ => self.layout(at, expect),
        };
        self.b.switch_to_block(yes);
        let v: Vec<_> = if expect == Lanes::Same {
            let addr = self.span_address(space, first, bytes);
            let x = self.load_scalar(leaf, addr);
            vec![self.b.ins().splat(I32X4, x).into(); H]
        } else {
            let addr = self.span_address(space, first, 4 * super::LANES as u32);
            HALVES
                .map(|h| {
                    let flags = MemFlagsData::new()
                        .with_notrap()
                        .with_endianness(Endianness::Little);
                    self.b.ins().load(I32X4, flags, addr, 16 * h as i32).into()
                })
                .to_vec()
        };
        self.b.ins().jump(join, &v);
        self.b.switch_to_block(no);
        let v: Vec<_> = self.gather(space, ptr, at, leaf).map(|x| x.into()).to_vec();
        self.b.ins().jump(join, &v);
        self.b.switch_to_block(join);
        let params = self.b.block_params(join).to_vec();
        HALVES.map(|h| params[h])
    }

    /// Loads the leaves of a value: each `mem_bytes` little-endian bytes, zero-extended;
    /// booleans are `≠ 0`.
    pub fn load(&mut self, dst: Slot, ptr: Slot, leaves: &[Leaf]) {
        let (space, p) = self.pointer(ptr);
        for leaf in leaves {
            let at = self.leaf_offsets(p, leaf);
            let expect = self.expected(ptr, leaf.scalar.mem_bytes());
            let mut v = match expect {
                Some(e) if self.full => self.load_full(space, ptr, at, leaf, e),
                _ => self.gather(space, ptr, at, leaf),
            };
            if leaf.scalar == Scalar::Bool {
                let zero = self.splat_i32(0);
                let m = v.map(|x| self.b.ins().icmp(IntCC::NotEqual, x, zero));
                v = self.bools(m);
            }
            self.put(dst + leaf.slot, v);
        }
    }

    /// Stores one lane's value `x` (its low `mem_bytes` bytes) of a leaf at host address `addr`.
    fn store_scalar(&mut self, leaf: &Leaf, x: Value, addr: Value) {
        let flags = MemFlagsData::new().with_notrap();
        match leaf.scalar.mem_bytes() {
            1 => self.b.ins().istore8(flags, x, addr, 0),
            2 => self.b.ins().istore16(flags, x, addr, 0),
            _ => self.b.ins().store(flags, x, addr, 0),
        };
    }

    /// Stores the lanes' values `v` of a leaf at offsets `at` into `space`, lane by lane in
    /// lane order; in a masked version with one active lane, that lane's store alone
    /// (`one_lane`); through an array element, with the gathers' test of the lanes' indices
    /// first (`index_addresses`).
    fn scatter(&mut self, space: u32, ptr: Slot, at: P, leaf: &Leaf, v: V) {
        let bytes = leaf.scalar.mem_bytes();
        let join = self.b.create_block();
        if let Some((off, single, lanes)) = self.one_lane(ptr, at, leaf) {
            self.b.switch_to_block(single);
            let addr = self.span_address(space, off, bytes);
            let x = self.one_value(v);
            self.store_scalar(leaf, x, addr);
            self.b.ins().jump(join, &[]);
            self.b.switch_to_block(lanes);
        }
        if let Some(chain) = self.element_chain(ptr) {
            let lanes = self.b.create_block();
            if let Some(addrs) = self.index_addresses(space, chain, leaf, lanes) {
                self.scatter_at(leaf, addrs, v, join);
                self.b.switch_to_block(lanes);
            }
        }
        let addrs = self.leaf_addresses(space, at, leaf);
        self.scatter_at(leaf, addrs, v, join);
        self.b.switch_to_block(join);
    }

    /// Stores each lane's value of `v` at its host address `addrs`, in lane order, then jumps
    /// to `join`.
    fn scatter_at(&mut self, leaf: &Leaf, addrs: [Value; super::LANES], v: V, join: Block) {
        for (l, addr) in addrs.into_iter().enumerate() {
            let x = self.b.ins().extractlane(v[l / 4], (l % 4) as u8);
            self.store_scalar(leaf, x, addr);
        }
        self.b.ins().jump(join, &[]);
    }

    /// Stores the leaves of a value: the low `mem_bytes` bytes of each lane's register, lane
    /// by lane in lane order; in the all-lanes version, 4-byte leaves that follow one another
    /// in lane order as whole vectors (the same bytes).
    pub fn store(&mut self, ptr: Slot, src: Slot, leaves: &[Leaf]) {
        let (space, p) = self.pointer(ptr);
        // A store into a uniform buffer or push constants is reported by the interpreter.
        let ro = self.space_read_only(space);
        let cont = self.b.create_block();
        self.b.ins().brif(ro, self.bail, &[], cont, &[]);
        self.b.switch_to_block(cont);
        for leaf in leaves {
            let at = self.leaf_offsets(p, leaf);
            let v = self.get(src + leaf.slot);
            let bytes = leaf.scalar.mem_bytes();
            if !self.full || self.expected(ptr, bytes) != Some(Lanes::Step(4)) {
                self.scatter(space, ptr, at, leaf, v);
                continue;
            }
            let join = self.b.create_block();
            let (first, yes, no) = self.layout(at, Lanes::Step(4));
            self.b.switch_to_block(no);
            self.scatter(space, ptr, at, leaf, v);
            self.b.ins().jump(join, &[]);
            self.b.switch_to_block(yes);
            let addr = self.span_address(space, first, 4 * super::LANES as u32);
            let flags = MemFlagsData::new()
                .with_notrap()
                .with_endianness(Endianness::Little);
            for h in HALVES {
                self.b.ins().store(flags, v[h], addr, 16 * h as i32);
            }
            self.b.ins().jump(join, &[]);
            self.b.switch_to_block(join);
        }
    }
}

/// How a one-index access chain from a constant pointer made a pointer (`VLower::chains`):
/// the constant's offset plus the chain's, the index's lanes (as read by the chain), the
/// index's width and the stride.
#[derive(Clone, Copy)]
pub struct Chain {
    offset: i64,
    index: V,
    bits: u32,
    stride: u32,
}
