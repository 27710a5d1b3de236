//! D = C + A × B by real DPAS instructions: the matrices are cut into tiles of RC ≤ 8 rows ×
//! ExecSize columns × K_dpas = 8·OPS_PER_CHAN depth, each tile's operands are written into a
//! register file in the DPAS layout ([`super::layout`]), and one instruction per K step is
//! executed by [`crate::isa::execute`] (so every instruction is also checked for legality).
//!
//! Chaining along K: the first instruction takes C (or a null Src0); each later one takes the
//! previous Dst as Src0. Intermediate Dsts are D (integer) or F (float) — F holds the fp32
//! accumulator exactly, so chaining loses nothing; only the last instruction writes the
//! requested Dst type. Columns past N and depths past K are zero-padded; rows are not padded
//! (the last tile uses a smaller RC).

use super::layout::{acc_element, acc_image, src1_image, src2_image};
use super::matrices::check_operands;
use super::{AccMatrix, ElementMatrix, MatmulSpec};
use crate::isa::{ExecMask, Geometry, Instruction, Operand, Src0, execute};
use crate::{DataType, RegisterFile, SimError};

/// GRF numbers of the tile operands in the scratch register file.
const SRC2_REG: u32 = 0;
const SRC1_REG: u32 = 8;
const C_REG: u32 = 16;
const ACC_REG: u32 = 24;
const DST_REG: u32 = 32;
const GRFS: usize = 40;

/// How a multiplication is cut into DPAS instructions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tiling {
    /// ExecSize (tile columns).
    pub n: usize,
    /// K of one instruction (8 × OPS_PER_CHAN).
    pub kd: usize,
    /// Instructions along K: ⌈K / kd⌉.
    pub k_steps: usize,
    /// The type of intermediate Dsts (D or F).
    pub acc_type: DataType,
}

impl Tiling {
    /// The tiling of `spec` for inner dimension `k`.
    pub fn of(spec: &MatmulSpec, k: usize) -> Result<Tiling, SimError> {
        if spec.a.is_df() || spec.b.is_df() || spec.dst == DataType::Df {
            return Err(SimError::Unsupported(
                "df (fp64) DPAS is simulated instruction by instruction only (`spvx dpas run`); the matrix API holds 32-bit patterns".into(),
            ));
        }
        let n = spec.platform.exec_size();
        let g = Geometry::new(spec.b, spec.a, 8, 8, n).map_err(|_| {
            SimError::Unsupported(format!(
                "B precision {} cannot be combined with A precision {}",
                spec.b, spec.a
            ))
        })?;
        let kd = g.k as usize;
        Ok(Tiling {
            n: n as usize,
            kd,
            k_steps: k.div_ceil(kd),
            acc_type: if spec.b.is_integer() {
                DataType::D
            } else {
                DataType::F
            },
        })
    }
}

/// D = C + A × B (C absent: a null Src0) computed by DPAS instructions on `spec.platform`,
/// tile by tile, as described in the module documentation. Every instruction is checked, so an
/// illegal combination (say tf32 on DG2, or a BF Dst before PVC) gives the [`crate::Illegal`]
/// error of the first instruction.
///
/// For the engine (OpSubgroupMatrixMultiplyAccumulateINTEL): one subgroup's call is one
/// instruction when M ≤ 8, N = ExecSize and K = 8·OPS_PER_CHAN; gather A (M×K), B (K×N) and C
/// (M×N) from the lanes as reference/dpas.md §5 maps them and call this function once per
/// subgroup; D[r][n] is component r of lane n's result.
pub fn matmul_instructions(
    spec: &MatmulSpec,
    a: &ElementMatrix,
    b: &ElementMatrix,
    c: Option<&AccMatrix>,
) -> Result<AccMatrix, SimError> {
    let (m, k, n_total) = check_operands(spec, a, b, c)?;
    let t = Tiling::of(spec, k)?;
    let platform = spec.platform;
    let mut regs = RegisterFile::new(platform, GRFS)?;
    let grf = platform.grf_bytes() as usize;
    let mut out = vec![0u32; m * n_total];

    for row0 in (0..m).step_by(8) {
        let rc = (m - row0).min(8);
        for col0 in (0..n_total).step_by(t.n) {
            if let Some(c) = c {
                regs.write_bytes(C_REG as usize * grf, &acc_image(c, row0, rc, col0, t.n))?;
            }
            for step in 0..t.k_steps {
                let k0 = step * t.kd;
                regs.write_bytes(SRC2_REG as usize * grf, &src2_image(a, row0, rc, k0, t.kd))?;
                let b_image: Vec<u8> = src1_image(b, k0, t.kd, col0, t.n)
                    .iter()
                    .flat_map(|d| d.to_le_bytes())
                    .collect();
                regs.write_bytes(SRC1_REG as usize * grf, &b_image)?;
                let src0 = match (step, c) {
                    (0, None) => Src0::Null(None),
                    (0, Some(c)) => Src0::Reg(Operand::new(C_REG, 0, c.ty())),
                    _ => Src0::Reg(Operand::new(ACC_REG, 0, t.acc_type)),
                };
                let last = step + 1 == t.k_steps;
                let dst = if last {
                    Operand::new(DST_REG, 0, spec.dst)
                } else {
                    Operand::new(ACC_REG, 0, t.acc_type)
                };
                let instr = Instruction {
                    w: spec.b,
                    a: spec.a,
                    sd: 8,
                    rc: rc as u32,
                    exec_size: t.n as u32,
                    mask: ExecMask::default(),
                    dst,
                    src0,
                    src1: Operand::new(SRC1_REG, 0, DataType::Ud),
                    src2: Operand::new(SRC2_REG, 0, DataType::Ud),
                };
                execute(&instr, platform, &mut regs, &spec.options)?;
            }
            let size = spec.dst.size() as usize;
            let image = regs.bytes(DST_REG as usize * grf, rc * t.n * size)?;
            for r in 0..rc {
                for j in 0..t.n.min(n_total - col0) {
                    out[(row0 + r) * n_total + col0 + j] =
                        acc_element(image, spec.dst, r * t.n + j);
                }
            }
        }
    }
    Ok(AccMatrix::from_bits("D", m, n_total, spec.dst, out)?)
}
