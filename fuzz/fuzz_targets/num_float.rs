//! Fuzz target `num_float`: runs `spvx_fuzz::num::num_float` (see fuzz/checks/num.rs).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| spvx_fuzz::num::num_float(data));
