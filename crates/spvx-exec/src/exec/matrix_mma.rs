//! OpSubgroupMatrixMultiplyAccumulateINTEL (SPV_INTEL_subgroup_matrix_multiply_accumulate
//! rev 1): the lanes' fragments of A, B and C are gathered into whole matrices as the
//! extension's "Mapping Matrix Data to Invocations" says, multiplied by ONE `spvx-dpas` matmul
//! per subgroup (one DPAS instruction: M ≤ 8 rows, N = the subgroup size = the exec size,
//! K = 8·OPS_PER_CHAN), and the result is handed back column by column.
//!
//! Subgroup size 8 runs under DG2's DPAS rules, 16 under PVC's (reference/dpas.md §4, §5), unless
//! the run's `DpasConfig` (a vendor profile) names the platform; `program::mma::check_program`
//! refuses any other size, and every shape or type the chosen
//! platform's DPAS does not accept, before the run starts. Inactive lanes contribute zeros and receive
//! nothing (the extension leaves that case undefined). Sources: docs/semantics/dpas.md,
//! "OpSubgroupMatrixMultiplyAccumulateINTEL in the engine".

use crate::exec::ctx::Ctx;
use crate::exec::mask::lanes;
use crate::program::Slot;
use crate::program::mma::MmaSpec;
use spvx_dpas::matrix::{AccMatrix, ElementMatrix, matmul_instructions};

/// Low `bits` bits of `v`.
fn low(v: u64, bits: u32) -> u32 {
    (v & ((1u64 << bits) - 1)) as u32
}

/// Runs one OpSubgroupMatrixMultiplyAccumulateINTEL for the subgroup: `a`, `b`, `c`, `dst`
/// are the first slots of the operands' components. `program::mma::check_program` has accepted `spec`
/// for this subgroup size, so the matmul cannot fail; if it did, nothing is written.
pub fn subgroup_mma(cx: &mut Ctx, spec: &MmaSpec, dst: Slot, a: Slot, b: Slot, c: Slot) {
    let n = cx.width as u32;
    let (Ok(mm), Ok(lay)) = (spec.matmul_spec(n, &cx.cfg.dpas), spec.a_layout(n)) else {
        return;
    };
    let (m, k, nu) = (spec.m as usize, spec.k as usize, n as usize);
    let active = cx.mask;
    let mut a_bits = vec![0u32; m * k];
    let mut b_bits = vec![0u32; k * nu];
    let mut c_bits = vec![0u32; m * nu];
    let (ea, eb) = (spec.a.bits(), spec.b.bits());
    for l in lanes(active) {
        // A: component j of lane l holds `per_component` columns of one row.
        for j in 0..spec.a_components {
            let v = cx.get(a + j, l);
            let (row, col0) = lay.place(l as u32, j);
            if row >= spec.m {
                continue; // rows past M are ignored (extension, case 3)
            }
            for e in 0..lay.per_component {
                let bits = low(v >> (e * ea), ea);
                a_bits[row as usize * k + (col0 + e) as usize] = bits;
            }
        }
        // B: lane l passes column l; 32-bit components, lower rows in lower bits.
        let per_b = (spec.b_component_bits / eb).max(1);
        for i in 0..spec.b_components {
            let v = cx.get(b + i, l);
            for e in 0..per_b {
                let row = (i * per_b + e) as usize;
                if row < k {
                    b_bits[row * nu + l] = low(v >> (e * eb), eb);
                }
            }
        }
        // C: lane l passes column l, component r = row r.
        for r in 0..m {
            c_bits[r * nu + l] = low(cx.get(c + r as u32, l), spec.c.size() * 8);
        }
    }
    let am = ElementMatrix::from_bits("A", m, k, spec.a, a_bits);
    let bm = ElementMatrix::from_bits("B", k, nu, spec.b, b_bits);
    let cm = AccMatrix::from_bits("C", m, nu, spec.c, c_bits);
    let (Ok(am), Ok(bm), Ok(cm)) = (am, bm, cm) else {
        return;
    };
    let Ok(d) = matmul_instructions(&mm, &am, &bm, Some(&cm)) else {
        return;
    };
    for l in lanes(active) {
        for r in 0..m {
            cx.set(dst + r as u32, l, u64::from(d.get(r, l)));
        }
    }
}
