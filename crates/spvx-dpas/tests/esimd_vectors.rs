//! The deterministic test vectors of intel/llvm's ESIMD DPAS tests
//! (`sycl/test-e2e/ESIMD/dpas/dpas_common.hpp` with `dpas_int.cpp`, `dpas_bf16.cpp`,
//! `dpas_fp16.cpp`, `dpas_tf32.cpp`; reference/dpas.md §6), reproduced here: the same
//! generators, the same horizontal (A) and vertical (B) packers — written from the C++ code,
//! not from the crate — loaded as register images, one DPAS instruction per test parsed from
//! text, and the test's own gold value (`GoldRes = UseSrc0 ? 1 : 0; GoldRes += AVal * BVal`
//! over k) as the expected result. These tests ran on PVC and DG2 hardware, so they pin the
//! layout and the integer arithmetic to silicon behaviour; their float data sum exactly, so
//! they carry no rounding information (checked below).
//!
//! C++ detail: A is filled with `float Value = 1.2; Value += 1.1` (the addition in double,
//! stored to float) and `static_cast<signed/unsigned char>(Value)`. For values above 127/255
//! that cast is undefined in C++; the x86 compilers used convert to a 32-bit integer
//! (truncating) and keep the low 8 bits, which is what this file does.

use spvx_dpas::isa::{ExecOptions, parse_program};
use spvx_dpas::{Platform, Precision, RegisterFile};

fn bits_of(p: Precision) -> u32 {
    match p {
        Precision::U2 | Precision::S2 => 2,
        Precision::U4 | Precision::S4 => 4,
        Precision::U8 | Precision::S8 => 8,
        Precision::Bf16 | Precision::Fp16 => 16,
        Precision::Tf32 => 32,
        _ => unreachable!(),
    }
}

fn signed(p: Precision) -> bool {
    matches!(p, Precision::S2 | Precision::S4 | Precision::S8)
}

fn is_float(p: Precision) -> bool {
    matches!(p, Precision::Bf16 | Precision::Fp16 | Precision::Tf32)
}

/// `static_cast<ANaturalType>(float)` as a bit pattern of the natural type.
fn natural_bits(p: Precision, v: f32) -> u32 {
    match p {
        Precision::Fp16 => u32::from(half::f16::from_f32(v).to_bits()),
        Precision::Bf16 => u32::from(half::bf16::from_f32(v).to_bits()),
        Precision::Tf32 => v.to_bits() & 0xffff_e000,
        // char: truncate to int32, keep the low 8 bits.
        _ => (v.trunc() as i32 as u32) & 0xff,
    }
}

/// Sub-element read-back with the test's sign extension (`readFrom…PackedMatrix`).
fn read_int(p: Precision, raw: u32) -> i64 {
    let b = bits_of(p);
    let v = raw & ((1u64 << b) - 1) as u32;
    if signed(p) {
        i64::from(((v << (32 - b)) as i32) >> (32 - b))
    } else {
        i64::from(v)
    }
}

fn read_float(p: Precision, raw: u32) -> f32 {
    match p {
        Precision::Fp16 => half::f16::from_bits(raw as u16).to_f32(),
        Precision::Bf16 => half::bf16::from_bits(raw as u16).to_f32(),
        _ => f32::from_bits(raw),
    }
}

struct Case {
    rc: usize,
    b: Precision,
    a: Precision,
}

fn run(case: &Case, exec: usize, use_src0: bool) {
    let (ab, bb) = (bits_of(case.a) as usize, bits_of(case.b) as usize);
    let ops = (32 / ab.max(bb)).min(8);
    let (m, k, n) = (case.rc, 8 * ops, exec);

    // A: horizontally packed, row-major, `M·K·bits/8` bytes.
    let mut a_packed = vec![0u8; m * k * ab / 8];
    let mut a_raw = vec![0u32; m * k];
    let mut value: f32 = 1.2;
    for ii in 0..m {
        for jj in 0..k {
            value = (f64::from(value) + 1.1) as f32;
            let bits = natural_bits(case.a, value);
            let idx = ii * k + jj;
            let stored = bits & ((1u64 << ab) - 1) as u32;
            a_raw[idx] = stored;
            let bit = idx * ab;
            for (i, byte) in stored.to_le_bytes().iter().enumerate().take(ab.div_ceil(8)) {
                // Sub-byte elements never straddle a byte; wider ones are byte-aligned.
                a_packed[bit / 8 + i] |= if ab < 8 { byte << (bit % 8) } else { *byte };
            }
        }
    }
    // B: vertically packed ints, [K / (32/bits)][N].
    let per_int = 32 / bb;
    let mut b_packed = vec![0u32; (k / per_int) * n];
    let mut b_raw = vec![0u32; k * n];
    for ii in 0..k {
        for jj in 0..n {
            let v = if ii + jj % 4 == 0 {
                1
            } else {
                (2 + ii + jj) % 3
            };
            let bits = if is_float(case.b) {
                natural_bits(case.b, v as f32)
            } else {
                v as u32
            };
            let stored = bits & ((1u64 << bb) - 1) as u32;
            b_raw[ii * n + jj] = stored;
            b_packed[(ii / per_int) * n + jj] |= stored << ((ii % per_int) * bb);
        }
    }

    let platform = if exec == 8 {
        Platform::Dg2
    } else {
        Platform::Pvc
    };
    let grf = platform.grf_bytes() as usize;
    let mut regs = RegisterFile::new(platform, 128).unwrap();
    regs.write_bytes(0, &a_packed).unwrap();
    let b_bytes: Vec<u8> = b_packed.iter().flat_map(|d| d.to_le_bytes()).collect();
    regs.write_bytes(16 * grf, &b_bytes).unwrap();
    let float = is_float(case.b);
    let int_result_signed = signed(case.a) && signed(case.b);
    let dst_ty = if float {
        "f"
    } else if int_result_signed {
        "d"
    } else {
        "ud"
    };
    let one = if float { 1.0f32.to_bits() } else { 1 };
    for j in 0..m * n {
        regs.write_u32(32 * grf + 4 * j, one).unwrap();
    }
    let src0 = if use_src0 {
        format!("r32:{dst_ty}")
    } else {
        "null".into()
    };
    let text = format!(
        "dpas.{}.{}.8.{} ({exec}) r48:{dst_ty} {src0} r16 r0",
        case.b, case.a, case.rc
    );
    let program = parse_program(&text).unwrap();
    program
        .run(platform, &mut regs, &ExecOptions::default())
        .unwrap_or_else(|e| panic!("{text}: {e}"));

    for ii in 0..m {
        for jj in 0..n {
            let got = regs.read_u32(48 * grf + 4 * (ii * n + jj)).unwrap();
            if float {
                let mut gold: f32 = if use_src0 { 1.0 } else { 0.0 };
                let mut exact: f64 = f64::from(gold);
                for kk in 0..k {
                    let av = read_float(case.a, a_raw[ii * k + kk]);
                    let bv = read_float(case.b, b_raw[kk * n + jj]);
                    gold += av * bv;
                    exact += f64::from(av) * f64::from(bv);
                }
                assert_eq!(
                    f64::from(gold),
                    exact,
                    "{text}: the ESIMD data are not exact"
                );
                assert_eq!(got, gold.to_bits(), "{text} [{ii}][{jj}]");
            } else {
                let mut gold: i64 = i64::from(use_src0);
                for kk in 0..k {
                    gold +=
                        read_int(case.a, a_raw[ii * k + kk]) * read_int(case.b, b_raw[kk * n + jj]);
                }
                assert_eq!(got, gold.rem_euclid(1 << 32) as u32, "{text} [{ii}][{jj}]");
            }
        }
    }
}

fn cases(list: &[(usize, Precision, Precision)]) -> Vec<Case> {
    list.iter().map(|&(rc, b, a)| Case { rc, b, a }).collect()
}

#[test]
fn dpas_int_cpp() {
    use Precision::*;
    // tests<8, RC, B, A> in dpas_int.cpp, in its order.
    let list = cases(&[
        (8, U2, U2),
        (4, U2, U2),
        (3, U2, U2),
        (1, U2, U2),
        (8, S2, S2),
        (5, S2, S2),
        (2, S2, S2),
        (1, S2, S2),
        (1, U2, S2),
        (1, S2, U2),
        (8, S4, S4),
        (4, U4, S4),
        (8, S8, S8),
        (2, U8, S8),
        (8, S2, S4),
        (1, S2, S8),
        (4, S8, S4),
    ]);
    for case in &list {
        for exec in [8, 16] {
            for use_src0 in [true, false] {
                run(case, exec, use_src0);
            }
        }
    }
}

#[test]
fn dpas_bf16_and_fp16_cpp() {
    for p in [Precision::Bf16, Precision::Fp16] {
        for rc in [8, 4, 1, 5, 3] {
            for exec in [8, 16] {
                for use_src0 in [true, false] {
                    run(&Case { rc, b: p, a: p }, exec, use_src0);
                }
            }
        }
    }
}

#[test]
fn dpas_tf32_cpp() {
    for rc in [8, 4, 1, 5, 3] {
        for use_src0 in [true, false] {
            run(
                &Case {
                    rc,
                    b: Precision::Tf32,
                    a: Precision::Tf32,
                },
                16,
                use_src0,
            );
        }
    }
}
