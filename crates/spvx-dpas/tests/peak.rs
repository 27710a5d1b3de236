//! The peak loops and the side-by-side comparison return rates of the right form (positive
//! and finite where the CPU has the loop, an error where it has not); their speed is measured
//! by the `gemm` bench, not here.

mod common;

use common::{int_matrix, spec};
use spvx_dpas::gemm::peak::{PeakLoop, compare, measure_peak};
use spvx_dpas::{DataType, Platform, Precision};

#[test]
fn comparison_has_positive_rates_or_says_why_not() {
    let (m, k, n) = (48, 64, 64);
    let a = int_matrix("A", m, k, Precision::S8, &vec![3; m * k]);
    let b = int_matrix("B", k, n, Precision::S8, &vec![-5; k * n]);
    let s = spec(Platform::Pvc, Precision::S8, Precision::S8, DataType::D);
    let kind = PeakLoop::for_spec(&s);
    assert_eq!(kind, PeakLoop::Vnni);
    match compare(&s, &a, &b, kind, 1) {
        Ok(c) => {
            assert!(kind.is_available());
            assert!(c.gemm.is_finite() && c.gemm > 0.0, "{c:?}");
            assert!(c.peak.is_finite() && c.peak > 0.0, "{c:?}");
            assert!(c.ratio() > 0.0 && c.threads >= 1, "{c:?}");
        }
        Err(e) => {
            assert!(!kind.is_available());
            assert!(e.to_string().contains("AVX-512"), "{e}");
        }
    }
    let p = measure_peak(PeakLoop::Fma, 1);
    if PeakLoop::Fma.is_available() {
        assert!(p.one_thread > 0.0 && p.all_threads > 0.0, "{p:?}");
    } else {
        assert_eq!(p.one_thread, 0.0);
    }
}
