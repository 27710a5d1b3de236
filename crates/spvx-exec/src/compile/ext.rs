//! Translation of OpExtInst: the GLSL.std.450 functions the engine implements (numbers from
//! the GLSL.std.450 specification, table "Extended Instruction Set").

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
        if set.is_none() || set != self.glsl {
            return Err(
                self.unsupported(index, "extended instruction sets other than GLSL.std.450")
            );
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
