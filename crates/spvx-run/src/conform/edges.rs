//! Edge values of integer types: the extremes, their neighbours, zero and ±1, as bit
//! patterns of a width.

use crate::prng::SplitMix64;

/// The inclusive range of a `bits`-wide integer (1..=64 bits).
pub fn range(bits: u32, signed: bool) -> (i128, i128) {
    if signed {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    }
}

/// The low `bits` bits of `v` (two's complement).
pub fn to_bits(v: i128, bits: u32) -> u64 {
    let mask = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    (v as u64) & mask
}

/// The value of `bits` read as a `width`-wide integer.
pub fn value(bits: u64, width: u32, signed: bool) -> i128 {
    let b = to_bits(i128::from(bits), width);
    if signed && width < 128 && (b >> (width - 1)) & 1 == 1 {
        i128::from(b) - (1i128 << width)
    } else {
        i128::from(b)
    }
}

/// The edge values of a type: min, min+1, -1, 0, 1, 2, max-1, max, and the signed limits'
/// neighbours as unsigned values (the bit patterns at which sign and zero extension differ).
pub fn int_edges(bits: u32, signed: bool) -> Vec<i128> {
    let (lo, hi) = range(bits, signed);
    let mut v = vec![lo, lo + 1, 0, 1, 2, hi - 1, hi];
    if signed {
        v.push(-1);
        v.push(-2);
    } else {
        let half = 1i128 << (bits - 1);
        v.extend([half - 1, half, half + 1]);
    }
    v.retain(|x| *x >= lo && *x <= hi);
    v.sort_unstable();
    v.dedup();
    v
}

/// A component: an edge value half of the time, else uniformly random bits.
pub fn component(rng: &mut SplitMix64, bits: u32, signed: bool, edges: &[i128]) -> i128 {
    if rng.next_u64() & 1 == 0 && !edges.is_empty() {
        edges[(rng.next_u64() % edges.len() as u64) as usize]
    } else {
        value(rng.next_u64(), bits, signed)
    }
}
