//! Element types of buffer data (`u8` … `f64`, `bf16`, `e4m3`, `e5m2`): the one enum every
//! layer above uses for "how to read these little-endian bytes" — run files, `.npy` data,
//! expectations, comparisons, Vulkan reflection. Their names and sizes, turning one written value
//! into bits, printing an element back, and the float facts a comparison needs (NaN, distance
//! in ULPs).
//!
//! Integers are range-checked against the type; `0x`/`0b`/`0o` literals give the bits directly
//! (any type, they must fit its width). Decimal float text is rounded once, to nearest even,
//! from its exact decimal value into the type ([`Format::parse_decimal`]), so `f16 = [0.1]`
//! holds the f16 nearest to 1/10, not the f16 nearest to the f64 nearest to it.
//!
//! It knows bits and formats only: nothing of buffers, files or SPIR-V.

use crate::float::{Format, RoundingMode};
use std::fmt;

/// An element type of buffer data (little-endian).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElemType {
    U8,
    I8,
    U16,
    I16,
    U32,
    I32,
    U64,
    I64,
    F16,
    Bf16,
    F32,
    F64,
    /// OCP E4M3FN (no infinities; NaN is S.1111.111).
    E4m3,
    /// OCP E5M2 (IEEE-like).
    E5m2,
}

/// Why a written value is not a value of an element type.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ElemError {
    /// An integer outside the type's range.
    #[error("{value} is outside the range of {elem} ({lo}..={hi})")]
    OutOfRange {
        value: i128,
        elem: ElemType,
        lo: i128,
        hi: i128,
    },
    /// `0x`/`0b`/`0o` bits wider than the type.
    #[error("{text} does not fit in the {} bits of {elem}", elem.bits())]
    TooWide { text: String, elem: ElemType },
    /// `0x`/`0b`/`0o` text that is no number of at most 64 bits.
    #[error("'{text}' is not a valid base-{radix} number of at most 64 bits")]
    BadBits { text: String, radix: u32 },
    /// Text that is no value of a float type.
    #[error("'{text}' is not a {elem} value (a decimal, inf, nan or 0x bits)")]
    NotFloat { text: String, elem: ElemType },
    /// Text that is no value of an integer type.
    #[error("'{text}' is not a {elem} value (an integer or 0x bits)")]
    NotInteger { text: String, elem: ElemType },
}

impl ElemType {
    /// Every type, in the order the help lists them.
    pub const ALL: [ElemType; 14] = [
        ElemType::U8,
        ElemType::I8,
        ElemType::U16,
        ElemType::I16,
        ElemType::U32,
        ElemType::I32,
        ElemType::U64,
        ElemType::I64,
        ElemType::F16,
        ElemType::Bf16,
        ElemType::F32,
        ElemType::F64,
        ElemType::E4m3,
        ElemType::E5m2,
    ];

    /// The name used in run files and on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            ElemType::U8 => "u8",
            ElemType::I8 => "i8",
            ElemType::U16 => "u16",
            ElemType::I16 => "i16",
            ElemType::U32 => "u32",
            ElemType::I32 => "i32",
            ElemType::U64 => "u64",
            ElemType::I64 => "i64",
            ElemType::F16 => "f16",
            ElemType::Bf16 => "bf16",
            ElemType::F32 => "f32",
            ElemType::F64 => "f64",
            ElemType::E4m3 => "e4m3",
            ElemType::E5m2 => "e5m2",
        }
    }

    /// NumPy's name of the type (`float32`); bf16 and fp8 by the names of the ml_dtypes
    /// package, which NumPy users take them from (`bfloat16`, `float8_e4m3fn`, `float8_e5m2`).
    pub const fn numpy_name(self) -> &'static str {
        match self {
            ElemType::U8 => "uint8",
            ElemType::I8 => "int8",
            ElemType::U16 => "uint16",
            ElemType::I16 => "int16",
            ElemType::U32 => "uint32",
            ElemType::I32 => "int32",
            ElemType::U64 => "uint64",
            ElemType::I64 => "int64",
            ElemType::F16 => "float16",
            ElemType::Bf16 => "bfloat16",
            ElemType::F32 => "float32",
            ElemType::F64 => "float64",
            ElemType::E4m3 => "float8_e4m3fn",
            ElemType::E5m2 => "float8_e5m2",
        }
    }

    /// The type called `name`: spvx's name (`f32`) or NumPy's (`float32`).
    pub fn from_name(name: &str) -> Option<ElemType> {
        ElemType::ALL
            .into_iter()
            .find(|t| t.name() == name || t.numpy_name() == name)
    }

    /// All names, comma-separated (for messages).
    pub fn names() -> String {
        ElemType::ALL.map(ElemType::name).join(", ")
    }

    /// Bytes per element.
    pub const fn size(self) -> usize {
        match self {
            ElemType::U8 | ElemType::I8 | ElemType::E4m3 | ElemType::E5m2 => 1,
            ElemType::U16 | ElemType::I16 | ElemType::F16 | ElemType::Bf16 => 2,
            ElemType::U32 | ElemType::I32 | ElemType::F32 => 4,
            ElemType::U64 | ElemType::I64 | ElemType::F64 => 8,
        }
    }

    /// Bits per element.
    pub const fn bits(self) -> u32 {
        self.size() as u32 * 8
    }

    /// The unsigned integer type of `bytes` bytes per element (1, 2, 4, 8), else u8.
    pub const fn unsigned_of_size(bytes: u32) -> ElemType {
        match bytes {
            2 => ElemType::U16,
            4 => ElemType::U32,
            8 => ElemType::U64,
            _ => ElemType::U8,
        }
    }

    /// The float format, for float types.
    pub const fn float_format(self) -> Option<Format> {
        match self {
            ElemType::F16 => Some(Format::F16),
            ElemType::Bf16 => Some(Format::BF16),
            ElemType::F32 => Some(Format::F32),
            ElemType::F64 => Some(Format::F64),
            ElemType::E4m3 => Some(Format::E4M3),
            ElemType::E5m2 => Some(Format::E5M2),
            _ => None,
        }
    }

    /// True for the signed integer types.
    pub const fn is_signed_int(self) -> bool {
        matches!(
            self,
            ElemType::I8 | ElemType::I16 | ElemType::I32 | ElemType::I64
        )
    }

    /// The inclusive value range of an integer type.
    pub fn int_range(self) -> Option<(i128, i128)> {
        if self.float_format().is_some() {
            return None;
        }
        let bits = self.bits();
        Some(if self.is_signed_int() {
            (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
        } else {
            (0, (1i128 << bits) - 1)
        })
    }

    /// The mask of the element's bits.
    pub const fn mask(self) -> u64 {
        if self.bits() == 64 {
            u64::MAX
        } else {
            (1u64 << self.bits()) - 1
        }
    }

    /// The bits of an integer value, range-checked.
    pub fn encode_int(self, value: i128) -> Result<u64, ElemError> {
        match self.int_range() {
            Some((lo, hi)) if value < lo || value > hi => Err(ElemError::OutOfRange {
                value,
                elem: self,
                lo,
                hi,
            }),
            Some(_) => Ok((value as u64) & self.mask()),
            // An integer written for a float type is a decimal value like any other.
            None => self.encode_text(&value.to_string()),
        }
    }

    /// The bits of a value written as text: a decimal integer or float, `inf`/`nan`, or
    /// `0x`/`0b`/`0o` bits. Underscores between digits are ignored (TOML allows them).
    pub fn encode_text(self, text: &str) -> Result<u64, ElemError> {
        let t: String = text.trim().chars().filter(|&c| c != '_').collect();
        if let Some(bits) = parse_bits(&t)? {
            if bits & !self.mask() != 0 {
                return Err(ElemError::TooWide {
                    text: text.to_string(),
                    elem: self,
                });
            }
            return Ok(bits);
        }
        match self.float_format() {
            Some(format) => format
                .parse_decimal(&t, RoundingMode::NearestEven)
                .map(|(bits, _exact)| bits)
                .map_err(|_| ElemError::NotFloat {
                    text: text.to_string(),
                    elem: self,
                }),
            None => {
                let value: i128 = t.parse().map_err(|_| ElemError::NotInteger {
                    text: text.to_string(),
                    elem: self,
                })?;
                self.encode_int(value)
            }
        }
    }

    /// Appends the `size()` little-endian bytes of `bits`.
    pub fn push_bytes(self, bits: u64, out: &mut Vec<u8>) {
        out.extend_from_slice(&bits.to_le_bytes()[..self.size()]);
    }

    /// Element `i` of little-endian `bytes`, zero-extended (a trailing partial element reads
    /// the bytes there are; past the end, 0).
    pub fn bits_at(self, bytes: &[u8], i: usize) -> u64 {
        let n = self.size();
        let mut w = [0u8; 8];
        let start = i.saturating_mul(n);
        let end = (start.saturating_add(n)).min(bytes.len());
        if start < end {
            w[..end - start].copy_from_slice(&bytes[start..end]);
        }
        u64::from_le_bytes(w)
    }

    /// An element for people: its value and its bits.
    pub fn display(self, bits: u64) -> String {
        let hex = format!("0x{:0width$x}", bits, width = self.size() * 2);
        format!("{} ({hex})", self.value_text(bits))
    }

    /// An element's value alone: integers in decimal (signed ones sign-extended), floats as
    /// the shortest decimal of their exact value in f64 (`NaN`, `inf`, `-inf`).
    pub fn value_text(self, bits: u64) -> String {
        match self.float_format() {
            Some(format) => format.to_f64(bits).to_string(),
            None if self.is_signed_int() => {
                let shift = 64 - self.bits();
                (((bits << shift) as i64) >> shift).to_string()
            }
            None => bits.to_string(),
        }
    }

    /// Exponent and mantissa bits of a float type (None for integers).
    const fn float_bits(self) -> Option<(u32, u32)> {
        match self {
            ElemType::F16 => Some((5, 10)),
            ElemType::Bf16 => Some((8, 7)),
            ElemType::F32 => Some((8, 23)),
            ElemType::F64 => Some((11, 52)),
            ElemType::E4m3 => Some((4, 3)),
            ElemType::E5m2 => Some((5, 2)),
            _ => None,
        }
    }

    /// True when `bits` is a NaN of this float type (never for integer types).
    pub fn is_nan(self, bits: u64) -> bool {
        let Some((e, m)) = self.float_bits() else {
            return false;
        };
        let mag = bits & ((1u64 << (e + m)) - 1);
        if self == ElemType::E4m3 {
            return mag == 0x7f;
        }
        let exp = mag >> m;
        exp == (1 << e) - 1 && mag & ((1 << m) - 1) != 0
    }

    /// The distance in units in the last place between two non-NaN floats of this type,
    /// counted on the ordered bit patterns (+0 and −0 are 0 apart); None for integer types.
    pub fn ulp_distance(self, a: u64, b: u64) -> Option<u64> {
        let (e, m) = self.float_bits()?;
        let width = e + m + 1;
        let ordered = |x: u64| -> i128 {
            let mag = i128::from(x & ((1u64 << (width - 1)) - 1));
            if (x >> (width - 1)) & 1 == 1 {
                -mag
            } else {
                mag
            }
        };
        Some(ordered(a).abs_diff(ordered(b)) as u64)
    }
}

impl fmt::Display for ElemType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// `0x…`, `0b…`, `0o…` as bits (no sign allowed); `None` for other text.
fn parse_bits(t: &str) -> Result<Option<u64>, ElemError> {
    let lower = t.to_ascii_lowercase();
    let (digits, radix) = if let Some(d) = lower.strip_prefix("0x") {
        (d, 16)
    } else if let Some(d) = lower.strip_prefix("0b") {
        (d, 2)
    } else if let Some(d) = lower.strip_prefix("0o") {
        (d, 8)
    } else {
        return Ok(None);
    };
    u64::from_str_radix(digits, radix)
        .map(Some)
        .map_err(|_| ElemError::BadBits {
            text: t.to_string(),
            radix,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(t: ElemType, text: &str) -> Vec<u8> {
        let mut out = Vec::new();
        t.push_bytes(t.encode_text(text).unwrap(), &mut out);
        out
    }

    #[test]
    fn numpy_names_are_accepted_too() {
        for (numpy, ours) in [
            ("uint8", ElemType::U8),
            ("int16", ElemType::I16),
            ("uint32", ElemType::U32),
            ("int64", ElemType::I64),
            ("float16", ElemType::F16),
            ("bfloat16", ElemType::Bf16),
            ("float32", ElemType::F32),
            ("float64", ElemType::F64),
            ("float8_e4m3fn", ElemType::E4m3),
            ("float8_e5m2", ElemType::E5m2),
        ] {
            assert_eq!(ElemType::from_name(numpy), Some(ours), "{numpy}");
        }
        assert_eq!(ElemType::from_name("f32"), Some(ElemType::F32));
        assert_eq!(ElemType::from_name("float"), None);
    }

    #[test]
    fn integers_by_hand() {
        assert_eq!(bytes(ElemType::I8, "-128"), [0x80]);
        assert_eq!(bytes(ElemType::I16, "-2"), [0xfe, 0xff]);
        assert_eq!(bytes(ElemType::U32, "0xdeadbeef"), [0xef, 0xbe, 0xad, 0xde]);
        assert_eq!(bytes(ElemType::U64, "1_000"), [0xe8, 3, 0, 0, 0, 0, 0, 0]);
        assert!(ElemType::I8.encode_text("128").is_err());
        assert!(ElemType::U8.encode_text("-1").is_err());
        assert!(ElemType::U8.encode_text("0x100").is_err());
        assert!(ElemType::U16.encode_text("1.5").is_err());
    }

    #[test]
    fn messages_by_hand() {
        let e = |t: ElemType, s: &str| t.encode_text(s).unwrap_err().to_string();
        assert_eq!(
            e(ElemType::I8, "128"),
            "128 is outside the range of i8 (-128..=127)"
        );
        assert_eq!(
            e(ElemType::U8, " 0x100"),
            " 0x100 does not fit in the 8 bits of u8"
        );
        assert_eq!(
            e(ElemType::U8, "0xg"),
            "'0xg' is not a valid base-16 number of at most 64 bits"
        );
        assert_eq!(
            e(ElemType::F16, "x"),
            "'x' is not a f16 value (a decimal, inf, nan or 0x bits)"
        );
        assert_eq!(
            e(ElemType::U16, "1.5"),
            "'1.5' is not a u16 value (an integer or 0x bits)"
        );
    }

    #[test]
    fn floats_by_hand() {
        // f16 1.0 = 0x3c00; f16(0.1) = 0x2e66 (0.0999755859375, nearest to 1/10).
        assert_eq!(bytes(ElemType::F16, "1"), [0x00, 0x3c]);
        assert_eq!(bytes(ElemType::F16, "0.1"), [0x66, 0x2e]);
        // bf16 of 1/3: 0x3eab (0.333984375); f32 -2.5 = 0xc0200000.
        assert_eq!(bytes(ElemType::Bf16, "0.3333333333"), [0xab, 0x3e]);
        assert_eq!(bytes(ElemType::F32, "-2.5"), [0x00, 0x00, 0x20, 0xc0]);
        // e4m3 448 = 0x7e (S.1111.110), e5m2 -inf = 0xfc.
        assert_eq!(bytes(ElemType::E4m3, "448"), [0x7e]);
        assert_eq!(bytes(ElemType::E5m2, "-inf"), [0xfc]);
        assert_eq!(ElemType::F16.display(0x3c00), "1 (0x3c00)");
        assert_eq!(ElemType::I8.display(0xff), "-1 (0xff)");
    }

    #[test]
    fn nans_and_ulps_by_hand() {
        // E4M3FN: only S.1111.111 is NaN; 0x7e is 448. E5M2: 0x7d NaN, 0x7c infinity.
        assert!(ElemType::E4m3.is_nan(0x7f) && ElemType::E4m3.is_nan(0xff));
        assert!(!ElemType::E4m3.is_nan(0x7e));
        assert!(ElemType::E5m2.is_nan(0x7d) && !ElemType::E5m2.is_nan(0x7c));
        assert!(ElemType::F16.is_nan(0x7e00) && !ElemType::U16.is_nan(0x7e00));
        // f32: -0 and +0 are 0 apart; the smallest subnormals of either sign 2 apart.
        assert_eq!(ElemType::F32.ulp_distance(0, 0x8000_0000), Some(0));
        assert_eq!(ElemType::F32.ulp_distance(1, 0x8000_0001), Some(2));
        assert_eq!(ElemType::U32.ulp_distance(1, 2), None);
    }

    #[test]
    fn bits_at_zero_extends() {
        let b = [1u8, 2, 3, 4, 5];
        assert_eq!(ElemType::U32.bits_at(&b, 0), 0x0403_0201);
        assert_eq!(ElemType::U32.bits_at(&b, 1), 5);
        assert_eq!(ElemType::U32.bits_at(&b, 2), 0);
    }
}
