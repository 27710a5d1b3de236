//! Integer DPAS for every pair of precisions (u1 … s8 for A and for B), on an exec-size-8 and
//! an exec-size-16 platform, against an independent exact matrix product written here: i128
//! sums of the element values, then reduced modulo 2^32. Shapes cross tile boundaries in M
//! (RC > 8 → two instructions per column tile), N (padding) and K (chained instructions and
//! zero padding). Both the instruction path and the fast GEMM are checked.

mod common;

use common::{INT_PRECISIONS, Rng, acc, int_matrix, range_of, spec};
use spvx_dpas::gemm::{IntKernel, matmul_fast_with};
use spvx_dpas::matrix::matmul_instructions;
use spvx_dpas::{DataType, Platform};

fn exact(a: &[i64], b: &[i64], c: &[i64], m: usize, k: usize, n: usize) -> Vec<u32> {
    let mut out = Vec::with_capacity(m * n);
    for r in 0..m {
        for j in 0..n {
            let mut s: i128 = i128::from(c[r * n + j]);
            for t in 0..k {
                s += i128::from(a[r * k + t]) * i128::from(b[t * n + j]);
            }
            out.push(s.rem_euclid(1 << 32) as u32);
        }
    }
    out
}

fn run_case(
    rng: &mut Rng,
    platform: Platform,
    pa: spvx_dpas::Precision,
    pb: spvx_dpas::Precision,
    extreme: bool,
) {
    let m = rng.range(1, 11) as usize;
    let k = rng.range(1, 140) as usize;
    let n = rng.range(1, 20) as usize;
    let (alo, ahi) = range_of(pa);
    let (blo, bhi) = range_of(pb);
    let pick = |rng: &mut Rng, lo: i64, hi: i64| {
        if extreme {
            if rng.below(2) == 0 { lo } else { hi }
        } else {
            rng.range(lo, hi)
        }
    };
    let av: Vec<i64> = (0..m * k).map(|_| pick(rng, alo, ahi)).collect();
    let bv: Vec<i64> = (0..k * n).map(|_| pick(rng, blo, bhi)).collect();
    // C near the 32-bit limits so that the sums wrap.
    let cv: Vec<i64> = (0..m * n)
        .map(|_| match rng.below(3) {
            0 => i64::from(i32::MAX) - rng.range(0, 1000),
            1 => i64::from(i32::MIN) + rng.range(0, 1000),
            _ => rng.range(-5000, 5000),
        })
        .collect();
    let want_c = exact(&av, &bv, &cv, m, k, n);
    let want_null = exact(&av, &bv, &vec![0; m * n], m, k, n);
    let a = int_matrix("A", m, k, pa, &av);
    let b = int_matrix("B", k, n, pb, &bv);
    let dst = if rng.below(2) == 0 {
        DataType::D
    } else {
        DataType::Ud
    };
    let c_ty = if rng.below(2) == 0 {
        DataType::D
    } else {
        DataType::Ud
    };
    let c = acc(m, n, c_ty, cv.iter().map(|&x| x as i32 as u32).collect());
    let s = spec(platform, pa, pb, dst);
    let what = format!("{platform} A={pa} B={pb} {m}x{k}x{n}");
    let got = matmul_instructions(&s, &a, &b, Some(&c)).unwrap();
    assert_eq!(got.bits(), &want_c[..], "instructions, C given: {what}");
    let got = matmul_instructions(&s, &a, &b, None).unwrap();
    assert_eq!(
        got.bits(),
        &want_null[..],
        "instructions, null Src0: {what}"
    );
    for kernel in IntKernel::ALL.into_iter().filter(|k| k.is_available()) {
        let got = matmul_fast_with(&s, &a, &b, Some(&c), kernel).unwrap();
        assert_eq!(got.bits(), &want_c[..], "fast {kernel}, C given: {what}");
        let got = matmul_fast_with(&s, &a, &b, None, kernel).unwrap();
        assert_eq!(
            got.bits(),
            &want_null[..],
            "fast {kernel}, null Src0: {what}"
        );
    }
}

#[test]
fn every_precision_pair_against_exact_product() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for platform in [Platform::Dg2, Platform::Pvc] {
        for pa in INT_PRECISIONS {
            for pb in INT_PRECISIONS {
                run_case(&mut rng, platform, pa, pb, false);
                run_case(&mut rng, platform, pa, pb, true);
            }
        }
    }
}

#[test]
fn equal_width_pairs_on_xe3p() {
    use spvx_dpas::Precision::*;
    let mut rng = Rng(77);
    for (pa, pb) in [
        (S8, S8),
        (U8, S8),
        (S8, U8),
        (U8, U8),
        (S4, S4),
        (U4, S4),
        (U4, U4),
        (S4, U4),
    ] {
        run_case(&mut rng, Platform::Xe3p, pa, pb, false);
    }
}

#[test]
fn large_k_wraps_exactly() {
    // K = 4096 of (-128)·(-128): the exact sum 67108864 fits, and with C = i32::MAX it wraps.
    let (m, k, n) = (3, 4096, 17);
    let a = int_matrix("A", m, k, spvx_dpas::Precision::S8, &vec![-128; m * k]);
    let b = int_matrix("B", k, n, spvx_dpas::Precision::S8, &vec![-128; k * n]);
    let c = acc(m, n, DataType::D, vec![i32::MAX as u32; m * n]);
    let s = spec(
        Platform::Pvc,
        spvx_dpas::Precision::S8,
        spvx_dpas::Precision::S8,
        DataType::D,
    );
    let want = (i64::from(i32::MAX) + 4096 * 16384).rem_euclid(1 << 32) as u32;
    let d = matmul_instructions(&s, &a, &b, Some(&c)).unwrap();
    assert!(d.bits().iter().all(|&x| x == want));
    let d = spvx_dpas::gemm::matmul_fast(&s, &a, &b, Some(&c)).unwrap();
    assert!(d.bits().iter().all(|&x| x == want));
}

#[test]
fn wide_aligned_rows_against_exact_product() {
    // N a multiple of 64: the fast path stores whole 6 × 64 blocks straight from the kernel.
    let mut rng = Rng(0xa11_9e0);
    let (m, k, n) = (13, 100, 192);
    let av: Vec<i64> = (0..m * k).map(|_| rng.range(-128, 127)).collect();
    let bv: Vec<i64> = (0..k * n).map(|_| rng.range(0, 255)).collect();
    let cv: Vec<i64> = (0..m * n)
        .map(|_| rng.range(-1 << 31, (1 << 31) - 1))
        .collect();
    let want = exact(&av, &bv, &cv, m, k, n);
    let a = int_matrix("A", m, k, spvx_dpas::Precision::S8, &av);
    let b = int_matrix("B", k, n, spvx_dpas::Precision::U8, &bv);
    let c = acc(
        m,
        n,
        DataType::D,
        cv.iter().map(|&x| x as i32 as u32).collect(),
    );
    let s = spec(
        Platform::Pvc,
        spvx_dpas::Precision::S8,
        spvx_dpas::Precision::U8,
        DataType::D,
    );
    for kernel in IntKernel::ALL.into_iter().filter(|k| k.is_available()) {
        let got = matmul_fast_with(&s, &a, &b, Some(&c), kernel).unwrap();
        assert_eq!(got.bits(), &want[..], "{kernel}");
    }
    assert_eq!(
        matmul_instructions(&s, &a, &b, Some(&c)).unwrap().bits(),
        &want[..]
    );
}

#[test]
fn several_k_blocks_with_full_and_edge_blocks() {
    // K = 8300: three K blocks of the fast path (4096, 4096, 108 → 27 k-groups), so full
    // 6 × 64 blocks start from C and the terms, then twice from D; M = 13 and N = 130 add edge
    // blocks.
    use spvx_dpas::Precision::*;
    let mut rng = Rng(0x6b_b10c);
    let (m, k, n) = (13, 8300, 130);
    for (pa, pb) in [(S8, U8), (U4, S8), (S8, S8)] {
        let (alo, ahi) = range_of(pa);
        let (blo, bhi) = range_of(pb);
        let av: Vec<i64> = (0..m * k).map(|_| rng.range(alo, ahi)).collect();
        let bv: Vec<i64> = (0..k * n).map(|_| rng.range(blo, bhi)).collect();
        let cv: Vec<i64> = (0..m * n)
            .map(|_| rng.range(-1 << 31, (1 << 31) - 1))
            .collect();
        let a = int_matrix("A", m, k, pa, &av);
        let b = int_matrix("B", k, n, pb, &bv);
        let c = acc(
            m,
            n,
            DataType::D,
            cv.iter().map(|&x| x as i32 as u32).collect(),
        );
        let s = spec(Platform::Pvc, pa, pb, DataType::D);
        let want_c = exact(&av, &bv, &cv, m, k, n);
        let want_null = exact(&av, &bv, &vec![0; m * n], m, k, n);
        for kernel in IntKernel::ALL.into_iter().filter(|k| k.is_available()) {
            let got = matmul_fast_with(&s, &a, &b, Some(&c), kernel).unwrap();
            assert_eq!(got.bits(), &want_c[..], "{kernel} {pa} {pb} with C");
            let got = matmul_fast_with(&s, &a, &b, None, kernel).unwrap();
            assert_eq!(got.bits(), &want_null[..], "{kernel} {pa} {pb} null C");
        }
    }
}

#[test]
fn many_row_blocks_and_panels_against_exact_product() {
    // Larger random shapes: M splits into several unequal row-block tasks (on 1, 2 and 3 rayon
    // threads), N into several 64-column panels with a ragged last one, K into whole and
    // partial 64-byte packing pieces and k-groups; random precision pairs and extreme values.
    let mut rng = Rng(0xb10c_ca5e);
    for threads in [1, 2, 3] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        for case in 0..4 {
            let pa = INT_PRECISIONS[rng.below(8) as usize];
            let pb = INT_PRECISIONS[rng.below(8) as usize];
            let m = rng.range(40, 160) as usize;
            let k = rng.range(1, 600) as usize;
            let n = rng.range(60, 280) as usize;
            let (alo, ahi) = range_of(pa);
            let (blo, bhi) = range_of(pb);
            let extreme = case % 2 == 1;
            let pick = |rng: &mut Rng, lo: i64, hi: i64| {
                if extreme && rng.below(4) != 0 {
                    if rng.below(2) == 0 { lo } else { hi }
                } else {
                    rng.range(lo, hi)
                }
            };
            let av: Vec<i64> = (0..m * k).map(|_| pick(&mut rng, alo, ahi)).collect();
            let bv: Vec<i64> = (0..k * n).map(|_| pick(&mut rng, blo, bhi)).collect();
            let cv: Vec<i64> = (0..m * n)
                .map(|_| rng.range(-1 << 31, (1 << 31) - 1))
                .collect();
            let a = int_matrix("A", m, k, pa, &av);
            let b = int_matrix("B", k, n, pb, &bv);
            let c = acc(
                m,
                n,
                DataType::Ud,
                cv.iter().map(|&x| x as i32 as u32).collect(),
            );
            let s = spec(Platform::Pvc, pa, pb, DataType::D);
            let want_c = exact(&av, &bv, &cv, m, k, n);
            let want_null = exact(&av, &bv, &vec![0; m * n], m, k, n);
            let what = format!("{threads} threads, A={pa} B={pb} {m}x{k}x{n}");
            pool.install(|| {
                for kernel in IntKernel::ALL.into_iter().filter(|k| k.is_available()) {
                    let got = matmul_fast_with(&s, &a, &b, Some(&c), kernel).unwrap();
                    assert_eq!(got.bits(), &want_c[..], "{kernel} with C: {what}");
                    let got = matmul_fast_with(&s, &a, &b, None, kernel).unwrap();
                    assert_eq!(got.bits(), &want_null[..], "{kernel} null C: {what}");
                }
            });
        }
    }
}

#[test]
fn large_output_against_exact_product() {
    // D of 1500 × 1400 words (8.4 MB): the fast path asks for huge pages for such outputs.
    use spvx_dpas::Precision::*;
    let mut rng = Rng(0x0009_a9e5);
    let (m, k, n) = (1500, 9, 1400);
    let av: Vec<i64> = (0..m * k).map(|_| rng.range(-128, 127)).collect();
    let bv: Vec<i64> = (0..k * n).map(|_| rng.range(-8, 7)).collect();
    let want = exact(&av, &bv, &vec![0; m * n], m, k, n);
    let a = int_matrix("A", m, k, S8, &av);
    let b = int_matrix("B", k, n, S4, &bv);
    let s = spec(Platform::Pvc, S8, S4, DataType::D);
    for kernel in IntKernel::ALL.into_iter().filter(|k| k.is_available()) {
        let got = matmul_fast_with(&s, &a, &b, None, kernel).unwrap();
        assert!(got.bits() == &want[..], "{kernel}");
    }
}
