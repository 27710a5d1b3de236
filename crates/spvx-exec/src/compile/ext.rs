//! Translation of OpExtInst: routes each extended instruction set (OpenCL.std to `opencl`,
//! NonSemantic.DebugPrintf to `printf`, other non-semantic sets to nothing) and translates the
//! per-component GLSL.std.450 functions; the functions on whole vectors and matrices are in
//! `glsl_ext`.

use super::Compiler;
use super::func::Code;
use crate::error::ExecError;
use crate::program::math::{IMathFn, MathFn};
use crate::program::{Inst, Scalar};
use spvx_spirv::instruction::Instruction;
use spvx_spirv::op::{DebugPrintf, GlslStd450};

/// The per-component float function of a GLSL.std.450 instruction.
fn glsl_float(f: GlslStd450) -> Option<MathFn> {
    use GlslStd450 as G;
    use MathFn::*;
    Some(match f {
        G::Round => Round,
        G::RoundEven => RoundEven,
        G::Trunc => Trunc,
        G::FAbs => FAbs,
        G::FSign => FSign,
        G::Floor => Floor,
        G::Ceil => Ceil,
        G::Fract => Fract,
        G::Radians => Radians,
        G::Degrees => Degrees,
        G::Sin => Sin,
        G::Cos => Cos,
        G::Tan => Tan,
        G::Asin => Asin,
        G::Acos => Acos,
        G::Atan => Atan,
        G::Sinh => Sinh,
        G::Cosh => Cosh,
        G::Tanh => Tanh,
        G::Asinh => Asinh,
        G::Acosh => Acosh,
        G::Atanh => Atanh,
        G::Atan2 => Atan2,
        G::Pow => Pow,
        G::Exp => Exp,
        G::Log => Log,
        G::Exp2 => Exp2,
        G::Log2 => Log2,
        G::Sqrt => Sqrt,
        G::InverseSqrt => InverseSqrt,
        G::FMin => FMin,
        G::FMax => FMax,
        G::FClamp => FClamp,
        G::FMix => FMix,
        G::Step => Step,
        G::SmoothStep => SmoothStep,
        G::Fma => Fma,
        G::NMin => NMin,
        G::NMax => NMax,
        G::NClamp => NClamp,
        _ => return None,
    })
}

/// The per-component integer function of a GLSL.std.450 instruction.
fn glsl_int(f: GlslStd450) -> Option<IMathFn> {
    use GlslStd450 as G;
    use IMathFn::*;
    Some(match f {
        G::SAbs => SAbs,
        G::SSign => SSign,
        G::UMin => UMin,
        G::SMin => SMin,
        G::UMax => UMax,
        G::SMax => SMax,
        G::UClamp => UClamp,
        G::SClamp => SClamp,
        G::FindILsb => FindILsb,
        G::FindSMsb => FindSMsb,
        G::FindUMsb => FindUMsb,
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
        if set_name.is_some_and(|(_, name)| name.as_str() == DebugPrintf::IMPORT) {
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
            // Refused by name: the set and, where the grammar knows it, the instruction.
            let what = match set_name {
                Some((_, name)) => {
                    let inst_name = spvx_spirv::grammar::grammar()
                        .ext_inst_set(name)
                        .and_then(|s| s.instruction(number))
                        .map_or_else(|| format!("instruction {number}"), |i| i.name.to_string());
                    format!("the extended instruction set {name} ({inst_name})")
                }
                None => "an OpExtInst whose set is not an OpExtInstImport".to_string(),
            };
            return Err(self.unsupported(index, what));
        }
        let func = GlslStd450::from_number(number);
        if let Some(f) = func
            && self.glsl_whole(index, inst, code, f)?
        {
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
        if let (
            Some(
                f @ (GlslStd450::Length
                | GlslStd450::Distance
                | GlslStd450::Cross
                | GlslStd450::Reflect),
            ),
            Scalar::Float(fmt),
        ) = (func, rs)
        {
            return self.geometric(index, inst, code, f, fmt);
        }
        if let (Some(f), Scalar::Float(fmt)) = (func.and_then(glsl_float), rs) {
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
        if let (Some(f), Scalar::Int(bits)) = (func.and_then(glsl_int), rs) {
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
    /// Length, Distance, Cross and Reflect:
    /// composed of the engine's float instructions, each step rounded once in the operand
    /// format (dot products in index order, as OpDot).
    fn geometric(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        func: GlslStd450,
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
        match func {
            GlslStd450::Length | GlslStd450::Distance => {
                let v = if func == GlslStd450::Distance {
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
            GlslStd450::Cross => {
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
