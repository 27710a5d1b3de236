//! Fuzz target `dis_roundtrip`: runs `spvx_fuzz::spirv::dis_roundtrip` (see fuzz/checks/spirv.rs).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| spvx_fuzz::spirv::dis_roundtrip(data));
