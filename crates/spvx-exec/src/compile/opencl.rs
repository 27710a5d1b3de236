//! Translation of OpenCL.std extended instructions (the OpenCL.std 1.0 extended instruction
//! set, numbers from its grammar). Functions with a GLSL.std.450 counterpart of the same
//! definition compile to [`Inst::Math`] / [`Inst::IMath`]; vector loads and stores to access
//! chains, loads, stores and conversions; select, shuffle and the geometric functions to
//! register instructions; the rest to [`Inst::Ocl`].

use super::Compiler;
use super::func::Code;
use crate::error::ExecError;
use crate::program::math::{IMathFn, MathFn};
use crate::program::opencl::{OclOp, OclType};
use crate::program::*;
use spvx_num::float::RoundingMode;
use spvx_spirv::index::Type;
use spvx_spirv::instruction::Instruction;
use spvx_spirv::op::{Op, OpenClStd, OpenClStd as C};

/// How one OpenCL.std number compiles.
enum Plan {
    Math(MathFn),
    IMath(IMathFn),
    /// An [`OclOp`]; for integer ones, the signedness.
    Ocl(OclOp, bool),
    FBin(FBinOp),
    /// u_abs: the operand itself.
    Same,
}

fn plan(func: OpenClStd) -> Option<Plan> {
    use MathFn as M;
    use OclOp as O;
    use Plan::*;
    Some(match func {
        C::acos => Math(M::Acos),
        C::acosh => Ocl(O::Acosh, true),
        C::acospi => Ocl(O::AcosPi, true),
        C::asin => Math(M::Asin),
        C::asinh => Ocl(O::Asinh, true),
        C::asinpi => Ocl(O::AsinPi, true),
        C::atan => Math(M::Atan),
        C::atan2 => Math(M::Atan2),
        C::atanh => Ocl(O::Atanh, true),
        C::atanpi => Ocl(O::AtanPi, true),
        C::atan2pi => Ocl(O::Atan2Pi, true),
        C::cbrt => Ocl(O::Cbrt, true),
        C::ceil => Math(M::Ceil),
        C::copysign => Ocl(O::Copysign, true),
        C::cos | C::half_cos | C::native_cos => Math(M::Cos),
        C::cosh => Math(M::Cosh),
        C::cospi => Ocl(O::CosPi, true),
        C::erfc => Ocl(O::Erfc, true),
        C::erf => Ocl(O::Erf, true),
        C::exp | C::half_exp | C::native_exp => Math(M::Exp),
        C::exp2 | C::half_exp2 | C::native_exp2 => Math(M::Exp2),
        C::exp10 | C::half_exp10 | C::native_exp10 => Ocl(O::Exp10, true),
        C::expm1 => Ocl(O::Expm1, true),
        C::fabs => Math(M::FAbs),
        C::fdim => Ocl(O::Fdim, true),
        C::floor => Math(M::Floor),
        C::fma => Math(M::Fma),
        C::fmax | C::fmax_common => Math(M::FMax),
        C::fmin | C::fmin_common => Math(M::FMin),
        C::fmod => FBin(FBinOp::Rem),
        C::hypot => Ocl(O::Hypot, true),
        C::ilogb => Ocl(O::Ilogb, true),
        C::ldexp => Ocl(O::Ldexp, true),
        C::lgamma => Ocl(O::Lgamma, true),
        C::log | C::half_log | C::native_log => Math(M::Log),
        C::log2 | C::half_log2 | C::native_log2 => Math(M::Log2),
        C::log10 | C::half_log10 | C::native_log10 => Ocl(O::Log10, true),
        C::log1p => Ocl(O::Log1p, true),
        C::logb => Ocl(O::Logb, true),
        C::mad => Ocl(O::Mad, true),
        C::maxmag => Ocl(O::Maxmag, true),
        C::minmag => Ocl(O::Minmag, true),
        C::nextafter => Ocl(O::Nextafter, true),
        C::pow => Math(M::Pow),
        C::pown => Ocl(O::Pown, true),
        C::powr | C::half_powr | C::native_powr => Ocl(O::Powr, true),
        C::remainder => Ocl(O::Remainder, true),
        C::rint => Math(M::RoundEven),
        C::rootn => Ocl(O::Rootn, true),
        C::round => Math(M::Round),
        C::rsqrt | C::half_rsqrt | C::native_rsqrt => Math(M::InverseSqrt),
        C::sin | C::half_sin | C::native_sin => Math(M::Sin),
        C::sinh => Math(M::Sinh),
        C::sinpi => Ocl(O::SinPi, true),
        C::sqrt | C::half_sqrt | C::native_sqrt => Math(M::Sqrt),
        C::tan | C::half_tan | C::native_tan => Math(M::Tan),
        C::tanh => Math(M::Tanh),
        C::tanpi => Ocl(O::TanPi, true),
        C::tgamma => Ocl(O::Tgamma, true),
        C::trunc => Math(M::Trunc),
        C::half_divide | C::native_divide => FBin(FBinOp::Div),
        C::half_recip | C::native_recip => Ocl(O::Recip, true),
        C::fclamp => Math(M::FClamp),
        C::degrees => Math(M::Degrees),
        C::mix => Math(M::FMix),
        C::radians => Math(M::Radians),
        C::step => Math(M::Step),
        C::smoothstep => Math(M::SmoothStep),
        C::sign => Ocl(O::Sign, true),
        C::s_abs => IMath(IMathFn::SAbs),
        C::u_abs => Same,
        C::s_abs_diff => Ocl(O::AbsDiff, true),
        C::u_abs_diff => Ocl(O::AbsDiff, false),
        C::s_add_sat => Ocl(O::AddSat, true),
        C::u_add_sat => Ocl(O::AddSat, false),
        C::s_hadd => Ocl(O::Hadd, true),
        C::u_hadd => Ocl(O::Hadd, false),
        C::s_rhadd => Ocl(O::Rhadd, true),
        C::u_rhadd => Ocl(O::Rhadd, false),
        C::s_clamp => IMath(IMathFn::SClamp),
        C::u_clamp => IMath(IMathFn::UClamp),
        C::clz => Ocl(O::Clz, false),
        C::ctz => Ocl(O::Ctz, false),
        C::s_mad_hi => Ocl(O::MadHi, true),
        C::u_mad_hi => Ocl(O::MadHi, false),
        C::u_mad_sat => Ocl(O::MadSat, false),
        C::s_mad_sat => Ocl(O::MadSat, true),
        C::s_max => IMath(IMathFn::SMax),
        C::u_max => IMath(IMathFn::UMax),
        C::s_min => IMath(IMathFn::SMin),
        C::u_min => IMath(IMathFn::UMin),
        C::s_mul_hi => Ocl(O::MulHi, true),
        C::u_mul_hi => Ocl(O::MulHi, false),
        C::rotate => Ocl(O::Rotate, false),
        C::s_sub_sat => Ocl(O::SubSat, true),
        C::u_sub_sat => Ocl(O::SubSat, false),
        C::u_upsample => Ocl(O::Upsample, false),
        C::s_upsample => Ocl(O::Upsample, true),
        C::s_mad24 => Ocl(O::Mad24, true),
        C::u_mad24 => Ocl(O::Mad24, false),
        C::s_mul24 => Ocl(O::Mul24, true),
        C::u_mul24 => Ocl(O::Mul24, false),
        C::bitselect => Ocl(O::Bitselect, false),
        _ => return None,
    })
}

impl Compiler<'_> {
    /// A slot holding the constant `v` in every lane.
    fn const_slot(&mut self, index: usize, v: u64) -> Result<Slot, ExecError> {
        let s = self.alloc(index, 1)?;
        self.fixed.push(s);
        self.eval[s as usize] = v;
        Ok(s)
    }

    /// Translates an OpenCL.std OpExtInst.
    pub(crate) fn opencl_inst(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
    ) -> Result<(), ExecError> {
        let number = inst
            .operands
            .get(1)
            .and_then(|o| o.word())
            .unwrap_or(u32::MAX);
        let Some(func) = OpenClStd::from_number(number) else {
            return Err(self.unsupported(index, format!("OpenCL.std instruction {number}")));
        };
        match func {
            C::vloadn
            | C::vstoren
            | C::vload_half
            | C::vload_halfn
            | C::vstore_half
            | C::vstore_half_r
            | C::vstore_halfn
            | C::vstore_halfn_r
            | C::vloada_halfn
            | C::vstorea_halfn
            | C::vstorea_halfn_r => return self.vector_load_store(index, inst, code, func),
            C::shuffle | C::shuffle2 => {
                return self.shuffle(index, inst, code, func == C::shuffle2);
            }
            C::select => return self.ocl_select(index, inst, code),
            C::cross
            | C::distance
            | C::length
            | C::normalize
            | C::fast_distance
            | C::fast_length
            | C::fast_normalize => return self.ocl_geometric(index, inst, code, func),
            C::prefetch => return Ok(()),
            C::printf => return self.opencl_printf(index, inst, code),
            C::fract | C::frexp | C::lgamma_r | C::modf | C::remquo | C::sincos => {
                return self.with_pointer_out(index, inst, code, func);
            }
            C::nan => return self.ocl_nan(index, inst, code),
            C::popcount => {
                // popcount: OpBitCount's instruction.
                let dst = self.result(index, inst)?;
                let x = self.operand(index, inst, 2)?;
                let (s, n) = self.scalar_components(index, dst.ty)?;
                for k in 0..n {
                    code.push(
                        index,
                        Inst::IUn {
                            op: IUnOp::BitCount,
                            bits: s.bits() as u8,
                            dst: dst.slot + k,
                            a: x.slot + k,
                        },
                    );
                }
                return Ok(());
            }
            _ => {}
        }
        let Some(p) = plan(func) else {
            return Err(self.unsupported(index, format!("OpenCL.std instruction {number}")));
        };
        let dst = self.result(index, inst)?;
        let (_, n) = self.components(index, dst.ty)?;
        let mut args = Vec::new();
        for i in 2..inst.operands.len() {
            let v = self.operand(index, inst, i)?;
            let (s, vn) = self.scalar_components(index, v.ty)?;
            args.push((v.slot, vn, s));
        }
        let Some(&(_, _, first)) = args.first() else {
            return Err(self.err(index, "an OpenCL.std instruction without operands"));
        };
        let arg = |k: u32, i: usize| -> u32 {
            args.get(i)
                .map_or(0, |&(s, vn, _)| if vn == 1 { s } else { s + k })
        };
        for k in 0..n {
            let a = [arg(k, 0), arg(k, 1), arg(k, 2)];
            let d = dst.slot + k;
            let i = match (&p, first) {
                (Plan::Math(f), Scalar::Float(fmt)) => Inst::Math {
                    func: *f,
                    fmt: self.float_fmt(index, Scalar::Float(fmt), true)?,
                    dst: d,
                    args: a,
                },
                (Plan::FBin(op), Scalar::Float(fmt)) => Inst::FBin {
                    op: *op,
                    fmt,
                    dst: d,
                    a: a[0],
                    b: a[1],
                },
                (Plan::IMath(f), Scalar::Int(bits)) => Inst::IMath {
                    func: *f,
                    bits,
                    dst: d,
                    args: a,
                },
                (Plan::Same, _) => Inst::Copy { dst: d, src: a[0] },
                (Plan::Ocl(op, _), Scalar::Float(fmt)) => Inst::Ocl {
                    op: *op,
                    ty: OclType::Float(self.float_fmt(index, Scalar::Float(fmt), true)?),
                    dst: d,
                    args: a,
                },
                (Plan::Ocl(op, signed), Scalar::Int(bits)) => Inst::Ocl {
                    op: *op,
                    ty: OclType::Int {
                        bits,
                        signed: *signed,
                    },
                    dst: d,
                    args: a,
                },
                _ => {
                    return Err(self.err(
                        index,
                        format!(
                            "OpenCL.std instruction {} on these operand types",
                            func.number()
                        ),
                    ));
                }
            };
            code.push(index, i);
        }
        Ok(())
    }

    /// fract, frexp, lgamma_r, modf, remquo, sincos: a result
    /// and a value stored through the pointer operand (the last one).
    fn with_pointer_out(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        func: OpenClStd,
    ) -> Result<(), ExecError> {
        let dst = self.result(index, inst)?;
        let x = self.operand(index, inst, 2)?;
        // remquo(x, y, quo): the divisor comes before the pointer.
        let y = if func == C::remquo {
            Some(self.operand(index, inst, 3)?)
        } else {
            None
        };
        let ptr = self.operand(index, inst, if func == C::remquo { 4 } else { 3 })?;
        let (s, n) = self.scalar_components(index, dst.ty)?;
        let Scalar::Float(fmt) = s else {
            return Err(self.err(index, "expected a float result"));
        };
        let Type::Pointer { pointee, .. } = self.ty(index, ptr.ty)?.clone() else {
            return Err(self.err(index, "expected a pointer operand"));
        };
        let out = self.alloc(index, n)?;
        let math = |func, d, a| Inst::Math {
            func,
            fmt,
            dst: d,
            args: [a, 0, 0],
        };
        let ocl = |op, d, a, b| Inst::Ocl {
            op,
            ty: OclType::Float(fmt),
            dst: d,
            args: [a, b, 0],
        };
        for k in 0..n {
            let (d, a, o) = (dst.slot + k, x.slot + k, out + k);
            match func {
                C::fract => {
                    code.push(index, math(MathFn::Floor, o, a));
                    code.push(index, math(MathFn::Fract, d, a));
                }
                C::frexp => {
                    code.push(index, ocl(OclOp::FrexpExp, o, a, 0));
                    code.push(index, ocl(OclOp::FrexpMant, d, a, 0));
                }
                C::lgamma_r => {
                    code.push(index, ocl(OclOp::LgammaSign, o, a, 0));
                    code.push(index, ocl(OclOp::Lgamma, d, a, 0));
                }
                C::remquo => {
                    let b = y.map_or(a, |y| y.slot + k);
                    code.push(index, ocl(OclOp::RemquoQuo, o, a, b));
                    code.push(index, ocl(OclOp::Remainder, d, a, b));
                }
                C::modf => {
                    code.push(index, math(MathFn::Trunc, o, a));
                    code.push(
                        index,
                        Inst::FBin {
                            op: FBinOp::Sub,
                            fmt,
                            dst: d,
                            a,
                            b: o,
                        },
                    );
                }
                _ => {
                    code.push(index, math(MathFn::Cos, o, a));
                    code.push(index, math(MathFn::Sin, d, a));
                }
            }
        }
        let leaves = self.value_leaves(index, pointee)?.into_boxed_slice();
        code.push(
            index,
            Inst::Store {
                ptr: ptr.slot,
                src: out,
                leaves,
            },
        );
        Ok(())
    }

    /// nan(nancode) (46): the format's quiet NaN carrying the code's low bits
    /// ([`OclOp::Nan`]); the operand is an unsigned integer of the result's width.
    fn ocl_nan(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
    ) -> Result<(), ExecError> {
        let dst = self.result(index, inst)?;
        let nancode = self.operand(index, inst, 2)?;
        let (s, n) = self.scalar_components(index, dst.ty)?;
        let fmt = self.float_fmt(index, s, true)?;
        for k in 0..n {
            code.push(
                index,
                Inst::Ocl {
                    op: OclOp::Nan,
                    ty: OclType::Float(fmt),
                    dst: dst.slot + k,
                    args: [nancode.slot + k, 0, 0],
                },
            );
        }
        Ok(())
    }

    /// vloadn, vstoren, vload_half(n), vstore_half(n)(_r), vloada_halfn, vstorea_halfn(_r).
    fn vector_load_store(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        func: OpenClStd,
    ) -> Result<(), ExecError> {
        let store = matches!(
            func,
            C::vstoren
                | C::vstore_half
                | C::vstore_half_r
                | C::vstore_halfn
                | C::vstore_halfn_r
                | C::vstorea_halfn
                | C::vstorea_halfn_r
        );
        // Operands after the set and number: loads (offset, p, [n]); stores (data, offset, p,
        // [mode]).
        let first = if store { 3 } else { 2 };
        let offset = self.operand(index, inst, first)?;
        let ptr = self.operand(index, inst, first + 1)?;
        let Type::Pointer { pointee, .. } = self.ty(index, ptr.ty)?.clone() else {
            return Err(self.err(index, "expected a pointer operand"));
        };
        let elem = self.scalar(index, pointee)?;
        let (value_ty, n) = if store {
            let v = self.operand(index, inst, 2)?;
            let (s, n) = self.scalar_components(index, v.ty)?;
            (s, n)
        } else {
            let d = self.result(index, inst)?;
            self.scalar_components(index, d.ty)?
        };
        let half = matches!(
            func,
            C::vload_half
                | C::vload_halfn
                | C::vstore_half
                | C::vstore_half_r
                | C::vstore_halfn
                | C::vstore_halfn_r
                | C::vloada_halfn
                | C::vstorea_halfn
                | C::vstorea_halfn_r
        );
        let aligned = matches!(
            func,
            C::vloada_halfn | C::vstorea_halfn | C::vstorea_halfn_r
        );
        let per = if aligned && n == 3 { 4 } else { n };
        let es = elem.mem_bytes();
        let at = self.alloc(index, 1)?;
        code.push(
            index,
            Inst::AccessChain {
                dst: at,
                base: ptr.slot,
                offset: 0,
                steps: vec![ChainStep {
                    index: offset.slot,
                    index_bits: self.scalar(index, offset.ty)?.bits() as u8,
                    stride: per * es,
                    length: None,
                }]
                .into(),
            },
        );
        let leaves: Box<[Leaf]> = (0..n)
            .map(|k| Leaf {
                slot: k,
                offset: k * es,
                scalar: elem,
            })
            .collect();
        let Scalar::Float(vf) = value_ty else {
            if half {
                return Err(self.err(index, "vload_half/vstore_half on a non-float value"));
            }
            return self.plain_vector_access(index, inst, code, store, at, leaves);
        };
        if !half {
            return self.plain_vector_access(index, inst, code, store, at, leaves);
        }
        let tmp = self.alloc(index, n)?;
        if store {
            let data = self.operand(index, inst, 2)?;
            let mode = match func {
                C::vstore_half_r | C::vstore_halfn_r | C::vstorea_halfn_r => {
                    match inst.operands.get(5).and_then(|o| o.word()) {
                        Some(1) => RoundingMode::TowardZero,
                        Some(2) => RoundingMode::TowardPositive,
                        Some(3) => RoundingMode::TowardNegative,
                        _ => RoundingMode::NearestEven,
                    }
                }
                _ => RoundingMode::NearestEven,
            };
            for k in 0..n {
                code.push(
                    index,
                    Inst::Convert {
                        op: ConvOp::FConvert {
                            from: vf,
                            to: FloatFmt::F16,
                            mode,
                        },
                        dst: tmp + k,
                        a: data.slot + k,
                    },
                );
            }
            let leaves = half_leaves(n);
            code.push(
                index,
                Inst::Store {
                    ptr: at,
                    src: tmp,
                    leaves,
                },
            );
        } else {
            let dst = self.result(index, inst)?;
            code.push(
                index,
                Inst::Load {
                    dst: tmp,
                    ptr: at,
                    leaves: half_leaves(n),
                },
            );
            for k in 0..n {
                code.push(
                    index,
                    Inst::Convert {
                        op: ConvOp::FConvert {
                            from: FloatFmt::F16,
                            to: vf,
                            mode: RoundingMode::NearestEven,
                        },
                        dst: dst.slot + k,
                        a: tmp + k,
                    },
                );
            }
        }
        Ok(())
    }

    fn plain_vector_access(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        store: bool,
        at: Slot,
        leaves: Box<[Leaf]>,
    ) -> Result<(), ExecError> {
        if store {
            let data = self.operand(index, inst, 2)?;
            code.push(
                index,
                Inst::Store {
                    ptr: at,
                    src: data.slot,
                    leaves,
                },
            );
        } else {
            let dst = self.result(index, inst)?;
            code.push(
                index,
                Inst::Load {
                    dst: dst.slot,
                    ptr: at,
                    leaves,
                },
            );
        }
        Ok(())
    }

    /// shuffle(x, mask) and shuffle2(x, y, mask): component `mask[i] mod (n or 2n)`.
    fn shuffle(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        two: bool,
    ) -> Result<(), ExecError> {
        let dst = self.result(index, inst)?;
        let x = self.operand(index, inst, 2)?;
        let (_, n) = self.components(index, x.ty)?;
        let (src, count, mask) = if two {
            let y = self.operand(index, inst, 3)?;
            let both = self.alloc(index, 2 * n)?;
            self.copy(index, code, both, x.slot, n);
            self.copy(index, code, both + n, y.slot, n);
            (both, 2 * n, self.operand(index, inst, 4)?)
        } else {
            (x.slot, n, self.operand(index, inst, 3)?)
        };
        let (ms, m) = self.scalar_components(index, mask.ty)?;
        let bits = ms.bits() as u8;
        // OpenCL C 6.15.13: only the low ilogb(2m − 1) bits of each mask element count.
        let wrap = self.const_slot(index, (count.next_power_of_two() - 1) as u64)?;
        let t = self.alloc(index, 1)?;
        for k in 0..m {
            code.push(
                index,
                Inst::IBin {
                    op: IBinOp::And,
                    bits,
                    dst: t,
                    a: mask.slot + k,
                    b: wrap,
                },
            );
            code.push(
                index,
                Inst::ExtractDyn {
                    dst: dst.slot + k,
                    base: src,
                    count,
                    index: t,
                    index_bits: bits,
                },
            );
        }
        Ok(())
    }

    /// select(a, b, c): scalar `c ≠ 0 ? b : a`; vectors per component by the most significant
    /// bit of `c` (OpenCL C 6.15.6).
    fn ocl_select(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
    ) -> Result<(), ExecError> {
        let dst = self.result(index, inst)?;
        let a = self.operand(index, inst, 2)?;
        let b = self.operand(index, inst, 3)?;
        let c = self.operand(index, inst, 4)?;
        let (cs, n) = self.scalar_components(index, c.ty)?;
        let bits = cs.bits() as u8;
        let zero = self.const_slot(index, 0)?;
        let t = self.alloc(index, 1)?;
        for k in 0..n {
            code.push(
                index,
                Inst::ICmp {
                    op: if n == 1 { ICmpOp::Ne } else { ICmpOp::SLt },
                    bits,
                    dst: t,
                    a: c.slot + k,
                    b: zero,
                },
            );
            code.push(
                index,
                Inst::Select {
                    dst: dst.slot + k,
                    cond: t,
                    a: b.slot + k,
                    b: a.slot + k,
                },
            );
        }
        Ok(())
    }

    /// cross, distance, length, normalize and their fast_ forms: each
    /// step rounded once in the operand format, sums in index order (as OpDot).
    fn ocl_geometric(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        func: OpenClStd,
    ) -> Result<(), ExecError> {
        use FBinOp::{Add, Div, Mul, Sub};
        let dst = self.result(index, inst)?;
        let x = self.operand(index, inst, 2)?;
        let (s, n) = self.scalar_components(index, x.ty)?;
        let Scalar::Float(fmt) = s else {
            return Err(self.err(index, "geometric functions take floats"));
        };
        let fbin = |op, dst, a, b| Inst::FBin { op, fmt, dst, a, b };
        let t = self.alloc(index, 2)?;
        let dot = |code: &mut Code, d: Slot, a: Slot, b: Slot| {
            code.push(index, fbin(Mul, d, a, b));
            for k in 1..n {
                code.push(index, fbin(Mul, t, a + k, b + k));
                code.push(index, fbin(Add, d, d, t));
            }
        };
        let sqrt = |d: Slot| Inst::Math {
            func: MathFn::Sqrt,
            fmt,
            dst: d,
            args: [d, 0, 0],
        };
        match func {
            C::cross => {
                let y = self.operand(index, inst, 3)?;
                let (a, b) = (x.slot, y.slot);
                for (k, (i, j)) in [(1u32, 2u32), (2, 0), (0, 1)].into_iter().enumerate() {
                    let d = dst.slot + k as u32;
                    code.push(index, fbin(Mul, d, a + i, b + j));
                    code.push(index, fbin(Mul, t, a + j, b + i));
                    code.push(index, fbin(Sub, d, d, t));
                }
                if n == 4 {
                    code.push(
                        index,
                        Inst::Const {
                            dst: dst.slot + 3,
                            value: 0,
                        },
                    );
                }
            }
            C::distance | C::fast_distance => {
                let y = self.operand(index, inst, 3)?;
                let diff = self.alloc(index, n)?;
                for k in 0..n {
                    code.push(index, fbin(Sub, diff + k, x.slot + k, y.slot + k));
                }
                dot(code, dst.slot, diff, diff);
                code.push(index, sqrt(dst.slot));
            }
            C::length | C::fast_length => {
                dot(code, dst.slot, x.slot, x.slot);
                code.push(index, sqrt(dst.slot));
            }
            _ => {
                // normalize: p / length(p); the zero vector is returned as it is.
                let len = t + 1;
                dot(code, len, x.slot, x.slot);
                code.push(index, sqrt(len));
                let zero = self.const_slot(index, 0)?;
                let is_zero = self.alloc(index, 1)?;
                code.push(
                    index,
                    Inst::FCmp {
                        op: FCmpOp::Eq,
                        ordered: true,
                        fmt,
                        dst: is_zero,
                        a: len,
                        b: zero,
                    },
                );
                for k in 0..n {
                    code.push(index, fbin(Div, t, x.slot + k, len));
                    code.push(
                        index,
                        Inst::Select {
                            dst: dst.slot + k,
                            cond: is_zero,
                            a: x.slot + k,
                            b: t,
                        },
                    );
                }
            }
        }
        Ok(())
    }
}

impl Compiler<'_> {
    /// printf (184): the format string is read at compile time from the constant it points
    /// to (a UniformConstant variable's initialiser, through access chains and casts), then
    /// compiled as DebugPrintf is; the result is 0 (success).
    fn opencl_printf(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
    ) -> Result<(), ExecError> {
        let fmt_id = inst.operands.get(2).and_then(|o| o.id()).unwrap_or(0);
        let Some(format) = self.constant_c_string(index, fmt_id) else {
            return Err(self.unsupported(
                index,
                "printf with a format that is not a constant string in UniformConstant memory",
            ));
        };
        self.compile_print(index, inst, code, &format, 3)?;
        if let Some(id) = inst.result {
            let dst = self.value(index, id)?;
            code.push(
                index,
                Inst::Const {
                    dst: dst.slot,
                    value: 0,
                },
            );
        }
        Ok(())
    }

    /// The NUL-terminated string a pointer id refers to, when it is constant: the initialiser
    /// of a variable, reached through access chains (whose indices are taken as 0), casts and
    /// OpSpecConstantOp forms of them.
    pub(crate) fn constant_c_string(&self, index: usize, mut id: u32) -> Option<String> {
        for _ in 0..64 {
            let def = self.insts.iter().find(|i| i.result == Some(id))?;
            let base_at = match def.opcode {
                Op::Variable => {
                    let init = def.operands.get(1)?.id()?;
                    return self.constant_bytes_string(index, init);
                }
                Op::SpecConstantOp => 1,
                Op::AccessChain
                | Op::InBoundsAccessChain
                | Op::PtrAccessChain
                | Op::InBoundsPtrAccessChain
                | Op::Bitcast
                | Op::PtrCastToGeneric
                | Op::CopyObject
                | Op::GenericCastToPtr => 0,
                _ => return None,
            };
            id = def.operands.get(base_at)?.id()?;
        }
        None
    }

    /// The bytes of a constant array of 8-bit integers, up to the first NUL, as text.
    fn constant_bytes_string(&self, index: usize, init: u32) -> Option<String> {
        let def = self.insts.iter().find(|i| i.result == Some(init))?;
        let mut bytes = Vec::new();
        if def.opcode == Op::ConstantComposite {
            for o in &def.operands {
                let v = self.value(index, o.id()?).ok()?;
                let b = self.eval[v.slot as usize] as u8;
                if b == 0 {
                    break;
                }
                bytes.push(b);
            }
        }
        Some(String::from_utf8_lossy(&bytes).into_owned())
    }
}

/// Leaves of `n` packed halves.
fn half_leaves(n: u32) -> Box<[Leaf]> {
    (0..n)
        .map(|k| Leaf {
            slot: k,
            offset: 2 * k,
            scalar: Scalar::Float(FloatFmt::F16),
        })
        .collect()
}
