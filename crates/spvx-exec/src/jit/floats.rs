//! fp32 registers kept in float registers as well: a register the function's fp32 arithmetic
//! reads or writes (+ − × ÷, comparisons, the VALVE f32 accumulators) has, besides its
//! variable of bits (an `i64`, as every register), a *shadow* variable of type `f32`, so that
//! a chain of float operations (an accumulator carried around a loop) stays in XMM registers
//! instead of moving through a general register at every step (two moves of about three
//! cycles each on the chain, measured on the fp32 GEMM and VALVE reduction kernels).
//!
//! Invariant: wherever a register with a shadow is defined, its shadow holds a float of the
//! same value; for a NaN, any NaN (the bits variable holds the canonical one). Every write of
//! the bits variable defines the shadow too: float results directly ([`FnLower::set_float`]),
//! any other value through a bitcast (`set`, reloads, copies), which Cranelift drops where the
//! shadow is not read. Shadows are read only by operations whose result depends on a NaN
//! operand's NaN-ness alone (+ − × ÷, whose NaN results are made canonical, comparisons, the
//! VALVE dots' fast path, which leaves NaN operands to spvx-num), so a NaN's payload in a
//! shadow is never seen. Only in the one-invocation lowering: the lanes function (subgroup
//! programs) keeps the bits alone.

use super::lower::{FnLower, I64};
use crate::program::{FloatFmt, Function, Inst, Slot};
use cranelift_codegen::ir::condcodes::FloatCC;
use cranelift_codegen::ir::{InstBuilder, MemFlagsData, Value, types};
use cranelift_frontend::{FunctionBuilder, Variable};
use spvx_num::mixdot::MixOp;
use std::collections::HashMap;

/// The shadow variables of the registers among `vars` that `f`'s fp32 arithmetic reads or
/// writes.
pub(super) fn declare_shadows(
    b: &mut FunctionBuilder<'_>,
    f: &Function,
    vars: &HashMap<Slot, Variable>,
) -> HashMap<Slot, Variable> {
    let mut slots: Vec<Slot> = Vec::new();
    for inst in f.code.iter() {
        match inst {
            Inst::FBin {
                fmt: FloatFmt::F32,
                dst,
                a,
                b,
                ..
            } => slots.extend([*dst, *a, *b]),
            Inst::FCmp {
                fmt: FloatFmt::F32,
                a,
                b,
                ..
            } => slots.extend([*a, *b]),
            Inst::MixDot { op, dst, acc, .. } if *op != MixOp::Dot2Acc16 => {
                slots.extend([*dst, *acc])
            }
            _ => {}
        }
    }
    slots.sort_unstable();
    slots.dedup();
    slots
        .into_iter()
        .filter(|s| vars.contains_key(s))
        .map(|s| (s, b.declare_var(types::F32)))
        .collect()
}

impl FnLower<'_, '_, '_> {
    /// Register `slot` as an `fmt` float (F32 or F64): its shadow when it has one (see the
    /// module's invariant for what may read it), else its bits reinterpreted.
    pub fn fval(&mut self, fmt: FloatFmt, slot: Slot) -> Value {
        if fmt == FloatFmt::F32
            && let Some(v) = self.shadow(slot)
        {
            return self.b.use_var(v);
        }
        let x = self.val(slot);
        self.host_float(fmt, x)
    }

    /// Sets register `slot` to the float `r` of `fmt` (F32 or F64): its bits with a NaN made
    /// canonical (as `exec::float_bits` gives them), and `r` itself as its shadow.
    pub fn set_float(&mut self, fmt: FloatFmt, slot: Slot, r: Value) {
        let bits = self.float_bits(fmt, r);
        self.set(slot, bits);
        if fmt == FloatFmt::F32
            && self.overlay.is_none()
            && let Some(v) = self.shadow(slot)
        {
            self.b.def_var(v, r);
        }
    }

    /// The register pattern `x` as a host float of `fmt` (F32 or F64).
    pub fn host_float(&mut self, fmt: FloatFmt, x: Value) -> Value {
        let flags = MemFlagsData::new();
        match fmt {
            FloatFmt::F32 => {
                let w = self.b.ins().ireduce(types::I32, x);
                self.b.ins().bitcast(types::F32, flags, w)
            }
            _ => self.b.ins().bitcast(types::F64, flags, x),
        }
    }

    /// A host float result as a register pattern, NaN canonical (as `exec::float_bits` gives
    /// it).
    pub fn float_bits(&mut self, fmt: FloatFmt, r: Value) -> Value {
        let flags = MemFlagsData::new();
        let nan = self.b.ins().fcmp(FloatCC::Unordered, r, r);
        match fmt {
            FloatFmt::F32 => {
                let w = self.b.ins().bitcast(types::I32, flags, r);
                let w = self.b.ins().uextend(I64, w);
                let q = self.b.ins().iconst(I64, 0x7fc0_0000);
                self.b.ins().select(nan, q, w)
            }
            _ => {
                let w = self.b.ins().bitcast(I64, flags, r);
                let q = self.b.ins().iconst(I64, 0x7ff8_0000_0000_0000);
                self.b.ins().select(nan, q, w)
            }
        }
    }

    /// The shadow of register `slot`, when it has one and is not overridden by a converted
    /// branch's arm.
    fn shadow(&self, slot: Slot) -> Option<Variable> {
        if self.overlay.as_ref().is_some_and(|o| o.contains_key(&slot)) {
            return None;
        }
        self.shadows.get(&slot).copied()
    }

    /// Defines variable `var` of register `slot` as `v` (bits), and its shadow as the same
    /// bits as a float: every definition of a register's variable goes through here.
    pub fn def_reg(&mut self, slot: Slot, var: Variable, v: Value) {
        self.b.def_var(var, v);
        if let Some(s) = self.shadows.get(&slot).copied() {
            let w = self.b.ins().ireduce(types::I32, v);
            let f = self.b.ins().bitcast(types::F32, MemFlagsData::new(), w);
            self.b.def_var(s, f);
        }
    }

    /// Copies registers (`(dst, src)` pairs, all read before any is written, as an edge's
    /// copies are): bits and shadows.
    pub fn copy_regs(&mut self, copies: &[(Slot, Slot)]) {
        let values: Vec<(Value, Option<Value>)> = copies
            .iter()
            .map(|&(d, s)| {
                let bits = self.val(s);
                let shadow = match (self.shadow(d), self.shadow(s)) {
                    (Some(_), Some(sv)) => Some(self.b.use_var(sv)),
                    _ => None,
                };
                (bits, shadow)
            })
            .collect();
        for (&(d, _), (bits, shadow)) in copies.iter().zip(values) {
            self.set(d, bits);
            if let (Some(f), None, Some(v)) = (shadow, &self.overlay, self.shadow(d)) {
                self.b.def_var(v, f);
            }
        }
    }
}
