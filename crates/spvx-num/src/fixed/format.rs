//! Fixed-point formats: width W, integer bits I, signedness; value = N · 2^(I − W).

use super::FixedError;
use num_bigint::{BigInt, BigUint, Sign};
use num_traits::{One, Zero};

/// The largest width accepted for inputs and results (bits).
pub const MAX_WIDTH: u32 = 1 << 16;

/// An ac_fixed format `<W, I, S>`: `width` bits, `int_bits` integer bits (any `i32`, negative or
/// above `width`), two's complement when `signed`. The raw integer N of the bits has the value
/// `N · 2^(int_bits − width)` (reference/acfixed.md §1.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FixedFormat {
    width: u32,
    int_bits: i32,
    signed: bool,
}

impl FixedFormat {
    /// A format; fails when `width` is 0 or above [`MAX_WIDTH`].
    pub fn new(width: u32, int_bits: i32, signed: bool) -> Result<Self, FixedError> {
        if width == 0 || width > MAX_WIDTH {
            return Err(FixedError::InvalidWidth {
                what: "fixed-point",
                width: width as u64,
                max: MAX_WIDTH,
            });
        }
        Ok(FixedFormat {
            width,
            int_bits,
            signed,
        })
    }

    /// W: the number of bits.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// I: the number of integer bits.
    pub fn int_bits(&self) -> i32 {
        self.int_bits
    }

    /// Whether the bits are two's complement.
    pub fn signed(&self) -> bool {
        self.signed
    }

    /// The exponent of the least significant bit, `I − W` (the quantum is `2^lsb_exponent`).
    pub fn lsb_exponent(&self) -> i64 {
        self.int_bits as i64 - self.width as i64
    }

    /// The smallest raw integer: `−2^(W−1)` signed, 0 unsigned.
    pub fn raw_min(&self) -> BigInt {
        if self.signed {
            -(BigInt::one() << (self.width - 1))
        } else {
            BigInt::zero()
        }
    }

    /// The largest raw integer: `2^(W−1) − 1` signed, `2^W − 1` unsigned.
    pub fn raw_max(&self) -> BigInt {
        let bits = if self.signed {
            self.width - 1
        } else {
            self.width
        };
        (BigInt::one() << bits) - 1
    }

    /// The raw integer N held in `bits` (two's complement when signed). Fails when `bits` has
    /// set bits at or above W.
    pub fn decode(&self, bits: &BigUint) -> Result<BigInt, FixedError> {
        if bits.bits() > self.width as u64 {
            return Err(FixedError::InputTooWide {
                bits: bits.bits(),
                width: self.width,
            });
        }
        let n = BigInt::from_biguint(Sign::Plus, bits.clone());
        if self.signed && bits.bit(self.width as u64 - 1) {
            Ok(n - (BigInt::one() << self.width))
        } else {
            Ok(n)
        }
    }

    /// The W-bit pattern of raw integer `n`, reduced modulo 2^W (two's complement).
    pub fn encode(&self, n: &BigInt) -> BigUint {
        let modulus = BigInt::one() << self.width;
        let r = ((n % &modulus) + &modulus) % &modulus;
        r.to_biguint().unwrap_or_default()
    }

    /// Whether raw integer `n` lies in the format's range.
    pub fn contains(&self, n: &BigInt) -> bool {
        *n >= self.raw_min() && *n <= self.raw_max()
    }
}
