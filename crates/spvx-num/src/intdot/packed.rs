//! PackedVectorFormat4x8Bit: a 32-bit scalar read as four 8-bit components, "the lowest-numbered
//! component stored in the least significant byte".

/// The four 8-bit component patterns of a packed word; component 0 is the least significant
/// byte. Feed the result to [`super::DotSpec`] methods with an 8-bit component width.
#[inline]
pub fn unpack4x8(word: u32) -> [u64; 4] {
    let [c0, c1, c2, c3] = word.to_le_bytes();
    [u64::from(c0), u64::from(c1), u64::from(c2), u64::from(c3)]
}

/// Packs four 8-bit component patterns (component 0 into the least significant byte).
#[inline]
pub fn pack4x8(components: [u8; 4]) -> u32 {
    u32::from_le_bytes(components)
}
