//! Random f32 and f64 patterns (and values placed on or next to rounding ties of the narrow
//! formats) through conversion to every format, every mode, with and without saturation,
//! compared with the independent oracle of `float_ref`.

mod float_ref;
use float_ref::*;
use proptest::prelude::*;
use spvx_num::float::convert;
use std::sync::OnceLock;

fn oracle() -> &'static Oracle {
    static O: OnceLock<Oracle> = OnceLock::new();
    O.get_or_init(Oracle::new)
}

fn check_all_targets(src: RefFormat, bits: u64) -> Result<(), TestCaseError> {
    for dst in ALL {
        for mode in MODES {
            for sat in [false, true] {
                let want = oracle().expected(src, bits, dst, mode, sat);
                let got = convert(lib_format(src), bits, lib_format(dst), lib_mode(mode), sat);
                prop_assert_eq!(
                    got,
                    want,
                    "{} {:#x} -> {} {:?} sat={}",
                    src.name,
                    bits,
                    dst.name,
                    mode,
                    sat
                );
            }
        }
    }
    Ok(())
}

/// An f64 on, just below or just above the midpoint between two adjacent values of a narrow
/// format, or next to its largest value (overflow thresholds).
fn near_tie() -> impl Strategy<Value = u64> {
    (0usize..5, any::<u32>(), -3i64..=3, any::<bool>()).prop_map(|(fi, r, nudge, neg)| {
        let fmt = [E4M3, E5M2, F16, BF16, TF32][fi];
        let max_index = fmt.max_pattern() >> fmt.pad;
        let i = r as u64 % (max_index + 1);
        let lo = match fmt.decode(fmt.pattern(i)) {
            RefVal::Fin(x) => x,
            _ => 0.0,
        };
        let hi = if i < max_index {
            match fmt.decode(fmt.pattern(i + 1)) {
                RefVal::Fin(x) => x,
                _ => lo,
            }
        } else {
            2.0 * lo
                - match fmt.decode(fmt.pattern(i - 1)) {
                    RefVal::Fin(x) => x,
                    _ => 0.0,
                }
        };
        let mid = (lo + hi) / 2.0;
        let bits = (mid.to_bits() as i64 + nudge) as u64;
        if neg { bits | 1 << 63 } else { bits }
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn random_f32_patterns(bits in any::<u32>()) {
        check_all_targets(F32, bits as u64)?;
    }

    #[test]
    fn random_f64_patterns(bits in any::<u64>()) {
        check_all_targets(F64, bits)?;
    }

    #[test]
    fn f64_values_near_ties(bits in near_tie()) {
        check_all_targets(F64, bits)?;
    }

    #[test]
    fn f32_values_near_ties(bits in near_tie()) {
        // The same neighbourhoods, as f32 where representable.
        let x = f64::from_bits(bits) as f32;
        check_all_targets(F32, x.to_bits() as u64)?;
    }
}
