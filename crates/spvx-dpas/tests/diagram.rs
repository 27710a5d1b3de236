//! `diagram`: the register regions of an instruction as text and SVG, checked against grids
//! written out by hand from DPAS.md's layout rules (Src1: "each column of Src1 … packed into
//! its corresponding column of this 2-D memory space"; SRC1_OPERANDS_PER_CHAN; Src2 row-major,
//! advanced 8·OPS_PER_CHAN elements per repeat).

use spvx_dpas::diagram::{svg, text};
use spvx_dpas::isa::parse_instruction;
use spvx_dpas::{Platform, Rule};

fn show(instr: &str, platform: Platform) -> String {
    text(&parse_instruction(instr).unwrap(), platform).unwrap()
}

/// bf × bf on DG2: B (16×8) is 8 GRFs, two consecutive rows of one column per dword (dot2);
/// A (2×16) is one 32-byte GRF per row.
#[test]
fn bf16_on_dg2() {
    let want = "\
dpas.bf.bf.8.2 (M1, 8) r10.0:f null r20.0:ud r30.0:ud on dg2
M = 2 (RC), N = 8 (exec size), K = 16 (SD 8 × OPS_PER_CHAN 2); GRF = 32 bytes (8 dwords)

Dst = D (2×8 f), r10..r11
  row-major, 32 bytes per row (8 × 4-byte elements)
       dw0  dw1  dw2  dw3  dw4  dw5  dw6  dw7
  r10 D0,0 D0,1 D0,2 D0,3 D0,4 D0,5 D0,6 D0,7
  r11 D1,0 D1,1 D1,2 D1,3 D1,4 D1,5 D1,6 D1,7

Src0 = C: null (the accumulator starts at zero)

Src1 = B (16×8 bf), r20..r27
  VNNI: dword n of each GRF holds column n, 2 consecutive rows of B (row k at bits 16·(k mod 2))
           dw0      dw1      dw2      dw3      dw4      dw5      dw6      dw7
  r20   B0-1,0   B0-1,1   B0-1,2   B0-1,3   B0-1,4   B0-1,5   B0-1,6   B0-1,7
  r21   B2-3,0   B2-3,1   B2-3,2   B2-3,3   B2-3,4   B2-3,5   B2-3,6   B2-3,7
  r22   B4-5,0   B4-5,1   B4-5,2   B4-5,3   B4-5,4   B4-5,5   B4-5,6   B4-5,7
  r23   B6-7,0   B6-7,1   B6-7,2   B6-7,3   B6-7,4   B6-7,5   B6-7,6   B6-7,7
  r24   B8-9,0   B8-9,1   B8-9,2   B8-9,3   B8-9,4   B8-9,5   B8-9,6   B8-9,7
  r25 B10-11,0 B10-11,1 B10-11,2 B10-11,3 B10-11,4 B10-11,5 B10-11,6 B10-11,7
  r26 B12-13,0 B12-13,1 B12-13,2 B12-13,3 B12-13,4 B12-13,5 B12-13,6 B12-13,7
  r27 B14-15,0 B14-15,1 B14-15,2 B14-15,3 B14-15,4 B14-15,5 B14-15,6 B14-15,7

Src2 = A (2×16 bf), r30..r31
  row-major, packed, the same for every channel: 32 bytes per row, element k at bit 16·k
           dw0      dw1      dw2      dw3      dw4      dw5      dw6      dw7
  r30   A0,0-1   A0,2-3   A0,4-5   A0,6-7   A0,8-9 A0,10-11 A0,12-13 A0,14-15
  r31   A1,0-1   A1,2-3   A1,4-5   A1,6-7   A1,8-9 A1,10-11 A1,12-13 A1,14-15
";
    assert_eq!(
        show("dpas.bf.bf.8.2 (8) r10 null r20 r30", Platform::Dg2),
        want
    );
}

/// u4 (B) × s8 (A): OPS_PER_CHAN 4 (A is 8-bit), SRC1_OPERANDS_PER_CHAN = 32/(4·4) = 2, so a
/// Src1 dword holds two depths = 8 rows of B and B takes 4 GRFs; A's row is 32 bytes.
#[test]
fn u4_by_s8_on_dg2() {
    let want = "\
dpas.u4.s8.8.1 (M1, 8) r1.0:ud r3.0:ud r4.0:ud r2.0:ud on dg2
M = 1 (RC), N = 8 (exec size), K = 32 (SD 8 × OPS_PER_CHAN 4); GRF = 32 bytes (8 dwords)

Dst = D (1×8 ud), r1
  row-major, 32 bytes per row (8 × 4-byte elements)
      dw0  dw1  dw2  dw3  dw4  dw5  dw6  dw7
  r1 D0,0 D0,1 D0,2 D0,3 D0,4 D0,5 D0,6 D0,7

Src0 = C (1×8 ud), r3
  row-major, 32 bytes per row (8 × 4-byte elements)
      dw0  dw1  dw2  dw3  dw4  dw5  dw6  dw7
  r3 C0,0 C0,1 C0,2 C0,3 C0,4 C0,5 C0,6 C0,7

Src1 = B (32×8 u4), r4..r7
  VNNI: dword n of each GRF holds column n, 8 consecutive rows of B (row k at bits 4·(k mod 8))
          dw0      dw1      dw2      dw3      dw4      dw5      dw6      dw7
  r4   B0-7,0   B0-7,1   B0-7,2   B0-7,3   B0-7,4   B0-7,5   B0-7,6   B0-7,7
  r5  B8-15,0  B8-15,1  B8-15,2  B8-15,3  B8-15,4  B8-15,5  B8-15,6  B8-15,7
  r6 B16-23,0 B16-23,1 B16-23,2 B16-23,3 B16-23,4 B16-23,5 B16-23,6 B16-23,7
  r7 B24-31,0 B24-31,1 B24-31,2 B24-31,3 B24-31,4 B24-31,5 B24-31,6 B24-31,7

Src2 = A (1×32 s8), r2
  row-major, packed, the same for every channel: 32 bytes per row, element k at bit 8·k
          dw0      dw1      dw2      dw3      dw4      dw5      dw6      dw7
  r2   A0,0-3   A0,4-7  A0,8-11 A0,12-15 A0,16-19 A0,20-23 A0,24-27 A0,28-31
";
    assert_eq!(
        show("dpas.u4.s8.8.1 (8) r1:ud r3:ud r4 r2", Platform::Dg2),
        want
    );
}

/// HF Dst/Src0 rows are 32 bytes: two rows share a 64-byte GRF, and a Src0 starting half-way
/// through r0 has its row 1 in the first half of r1 (the rest of the touched GRFs is `.`).
#[test]
fn packed_hf_rows_and_unused_dwords() {
    let t = show("dpas.hf.hf.8.2 (16) r0:hf r0.16:hf r8 r16", Platform::Pvc);
    let src0: Vec<&str> = t
        .lines()
        .skip_while(|l| !l.starts_with("Src0"))
        .take(5)
        .collect();
    assert_eq!(src0[0], "Src0 = C (2×16 hf), r0..r1");
    let r0: Vec<&str> = src0[3].split_whitespace().collect();
    assert_eq!(r0[0], "r0");
    assert_eq!(&r0[1..9], &["."; 8]);
    assert_eq!(r0[9], "C0,0-1");
    assert_eq!(r0[16], "C0,14-15");
    let r1: Vec<&str> = src0[4].split_whitespace().collect();
    assert_eq!(r1[1], "C1,0-1");
    assert_eq!(&r1[9..17], &["."; 8]);
}

/// df on Xe3P: 64-bit elements span two dwords; a Src1 depth is two GRFs.
#[test]
fn df_qwords() {
    let t = show("dpas.df.df.8.1 (16) r0 null r32 r48", Platform::Xe3p);
    assert!(t.contains("Src1 = B (8×16 df), r32..r47\n"), "{t}");
    let r33 = t
        .lines()
        .find(|l| l.trim_start().starts_with("r33"))
        .unwrap();
    let cells: Vec<&str> = r33.split_whitespace().collect();
    assert_eq!(&cells[1..3], &["B0,8.lo", "B0,8.hi"]);
    assert!(t.contains("Src2 = A (1×8 df), r48\n"), "{t}");
}

#[test]
fn illegal_instructions_are_refused_by_rule() {
    let instr = parse_instruction("dpas.tf32.tf32.8.8 (8) r0 null r8 r16").unwrap();
    let e = text(&instr, Platform::Dg2).unwrap_err();
    assert_eq!(e.rule, Rule::PlatformPrecision);
    assert_eq!(
        svg(&instr, Platform::Dg2).unwrap_err().rule,
        Rule::PlatformPrecision
    );
}

/// The SVG parses as XML (roxmltree), is an SVG document, and has one labelled rectangle per
/// dword of each region, with the labels of the text grid.
#[test]
fn svg_is_well_formed_and_has_the_cells() {
    let instr = parse_instruction("dpas.bf.bf.8.2 (8) r10 null r20 r30").unwrap();
    let doc_text = svg(&instr, Platform::Dg2).unwrap();
    let doc = roxmltree::Document::parse(&doc_text).unwrap();
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    let region = |op: &str| {
        root.descendants()
            .find(|n| n.attribute("data-operand") == Some(op))
            .unwrap_or_else(|| panic!("no region {op}"))
    };
    let labels = |op: &str| -> Vec<String> {
        region(op)
            .children()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| n.text().map(str::to_string))
            .filter(|t| !t.starts_with("dw") && !t.starts_with('r'))
            .collect()
    };
    let cells = |op: &str| {
        region(op)
            .children()
            .filter(|n| n.attribute("class") == Some("cell"))
            .count()
    };
    assert_eq!(cells("Dst"), 16);
    assert_eq!(cells("Src1"), 64);
    assert_eq!(cells("Src2"), 16);
    assert!(
        root.descendants()
            .all(|n| n.attribute("data-operand") != Some("Src0"))
    );
    let b = labels("Src1");
    assert_eq!(b.len(), 64);
    assert_eq!(b[0], "B0-1,0");
    assert_eq!(b[9], "B2-3,1");
    assert_eq!(b[63], "B14-15,7");
    let a = labels("Src2");
    assert_eq!(a[8], "A1,0-1");
    let d = labels("Dst");
    assert_eq!(d[15], "D1,7");
}

/// Every precision pair, platform and repeat count: the drawing is made or refused with a
/// rule (never a panic), and the labelled dwords are exactly the operands' bits / 32: B holds
/// K·N elements of bits(W), A holds M·K of bits(A), D holds M·N of the Dst type.
#[test]
fn every_shape_counts_its_bits() {
    use spvx_dpas::Precision;
    use spvx_dpas::diagram::regions;
    let mut drawn = 0;
    for platform in Platform::ALL {
        let n = platform.exec_size();
        for w in Precision::ALL {
            for a in Precision::ALL {
                for rc in 1..=8u32 {
                    let line = format!("dpas.{w}.{a}.8.{rc} ({n}) r0 r32 r64 r128");
                    let instr = parse_instruction(&line).unwrap();
                    let Ok(rs) = regions(&instr, platform) else {
                        assert!(text(&instr, platform).is_err());
                        continue;
                    };
                    assert!(svg(&instr, platform).is_ok());
                    drawn += 1;
                    let used = |op: &str| {
                        rs.iter()
                            .find(|r| r.operand == op)
                            .unwrap()
                            .cells
                            .iter()
                            .filter(|c| c.label != ".")
                            .count() as u32
                    };
                    let ops = match (w.bits(), a.bits()) {
                        (64, _) => 1,
                        (32, _) => 1,
                        (16, _) => 2,
                        (x, y) if x == 8 || y == 8 => 4,
                        _ => 8,
                    };
                    let k = 8 * ops;
                    assert_eq!(used("Src1"), k * n * w.bits() / 32, "{line}");
                    assert_eq!(used("Src2"), rc * k * a.bits() / 32, "{line}");
                    assert_eq!(used("Dst"), rc * n * instr.dst.ty.size() / 4, "{line}");
                }
            }
        }
    }
    // Legal pairs (8 repeat counts each): XeHP, DG2: 64 integer (8×8) + bf + hf; PVC, Xe2,
    // Xe3: the same + tf32; Xe3P: 8 integer (equal 4- or 8-bit widths) + bf + hf + tf32 +
    // 4 fp8 + df.
    assert_eq!(drawn, 8 * (2 * 66 + 3 * 67 + (8 + 2 + 1 + 4 + 1)));
}
