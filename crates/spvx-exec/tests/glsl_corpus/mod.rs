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

/// The value of binary16 bits (exact in f64).
pub fn f16_value(bits: u16) -> f64 {
    let sign = if bits & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = i32::from((bits >> 10) & 0x1f);
    let m = f64::from(bits & 0x3ff);
    sign * match e {
        0 => m * 2f64.powi(-24),
        31 if m == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1024.0 + m) * 2f64.powi(e - 25),
    }
}

/// `x` (exact in f64) rounded to binary16, to nearest even, by integer scaling (written here
/// from IEEE 754, not taken from the engine). NaN gives the canonical 0x7e00.
pub fn f16_round(x: f64) -> u16 {
    if x.is_nan() {
        return 0x7e00;
    }
    let sign = if x.is_sign_negative() { 0x8000 } else { 0 };
    let a = x.abs();
    if a == 0.0 {
        return sign;
    }
    if a.is_infinite() {
        return sign | 0x7c00;
    }
    // Exponent of a (2^e <= a < 2^(e+1)), from the f64 bits (a is normal in f64 here).
    let e = ((a.to_bits() >> 52) as i32) - 1023;
    let ulp_exp = e.max(-14) - 10;
    let q = (a * 2f64.powi(-ulp_exp)).round_ties_even();
    let v = q * 2f64.powi(ulp_exp);
    if v >= 65536.0 {
        return sign | 0x7c00;
    }
    if v < 2f64.powi(-14) {
        return sign | q as u16;
    }
    let e = ((v.to_bits() >> 52) as i32) - 1023;
    let mant = (v * 2f64.powi(10 - e)) as u16 - 1024;
    sign | (((e + 15) as u16) << 10) | mant
}
