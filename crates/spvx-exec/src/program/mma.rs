//! The operand of [`Inst::SubgroupMma`](super::Inst::SubgroupMma): how one
//! OpSubgroupMatrixMultiplyAccumulateINTEL reads and writes its lanes ([`MmaSpec`], fixed at
//! compile time), and the checks that need the subgroup size, which only the run knows
//! ([`check_program`]): the DPAS platform (the run's `DpasConfig`, or by subgroup size: 8 → DG2,
//! 16 → PVC), the shapes and types
//! that platform's DPAS accepts, and where A's elements sit in the lanes ([`ALayout`]).
//! `exec::matrix_mma` runs the instruction. Sources: docs/semantics/dpas.md,
//! "OpSubgroupMatrixMultiplyAccumulateINTEL in the engine".

use super::{Inst, Program};
use crate::config::DpasConfig;
use crate::error::ExecError;
use spvx_dpas::matrix::{AccMatrix, ElementMatrix, MatmulSpec, Tiling, matmul_instructions};
use spvx_dpas::{DataType, Platform, Precision};
use spvx_spirv::op::Op;

/// How one OpSubgroupMatrixMultiplyAccumulateINTEL reads and writes its lanes, fixed at
/// compile time (the subgroup size N is known only when the module runs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MmaSpec {
    /// M: rows of A, C and the result (the Result Type's component count), 1..=8.
    pub m: u32,
    /// K: the K Dim constant.
    pub k: u32,
    /// Element precision of A.
    pub a: Precision,
    /// Element precision of B.
    pub b: Precision,
    /// Bits of one component of Matrix A (8, 16 or 32).
    pub a_component_bits: u32,
    /// Components of Matrix A.
    pub a_components: u32,
    /// Bits of one component of Matrix B (32: B is always passed in 32-bit components).
    pub b_component_bits: u32,
    /// Components of Matrix B.
    pub b_components: u32,
    /// Element type of Matrix C (DPAS Src0).
    pub c: DataType,
    /// Element type of the result (DPAS Dst).
    pub dst: DataType,
}

/// Where A's elements sit in the lanes for one subgroup size (the extension's three cases).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ALayout {
    /// Elements of A packed in one component (lower columns in lower bits).
    pub per_component: u32,
    /// Lanes that together pass one row: K / per_component.
    pub lanes_per_row: u32,
    /// Rows passed side by side by the subgroup: N / lanes_per_row (1 when N·per_component = K).
    pub row_groups: u32,
}

impl ALayout {
    /// Lane `lane`'s component `j`: (row, first column). Lane l belongs to row group
    /// g = l / lanes_per_row and passes columns (l mod lanes_per_row)·per_component …; its
    /// component j is row j·row_groups + g.
    pub fn place(&self, lane: u32, j: u32) -> (u32, u32) {
        let g = lane / self.lanes_per_row;
        let block = lane % self.lanes_per_row;
        (j * self.row_groups + g, block * self.per_component)
    }
}

/// The DPAS platform whose exec size is the subgroup size `n`: 8 → DG2, 16 → PVC.
pub fn platform_for(n: u32) -> Option<Platform> {
    match n {
        8 => Some(Platform::Dg2),
        16 => Some(Platform::Pvc),
        _ => None,
    }
}

impl MmaSpec {
    /// A's layout for subgroup size `n`, or why A's operand does not fit it.
    pub fn a_layout(&self, n: u32) -> Result<ALayout, String> {
        let e = self.a.bits();
        let per = self.a_component_bits / e;
        if per == 0 || !self.a_component_bits.is_multiple_of(e) {
            return Err(format!(
                "Matrix A's {}-bit components cannot hold {}-bit {} elements",
                self.a_component_bits, e, self.a
            ));
        }
        if !self.k.is_multiple_of(per) || !n.is_multiple_of(self.k / per) || self.k / per == 0 {
            return Err(format!(
                "Matrix A: K = {} columns of {} elements per {}-bit component do not spread over {n} invocations",
                self.k, per, self.a_component_bits
            ));
        }
        let lanes_per_row = self.k / per;
        let row_groups = n / lanes_per_row;
        let expected = self.m.div_ceil(row_groups);
        if self.a_components != expected {
            return Err(format!(
                "Matrix A must have {expected} component(s) for M = {}, K = {} and {n} invocations ({} rows passed side by side), not {}",
                self.m, self.k, row_groups, self.a_components
            ));
        }
        Ok(ALayout {
            per_component: per,
            lanes_per_row,
            row_groups,
        })
    }

    /// The matmul this instruction is for subgroup size `n` under `dpas`.
    pub fn matmul_spec(&self, n: u32, dpas: &DpasConfig) -> Result<MatmulSpec, String> {
        let platform = match dpas.platform {
            Some(p) if p.exec_size() == n => p,
            Some(p) => {
                return Err(format!(
                    "the DPAS platform {p} (set by the run's profile) has exec size {}, so it needs a subgroup size of {}; the run's subgroup size is {n} (`--subgroup-size {}`; run files and Python: `subgroup_size`)",
                    p.exec_size(),
                    p.exec_size(),
                    p.exec_size()
                ));
            }
            None => platform_for(n).ok_or_else(|| {
                format!(
                    "needs a subgroup size of 8 (DPAS exec size of XeHP/DG2) or 16 (PVC and later); the run's subgroup size is {n} (`--subgroup-size 8` or `16`; run files and Python: `subgroup_size`)"
                )
            })?,
        };
        Ok(MatmulSpec {
            platform,
            a: self.a,
            b: self.b,
            dst: self.dst,
            options: dpas.options,
        })
    }

    /// Checks that the instruction is one DPAS of the platform of subgroup size `n` under
    /// `dpas`.
    pub fn check(&self, n: u32, dpas: &DpasConfig) -> Result<(), String> {
        let spec = self.matmul_spec(n, dpas)?;
        let tiling = Tiling::of(&spec, self.k as usize).map_err(|e| e.to_string())?;
        if tiling.kd != self.k as usize {
            return Err(format!(
                "K = {} but one DPAS of {} × {} elements has K = {} (8 × OPS_PER_CHAN)",
                self.k, self.a, self.b, tiling.kd
            ));
        }
        if self.m == 0 || self.m > 8 {
            return Err(format!(
                "M = {} rows; one DPAS has 1 to 8 (repeat count)",
                self.m
            ));
        }
        // Legality of the DPAS itself (types per platform), on zero matrices.
        self.legal(&spec, n)?;
        self.a_layout(n)?;
        let expected_b = if self.b.bits() <= 16 {
            self.k * self.b.bits() / self.b_component_bits
        } else {
            self.k
        };
        if self.b_components != expected_b {
            return Err(format!(
                "Matrix B must have {expected_b} components of {} bits for K = {}, not {}",
                self.b_component_bits, self.k, self.b_components
            ));
        }
        Ok(())
    }

    /// Whether the platform's DPAS accepts the types (one matmul on zero matrices).
    fn legal(&self, spec: &MatmulSpec, n: u32) -> Result<(), String> {
        let (m, k, n) = (self.m as usize, self.k as usize, n as usize);
        let a = ElementMatrix::from_bits("A", m, k, self.a, vec![0; m * k]);
        let b = ElementMatrix::from_bits("B", k, n, self.b, vec![0; k * n]);
        let c = AccMatrix::from_bits("C", m, n, self.c, vec![0; m * n]);
        match (a, b, c) {
            (Ok(a), Ok(b), Ok(c)) => matmul_instructions(spec, &a, &b, Some(&c))
                .map(|_| ())
                .map_err(|e| e.to_string()),
            _ => Err("matrix shapes out of range".into()),
        }
    }
}

/// Checks every OpSubgroupMatrixMultiplyAccumulateINTEL of `prog` against subgroup size `n`
/// and `dpas` (a run configuration error names the instruction).
pub fn check_program(prog: &Program, n: u32, dpas: &DpasConfig) -> Result<(), ExecError> {
    for f in &prog.functions {
        for (inst, &source) in f.code.iter().zip(&f.source) {
            if let Inst::SubgroupMma { spec, .. } = inst {
                spec.check(n, dpas).map_err(|message| {
                    let opcode = prog
                        .opcodes
                        .get(source as usize)
                        .copied()
                        .unwrap_or(Op::SubgroupMatrixMultiplyAccumulateINTEL);
                    ExecError::Config(format!("{opcode} (instruction {source}): {message}"))
                })?;
            }
        }
    }
    Ok(())
}
