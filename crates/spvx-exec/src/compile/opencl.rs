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
use spvx_spirv::instruction::Instruction;
use spvx_val::index::Type;

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

fn plan(number: u32) -> Option<Plan> {
    use MathFn as M;
    use OclOp as O;
    use Plan::*;
    Some(match number {
        0 => Math(M::Acos),
        1 => Ocl(O::Acosh, true),
        2 => Ocl(O::AcosPi, true),
        3 => Math(M::Asin),
        4 => Ocl(O::Asinh, true),
        5 => Ocl(O::AsinPi, true),
        6 => Math(M::Atan),
        7 => Math(M::Atan2),
        8 => Ocl(O::Atanh, true),
        9 => Ocl(O::AtanPi, true),
        10 => Ocl(O::Atan2Pi, true),
        11 => Ocl(O::Cbrt, true),
        12 => Math(M::Ceil),
        13 => Ocl(O::Copysign, true),
        14 | 67 | 81 => Math(M::Cos),
        15 => Math(M::Cosh),
        16 => Ocl(O::CosPi, true),
        17 => Ocl(O::Erfc, true),
        18 => Ocl(O::Erf, true),
        19 | 69 | 83 => Math(M::Exp),
        20 | 70 | 84 => Math(M::Exp2),
        21 | 71 | 85 => Ocl(O::Exp10, true),
        22 => Ocl(O::Expm1, true),
        23 => Math(M::FAbs),
        24 => Ocl(O::Fdim, true),
        25 => Math(M::Floor),
        26 => Math(M::Fma),
        27 | 97 => Math(M::FMax),
        28 | 98 => Math(M::FMin),
        29 => FBin(FBinOp::Rem),
        32 => Ocl(O::Hypot, true),
        33 => Ocl(O::Ilogb, true),
        34 => Ocl(O::Ldexp, true),
        35 => Ocl(O::Lgamma, true),
        37 | 72 | 86 => Math(M::Log),
        38 | 73 | 87 => Math(M::Log2),
        39 | 74 | 88 => Ocl(O::Log10, true),
        40 => Ocl(O::Log1p, true),
        41 => Ocl(O::Logb, true),
        42 => Ocl(O::Mad, true),
        43 => Ocl(O::Maxmag, true),
        44 => Ocl(O::Minmag, true),
        47 => Ocl(O::Nextafter, true),
        48 => Math(M::Pow),
        49 => Ocl(O::Pown, true),
        50 | 75 | 89 => Ocl(O::Powr, true),
        51 => Ocl(O::Remainder, true),
        53 => Math(M::RoundEven),
        54 => Ocl(O::Rootn, true),
        55 => Math(M::Round),
        56 | 77 | 91 => Math(M::InverseSqrt),
        57 | 78 | 92 => Math(M::Sin),
        59 => Math(M::Sinh),
        60 => Ocl(O::SinPi, true),
        61 | 79 | 93 => Math(M::Sqrt),
        62 | 80 | 94 => Math(M::Tan),
        63 => Math(M::Tanh),
        64 => Ocl(O::TanPi, true),
        65 => Ocl(O::Tgamma, true),
        66 => Math(M::Trunc),
        68 | 82 => FBin(FBinOp::Div),
        76 | 90 => Ocl(O::Recip, true),
        95 => Math(M::FClamp),
        96 => Math(M::Degrees),
        99 => Math(M::FMix),
        100 => Math(M::Radians),
        101 => Math(M::Step),
        102 => Math(M::SmoothStep),
        103 => Ocl(O::Sign, true),
        141 => IMath(IMathFn::SAbs),
        201 => Same,
        142 => Ocl(O::AbsDiff, true),
        202 => Ocl(O::AbsDiff, false),
        143 => Ocl(O::AddSat, true),
        144 => Ocl(O::AddSat, false),
        145 => Ocl(O::Hadd, true),
        146 => Ocl(O::Hadd, false),
        147 => Ocl(O::Rhadd, true),
        148 => Ocl(O::Rhadd, false),
        149 => IMath(IMathFn::SClamp),
        150 => IMath(IMathFn::UClamp),
        151 => Ocl(O::Clz, false),
        152 => Ocl(O::Ctz, false),
        153 => Ocl(O::MadHi, true),
        204 => Ocl(O::MadHi, false),
        154 => Ocl(O::MadSat, false),
        155 => Ocl(O::MadSat, true),
        156 => IMath(IMathFn::SMax),
        157 => IMath(IMathFn::UMax),
        158 => IMath(IMathFn::SMin),
        159 => IMath(IMathFn::UMin),
        160 => Ocl(O::MulHi, true),
        203 => Ocl(O::MulHi, false),
        161 => Ocl(O::Rotate, false),
        162 => Ocl(O::SubSat, true),
        163 => Ocl(O::SubSat, false),
        164 => Ocl(O::Upsample, false),
        165 => Ocl(O::Upsample, true),
        167 => Ocl(O::Mad24, true),
        168 => Ocl(O::Mad24, false),
        169 => Ocl(O::Mul24, true),
        170 => Ocl(O::Mul24, false),
        186 => Ocl(O::Bitselect, false),
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
        match number {
            171..=181 => return self.vector_load_store(index, inst, code, number),
            182 | 183 => return self.shuffle(index, inst, code, number == 183),
            187 => return self.ocl_select(index, inst, code),
            104..=110 => return self.ocl_geometric(index, inst, code, number),
            185 => return Ok(()),
            184 => return self.opencl_printf(index, inst, code),
            30 | 31 | 36 | 45 | 52 | 58 => {
                return self.with_pointer_out(index, inst, code, number);
            }
            46 => return self.ocl_nan(index, inst, code),
            166 => {
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
        let Some(p) = plan(number) else {
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
                        format!("OpenCL.std instruction {number} on these operand types"),
                    ));
                }
            };
            code.push(index, i);
        }
        Ok(())
    }

    /// fract (30), frexp (31), lgamma_r (36), modf (45), remquo (52), sincos (58): a result
    /// and a value stored through the pointer operand (the last one).
    fn with_pointer_out(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        number: u32,
    ) -> Result<(), ExecError> {
        let dst = self.result(index, inst)?;
        let x = self.operand(index, inst, 2)?;
        // remquo(x, y, quo): the divisor comes before the pointer.
        let y = if number == 52 {
            Some(self.operand(index, inst, 3)?)
        } else {
            None
        };
        let ptr = self.operand(index, inst, if number == 52 { 4 } else { 3 })?;
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
            match number {
                30 => {
                    code.push(index, math(MathFn::Floor, o, a));
                    code.push(index, math(MathFn::Fract, d, a));
                }
                31 => {
                    code.push(index, ocl(OclOp::FrexpExp, o, a, 0));
                    code.push(index, ocl(OclOp::FrexpMant, d, a, 0));
                }
                36 => {
                    code.push(index, ocl(OclOp::LgammaSign, o, a, 0));
                    code.push(index, ocl(OclOp::Lgamma, d, a, 0));
                }
                52 => {
                    let b = y.map_or(a, |y| y.slot + k);
                    code.push(index, ocl(OclOp::RemquoQuo, o, a, b));
                    code.push(index, ocl(OclOp::Remainder, d, a, b));
                }
                45 => {
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
        number: u32,
    ) -> Result<(), ExecError> {
        let store = matches!(number, 172 | 175..=178 | 180 | 181);
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
        let half = matches!(number, 173..=181);
        let aligned = matches!(number, 179..=181);
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
            let mode = match number {
                176 | 178 | 181 => match inst.operands.get(5).and_then(|o| o.word()) {
                    Some(1) => RoundingMode::TowardZero,
                    Some(2) => RoundingMode::TowardPositive,
                    Some(3) => RoundingMode::TowardNegative,
                    _ => RoundingMode::NearestEven,
                },
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

    /// cross (104), distance (105), length (106), normalize (107) and their fast_ forms: each
    /// step rounded once in the operand format, sums in index order (as OpDot).
    fn ocl_geometric(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        number: u32,
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
        match number {
            104 => {
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
            105 | 108 => {
                let y = self.operand(index, inst, 3)?;
                let diff = self.alloc(index, n)?;
                for k in 0..n {
                    code.push(index, fbin(Sub, diff + k, x.slot + k, y.slot + k));
                }
                dot(code, dst.slot, diff, diff);
                code.push(index, sqrt(dst.slot));
            }
            106 | 109 => {
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
            let name = self
                .g
                .instruction(def.opcode)
                .map_or("", |i| i.name.as_str());
            let base_at = match name {
                "OpVariable" => {
                    let init = def.operands.get(1)?.id()?;
                    return self.constant_bytes_string(index, init);
                }
                "OpSpecConstantOp" => 1,
                "OpAccessChain"
                | "OpInBoundsAccessChain"
                | "OpPtrAccessChain"
                | "OpInBoundsPtrAccessChain"
                | "OpBitcast"
                | "OpPtrCastToGeneric"
                | "OpCopyObject"
                | "OpGenericCastToPtr" => 0,
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
        if self.g.instruction(def.opcode).map(|i| i.name.as_str()) == Some("OpConstantComposite") {
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
