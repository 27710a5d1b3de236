//! OpenCL C built-in functions that clang-15 + llvm-spirv-15 leave as imported functions
//! (OpFunction without a body, LinkageAttributes Import) instead of SPIR-V instructions, which
//! the engine implements itself: the cl_khr_integer_dot_product functions (`dot`,
//! `dot_acc_sat` on `char4`/`uchar4`, and the `_4x8packed_` forms on packed `uint` words),
//! compiled to the same integer dot product as OpSDot/OpUDot/OpSUDot(AccSat).
//!
//! The functions are recognised by their Itanium-mangled names (what clang emits for OpenCL C
//! overloads); OpenCL `char` is signed.

use super::Compiler;
use super::func::Code;
use crate::error::ExecError;
use crate::program::Inst;
use spvx_num::intdot::{DotKind, DotSpec};
use spvx_spirv::instruction::{Id, Instruction};

/// An imported function the engine implements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct IntDotBuiltin {
    kind: DotKind,
    /// Packed 4×8-bit words (else 4-component vectors of 8-bit integers).
    packed: bool,
    /// `dot_acc_sat`: a third operand, saturating accumulation.
    acc: bool,
    /// The first operand is the unsigned one of a mixed product (swap them for SUDot).
    swap: bool,
}

fn by_name(name: &str) -> Option<IntDotBuiltin> {
    use DotKind::*;
    let b = |kind, packed, acc, swap| IntDotBuiltin {
        kind,
        packed,
        acc,
        swap,
    };
    Some(match name {
        "_Z3dotDv4_hS_" => b(Unsigned, false, false, false),
        "_Z3dotDv4_cS_" => b(Signed, false, false, false),
        "_Z3dotDv4_cDv4_h" => b(Mixed, false, false, false),
        "_Z3dotDv4_hDv4_c" => b(Mixed, false, false, true),
        "_Z11dot_acc_satDv4_hS_j" => b(Unsigned, false, true, false),
        "_Z11dot_acc_satDv4_cS_i" => b(Signed, false, true, false),
        "_Z11dot_acc_satDv4_cDv4_hi" => b(Mixed, false, true, false),
        "_Z11dot_acc_satDv4_hDv4_ci" => b(Mixed, false, true, true),
        "_Z21dot_4x8packed_uu_uintjj" => b(Unsigned, true, false, false),
        "_Z20dot_4x8packed_ss_intjj" => b(Signed, true, false, false),
        "_Z20dot_4x8packed_su_intjj" => b(Mixed, true, false, false),
        "_Z20dot_4x8packed_us_intjj" => b(Mixed, true, false, true),
        "_Z29dot_acc_sat_4x8packed_uu_uintjjj" => b(Unsigned, true, true, false),
        "_Z28dot_acc_sat_4x8packed_ss_intjji" => b(Signed, true, true, false),
        "_Z28dot_acc_sat_4x8packed_su_intjji" => b(Mixed, true, true, false),
        "_Z28dot_acc_sat_4x8packed_us_intjji" => b(Mixed, true, true, true),
        _ => return None,
    })
}

/// The import name of a function (its LinkageAttributes Import name, else its OpName).
fn import_name(c: &Compiler, f: Id) -> Option<String> {
    const LINKAGE_ATTRIBUTES: u32 = 41;
    let linkage =
        c.ix.decorations_of(f, LINKAGE_ATTRIBUTES)
            .find_map(|inst| inst.operands.get(2)?.string().map(str::to_string));
    linkage.or_else(|| c.debug_name(f))
}

/// The built-in an imported (bodiless) function `f` is, if the engine implements it.
pub(crate) fn imported_builtin(c: &Compiler, f: Id) -> Option<IntDotBuiltin> {
    let has_body =
        c.ix.functions
            .iter()
            .any(|g| g.id == f && !g.blocks.is_empty());
    if has_body {
        return None;
    }
    by_name(&import_name(c, f)?)
}

impl Compiler<'_> {
    /// An OpFunctionCall of an engine-implemented built-in, compiled inline.
    pub(crate) fn call_builtin(
        &mut self,
        index: usize,
        inst: &Instruction,
        b: IntDotBuiltin,
        code: &mut Code,
    ) -> Result<(), ExecError> {
        let dst = self.result(index, inst)?;
        let (mut a, mut v) = (self.operand(index, inst, 1)?, self.operand(index, inst, 2)?);
        if b.swap {
            std::mem::swap(&mut a, &mut v);
        }
        let acc = if b.acc {
            Some(self.operand(index, inst, 3)?.slot)
        } else {
            None
        };
        let result_bits = self.scalar(index, dst.ty)?.bits();
        let spec =
            DotSpec::new(b.kind, 8, result_bits).map_err(|e| self.err(index, e.to_string()))?;
        code.push(
            index,
            Inst::IntDot {
                spec,
                dst: dst.slot,
                a: a.slot,
                b: v.slot,
                count: if b.packed { 0 } else { 4 },
                acc,
            },
        );
        Ok(())
    }
}
