//! Translation of OpExtInst: the GLSL.std.450 functions the engine implements (numbers from
//! the GLSL.std.450 specification, table "Extended Instruction Set"); the functions on whole
//! vectors and matrices are in `glsl_ext`.

use super::Compiler;
use super::func::Code;
use crate::error::ExecError;
use crate::program::math::{IMathFn, MathFn};
use crate::program::{Inst, Scalar};
use spvx_spirv::instruction::Instruction;

fn glsl_float(n: u32) -> Option<MathFn> {
    use MathFn::*;
    Some(match n {
        1 => Round,
        2 => RoundEven,
        3 => Trunc,
        4 => FAbs,
        6 => FSign,
        8 => Floor,
        9 => Ceil,
        10 => Fract,
        11 => Radians,
        12 => Degrees,
        13 => Sin,
        14 => Cos,
        15 => Tan,
        16 => Asin,
        17 => Acos,
        18 => Atan,
        19 => Sinh,
        20 => Cosh,
        21 => Tanh,
        22 => Asinh,
        23 => Acosh,
        24 => Atanh,
        25 => Atan2,
        26 => Pow,
        27 => Exp,
        28 => Log,
        29 => Exp2,
        30 => Log2,
        31 => Sqrt,
        32 => InverseSqrt,
        37 => FMin,
        40 => FMax,
        43 => FClamp,
        46 => FMix,
        48 => Step,
        49 => SmoothStep,
        50 => Fma,
        79 => NMin,
        80 => NMax,
        81 => NClamp,
        _ => return None,
    })
}

fn glsl_int(n: u32) -> Option<IMathFn> {
    use IMathFn::*;
    Some(match n {
        5 => SAbs,
        7 => SSign,
        38 => UMin,
        39 => SMin,
        41 => UMax,
        42 => SMax,
        44 => UClamp,
        45 => SClamp,
        73 => FindILsb,
        74 => FindSMsb,
        75 => FindUMsb,
        _ => return None,
    })
}

impl Compiler<'_> {
    pub(crate) fn ext_inst(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
    ) -> Result<(), ExecError> {
        let set = inst.operands.first().and_then(|o| o.id());
        let number = inst
            .operands
            .get(1)
            .and_then(|o| o.word())
            .unwrap_or(u32::MAX);
        if set.is_some() && set == self.opencl {
            return self.opencl_inst(index, inst, code);
        }
        let set_name = set.and_then(|s| self.ix.ext_imports.iter().find(|(id, _)| **id == s));
        if set_name.is_some_and(|(_, name)| name.as_str() == "NonSemantic.DebugPrintf") {
            return self.debug_printf(index, inst, code);
        }
        // Other non-semantic sets (NonSemantic.Shader.DebugInfo.100, clspv's reflection, …)
        // change nothing (SPV_KHR_non_semantic_info: such instructions "can be removed
        // without changing the semantics"; only other non-semantic instructions may use their
        // results).
        if set_name.is_some_and(|(_, name)| name.starts_with("NonSemantic.")) {
            return Ok(());
        }
        if set.is_none() || set != self.glsl {
            return Err(
                self.unsupported(index, "extended instruction sets other than GLSL.std.450")
            );
        }
        if self.glsl_whole(index, inst, code, number)? {
            return Ok(());
        }
        let dst = self.result(index, inst)?;
        let (rs, n) = self.scalar_components(index, dst.ty)?;
        let mut args = Vec::new();
        for i in 2..inst.operands.len() {
            let v = self.operand(index, inst, i)?;
            let (_, vn) = self.components(index, v.ty)?;
            args.push((v.slot, vn));
        }
        let arg = |k: u32, i: usize| -> u32 {
            args.get(i)
                .map_or(0, |&(s, vn)| if vn == 1 { s } else { s + k })
        };
        if let (66..=68 | 71, Scalar::Float(fmt)) = (number, rs) {
            return self.geometric(index, inst, code, number, fmt);
        }
        if let (Some(f), Scalar::Float(fmt)) = (glsl_float(number), rs) {
            for k in 0..n {
                code.push(
                    index,
                    Inst::Math {
                        func: f,
                        fmt,
                        dst: dst.slot + k,
                        args: [arg(k, 0), arg(k, 1), arg(k, 2)],
                    },
                );
            }
            return Ok(());
        }
        if let (Some(f), Scalar::Int(bits)) = (glsl_int(number), rs) {
            for k in 0..n {
                code.push(
                    index,
                    Inst::IMath {
                        func: f,
                        bits,
                        dst: dst.slot + k,
                        args: [arg(k, 0), arg(k, 1), arg(k, 2)],
                    },
                );
            }
            return Ok(());
        }
        Err(self.unsupported(index, format!("GLSL.std.450 instruction {number}")))
    }
}

impl Compiler<'_> {
    /// Length (66), Distance (67), Cross (68) and Reflect (71):
    /// composed of the engine's float instructions, each step rounded once in the operand
    /// format (dot products in index order, as OpDot).
    fn geometric(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        number: u32,
        fmt: crate::program::FloatFmt,
    ) -> Result<(), ExecError> {
        use crate::program::FBinOp::{Add, Mul, Sub};
        let dst = self.result(index, inst)?;
        let x = self.operand(index, inst, 2)?;
        let (_, n) = self.components(index, x.ty)?;
        let fbin = |op, dst, a, b| Inst::FBin { op, fmt, dst, a, b };
        // Σ a[k]·b[k] into `d`.
        let dot =
            |c: &mut Self, code: &mut Code, d: u32, a: u32, b: u32| -> Result<(), ExecError> {
                let t = c.alloc(index, 1)?;
                code.push(index, fbin(Mul, d, a, b));
                for k in 1..n {
                    code.push(index, fbin(Mul, t, a + k, b + k));
                    code.push(index, fbin(Add, d, d, t));
                }
                Ok(())
            };
        match number {
            66 | 67 => {
                let v = if number == 67 {
                    let y = self.operand(index, inst, 3)?;
                    let d = self.alloc(index, n)?;
                    for k in 0..n {
                        code.push(index, fbin(Sub, d + k, x.slot + k, y.slot + k));
                    }
                    d
                } else {
                    x.slot
                };
                dot(self, code, dst.slot, v, v)?;
                code.push(
                    index,
                    Inst::Math {
                        func: MathFn::Sqrt,
                        fmt,
                        dst: dst.slot,
                        args: [dst.slot, 0, 0],
                    },
                );
            }
            68 => {
                let y = self.operand(index, inst, 3)?;
                let t = self.alloc(index, 1)?;
                let (a, b) = (x.slot, y.slot);
                for (k, (i, j)) in [(1u32, 2u32), (2, 0), (0, 1)].into_iter().enumerate() {
                    let d = dst.slot + k as u32;
                    code.push(index, fbin(Mul, d, a + i, b + j));
                    code.push(index, fbin(Mul, t, a + j, b + i));
                    code.push(index, fbin(Sub, d, d, t));
                }
            }
            _ => {
                // Reflect: I − 2·dot(N, I)·N.
                let nrm = self.operand(index, inst, 3)?;
                let d = self.alloc(index, 2)?;
                dot(self, code, d, nrm.slot, x.slot)?;
                code.push(index, fbin(Add, d, d, d));
                for k in 0..n {
                    code.push(index, fbin(Mul, d + 1, d, nrm.slot + k));
                    code.push(index, fbin(Sub, dst.slot + k, x.slot + k, d + 1));
                }
            }
        }
        Ok(())
    }
}
