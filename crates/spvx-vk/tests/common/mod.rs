//! Shared helpers of the spvx-vk tests: the device (or the reason there is none), and
//! assembling modules with spvx-spirv.

#![allow(dead_code)]

use spvx_spirv::asm::{AsmOptions, assemble};
use spvx_vk::{DeviceChoice, VkRunner};

/// The first Vulkan device, or None (printing why) when there is none and SPVX_REQUIRE_VULKAN
/// is not set. With SPVX_REQUIRE_VULKAN=1 (CI) a missing device fails the test.
pub fn runner() -> Option<VkRunner> {
    match VkRunner::new(&DeviceChoice::First) {
        Ok(r) => Some(r),
        Err(e) => {
            if std::env::var("SPVX_REQUIRE_VULKAN").is_ok_and(|v| v == "1") {
                panic!("SPVX_REQUIRE_VULKAN=1 but no Vulkan device: {e}");
            }
            eprintln!("skipped: no Vulkan device ({e})");
            None
        }
    }
}

/// Assembles spirv-as text (SPIR-V 1.6 unless the text says otherwise).
pub fn asm(text: &str) -> Vec<u32> {
    match assemble(text, &AsmOptions::default()) {
        Ok(a) => a.words(),
        Err(e) => panic!("test module does not assemble: {e}\n{text}"),
    }
}

/// Little-endian bytes of u32 words.
pub fn le32(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// u32 words of little-endian bytes.
pub fn words32(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}
