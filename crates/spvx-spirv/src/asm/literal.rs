//! Integer literals, spelled as spirv-as accepts them and sized by the type they belong to.
//!
//! Syntax (SPIRV-Tools parses with C++ stream base detection): an optional `+` or `-`, then
//! `0x`/`0X` and hex digits, or `0` and octal digits, or a decimal number. The whole word must
//! be consumed. Ranges: an unsigned type of width w takes 0 ≤ v < 2^w (no minus sign at all,
//! not even `-0`); a signed type takes −2^(w−1) ≤ v < 2^(w−1) when written in decimal or octal,
//! and a hex literal starting with `0x` (no sign) is a bit pattern of w bits (0 ≤ v < 2^w), read as
//! two's complement. The encoding is ceil(w/32) words (at least one), low word first, signed
//! values sign-extended and unsigned ones zero-extended to the whole words — the layout spirv-as
//! writes for w ≤ 64. spirv-as rejects w > 64; spvx extends the same rules to any width
//! (SPV_INTEL_arbitrary_precision_integers).

/// Why an integer literal was rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntError {
    /// Not an integer in the accepted syntax.
    Syntax,
    /// A minus sign for an unsigned type.
    Negative,
    /// The value does not fit the type.
    OutOfRange,
}

/// An integer literal as written: its sign, whether it was hex, and its magnitude.
struct Parsed {
    negative: bool,
    hex: bool,
    /// Magnitude, little-endian 32-bit limbs, no high zero limbs.
    magnitude: Vec<u32>,
}

/// Parses the syntax; gives up with `OutOfRange` once the magnitude exceeds `max_limbs` limbs.
fn parse(text: &str, max_limbs: usize) -> Result<Parsed, IntError> {
    let b = text.as_bytes();
    let (negative, rest) = match b.first() {
        Some(b'-') => (true, &b[1..]),
        Some(b'+') => (false, &b[1..]),
        _ => (false, b),
    };
    let (radix, digits, hex) =
        if rest.len() >= 2 && rest[0] == b'0' && matches!(rest[1], b'x' | b'X') {
            // Only a literal that starts with `0x` is a bit pattern for spirv-as: `+0x...`
            // is read in hex but range-checked like a decimal number.
            (16u32, &rest[2..], b.len() == rest.len())
        } else if rest.len() > 1 && rest[0] == b'0' {
            (8, &rest[1..], false)
        } else {
            (10, rest, false)
        };
    if digits.is_empty() {
        return Err(IntError::Syntax);
    }
    let mut magnitude: Vec<u32> = Vec::new();
    for &c in digits {
        let d = (c as char).to_digit(radix).ok_or(IntError::Syntax)?;
        let mut carry = d as u64;
        for limb in magnitude.iter_mut() {
            let v = *limb as u64 * radix as u64 + carry;
            *limb = v as u32;
            carry = v >> 32;
        }
        if carry != 0 {
            if magnitude.len() >= max_limbs {
                // Keep checking the syntax so that a malformed word is reported as such.
                if digits.iter().all(|&c| (c as char).is_digit(radix)) {
                    return Err(IntError::OutOfRange);
                }
                return Err(IntError::Syntax);
            }
            magnitude.push(carry as u32);
        }
    }
    Ok(Parsed {
        negative,
        hex,
        magnitude,
    })
}

/// The number of significant bits of a magnitude.
fn bit_len(m: &[u32]) -> u64 {
    match m.last() {
        None => 0,
        Some(&top) => (m.len() as u64 - 1) * 32 + (32 - top.leading_zeros()) as u64,
    }
}

/// True when the magnitude is exactly 2^k.
fn is_power_of_two(m: &[u32], k: u64) -> bool {
    bit_len(m) == k + 1 && m.iter().map(|w| w.count_ones()).sum::<u32>() == 1
}

/// The number of words a literal of `width` bits occupies.
pub fn words_for_width(width: u32) -> usize {
    (width.max(1) as usize).div_ceil(32)
}

/// Encodes an integer literal for an integer type of `width` bits, low word first.
pub fn encode_int(text: &str, width: u32, signed: bool) -> Result<Vec<u32>, IntError> {
    let n = words_for_width(width);
    let p = parse(text, n + 1)?;
    if p.negative && !signed {
        return Err(IntError::Negative);
    }
    let len = bit_len(&p.magnitude);
    let w = width as u64;
    let fits = if !signed || (p.hex && !p.negative) {
        len <= w
    } else if p.negative {
        len < w || is_power_of_two(&p.magnitude, w.saturating_sub(1)) || len == 0
    } else {
        len < w
    };
    if !fits {
        return Err(IntError::OutOfRange);
    }
    let mut words = p.magnitude;
    words.resize(n, 0);
    if p.negative {
        // Two's complement over the whole words.
        let mut carry = 1u64;
        for limb in words.iter_mut() {
            let v = (!*limb) as u64 + carry;
            *limb = v as u32;
            carry = v >> 32;
        }
    } else if signed && p.hex && w > 0 && len == w {
        // A hex bit pattern with its sign bit set: sign-extend from bit w-1.
        let bit = width - 1;
        let (word, b) = ((bit / 32) as usize, bit % 32);
        if b < 31 {
            words[word] |= !0u32 << (b + 1);
        }
        for limb in words.iter_mut().skip(word + 1) {
            *limb = !0;
        }
    }
    Ok(words)
}

/// A 32-bit unsigned literal (`LiteralInteger` operands, `!<integer>` raw words).
pub fn encode_u32(text: &str) -> Result<u32, IntError> {
    encode_int(text, 32, false).map(|w| w[0])
}

/// An integer after a raw word, whose type is unknown: spirv-as takes −2^31 ≤ v < 2^32 and
/// writes one word.
pub fn encode_untyped_int(text: &str) -> Result<u32, IntError> {
    let p = parse(text, 2)?;
    let len = bit_len(&p.magnitude);
    let v = p.magnitude.first().copied().unwrap_or(0);
    if p.negative {
        if len <= 31 || (len == 32 && v == 0x8000_0000) {
            Ok(v.wrapping_neg())
        } else {
            Err(IntError::OutOfRange)
        }
    } else if len <= 32 {
        Ok(v)
    } else {
        Err(IntError::OutOfRange)
    }
}
