//! The float fast GEMM's fused multiply-add kernel (used where every product is exact in
//! fp32) and its separate multiply-and-add fallback, against the instruction-by-instruction
//! path (`matmul_instructions`, which runs `float_dot` once per simulated instruction):
//!
//! - shapes crossing the fast path's register tile (6 × 64), K block (256) and row-block
//!   edges, with inputs whose products are all exact (fp16 always; bf16 and tf32 of moderate
//!   exponents) and with C of every type;
//! - inputs whose products overflow or fall below the normal fp32 range, built so that a
//!   fused multiply-add would give other bits than the model (checked here with
//!   `f32::mul_add`), in a whole matrix and in one row of a large one (the fallback is decided
//!   per row block), also on pools of 1, 2 and 3 threads (row blocks handed out differently).

mod common;

use common::{Rng, spec};
use spvx_dpas::gemm::matmul_fast;
use spvx_dpas::matrix::{AccMatrix, ElementMatrix, matmul_instructions};
use spvx_dpas::{DataType, Platform, Precision};

/// A random pattern of `p` of moderate exponent (products of two are exact in fp32).
fn moderate(rng: &mut Rng, p: Precision) -> u32 {
    let r = rng.next();
    let sign = (r & 1) as u32;
    match p {
        // Every fp16 pattern but NaN and infinity (all products are exact).
        Precision::Fp16 => {
            let h = (r >> 8) as u32 & 0x7fff;
            sign << 15 | if h >= 0x7c00 { h & 0x3ff } else { h }
        }
        // Exponent 2^−30 .. 2^30, zeros and subnormals of bf16 excluded.
        Precision::Bf16 => sign << 15 | (97 + (r >> 8) as u32 % 61) << 7 | (r >> 20) as u32 & 0x7f,
        // tf32 in its fp32 container (low 13 bits random: the default model truncates them).
        _ => sign << 31 | (97 + (r >> 8) as u32 % 61) << 23 | (r >> 20) as u32 & 0x7f_ffff,
    }
}

fn matrix(
    name: &'static str,
    rows: usize,
    cols: usize,
    p: Precision,
    f: &mut dyn FnMut() -> u32,
) -> ElementMatrix {
    ElementMatrix::from_bits(name, rows, cols, p, (0..rows * cols).map(|_| f()).collect()).unwrap()
}

fn check(
    p: Precision,
    dst: DataType,
    a: &ElementMatrix,
    b: &ElementMatrix,
    c: Option<&AccMatrix>,
    what: &str,
) {
    let s = spec(Platform::Pvc, p, p, dst);
    let want = matmul_instructions(&s, a, b, c).unwrap();
    let got = matmul_fast(&s, a, b, c).unwrap();
    assert_eq!(got.bits(), want.bits(), "{what}");
}

#[test]
fn exact_products_across_every_block_edge() {
    let mut rng = Rng(0x5eed_f00d);
    let shapes = [
        (1, 1, 1),
        (6, 256, 64),
        (7, 257, 65),
        (13, 300, 129),
        (5, 520, 63),
        (20, 33, 200),
        (97, 40, 70),
    ];
    for p in [Precision::Fp16, Precision::Bf16, Precision::Tf32] {
        for (i, &(m, k, n)) in shapes.iter().enumerate() {
            let a = matrix("A", m, k, p, &mut || moderate(&mut rng, p));
            let b = matrix("B", k, n, p, &mut || moderate(&mut rng, p));
            let half = if p == Precision::Fp16 {
                DataType::Hf
            } else {
                DataType::Bf
            };
            let c = match i % 3 {
                0 => None,
                1 => Some(
                    AccMatrix::from_bits(
                        "C",
                        m,
                        n,
                        DataType::F,
                        (0..m * n).map(|_| rng.next() as u32).collect(),
                    )
                    .unwrap(),
                ),
                _ if p == Precision::Tf32 => None,
                _ => Some(
                    AccMatrix::from_bits(
                        "C",
                        m,
                        n,
                        half,
                        (0..m * n).map(|_| rng.next() as u32 & 0xffff).collect(),
                    )
                    .unwrap(),
                ),
            };
            let dst = if i % 2 == 1 && p != Precision::Tf32 {
                half
            } else {
                DataType::F
            };
            check(p, dst, &a, &b, c.as_ref(), &format!("{p} {m}x{k}x{n}"));
        }
    }
}

#[test]
fn fp16_specials_on_the_fused_kernel() {
    // Every fp16 pattern (infinities, NaNs, zeros, subnormals) at random, long K.
    let mut rng = Rng(99);
    let (m, k, n) = (9, 300, 70);
    let p = Precision::Fp16;
    let a = matrix("A", m, k, p, &mut || rng.next() as u32 & 0xffff);
    let b = matrix("B", k, n, p, &mut || rng.next() as u32 & 0xffff);
    check(p, DataType::F, &a, &b, None, "fp16 raw patterns");
}

/// bf16 patterns of 2^64 and of 2^−75·(1 + 2^−7): the first squared overflows fp32, the
/// second squared, ≈ 0.508·2^−149, lies below fp32's smallest subnormal.
const BIG: u32 = 0x5f80;
const TINY: u32 = 0x1a01;
/// Accumulator starts that tell the two apart after one product (below): −max, and
/// 2^−125 + 2^−148 (an odd multiple of its ulp 2^−148).
const C_BIG: u32 = 0xff7f_ffff;
const C_TINY: u32 = 0x0100_0001;

fn bf16(bits: u32) -> f32 {
    f32::from_bits(bits << 16)
}

#[test]
fn the_chosen_inputs_separate_fused_from_separate_rounding() {
    // −max + the overflowed product is +inf in the model, 2^104 when fused.
    let (big, c) = (bf16(BIG), f32::from_bits(C_BIG));
    assert_eq!(big * big + c, f32::INFINITY);
    assert_eq!(big.mul_add(big, c), 2f32.powi(104));
    // The product rounded to 2^−149 is half an ulp of C: a tie, rounded to even (up); the
    // exact product is a quarter ulp and vanishes.
    let (tiny, c) = (bf16(TINY), f32::from_bits(C_TINY));
    assert_eq!((tiny * tiny + c).to_bits(), C_TINY + 1);
    assert_eq!(tiny.mul_add(tiny, c).to_bits(), C_TINY);
}

#[test]
fn overflowing_and_underflowing_products_fall_back() {
    let p = Precision::Bf16;
    let mut rng = Rng(7);
    for (special, c_bits) in [(BIG, C_BIG), (TINY, C_TINY)] {
        // A whole small matrix of the special value, K = 1 (one product per element, then the
        // instruction's zero padding).
        let (m, k, n) = (7, 1, 66);
        let a = matrix("A", m, k, p, &mut || special);
        let b = matrix("B", k, n, p, &mut || special);
        let c = AccMatrix::from_bits("C", m, n, DataType::F, vec![c_bits; m * n]).unwrap();
        check(
            p,
            DataType::F,
            &a,
            &b,
            Some(&c),
            &format!("all {special:#x}"),
        );
        // A matrix of several row blocks: A's row 150 is the special value then zeros, B's
        // first row the special value; every other row of A is moderate and takes the fused
        // kernel.
        let (m, k, n) = (200, 40, 70);
        let row = 150;
        let mut i = 0;
        let a = matrix("A", m, k, p, &mut || {
            let (r, kk) = (i / k, i % k);
            i += 1;
            match (r == row, kk) {
                (true, 0) => special,
                (true, _) => 0,
                _ => moderate(&mut rng, p),
            }
        });
        let mut j = 0;
        let b = matrix("B", k, n, p, &mut || {
            j += 1;
            if j <= n {
                special
            } else {
                moderate(&mut rng, p)
            }
        });
        let c = AccMatrix::from_bits("C", m, n, DataType::F, vec![c_bits; m * n]).unwrap();
        check(
            p,
            DataType::F,
            &a,
            &b,
            Some(&c),
            &format!("row of {special:#x}"),
        );
    }
}

#[test]
fn row_blocks_on_one_two_and_three_threads() {
    // 347 rows: 58 micro-panels, handed out in chunks of different sizes on each pool; the
    // row of 2^100 (times B's values up to 2^31: products that may overflow) makes its chunk
    // take the separate kernel.
    let p = Precision::Bf16;
    let mut rng = Rng(31);
    let (m, k, n) = (347, 530, 67);
    let mut i = 0;
    let a = matrix("A", m, k, p, &mut || {
        i += 1;
        if (i - 1) / k == 200 {
            0x7180
        } else {
            moderate(&mut rng, p)
        }
    });
    let b = matrix("B", k, n, p, &mut || moderate(&mut rng, p));
    let s = spec(Platform::Pvc, p, p, DataType::F);
    let want = matmul_instructions(&s, &a, &b, None).unwrap();
    for threads in [1, 2, 3] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let got = pool.install(|| matmul_fast(&s, &a, &b, None).unwrap());
        assert_eq!(got.bits(), want.bits(), "{threads} threads");
    }
}
