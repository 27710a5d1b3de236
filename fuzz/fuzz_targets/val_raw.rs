//! Fuzz target `val_raw`: runs `spvx_fuzz::val::val_raw` (see fuzz/checks/val.rs).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| spvx_fuzz::val::val_raw(data));
