//! Text syntax, register-file images and the encoder fields: parse errors with line and
//! column, the printed form parsing back to the same instruction, raw and hex images, and the
//! opcode / Exec_size byte / info dword against values worked out by hand from DPAS.md and
//! IGC's `DpasInfoToUI32` (W in bits 7:0, A 15:8, SD 23:16, RC 31:24).

use spvx_dpas::isa::encoding::{FIELD_ORDER, OPCODE, decode_info, exec_size_byte, info_dword};
use spvx_dpas::isa::{ExecMask, Operand, Src0, parse_instruction, parse_program};
use spvx_dpas::{DataType, Precision, RegFileError, RegisterFile};

#[test]
fn parses_every_part() {
    let i = parse_instruction("DPAS.u4.S8.8.3 (M2_NM, 16) r40.16:hf null:f r8.0:d r0.8:ud // c")
        .unwrap();
    assert_eq!(
        (i.w, i.a, i.sd, i.rc, i.exec_size),
        (Precision::U4, Precision::S8, 8, 3, 16)
    );
    assert_eq!(
        i.mask,
        ExecMask {
            offset: 1,
            no_mask: true
        }
    );
    assert_eq!(i.dst, Operand::new(40, 16, DataType::Hf));
    assert_eq!(i.src0, Src0::Null(Some(DataType::F)));
    assert_eq!(i.src1, Operand::new(8, 0, DataType::D));
    assert_eq!(i.src2, Operand::new(0, 8, DataType::Ud));
    // Defaults: Dst/Src0 d for integer, f for float; Src1/Src2 ud; sub 0.
    let i = parse_instruction("dpas.bf.bf.8.8 (16) r1 r2, r3, r4").unwrap();
    assert_eq!(i.dst, Operand::new(1, 0, DataType::F));
    assert_eq!(i.src0, Src0::Reg(Operand::new(2, 0, DataType::F)));
    assert_eq!(i.src1, Operand::new(3, 0, DataType::Ud));
    let i = parse_instruction("dpas.s2.u2.8.1 (8) r1 null r3 r4").unwrap();
    assert_eq!(i.dst.ty, DataType::D);
}

#[test]
fn display_parses_back() {
    for text in [
        "dpas.u4.s8.8.3 (M2_NM, 16) r40.16:hf null:f r8.0:d r0.8:ud",
        "dpas.tf32.tf32.8.8 (16) r1 r2 r3 r4",
        "dpas.hf8.bf8.8.1 (M8, 16) r1.0:bf null r3 r4",
    ] {
        let i = parse_instruction(text).unwrap();
        let again = parse_instruction(&i.to_string()).unwrap();
        assert_eq!(i, again, "{text} -> {i}");
    }
}

fn error_at(text: &str) -> (usize, usize, String) {
    let e = parse_program(text).unwrap_err();
    (e.line, e.column, e.message)
}

#[test]
fn errors_have_line_and_column() {
    let (l, c, m) = error_at("\n  dpas.s8.x9.8.8 (16) r1 r2 r3 r4");
    assert_eq!((l, c), (2, 11));
    assert!(m.contains("unknown precision `x9`"), "{m}");
    let (l, c, m) = error_at("dpas.s8.s8.8 (16) r1 r2 r3 r4");
    assert_eq!((l, c), (1, 1));
    assert!(m.contains("dpas.W.A.SD.RC"), "{m}");
    let (_, c, m) = error_at("dpas.s8.s8.8.x (16) r1 r2 r3 r4");
    assert_eq!(c, 14);
    assert!(m.contains("repeat count"), "{m}");
    let (_, c, m) = error_at("mad.s8.s8.8.8 (16) r1 r2 r3 r4");
    assert_eq!(c, 1);
    assert!(m.contains("unknown instruction `mad`"), "{m}");
    let (_, _, m) = error_at("dpasw.s8.s8.8.8 (8) r1 r2 r3 r4");
    assert!(m.contains("DPASW"), "{m}");
    let (_, c, m) = error_at("dpas.s8.s8.8.8 16 r1 r2 r3 r4");
    assert_eq!(c, 16);
    assert!(m.contains("exec size"), "{m}");
    let (_, _, m) = error_at("dpas.s8.s8.8.8 (16 r1 r2 r3 r4");
    assert!(m.contains("missing `)`"), "{m}");
    let (_, _, m) = error_at("dpas.s8.s8.8.8 (M9, 16) r1 r2 r3 r4");
    assert!(m.contains("execution mask"), "{m}");
    let (_, c, m) = error_at("dpas.s8.s8.8.8 (16) null r2 r3 r4");
    assert_eq!(c, 21);
    assert!(m.contains("Dst cannot be null"), "{m}");
    let (_, c, m) = error_at("dpas.s8.s8.8.8 (16) r1 r2 g3 r4");
    assert_eq!(c, 27);
    assert!(m.contains("Src1"), "{m}");
    let (_, c, m) = error_at("dpas.s8.s8.8.8 (16) r1:q r2 r3 r4");
    assert_eq!(c, 24);
    assert!(m.contains("unknown operand type `q`"), "{m}");
    let (_, _, m) = error_at("dpas.s8.s8.8.8 (16) r1 r2 r3");
    assert!(m.contains("expected Src2"), "{m}");
    let (_, c, m) = error_at("dpas.s8.s8.8.8 (16) r1 r2 r3 r4 r5");
    assert_eq!(c, 33);
    assert!(m.contains("unexpected text"), "{m}");
    let (_, _, m) = error_at("dpas.s8.s8.8.8 (16) r99999999999 r2 r3 r4");
    assert!(m.contains("not a register operand"), "{m}");
}

#[test]
fn comments_and_blank_lines() {
    let p =
        parse_program("# header\n\n dpas.s8.s8.8.8 (16) r1 r2 r3 r4 ; trailing\n// x\n").unwrap();
    assert_eq!(p.instructions().len(), 1);
    assert_eq!(p.instructions()[0].0, 3);
    assert!(parse_program("").unwrap().instructions().is_empty());
}

#[test]
fn raw_images() {
    let mut rf = RegisterFile::with_grf_bytes(32, 4).unwrap();
    rf.set_dword(1, 2, 0x1122_3344).unwrap();
    let raw = rf.to_raw();
    assert_eq!(raw.len(), 128);
    assert_eq!(&raw[40..44], &[0x44, 0x33, 0x22, 0x11]);
    assert_eq!(RegisterFile::from_raw(&raw, 32, 4).unwrap(), rf);
    // Shorter images fill the first GRFs.
    let short = RegisterFile::from_raw(&raw[..64], 32, 4).unwrap();
    assert_eq!(short.dword(1, 2).unwrap(), 0x1122_3344);
    assert!(matches!(
        RegisterFile::from_raw(&raw[..63], 32, 4),
        Err(RegFileError::BadRawLength { .. })
    ));
    assert!(matches!(
        RegisterFile::from_raw(&[0; 160], 32, 4),
        Err(RegFileError::BadRawLength { .. })
    ));
    assert!(matches!(
        RegisterFile::with_grf_bytes(32, 0),
        Err(RegFileError::BadCount(0))
    ));
    assert!(matches!(
        RegisterFile::with_grf_bytes(32, 257),
        Err(RegFileError::BadCount(257))
    ));
    assert!(matches!(
        rf.dword(4, 0),
        Err(RegFileError::OutOfBounds { .. })
    ));
    assert!(rf.read_u32(usize::MAX - 1).is_err());
}

#[test]
fn hex_images() {
    let text = "r2: 00000001 0x00000002 3 4 5 6 7 ffffffff  # c\n\n// only r2\n";
    let rf = RegisterFile::from_hex(text, 32, 8).unwrap();
    assert_eq!(rf.grf(2).unwrap(), vec![1, 2, 3, 4, 5, 6, 7, 0xffff_ffff]);
    let out = rf.to_hex();
    assert!(
        out.contains(
            "\nr2: 00000001 00000002 00000003 00000004 00000005 00000006 00000007 ffffffff\n"
        ),
        "{out}"
    );
    assert_eq!(out.lines().count(), 2);
    assert_eq!(RegisterFile::from_hex(&out, 32, 8).unwrap(), rf);
    for (bad, what) in [
        ("r2 00000001", "expected `rN:"),
        ("x2: 1 2 3 4 5 6 7 8", "not a register name"),
        ("r9: 1 2 3 4 5 6 7 8", "does not exist"),
        ("r1: 1 2 3", "has 3 dwords"),
        ("r1: 1 2 3 4 5 6 7 1ffffffff", "not a 32-bit hex number"),
    ] {
        let e = RegisterFile::from_hex(bad, 32, 8).unwrap_err().to_string();
        assert!(e.contains(what) && e.contains("line 1"), "{bad}: {e}");
    }
}

#[test]
fn encoder_fields() {
    assert_eq!(OPCODE, 0x83);
    assert_eq!(
        FIELD_ORDER,
        [
            "opcode",
            "exec_size",
            "dst",
            "src0",
            "src1",
            "src2",
            "W",
            "A",
            "SD",
            "RC"
        ]
    );
    // u4 = 5, s8 = 8: 0x08_08_08_05 for dpas.u4.s8.8.8.
    let i = parse_instruction("dpas.u4.s8.8.8 (16) r1 r2 r3 r4").unwrap();
    assert_eq!(info_dword(&i), Some(0x0808_0805));
    assert_eq!(exec_size_byte(&i), Some(0b0000_0100));
    // tf32 = 12 (not DPAS.md's later 0x0b, which is bf8), RC 3, mask M2_NM on exec 8.
    let i = parse_instruction("dpas.tf32.tf32.8.3 (M2_NM, 8) r1 r2 r3 r4").unwrap();
    assert_eq!(info_dword(&i), Some(0x0308_0c0c));
    assert_eq!(exec_size_byte(&i), Some(0b1001_0011));
    let i = parse_instruction("dpas.bf8.hf8.8.1 (16) r1 r2 r3 r4").unwrap();
    assert_eq!(info_dword(&i), Some(0x0108_0e0b));
    assert_eq!(
        decode_info(0x0108_0e0b).unwrap(),
        (Precision::Bf8, Precision::Hf8, 8, 1)
    );
    assert!(decode_info(0x0108_0d0b).is_err()); // 13 is unassigned
}
