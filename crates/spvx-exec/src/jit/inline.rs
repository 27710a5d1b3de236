//! The entry function inlined into the native workgroup loop (`lower_loop::emit`), for short
//! straight-line kernels such as the tensor copies and stencils, where calling the entry
//! function once per invocation costs as much as the invocation's own work: a call, a prologue
//! saving five registers, the built-ins stored into the register file and read back, and every
//! bound tensor's (or buffer's) descriptor loaded and checked again. Inlined (Cranelift's
//! `Context::inline`), the call, the prologue and the epilogue go; the code of one invocation
//! is otherwise the same instructions in the same order, so results, bounds rules, step counts
//! and bails are those of the called function. The descriptor and space-table loads, being
//! `readonly can_move`, are hoisted out of the loop by Cranelift's LICM (see
//! `lower_loop::loop_test` for the order of the loop's test that it needs).
//! The entry function itself is still compiled and called where the loop does not run (the
//! driver's own loop). After inlining, the inlined code's loads of built-in registers take the
//! values the loop stored ([`forward_builtins`]): Cranelift forwards a load only from the last
//! store before it, so the loop's row-invariant built-ins (GlobalInvocationId.y) or its
//! per-invocation ones (.x) were loaded back from memory, and values derived from the former
//! were not seen to be invariant.
//!
//! Only entry functions without loops and calls, of at most [`MAX_INLINED_INSTRUCTIONS`]
//! instructions, are inlined: a loop inside the invocation amortises the call already, and the
//! loop's code grows by the function's size. The round loop of a program with barriers
//! (`lower_loop::emit_rounds`) gets the same copy of an entry function without calls, loops
//! or not: each of its calls runs an invocation only up to the next barrier.

use super::lower_loop::BuiltinStore;
use crate::program::Function;
use cranelift_codegen::inline::{Inline, InlineCommand};
use cranelift_codegen::ir::{self, FuncRef, InstBuilder, InstructionData, Opcode, Value};
use std::borrow::Cow;
use std::collections::HashMap;

/// The largest entry function (program instructions) inlined into the workgroup loop.
pub const MAX_INLINED_INSTRUCTIONS: usize = 512;

/// Whether the entry function `f` is inlined into the workgroup loop: no calls, no loops (its
/// segments' graph is acyclic), at most `MAX_INLINED_INSTRUCTIONS` instructions.
pub fn worth_inlining(f: &Function) -> bool {
    small_without_calls(f) && acyclic(f)
}

/// Whether the entry function `f` of a program with workgroup barriers is inlined into the
/// round loop (`lower_loop::emit_rounds`): no calls, at most `MAX_INLINED_INSTRUCTIONS`
/// instructions; loops allowed, since a call runs an invocation only from one barrier to the
/// next, which a loop inside the function does not amortise (the workgroup reduction's tree
/// loop runs one step per round).
pub fn worth_inlining_into_rounds(f: &Function) -> bool {
    small_without_calls(f)
}

/// At most `MAX_INLINED_INSTRUCTIONS` instructions and no calls.
fn small_without_calls(f: &Function) -> bool {
    use crate::program::Term;
    f.code.len() <= MAX_INLINED_INSTRUCTIONS
        && !f
            .segments
            .iter()
            .any(|s| matches!(s.term, Term::Call { .. }))
}

/// Whether no segment of `f` can reach itself (depth-first search with three colours).
fn acyclic(f: &Function) -> bool {
    const WHITE: u8 = 0;
    const GREY: u8 = 1;
    const BLACK: u8 = 2;
    let n = f.segments.len();
    let mut colour = vec![WHITE; n];
    for root in 0..n {
        if colour[root] != WHITE {
            continue;
        }
        // (segment, whether its successors were pushed)
        let mut stack = vec![(root, false)];
        while let Some((s, expanded)) = stack.pop() {
            if expanded {
                colour[s] = BLACK;
                continue;
            }
            if colour[s] != WHITE {
                continue;
            }
            colour[s] = GREY;
            stack.push((s, true));
            for t in super::analysis::successors(&f.segments[s].term) {
                let t = t as usize;
                match colour.get(t) {
                    Some(&GREY) => return false,
                    Some(&WHITE) => stack.push((t, false)),
                    _ => {}
                }
            }
        }
    }
    true
}

/// Inlines the calls of `entry` (the entry function's reference in the loop function) with
/// `body`, the entry function's IR as built (before its own compilation); keeps every other
/// call.
pub struct EntryInliner<'a> {
    pub entry: FuncRef,
    pub body: &'a ir::Function,
}

impl Inline for EntryInliner<'_> {
    fn inline(
        &mut self,
        _caller: &ir::Function,
        _call_inst: ir::Inst,
        _call_opcode: ir::Opcode,
        callee: FuncRef,
        _call_args: &[ir::Value],
    ) -> InlineCommand<'_> {
        if callee == self.entry {
            InlineCommand::Inline {
                callee: Cow::Borrowed(self.body),
                visit_callee: false,
            }
        } else {
            InlineCommand::KeepCall
        }
    }
}

/// The workgroup loop's stores of built-ins into the register file `regs` (`lower_loop::emit`).
pub struct BuiltinStores {
    pub regs: Value,
    pub stores: Vec<BuiltinStore>,
}

/// In the workgroup loop `func` with the entry function inlined: every 64-bit load from the
/// register file `s.regs` at a built-in's offset takes the value the loop stored there. A
/// built-in's register is an input no instruction writes, and the loop stores every
/// invocation's values before its code runs, row-invariant ones at the start of its row: those
/// values dominate the inlined code and are what memory holds when it reads. Nothing is
/// changed if some other store writes one of those offsets of `regs`. When no call is left
/// (no call-out, which reads registers from memory), the loop's stores go too: nothing reads
/// them.
pub fn forward_builtins(func: &mut ir::Function, s: &BuiltinStores) {
    let values: HashMap<i32, Value> = s.stores.iter().map(|st| (st.offset, st.value)).collect();
    let own: std::collections::HashSet<ir::Inst> = s.stores.iter().map(|st| st.inst).collect();
    let mut loads = Vec::new();
    let mut calls = false;
    for block in func.layout.blocks() {
        for inst in func.layout.block_insts(block) {
            match func.dfg.insts[inst] {
                InstructionData::Load {
                    opcode: Opcode::Load,
                    arg,
                    offset,
                    ..
                } if arg == s.regs
                    && func.dfg.ctrl_typevar(inst) == ir::types::I64
                    && values.contains_key(&offset.into()) =>
                {
                    loads.push((inst, i32::from(offset)));
                }
                InstructionData::Store {
                    opcode: Opcode::Store,
                    args: [_, at],
                    offset,
                    ..
                } if at == s.regs
                    && values.contains_key(&offset.into())
                    && !own.contains(&inst) =>
                {
                    return;
                }
                InstructionData::Call { .. } | InstructionData::CallIndirect { .. } => calls = true,
                _ => {}
            }
        }
    }
    for (inst, offset) in loads {
        // A copy of the stored value (`x | x`), which Cranelift's rules reduce to the value.
        let v = values[&offset];
        func.replace(inst).bor(v, v);
    }
    if !calls {
        for st in &s.stores {
            func.layout.remove_inst(st.inst);
        }
    }
}
