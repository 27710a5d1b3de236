//! What the three module generators share: `gen.rs` (Shader modules), `gen_kernel.rs`
//! (Kernel-model modules) and `gen_tensor.rs` (tensor modules). The reader of the fuzzer's
//! bytes ([`Bytes`]) and the statement [`Budget`]; the instruction names they draw from alike;
//! the words of an integer constant or switch literal of any width; one-call forms, on
//! spvx-spirv's `Builder`, of the instructions they all emit the same way ([`Emit`]); and the
//! pieces of structure they build alike: built-in inputs, storage buffers, loop counters and
//! the counted structured loop ([`counted_loop`]).
//!
//! What each generator makes of given bytes depends on every byte read and every id allocated
//! here, in order: a change that moves either changes the modules all saved fuzz inputs
//! (`fuzz/corpus/`, the crates' `tests/regressions/`) generate. `cargo run --release --example
//! gen_fingerprint -- DIR...` prints what every generator makes of every input; the same
//! output before and after a change shows the change left generation alone.

use spvx_spirv::module::{Arg, Builder};
use spvx_spirv::op::Op;

/// Reads bytes from the front of the fuzzer's input; zeros when it runs out.
pub struct Bytes<'a>(pub &'a [u8]);

impl Bytes<'_> {
    /// The next byte (0 once the input is used up).
    pub fn u8(&mut self) -> u8 {
        match self.0.split_first() {
            Some((b, rest)) => {
                self.0 = rest;
                *b
            }
            None => 0,
        }
    }
    /// A value below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.u8() as usize % n.max(1)
    }
    /// The next four bytes, little-endian.
    pub fn u32(&mut self) -> u32 {
        (0..4).fold(0, |acc, k| acc | (self.u8() as u32) << (8 * k))
    }
    /// The next eight bytes, little-endian.
    pub fn u64(&mut self) -> u64 {
        self.u32() as u64 | (self.u32() as u64) << 32
    }
    /// One of `items` (not empty), chosen by the next byte.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
    /// True when the input is used up.
    pub fn done(&self) -> bool {
        self.0.is_empty()
    }
}

/// How many more statements a generator may emit.
pub struct Budget(pub u32);

impl Budget {
    /// Spends one statement; false (spending nothing) once the budget or the input `bytes` is
    /// used up.
    pub fn spend(&mut self, bytes: &Bytes) -> bool {
        if self.0 == 0 || bytes.done() {
            return false;
        }
        self.0 -= 1;
        true
    }
}

/// The integer binary instructions: arithmetic, shifts and bitwise operations.
pub const INT_BINARY_OPS: [Op; 14] = [
    Op::IAdd,
    Op::ISub,
    Op::IMul,
    Op::UDiv,
    Op::SDiv,
    Op::UMod,
    Op::SRem,
    Op::SMod,
    Op::ShiftLeftLogical,
    Op::ShiftRightLogical,
    Op::ShiftRightArithmetic,
    Op::BitwiseAnd,
    Op::BitwiseOr,
    Op::BitwiseXor,
];

/// The float binary arithmetic instructions.
pub const FLOAT_BINARY_OPS: [Op; 6] = [Op::FAdd, Op::FSub, Op::FMul, Op::FDiv, Op::FRem, Op::FMod];

/// The literal words of an integer of `bits` bits (at most 64) holding `v` truncated to that
/// width: one word, or two (low first) for 64 bits.
pub fn int_words(bits: u32, v: u64) -> Vec<u32> {
    if bits == 64 {
        vec![v as u32, (v >> 32) as u32]
    } else {
        vec![(v & ((1 << bits) - 1)) as u32]
    }
}

/// An OpSwitch case literal `v` for a selector of `bits` bits (`v` fits the width).
pub fn case_literal(bits: u32, v: u64) -> Arg {
    if bits == 64 {
        Arg::Words(int_words(64, v))
    } else {
        Arg::Int(v as u32)
    }
}

/// One-call forms of the instructions every generator emits the same way. Each is `None` when
/// the builder refuses (a generator bug; the targets skip the input).
pub trait Emit {
    /// `OpStore %p %v`.
    fn store(&mut self, p: u32, v: u32) -> Option<()>;
    /// `OpLoad` of type `ty` through `p`.
    fn load(&mut self, ty: u32, p: u32) -> Option<u32>;
    /// `OpAccessChain` of pointer type `ptr_ty` into `base` by `indices`.
    fn access_chain(&mut self, ptr_ty: u32, base: u32, indices: &[u32]) -> Option<u32>;
    /// A Function-scope `OpVariable` of pointer type `ptr_ty`, uninitialised.
    fn variable(&mut self, ptr_ty: u32) -> Option<u32>;
    /// `OpBranch %target`.
    fn branch(&mut self, target: u32) -> Option<()>;
    /// `OpBranchConditional %c %then %other`.
    fn branch_if(&mut self, c: u32, then: u32, other: u32) -> Option<()>;
    /// `OpSelectionMerge %merge None`.
    fn selection_merge(&mut self, merge: u32) -> Option<()>;
    /// The header of a structured if/else on `c`: fresh labels for the two arms and the merge
    /// block, the OpSelectionMerge and the OpBranchConditional; returns (then, else, merge).
    fn open_selection(&mut self, c: u32) -> Option<(u32, u32, u32)>;
    /// A module-scope Input variable of pointer type `ptr_ty` decorated `BuiltIn name`.
    fn builtin_input(&mut self, ptr_ty: u32, name: &str) -> Option<u32>;
    /// A `Block` struct of one runtime array of `elem` (ArrayStride `stride`, Offset 0);
    /// returns a StorageBuffer pointer type to it.
    fn storage_block(&mut self, elem: u32, stride: u32) -> Option<u32>;
    /// A StorageBuffer variable of pointer type `ptr_block` at descriptor set 0, `binding`.
    fn storage_buffer(&mut self, ptr_block: u32, binding: u32) -> Option<u32>;
    /// Three Function variables of pointer type `ptr_fn_u32` (to a uint): the counters of
    /// structured loops, one per nesting depth.
    fn loop_counters(&mut self, ptr_fn_u32: u32) -> Option<Vec<u32>>;
}

impl Emit for Builder {
    fn store(&mut self, p: u32, v: u32) -> Option<()> {
        self.inst(Op::Store, None, &[Arg::Id(p), Arg::Id(v)]).ok()?;
        Some(())
    }

    fn load(&mut self, ty: u32, p: u32) -> Option<u32> {
        self.inst(Op::Load, Some(ty), &[Arg::Id(p)]).ok()?
    }

    fn access_chain(&mut self, ptr_ty: u32, base: u32, indices: &[u32]) -> Option<u32> {
        let mut args = vec![Arg::Id(base)];
        args.extend(indices.iter().map(|&i| Arg::Id(i)));
        self.inst(Op::AccessChain, Some(ptr_ty), &args).ok()?
    }

    fn variable(&mut self, ptr_ty: u32) -> Option<u32> {
        self.inst(Op::Variable, Some(ptr_ty), &[Arg::name("Function")])
            .ok()?
    }

    fn branch(&mut self, target: u32) -> Option<()> {
        self.inst(Op::Branch, None, &[Arg::Id(target)]).ok()?;
        Some(())
    }

    fn branch_if(&mut self, c: u32, then: u32, other: u32) -> Option<()> {
        let args = [Arg::Id(c), Arg::Id(then), Arg::Id(other)];
        self.inst(Op::BranchConditional, None, &args).ok()?;
        Some(())
    }

    fn selection_merge(&mut self, merge: u32) -> Option<()> {
        let args = [Arg::Id(merge), Arg::name("None")];
        self.inst(Op::SelectionMerge, None, &args).ok()?;
        Some(())
    }

    fn open_selection(&mut self, c: u32) -> Option<(u32, u32, u32)> {
        let (then, other, merge) = (self.fresh_id(), self.fresh_id(), self.fresh_id());
        self.selection_merge(merge)?;
        self.branch_if(c, then, other)?;
        Some((then, other, merge))
    }

    fn builtin_input(&mut self, ptr_ty: u32, name: &str) -> Option<u32> {
        let v = self.global_variable(ptr_ty, "Input", None).ok()?;
        self.decorate(v, "BuiltIn", &[Arg::name(name)]).ok()?;
        Some(v)
    }

    fn storage_block(&mut self, elem: u32, stride: u32) -> Option<u32> {
        let arr = self.type_runtime_array(elem).ok()?;
        self.decorate(arr, "ArrayStride", &[Arg::Int(stride)])
            .ok()?;
        let block = self.type_struct(&[arr]).ok()?;
        self.member_decorate(block, 0, "Offset", &[Arg::Int(0)])
            .ok()?;
        self.decorate(block, "Block", &[]).ok()?;
        self.type_pointer("StorageBuffer", block).ok()
    }

    fn storage_buffer(&mut self, ptr_block: u32, binding: u32) -> Option<u32> {
        let v = self
            .global_variable(ptr_block, "StorageBuffer", None)
            .ok()?;
        self.decorate(v, "DescriptorSet", &[Arg::Int(0)]).ok()?;
        self.decorate(v, "Binding", &[Arg::Int(binding)]).ok()?;
        Some(v)
    }

    fn loop_counters(&mut self, ptr_fn_u32: u32) -> Option<Vec<u32>> {
        (0..3).map(|_| self.variable(ptr_fn_u32)).collect()
    }
}

/// What [`counted_loop`] needs of a generator: its builder, and how it starts a block.
pub trait Generator {
    fn builder(&mut self) -> &mut Builder;
    /// Starts block `label` (a fresh id) as the current block.
    fn block(&mut self, label: u32) -> Option<()>;
}

/// `for (c = 0; ; ) { body; c += 1; if !(c < bound) break; }` with OpLoopMerge: `counter` is a
/// Function variable holding a uint, `body` emits the loop body into its block (and must end
/// where it can branch on), `bound` None never leaves the loop (an infinite loop). The `uint`
/// and `bool` types are the builder's (shared with the generator's own, declared on first use).
pub fn counted_loop<G: Generator>(
    g: &mut G,
    counter: u32,
    bound: Option<u32>,
    body: impl FnOnce(&mut G) -> Option<()>,
) -> Option<()> {
    let b = g.builder();
    let zero = b.constant_u32(0).ok()?;
    let one = b.constant_u32(1).ok()?;
    b.store(counter, zero)?;
    let (header, first, cont, merge) = (b.fresh_id(), b.fresh_id(), b.fresh_id(), b.fresh_id());
    b.branch(header)?;
    g.block(header)?;
    let b = g.builder();
    let args = [Arg::Id(merge), Arg::Id(cont), Arg::name("None")];
    b.inst(Op::LoopMerge, None, &args).ok()?;
    b.branch(first)?;
    g.block(first)?;
    body(g)?;
    g.builder().branch(cont)?;
    g.block(cont)?;
    let b = g.builder();
    let u32t = b.type_int(32, false).ok()?;
    let c = b.load(u32t, counter)?;
    let c1 = b
        .inst(Op::IAdd, Some(u32t), &[Arg::Id(c), Arg::Id(one)])
        .ok()??;
    b.store(counter, c1)?;
    let go_on = match bound {
        None => b.constant_bool(true).ok()?,
        Some(n) => {
            let boolt = b.type_bool().ok()?;
            let args = [Arg::Id(c1), Arg::Id(n)];
            b.inst(Op::ULessThan, Some(boolt), &args).ok()??
        }
    };
    b.branch_if(go_on, header, merge)?;
    g.block(merge)
}
