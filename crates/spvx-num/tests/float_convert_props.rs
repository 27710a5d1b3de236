//! Random f32 and f64 patterns (and values placed on or next to rounding ties of the narrow
//! formats) through conversion to every format, every mode, with and without saturation,
//! compared with the independent oracle of `float_ref`; f64 values also through
//! `Format::from_f64`, and, for every value of the 16- and 8-bit formats with IEEE specials,
//! the midpoints to its neighbours and the f64 values next to them.

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
                if src.name == F64.name {
                    // `Format::from_f64`, which has its own path for round to nearest even.
                    let x = f64::from_bits(bits);
                    let got = lib_format(dst).from_f64(x, lib_mode(mode), sat);
                    prop_assert_eq!(
                        got,
                        want,
                        "from_f64 {:#x} -> {} {:?} sat={}",
                        bits,
                        dst.name,
                        mode,
                        sat
                    );
                }
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

/// `Format::from_f64` under round to nearest even without saturation (its own integer path)
/// on every midpoint between adjacent finite values of f16, bf16 and E5M2, on the f64 values
/// one and two units in the last place either side of it, and on every finite value itself,
/// both signs, against the oracle: every tie, every near-tie and the overflow threshold.
#[test]
fn from_f64_rounds_every_tie_of_the_narrow_ieee_formats() {
    for fmt in [F16, BF16, E5M2] {
        let max_index = fmt.max_pattern() >> fmt.pad;
        let value = |i: u64| match fmt.decode(fmt.pattern(i)) {
            RefVal::Fin(x) => x,
            _ => unreachable!("finite patterns up to the largest"),
        };
        for i in 0..=max_index {
            let lo = value(i);
            // (Past the largest value, the next one the exponent would give.)
            let hi = if i < max_index {
                value(i + 1)
            } else {
                2.0 * lo - value(i - 1)
            };
            let mid = (lo + hi) / 2.0;
            for x in [lo, mid] {
                for nudge in -2i64..=2 {
                    for sign in [0, 1u64 << 63] {
                        let bits = (x.to_bits() as i64 + nudge) as u64 | sign;
                        let want = oracle().expected(F64, bits, fmt, Mode::Rne, false);
                        let got = lib_format(fmt).from_f64(
                            f64::from_bits(bits),
                            spvx_num::float::RoundingMode::NearestEven,
                            false,
                        );
                        assert_eq!(got, want, "{} {bits:#x}", fmt.name);
                    }
                }
            }
        }
    }
}
