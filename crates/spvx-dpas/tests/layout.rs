//! Register layouts against hand-written register images: the packing functions of the
//! matrix API must produce the images written out here, and DPAS programs run over
//! hand-written register files must leave the hand-computed results. Layout rules (DPAS.md,
//! reference/dpas.md §1): Src2 = A row-major, element 0 in the low bits; Src1 = B with
//! element [k][n] in GRF k/(32/bits), lane n, bits (k mod (32/bits))·bits; Dst rows packed.

mod common;

use common::{acc, int_matrix, spec};
use spvx_dpas::isa::{ExecOptions, parse_program};
use spvx_dpas::matrix::layout::{acc_image, src1_image, src2_image};
use spvx_dpas::matrix::{ElementMatrix, matmul_instructions};
use spvx_dpas::{DataType, Platform, Precision, RegisterFile};

fn run(text: &str, platform: Platform, regs_hex: &str) -> RegisterFile {
    let grf = platform.grf_bytes() as usize;
    let mut regs = RegisterFile::from_hex(regs_hex, grf, 128).unwrap();
    let program = parse_program(text).unwrap();
    program
        .run(platform, &mut regs, &ExecOptions::default())
        .unwrap();
    regs
}

fn le(dwords: &[u32]) -> Vec<u8> {
    dwords.iter().flat_map(|d| d.to_le_bytes()).collect()
}

// --- Case 1: DG2, s8 × s8, RC 2. A row 0 = 1..=32, row 1 = -1..=-32; B[k][n] = 1 if k = n
// (n < 8), B[31][n] = 2; everything else 0.
const CASE1_REGS: &str = "
# Src2 = A (two 32-byte rows = r0, r1 on DG2)
r0: 04030201 08070605 0c0b0a09 100f0e0d 14131211 18171615 1c1b1a19 201f1e1d
r1: fcfdfeff f8f9fafb f4f5f6f7 f0f1f2f3 ecedeeef e8e9eaeb e4e5e6e7 e0e1e2e3
# Src1 = B: GRF g holds k = 4g..4g+3, lane n
r8:  00000001 00000100 00010000 01000000 00000000 00000000 00000000 00000000
r9:  00000000 00000000 00000000 00000000 00000001 00000100 00010000 01000000
r15: 02000000 02000000 02000000 02000000 02000000 02000000 02000000 02000000
";

#[test]
fn case1_s8_program_on_dg2() {
    let regs = run(
        "dpas.s8.s8.8.2 (8) r40:d null r8:ud r0:ud",
        Platform::Dg2,
        CASE1_REGS,
    );
    // D[0][n] = (n + 1) + 2·32; D[1][n] = -(n + 1) - 64.
    assert_eq!(regs.grf(40).unwrap(), vec![65, 66, 67, 68, 69, 70, 71, 72]);
    let row1: Vec<u32> = (1..=8).map(|n: i32| (-n - 64) as u32).collect();
    assert_eq!(regs.grf(41).unwrap(), row1);
    // Nothing else was written.
    assert_eq!(regs.grf(42).unwrap(), vec![0; 8]);
}

#[test]
fn case1_packing_matches_the_image() {
    let av: Vec<i64> = (1..=32).chain((1..=32).map(|v: i64| -v)).collect();
    let a = int_matrix("A", 2, 32, Precision::S8, &av);
    let mut bv = vec![0i64; 32 * 8];
    for n in 0..8 {
        bv[n * 8 + n] = 1;
        bv[31 * 8 + n] = 2;
    }
    let b = int_matrix("B", 32, 8, Precision::S8, &bv);
    let regs = RegisterFile::from_hex(CASE1_REGS, 32, 128).unwrap();
    assert_eq!(src2_image(&a, 0, 2, 0, 32), regs.bytes(0, 64).unwrap());
    assert_eq!(
        le(&src1_image(&b, 0, 32, 0, 8)),
        regs.bytes(8 * 32, 8 * 32).unwrap()
    );
    // The matrix API gives the same D.
    let d = matmul_instructions(
        &spec(Platform::Dg2, Precision::S8, Precision::S8, DataType::D),
        &a,
        &b,
        None,
    )
    .unwrap();
    let want: Vec<u32> = (1..=8)
        .map(|n| 64 + n)
        .chain((1..=8).map(|n: i32| (-n - 64) as u32))
        .collect();
    assert_eq!(d.bits(), &want[..]);
}

// --- Case 2: PVC, u2 B × s4 A (OPS 8, K 64). B[17][5] = 3, B[63][n] = 1; A[0][17] = -8,
// A[0][63] = 7. B spans 4 GRFs (16 depths per dword); A's row is 32 bytes.
const CASE2_REGS: &str = "
r0: 00000000 00000000 00000080 00000000 00000000 00000000 00000000 70000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000
r9: 00000000 00000000 00000000 00000000 00000000 0000000c 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000
r11: 40000000 40000000 40000000 40000000 40000000 40000000 40000000 40000000 40000000 40000000 40000000 40000000 40000000 40000000 40000000 40000000
";

#[test]
fn case2_sub_byte_program_on_pvc() {
    let regs = run(
        "dpas.u2.s4.8.1 (16) r40:d null r8 r0",
        Platform::Pvc,
        CASE2_REGS,
    );
    let mut want = vec![7u32; 16];
    want[5] = (-24i32 + 7) as u32;
    assert_eq!(regs.grf(40).unwrap(), want);
}

#[test]
fn case2_packing_matches_the_image() {
    let mut av = vec![0i64; 64];
    av[17] = -8;
    av[63] = 7;
    let a = int_matrix("A", 1, 64, Precision::S4, &av);
    let mut bv = vec![0i64; 64 * 16];
    bv[17 * 16 + 5] = 3;
    for n in 0..16 {
        bv[63 * 16 + n] = 1;
    }
    let b = int_matrix("B", 64, 16, Precision::U2, &bv);
    let regs = RegisterFile::from_hex(CASE2_REGS, 64, 128).unwrap();
    assert_eq!(src2_image(&a, 0, 1, 0, 64), regs.bytes(0, 32).unwrap());
    assert_eq!(
        le(&src1_image(&b, 0, 64, 0, 16)),
        regs.bytes(8 * 64, 4 * 64).unwrap()
    );
}

// --- Case 3: PVC, bf16, RC 2, Src0 F = 0.5, Dst BF (rows of 16 × 2 bytes, both in r40).
// A row 0 = 1.0 (0x3f80), row 1 = -1.0 (0xbf80); B[k][n] = 2.0 (0x4000) if k = n.
fn case3_regs() -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "r0: {}\n",
        ["3f803f80"; 8]
            .iter()
            .chain(["bf80bf80"; 8].iter())
            .cloned()
            .collect::<Vec<_>>()
            .join(" ")
    ));
    // GRF 8 + g holds k = 2g (low half) and 2g + 1 (high half).
    for g in 0..8 {
        let mut lanes = vec!["00000000"; 16];
        lanes[2 * g] = "00004000";
        lanes[2 * g + 1] = "40000000";
        s.push_str(&format!("r{}: {}\n", 8 + g, lanes.join(" ")));
    }
    s.push_str(&format!(
        "r32: {}\nr33: {}\n",
        ["3f000000"; 16].join(" "),
        ["3f000000"; 16].join(" ")
    ));
    s
}

#[test]
fn case3_bf16_with_bf_dst() {
    let regs = run(
        "dpas.bf.bf.8.2 (16) r40:bf r32:f r8 r0",
        Platform::Pvc,
        &case3_regs(),
    );
    // 0.5 + 2 = 2.5 = bf16 0x4020; 0.5 - 2 = -1.5 = 0xbfc0; row 1 starts at byte 32.
    let mut want = vec![0x4020_4020u32; 8];
    want.extend(vec![0xbfc0_bfc0u32; 8]);
    assert_eq!(regs.grf(40).unwrap(), want);
    assert_eq!(regs.grf(41).unwrap(), vec![0; 16]);
    // With an F Dst the rows are whole GRFs: 2.5 = 0x40200000, -1.5 = 0xbfc00000.
    let regs = run(
        "dpas.bf.bf.8.2 (16) r40:f r32:f r8 r0",
        Platform::Pvc,
        &case3_regs(),
    );
    assert_eq!(regs.grf(40).unwrap(), vec![0x4020_0000; 16]);
    assert_eq!(regs.grf(41).unwrap(), vec![0xbfc0_0000; 16]);
}

#[test]
fn case3_packing_and_acc_image() {
    let regs = RegisterFile::from_hex(&case3_regs(), 64, 128).unwrap();
    let a = ElementMatrix::from_bits(
        "A",
        2,
        16,
        Precision::Bf16,
        [vec![0x3f80; 16], vec![0xbf80; 16]].concat(),
    )
    .unwrap();
    let mut bb = vec![0u32; 16 * 16];
    for k in 0..16 {
        bb[k * 16 + k] = 0x4000;
    }
    let b = ElementMatrix::from_bits("B", 16, 16, Precision::Bf16, bb).unwrap();
    assert_eq!(src2_image(&a, 0, 2, 0, 16), regs.bytes(0, 64).unwrap());
    assert_eq!(
        le(&src1_image(&b, 0, 16, 0, 16)),
        regs.bytes(8 * 64, 8 * 64).unwrap()
    );
    // A BF accumulator image: row r = 16 packed halves.
    let c = acc(
        2,
        3,
        DataType::Bf,
        vec![0x1111, 0x2222, 0x3333, 0x4444, 0x5555, 0x6666],
    );
    let img = acc_image(&c, 0, 2, 0, 4);
    assert_eq!(
        img,
        vec![
            0x11, 0x11, 0x22, 0x22, 0x33, 0x33, 0, 0, 0x44, 0x44, 0x55, 0x55, 0x66, 0x66, 0, 0
        ]
    );
}

// --- Case 4: PVC, tf32 (OPS 1, K 8): B[k] in GRF k, one dword per lane; A row = 8 dwords.
// A[0][k] = 1.0 + low bits set (0x3f801fff: tf32 ignores the low 13 bits), B[k][n] = k + 1
// for n = k, else 0. D[0][n] = n + 1 for n < 8, 0 for n ≥ 8; Src0 null.
#[test]
fn case4_tf32_truncates_low_bits() {
    let mut s = format!(
        "r0: {} {}\n",
        ["3f801fff"; 8].join(" "),
        ["00000000"; 8].join(" ")
    );
    let floats = [
        "3f800000", "40000000", "40400000", "40800000", "40a00000", "40c00000", "40e00000",
        "41000000",
    ];
    for (k, f) in floats.iter().enumerate() {
        let mut lanes = vec!["00000000"; 16];
        lanes[k] = f;
        s.push_str(&format!("r{}: {}\n", 8 + k, lanes.join(" ")));
    }
    let regs = run(
        "dpas.tf32.tf32.8.1 (16) r40:f null r8 r0",
        Platform::Pvc,
        &s,
    );
    let mut want: Vec<u32> = floats
        .iter()
        .map(|f| u32::from_str_radix(f, 16).unwrap())
        .collect();
    want.extend([0; 8]);
    assert_eq!(regs.grf(40).unwrap(), want);
}

// --- Case 5: DG2, hf, RC 1: A = [1.0, 2.0, 0 …] (0x3c00, 0x4000), B[0][n] = n (as fp16),
// B[1][n] = 0.5 (0x3800). D[0][n] = n + 1 (fp32), Src0 null.
#[test]
fn case5_hf_on_dg2() {
    let halves: [u32; 8] = [
        0x0000, 0x3c00, 0x4000, 0x4200, 0x4400, 0x4500, 0x4600, 0x4700,
    ];
    let lanes: Vec<String> = halves
        .iter()
        .map(|h| format!("{:08x}", 0x3800_0000 | h))
        .collect();
    let s = format!(
        "r0: 40003c00 00000000 00000000 00000000 00000000 00000000 00000000 00000000\nr8: {}\n",
        lanes.join(" ")
    );
    let regs = run("dpas.hf.hf.8.1 (8) r40:f null r8 r0", Platform::Dg2, &s);
    let want: Vec<u32> = (1..=8).map(|v| (v as f32).to_bits()).collect();
    assert_eq!(regs.grf(40).unwrap(), want);
}

#[test]
fn src2_overlapping_rows_use_running_k() {
    // RC 2 with Src2 at r0.8 on PVC: row 0 at bytes 32..64, row 1 at bytes 64..96 (the next
    // GRF): Src2 advances one row of A per repeat, not one GRF.
    let s = "r0: 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 01010101 01010101 01010101 01010101 01010101 01010101 01010101 01010101\n\
             r1: 02020202 02020202 02020202 02020202 02020202 02020202 02020202 02020202 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000\n\
             r8: 00000001 00000001 00000001 00000001 00000001 00000001 00000001 00000001 00000001 00000001 00000001 00000001 00000001 00000001 00000001 00000001\n";
    let regs = run("dpas.u8.u8.8.2 (16) r40:ud null r8 r0.8", Platform::Pvc, s);
    assert_eq!(regs.grf(40).unwrap(), vec![1; 16]);
    assert_eq!(regs.grf(41).unwrap(), vec![2; 16]);
}
