//! Functions: which functions the entry point reaches (recursion is refused: SPIR-V forbids
//! it for shaders, and it lets every function keep its registers and private variables at
//! fixed places), register allocation of parameters and results, the blocks in scheduling
//! order, their translation into segments (split after calls and workgroup barriers), phis as
//! edge copies, and terminators linked by segment index.

use super::cfg::{block_order, merge_of};
use super::{Compiler, Value};
use crate::error::ExecError;
use crate::program::{Edge, Function, Inst, SegId, Segment, Slot, Term};
use spvx_spirv::instruction::{Id, Instruction, OperandValue};
use spvx_spirv::module::is_line;
use spvx_spirv::op::Op;
use std::collections::HashMap;

/// Straight-line code being emitted, with the source index of each instruction.
#[derive(Default)]
pub(crate) struct Code {
    pub code: Vec<Inst>,
    pub source: Vec<u32>,
}

impl Code {
    pub fn push(&mut self, index: usize, inst: Inst) {
        self.code.push(inst);
        self.source.push(index as u32);
    }
}

/// A terminator whose targets are still labels.
enum Pending {
    Branch(Id),
    Cond(Slot, Id, Id),
    Switch(Slot, u8, Vec<(u64, Id)>, Id),
    Done(Term),
}

/// A segment under construction: code range, terminator, source index, block label.
type PendingSegment = (u32, u32, Pending, u32, Id);

/// Parameter slots, return slot and return slot count of each function.
pub(crate) type Signatures = HashMap<Id, (Vec<Slot>, Slot, u32)>;

/// Execution scope Workgroup (SPIR-V 1.6 §3.27).
const SCOPE_WORKGROUP: u64 = 2;

/// The functions reachable from `entry` by calls, entry first; an error on recursion.
pub(crate) fn reachable_functions(
    c: &Compiler,
    entry: Id,
    ep_index: usize,
) -> Result<Vec<Id>, ExecError> {
    let calls: HashMap<Id, Vec<(usize, Id)>> =
        c.ix.functions
            .iter()
            .map(|f| {
                let callees = (f.def..=f.end)
                    .filter(|&i| c.insts[i].opcode == Op::FunctionCall)
                    .filter_map(|i| Some((i, c.insts[i].operands.first()?.id()?)))
                    .collect();
                (f.id, callees)
            })
            .collect();
    let mut order = vec![entry];
    // Depth-first with an explicit stack; `on_path` detects cycles.
    let mut on_path = vec![entry];
    let mut stack = vec![(entry, 0usize)];
    while let Some((f, next)) = stack.last_mut() {
        let list = calls.get(f).map_or(&[][..], Vec::as_slice);
        if let Some(&(at, callee)) = list.get(*next) {
            *next += 1;
            if on_path.contains(&callee) {
                return Err(c.unsupported(at, "recursive function calls"));
            }
            if super::cl_builtins::imported_builtin(c, callee).is_some() {
                continue; // compiled inline (OpenCL C built-ins imported by name)
            }
            if !c
                .ix
                .functions
                .iter()
                .any(|g| g.id == callee && !g.blocks.is_empty())
            {
                return Err(c.unsupported(at, "calls to functions without a body"));
            }
            if !order.contains(&callee) {
                order.push(callee);
                on_path.push(callee);
                stack.push((callee, 0));
            }
        } else {
            stack.pop();
            on_path.pop();
        }
    }
    if !c.ix.functions.iter().any(|g| g.id == entry) {
        return Err(c.err(ep_index, "the entry point's function is not defined"));
    }
    Ok(order)
}

impl Compiler<'_> {
    /// Allocates the parameters and return slots of every function (callers need them).
    pub(crate) fn prepare_functions(&mut self, order: &[Id]) -> Result<Signatures, ExecError> {
        let mut sigs = HashMap::new();
        for &fid in order {
            let Some(f) = self.ix.functions.iter().find(|f| f.id == fid).cloned() else {
                continue;
            };
            let def = &self.insts[f.def];
            let ret_ty = def.result_type.unwrap_or(0);
            let n = self.slot_count(f.def, ret_ty)?;
            let ret = self.alloc(f.def, n)?;
            let mut params = Vec::new();
            for &p in &f.params {
                let inst = &self.insts[p];
                let (Some(ty), Some(id)) = (inst.result_type, inst.result) else {
                    continue;
                };
                let n = self.slot_count(p, ty)?;
                let slot = self.alloc(p, n)?;
                self.values.insert(id, Value { slot, ty });
                params.push(slot);
            }
            sigs.insert(fid, (params, ret, n));
        }
        Ok(sigs)
    }

    /// Compiles one function.
    pub(crate) fn compile_function(
        &mut self,
        fid: Id,
        sigs: &Signatures,
    ) -> Result<Function, ExecError> {
        let Some(f) = self.ix.functions.iter().find(|f| f.id == fid).cloned() else {
            return Err(self.err(0, format!("function {} not found", self.ix.name(fid))));
        };
        // Registers for every result of the body.
        for b in &f.blocks {
            for index in b.label_index + 1..=b.terminator {
                let inst = &self.insts[index];
                if let (Some(ty), Some(id)) = (inst.result_type, inst.result) {
                    let n = if inst.opcode == Op::Variable {
                        1
                    } else {
                        self.slot_count(index, ty)?
                    };
                    let slot = self.alloc(index, n)?;
                    self.values.insert(id, Value { slot, ty });
                }
            }
        }
        // Function variables in registers where their pointers do not escape.
        self.promote_function(&f)?;
        // Phi copies per edge (predecessor label, block label).
        let mut phis: HashMap<(Id, Id), Vec<(Slot, Slot)>> = HashMap::new();
        for b in &f.blocks {
            for index in b.label_index + 1..b.terminator {
                let inst = &self.insts[index];
                if inst.opcode != Op::Phi {
                    continue;
                }
                self.check_tensor_phi(index, inst)?;
                let dst = self.value(index, inst.result.unwrap_or(0))?;
                let n = self.slot_count(index, dst.ty)?;
                for pair in inst.operands.chunks(2) {
                    let (Some(v), Some(parent)) = (pair[0].id(), pair.get(1).and_then(|o| o.id()))
                    else {
                        continue;
                    };
                    let src = self.value(index, v)?;
                    let e = phis.entry((parent, b.label)).or_default();
                    e.extend((0..n).map(|k| (dst.slot + k, src.slot + k)));
                }
            }
        }
        let mut code = Code::default();
        let mut segments: Vec<PendingSegment> = Vec::new();
        let mut first_seg: HashMap<Id, SegId> = HashMap::new();
        for bi in block_order(self.insts, &f) {
            let b = f.blocks[bi].clone();
            first_seg.insert(b.label, segments.len() as SegId);
            let mut start = code.code.len() as u32;
            let merge =
                merge_of(self.insts, b.label_index, b.terminator).map(|m| m as *const Instruction);
            for index in b.label_index + 1..b.terminator {
                let inst = &self.insts[index];
                if is_line(inst.opcode)
                    || matches!(inst.opcode, Op::Nop | Op::Phi)
                    || merge == Some(inst as *const _)
                {
                    continue;
                }
                match inst.opcode {
                    Op::FunctionCall => {
                        let callee = inst.operands.first().and_then(|o| o.id()).unwrap_or(0);
                        if let Some(b) = super::cl_builtins::imported_builtin(self, callee) {
                            self.call_builtin(index, inst, b, &mut code)?;
                            continue;
                        }
                        let (params, ret, ret_n) = sigs
                            .get(&callee)
                            .cloned()
                            .ok_or_else(|| self.err(index, "call to an unknown function"))?;
                        let mut args = Vec::new();
                        for (k, o) in inst.operands.iter().skip(1).enumerate() {
                            let a = self.value(index, o.id().unwrap_or(0))?;
                            let n = self.slot_count(index, a.ty)?;
                            let p = *params
                                .get(k)
                                .ok_or_else(|| self.err(index, "too many arguments"))?;
                            args.extend((0..n).map(|i| (p + i, a.slot + i)));
                        }
                        let func = *self
                            .func_index
                            .get(&callee)
                            .ok_or_else(|| self.err(index, "call to an unknown function"))?;
                        let next = segments.len() as SegId + 1;
                        let term = Term::Call {
                            func,
                            args: args.into(),
                            next,
                        };
                        segments.push((
                            start,
                            code.code.len() as u32,
                            Pending::Done(term),
                            index as u32,
                            b.label,
                        ));
                        start = code.code.len() as u32;
                        if let Some(id) = inst.result
                            && ret_n > 0
                        {
                            let dst = self.value(index, id)?;
                            for k in 0..ret_n {
                                code.push(
                                    index,
                                    Inst::Copy {
                                        dst: dst.slot + k,
                                        src: ret + k,
                                    },
                                );
                            }
                        }
                    }
                    Op::ControlBarrier => {
                        // OpControlBarrier: only a Workgroup execution scope synchronises.
                        let scope_id = inst.operands.first().and_then(|o| o.id()).unwrap_or(0);
                        let scope = self
                            .value(index, scope_id)
                            .map(|v| self.eval[v.slot as usize])?;
                        if scope == SCOPE_WORKGROUP {
                            let next = segments.len() as SegId + 1;
                            segments.push((
                                start,
                                code.code.len() as u32,
                                Pending::Done(Term::Barrier { next }),
                                index as u32,
                                b.label,
                            ));
                            start = code.code.len() as u32;
                        } else {
                            self.other_barriers += 1;
                        }
                    }
                    _ => self.translate(index, inst, &mut code)?,
                }
            }
            let term = self.terminator(b.terminator, sigs.get(&fid).map_or(0, |s| s.1))?;
            segments.push((
                start,
                code.code.len() as u32,
                term,
                b.terminator as u32,
                b.label,
            ));
        }
        let edge = |from: Id, to: Id| -> Result<Edge, ExecError> {
            let target = *first_seg.get(&to).ok_or_else(|| {
                self.err(0, format!("branch to unknown block {}", self.ix.name(to)))
            })?;
            let copies: Vec<(Slot, Slot)> = phis.get(&(from, to)).cloned().unwrap_or_default();
            let parallel = copies
                .iter()
                .any(|(d, _)| copies.iter().any(|(_, s)| s == d));
            Ok(Edge {
                target,
                copies: copies.into(),
                parallel,
            })
        };
        let mut out = Vec::with_capacity(segments.len());
        for (start, end, pending, source, label) in segments {
            let term = match pending {
                Pending::Done(t) => t,
                Pending::Branch(t) => Term::Branch(edge(label, t)?),
                Pending::Cond(c, t, f) => Term::BranchConditional {
                    cond: c,
                    on_true: edge(label, t)?,
                    on_false: edge(label, f)?,
                },
                Pending::Switch(sel, bits, cases, default) => Term::Switch {
                    selector: sel,
                    bits,
                    cases: cases
                        .into_iter()
                        .map(|(v, l)| Ok((v, edge(label, l)?)))
                        .collect::<Result<Vec<_>, ExecError>>()?
                        .into(),
                    default: edge(label, default)?,
                },
            };
            out.push(Segment {
                start,
                end,
                term,
                term_source: source,
            });
        }
        let entry = f
            .blocks
            .first()
            .and_then(|b| first_seg.get(&b.label).copied())
            .unwrap_or(0);
        let (_, ret, ret_n) = sigs.get(&fid).cloned().unwrap_or_default();
        Ok(Function {
            id: fid,
            code: code.code,
            source: code.source,
            segments: out,
            entry,
            ret: (ret, ret_n),
        })
    }

    fn terminator(&self, index: usize, _ret: Slot) -> Result<Pending, ExecError> {
        let inst = &self.insts[index];
        let id = |i: usize| inst.operands.get(i).and_then(|o| o.id()).unwrap_or(0);
        Ok(match inst.opcode {
            Op::Branch => Pending::Branch(id(0)),
            Op::BranchConditional => Pending::Cond(self.value(index, id(0))?.slot, id(1), id(2)),
            Op::Switch => {
                let sel = self.value(index, id(0))?;
                let bits = self.scalar(index, sel.ty)?.bits();
                let mut cases = Vec::new();
                let mut k = 2;
                while k + 1 < inst.operands.len() + 1 && k < inst.operands.len() {
                    let lit = match &inst.operands[k].value {
                        OperandValue::Number(ws) => ws
                            .iter()
                            .take(2)
                            .enumerate()
                            .fold(0u64, |a, (i, w)| a | (*w as u64) << (32 * i)),
                        OperandValue::Word(w) => *w as u64,
                        _ => 0,
                    };
                    let label = inst.operands.get(k + 1).and_then(|o| o.id()).unwrap_or(0);
                    cases.push((lit & crate::bits::low_bits(bits), label));
                    k += 2;
                }
                Pending::Switch(sel.slot, bits as u8, cases, id(1))
            }
            Op::Return => Pending::Done(Term::Return),
            Op::ReturnValue => {
                let v = self.value(index, id(0))?;
                let count = self.slot_count(index, v.ty)?;
                Pending::Done(Term::ReturnValue { src: v.slot, count })
            }
            Op::Kill | Op::TerminateInvocation => Pending::Done(Term::Kill),
            Op::Unreachable => Pending::Done(Term::Unreachable),
            _ => return Err(self.unsupported(index, "this terminator")),
        })
    }
}
