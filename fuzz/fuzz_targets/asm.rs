//! Fuzz target `asm`: runs `spvx_fuzz::spirv::asm` (see fuzz/checks/spirv.rs).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| spvx_fuzz::spirv::asm(data));
