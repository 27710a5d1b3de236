//! The native workgroup loop: one call runs every invocation of a workgroup, computing the
//! built-ins each invocation keeps in registers (LocalInvocationId x fastest, as
//! `dispatch::builtins` numbers invocations) and calling the entry function. Used for programs
//! without barriers, private memory or built-ins it does not compute (the driver's own loop
//! runs the others).
//!
//! Signature: `fn(ctx, regs, invocations) -> status`; the workgroup id, workgroup size and
//! subgroup size come from the context (`runtime::CTX_WG`, `CTX_SIZE`, `CTX_WIDTH`), and the
//! running invocation's index is stored in `runtime::CTX_INVOCATION` for call-outs.

use super::runtime::{
    CTX_GROUPED, CTX_INVOCATION, CTX_MISMATCH, CTX_PRIVATE_BASE, CTX_PRIVATE_STRIDE, CTX_SIZE,
    CTX_SPACES, CTX_WAITING, CTX_WG, CTX_WIDTH, SPACE_BASE, SPACE_SIZE,
};
use super::status;
use crate::bits::low_bits;
use crate::program::{Builtin, BuiltinVar, Program, Slot};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{Block, FuncRef, InstBuilder, MemFlagsData, Value, types};
use cranelift_frontend::FunctionBuilder;
use std::collections::HashSet;

const I64: types::Type = types::I64;

/// The per-invocation built-ins of `prog`, when native code can compute all of them (`None`:
/// the driver's `Starts` writes them): a program without private memory whose registers need
/// no reset per invocation (an unvalidated program's) and whose built-ins in registers are
/// among those `store_builtins` computes. With `barriers`, `None` (the native workgroup loop
/// runs programs without barriers only).
pub fn loop_builtins(prog: &Program, barriers: bool) -> Option<Vec<BuiltinVar>> {
    if barriers || prog.private_bytes > 0 || prog.reset_registers {
        return None;
    }
    let mut out = Vec::new();
    for b in &prog.builtins {
        b.reg?;
        if crate::dispatch::builtins::is_uniform(b.builtin) {
            continue;
        }
        match b.builtin {
            Builtin::GlobalInvocationId
            | Builtin::LocalInvocationId
            | Builtin::WorkgroupId
            | Builtin::LocalInvocationIndex
            | Builtin::SubgroupLocalInvocationId
            | Builtin::SubgroupId => out.push(*b),
            _ => return None,
        }
    }
    Some(trim_to_reads(prog, out))
}

/// `builtins` with the components no instruction reads left out (their registers are then
/// never written, and nothing reads them): each keeps its components up to the last one read,
/// and one of which none is read is dropped. What is read is `liveness::live_in` at the entry
/// (an instruction the JIT calls out for counts as reading every register). Only for a program
/// of one function (a callee could read any register); the others keep all. Typical: a kernel reading `gl_GlobalInvocationID.x` only, whose y and z
/// would otherwise be computed and stored for every invocation.
fn trim_to_reads(prog: &Program, builtins: Vec<BuiltinVar>) -> Vec<BuiltinVar> {
    let [f] = &prog.functions[..] else {
        return builtins;
    };
    let slots: HashSet<Slot> = builtins
        .iter()
        .filter_map(|b| b.reg.map(|r| (b, r)))
        .flat_map(|(b, r)| r..r + b.components)
        .collect();
    let read = &super::liveness::live_in(f, &slots, true)[f.entry as usize];
    builtins
        .into_iter()
        .filter_map(|mut b| {
            let r = b.reg?;
            b.components = (0..b.components)
                .rev()
                .find(|i| read.contains(&(r + i)))
                .map_or(0, |last| last + 1);
            (b.components > 0).then_some(b)
        })
        .collect()
}

/// Emits the loop's body into `b` (whose entry block has the three parameters) calling
/// `entry`. The built-ins' components that are the same along a row (`Part::Row`) are stored
/// once per row, the others per invocation; the stores are returned for
/// `inline::forward_builtins`. The invocation's index goes to the context only when
/// `callouts` (the program has call-outs, which read it).
pub fn emit(
    b: &mut FunctionBuilder,
    entry: FuncRef,
    builtins: &[BuiltinVar],
    callouts: bool,
) -> super::inline::BuiltinStores {
    let t = MemFlagsData::trusted();
    let (ctx, regs, n) = entry_params(b);
    let group = Workgroup::load(b, ctx);
    let mut stores = Vec::new();
    let mut per_invocation = Vec::new();
    for_each_invocation(
        b,
        n,
        &group,
        |b, first, local| {
            stores = store_builtins(b, builtins, regs, &group, (first, local), Part::Row);
        },
        |b, index, local| {
            if callouts {
                b.ins().store(t, index, ctx, CTX_INVOCATION);
            }
            per_invocation =
                store_builtins(b, builtins, regs, &group, (index, local), Part::Invocation);
            let zero = b.ins().iconst(I64, 0);
            let call = b.ins().call(entry, &[ctx, regs, zero]);
            let r = b.inst_results(call)[0];
            // DONE and KILLED end the invocation; anything else ends the workgroup.
            let stop = b
                .ins()
                .icmp_imm_s(IntCC::UnsignedGreaterThan, r, status::KILLED as i64);
            let out = b.create_block();
            let next = b.create_block();
            b.ins().brif(stop, out, &[], next, &[]);
            b.switch_to_block(out);
            b.ins().return_(&[r]);
            b.switch_to_block(next);
        },
    );
    stores.extend(per_invocation);
    super::inline::BuiltinStores { regs, stores }
}

/// Emits the start of a program run in rounds (`emit_rounds`): `fn(ctx, state, invocations) ->
/// status` writes every invocation's built-ins of `builtins` (those `loop_builtins` accepts)
/// into its registers and makes it runnable from the start (resume word 0, status word
/// `RUN`), as the driver's `Starts` would.
pub fn emit_starts(
    b: &mut FunctionBuilder,
    builtins: &[BuiltinVar],
    state_words: usize,
    resume_word: usize,
    status_word: usize,
) {
    let t = MemFlagsData::trusted();
    let (ctx, state, n) = entry_params(b);
    let group = Workgroup::load(b, ctx);
    for_each_invocation(
        b,
        n,
        &group,
        |_, _, _| {},
        |b, index, local| {
            let off = b.ins().imul_imm_s(index, 8 * state_words as i64);
            let regs = b.ins().iadd(state, off);
            store_builtins(b, builtins, regs, &group, (index, local), Part::All);
            let zero = b.ins().iconst(I64, 0);
            let run = b.ins().iconst(I64, RUN as i64);
            b.ins().store(t, zero, regs, 8 * resume_word as i32);
            b.ins().store(t, run, regs, 8 * status_word as i32);
        },
    );
}

/// The entry block of a native function, with its parameters `(ctx, regs, n)`.
fn entry_params(b: &mut FunctionBuilder) -> (Value, Value, Value) {
    let start = b.create_block();
    b.append_block_params_for_function_params(start);
    b.switch_to_block(start);
    let p = b.block_params(start).to_vec();
    (p[0], p[1], p[2])
}

/// A loop over the invocations `0..n` of the workgroup (LocalInvocationId x fastest, as
/// `dispatch::builtins` numbers them): `row_start` is emitted at the start of each row with
/// its first invocation's index and LocalInvocationId, `body` with the invocation's index and
/// LocalInvocationId; `body` must leave the builder in a block that goes on to the next
/// invocation; after the last the function returns `DONE`.
///
/// Two loops: one over the rows (y and z), and in it one over a row's x, up to the end of the
/// row or `n`, so that an invocation pays one increment where stepping x, y and z with their
/// wraps cost a dozen instructions (the whole of a tensor copy's invocation is about 90).
fn for_each_invocation(
    b: &mut FunctionBuilder,
    n: Value,
    group: &Workgroup,
    row_start: impl FnOnce(&mut FunctionBuilder, Value, [Value; 3]),
    body: impl FnOnce(&mut FunctionBuilder, Value, [Value; 3]),
) {
    let zero = b.ins().iconst(I64, 0);
    // The rows' loop: index (of the row's first invocation), y, z.
    let rows = b.create_block();
    for _ in 0..3 {
        b.append_block_param(rows, I64);
    }
    b.ins().jump(rows, &[zero.into(), zero.into(), zero.into()]);
    b.switch_to_block(rows);
    let rp = b.block_params(rows).to_vec();
    let (first, y, z) = (rp[0], rp[1], rp[2]);
    let (row, done) = (b.create_block(), b.create_block());
    loop_test(b, first, n, done, row);

    b.switch_to_block(done);
    let ok = b.ins().iconst(I64, status::DONE as i64);
    b.ins().return_(&[ok]);

    // A row: x from 0 while index < min(first + size x, n).
    b.switch_to_block(row);
    let full = b.ins().iadd(first, group.size[0]);
    let end = b.ins().umin(full, n);
    row_start(b, first, [zero, y, z]);
    let head = b.create_block();
    for _ in 0..2 {
        b.append_block_param(head, I64);
    }
    b.ins().jump(head, &[first.into(), zero.into()]);
    b.switch_to_block(head);
    let hp = b.block_params(head).to_vec();
    let (index, x) = (hp[0], hp[1]);
    let (each, next_row) = (b.create_block(), b.create_block());
    loop_test(b, index, end, next_row, each);

    b.switch_to_block(each);
    body(b, index, [x, y, z]);
    let i1 = b.ins().iadd_imm_s(index, 1);
    let x1 = b.ins().iadd_imm_s(x, 1);
    b.ins().jump(head, &[i1.into(), x1.into()]);

    // The next row: y + 1, wrapping into z.
    b.switch_to_block(next_row);
    let y1 = b.ins().iadd_imm_s(y, 1);
    let wrap = b
        .ins()
        .icmp(IntCC::UnsignedGreaterThanOrEqual, y1, group.size[1]);
    let y2 = b.ins().select(wrap, zero, y1);
    let z1 = b.ins().iadd_imm_s(z, 1);
    let z2 = b.ins().select(wrap, z1, z);
    b.ins().jump(rows, &[index.into(), y2.into(), z2.into()]);
}

/// The test at the head of a loop over `index` below `n`: on to `exit` once `index ≥ n`, else
/// into `body`.
///
/// The exit is the branch's first target on purpose. Cranelift 0.135's e-graph pass hoists
/// loop-invariant values out of a loop (LICM) while it walks the dominator tree, but it drops
/// the loop from its loop stack on reaching a child of the header outside the loop and does
/// not restore it for the siblings after that one; it visits the header's children with the
/// branch's second target first. With the body second, the body is visited first and its
/// invariants (the workgroup's products, the inlined entry function's descriptor and
/// space-table loads) are hoisted; in the other order nothing is (a probe loop with an
/// invariant `readonly can_move` load showed it, docs/semantics/engine-and-jit.md).
pub fn loop_test(b: &mut FunctionBuilder, index: Value, n: Value, exit: Block, body: Block) {
    let finished = b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, index, n);
    b.ins().brif(finished, exit, &[], body, &[]);
}

/// What the built-ins of every invocation of a workgroup share, loaded from the context: the
/// workgroup id, the workgroup size, the first GlobalInvocationId of the workgroup (id × size),
/// the subgroup size and the invocations per workgroup.
pub struct Workgroup {
    pub wg: [Value; 3],
    pub size: [Value; 3],
    pub base: [Value; 3],
    pub width: Value,
    /// Invocations per workgroup (the product of `size`).
    pub count: Value,
}

impl Workgroup {
    /// Loads them from the context `ctx` (`CTX_WG`, `CTX_SIZE`, `CTX_WIDTH`).
    pub fn load(b: &mut FunctionBuilder, ctx: Value) -> Workgroup {
        let t = MemFlagsData::trusted();
        let wg = [0, 1, 2].map(|i| b.ins().load(I64, t, ctx, CTX_WG + 8 * i));
        let size = [0, 1, 2].map(|i| b.ins().load(I64, t, ctx, CTX_SIZE + 8 * i));
        let width = b.ins().load(I64, t, ctx, CTX_WIDTH);
        let base = [0, 1, 2].map(|i| b.ins().imul(wg[i], size[i]));
        let plane = b.ins().imul(size[0], size[1]);
        let count = b.ins().imul(plane, size[2]);
        Workgroup {
            wg,
            size,
            base,
            width,
            count,
        }
    }
}

/// Which components of the built-ins `store_builtins` stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    All,
    /// Those the same for every invocation of a row of the workgroup (y and z of the
    /// invocation ids, the workgroup id).
    Row,
    /// The others: those that change with x.
    Invocation,
}

impl Part {
    /// Whether component `i` of `builtin` is among these.
    fn has(self, builtin: Builtin, i: usize) -> bool {
        let along_x = match builtin {
            Builtin::LocalInvocationId | Builtin::GlobalInvocationId => i == 0,
            Builtin::WorkgroupId => false,
            _ => true,
        };
        match self {
            Part::All => true,
            Part::Row => !along_x,
            Part::Invocation => along_x,
        }
    }
}

/// Stores the `part` of the built-ins of `builtins` (those `loop_builtins` accepts) of the
/// invocation of LocalInvocationIndex `index` and LocalInvocationId `local` into its registers
/// at `regs`. Returns each store with its byte offset and value.
pub fn store_builtins(
    b: &mut FunctionBuilder,
    builtins: &[BuiltinVar],
    regs: Value,
    group: &Workgroup,
    (index, local): (Value, [Value; 3]),
    part: Part,
) -> Vec<BuiltinStore> {
    let mut stores = Vec::new();
    let t = MemFlagsData::trusted();
    let zero = b.ins().iconst(I64, 0);
    for bv in builtins {
        let Some(reg) = bv.reg else { continue };
        let values: [Value; 3] = match bv.builtin {
            Builtin::LocalInvocationId => local,
            Builtin::WorkgroupId => group.wg,
            Builtin::GlobalInvocationId => [0, 1, 2].map(|i| b.ins().iadd(group.base[i], local[i])),
            Builtin::LocalInvocationIndex => [index, zero, zero],
            Builtin::SubgroupLocalInvocationId => [b.ins().urem(index, group.width), zero, zero],
            Builtin::SubgroupId => [b.ins().udiv(index, group.width), zero, zero],
            _ => continue,
        };
        for (i, v) in values.iter().take(bv.components as usize).enumerate() {
            if !part.has(bv.builtin, i) {
                continue;
            }
            // The low bytes, zero-extended (a 32-bit move rather than an `and` with a
            // constant from memory).
            let narrow = match bv.component_bytes {
                1 => Some(types::I8),
                2 => Some(types::I16),
                4 => Some(types::I32),
                _ => None,
            };
            let v = match (narrow, bv.component_bytes) {
                (Some(ty), _) => {
                    let n = b.ins().ireduce(ty, *v);
                    b.ins().uextend(I64, n)
                }
                (None, 8) => *v,
                (None, bytes) => b.ins().band_imm_s(*v, low_bits(8 * bytes) as i64),
            };
            let offset = (reg as i32 + i as i32) * 8;
            let inst = b.ins().store(t, v, regs, offset);
            stores.push(BuiltinStore {
                inst,
                offset,
                value: v,
            });
        }
    }
    stores
}

/// A store of a built-in's component into the register file (`store_builtins`).
#[derive(Clone, Copy, Debug)]
pub struct BuiltinStore {
    pub inst: cranelift_codegen::ir::Inst,
    pub offset: i32,
    pub value: Value,
}

/// The LocalInvocationId after `local` in a workgroup of `size` (x fastest, then y, then z).
pub fn next_local(b: &mut FunctionBuilder, local: [Value; 3], size: [Value; 3]) -> [Value; 3] {
    let zero = b.ins().iconst(I64, 0);
    let x1 = b.ins().iadd_imm_s(local[0], 1);
    let wrap_x = b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, x1, size[0]);
    let x = b.ins().select(wrap_x, zero, x1);
    let y_inc = b.ins().iadd_imm_s(local[1], 1);
    let y1 = b.ins().select(wrap_x, y_inc, local[1]);
    let wrap_y = b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, y1, size[1]);
    let y = b.ins().select(wrap_y, zero, y1);
    let z_inc = b.ins().iadd_imm_s(local[2], 1);
    let z = b.ins().select(wrap_y, z_inc, local[2]);
    [x, y, z]
}

/// Emits the round loop of a program with barriers or subgroup instructions:
/// `fn(ctx, state, invocations) -> status` runs every invocation whose status word is `RUN` or
/// `BARRIER` (resuming at its resume word), stores the status it returns into its status word,
/// and stops at the first status that ends the workgroup (`BAIL`, `STEPS`). Invocation `i`'s state is
/// `state_words` words at `state + 8 · state_words · i`; its private memory (when the program
/// has any) is `private_stride` bytes at `private_base + private_stride · i`, which the loop
/// makes memory space 1 before each call. It leaves in the context how many invocations now
/// wait at a barrier (`CTX_WAITING`) and whether any waits with another barrier signature
/// (instruction and loop counters, the words between the resume and status words) than the
/// first (`CTX_MISMATCH`), so that the common release needs no pass over the invocations, and
/// how many wait at a subgroup instruction (`CTX_GROUPED`).
pub fn emit_rounds(
    b: &mut FunctionBuilder,
    entry: FuncRef,
    state_words: usize,
    resume_word: usize,
    status_word: usize,
    private: bool,
) {
    let t = MemFlagsData::trusted();
    let start = b.create_block();
    b.append_block_params_for_function_params(start);
    b.switch_to_block(start);
    let p = b.block_params(start).to_vec();
    let (ctx, state, n) = (p[0], p[1], p[2]);
    let zero = b.ins().iconst(I64, 0);
    let none = b.ins().iconst(I64, -1);
    // Loop state: index, waiting count, first waiting invocation (−1: none), mismatch, count
    // of invocations at a subgroup instruction.
    let head = b.create_block();
    for _ in 0..5 {
        b.append_block_param(head, I64);
    }
    b.ins().jump(
        head,
        &[
            zero.into(),
            zero.into(),
            none.into(),
            zero.into(),
            zero.into(),
        ],
    );

    b.switch_to_block(head);
    let hp = b.block_params(head).to_vec();
    let (index, waiting, first, mismatch, grouped) = (hp[0], hp[1], hp[2], hp[3], hp[4]);
    let body = b.create_block();
    let done = b.create_block();
    loop_test(b, index, n, done, body);

    b.switch_to_block(done);
    b.ins().store(t, waiting, ctx, CTX_WAITING);
    b.ins().store(t, mismatch, ctx, CTX_MISMATCH);
    b.ins().store(t, grouped, ctx, CTX_GROUPED);
    let ok = b.ins().iconst(I64, status::DONE as i64);
    b.ins().return_(&[ok]);

    // The next iteration: block parameters (waiting, first, mismatch, grouped) as updated.
    let next = b.create_block();
    for _ in 0..4 {
        b.append_block_param(next, I64);
    }

    b.switch_to_block(body);
    let off = b.ins().imul_imm_s(index, 8 * state_words as i64);
    let regs = b.ins().iadd(state, off);
    let st = b.ins().load(I64, t, regs, 8 * status_word as i32);
    // BARRIER (released) and RUN run; DONE and KILLED have finished; GROUP and HOLD wait for
    // the driver.
    let is_run = b.ins().icmp_imm_s(IntCC::Equal, st, RUN as i64);
    let is_barrier = b.ins().icmp_imm_s(IntCC::Equal, st, status::BARRIER as i64);
    let runnable = b.ins().bor(is_run, is_barrier);
    let call_block = b.create_block();
    b.ins().brif(
        runnable,
        call_block,
        &[],
        next,
        &[
            waiting.into(),
            first.into(),
            mismatch.into(),
            grouped.into(),
        ],
    );

    b.switch_to_block(call_block);
    b.ins().store(t, index, ctx, CTX_INVOCATION);
    if private {
        let base = b.ins().load(I64, t, ctx, CTX_PRIVATE_BASE);
        let stride = b.ins().load(I64, t, ctx, CTX_PRIVATE_STRIDE);
        let off = b.ins().imul(index, stride);
        let mine = b.ins().iadd(base, off);
        let table = b.ins().load(I64, t, ctx, CTX_SPACES);
        let at = (crate::memory::SPACE_PRIVATE as i64 * SPACE_SIZE) as i32 + SPACE_BASE;
        b.ins().store(t, mine, table, at);
    }
    let resume = b.ins().load(I64, t, regs, 8 * resume_word as i32);
    let call = b.ins().call(entry, &[ctx, regs, resume]);
    let r = b.inst_results(call)[0];
    b.ins().store(t, r, regs, 8 * status_word as i32);
    // BAIL (3) and STEPS (4) end the workgroup.
    let r3 = b.ins().iadd_imm_s(r, -(status::BAIL as i64));
    let stop = b.ins().icmp_imm_s(IntCC::UnsignedLessThan, r3, 2);
    let out = b.create_block();
    let after = b.create_block();
    b.ins().brif(stop, out, &[], after, &[]);
    b.switch_to_block(out);
    b.ins().return_(&[r]);

    b.switch_to_block(after);
    let at_group = b.ins().icmp_imm_s(IntCC::Equal, r, status::GROUP as i64);
    let at_group = b.ins().uextend(I64, at_group);
    let grouped1 = b.ins().iadd(grouped, at_group);
    let at_barrier = b.ins().icmp_imm_s(IntCC::Equal, r, status::BARRIER as i64);
    let count = b.create_block();
    b.ins().brif(
        at_barrier,
        count,
        &[],
        next,
        &[
            waiting.into(),
            first.into(),
            mismatch.into(),
            grouped1.into(),
        ],
    );

    b.switch_to_block(count);
    let waiting1 = b.ins().iadd_imm_s(waiting, 1);
    let no_first = b.ins().icmp_imm_s(IntCC::Equal, first, -1);
    let first1 = b.ins().select(no_first, index, first);
    // Compare this invocation's signature with the first waiting one's (itself when it is
    // the first).
    let foff = b.ins().imul_imm_s(first1, 8 * state_words as i64);
    let fregs = b.ins().iadd(state, foff);
    let mut differ = zero;
    for w in resume_word + 1..status_word {
        let a = b.ins().load(I64, t, regs, 8 * w as i32);
        let f = b.ins().load(I64, t, fregs, 8 * w as i32);
        let ne = b.ins().icmp(IntCC::NotEqual, a, f);
        let ne = b.ins().uextend(I64, ne);
        differ = b.ins().bor(differ, ne);
    }
    let mismatch1 = b.ins().bor(mismatch, differ);
    b.ins().jump(
        next,
        &[
            waiting1.into(),
            first1.into(),
            mismatch1.into(),
            grouped1.into(),
        ],
    );

    b.switch_to_block(next);
    let np = b.block_params(next).to_vec();
    let i1 = b.ins().iadd_imm_s(index, 1);
    b.ins().jump(
        head,
        &[
            i1.into(),
            np[0].into(),
            np[1].into(),
            np[2].into(),
            np[3].into(),
        ],
    );
}

/// The status word of an invocation the round loop should run.
pub const RUN: u64 = u64::MAX;
