//! Property: the fast GEMM gives the instruction-by-instruction path's bits, for random
//! shapes (crossing every tile boundary), precisions, Dst/C types, models and both integer
//! kernels. (Each path is also checked against independent references in `int_exact.rs` and
//! `float_models.rs`; this property covers far more shapes and bit patterns.)

mod common;

use common::{INT_PRECISIONS, range_of, spec};
use proptest::prelude::*;
use spvx_dpas::gemm::{IntKernel, matmul_fast_with};
use spvx_dpas::isa::ExecOptions;
use spvx_dpas::matrix::{AccMatrix, ElementMatrix, matmul_instructions};
use spvx_dpas::{BfOutputRounding, DataType, FloatModel, Platform, Precision};

fn int_case() -> impl Strategy<Value = (Precision, Precision, usize, usize, usize, bool, u64)> {
    (
        prop::sample::select(INT_PRECISIONS.to_vec()),
        prop::sample::select(INT_PRECISIONS.to_vec()),
        1usize..20,
        1usize..150,
        1usize..140,
        any::<bool>(),
        any::<u64>(),
    )
}

fn lcg(seed: &mut u64) -> u64 {
    *seed = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *seed >> 33
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn int_fast_equals_instructions((pa, pb, m, k, n, with_c, mut seed) in int_case()) {
        let (alo, ahi) = range_of(pa);
        let (blo, bhi) = range_of(pb);
        let av: Vec<i32> = (0..m * k).map(|_| (alo + (lcg(&mut seed) as i64 % (ahi - alo + 1))) as i32).collect();
        let bv: Vec<i32> = (0..k * n).map(|_| (blo + (lcg(&mut seed) as i64 % (bhi - blo + 1))) as i32).collect();
        let a = ElementMatrix::from_ints("A", m, k, pa, &av).unwrap();
        let b = ElementMatrix::from_ints("B", k, n, pb, &bv).unwrap();
        let c = with_c.then(|| {
            let bits = (0..m * n).map(|_| (lcg(&mut seed) as u32) ^ ((lcg(&mut seed) as u32) << 16)).collect();
            AccMatrix::from_bits("C", m, n, DataType::D, bits).unwrap()
        });
        for platform in [Platform::Dg2, Platform::Pvc] {
            let s = spec(platform, pa, pb, DataType::Ud);
            let slow = matmul_instructions(&s, &a, &b, c.as_ref()).unwrap();
            for kernel in IntKernel::ALL.into_iter().filter(|k| k.is_available()) {
                let fast = matmul_fast_with(&s, &a, &b, c.as_ref(), kernel).unwrap();
                prop_assert_eq!(fast.bits(), slow.bits(), "{} {} {}x{}x{} {}", platform, kernel, m, k, n, pa);
            }
        }
    }

    #[test]
    fn float_fast_equals_instructions(
        p in prop::sample::select(vec![Precision::Bf16, Precision::Fp16, Precision::Tf32]),
        m in 1usize..40,
        k in 1usize..70,
        n in 1usize..40,
        dst_half in any::<bool>(),
        c_kind in 0u8..3,
        model in prop::sample::select(FloatModel::NAMES.to_vec()),
        emulator_bf in any::<bool>(),
        mut seed in any::<u64>(),
    ) {
        // Raw bit patterns: every class of value, including NaN payloads and infinities.
        let elem = |seed: &mut u64| -> u32 {
            match p {
                Precision::Tf32 => (lcg(seed) as u32) ^ ((lcg(seed) as u32) << 16),
                _ => lcg(seed) as u32 & 0xffff,
            }
        };
        let av = (0..m * k).map(|_| elem(&mut seed)).collect();
        let bv = (0..k * n).map(|_| elem(&mut seed)).collect();
        let a = ElementMatrix::from_bits("A", m, k, p, av).unwrap();
        let b = ElementMatrix::from_bits("B", k, n, p, bv).unwrap();
        let half = if p == Precision::Fp16 { DataType::Hf } else { DataType::Bf };
        let c = match c_kind {
            0 => None,
            1 => Some(AccMatrix::from_bits("C", m, n, DataType::F, (0..m * n).map(|_| (lcg(&mut seed) as u32) ^ ((lcg(&mut seed) as u32) << 16)).collect()).unwrap()),
            _ if p == Precision::Tf32 => None,
            _ => Some(AccMatrix::from_bits("C", m, n, half, (0..m * n).map(|_| lcg(&mut seed) as u32 & 0xffff).collect()).unwrap()),
        };
        let dst = if dst_half && p != Precision::Tf32 { half } else { DataType::F };
        let mut s = spec(Platform::Pvc, p, p, dst);
        s.options = ExecOptions {
            model: FloatModel::named(model).unwrap(),
            bf_rounding: if emulator_bf { BfOutputRounding::EmulatorNormalOnly } else { BfOutputRounding::NearestEven },
        };
        let slow = matmul_instructions(&s, &a, &b, c.as_ref()).unwrap();
        let fast = matmul_fast_with(&s, &a, &b, c.as_ref(), IntKernel::Portable).unwrap();
        prop_assert_eq!(fast.bits(), slow.bits(), "{} {} {}x{}x{}", p, model, m, k, n);
    }
}

#[test]
fn illegal_combinations_fail_identically() {
    let a = ElementMatrix::from_bits("A", 2, 8, Precision::Tf32, vec![0; 16]).unwrap();
    let b = ElementMatrix::from_bits("B", 8, 8, Precision::Tf32, vec![0; 64]).unwrap();
    let s = spec(Platform::Dg2, Precision::Tf32, Precision::Tf32, DataType::F);
    let slow = matmul_instructions(&s, &a, &b, None).unwrap_err();
    let fast = spvx_dpas::gemm::matmul_fast(&s, &a, &b, None).unwrap_err();
    assert_eq!(slow, fast);
    assert_eq!(slow.rule(), Some(spvx_dpas::Rule::PlatformPrecision));
    // BF Dst before PVC.
    let a = ElementMatrix::from_bits("A", 2, 16, Precision::Bf16, vec![0; 32]).unwrap();
    let b = ElementMatrix::from_bits("B", 16, 8, Precision::Bf16, vec![0; 128]).unwrap();
    let s = spec(
        Platform::Dg2,
        Precision::Bf16,
        Precision::Bf16,
        DataType::Bf,
    );
    let slow = matmul_instructions(&s, &a, &b, None).unwrap_err();
    let fast = spvx_dpas::gemm::matmul_fast(&s, &a, &b, None).unwrap_err();
    assert_eq!(slow, fast);
    assert_eq!(slow.rule(), Some(spvx_dpas::Rule::DstType));
}

#[test]
fn huge_outputs_are_refused() {
    // 2^15 × 1 times 1 × 2^14: tiny inputs, but D would have 2^29 elements.
    let a = ElementMatrix::from_ints("A", 1 << 15, 1, Precision::S8, &vec![1; 1 << 15]).unwrap();
    let b = ElementMatrix::from_ints("B", 1, 1 << 14, Precision::S8, &vec![1; 1 << 14]).unwrap();
    let s = spec(Platform::Pvc, Precision::S8, Precision::S8, DataType::D);
    let e = spvx_dpas::gemm::matmul_fast(&s, &a, &b, None).unwrap_err();
    assert!(e.to_string().contains("M·N (elements of D)"), "{e}");
    assert_eq!(matmul_instructions(&s, &a, &b, None).unwrap_err(), e);
}
