//! Fuzz target `dpas_parse`: runs `spvx_fuzz::dpas::dpas_parse` (see fuzz/checks/dpas.rs).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| spvx_fuzz::dpas::dpas_parse(data));
