//! Fuzz target `val_gen`: runs `spvx_fuzz::val::val_gen` (see fuzz/checks/val.rs).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| spvx_fuzz::val::val_gen(data));
