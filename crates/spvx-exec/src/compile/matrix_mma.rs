//! Translation of OpSubgroupMatrixMultiplyAccumulateINTEL: the Matrix Multiply Accumulate
//! Operands and the operands' SPIR-V types decide the DPAS precisions of A and B and the
//! types of C and the result ([`MmaSpec`]); the subgroup-size-dependent checks wait for the
//! run (`program::mma::check_program`). Decisions: docs/semantics/dpas.md,
//! "OpSubgroupMatrixMultiplyAccumulateINTEL in the engine".

use super::Compiler;
use super::func::Code;
use crate::config::DpasConfig;
use crate::error::ExecError;
use crate::program::mma::MmaSpec;
use crate::program::*;
use spvx_dpas::{DataType, Precision};
use spvx_spirv::instruction::Instruction;

/// MatrixASignedComponentsINTEL; B's bit is this shifted left by one.
const A_SIGNED: u32 = 0x1;
/// MatrixCBFloat16INTEL.
const C_BF16: u32 = 0x4;
/// MatrixResultBFloat16INTEL.
const RESULT_BF16: u32 = 0x8;
/// Every bit of rev 1 of the extension.
const KNOWN_BITS: u32 = 0x3fff;

/// The A-bit of each element interpretation (B's bit is the next one) and its element kind.
const INTERPRETATIONS: [(u32, Element); 5] = [
    (0x10, Element::Int(8)),
    (0x40, Element::Int(4)),
    (0x100, Element::Tf32),
    (0x400, Element::Fixed(Precision::Fp16)),
    (0x1000, Element::Fixed(Precision::Bf16)),
];

/// An element interpretation before signedness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Element {
    Int(u32),
    Tf32,
    Fixed(Precision),
}

impl Compiler<'_> {
    /// OpSubgroupMatrixMultiplyAccumulateINTEL.
    pub(crate) fn subgroup_mma(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
    ) -> Result<(), ExecError> {
        let dst = self.result(index, inst)?;
        let k_dim = self.operand(index, inst, 0)?;
        let (a, b, c) = (
            self.operand(index, inst, 1)?,
            self.operand(index, inst, 2)?,
            self.operand(index, inst, 3)?,
        );
        let mask = inst.operands.get(4).and_then(|o| o.word()).unwrap_or(0);
        if mask & !KNOWN_BITS != 0 {
            return Err(self.unsupported(
                index,
                format!(
                    "Matrix Multiply Accumulate Operands bits {:#x} (not in rev 1 of SPV_INTEL_subgroup_matrix_multiply_accumulate)",
                    mask & !KNOWN_BITS
                ),
            ));
        }
        let k = u32::try_from(self.eval[k_dim.slot as usize])
            .map_err(|_| self.err(index, "K Dim does not fit in 32 bits"))?;
        let (r_s, m) = self.scalar_components(index, dst.ty)?;
        let (a_s, a_n) = self.scalar_components(index, a.ty)?;
        let (b_s, b_n) = self.scalar_components(index, b.ty)?;
        let (c_s, c_n) = self.scalar_components(index, c.ty)?;
        if c_n != m {
            return Err(self.err(index, "Matrix C must have M components"));
        }
        let a_prec = self.element(index, 'A', mask, 0, a_s)?;
        let b_prec = self.element(index, 'B', mask, 1, b_s)?;
        if b_s.bits() != 32 {
            return Err(self.err(index, "Matrix B must have 32-bit components"));
        }
        let c_ty = self.acc_type(index, "Matrix C", mask & C_BF16 != 0, c_s)?;
        let dst_ty = self.acc_type(index, "Result Type", mask & RESULT_BF16 != 0, r_s)?;
        let spec = MmaSpec {
            m,
            k,
            a: a_prec,
            b: b_prec,
            a_component_bits: a_s.bits(),
            a_components: a_n,
            b_component_bits: b_s.bits(),
            b_components: b_n,
            c: c_ty,
            dst: dst_ty,
        };
        // Shape checks that do not depend on the subgroup size fail here already.
        if let (Err(e8), Err(e16)) = (
            spec.check(8, &DpasConfig::default()),
            spec.check(16, &DpasConfig::default()),
        ) {
            return Err(self.err(
                index,
                format!("no subgroup size runs this as one DPAS: size 8: {e8}; size 16: {e16}"),
            ));
        }
        code.push(
            index,
            Inst::SubgroupMma {
                spec: Box::new(spec),
                dst: dst.slot,
                a: a.slot,
                b: b.slot,
                c: c.slot,
            },
        );
        Ok(())
    }

    /// The DPAS precision of Matrix A (`shift` 0) or B (`shift` 1): the interpretation bit,
    /// else the component type itself (8-bit integers, fp16, bf16); the Signed bit makes
    /// integer elements signed (unsigned without it, as IGC reads the extension).
    fn element(
        &self,
        index: usize,
        matrix: char,
        mask: u32,
        shift: u32,
        comp: Scalar,
    ) -> Result<Precision, ExecError> {
        let chosen = INTERPRETATIONS
            .iter()
            .find(|(bit, _)| mask & (bit << shift) != 0)
            .map(|&(_, e)| e);
        let element = match (chosen, comp) {
            (Some(Element::Tf32), Scalar::Float(FloatFmt::F32)) => Element::Tf32,
            (Some(Element::Tf32), _) => {
                return Err(self.err(
                    index,
                    format!("Matrix{matrix}TF32INTEL needs 32-bit float components"),
                ));
            }
            (Some(e), Scalar::Int(_)) => e,
            (Some(_), _) => {
                return Err(self.err(
                    index,
                    format!("Matrix {matrix}: packed interpretations need integer components"),
                ));
            }
            (None, Scalar::Int(8)) => Element::Int(8),
            (None, Scalar::Float(FloatFmt::F16)) => Element::Fixed(Precision::Fp16),
            (None, Scalar::Float(FloatFmt::BF16)) => Element::Fixed(Precision::Bf16),
            (None, other) => {
                return Err(self.unsupported(
                    index,
                    format!(
                        "Matrix {matrix} of {other:?} components without an interpretation bit (DPAS has no such elements)"
                    ),
                ));
            }
        };
        let signed = mask & (A_SIGNED << shift) != 0;
        Ok(match element {
            Element::Int(8) if signed => Precision::S8,
            Element::Int(8) => Precision::U8,
            Element::Int(_) if signed => Precision::S4,
            Element::Int(_) => Precision::U4,
            Element::Tf32 => Precision::Tf32,
            Element::Fixed(p) => p,
        })
    }

    /// The DPAS type of Matrix C or the result: bf16 by its bit (16-bit integer components),
    /// else by the component type (32-bit integer D, fp32 F, fp16 HF, bfloat16 BF).
    fn acc_type(
        &self,
        index: usize,
        what: &str,
        bf16_bit: bool,
        comp: Scalar,
    ) -> Result<DataType, ExecError> {
        Ok(match (bf16_bit, comp) {
            (true, Scalar::Int(16)) => DataType::Bf,
            (true, _) => {
                return Err(self.err(
                    index,
                    format!("{what}: the bf16 operand bit needs 16-bit integer components"),
                ));
            }
            (false, Scalar::Int(32)) => DataType::D,
            (false, Scalar::Float(FloatFmt::F32)) => DataType::F,
            (false, Scalar::Float(FloatFmt::F16)) => DataType::Hf,
            (false, Scalar::Float(FloatFmt::BF16)) => DataType::Bf,
            (false, other) => {
                return Err(self.unsupported(
                    index,
                    format!(
                        "{what} of {other:?} components (DPAS accumulators are D, F, HF or BF)"
                    ),
                ));
            }
        })
    }
}
