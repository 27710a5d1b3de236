//! Branch-free decoding of the input patterns of the native exact path into f64 (every
//! f16, bf16, E4M3 and E5M2 value is exact in f32, hence in f64): the pattern's exponent and
//! fraction placed in an f32's fields and the bias difference applied by an exact power-of-two
//! scaling, subnormals included; infinities and NaNs get the f32 exponent field of all ones
//! (±∞ and NaN, which the scaling keeps). No tables, so a vectorised loop needs no gathers.

use super::op::{Fp8Encoding, Half16Encoding};

/// `bits` (the f32 pattern of a value `2^-scale` times too small) times 2^scale, with `sign`.
#[inline(always)]
fn scaled(bits: u32, scale: i32, negative: bool) -> f64 {
    let v = f64::from(f32::from_bits(bits)) * f64::from_bits(((scale + 1023) as u64) << 52);
    f64::from_bits(v.to_bits() | (u64::from(negative) << 63))
}

/// The value of the low 16 bits of `bits` in `enc`: bf16 is the top half of an f32; f16's
/// fields moved into an f32's and scaled by 2^112 (15 − 127 + 112 = 0).
#[inline(always)]
pub(super) fn half(enc: Half16Encoding, bits: u32) -> f64 {
    let bits = bits & 0xffff;
    match enc {
        Half16Encoding::Bf16 => f64::from(f32::from_bits(bits << 16)),
        Half16Encoding::F16 => {
            let magnitude = bits & 0x7fff;
            let special = if magnitude >= 0x7c00 { 0x7f80_0000 } else { 0 };
            scaled((magnitude << 13) | special, 112, bits & 0x8000 != 0)
        }
    }
}

/// The value of the low 8 bits of `bits` in `enc`: E4M3 (bias 7, NaN only S.1111.111) scaled
/// by 2^120, E5M2 (bias 15, IEEE-like specials) by 2^112.
#[inline(always)]
pub(super) fn fp8(enc: Fp8Encoding, bits: u32) -> f64 {
    let magnitude = bits & 0x7f;
    let negative = bits & 0x80 != 0;
    match enc {
        Fp8Encoding::E4m3 => {
            let special = if magnitude == 0x7f { 0x7fc0_0000 } else { 0 };
            scaled((magnitude << 20) | special, 120, negative)
        }
        Fp8Encoding::E5m2 => {
            let special = if magnitude >= 0x7c { 0x7f80_0000 } else { 0 };
            scaled((magnitude << 21) | special, 112, negative)
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
                same(fp8(enc, bits), want, &format!("{enc:?} {bits:#04x}"));
            }
        }
    }
}
