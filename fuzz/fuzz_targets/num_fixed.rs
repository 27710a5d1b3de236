//! Fuzz target `num_fixed`: runs `spvx_fuzz::num::num_fixed` (see fuzz/checks/num.rs).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| spvx_fuzz::num::num_fixed(data));
