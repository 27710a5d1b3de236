//! Shared helpers of the glslang corpus tests (tests/corpus/glsl): loading a committed module,
//! and reading and writing little-endian values.
#![allow(dead_code)]

use spvx_exec::{CompileOptions, CompiledModule, ExecError};

/// The committed binary of `name` (e.g. "reduce.comp").
pub fn bytes(name: &str) -> Vec<u8> {
    let path = format!(
        "{}/tests/corpus/glsl/{name}.spv",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Compiles `name` with default options (validation on).
pub fn try_module(name: &str, opts: &CompileOptions) -> Result<CompiledModule, ExecError> {
    CompiledModule::from_bytes(&bytes(name), "main", opts)
}

/// Compiles `name` with default options, panicking with the error.
pub fn module(name: &str) -> CompiledModule {
    try_module(name, &CompileOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Little-endian bytes of 32-bit words.
pub fn le32(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// 32-bit words of little-endian bytes.
pub fn words(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// 64-bit words of little-endian bytes.
pub fn words64(b: &[u8]) -> Vec<u64> {
    b.chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap_or_default()))
        .collect()
}

/// A deterministic pseudo-random sequence (SplitMix64) for test inputs.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn next_u32(&mut self) -> u32 {
        (self.next() >> 32) as u32
    }
}
