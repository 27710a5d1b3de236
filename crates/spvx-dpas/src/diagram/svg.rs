//! A DPAS instruction's regions as an SVG drawing: per operand a heading and a grid of GRF rows
//! by dword columns, each dword a rectangle with its label.

use std::fmt::Write;

use super::regions;
use super::text::heading;
use crate::isa::Instruction;
use crate::{Illegal, Platform};

const CHAR: u32 = 7; // px per character of the 11 px monospace labels
const ROW: u32 = 20;
const LEFT: u32 = 56;
const LINE: u32 = 18;

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn fill(operand: &str, label: &str) -> &'static str {
    if label == "." {
        return "#f4f4f4";
    }
    match operand {
        "Dst" => "#cfe2ff",
        "Src0" => "#d1f0d1",
        "Src1" => "#ffe0b3",
        _ => "#fff3b0",
    }
}

/// The regions of `instr` on `platform` as an SVG document (an illegal instruction is refused
/// with the rule it breaks).
pub fn svg(instr: &Instruction, platform: Platform) -> Result<String, Illegal> {
    let g = crate::isa::check(instr, platform)?;
    let regions = regions(instr, platform)?;
    let dwords = platform.grf_dwords();
    let label_len = regions
        .iter()
        .flat_map(|r| r.cells.iter().map(|c| c.label.len()))
        .chain([format!("dw{}", dwords - 1).len()])
        .max()
        .unwrap_or(4) as u32;
    let cell_w = label_len * CHAR + 8;
    let width = LEFT + dwords * cell_w + 16;

    let mut body = String::new();
    let mut y = 8;
    for line in heading(instr, platform, &g) {
        y += LINE;
        let _ = writeln!(
            body,
            r#"<text x="8" y="{y}" font-weight="bold">{}</text>"#,
            escape(&line)
        );
    }
    for region in &regions {
        y += LINE + 8;
        let span = match region.grfs {
            Some((a, b)) if a == b => format!(", r{a}"),
            Some((a, b)) => format!(", r{a}..r{b}"),
            None => String::new(),
        };
        let _ = writeln!(
            body,
            r#"<text x="8" y="{y}" font-weight="bold">{} = {}{}</text>"#,
            region.operand,
            escape(&region.title),
            span
        );
        if !region.layout.is_empty() {
            y += LINE;
            let _ = writeln!(
                body,
                r#"<text x="8" y="{y}">{}</text>"#,
                escape(&region.layout)
            );
        }
        let Some((first, _)) = region.grfs else {
            continue;
        };
        y += 6;
        let _ = write!(
            body,
            r#"<g class="region" data-operand="{}">"#,
            region.operand
        );
        body.push('\n');
        for d in 0..dwords {
            let x = LEFT + d * cell_w + cell_w / 2;
            let _ = writeln!(
                body,
                r##"<text x="{x}" y="{}" text-anchor="middle" fill="#666">dw{d}</text>"##,
                y + 14
            );
        }
        y += ROW;
        for (i, cell) in region.cells.iter().enumerate() {
            let row = i as u32 / dwords;
            let top = y + row * ROW;
            if cell.dword == 0 {
                let _ = writeln!(
                    body,
                    r##"<text x="8" y="{}" fill="#666">r{}</text>"##,
                    top + 14,
                    first + row
                );
            }
            let x = LEFT + cell.dword * cell_w;
            let _ = writeln!(
                body,
                r##"<rect class="cell" x="{x}" y="{top}" width="{cell_w}" height="{ROW}" fill="{}" stroke="#888"/><text x="{}" y="{}" text-anchor="middle">{}</text>"##,
                fill(region.operand, &cell.label),
                x + cell_w / 2,
                top + 14,
                escape(&cell.label)
            );
        }
        y += (region.cells.len() as u32 / dwords) * ROW;
        body.push_str("</g>\n");
    }
    let height = y + 16;
    Ok(format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" font-family=\"monospace\" font-size=\"11\">\n<title>{}</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n{body}</svg>\n",
        escape(&instr.to_string())
    ))
}
