//! Fuzz target `binary_reader`: runs `spvx_fuzz::spirv::binary_reader` (see fuzz/checks/spirv.rs).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| spvx_fuzz::spirv::binary_reader(data));
