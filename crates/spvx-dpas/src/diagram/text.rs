//! A DPAS instruction's regions as a text grid: one line per GRF, one column per dword.

use std::fmt::Write;

use super::{Region, regions};
use crate::isa::{Geometry, Instruction};
use crate::{Illegal, Platform};

/// The heading shared by the text and SVG forms.
pub(super) fn heading(instr: &Instruction, platform: Platform, g: &Geometry) -> [String; 2] {
    [
        format!("{instr} on {platform}"),
        format!(
            "M = {} (RC), N = {} (exec size), K = {} (SD {} × OPS_PER_CHAN {}); GRF = {} bytes ({} dwords)",
            g.rows,
            g.cols,
            g.k,
            instr.sd,
            g.ops,
            platform.grf_bytes(),
            platform.grf_dwords()
        ),
    ]
}

fn grf_span(region: &Region) -> String {
    match region.grfs {
        Some((a, b)) if a == b => format!("r{a}"),
        Some((a, b)) => format!("r{a}..r{b}"),
        None => String::new(),
    }
}

fn grid(out: &mut String, region: &Region, dwords: u32) {
    let width = region
        .cells
        .iter()
        .map(|c| c.label.len())
        .chain([format!("dw{}", dwords - 1).len()])
        .max()
        .unwrap_or(1);
    let Some((first, last)) = region.grfs else {
        return;
    };
    let row_width = format!("r{last}").len();
    let _ = write!(out, "  {:row_width$}", "");
    for d in 0..dwords {
        let _ = write!(out, " {:>width$}", format!("dw{d}"));
    }
    out.push('\n');
    for (i, gi) in (first..=last).enumerate() {
        let _ = write!(out, "  {:>row_width$}", format!("r{gi}"));
        let cells = &region.cells[i * dwords as usize..(i + 1) * dwords as usize];
        for c in cells {
            let _ = write!(out, " {:>width$}", c.label);
        }
        out.push('\n');
    }
}

/// The regions of `instr` on `platform` as text (an illegal instruction is refused with the
/// rule it breaks).
pub fn text(instr: &Instruction, platform: Platform) -> Result<String, Illegal> {
    let g = crate::isa::check(instr, platform)?;
    let regions = regions(instr, platform)?;
    let mut out = String::new();
    for line in heading(instr, platform, &g) {
        out.push_str(&line);
        out.push('\n');
    }
    for region in &regions {
        out.push('\n');
        let span = grf_span(region);
        let _ = write!(out, "{} = {}", region.operand, region.title);
        if !span.is_empty() {
            let _ = write!(out, ", {span}");
        }
        out.push('\n');
        if !region.layout.is_empty() {
            let _ = writeln!(out, "  {}", region.layout);
        }
        grid(&mut out, region, platform.grf_dwords());
    }
    Ok(out)
}
