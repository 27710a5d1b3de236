//! Encodes a header and instructions as a SPIR-V binary (little-endian bytes or host words).

use super::header::Header;
use crate::instruction::Instruction;

/// The module's words: header, then each instruction.
pub fn to_words(header: &Header, instructions: &[Instruction]) -> Vec<u32> {
    let mut out = Vec::with_capacity(
        5 + instructions
            .iter()
            .map(Instruction::word_count)
            .sum::<usize>(),
    );
    out.extend_from_slice(&header.words());
    for inst in instructions {
        inst.encode(&mut out);
    }
    out
}

/// The module as little-endian bytes, the byte order spirv-as writes.
pub fn to_bytes(header: &Header, instructions: &[Instruction]) -> Vec<u8> {
    to_words(header, instructions)
        .into_iter()
        .flat_map(u32::to_le_bytes)
        .collect()
}
