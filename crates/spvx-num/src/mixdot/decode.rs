//! Branch-free decoding of the input patterns of the native path (every f16, bf16, E4M3 and
//! E5M2 value is exact in f32): the pattern's exponent and fraction placed in an f32's fields
//! and the bias difference applied by an exact power-of-two scaling, subnormals included;
//! infinities and NaNs get the f32 exponent field of all ones (±∞ and NaN, which the scaling
//! keeps). No tables, so a vectorised loop needs no gathers. f16 and fp8 values stay in f32,
//! where their products are exact too (f16 × f16: 22 significant bits, magnitudes from 2⁻⁴⁸ to
//! 2³²; fp8 × fp8: at most 8 bits, 2⁻³² to 2³²), which halves the width of the vector work;
//! bf16 products can leave f32's range and are formed in f64.

use super::op::{Fp8Encoding, Half16Encoding};

/// `bits` (an f32 pattern 2^-scale times the value) times 2^scale, with the sign bit `sign`.
#[inline(always)]
fn scaled(bits: u32, scale: i32, sign: u32) -> f32 {
    f32::from_bits(bits | sign) * f32::from_bits(((scale + 127) as u32) << 23)
}

/// The value of the low 16 bits of `bits` as an f16: the fields moved into an f32's and
/// scaled by 2^112 (15 − 127 + 112 = 0).
#[inline(always)]
pub(super) fn f16(bits: u32) -> f32 {
    let magnitude = bits & 0x7fff;
    let special = if magnitude >= 0x7c00 { 0x7f80_0000 } else { 0 };
    scaled((magnitude << 13) | special, 112, (bits & 0x8000) << 16)
}

/// The value of the low 16 bits of `bits` in `enc` (bf16 is the top half of an f32).
#[inline(always)]
pub(super) fn half(enc: Half16Encoding, bits: u32) -> f64 {
    match enc {
        Half16Encoding::Bf16 => f64::from(f32::from_bits((bits & 0xffff) << 16)),
        Half16Encoding::F16 => f64::from(f16(bits)),
    }
}

/// The value of the low 8 bits of `bits` in `enc`: E4M3 (bias 7, NaN only S.1111.111) scaled
/// by 2^120, E5M2 (bias 15, IEEE-like specials) by 2^112.
#[inline(always)]
pub(super) fn fp8(enc: Fp8Encoding, bits: u32) -> f32 {
    let magnitude = bits & 0x7f;
    let sign = (bits & 0x80) << 24;
    match enc {
        Fp8Encoding::E4m3 => {
            let special = if magnitude == 0x7f { 0x7fc0_0000 } else { 0 };
            scaled((magnitude << 20) | special, 120, sign)
        }
        Fp8Encoding::E5m2 => {
            let special = if magnitude >= 0x7c { 0x7f80_0000 } else { 0 };
            scaled((magnitude << 21) | special, 112, sign)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::float::Format;

    /// Every pattern against spvx-num's own decoding (NaNs only as NaN).
    #[test]
    fn every_pattern_decodes_as_spvx_num_does() {
        let same = |got: f64, want: f64, what: &str| {
            if want.is_nan() {
                assert!(got.is_nan(), "{what}");
            } else {
                assert_eq!(got.to_bits(), want.to_bits(), "{what}");
            }
        };
        for bits in 0..=0xffffu32 {
            for (enc, format) in [
                (Half16Encoding::F16, Format::F16),
                (Half16Encoding::Bf16, Format::BF16),
            ] {
                let want = format.decode(u64::from(bits)).to_f64();
                same(half(enc, bits), want, &format!("{enc:?} {bits:#06x}"));
            }
        }
        for bits in 0..=0xffu32 {
            for (enc, format) in [
                (Fp8Encoding::E4m3, Format::E4M3),
                (Fp8Encoding::E5m2, Format::E5M2),
            ] {
                let want = format.decode(u64::from(bits)).to_f64();
                same(
                    f64::from(fp8(enc, bits)),
                    want,
                    &format!("{enc:?} {bits:#04x}"),
                );
            }
        }
    }
}
