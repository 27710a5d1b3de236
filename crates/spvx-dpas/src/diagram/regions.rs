//! The register cells of each operand of a DPAS instruction.

use std::collections::BTreeMap;

use crate::isa::{Geometry, Instruction, Operand, Src0, check};
use crate::{Illegal, Platform};

/// One dword of the register file and the elements it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cell {
    /// GRF number.
    pub grf: u32,
    /// Dword within the GRF.
    pub dword: u32,
    /// The elements (see the module documentation), or `.` for a dword the operand does not
    /// use.
    pub label: String,
}

/// One operand's region.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Region {
    /// `Dst`, `Src0`, `Src1` or `Src2`.
    pub operand: &'static str,
    /// What it holds, e.g. `D (8×16 f)`, or why there is no region (`null`).
    pub title: String,
    /// How its elements are laid out.
    pub layout: String,
    /// First and last GRF touched (`None` for a null Src0).
    pub grfs: Option<(u32, u32)>,
    /// Every dword of the touched GRFs, GRF by GRF.
    pub cells: Vec<Cell>,
}

/// Labels by global dword index (byte / 4).
type Labels = BTreeMap<u64, String>;

fn range(what: &str, fixed: u32, lo: u32, hi: u32, fixed_first: bool) -> String {
    let span = if lo == hi {
        lo.to_string()
    } else {
        format!("{lo}-{hi}")
    };
    if fixed_first {
        format!("{what}{fixed},{span}")
    } else {
        format!("{what}{span},{fixed}")
    }
}

/// Dst or Src0: element [r][c] at `base + (r·cols + c)·size`.
fn acc_labels(letter: &str, op: &Operand, g: &Geometry, grf: u32) -> Labels {
    let base = op.byte_offset(grf);
    let size = u64::from(op.ty.size());
    let mut cells: BTreeMap<u64, Vec<(u32, u32)>> = BTreeMap::new();
    let mut labels = Labels::new();
    for r in 0..g.rows {
        for c in 0..g.cols {
            let at = base + u64::from(r * g.cols + c) * size;
            if size == 8 {
                labels.insert(at / 4, format!("{letter}{r},{c}.lo"));
                labels.insert(at / 4 + 1, format!("{letter}{r},{c}.hi"));
            } else {
                cells.entry(at / 4).or_default().push((r, c));
            }
        }
    }
    for (dw, elems) in cells {
        let (r, c0) = elems[0];
        let c1 = elems[elems.len() - 1].1;
        labels.insert(dw, range(letter, r, c0, c1, true));
    }
    labels
}

/// Src1 = B (K×N): VNNI, 32/bits(W) consecutive rows of one column per dword; df: one qword
/// per element, ExecSize qwords per depth.
fn src1_labels(instr: &Instruction, g: &Geometry, grf: u32) -> Labels {
    let base = instr.src1.byte_offset(grf) / 4;
    let mut labels = Labels::new();
    if instr.w.is_df() {
        for d in 0..g.k {
            for n in 0..g.cols {
                let dw = base + u64::from(d * g.cols + n) * 2;
                labels.insert(dw, format!("B{d},{n}.lo"));
                labels.insert(dw + 1, format!("B{d},{n}.hi"));
            }
        }
        return labels;
    }
    let per = 32 / instr.w.bits();
    let rows_of_grfs = g.k.div_ceil(per);
    for gi in 0..rows_of_grfs {
        for n in 0..g.cols {
            let k0 = gi * per;
            let k1 = (k0 + per - 1).min(g.k - 1);
            let dw = base + u64::from(gi * (grf / 4) + n);
            labels.insert(dw, range("B", n, k0, k1, false));
        }
    }
    labels
}

/// Src2 = A (M×K): row-major, densely packed, element k of row r at bit (r·K + k)·bits(A).
fn src2_labels(instr: &Instruction, g: &Geometry, grf: u32) -> Labels {
    let base = instr.src2.byte_offset(grf) / 4;
    let bits = instr.a.bits();
    let mut labels = Labels::new();
    if bits == 64 {
        for r in 0..g.rows {
            for k in 0..g.k {
                let dw = base + u64::from(r * g.k + k) * 2;
                labels.insert(dw, format!("A{r},{k}.lo"));
                labels.insert(dw + 1, format!("A{r},{k}.hi"));
            }
        }
        return labels;
    }
    let per = 32 / bits;
    let dwords = g.rows * g.k / per;
    for j in 0..dwords {
        let e0 = j * per;
        let (r, k0) = (e0 / g.k, e0 % g.k);
        labels.insert(base + u64::from(j), range("A", r, k0, k0 + per - 1, true));
    }
    labels
}

fn region(
    operand: &'static str,
    title: String,
    layout: String,
    labels: &Labels,
    grf_dwords: u32,
) -> Region {
    let first = labels.keys().next().copied().unwrap_or(0) / u64::from(grf_dwords);
    let last = labels.keys().last().copied().unwrap_or(0) / u64::from(grf_dwords);
    let mut cells = Vec::new();
    for gi in first..=last {
        for d in 0..grf_dwords {
            let idx = gi * u64::from(grf_dwords) + u64::from(d);
            cells.push(Cell {
                grf: gi as u32,
                dword: d,
                label: labels.get(&idx).cloned().unwrap_or_else(|| ".".into()),
            });
        }
    }
    Region {
        operand,
        title,
        layout,
        grfs: Some((first as u32, last as u32)),
        cells,
    }
}

/// The regions of `instr` on `platform` (checked first: an illegal instruction is refused with
/// the rule it breaks). Operands are in the order Dst, Src0, Src1, Src2.
pub fn regions(instr: &Instruction, platform: Platform) -> Result<Vec<Region>, Illegal> {
    let g = check(instr, platform)?;
    let grf = platform.grf_bytes();
    let dwords = platform.grf_dwords();
    let (m, n, k) = (g.rows, g.cols, g.k);
    let mut out = Vec::new();
    let acc_layout = |ty: crate::DataType| {
        format!(
            "row-major, {} bytes per row ({n} × {}-byte elements)",
            n * ty.size(),
            ty.size()
        )
    };
    out.push(region(
        "Dst",
        format!("D ({m}×{n} {})", instr.dst.ty),
        acc_layout(instr.dst.ty),
        &acc_labels("D", &instr.dst, &g, grf),
        dwords,
    ));
    match &instr.src0 {
        Src0::Reg(op) => out.push(region(
            "Src0",
            format!("C ({m}×{n} {})", op.ty),
            acc_layout(op.ty),
            &acc_labels("C", op, &g, grf),
            dwords,
        )),
        Src0::Null(_) => out.push(Region {
            operand: "Src0",
            title: "C: null (the accumulator starts at zero)".into(),
            layout: String::new(),
            grfs: None,
            cells: Vec::new(),
        }),
    }
    let b_layout = if instr.w.is_df() {
        format!("one row of B per {} bytes: qword n holds B[k][n]", n * 8)
    } else {
        let per = 32 / instr.w.bits();
        format!(
            "VNNI: dword n of each GRF holds column n, {per} consecutive row{} of B (row k at bits {}·(k mod {per}))",
            if per == 1 { "" } else { "s" },
            instr.w.bits()
        )
    };
    out.push(region(
        "Src1",
        format!("B ({k}×{n} {})", instr.w),
        b_layout,
        &src1_labels(instr, &g, grf),
        dwords,
    ));
    out.push(region(
        "Src2",
        format!("A ({m}×{k} {})", instr.a),
        format!(
            "row-major, packed, the same for every channel: {} bytes per row, element k at bit {}·k",
            g.src2_row_bytes(),
            instr.a.bits()
        ),
        &src2_labels(instr, &g, grf),
        dwords,
    ));
    Ok(out)
}
