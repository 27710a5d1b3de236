//! Pictures of a DPAS instruction's register regions, the picture DPAS.md describes ("view
//! entire GRFs as a 2-D memory space with each row being exactly one whole GRF"): for each
//! operand (Dst, Src0, Src1 with its VNNI packing, Src2) the GRFs it touches as rows of dwords,
//! each dword labelled with the matrix elements it holds.
//!
//! - [`regions`]: the operands' cells, computed from the instruction's geometry (the same
//!   formulas the execution uses: `docs/semantics/dpas.md`, "Execution").
//! - [`text`]: the regions as a text grid; [`svg`]: as an SVG drawing.
//!
//! Labels: `D r,c` / `C r,c` for Dst/Src0 element [r][c], `B k,n` for B[k][n], `A r,k` for
//! A[r][k]; a dword holding several elements names the range (`B0-1,5` = B[0][5] and B[1][5],
//! `A0,4-7`); a 64-bit df element spans two dwords, `.lo` and `.hi`. Dwords of a touched GRF
//! that the operand does not use are `.`.

mod regions;
mod svg;
mod text;

pub use regions::{Cell, Region, regions};
pub use svg::svg;
pub use text::text;
